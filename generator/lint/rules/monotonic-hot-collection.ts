// HK006: a hot item collection cannot be split for heat when its sort key is monotonic (a
// timestamp first: every write lands at the end) or when the table has an LSI (collections never split).
import { loadLevel, shardLoad } from '../../model/load-model.js';
import { judged } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const monotonicHotCollection: LintRule = {
  id: 'HK006',
  name: 'monotonic-hot-collection',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      if (space.kind !== 'entity' || !space.sk || space.native) return [];
      const firstValue = space.sk.segments.find((s) => s.kind === 'placeholder');
      const monotonic = firstValue?.kind === 'placeholder' && space.entity.attributes[firstValue.name]?.kind === 'timestamp';
      const hasLsi = space.index === 'table' && Object.values(table.indexes).some((i) => i.kind === 'lsi');
      if (!monotonic && !hasLsi) return [];
      const level = loadLevel(shardLoad(space)).level;
      if (level !== 'over' && level !== 'near') return [];
      const why = monotonic ? `its sort key "${space.sk.source}" starts with a timestamp, so writes always go to the end of the collection` : 'the table has an LSI, so item collections never split';
      const { severity, load, fix, change } = judged(table, space);
      return [{ severity, entity: space.owner, path: space.path, ...lintMessages.HK006(space.label, why, load, fix), ...(change ? { change } : {}) }];
    }),
};
