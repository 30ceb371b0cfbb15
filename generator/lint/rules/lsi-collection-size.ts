// HK010: with an LSI, an item collection (all items under one partition-key value) is capped at
// 10 GB: itemsPerKey × (item bytes + LSI projections). Warn at 8 GB, error above 10 GB.
import { ASSUMED_ITEM_BYTES, units } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { Finding, LintRule } from '../rule.js';

const GB = 1024 ** 3;

export const lsiCollectionSize: LintRule = {
  id: 'HK010',
  name: 'lsi-collection-size',
  check: ({ table }) => {
    const lsis = Object.values(table.indexes).filter((i) => i.kind === 'lsi');
    if (!lsis.length) return [];
    const findings: Finding[] = [];
    for (const entity of Object.values(table.entities)) {
      const mapped = lsis.filter((i) => entity.indexes[i.name]);
      const collection = entity.key.sk?.segments.some((s) => s.kind === 'placeholder');
      if (!collection) continue;
      const perKey = entity.traffic?.itemsPerKey;
      const bytes = entity.traffic?.itemBytes ?? ASSUMED_ITEM_BYTES;
      const where = `${entity.name} (LSI ${lsis.map((i) => i.name).join(', ')})`;
      if (perKey === undefined) {
        if (mapped.length) {
          findings.push({ severity: 'info', entity: entity.name, path: ['entities', entity.name, 'traffic'], ...lintMessages.HK010(where, 'the table has an LSI, so each item collection is capped at 10 GB, and traffic.itemsPerKey is not declared', 'declare traffic: { itemsPerKey, itemBytes } to check it, or use a GSI if collections are unbounded') });
        }
        continue;
      }
      const projected = mapped.reduce((sum, i) => sum + (i.projection === 'all' ? bytes : Math.min(bytes, 100)), 0);
      const size = perKey * (bytes + projected);
      if (size <= 8 * GB) continue;
      findings.push({
        severity: size > 10 * GB ? 'error' : 'warn',
        entity: entity.name,
        path: ['entities', entity.name, 'traffic', 'itemsPerKey'],
        ...lintMessages.HK010(
          where,
          `an item collection can reach ${units(size / GB)} GB (${units(perKey)} items × (${units(bytes)} B + ${units(projected)} B of LSI projections)), ${size > 10 * GB ? 'above' : 'near'} the 10 GB an LSI allows (ItemCollectionSizeLimitExceededException)`,
          'use a GSI instead of the LSI, bound the collection (TTL or archiving), or project less into the LSI',
        ),
      });
    }
    return findings;
  },
};
