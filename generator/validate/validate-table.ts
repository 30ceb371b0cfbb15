// Validates a table's IR and returns every problem at once. Paths are relative to the table's
// declaration; the loader turns them into file:line:column.

import type { AttributeDef, EdgeDef, EntityDef, TableDef, TemplateDef, Throughput, TrafficDef } from '../../dsl/ir.js';
import type { SegmentDef } from '../../templates/runtime/codec.js';
import type { PendingDiagnostic } from '../diagnostics/diagnostic.js';
import { messages, type MessageCode } from '../diagnostics/messages.js';
import { RULE_IDS } from '../lint/rules/index.js';
import { resolvePattern } from '../model/access-paths.js';
import { KEYABLE_KINDS, keySegments } from '../model/key-segments.js';
import { collectionText, leadingLiterals, sortKeyCanOverlap, templatesCanCollide } from './key-collisions.js';

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype'];

/** Reports every attribute (and map field, at any depth) named after a prototype property. */
function validateAttributeNames(owner: string, attributes: Readonly<Record<string, AttributeDef>>, path: readonly string[], report: Report): void {
  for (const [name, def] of Object.entries(attributes)) {
    if (PROTOTYPE_NAMES.includes(name)) report('DDB160', [...path, name], [owner, name]);
    let inner: AttributeDef = def;
    while (inner.kind === 'list') inner = inner.of;
    if (inner.kind === 'map') validateAttributeNames(owner, inner.fields, [...path, name, 'fields'], report);
  }
}

/** The attribute `name` of an entity, looked up without reaching Object.prototype. */
const attributeOf = (entity: EntityDef, name: string): AttributeDef | undefined => (Object.prototype.hasOwnProperty.call(entity.attributes, name) ? entity.attributes[name] : undefined);
const TRUNCATIONS = ['minute', 'hour', 'day', 'month'];

type Report = <C extends MessageCode>(code: C, path: readonly string[], args: Parameters<(typeof messages)[C]>, offset?: number) => void;

export function validateTable(table: TableDef): PendingDiagnostic[] {
  const found: PendingDiagnostic[] = [];
  const report: Report = (code, path, args, offset) => {
    const { message, fix } = (messages[code] as (...a: typeof args) => { message: string; fix: string })(...args);
    found.push({ code, severity: 'error', message, fix, target: [table.name, ...path].join('.'), path, ...(offset === undefined ? {} : { offset }) });
  };

  if (!IDENTIFIER.test(table.name)) report('DDB010', ['name'], [table.name]);
  const d = table.delimiter;
  if (!/^[!-/:-@[-`{-~]$/.test(d) || ['\\', '<', '>', '`'].includes(d)) {
    report('DDB011', ['delimiter'], [d]);
    return found; // every template was split by it: their problems would only be echoes
  }
  validateKeyAttributes(table, report);
  if (table.rotation !== undefined && table.rotation !== 'day' && table.rotation !== 'month') report('DDB075', ['rotation'], [`rotation "${String(table.rotation)}" is not 'day' or 'month'`]);
  for (const index of Object.values(table.indexes)) {
    if (!/^[A-Za-z][A-Za-z0-9_]{2,254}$/.test(index.name)) report('DDB023', ['indexes', index.name], [index.name]);
  }

  const keyAttributeNames = physicalKeyAttributes(table);
  for (const entity of Object.values(table.entities)) {
    const at = ['entities', entity.name];
    if (!IDENTIFIER.test(entity.name)) report('DDB020', at, [entity.name, 'entity']);
    for (const name of Object.keys(entity.attributes)) {
      if (keyAttributeNames.has(name)) report('DDB022', [...at, 'attributes', name], [entity.name, name, name]);
    }
    validateAttributeNames(entity.name, entity.attributes, [...at, 'attributes'], report);
    validateTemplate(table, entity, entity.key.pk, [...at, 'key', 'pk'], true, entity.key.shard !== undefined, report);
    if (entity.key.sk) validateTemplate(table, entity, entity.key.sk, [...at, 'key', 'sk'], true, false, report);
    if (table.key.sk !== undefined && !entity.key.sk) report('DDB036', [...at, 'key'], [`${entity.name} has no sort-key template, but the table has a sort key "${table.key.sk}"`]);
    if (table.key.sk === undefined && entity.key.sk) report('DDB036', [...at, 'key', 'sk'], [`${entity.name} has a sort-key template, but the table has no sort key`]);
    validateShard(entity, entity.key.pk, entity.key.shard, [...at, 'key'], report);
    for (const mapping of Object.values(entity.indexes)) {
      const mat = [...at, 'indexes', mapping.index];
      const index = table.indexes[mapping.index];
      if (!index) {
        report('DDB050', mat, [mapping.index, Object.keys(table.indexes)]);
        continue;
      }
      if (index.kind === 'gsi' && !mapping.pk) report('DDB051', mat, [`${entity.name}'s mapping for GSI "${index.name}" has no pk template`]);
      if (index.kind === 'gsi' && index.sk !== undefined && !mapping.sk) report('DDB051', mat, [`${entity.name}'s mapping for GSI "${index.name}" has no sk template, but the index has a sort key`]);
      if (index.kind === 'gsi' && index.sk === undefined && mapping.sk) report('DDB051', [...mat, 'sk'], [`GSI "${index.name}" has no sort key, but ${entity.name}'s mapping gives one`]);
      if (index.kind === 'lsi' && mapping.pk) report('DDB051', [...mat, 'pk'], [`LSI "${index.name}" shares the table's partition key; ${entity.name}'s mapping cannot give a pk`]);
      if (index.kind === 'lsi' && !mapping.sk) report('DDB051', mat, [`${entity.name}'s mapping for LSI "${index.name}" has no sk template`]);
      if (mapping.pk) validateTemplate(table, entity, mapping.pk, [...mat, 'pk'], false, mapping.shard !== undefined, report);
      if (mapping.sk) validateTemplate(table, entity, mapping.sk, [...mat, 'sk'], false, false, report);
      if (mapping.pk) validateShard(entity, mapping.pk, mapping.shard, mat, report);
    }
    if (entity.version !== undefined) {
      const attribute = attributeOf(entity, entity.version);
      if (!attribute) report('DDB060', [...at, 'version'], [entity.version, 'is not an attribute of this entity']);
      else if (attribute.kind !== 'number' || !attribute.integer) report('DDB060', [...at, 'version'], [entity.version, `is a ${attribute.kind === 'number' ? 'non-integer number' : attribute.kind}`]);
      else if (keyTemplatesOf(entity).some((tpl) => tpl.segments.some((seg) => seg.kind === 'placeholder' && seg.name === entity.version))) {
        report('DDB060', [...at, 'version'], [entity.version, 'is part of a key template; a version changes on every write, so the item would move']);
      }
    }
  }

  validatePatterns(table, report);
  validateTraffic(table, report);
  validateEdges(table, report);
  if (!found.length) validateCollisions(table, report);
  return found;
}

const SEVERITIES = ['off', 'info', 'warn', 'error'];

function validateTraffic(table: TableDef, report: Report): void {
  const number = (path: readonly string[], field: string, value: number | undefined, max = Infinity) => {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) report('DDB080', path, [field, String(value)]);
    else if (value > max) report('DDB080', path, [field, `${value}, above ${max}`]);
  };
  for (const entity of Object.values(table.entities)) {
    const traffic = entity.traffic;
    const at = ['entities', entity.name, 'traffic'];
    if (traffic) {
      for (const field of ['items', 'itemBytes', 'itemsPerKey', 'writesPerSecond', 'readsPerSecond'] as const) number([...at, field], field, traffic[field]);
      const gsis = Object.keys(entity.indexes).filter((name) => table.indexes[name]?.kind === 'gsi');
      validateShares(traffic.hotKeyShare, at, entity.name, ['table', ...gsis], number, report);
      validateSwitches(traffic, at, report);
      if (traffic.items !== undefined && traffic.itemsPerKey !== undefined && traffic.itemsPerKey > traffic.items) {
        report('DDB080', [...at, 'itemsPerKey'], ['itemsPerKey', `${traffic.itemsPerKey}, more than items (${traffic.items})`]);
      }
    }
    for (const [name, attribute] of Object.entries(entity.attributes)) validateMaxItems(name, attribute, ['entities', entity.name, 'attributes', name], report);
    validateLintConfig(entity.lint, ['entities', entity.name, 'lint'], report);
  }
  for (const edge of Object.values(table.edges)) {
    if (edge.traffic) validateShares(edge.traffic.hotKeyShare, ['edges', edge.name, 'traffic'], `edge ${edge.name}`, ['forward', 'inverse'], number, report);
    if (edge.traffic) validateSwitches(edge.traffic, ['edges', edge.name, 'traffic'], report);
  }
  for (const pattern of Object.values(table.patterns)) {
    number(['patterns', pattern.name, 'readsPerSecond'], 'readsPerSecond', pattern.readsPerSecond);
    number(['patterns', pattern.name, 'writesPerSecond'], 'writesPerSecond', pattern.writesPerSecond);
    validateSwitches(pattern, ['patterns', pattern.name], report);
    const index = pattern.index === undefined ? undefined : table.indexes[pattern.index];
    if (pattern.consistent === true && index?.kind === 'gsi') report('DDB192', ['patterns', pattern.name, 'consistent'], [pattern.name, index.name]);
  }
  const throughput = (path: readonly string[], value: Throughput | undefined) => {
    if (value === undefined) return;
    number([...path, 'read'], `${path.join('.')}.read`, value.read);
    number([...path, 'write'], `${path.join('.')}.write`, value.write);
  };
  if (table.capacity.mode === 'provisioned') {
    number(['capacity', 'read'], 'capacity.read', table.capacity.read);
    number(['capacity', 'write'], 'capacity.write', table.capacity.write);
  }
  throughput(['capacity', 'warmThroughput'], table.capacity.warmThroughput);
  for (const index of Object.values(table.indexes)) {
    if (index.kind !== 'gsi') continue;
    if (index.capacity !== undefined && table.capacity.mode !== 'provisioned') report('DDB194', ['indexes', index.name, 'capacity'], [index.name]);
    throughput(['indexes', index.name, 'capacity'], index.capacity);
    throughput(['indexes', index.name, 'warmThroughput'], index.warmThroughput);
  }
  validateLintConfig(table.lint, ['lint'], report);
}

type NumberCheck = (path: readonly string[], field: string, value: number | undefined, max?: number) => void;

/** hotKeyShare: a fraction, or a record of fractions naming the owner's key spaces. */
function validateShares(share: TrafficDef['hotKeyShare'], at: readonly string[], owner: string, spaces: readonly string[], number: NumberCheck, report: Report): void {
  if (share === undefined) return;
  if (typeof share !== 'object' || share === null) return number([...at, 'hotKeyShare'], 'hotKeyShare', share as number, 1);
  for (const [space, value] of Object.entries(share)) {
    if (!spaces.includes(space)) report('DDB190', [...at, 'hotKeyShare', space], [owner, space, spaces]);
    else number([...at, 'hotKeyShare', space], `hotKeyShare.${space}`, value, 1);
  }
}

/** consistent and transactional are true or false. */
function validateSwitches(owner: { readonly consistent?: boolean; readonly transactional?: boolean }, at: readonly string[], report: Report): void {
  for (const field of ['consistent', 'transactional'] as const) {
    const value: unknown = owner[field];
    if (value !== undefined && typeof value !== 'boolean') report('DDB191', [...at, field], [field, JSON.stringify(value)]);
  }
}

/** A list's maxItems (also inside lists and maps) is a positive integer. */
function validateMaxItems(name: string, attribute: AttributeDef, path: readonly string[], report: Report): void {
  if (attribute.kind === 'list') {
    const max: unknown = attribute.maxItems;
    if (max !== undefined && !(typeof max === 'number' && Number.isInteger(max) && max > 0)) report('DDB193', [...path, 'maxItems'], [name, JSON.stringify(max)]);
    validateMaxItems(name, attribute.of, path, report);
  } else if (attribute.kind === 'map') {
    for (const [field, def] of Object.entries(attribute.fields)) validateMaxItems(`${name}.${field}`, def, path, report);
  }
}

function validateLintConfig(config: Readonly<Record<string, string>> | undefined, path: readonly string[], report: Report): void {
  for (const [rule, severity] of Object.entries(config ?? {})) {
    if (!RULE_IDS.includes(rule)) report('DDB081', [...path, rule], [`lint names rule "${rule}", which does not exist`, RULE_IDS]);
    else if (!SEVERITIES.includes(severity)) report('DDB081', [...path, rule], [`lint severity "${severity}" for ${rule} is not a severity`, SEVERITIES]);
  }
}

/** Member names every generated repository has, which a pattern must not take. */
const REPOSITORY_MEMBERS = ['get', 'put', 'create', 'update', 'delete', 'batchGet', 'batchPut', 'batchDelete', 'query', 'queryAll', 'context', 'constructor'];

function validatePatterns(table: TableDef, report: Report): void {
  const taken = new Map<string, Set<string>>();
  for (const entity of Object.values(table.entities)) {
    const names = new Set(REPOSITORY_MEMBERS);
    for (const index of Object.keys(entity.indexes)) {
      const suffix = index.charAt(0).toUpperCase() + index.slice(1);
      for (const n of [`query${suffix}`, `query${suffix}All`, `mark${suffix}`, `clear${suffix}`]) names.add(n);
    }
    taken.set(entity.name, names);
  }
  for (const pattern of Object.values(table.patterns)) {
    const at = ['patterns', pattern.name];
    if (!IDENTIFIER.test(pattern.name)) report('DDB020', at, [pattern.name, 'pattern']);
    const resolved = resolvePattern(table, pattern);
    if (resolved === 'entity') {
      report('DDB070', [...at, 'entity'], [`pattern "${pattern.name}" names entity "${pattern.entity}", which is not declared`, Object.keys(table.entities)]);
      continue;
    }
    const entity = table.entities[pattern.entity]!;
    const names = taken.get(entity.name)!;
    if (names.has(pattern.name) || names.has(`${pattern.name}All`)) {
      report('DDB071', at, [`pattern "${pattern.name}" would take the name of a generated ${entity.name}Repository method`, [`${pattern.name}Items`]]);
    }
    names.add(pattern.name).add(`${pattern.name}All`);
    if (resolved === 'index') {
      report('DDB071', [...at, 'index'], [`pattern "${pattern.name}" uses index "${pattern.index}", which ${entity.name} does not map into`, Object.keys(entity.indexes)]);
      continue;
    }
    if (resolved === 'op-without-sk') {
      report('DDB072', [...at, 'op'], [`pattern "${pattern.name}" has op "${pattern.op}" but no sk attribute to apply it to`, ['sk: \'<attribute>\'']]);
      continue;
    }
    if (resolved === 'sk') {
      const path = pattern.index === undefined ? 'the table' : `index "${pattern.index}"`;
      const sortKey = pattern.index === undefined ? entity.key.sk : entity.indexes[pattern.index]?.sk;
      const options = sortKey ? sortKey.segments.flatMap((seg) => (seg.kind === 'placeholder' && seg.name !== 'shard' ? [seg.name] : [])) : [];
      report('DDB072', [...at, 'sk'], [`pattern "${pattern.name}" compares "${pattern.sk}", which is not part of ${entity.name}'s sort key on ${path}`, options]);
      continue;
    }
    if (resolved.op === 'beginsWith') {
      const attribute = entity.attributes[pattern.sk!]!;
      const truncated = resolved.path.sk!.segments.some((seg) => seg.kind === 'placeholder' && seg.name === pattern.sk && seg.truncate !== undefined);
      if (attribute.kind !== 'string' || truncated) {
        report('DDB073', [...at, 'op'], [`pattern "${pattern.name}" uses beginsWith on "${pattern.sk}", a ${attribute.kind}: only strings are stored as readable text in keys`, ['eq', 'between', 'gte', 'lte']]);
      }
    }
  }
}

function keyTemplatesOf(entity: EntityDef): TemplateDef[] {
  return [entity.key.pk, entity.key.sk, ...Object.values(entity.indexes).flatMap((m) => [m.pk, m.sk])].filter((t): t is TemplateDef => t !== undefined);
}

function physicalKeyAttributes(table: TableDef): Set<string> {
  const names = new Set([table.key.pk, ...(table.key.sk === undefined ? [] : [table.key.sk])]);
  for (const index of Object.values(table.indexes)) {
    if (index.kind === 'gsi') names.add(index.pk);
    if (index.sk !== undefined) names.add(index.sk);
  }
  return names;
}

function validateKeyAttributes(table: TableDef, report: Report): void {
  const uses = new Map<string, string[]>();
  const use = (attribute: string, what: string) => uses.set(attribute, [...(uses.get(attribute) ?? []), what]);
  use(table.key.pk, 'table pk');
  if (table.key.sk !== undefined) use(table.key.sk, 'table sk');
  for (const index of Object.values(table.indexes)) {
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

function validateTemplate(
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
  const unprintable = unprintableText(template.source);
  if (unprintable) report('DDB170', path, [template.source, unprintable.reason], unprintable.at);
  let offset = 0;
  for (const segment of template.segments) {
    if (segment.kind === 'literal') {
      const text = segment.text;
      if (text === '') report('DDB031', path, [template.source, `has an empty segment at character ${offset + 1} (two delimiters in a row, or one at an end)`], offset);
      else if (text.includes('<') || text.includes('>')) report('DDB031', path, [text, 'mixes text and a placeholder, or has an unmatched < or >'], offset);
      else if (text.includes('\\')) report('DDB031', path, [text, 'contains the escape character \\'], offset);
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
      } else if (attribute.kind === 'number') {
        const { min, max } = attribute;
        if (min === undefined || max === undefined) report('DDB034', path, [segment.name, `it has no ${min === undefined && max === undefined ? 'min and max' : min === undefined ? 'min' : 'max'}`], offset);
        else if (!(min <= max)) report('DDB034', path, [segment.name, `its min ${min} is above its max ${max}`], offset);
        else if (attribute.integer && !Number.isSafeInteger(max - min)) report('DDB034', path, [segment.name, `its range ${min}..${max} is wider than 2^53 - 1`], offset);
      }
      if (attribute && primary && attribute.optional) report('DDB035', path, [segment.name], offset);
    }
    offset += (segment.kind === 'literal' ? segment.text : segment.source).length + d.length;
  }
}

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

function validateShard(entity: EntityDef, pk: TemplateDef, shard: EntityDef['key']['shard'], path: readonly string[], report: Report): void {
  if (!shard) return;
  const hasShard = pk.segments.some((s) => s.kind === 'placeholder' && s.name === 'shard');
  if (!hasShard) report('DDB037', [...path, 'shard'], [`shard is declared, but the partition-key template ${pk.source} has no <shard>`]);
  if (!Number.isInteger(shard.count) || shard.count < 2 || shard.count > 1000) report('DDB037', [...path, 'shard'], [`shard count ${shard.count} is not an integer from 2 to 1000`]);
  for (const name of shard.by ?? []) {
    const by = attributeOf(entity, name);
    if (!by) report('DDB037', [...path, 'shard'], [`shard.by names "${name}", which is not an attribute of ${entity.name}`]);
    else if (by.optional || !(KEYABLE_KINDS as readonly string[]).includes(by.kind)) {
      report('DDB037', [...path, 'shard'], [`shard.by "${name}" must be a required scalar attribute (the shard is computed from it on every write)`]);
    }
  }
}

/** Something that owns keys in the table: an entity, or one half of an edge. */
interface KeyOwner {
  readonly name: string;
  readonly path: readonly string[];
  readonly describe: string;
  readonly pk: readonly SegmentDef[];
  readonly sk: readonly SegmentDef[] | undefined;
}

/** An edge's two item shapes: pk `<type>.<id>`, sk `<label>.<type>.<id>`, for each label. */
export function edgeOwners(table: TableDef, edge: EdgeDef): KeyOwner[] {
  const type: SegmentDef = { kind: 'enum', attr: 'type', values: edge.types };
  const id: SegmentDef = { kind: 'string', attr: 'id' };
  const d = table.delimiter;
  const labels = [edge.forward, ...(edge.inverse === undefined || edge.inverseIndex !== undefined ? [] : [edge.inverse])];
  return [...new Set(labels)].map((label) => ({
    name: `edge ${edge.name} (${label})`,
    path: ['edges', edge.name],
    describe: `edge ${edge.name} (<type>${d}<id> | ${label}${d}<type>${d}<id>)`,
    pk: [type, id],
    sk: [{ kind: 'literal', text: label }, type, id],
  }));
}

function validateCollisions(table: TableDef, report: Report): void {
  const owners: KeyOwner[] = [
    ...Object.values(table.entities).map((entity) => ({
      name: entity.name,
      path: ['entities', entity.name],
      describe: `${entity.name} (${entity.key.pk.source}${entity.key.sk ? ` | ${entity.key.sk.source}` : ''})`,
      pk: keySegments(entity, entity.key.pk, entity.key.shard)!,
      sk: entity.key.sk ? keySegments(entity, entity.key.sk)! : undefined,
    })),
    ...Object.values(table.edges).flatMap((edge) => edgeOwners(table, edge)),
  ];
  for (let i = 0; i < owners.length; i++) {
    for (let j = 0; j < owners.length; j++) {
      if (i === j) continue;
      const a = owners[i]!;
      const b = owners[j]!;
      if (!templatesCanCollide(a.pk, b.pk)) continue;
      if (a.sk && b.sk ? templatesCanCollide(a.sk, b.sk) : !a.sk && !b.sk) {
        if (i < j) report('DDB040', [...b.path, ...(b.path[0] === 'entities' ? ['key'] : [])], [a.name, b.name, `${a.describe} vs ${b.describe}`, table.delimiter]);
      } else if (a.sk && b.sk && sortKeyCanOverlap(a.sk, b.sk)) {
        report('DDB041', [...b.path, ...(b.path[0] === 'entities' ? ['key', 'sk'] : [])], [a.name, b.name, collectionText(leadingLiterals(a.sk), table.delimiter)]);
      }
    }
  }
}

const LABEL = /^[A-Za-z][A-Za-z0-9_-]*$/;

function validateEdges(table: TableDef, report: Report): void {
  const keyNames = physicalKeyAttributes(table);
  for (const edge of Object.values(table.edges)) {
    const at = ['edges', edge.name];
    if (!IDENTIFIER.test(edge.name)) report('DDB020', at, [edge.name, 'edge']);
    if (table.key.sk === undefined) report('DDB075', at, [`edge ${edge.name} needs a table with a sort key: its items are <type>${table.delimiter}<id> / <label>${table.delimiter}<type>${table.delimiter}<id>`]);
    if (edge.types.length === 0) report('DDB075', [...at, 'types'], [`edge ${edge.name} lists no node types`]);
    for (const type of edge.types) if (!LABEL.test(type) || type.includes(table.delimiter)) report('DDB075', [...at, 'types'], [`node type "${type}" of edge ${edge.name} is not letters, digits, _ or - starting with a letter`]);
    for (const [field, label] of [['forward', edge.forward], ['inverse', edge.inverse]] as const) {
      if (label !== undefined && (!LABEL.test(label) || label.includes(table.delimiter))) report('DDB075', [...at, field], [`${field} label "${label}" of edge ${edge.name} is not letters, digits, _ or - starting with a letter (and no "${table.delimiter}")`]);
    }
    if (edge.inverseIndex !== undefined) {
      const index = table.indexes[edge.inverseIndex];
      if (!index || index.kind !== 'gsi' || index.sk === undefined) report('DDB075', [...at, 'inverseIndex'], [`inverseIndex "${edge.inverseIndex}" of edge ${edge.name} is not a GSI with a sort key of this table`]);
      if (edge.inverse === undefined) report('DDB075', [...at, 'inverseIndex'], [`edge ${edge.name} has an inverseIndex but no inverse label to key it by`]);
    }
    validateAttributeNames(`edge ${edge.name}`, edge.attributes, [...at, 'attributes'], report);
    for (const name of Object.keys(edge.attributes)) {
      if (name === 'type' || name === 'id' || keyNames.has(name)) report('DDB075', [...at, 'attributes', name], [`edge attribute "${name}" would clash with the ${name === 'type' || name === 'id' ? 'node fields type and id of a link' : 'table key attribute'}`]);
    }
  }
}
