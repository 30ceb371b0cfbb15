// HK015: a read that gathers N shards issues N queries; very large N, or N times a high gathered
// read rate, costs more than it saves. A calculated suffix (shard.by, or the item's identity) lets
// a reader that knows the item target one shard: only its queries gather.
import { units } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

const MAX_SHARDS = 100;
const MAX_GATHERED_QUERIES = 10000;

export const shardFanOut: LintRule = {
  id: 'HK015',
  name: 'shard-fan-out',
  check: ({ spaces }) =>
    spaces.flatMap((space) => {
      if (space.kind !== 'entity' || !space.shard) return [];
      const n = space.shard.count;
      const gathered = space.shard.targetable ? space.queries : space.reads;
      // Readers that target one shard by key, and no declared query: nothing gathers.
      if (space.shard.targetable && space.queries === undefined && space.reads !== undefined) return [];
      const queries = gathered === undefined ? undefined : gathered * n;
      if (n <= MAX_SHARDS && (queries === undefined || queries <= MAX_GATHERED_QUERIES)) return [];
      const how = space.shard.targetable ? 'queries over the key gather every shard (reads by key target one)' : 'every read gathers all shards (random suffix)';
      return [{
        severity: 'warn',
        entity: space.owner,
        path: [...space.keyPath, 'shard'],
        ...lintMessages.HK015(space.label, n, how, queries === undefined ? undefined : `${units(gathered!)} gathered reads/s × ${n} = ${units(queries)} queries/s`),
      }];
    }),
};
