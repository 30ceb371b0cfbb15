// HK019: entities that share a partition are told apart by their sort keys, so a query of one
// returns only its own items; but DynamoDB reads (and bills) every item in the queried key range.
// When another entity's sort keys can fall inside that range (seed 000's sequence: a metadata item
// at position 0 beside items 1..n, and a query over the positions), each query pays for the other's
// items too: the extra read units per query, from the declared itemsPerKey and itemBytes. Ranges
// kept apart by a literal sort-key prefix (Category#… vs Article#…) cost nothing and say nothing.
import type { SegmentDef } from '../../../templates/runtime/codec.js';
import { keySegments } from '../../model/key-segments.js';
import { bytesText, type EntitySpace, units } from '../../model/load-model.js';
import { sortKeyCanOverlap, templatesCanCollide } from '../../validate/key-collisions.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { Finding, LintRule } from '../rule.js';

/** Read units per 4 KB read, eventually consistent (strongly consistent: twice). */
const BYTES_PER_RCU = 4096;

const segments = (space: EntitySpace) => {
  const shard = space.index === 'table' ? space.entity.key.shard : space.entity.indexes[space.index]?.shard;
  const pk = keySegments(space.entity, space.pk, shard);
  const sk = space.sk ? keySegments(space.entity, space.sk) : undefined;
  return pk && sk ? { pk, sk } : undefined;
};

export const sharedPartitionReadCost: LintRule = {
  id: 'HK019',
  name: 'shared-partition-read-cost',
  check: ({ spaces }) => {
    const entities = spaces.filter((s): s is EntitySpace => s.kind === 'entity' && s.sk !== undefined);
    const findings: Finding[] = [];
    // Each space's segments once, and spaces grouped by what their partition keys start with: keys
    // of another index, of another length or starting with another literal never collide.
    const segmentsOf = new Map(entities.map((space) => [space, segments(space)]));
    const position = new Map(entities.map((space, i) => [space, i]));
    const groups = new Map<string, EntitySpace[]>();
    const group = (key: string) => groups.get(key) ?? (groups.set(key, []), groups.get(key)!);
    const start = (space: EntitySpace, pk: readonly SegmentDef[]) => `${space.index}\0${pk.length}\0${pk[0]?.kind === 'literal' ? `=${pk[0].text}` : '*'}`;
    for (const space of entities) {
      const pk = segmentsOf.get(space)?.pk;
      if (!pk) continue;
      group(start(space, pk)).push(space);
      group(`${space.index}\0${pk.length}`).push(space);
    }
    const candidates = (reader: EntitySpace, pk: readonly SegmentDef[]) =>
      pk[0]?.kind === 'literal'
        ? [...group(start(reader, pk)), ...group(`${reader.index}\0${pk.length}\0*`)].sort((a, b) => position.get(a)! - position.get(b)!)
        : group(`${reader.index}\0${pk.length}`);
    for (const reader of entities) {
      const own = segmentsOf.get(reader);
      if (!own) continue;
      for (const other of candidates(reader, own.pk)) {
        if (other === reader) continue;
        const theirs = segmentsOf.get(other);
        if (!theirs || !templatesCanCollide(own.pk, theirs.pk) || !sortKeyCanOverlap(own.sk, theirs.sk) || templatesCanCollide(own.sk, theirs.sk)) continue;
        const consistent = reader.index === 'table' && reader.entity.traffic?.consistent === true;
        const perUnit = consistent ? BYTES_PER_RCU : BYTES_PER_RCU * 2;
        const count = other.entity.traffic?.itemsPerKey;
        const skipped = (count ?? 1) * other.itemBytes;
        const extra = skipped / perUnit;
        const ownBytes = reader.entity.traffic?.itemsPerKey === undefined ? undefined : reader.entity.traffic.itemsPerKey * reader.itemBytes;
        const rate = reader.queries;
        const cost =
          `${count === undefined ? `at least 1 ${other.owner} item (itemsPerKey not declared)` : `${units(count)} ${other.owner} item${count === 1 ? '' : 's'}`} × ${bytesText(other.itemBytes)} = ${bytesText(skipped)} per partition, ` +
          `${units(extra)} extra RCU per query (${consistent ? 'strongly' : 'eventually'} consistent: 1 RCU per ${bytesText(perUnit)})` +
          (rate === undefined ? '' : `, ${units(extra * rate)} RCU/s at ${units(rate)} queries/s`) +
          (ownBytes === undefined ? '' : `; ${reader.owner}'s own items are ${bytesText(ownBytes)} per partition`);
        findings.push({
          // more skipped than read: most of what a query pays for is another entity's items
          severity: ownBytes !== undefined && count !== undefined && skipped > ownBytes ? 'warn' : 'info',
          entity: reader.owner,
          path: [...reader.keyPath, 'sk'],
          ...lintMessages.HK019(reader.label, reader.owner, reader.sk!.source, other.owner, other.sk!.source, cost),
        });
      }
    }
    return findings;
  },
};
