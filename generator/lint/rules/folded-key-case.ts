// HK026: keys whose values are folded to one case (keyFormat: { casing }) give up the codec's case
// preservation and its injectivity: values that differ only in case share a key.
import { lintMessages } from '../../diagnostics/messages.js';
import type { Finding, LintRule } from '../rule.js';
import { storedKeyTemplates } from '../stored-keys.js';

export const foldedKeyCase: LintRule = {
  id: 'HK026',
  name: 'folded-key-case',
  check: ({ table }) => {
    const findings: Finding[] = [];
    for (const entity of Object.values(table.entities)) {
      const casing = entity.keyFormat?.casing;
      if (casing === undefined || casing === 'preserve') continue;
      const templates = storedKeyTemplates(table, entity);
      const text = templates.flatMap((t) => t.values.filter((v) => v.attribute.kind === 'string').map((v) => ({ ...t, ...v })));
      const first = text[0];
      if (first) {
        const offset = first.offset(first.segment);
        const names = [...new Set(text.map((v) => v.segment.name))];
        findings.push({
          severity: 'warn',
          entity: entity.name,
          path: first.path,
          ...(offset === undefined ? {} : { offset }),
          ...lintMessages.HK026(`${first.where} "${first.template.source}"`, `its values are written ${casing}-cased (keyFormat: { casing: '${casing}' }), so values of ${names.join(', ')} that differ only in case ("Ab", "aB") share one key and overwrite each other, and a key parses back to the ${casing}-cased value (items keep theirs)`, `treat ${names.join(', ')} as case-insensitive ids (normalise them before writing), or move to ddbgen's codec: drop casing, and ddbgen diff OLD NEW --emit-migration DIR rewrites the keys`),
        });
      } else if (templates.some((t) => t.values.length > 0)) {
        const where = templates.find((t) => t.values.length > 0)!;
        findings.push({ severity: 'info', entity: entity.name, path: where.path, ...lintMessages.HK026(`${where.where} "${where.template.source}"`, `its values are written ${casing}-cased (keyFormat: { casing: '${casing}' }); they are numbers, timestamps, booleans or enum values, which fold without losing anything`, 'nothing to do while keys hold no free text') });
      }
    }
    return findings;
  },
};
