// HK023: the table's ttl attribute inside a key template (an item's expiry cannot change without
// moving the item, or rewriting its index entry), or optional on every entity that declares it (no
// item is sure to expire).
import type { TemplateDef } from '../../../dsl/ir.js';
import { lintMessages } from '../../diagnostics/messages.js';
import { segmentOffset } from '../../model/load-model.js';
import type { Finding, LintRule } from '../rule.js';

export const ttlAttribute: LintRule = {
  id: 'HK023',
  name: 'ttl-attribute',
  check: ({ table }) => {
    const ttl = table.ttl;
    if (ttl === undefined) return [];
    const findings: Finding[] = [];
    const uses = (template: TemplateDef | undefined) => template?.segments.some((s) => s.kind === 'placeholder' && s.name === ttl) ?? false;
    for (const entity of Object.values(table.entities)) {
      const templates: Array<[readonly string[], TemplateDef | undefined, string]> = [
        [['entities', entity.name, 'key', 'pk'], entity.key.pk, 'primary key'],
        [['entities', entity.name, 'key', 'sk'], entity.key.sk, 'primary key'],
        ...Object.values(entity.indexes).flatMap((m): Array<[readonly string[], TemplateDef | undefined, string]> => [
          [['entities', entity.name, 'indexes', m.index, 'pk'], m.pk, `${m.index} key`],
          [['entities', entity.name, 'indexes', m.index, 'sk'], m.sk, `${m.index} key`],
        ]),
      ];
      for (const [path, template, what] of templates) {
        if (!template || !uses(template)) continue;
        const offset = segmentOffset(template, table.delimiter, (s) => s.kind === 'placeholder' && s.name === ttl);
        findings.push({
          severity: 'warn',
          entity: entity.name,
          path,
          ...(offset === undefined ? {} : { offset }),
          ...lintMessages.HK023(`${entity.name} ${what} "${template.source}"`, `it holds the ttl attribute "${ttl}": ${what === 'primary key' ? 'an expiry in the key cannot be extended or cleared without writing the item under a new key' : 'every change of the expiry rewrites the index entry (a delete and a put)'}`, `key on something that does not change, and keep "${ttl}" out of key templates; query by expiry through a filter, or a sparse index keyed by a bucket of it only when you must`),
        });
      }
    }
    const declaring = Object.values(table.entities).filter((e) => Object.hasOwn(e.attributes, ttl));
    if (declaring.length && declaring.every((e) => e.attributes[ttl]!.optional)) {
      findings.push({
        severity: 'info',
        path: ['ttl'],
        ...lintMessages.HK023(`table ${table.name}`, `the ttl attribute "${ttl}" is optional on every entity that declares it (${declaring.map((e) => e.name).join(', ')}), so no entity sets it on every item: only items whose writer gives an expiry ever expire`, `make "${ttl}" required on the entities whose items must all expire (e.g. sessions), or leave it optional where expiry is the exception`),
      });
    }
    return findings;
  },
};
