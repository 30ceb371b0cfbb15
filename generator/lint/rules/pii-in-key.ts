// HK016: personal data inside a key template is visible wherever keys are (metrics, logs, cursors).
import type { TemplateDef } from '../../../dsl/ir.js';
import { segmentOffset } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { Finding, LintRule } from '../rule.js';

export const piiInKey: LintRule = {
  id: 'HK016',
  name: 'pii-in-key',
  check: ({ table }) => {
    const findings: Finding[] = [];
    for (const entity of Object.values(table.entities)) {
      const templates: Array<[readonly string[], TemplateDef | undefined]> = [
        [['entities', entity.name, 'key', 'pk'], entity.key.pk],
        [['entities', entity.name, 'key', 'sk'], entity.key.sk],
        ...Object.values(entity.indexes).flatMap((m): Array<[readonly string[], TemplateDef | undefined]> => [
          [['entities', entity.name, 'indexes', m.index, 'pk'], m.pk],
          [['entities', entity.name, 'indexes', m.index, 'sk'], m.sk],
        ]),
      ];
      for (const [path, template] of templates) {
        if (!template) continue;
        for (const segment of template.segments) {
          if (segment.kind !== 'placeholder') continue;
          const attribute = entity.attributes[segment.name];
          if (attribute?.kind !== 'string' || !attribute.pii) continue;
          const offset = segmentOffset(template, table.delimiter, (s) => s === segment);
          findings.push({ severity: 'warn', entity: entity.name, path, ...(offset === undefined ? {} : { offset }), ...lintMessages.HK016(`${entity.name} ${path.slice(2).join('.')}`, segment.name) });
        }
      }
    }
    return findings;
  },
};
