// HK002: a table partition key over few values (enum, boolean, declared cardinality < 100).
// GSI partition keys are HK008's, which adds the back-pressure on the base table.
import { LOW_CARDINALITY, segmentOffset, units } from '../../model/load-model.js';
import { judged } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const lowCardinalityPartitionKey: LintRule = {
  id: 'HK002',
  name: 'low-cardinality-partition-key',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      const p = space.partitions;
      if (space.kind !== 'entity' || space.index !== 'table' || space.shard || p.constant || p.timeBuckets.length || !(p.value < LOW_CARDINALITY)) return [];
      const { severity, load, fix, change } = judged(table, space);
      const offset = segmentOffset(space.pk, table.delimiter, (s) => s.kind === 'placeholder');
      return [{
        severity,
        entity: space.owner,
        path: space.path,
        ...(offset === undefined ? {} : { offset }),
        ...lintMessages.HK002(space.label, space.pk.source, units(p.value), p.explain, load, fix),
        ...(change ? { change } : {}),
      }];
    }),
};
