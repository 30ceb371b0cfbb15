// HK005: one item is capped at 3,000 RCU/s; read heat is cured by a cache or replicas, not shards.
import { HEADROOM, PARTITION_READ_UNITS, keyLoad } from '../../model/load-model.js';
import { loadStatement, readFix } from '../describe.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';
import { itemName, singleItem } from './single-item-write-hotspot.js';

export const singleItemReadHotspot: LintRule = {
  id: 'HK005',
  name: 'single-item-read-hotspot',
  check: ({ spaces }) =>
    spaces.flatMap((space) => {
      const load = keyLoad(space).read;
      if (!singleItem(space) || load === undefined || load <= PARTITION_READ_UNITS * HEADROOM) return [];
      return [{
        severity: load > PARTITION_READ_UNITS ? 'error' : 'warn',
        entity: space.owner,
        path: ['entities', space.owner, 'key'],
        ...lintMessages.HK005(itemName(space), loadStatement(space, 'read'), readFix(load, space.consistentReads)),
      }];
    }),
};
