// HK007: a declared hotKeyShare puts more than a partition takes on one key of an unsharded key
// space: the table key or an edge side (a GSI key is HK008's, with the back-pressure; a sharded key
// HK017's). Each key space has its own share.
import { loadLevel, shardLoad } from '../../model/load-model.js';
import { judged } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const declaredSkew: LintRule = {
  id: 'HK007',
  name: 'declared-skew',
  check: ({ table, spaces }) =>
    spaces.flatMap((space) => {
      if (space.shard || (space.kind === 'entity' && space.index !== 'table') || !space.hotShare?.source.startsWith('declared')) return [];
      const level = loadLevel(shardLoad(space)).level;
      if (level !== 'over' && level !== 'near') return [];
      const { severity, load, fix, change } = judged(table, space);
      const path = space.kind === 'entity' ? ['entities', space.owner, 'traffic', 'hotKeyShare'] : ['edges', space.owner, 'traffic', 'hotKeyShare'];
      return [{ severity, entity: space.owner, path, ...lintMessages.HK007(space.label, load, fix), ...(change ? { change } : {}) }];
    }),
};
