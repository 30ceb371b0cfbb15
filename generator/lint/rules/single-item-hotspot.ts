// HK004 / HK005: when the sort key is constant (or absent), each partition-key value is one item,
// and one item is capped at 1,000 WCU/s and 3,000 RCU/s, whatever adaptive capacity does.
import { hottestReadUnits, hottestWriteUnits, units } from '../analysis.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';
import type { KeySpace } from '../analysis.js';

const singleItem = (space: KeySpace) => space.index === 'table' && (space.sk === undefined || space.sk.segments.every((s) => s.kind === 'literal'));
const what = (space: KeySpace) => `${space.entity.name} "${space.pk.source}${space.sk ? ` / ${space.sk.source}` : ''}"`;

export const singleItemWriteHotspot: LintRule = {
  id: 'HK004',
  name: 'single-item-write-hotspot',
  check: ({ spaces }) =>
    spaces.flatMap((space) => {
      const load = hottestWriteUnits(space);
      if (!singleItem(space) || load === undefined || load <= 1000) return [];
      return [{ severity: 'error', entity: space.entity.name, path: ['entities', space.entity.name, 'key'], ...lintMessages.HK004(what(space), units(load), space.hotShare!.source) }];
    }),
};

export const singleItemReadHotspot: LintRule = {
  id: 'HK005',
  name: 'single-item-read-hotspot',
  check: ({ spaces }) =>
    spaces.flatMap((space) => {
      const load = hottestReadUnits(space);
      if (!singleItem(space) || load === undefined || load <= 3000) return [];
      return [{ severity: 'error', entity: space.entity.name, path: ['entities', space.entity.name, 'key'], ...lintMessages.HK005(what(space), units(load), space.hotShare!.source) }];
    }),
};
