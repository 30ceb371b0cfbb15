// HK014: conditional (versioned) writes concentrated on one item conflict: every loser retries.
import { units } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';
import { singleItem } from './single-item-write-hotspot.js';

const CONTENDED_WRITES_PER_ITEM = 10;

export const writeContention: LintRule = {
  id: 'HK014',
  name: 'write-contention',
  check: ({ spaces }) =>
    spaces.flatMap((space) => {
      if (space.kind !== 'entity' || !singleItem(space) || space.entity.version === undefined || space.writes === undefined || !space.hotShare) return [];
      const rate = space.writes * space.hotShare.value;
      if (rate <= CONTENDED_WRITES_PER_ITEM) return [];
      return [{
        severity: 'warn',
        entity: space.owner,
        path: ['entities', space.owner, 'version'],
        ...lintMessages.HK014(`${space.owner} (${units(space.writes)} writes/s × ${space.hotShare.text}: ${space.hotShare.source})`, units(rate)),
      }];
    }),
};
