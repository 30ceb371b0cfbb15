// HK007: declared skew (hotKeyShare) puts more than a partition takes on one key.
import { hottestReadUnits, hottestWriteUnits } from '../analysis.js';
import { loadText, shardFix, where } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const declaredSkew: LintRule = {
  id: 'HK007',
  name: 'declared-skew',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      const share = space.entity.traffic?.hotKeyShare;
      if (share === undefined) return [];
      const w = hottestWriteUnits(space);
      const r = hottestReadUnits(space);
      if (!((w ?? 0) > 1000 || (r ?? 0) > 3000)) return [];
      return [{ severity: 'error', entity: space.entity.name, path: ['entities', space.entity.name, 'traffic', 'hotKeyShare'], ...lintMessages.HK007(where(space), String(share), loadText(w, r, undefined)!, shardFix(table, space, w, r)) }];
    }),
};
