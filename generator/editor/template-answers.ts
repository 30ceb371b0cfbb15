// What the editor answers inside a key template (editor-engine.ts asks, with the schema's parsed text
// and the tables of its last analysis): completions of attribute names and of the literal segments
// other entities use, and a hover with an example key built by the real codec and the lint's
// arithmetic for the key space. Pure: no file is read and nothing is cached here.

import type ts from 'typescript';
import type { AttributeDef, EntityDef, TableDef, TemplateDef } from '../../dsl/ir.js';
import { loadStatement } from '../lint/describe.js';
import { keySpaces, type EntitySpace } from '../model/load-model.js';
import { sampleKey, sampleValues } from '../report/view-model.js';
import type { EditorCompletion, EditorHover } from './editor-answers.js';
import { attributesInText, templateSite } from './schema-text.js';

/** Completions inside a key-template string at `offset`: attribute names after `<`, else literal segments other entities use; undefined outside one. */
export function templateCompletions(source: ts.SourceFile, text: string, offset: number, tablesOf: () => readonly TableDef[]): EditorCompletion[] | undefined {
  const site = templateSite(source, offset);
  if (!site) return undefined;
  const contentStart = site.literal.getStart(source) + 1;
  const before = text.slice(contentStart, offset);
  const tables = tablesOf();
  const table = tables.find((t) => t.entities[site.entity]) ?? tables[0];
  const delimiter = table?.delimiter ?? (/\bdelimiter:\s*['"](.)['"]/.exec(text)?.[1] ?? '#');
  const open = /<([\w$]*)$/.exec(before);
  if (open) {
    const typed = open[1]!;
    const start = offset - typed.length;
    const closes = text[offset + (/^[\w$]*/.exec(text.slice(offset))?.[0].length ?? 0)] === '>';
    const after = /^[\w$]*/.exec(text.slice(offset))?.[0].length ?? 0;
    const fromText = attributesInText(source, site.entity);
    const declared = table?.entities[site.entity]?.attributes;
    const attributes = fromText ?? Object.entries(declared ?? {}).map(([name, def]) => ({ name, kind: def.kind }));
    const items: EditorCompletion[] = attributes.map(({ name, kind }) => {
      const def = declared?.[name];
      return { name, kind: 'attribute' as const, detail: def ? kindText(def) : kind, insertText: closes ? name : `${name}>`, start, length: typed.length + after };
    });
    if (site.part === 'pk') items.push({ name: 'shard', kind: 'shard', detail: 'the shard suffix (needs shard: { count } on this key)', insertText: closes ? 'shard' : 'shard>', start, length: typed.length + after });
    return items;
  }
  // at the start of a segment: literal segments the other entities use (keeps prefixes consistent)
  const segmentStart = before.lastIndexOf(delimiter) + 1;
  const typed = before.slice(segmentStart);
  if (typed.includes('<')) return [];
  const literals = new Map<string, Set<string>>();
  for (const t of tables) {
    for (const entity of Object.values(t.entities)) {
      if (entity.name === site.entity) continue;
      for (const template of entityTemplates(entity)) {
        for (const segment of template.segments) if (segment.kind === 'literal' && segment.text && segment.text.startsWith(typed)) (literals.get(segment.text) ?? literals.set(segment.text, new Set()).get(segment.text)!).add(entity.name);
      }
    }
  }
  return [...literals].map(([name, users]) => ({ name, kind: 'literal' as const, detail: `used by ${[...users].join(', ')}`, insertText: name, start: offset - typed.length, length: typed.length }));
}

/** Hover on a key template at `offset`: an example key built by the real codec, and the lint's arithmetic for its key space. */
export function templateHover(source: ts.SourceFile, offset: number, tablesOf: () => readonly TableDef[]): EditorHover | undefined {
  const site = templateSite(source, offset);
  if (!site) return undefined;
  const tables = tablesOf();
  const table = tables.find((t) => t.entities[site.entity]);
  const entity = table?.entities[site.entity];
  if (!table || !entity) return undefined;
  const mapping = site.keyPath[0] === 'key' ? entity.key : entity.indexes[site.keyPath[1]!];
  const template: TemplateDef | undefined = mapping?.[site.part];
  if (!template || template.source !== site.literal.text) return undefined;
  const where = `${entity.name} ${[...site.keyPath, site.part].join('.')}`;
  const lines = [`**ddbgen** · ${where} \`${template.source}\``];
  const example = sampleKey(entity, template, `${entity.name}.${[...site.keyPath, site.part].join('.')}`, table.delimiter, mapping?.shard);
  if (example) {
    const values = sampleValues(entity);
    const used = template.segments.flatMap((s) => (s.kind === 'placeholder' && s.name !== 'shard' ? [`${s.name} = ${show(values[s.name])}`] : []));
    lines.push('', `Example key: \`${example}\``, '', `built by the key codec from ${used.length ? used.join(', ') : 'no values (a constant key)'}${mapping?.shard ? ', shard suffix of the example item' : ''}`);
  }
  if (site.part === 'pk') {
    const index = site.keyPath[0] === 'key' ? 'table' : site.keyPath[1]!;
    const space = keySpaces(table).find((s): s is EntitySpace => s.kind === 'entity' && s.owner === entity.name && s.index === index);
    if (space) {
      lines.push('', `Partitions: ${space.partitions.explain}`);
      if (space.writes !== undefined || space.reads !== undefined) lines.push('', `Load (${space.label}): ${loadStatement(space)}`);
      else lines.push('', 'No traffic is declared for this entity: declare traffic: { writesPerSecond, readsPerSecond } to see the load on its hottest key.');
    }
  }
  const start = site.literal.getStart(source);
  return { start, length: site.literal.getEnd() - start, markdown: lines.join('\n') };
}

/** An attribute's kind as completions show it: `number 0..1e12`, `enum ACTIVE | BANNED`. */
function kindText(def: AttributeDef): string {
  const optional = def.optional ? ' (optional)' : '';
  switch (def.kind) {
    case 'number':
      return `number${def.min !== undefined || def.max !== undefined ? ` ${def.min ?? '?'}..${def.max ?? '?'}` : ' (no min/max: give a range to key on it)'}${def.integer ? ', integer' : ''}${optional}`;
    case 'enum':
      return `enum ${def.values.join(' | ')}${optional}`;
    case 'string':
      return `string${def.cardinality !== undefined ? `, ${def.cardinality} values` : ''}${def.pii ? ', pii' : ''}${optional}`;
    default:
      return `${def.kind}${optional}`;
  }
}

const show = (value: unknown) => (value instanceof Date ? value.toISOString() : JSON.stringify(value));

function entityTemplates(entity: EntityDef): TemplateDef[] {
  return [entity.key.pk, entity.key.sk, ...Object.values(entity.indexes).flatMap((m) => [m.pk, m.sk])].filter((t): t is TemplateDef => t !== undefined);
}
