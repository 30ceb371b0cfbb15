// HK003: a table partition key built on a truncated timestamp, without a shard: each period's
// writes all land on one key. (On a GSI, HK008.)
import { hottestWriteUnits, segmentOffset } from '../analysis.js';
import { loadText, shardFix, where } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const timeBucketPartitionKey: LintRule = {
  id: 'HK003',
  name: 'time-bucket-partition-key',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      const p = space.partitions;
      if (space.index !== 'table' || p.timeBuckets.length === 0 || p.shards !== undefined || space.writes === 0) return [];
      const w = hottestWriteUnits(space);
      const offset = segmentOffset(space.pk, table.delimiter, (s) => s.kind === 'placeholder' && s.truncate !== undefined);
      return [{
        severity: (w ?? 0) > 1000 ? 'error' : 'warn',
        entity: space.entity.name,
        path: space.path,
        ...(offset === undefined ? {} : { offset }),
        ...lintMessages.HK003(where(space), space.pk.source, p.timeBuckets.join(', '), loadText(w, undefined, space.hotShare?.source), shardFix(table, space, w, undefined)),
      }];
    }),
};
