// HK024: a table whose keys are written unescaped (keyFormat: { escape: false }) gives up the
// codec's injectivity for values that hold the delimiter: such values are refused on write.
import { lintMessages } from '../../diagnostics/messages.js';
import type { Finding, LintRule } from '../rule.js';
import { storedKeyTemplates } from '../stored-keys.js';

export const unescapedKeyValues: LintRule = {
  id: 'HK024',
  name: 'unescaped-key-values',
  check: ({ table }) => {
    const findings: Finding[] = [];
    for (const entity of Object.values(table.entities)) {
      if (entity.keyFormat?.escape !== false) continue;
      const templates = storedKeyTemplates(table, entity);
      // free text may hold the delimiter; numbers, timestamps, booleans and checked enum values do not.
      // One finding per template, naming that template's own attributes (not those of the entity's other keys).
      let fired = false;
      for (const template of templates) {
        const text = template.values.filter((v) => v.attribute.kind === 'string');
        const first = text[0];
        if (!first) continue;
        fired = true;
        const offset = template.offset(first.segment);
        const names = [...new Set(text.map((v) => v.segment.name))];
        findings.push({
          severity: 'warn',
          entity: entity.name,
          path: template.path,
          ...(offset === undefined ? {} : { offset }),
          ...lintMessages.HK024(`${template.where} "${template.template.source}"`, `its values are written unescaped (keyFormat: { escape: false }), so a value of ${names.join(', ')} holding "${table.delimiter}" cannot be told apart from the next part: such a write is refused (KEY_PART_DELIMITER), where ddbgen's codec would escape it`, `keep ${names.join(', ')} free of "${table.delimiter}" (ids, slugs), or move to ddbgen's codec: drop escape: false, and ddbgen diff OLD NEW --emit-migration DIR writes the migration that rewrites the keys`),
        });
      }
      if (!fired && templates.some((t) => t.values.length > 0)) {
        const where = templates.find((t) => t.values.length > 0)!;
        findings.push({ severity: 'info', entity: entity.name, path: where.path, ...lintMessages.HK024(`${where.where} "${where.template.source}"`, 'its values are written unescaped (keyFormat: { escape: false }); they are numbers, timestamps, booleans or enum values, which never hold the delimiter', 'nothing to do while keys hold no free text') });
      }
    }
    return findings;
  },
};
