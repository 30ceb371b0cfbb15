// HK008: a GSI partition key that is constant, low-cardinality or time-bucketed, or whose hottest
// key comes near 1,000 WCU/s, throttles the GSI — and a throttled GSI throttles the table's writes.
// (A sharded GSI key is HK017's; a native key, which cannot be sharded, HK020's.)
import { HEADROOM, LOW_CARDINALITY, PARTITION_WRITE_UNITS, segmentOffset, shardLoad, units } from '../../model/load-model.js';
import { judged } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const gsiBackPressure: LintRule = {
  id: 'HK008',
  name: 'gsi-back-pressure',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      if (space.kind !== 'entity' || space.index === 'table' || space.shard || space.native || space.writes === 0) return [];
      const p = space.partitions;
      let problem: string | undefined;
      if (p.constant) problem = `its partition key "${space.pk.source}" is a constant: one key takes every write`;
      else if (p.timeBuckets.length) problem = `its partition key "${space.pk.source}" is a time bucket (${p.timeBuckets.join(', ')}): each period's writes share one key`;
      else if (p.value < LOW_CARDINALITY) problem = `its partition key "${space.pk.source}" takes only ${units(p.value)} distinct values (${p.explain})`;
      else if ((shardLoad(space).write ?? 0) > PARTITION_WRITE_UNITS * HEADROOM) problem = `its hottest key comes near or above a partition's writes`;
      if (!problem) return [];
      const { severity, load, fix, change } = judged(table, space);
      const offset = segmentOffset(space.pk, table.delimiter, (s) => s.kind === 'placeholder');
      const sparse = space.sparse ? '' : '; or make the index sparse (optional attributes) so only the items you query are written to it';
      return [{
        severity,
        entity: space.owner,
        path: space.path,
        ...(offset === undefined ? {} : { offset }),
        ...lintMessages.HK008(`${space.label}${space.sparse ? ' (sparse)' : ''}`, `${problem}; ${load}`, `${fix}${severity === 'info' ? '' : sparse}`),
        ...(change ? { change } : {}),
      }];
    }),
};
