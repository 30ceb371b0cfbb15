// The checks of an entity's key templates: segments that name keyable attributes, literals within
// DynamoDB's key sizes, text that can be written in code, shards and time units, and the physical
// key attributes the table and its indexes declare. Part of validating a table (check-table.ts).

import type { EntityDef, IndexMappingDef, ShardDef, TableDef, TemplateDef } from '../../dsl/ir.js';
import { KEYABLE_KINDS, fixedByPartition, identityTemplates, integerKeyForm, shardInputs, templateAttributes } from '../model/key-segments.js';
import { type Report } from './report.js';
import { attributeOf } from './declared-names.js';

const TRUNCATIONS = ['minute', 'hour', 'day', 'month'];

/** DynamoDB's key limits in UTF-8 bytes: partition keys (table and GSI) 2048, sort keys 1024. */
const KEY_BYTES = { pk: 2048, sk: 1024 } as const;

const UNITS = ['second', 'minute', 'hour', 'day', 'month'];

export function keyTemplatesOf(entity: EntityDef): TemplateDef[] {
  return [entity.key.pk, entity.key.sk, ...Object.values(entity.indexes).flatMap((m) => [m.pk, m.sk])].filter((t): t is TemplateDef => t !== undefined);
}

export function physicalKeyAttributes(table: TableDef): Set<string> {
  const names = new Set([table.key.pk, ...(table.key.sk === undefined ? [] : [table.key.sk])]);
  for (const index of Object.values(table.indexes)) {
    if (index.kind === 'native-gsi') continue;
    if (index.kind === 'gsi') names.add(index.pk);
    if (index.sk !== undefined) names.add(index.sk);
  }
  return names;
}

export function validateKeyAttributes(table: TableDef, report: Report): void {
  const uses = new Map<string, string[]>();
  const use = (attribute: string, what: string) => uses.set(attribute, [...(uses.get(attribute) ?? []), what]);
  use(table.key.pk, 'table pk');
  if (table.key.sk !== undefined) use(table.key.sk, 'table sk');
  for (const index of Object.values(table.indexes)) {
    if (index.kind === 'native-gsi') continue;
    if (index.kind === 'gsi') use(index.pk, `${index.name} pk`);
    if (index.sk !== undefined) use(index.sk, `${index.name} sk`);
  }
  for (const [attribute, what] of uses) {
    if (what.length > 1) {
      const index = Object.values(table.indexes).find((i) => what.some((w) => w.startsWith(`${i.name} `)));
      report('DDB013', index ? ['indexes', index.name] : ['key'], [attribute, what.join(', ')]);
    }
  }
}

export function validateTemplate(
  table: TableDef,
  entity: EntityDef,
  template: TemplateDef,
  path: readonly string[],
  primary: boolean,
  sharded: boolean,
  report: Report,
): void {
  const d = table.delimiter;
  if (template.source === '') {
    report('DDB031', path, ['', 'is empty']);
    return;
  }
  /** A table another writer keyed may glue text to a value (`user_<id>`) and have empty segments (`account#`). */
  const stored = entity.keyFormat !== undefined;
  const unprintable = unprintableText(template.source);
  if (unprintable) report('DDB170', path, [template.source, unprintable.reason], unprintable.at);
  let offset = 0;
  for (const segment of template.segments) {
    if (segment.kind === 'literal') {
      const text = segment.text;
      if (text === '' && !stored) report('DDB031', path, [template.source, `has an empty segment at character ${offset + 1} (two delimiters in a row, or one at an end)`], offset);
      else if (text.includes('<') || text.includes('>')) report('DDB031', path, [text, 'mixes text and a placeholder, or has an unmatched < or >'], offset);
      else if (text.includes('\\')) report('DDB031', path, [text, 'contains the escape character \\'], offset);
    } else if ((segment.prefix !== undefined || segment.suffix !== undefined) && (!stored || segment.name === 'shard')) {
      report('DDB031', path, [segment.source, stored ? 'glues text to <shard>, which stands alone in its segment' : 'mixes text and a placeholder, or has an unmatched < or >'], offset);
    } else if (`${segment.prefix ?? ''}${segment.suffix ?? ''}`.includes('\\') && entity.keyFormat?.escape !== false) {
      report('DDB031', path, [segment.source, 'contains the escape character \\'], offset);
    } else if (segment.name === 'shard') {
      if (path[path.length - 1] === 'sk') report('DDB037', path, [`${template.source} uses <shard> in a sort key; a shard suffix belongs in the partition key`], offset);
      else if (!sharded) report('DDB037', path, [`${template.source} uses <shard>, but the key declares no shard: { count }`], offset);
    } else {
      const attribute = attributeOf(entity, segment.name);
      if (!attribute) report('DDB030', path, [segment.name, Object.keys(entity.attributes)], offset);
      else if (!(KEYABLE_KINDS as readonly string[]).includes(attribute.kind)) report('DDB033', path, [segment.name, attribute.kind], offset);
      else if (segment.truncate !== undefined && attribute.kind !== 'timestamp') report('DDB032', path, [segment.name, attribute.kind], offset);
      else if (segment.truncate !== undefined && !TRUNCATIONS.includes(segment.truncate)) {
        report('DDB031', path, [segment.source, `has unknown truncation ":${segment.truncate}"; use minute, hour, day or month`], offset);
      } else if (attribute.kind === 'number' && integerKeyForm(entity, attribute) !== 'plain') {
        const { min, max } = attribute;
        if (min === undefined || max === undefined) report('DDB034', path, [segment.name, `it has no ${min === undefined && max === undefined ? 'min and max' : min === undefined ? 'min' : 'max'}`], offset);
        else if (!(min <= max)) report('DDB034', path, [segment.name, `its min ${min} is above its max ${max}`], offset);
        else if (attribute.integer && !Number.isSafeInteger(max - min)) report('DDB034', path, [segment.name, `its range ${min}..${max} is wider than 2^53 - 1`], offset);
      }
      if (attribute && primary && attribute.optional) report('DDB035', path, [segment.name], offset);
    }
    offset += (segment.kind === 'literal' ? segment.text : segment.source).length + d.length;
  }
  const which = path[path.length - 1] === 'sk' ? 'sk' : 'pk';
  const literalBytes = template.segments.reduce((sum, seg) => sum + (seg.kind === 'literal' ? utf8Bytes(seg.text) : 0), 0) + utf8Bytes(d) * (template.segments.length - 1);
  if (literalBytes > KEY_BYTES[which]) report('DDB106', path, [which === 'pk' ? 'partition key' : 'sort key', literalBytes, KEY_BYTES[which]]);
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

const CODE_DELIMITERS: ReadonlyArray<readonly [string, string]> = [
  ['*/', 'closes a comment'],
  ['/*', 'opens a comment'],
  ['${', 'opens a template substitution'],
  ['`', 'delimits a template literal'],
];

/** The first thing in key text that is not printable or that delimits a comment or template in code, if any. */
export function unprintableText(text: string): { at: number; reason: string } | undefined {
  const found: Array<{ at: number; reason: string }> = [];
  for (const [delimiter, what] of CODE_DELIMITERS) {
    const at = text.indexOf(delimiter);
    if (at >= 0) found.push({ at, reason: `contains "${delimiter}", which ${what}` });
  }
  const character = /[^\P{C}]|[^\P{Z} ]/u.exec(text);
  if (character) found.push({ at: character.index, reason: `contains U+${character[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}, which is not a printable character` });
  return found.sort((a, b) => a.at - b.at)[0];
}

export function validateShard(entity: EntityDef, pk: TemplateDef, shard: ShardDef | undefined, path: readonly string[], report: Report, mapping?: IndexMappingDef): void {
  if (!shard) return;
  const at = [...path, 'shard'];
  const hasShard = pk.segments.some((s) => s.kind === 'placeholder' && s.name === 'shard');
  if (!hasShard) report('DDB037', at, [`shard is declared, but the partition-key template ${pk.source} has no <shard>`]);
  if (!Number.isInteger(shard.count) || shard.count < 2 || shard.count > 1000) report('DDB037', at, [`shard count ${shard.count} is not an integer from 2 to 1000`]);
  if (shard.start !== undefined && (!Number.isInteger(shard.start) || shard.start < 0 || shard.start > 1_000_000)) report('DDB123', [...at, 'start'], [String(shard.start)]);
  if (shard.random === true && shard.by !== undefined) {
    report('DDB122', [...at, 'by'], [shard.by.join(', ')]);
    return;
  }
  if (shard.random !== undefined && typeof shard.random !== 'boolean') report('DDB037', [...at, 'random'], [`shard.random is ${JSON.stringify(shard.random)}, not true or false`]);
  if (shard.random === true) return;
  const identity = identityTemplates(entity, mapping);
  const identityNames = new Set(identity.flatMap(templateAttributes));
  let usable = true;
  for (const name of shard.by ?? []) {
    const by = attributeOf(entity, name);
    if (!by) report('DDB037', [...at, 'by'], [`shard.by names "${name}", which is not an attribute of ${entity.name}`]);
    else if (!identityNames.has(name)) report('DDB120', [...at, 'by'], [name, identity.map((t) => t.source).join(' / '), [...identityNames]]);
    else continue;
    usable = false;
  }
  if (!usable || !hasShard) return;
  // A suffix computed only from values the partition key already holds (as it encodes them) is the
  // same for every item of a partition: it spreads nothing.
  const inputs = shardInputs(entity, shard);
  const fixed = fixedByPartition(entity, pk, identity);
  if (inputs.every((name) => fixed.has(name))) report('DDB121', at, [pk.source, inputs]);
}

/**
 * `t.timestamp({ unit })`: a known unit, on timestamps only. A primary key that holds a timestamp
 * only truncated (`<at:hour>`), with no finer sort-key part identifying the item, keeps one item per bucket:
 * that item keeps one value of the attribute, so say so (info) unless a unit says it is meant.
 */
export function validateUnits(entity: EntityDef, at: readonly string[], report: Report): void {
  for (const [name, attribute] of Object.entries(entity.attributes)) {
    const unit = (attribute as { unit?: unknown }).unit;
    if (unit === undefined) continue;
    if (attribute.kind !== 'timestamp') report('DDB124', [...at, 'attributes', name], [name, `is a ${attribute.kind}`]);
    else if (!UNITS.includes(unit as string)) report('DDB124', [...at, 'attributes', name], [name, `has unit ${JSON.stringify(unit)}`]);
  }
  const primary = [entity.key.pk, ...(entity.key.sk ? [entity.key.sk] : [])];
  const placeholders = primary.flatMap((t) => t.segments.filter((s) => s.kind === 'placeholder' && s.name !== 'shard')) as Array<Extract<TemplateDef['segments'][number], { kind: 'placeholder' }>>;
  for (const segment of placeholders) {
    const attribute = entity.attributes[segment.name];
    if (attribute?.kind !== 'timestamp' || segment.truncate === undefined || attribute.unit !== undefined) continue;
    if (placeholders.some((other) => other.name === segment.name && other.truncate === undefined)) continue;
    // Something finer: a sort-key part other than a time bucket (an event id, a sequence) tells items of one bucket apart.
    const finer = (entity.key.sk?.segments ?? []).some((other) => other.kind === 'placeholder' && other.name !== 'shard' && !(entity.attributes[other.name]?.kind === 'timestamp' && other.truncate !== undefined));
    if (finer) continue;
    const where = entity.key.pk.segments.includes(segment) ? 'pk' : 'sk';
    report('DDB125', [...at, 'key', where], [segment.name, segment.truncate, primary.map((t) => t.source).join(' / ')], undefined, 'info');
  }
}
