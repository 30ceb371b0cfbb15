// HK017: a key with a <shard> suffix whose hottest shard still comes near or above a partition's
// limit (table or GSI; random, calculated or fixed suffixes). The fix is the TOTAL shard count for
// the logical key's whole load, never a multiple of the current one.
import { loadLevel, shardLoad } from '../../model/load-model.js';
import { judged } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const underShardedKey: LintRule = {
  id: 'HK017',
  name: 'under-sharded-key',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      if (space.kind !== 'entity' || !space.shard) return [];
      const level = loadLevel(shardLoad(space)).level;
      if (level !== 'over' && level !== 'near') return [];
      const { severity, load, fix, change } = judged(table, space);
      const gsi = space.index === 'table' ? '' : '; a throttled GSI throttles writes to the base table too';
      return [{
        severity,
        entity: space.owner,
        path: [...space.keyPath, 'shard'],
        ...lintMessages.HK017(space.label, space.pk.source, `${load}${gsi}`, fix),
        ...(change ? { change } : {}),
      }];
    }),
};
