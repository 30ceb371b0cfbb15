// HK021: a synthetic GSI key that is only whole attributes the items already store (no literal
// text, no truncation, no shard, at most 4 + 4 keyable attributes) could be a native
// multi-attribute key: no key strings to write, and DynamoDB fills a new index with no backfill.
import type { TemplateDef } from '../../../dsl/ir.js';
import { NATIVE_KEY_ATTRIBUTES, scalarType } from '../../model/native-keys.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

/** The attributes of a template made only of whole placeholders, or undefined. */
function wholeAttributes(template: TemplateDef): string[] | undefined {
  const names = template.segments.map((s) => (s.kind === 'placeholder' && s.truncate === undefined && s.name !== 'shard' ? s.name : undefined));
  return names.every((n) => n !== undefined) && names.length <= NATIVE_KEY_ATTRIBUTES ? (names as string[]) : undefined;
}

export const syntheticCouldBeNative: LintRule = {
  id: 'HK021',
  name: 'synthetic-could-be-native',
  check: ({ table }) =>
    Object.values(table.entities).flatMap((entity) =>
      Object.values(entity.indexes).flatMap((mapping) => {
        const index = table.indexes[mapping.index];
        if (index?.kind !== 'gsi' || !mapping.pk || mapping.shard) return [];
        const pk = wholeAttributes(mapping.pk);
        const sk = mapping.sk ? wholeAttributes(mapping.sk) : [];
        if (!pk || !sk || ![...pk, ...sk].every((a) => entity.attributes[a] && scalarType(entity.attributes[a]!))) return [];
        const list = (names: string[]) => `[${names.map((n) => `'${n}'`).join(', ')}]`;
        const template = `"${mapping.pk.source}"${mapping.sk ? ` / "${mapping.sk.source}"` : ''}`;
        return [{
          severity: 'info' as const,
          entity: entity.name,
          path: ['entities', entity.name, 'indexes', mapping.index, 'pk'],
          ...lintMessages.HK021(`${entity.name} in GSI ${index.name}`, template, [pk.join(', '), ...(sk.length ? [sk.join(', ')] : [])].join(' / '), index.name, `{ pk: ${list(pk)}${sk.length ? `, sk: ${list(sk)}` : ''} }`),
        }];
      }),
    ),
};
