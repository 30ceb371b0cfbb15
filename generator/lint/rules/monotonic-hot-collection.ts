// HK006: a hot item collection cannot be split for heat when its sort key is monotonic (a
// timestamp first: every write lands at the end) or when the table has an LSI (collections never split).
import { hottestReadUnits, hottestWriteUnits } from '../analysis.js';
import { loadText, shardFix, where } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const monotonicHotCollection: LintRule = {
  id: 'HK006',
  name: 'monotonic-hot-collection',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      const firstValue = space.sk?.segments.find((s) => s.kind === 'placeholder');
      const monotonic = firstValue?.kind === 'placeholder' && space.entity.attributes[firstValue.name]?.kind === 'timestamp';
      const hasLsi = space.index === 'table' && Object.values(table.indexes).some((i) => i.kind === 'lsi');
      if (!space.sk || (!monotonic && !hasLsi)) return [];
      const w = hottestWriteUnits(space);
      const r = hottestReadUnits(space);
      if (!((w ?? 0) > 1000 || (r ?? 0) > 3000)) return [];
      const why = monotonic ? `its sort key "${space.sk.source}" starts with a timestamp, so writes always go to the end of the collection` : 'the table has an LSI, so item collections never split';
      return [{ severity: 'error', entity: space.entity.name, path: space.path, ...lintMessages.HK006(where(space), why, loadText(w, r, space.hotShare?.source)!, shardFix(table, space, w, r)) }];
    }),
};
