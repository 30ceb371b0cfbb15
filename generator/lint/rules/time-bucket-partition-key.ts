// HK003: a table partition key built on a truncated timestamp, without a shard: each period's
// writes all land on one key. (On a GSI, HK008; with a <shard> suffix, HK017.)
import { segmentOffset } from '../../model/load-model.js';
import { judged } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const timeBucketPartitionKey: LintRule = {
  id: 'HK003',
  name: 'time-bucket-partition-key',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      const p = space.partitions;
      if (space.kind !== 'entity' || space.index !== 'table' || p.timeBuckets.length === 0 || space.shard || space.writes === 0) return [];
      const { severity, load, fix, change } = judged(table, space);
      const offset = segmentOffset(space.pk, table.delimiter, (s) => s.kind === 'placeholder' && s.truncate !== undefined);
      return [{
        severity,
        entity: space.owner,
        path: space.path,
        ...(offset === undefined ? {} : { offset }),
        ...lintMessages.HK003(space.label, space.pk.source, p.timeBuckets.join(', '), load, fix),
        ...(change ? { change } : {}),
      }];
    }),
};
