// HK016: personal data inside a key template is visible wherever keys are (metrics, logs, cursors).
import { segmentOffset } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { Finding, LintRule } from '../rule.js';
import { entityKeyTemplates } from '../stored-keys.js';

export const piiInKey: LintRule = {
  id: 'HK016',
  name: 'pii-in-key',
  check: ({ table }) => {
    const findings: Finding[] = [];
    for (const entity of Object.values(table.entities)) {
      for (const [path, template] of entityKeyTemplates(entity)) {
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
