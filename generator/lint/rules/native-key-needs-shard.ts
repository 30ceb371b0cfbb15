// HK020: a native GSI key that is low-cardinality, or whose hottest key comes near a partition's
// limits, needs a shard suffix — which a native key cannot hold: the index must stay synthetic.
import { HEADROOM, LOW_CARDINALITY, PARTITION_READ_UNITS, PARTITION_WRITE_UNITS, shardCount, shardLoad, units } from '../../model/load-model.js';
import { judged, loadStatement } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const nativeKeyNeedsShard: LintRule = {
  id: 'HK020',
  name: 'native-key-needs-shard',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      if (space.kind !== 'entity' || !space.native || space.writes === 0) return [];
      const p = space.partitions;
      const load = shardLoad(space);
      let problem: string | undefined;
      if (p.value < LOW_CARDINALITY) problem = `takes only ${units(p.value)} distinct values (${p.explain})`;
      else if ((load.write ?? 0) > PARTITION_WRITE_UNITS * HEADROOM || (load.read ?? 0) > PARTITION_READ_UNITS * HEADROOM) problem = 'has a hottest key near or above a partition\'s limits';
      if (!problem) return [];
      const { severity } = judged(table, space);
      const count = load.write === undefined ? 2 : shardCount(load.write, PARTITION_WRITE_UNITS);
      const template = [...space.pk.segments.map((s) => (s.kind === 'placeholder' ? s.source : s.text)), '<shard>'].join(table.delimiter);
      return [{
        severity,
        entity: space.owner,
        path: space.path,
        ...lintMessages.HK020(space.label, space.pk.segments.map((s) => (s.kind === 'placeholder' ? s.name : s.text)).join(', '), problem, loadStatement(space), space.index, template, count),
      }];
    }),
};
