// HK008: a GSI partition key that is constant, low-cardinality or time-bucketed, or whose hottest
// key takes more than 1,000 WCU/s, throttles the GSI — and a throttled GSI throttles the table's writes.
import { LOW_CARDINALITY, hottestWriteUnits, segmentOffset, units } from '../analysis.js';
import { shardFix, where } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const gsiBackPressure: LintRule = {
  id: 'HK008',
  name: 'gsi-back-pressure',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      if (space.index === 'table' || space.writes === 0) return [];
      const p = space.partitions;
      const w = hottestWriteUnits(space);
      const problems: string[] = [];
      if (p.shards === undefined) {
        if (p.constant) problems.push(`its partition key "${space.pk.source}" is a constant: one key takes every write`);
        else if (p.timeBuckets.length) problems.push(`its partition key "${space.pk.source}" is a time bucket (${p.timeBuckets.join(', ')}): each period's writes share one key`);
        else if (p.value < LOW_CARDINALITY) problems.push(`its partition key "${space.pk.source}" takes only ${units(p.value)} distinct values (${p.explain})`);
      }
      if (w !== undefined && w > 1000) problems.push(`its hottest key takes ${units(w)} WCU/s (${space.hotShare!.source})`);
      if (!problems.length) return [];
      const offset = segmentOffset(space.pk, table.delimiter, (s) => s.kind === 'placeholder');
      return [{
        severity: w !== undefined && w > 1000 ? 'error' : 'warn',
        entity: space.entity.name,
        path: space.path,
        ...(offset === undefined ? {} : { offset }),
        ...lintMessages.HK008(
          `${where(space)}${space.sparse ? ' (sparse)' : ''}`,
          problems.join('; '),
          `${shardFix(table, space, w, undefined)}${space.sparse ? '' : '; or make the index sparse (optional attributes) so only the items you query are written to it'}`,
        ),
      }];
    }),
};
