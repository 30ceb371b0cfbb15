// HK015: a read over N shards issues N queries; very large N, or N times a high read rate, costs more than it saves.
import { units } from '../analysis.js';
import { where } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const shardFanOut: LintRule = {
  id: 'HK015',
  name: 'shard-fan-out',
  check: ({ spaces }) =>
    spaces.flatMap((space) => {
      const n = space.shard?.count;
      if (n === undefined) return [];
      const queries = space.reads === undefined ? undefined : space.reads * n;
      if (n <= 100 && (queries === undefined || queries <= 10000)) return [];
      return [{ severity: 'warn', entity: space.entity.name, path: space.path.slice(0, -1).concat('shard'), ...lintMessages.HK015(where(space), n, queries === undefined ? undefined : units(queries)) }];
    }),
};
