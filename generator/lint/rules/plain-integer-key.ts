// HK025: integers written without padding (keyFormat: { integers: 'plain' } on the table, or
// t.number({ keyFormat: 'plain' }) on the attribute) sort as text (10 before
// 9): a sort key holding one is not in numeric order, and range conditions on it are refused.
import type { PatternDef } from '../../../dsl/ir.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { Finding, LintRule } from '../rule.js';
import { storedKeyTemplates } from '../stored-keys.js';
import { integerKeyForm } from '../../model/key-segments.js';

const RANGES: readonly string[] = ['between', 'gt', 'gte', 'lt', 'lte'];

export const plainIntegerKey: LintRule = {
  id: 'HK025',
  name: 'plain-integer-key',
  check: ({ table }) => {
    const findings: Finding[] = [];
    const patterns = Object.values(table.patterns);
    for (const entity of Object.values(table.entities)) {
      for (const template of storedKeyTemplates(table, entity)) {
        for (const { segment, attribute } of template.values) {
          if (integerKeyForm(entity, attribute) !== 'plain') continue;
          // where the plain form is declared, and how to move to the padded one
          const declared = attribute.kind === 'number' && attribute.keyFormat === 'plain' ? `t.number({ keyFormat: 'plain' })` : "keyFormat: { integers: 'plain' }";
          const padded = attribute.kind === 'number' && attribute.keyFormat === 'plain' ? `keyFormat: 'padded'` : `integers: 'padded'`;
          const offset = template.offset(segment);
          const at = { entity: entity.name, path: template.path, ...(offset === undefined ? {} : { offset }) };
          const place = `${template.where} "${template.template.source}"`;
          if (!template.sort) {
            findings.push({ ...at, severity: 'info', ...lintMessages.HK025(place, `"${segment.name}" is an integer written without padding (${declared}); a partition key is compared whole, so only its width varies`, 'nothing to do in a partition key') });
            continue;
          }
          const index = template.path[2] === 'indexes' ? template.path[3] : undefined;
          const ranged = patterns.find((p: PatternDef) => p.entity === entity.name && p.index === index && p.sk === segment.name && p.op !== undefined && RANGES.includes(p.op));
          findings.push({
            ...at,
            severity: ranged ? 'error' : 'warn',
            ...lintMessages.HK025(
              place,
              `"${segment.name}" is an integer written without padding (${declared}), so the sort key orders it as text (10 before 9): queries return such items out of numeric order, and range conditions (between, gt, gte, lt, lte) on it are refused at run time${ranged ? `, which pattern "${ranged.name}" (op ${ranged.op}) needs` : ''}`,
              ranged ? `make pattern "${ranged.name}" an eq, or move to ddbgen's codec (${padded} with min and max on "${segment.name}"; ddbgen diff OLD NEW --emit-migration DIR rewrites the keys)` : `read such items with eq, or move to ddbgen's codec: ${padded} with min and max on "${segment.name}", and ddbgen diff OLD NEW --emit-migration DIR rewrites the keys`,
            ),
          });
        }
      }
    }
    return findings;
  },
};
