// HK001: a table partition key with no placeholder takes every write on one key. (On a GSI, HK008;
// with a <shard> suffix, HK017 checks each shard.)
import { judged } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const constantPartitionKey: LintRule = {
  id: 'HK001',
  name: 'constant-partition-key',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      if (space.kind !== 'entity' || space.index !== 'table' || space.shard || !space.partitions.constant || space.writes === 0) return [];
      const { severity, load, fix, change } = judged(table, space);
      return [{ severity, entity: space.owner, path: space.path, ...lintMessages.HK001(space.label, space.pk.source, load, fix), ...(change ? { change } : {}) }];
    }),
};
