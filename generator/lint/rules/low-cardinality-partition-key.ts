// HK002: a table partition key over few values (enum, boolean, declared cardinality < 100).
// GSI partition keys are HK008's, which adds the back-pressure on the base table.
import { LOW_CARDINALITY, hottestReadUnits, hottestWriteUnits, segmentOffset, units } from '../analysis.js';
import { loadText, shardFix, where } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const lowCardinalityPartitionKey: LintRule = {
  id: 'HK002',
  name: 'low-cardinality-partition-key',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      const p = space.partitions;
      if (space.index !== 'table' || p.constant || p.timeBuckets.length || p.shards !== undefined || !(p.value < LOW_CARDINALITY)) return [];
      const w = hottestWriteUnits(space);
      const r = hottestReadUnits(space);
      const over = (w ?? 0) > 1000 || (r ?? 0) > 3000;
      const offset = segmentOffset(space.pk, table.delimiter, (s) => s.kind === 'placeholder');
      return [{
        severity: over ? 'error' : 'warn',
        entity: space.entity.name,
        path: space.path,
        ...(offset === undefined ? {} : { offset }),
        ...lintMessages.HK002(where(space), space.pk.source, units(p.value), p.explain, loadText(w, r, space.hotShare?.source), shardFix(table, space, w, r)),
      }];
    }),
};
