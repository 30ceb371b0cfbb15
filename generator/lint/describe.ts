// Shared wording for lint findings: the numbers a finding used, and the fix that matches the cause
// (write heat: the total shard count; read heat: a cache or replicas), with the schema change a
// sharding fix makes, so tests can apply it.

import type { TableDef, TemplateDef } from '../../dsl/ir.js';
import type { DiagnosticSeverity } from '../diagnostics/diagnostic.js';
import {
  HEADROOM,
  identityVaries as identityVariesWithin,
  MAX_SHARDS,
  PARTITION_READ_UNITS,
  PARTITION_WRITE_UNITS,
  keyLoad,
  loadLevel,
  percent,
  shardCount,
  shardLoad,
  SEVERITY_FOR,
  units,
  type KeyLoad,
  type KeySpace,
} from '../model/load-model.js';

/** A schema change a fix makes: the key (or index mapping) at `target` gets this pk and shard. */
export interface ShardChange {
  readonly target: readonly string[];
  readonly pk: string;
  readonly shard: { readonly count: number; readonly random?: boolean };
}

/** Writes or reads alone, for rules about one of them. */
export type Dimension = 'write' | 'read';
const pick = (load: KeyLoad, only: Dimension | undefined): KeyLoad => (only === undefined ? load : only === 'write' ? { ...(load.write === undefined ? {} : { write: load.write }) } : { ...(load.read === undefined ? {} : { read: load.read }) });

const LIMIT_TEXT = { write: `${units(PARTITION_WRITE_UNITS)} WCU/s`, read: `${units(PARTITION_READ_UNITS)} RCU/s` };

/** "12,000 writes/s × 1 (assumed …) × 2 WCU per 2 KB write = 24,000 WCU/s on the hottest key; …" — every number the finding used. */
export function loadStatement(space: KeySpace, only?: Dimension): string {
  const whole = pick(keyLoad(space), only);
  if (whole.write === undefined && whole.read === undefined) {
    if (space.writes === undefined && space.reads === undefined) return 'no traffic is declared, so its load is unknown';
    return `the share of traffic on the hottest key is unknown (${space.partitions.explain}); declare hotKeyShare to check it`;
  }
  const share = space.hotShare!;
  const parts: string[] = [];
  if (whole.write !== undefined && space.writes !== 0) parts.push(`${units(space.writes!)} writes/s × ${share.text} × ${space.unitsExplain.write} = ${units(whole.write)} WCU/s`);
  if (whole.read !== undefined && space.reads !== 0) parts.push(`${units(space.reads!)} reads/s × ${share.text} × ${space.unitsExplain.read} = ${units(whole.read)} RCU/s`);
  if (!parts.length) return 'the declared traffic is 0';
  let text = `${parts.join(' and ')} on the hottest key (share ${share.text}: ${share.source})`;
  const per = pick(shardLoad(space), only);
  if (space.shard) {
    const perParts = [...(per.write !== undefined ? [`${units(per.write)} WCU/s`] : []), ...(per.read !== undefined ? [`${units(per.read)} RCU/s`] : [])];
    text += `; over ${space.shard.explain}: ${perParts.join(' and ')} per shard`;
  }
  return `${text}, ${fractionText(per)}`;
}

/** "120% of a partition's 1,000 WCU/s", on the dimension nearest its limit. */
function fractionText(load: KeyLoad): string {
  const w = (load.write ?? 0) / PARTITION_WRITE_UNITS;
  const r = (load.read ?? 0) / PARTITION_READ_UNITS;
  return w >= r ? `${percent(w)} of a partition's ${LIMIT_TEXT.write}` : `${percent(r)} of a partition's ${LIMIT_TEXT.read}`;
}

/** The partition-key template with exactly one `<shard>`. */
function shardedTemplate(pk: TemplateDef, delimiter: string): string {
  return pk.segments.some((s) => s.kind === 'placeholder' && s.name === 'shard') ? pk.source : `${pk.source}${delimiter}<shard>`;
}

/** Whether a suffix calculated from the item's identity spreads this key (else the fix is a random suffix). */
const identityVaries = (space: KeySpace) => space.kind === 'entity' && identityVariesWithin(space.entity, space.pk);

/** The sharding fix for write heat: the TOTAL count for the logical key's whole load. */
function writeFix(table: TableDef, space: KeySpace, write: number): { fix: string; change?: ShardChange } {
  const n = shardCount(write, PARTITION_WRITE_UNITS);
  const formula = `N = ceil(${units(write)} / (${units(PARTITION_WRITE_UNITS)} × ${HEADROOM})) = ${n}, on the key's whole load`;
  if (n > MAX_SHARDS) {
    return { fix: `one key takes ${units(write)} WCU/s: that needs ${formula.replace(', on the key\'s whole load', '')} shards, more than the ${units(MAX_SHARDS)} a key may have; add a high-cardinality attribute to the partition key, or buffer writes through a queue or stream and aggregate them` };
  }
  if (space.kind === 'edge') {
    return { fix: `one ${space.side === 'inverse' ? 'target' : 'source'} takes ${units(write)} WCU/s of edge writes: keep this side in a GSI whose key is sharded over ${n} suffixes (${formula}), or write it asynchronously` };
  }
  const random = !identityVaries(space) || space.shard?.kind === 'random';
  const pk = shardedTemplate(space.pk, table.delimiter);
  const shard = random ? `{ count: ${n}, random: true }` : `{ count: ${n} }`;
  const by = space.shard?.def.by;
  const narrow = by && space.shard!.spread < n ? `, without by (${by.join(', ')} spreads one key over only ${space.shard!.spread} shard${space.shard!.spread === 1 ? '' : 's'})` : '';
  const current = space.shard ? ` in total, replacing the current ${space.shard.count}${narrow}` : '';
  const reads = random ? ' (each write picks a shard; reads gather all of them, e.g. sum counters)' : ' (a calculated suffix: reads by key still need one request)';
  return {
    fix: `shard it: pk "${pk}" with shard: ${shard}${current} (${formula})${reads}`,
    change: { target: space.keyPath, pk, shard: { count: n, ...(random ? { random: true } : {}) } },
  };
}

/**
 * The fix for read heat, with the numbers. Eventually consistent reads: a cache or replicas. Strongly
 * consistent reads: replicas written together (a cache gives up the consistency the design asked
 * for, and DAX passes strongly consistent reads through to DynamoDB uncached), or eventually
 * consistent reads where the design can take them.
 */
export function readFix(read: number, consistent = false): string {
  const budget = PARTITION_READ_UNITS * HEADROOM;
  const replicas = shardCount(read, PARTITION_READ_UNITS);
  const replicate = `replicate it under N = ceil(${units(read)} / (${units(PARTITION_READ_UNITS)} × ${HEADROOM})) = ${replicas} keys read at random`;
  if (consistent) {
    return `${replicate}, each write updating all ${replicas} in one transaction so a strongly consistent read of any one sees every committed write; or read it eventually consistent where the design allows (half the units, and then a cache can serve it): DAX passes strongly consistent reads through to DynamoDB uncached, and an application cache gives up the consistency these reads ask for`;
  }
  const hitRate = Math.ceil((1 - budget / read) * 100);
  return `cache it (DAX or an application cache): a hit rate of at least ${hitRate}% keeps the key under ${units(budget)} RCU/s; or ${replicate} (each write updates all ${replicas}); eventually consistent reads cost half`;
}

/** The fix for a hot key: by cause and by how the declared load stands. */
export function heatFix(table: TableDef, space: KeySpace, only?: Dimension): { fix: string; change?: ShardChange } {
  const whole = pick(keyLoad(space), only);
  const per = pick(shardLoad(space), only);
  const level = loadLevel(per).level;
  const hotWrite = (per.write ?? 0) > PARTITION_WRITE_UNITS * HEADROOM;
  const hotRead = (per.read ?? 0) > PARTITION_READ_UNITS * HEADROOM;
  const pk = space.kind === 'entity' ? shardedTemplate(space.pk, table.delimiter) : undefined;
  const generic = `with shard: { count: N${identityVaries(space) ? '' : ', random: true'} }, N = ceil(peak WCU on one key / (${units(PARTITION_WRITE_UNITS)} × ${HEADROOM})), at least 2`;
  if (level === 'unknown') {
    return { fix: `declare traffic (writesPerSecond, readsPerSecond, itemBytes, hotKeyShare) to size it${pk ? `; for write heat shard it: pk "${pk}" ${generic}` : ''}` };
  }
  if (level === 'under') {
    return { fix: `no change needed at the declared load${pk ? `; if one key nears ${units(PARTITION_WRITE_UNITS * HEADROOM)} WCU/s, shard it: pk "${pk}" ${generic}` : ''}` };
  }
  const fixes: Array<{ fix: string; change?: ShardChange }> = [];
  if (hotWrite) fixes.push(writeFix(table, space, whole.write!));
  if (hotRead) fixes.push({ fix: `${hotWrite ? 'for the reads, ' : ''}${readFix(whole.read!, space.consistentReads)}` });
  // A schema change is offered only when it removes the whole cause.
  return { fix: fixes.map((f) => f.fix).join('; '), ...(fixes.length === 1 && fixes[0]!.change ? { change: fixes[0]!.change } : {}) };
}

/** A load-judged finding's parts: severity from the hottest shard's load, the numbers used, and the fix. */
export function judged(table: TableDef, space: KeySpace): { severity: DiagnosticSeverity; load: string; fix: string; change?: ShardChange } {
  return { severity: SEVERITY_FOR[loadLevel(shardLoad(space)).level], load: loadStatement(space), ...heatFix(table, space) };
}
