// HK014: conditional (versioned) writes concentrated on one item conflict: every loser retries.
import { units } from '../analysis.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

const CONTENDED_WRITES_PER_ITEM = 10;

export const writeContention: LintRule = {
  id: 'HK014',
  name: 'write-contention',
  check: ({ spaces }) =>
    spaces.flatMap((space) => {
      if (space.index !== 'table' || space.entity.version === undefined || space.writes === undefined || !space.hotShare) return [];
      const single = space.sk === undefined || space.sk.segments.every((s) => s.kind === 'literal');
      const rate = space.writes * space.hotShare.value;
      if (!single || rate <= CONTENDED_WRITES_PER_ITEM) return [];
      return [{ severity: 'warn', entity: space.entity.name, path: ['entities', space.entity.name, 'version'], ...lintMessages.HK014(`${space.entity.name} (${space.hotShare.source})`, units(rate)) }];
    }),
};
