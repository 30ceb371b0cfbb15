// HK004: when the sort key is constant (or absent), each partition-key value is one item, and one
// item is capped at 1,000 WCU/s whatever adaptive capacity does.
import { HEADROOM, PARTITION_WRITE_UNITS, keyLoad, type KeySpace } from '../../model/load-model.js';
import { heatFix, loadStatement } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

/** Each partition-key value of this key space holds one item. */
export const singleItem = (space: KeySpace) => space.kind === 'entity' && space.index === 'table' && (space.sk === undefined || space.sk.segments.every((s) => s.kind === 'literal'));
export const itemName = (space: KeySpace) => (space.kind === 'entity' ? `${space.entity.name} "${space.pk.source}${space.sk ? ` / ${space.sk.source}` : ''}"` : space.label);

export const singleItemWriteHotspot: LintRule = {
  id: 'HK004',
  name: 'single-item-write-hotspot',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      const load = keyLoad(space).write;
      if (!singleItem(space) || space.shard || load === undefined || load <= PARTITION_WRITE_UNITS * HEADROOM) return [];
      const { fix, change } = heatFix(table, space, 'write');
      return [{
        severity: load > PARTITION_WRITE_UNITS ? 'error' : 'warn',
        entity: space.owner,
        path: ['entities', space.owner, 'key'],
        ...lintMessages.HK004(itemName(space), loadStatement(space, 'write'), fix),
        ...(change ? { change } : {}),
      }];
    }),
};
