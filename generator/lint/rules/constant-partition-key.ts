// HK001: a partition key with no placeholder takes every write on one key.
import { units } from '../analysis.js';
import { shardFix, where } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const constantPartitionKey: LintRule = {
  id: 'HK001',
  name: 'constant-partition-key',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      if (!space.partitions.constant || space.writes === 0) return [];
      const load = space.writes === undefined ? undefined : space.writes * space.writeUnits;
      const over = load !== undefined && load > 1000;
      return [{ severity: over ? 'error' : 'warn', entity: space.entity.name, path: space.path, ...lintMessages.HK001(where(space), space.pk.source, over ? units(load) : undefined, shardFix(table, space, load, undefined)) }];
    }),
};
