// Validates a table's IR and returns every problem at once. Paths are relative to the table's
// declaration; the loader turns them into file:line:column. The names the output declares are
// judged by the function given (validate-table.ts gives the full check; the loader gives the
// screen of name-rules.ts, and the full check only when the screen cannot decide), so validating
// needs neither the emitters nor the compiler.

import type { AttributeDef, EdgeDef, EntityDef, IndexMappingDef, ShardDef, TableDef, TemplateDef, Throughput, TrafficDef } from '../../dsl/ir.js';
import type { SegmentDef } from '../../templates/runtime/codec.js';
import type { PendingDiagnostic } from '../diagnostics/diagnostic.js';
import { lintMessages, messages, OBSERVED_CODES, type MessageCode } from '../diagnostics/messages.js';
import { resolvePattern } from '../model/access-paths.js';
import { KEYABLE_KINDS, fixedByPartition, identityTemplates, integerKeyForm, keySegments, shardInputs, templateAttributes } from '../model/key-segments.js';
import type { NameProblem } from './name-rules.js';
import { DYNAMODB_NAME, type Report } from './report.js';
import { validateNativeIndexes } from './native-indexes.js';
import { validateStoredFormats } from './stored-formats.js';
import { collectionText, leadingLiterals, sortKeyCanOverlap, templatesCanCollide } from './key-collisions.js';
import { validateTableSettings } from './table-settings.js';

export { DYNAMODB_NAME, type Report } from './report.js';

/** The rules a schema's lint settings may name: the catalogue's lint codes, less the findings on observed traffic. */
const RULE_CODES = Object.keys(lintMessages).filter((code) => !OBSERVED_CODES.has(code));

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;
/**
 * `__proto__`, `constructor`, `prototype`, and every member plain objects inherit (`toString`,
 * `valueOf`, `hasOwnProperty`, …): an object without such an own property still answers to the
 * name, so an absent attribute would read as a function.
 */
const PROTOTYPE_NAMES = [
  '__proto__', 'constructor', 'prototype', 'toString', 'toLocaleString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable',
  '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
];

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
const ROTATIONS: readonly string[] = ['day', 'week', 'month', 'year'];
/** DynamoDB's key limits in UTF-8 bytes: partition keys (table and GSI) 2048, sort keys 1024. */
const KEY_BYTES = { pk: 2048, sk: 1024 } as const;
/** DynamoDB's fixed LSI limit and default GSI quota per table. */
const MAX_LSIS = 5;
const DEFAULT_GSI_QUOTA = 20;
const UNITS = ['second', 'minute', 'hour', 'day', 'month'];
/** What rotation appends to a table's name at most: `_YYYY-MM-DD`, `_YYYY-Www`, `_YYYY-MM`, `_YYYY`. */
const ROTATION_EXAMPLE: Readonly<Record<string, string>> = { day: '_2024-05-06', week: '_2024-W19', month: '_2024-05', year: '_2024' };
const STREAM_VIEW_TYPES: readonly string[] = ['new-and-old-images', 'new-image', 'old-image', 'keys-only'];


export function checkTable(table: TableDef, nameProblems: (table: TableDef) => readonly NameProblem[]): PendingDiagnostic[] {
  const found: PendingDiagnostic[] = [];
  const report: Report = (code, path, args, offset, severity = 'error') => {
    const { message, fix } = (messages[code] as (...a: typeof args) => { message: string; fix: string })(...args);
    found.push({ code, severity, message, fix, target: [table.name, ...path].join('.'), path, ...(offset === undefined ? {} : { offset }) });
  };

  if (!IDENTIFIER.test(table.name)) report('DDB010', ['name'], [table.name]);
  validateTableName(table, report);
  const d = table.delimiter;
  if (!/^[!-/:-@[-`{-~]$/.test(d) || ['\\', '<', '>', '`'].includes(d)) {
    report('DDB011', ['delimiter'], [d]);
    return found; // every template was split by it: their problems would only be echoes
  }
  validateKeyAttributes(table, report);
  if (table.rotation !== undefined && !ROTATIONS.includes(table.rotation)) report('DDB108', ['rotation'], [`rotation ${JSON.stringify(table.rotation)} is not a period ddbgen rotates tables by`, ROTATIONS]);
  if (table.stream !== undefined && !STREAM_VIEW_TYPES.includes(table.stream)) report('DDB260', ['stream'], [table.stream, STREAM_VIEW_TYPES]);
  validateIndexCounts(table, report);
  validateNames(nameProblems(table), report);
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
    if (!entity.key) {
      report('DDB103', [...at, 'key'], []);
      continue;
    }
    validateAttributeNames(entity.name, entity.attributes, [...at, 'attributes'], report);
    validateTemplate(table, entity, entity.key.pk, [...at, 'key', 'pk'], true, entity.key.shard !== undefined, report);
    if (entity.key.sk) validateTemplate(table, entity, entity.key.sk, [...at, 'key', 'sk'], true, false, report);
    if (table.key.sk !== undefined && !entity.key.sk) report('DDB036', [...at, 'key'], [`${entity.name} has no sort-key template, but the table has a sort key "${table.key.sk}"`]);
    if (table.key.sk === undefined && entity.key.sk) report('DDB036', [...at, 'key', 'sk'], [`${entity.name} has a sort-key template, but the table has no sort key`]);
    validateShard(entity, entity.key.pk, entity.key.shard, [...at, 'key'], report);
    validateUnits(entity, at, report);
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
      if (mapping.pk) validateShard(entity, mapping.pk, mapping.shard, mat, report, mapping);
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
  validateNativeIndexes(table, report);
  validateTraffic(table, report);
  validateEdges(table, report);
  validateTableSettings(table, keyAttributeNames, report);
  validateStoredFormats(table, keyAttributeNames, report);
  // key collisions between every entity whose primary key is sound, whatever else failed
  const unsound = new Set(found.filter((d) => d.severity !== 'info' && ((d.path[0] === 'entities' && d.path[2] === 'key') || d.path[0] === 'edges')).map((d) => `${d.path[0]}.${d.path[1]}`));
  validateCollisions(table, (owner) => !unsound.has(`${owner.path[0]}.${owner.path[1]}`), report);
  return found;
}

const SEVERITIES = ['off', 'info', 'warn', 'error'];

/**
 * Why an entity's partition key cannot be a node key (undefined when it can): a node key must be
 * one partition per node, identify one item of the entity, and give its id back exactly.
 */
function nodeKeyProblem(entity: EntityDef): string | undefined {
  const placeholders = entity.key.pk.segments.filter((s) => s.kind === 'placeholder');
  if (!placeholders.length) return 'it has no placeholder, so every node would share one partition';
  if (entity.key.shard || placeholders.some((s) => s.name === 'shard')) return 'it is write-sharded, so one node would be spread over several partitions';
  if (entity.keyFormat !== undefined) return 'its keys are written in a stored key format (keyFormat), and edges write node ids with ddbgen\'s codec';
  const truncated = placeholders.find((s) => s.truncate !== undefined);
  if (truncated) return `"${truncated.source}" truncates a timestamp, so an id would not come back exactly`;
  if (entity.key.sk?.segments.some((s) => s.kind === 'placeholder')) {
    return `its sort key "${entity.key.sk.source}" has placeholders, so the partition holds many ${entity.name} items, not one node`;
  }
  return undefined;
}

function validateTraffic(table: TableDef, report: Report): void {
  const number = (path: readonly string[], field: string, value: number | undefined, max = Infinity) => {
    if (value === undefined) return;
    if (typeof value !== 'number') report('DDB080', path, [field, `${JSON.stringify(value)}, a ${typeof value} where a number belongs`]);
    else if (!Number.isFinite(value) || value < 0) report('DDB080', path, [field, String(value)]);
    else if (value > max) report('DDB080', path, [field, `${value}, above ${max}`]);
  };
  for (const entity of Object.values(table.entities)) {
    const traffic = entity.traffic;
    const at = ['entities', entity.name, 'traffic'];
    if (traffic) {
      for (const field of ['items', 'itemBytes', 'itemsPerKey', 'writesPerSecond', 'readsPerSecond'] as const) number([...at, field], field, traffic[field]);
      // every GSI the entity maps into is a key space of its own: synthetic and native alike
      const gsis = [...Object.keys(entity.indexes), ...Object.keys(entity.nativeIndexes ?? {})].filter((name) => table.indexes[name]?.kind === 'gsi' || table.indexes[name]?.kind === 'native-gsi');
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
    if (!edge.traffic) continue;
    const at = ['edges', edge.name, 'traffic'];
    for (const field of ['writesPerSecond', 'readsPerSecond'] as const) number([...at, field], field, edge.traffic[field]);
    validateShares(edge.traffic.hotKeyShare, at, `edge ${edge.name}`, ['forward', 'inverse'], number, report);
    validateSwitches(edge.traffic, at, report);
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
  for (const index of Object.values(table.indexes)) {
    if (index.kind === 'lsi') continue;
    if (index.capacity !== undefined && table.capacity.mode !== 'provisioned') report('DDB194', ['indexes', index.name, 'capacity'], [index.name]);
    throughput(['indexes', index.name, 'capacity'], index.capacity);
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
    if (!RULE_CODES.includes(rule)) report('DDB081', [...path, rule], [`lint names rule "${rule}", which does not exist`, RULE_CODES]);
    else if (!SEVERITIES.includes(severity)) report('DDB081', [...path, rule], [`lint severity "${severity}" for ${rule} is not a severity`, SEVERITIES]);
  }
}

/** Member names every generated repository has, which an index or a pattern must not produce. */
const REPOSITORY_MEMBERS = ['get', 'put', 'create', 'replace', 'update', 'delete', 'batchGet', 'batchPut', 'batchDelete', 'getAll', 'sum', 'increment', 'context', 'constructor'];

/** The methods a query path gets (`query`, `queryByName`): the page, its iterator, a time-range read and a query across rotated tables. */
const queryMethods = (method: string) => [method, `${method}All`, `${method}Between`, `${method}AcrossTables`];

/**
 * The repository members each entity's indexes produce, beside the fixed ones and the table's own
 * query methods; an index whose name makes one that is already there (index `All` makes
 * `queryAll`, the table's iterator) is reported, and the names are the patterns' to avoid.
 */
function repositoryMembers(table: TableDef, report: Report): Map<string, Set<string>> {
  const taken = new Map<string, Set<string>>();
  for (const entity of Object.values(table.entities)) {
    const owners = new Map<string, string>([...REPOSITORY_MEMBERS, ...queryMethods('query')].map((n) => [n, `${entity.name}Repository`]));
    for (const index of [...Object.keys(entity.indexes), ...Object.keys(entity.nativeIndexes ?? {})]) {
      const suffix = index.charAt(0).toUpperCase() + index.slice(1);
      const produced = [...queryMethods(`query${suffix}`), `mark${suffix}`, `clear${suffix}`];
      const clash = produced.find((n) => owners.has(n));
      if (clash !== undefined) report('DDB024', ['entities', entity.name, 'indexes', index], [entity.name, index, clash, owners.get(clash)!]);
      for (const n of produced) if (!owners.has(n)) owners.set(n, `index ${index}`);
    }
    taken.set(entity.name, new Set(owners.keys()));
  }
  return taken;
}

function validatePatterns(table: TableDef, report: Report): void {
  const taken = repositoryMembers(table, report);
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
    if (resolved === 'index' && table.indexes[pattern.index!]?.kind === 'native-gsi') continue; // DDB248
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
      } else if (resolved.path.partition.includes(pattern.sk!)) {
        report('DDB073', [...at, 'op'], [`pattern "${pattern.name}" uses beginsWith on "${pattern.sk}", which the partition key also holds: a text prefix gives no whole value to find the partition by`, ['eq', 'between', 'gte', 'lte']]);
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
    if (index.kind === 'native-gsi') continue;
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

/** The table's physical names against DynamoDB's 3..255: the name itself, and every rotated name. */
function validateTableName(table: TableDef, report: Report): void {
  const { min, max } = DYNAMODB_NAME;
  if (table.name.length < min || table.name.length > max) report('DDB109', ['name'], [table.name, table.name.length]);
  const suffix = table.rotation === undefined ? undefined : ROTATION_EXAMPLE[table.rotation];
  if (suffix === undefined || table.name.length > max) return;
  const longest = table.name + suffix;
  if (longest.length > max) report('DDB110', ['rotation'], [table.rotation!, suffix, longest.length, max - suffix.length]);
}

function validateIndexCounts(table: TableDef, report: Report): void {
  const indexes = Object.values(table.indexes);
  const lsis = indexes.filter((i) => i.kind === 'lsi');
  const gsis = indexes.filter((i) => i.kind !== 'lsi');
  if (lsis.length > MAX_LSIS) report('DDB104', ['indexes', lsis[MAX_LSIS]!.name], [lsis.length]);
  const quota = table.gsiQuota;
  if (quota !== undefined && (typeof quota !== 'number' || !Number.isInteger(quota) || quota <= DEFAULT_GSI_QUOTA)) {
    report('DDB107', ['gsiQuota'], [`gsiQuota is ${JSON.stringify(quota)}; it declares a raised quota, so it is a whole number above ${DEFAULT_GSI_QUOTA}`]);
  }
  const allowed = typeof quota === 'number' && Number.isInteger(quota) && quota > DEFAULT_GSI_QUOTA ? quota : DEFAULT_GSI_QUOTA;
  if (gsis.length > allowed) report('DDB105', ['indexes', gsis[allowed]!.name], [gsis.length, allowed]);
}

function validateNames(problems: readonly NameProblem[], report: Report): void {
  for (const problem of problems) {
    if (problem.kind === 'reserved') report('DDB100', problem.owner.path, [problem.owner.what, problem.name]);
    else if (problem.kind === 'clash') report('DDB102', problem.owner.path, [problem.owner.what, problem.other!.what, problem.name]);
    else report('DDB101', problem.owner.path, [problem.owner.what, problem.name, problem.kind]);
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

function validateShard(entity: EntityDef, pk: TemplateDef, shard: ShardDef | undefined, path: readonly string[], report: Report, mapping?: IndexMappingDef): void {
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
function validateUnits(entity: EntityDef, at: readonly string[], report: Report): void {
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

/** Something that owns keys in the table: an entity, or one half of an edge. */
interface KeyOwner {
  readonly name: string;
  readonly path: readonly string[];
  readonly describe: string;
  readonly pk: readonly SegmentDef[];
  readonly sk: readonly SegmentDef[] | undefined;
  readonly edge?: true;
}

/**
 * An edge's item shapes: for each label, each node type's partition key with sk
 * `<label>.<other type>.<other id parts>`. (Validated node types only: collisions are checked last.)
 */
export function edgeOwners(table: TableDef, edge: EdgeDef): KeyOwner[] {
  const d = table.delimiter;
  const labels = [edge.forward, ...(edge.inverse === undefined || edge.inverseIndex !== undefined ? [] : [edge.inverse])];
  // A node type that is not a sound entity is reported on its own (DDB140, DDB141); its edge has no item shape to compare.
  const nodes = edge.types.map((type) => {
    const entity = Object.hasOwn(table.entities, type) ? table.entities[type] : undefined;
    return { type, pk: entity?.key ? keySegments(entity, entity.key.pk) : undefined };
  });
  if (!nodes.every((node): node is { type: string; pk: NonNullable<typeof node.pk> } => node.pk !== undefined)) return [];
  return [...new Set(labels)].flatMap((label) =>
    nodes.flatMap((from) =>
      nodes.map((to) => ({
        name: `edge ${edge.name} (${label})`,
        path: ['edges', edge.name],
        describe: `edge ${edge.name} (${table.entities[from.type]!.key.pk.source} | ${label}${d}${to.type}${d}<id>)`,
        pk: from.pk,
        // The type is a segment of any node type: `outgoing` without a type filter reads all of `<label>.`.
        sk: [{ kind: 'literal' as const, text: label }, { kind: 'enum' as const, attr: 'type', values: edge.types }, ...to.pk.filter((s) => s.kind !== 'literal')],
        edge: true as const,
      })),
    ),
  );
}

function validateCollisions(table: TableDef, sound: (owner: { path: readonly string[] }) => boolean, report: Report): void {
  const owners: KeyOwner[] = [
    ...Object.values(table.entities).filter((entity) => entity.key !== undefined && sound({ path: ['entities', entity.name] })).flatMap((entity) => {
      const pk = keySegments(entity, entity.key.pk, entity.key.shard);
      const sk = entity.key.sk ? keySegments(entity, entity.key.sk) : undefined;
      return pk && (sk || !entity.key.sk) ? [{ entity, pk, sk }] : [];
    }).map(({ entity, pk, sk }) => ({
      name: entity.name,
      path: ['entities', entity.name],
      describe: `${entity.name} (${entity.key.pk.source}${entity.key.sk ? ` | ${entity.key.sk.source}` : ''})`,
      pk,
      sk,
    })),
    ...Object.values(table.edges).flatMap((edge) => edgeOwners(table, edge)).filter(sound),
  ];
  // An edge has one owner per pair of node types, which may find the same problem: report it once.
  const reported = new Set<string>();
  const once: Report = (code, path, args) => {
    const id = JSON.stringify([code, path, args]);
    if (!reported.has(id)) report(code, path, args);
    reported.add(id);
  };
  for (let i = 0; i < owners.length; i++) {
    for (let j = 0; j < owners.length; j++) {
      if (i === j) continue;
      const a = owners[i]!;
      const b = owners[j]!;
      // One edge's item shapes differ by the node type written in the sort key: they never collide.
      if (a.path[0] === 'edges' && a.path.join('.') === b.path.join('.')) continue;
      if (!templatesCanCollide(a.pk, b.pk)) continue;
      if (a.sk && b.sk ? templatesCanCollide(a.sk, b.sk) : !a.sk && !b.sk) {
        if (i < j) once('DDB040', [...b.path, ...(b.path[0] === 'entities' ? ['key'] : [])], [a.name, b.name, `${a.describe} vs ${b.describe}`, table.delimiter]);
      } else if (a.sk && b.sk && (a.edge || b.edge) && sortKeyCanOverlap(a.sk, b.sk)) {
        // Entities that share a partition are told apart by their sort keys (queries skip the
        // other's items, as collections do); edge reads do not, so an overlap with an edge is an error.
        once('DDB041', [...b.path, ...(b.path[0] === 'entities' ? ['key', 'sk'] : [])], [a.name, b.name, collectionText(leadingLiterals(a.sk), table.delimiter)]);
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
    for (const type of edge.types) {
      if (!LABEL.test(type) || type.includes(table.delimiter)) report('DDB075', [...at, 'types'], [`node type "${type}" of edge ${edge.name} is not letters, digits, _ or - starting with a letter`]);
      const entity = table.entities[type];
      if (!entity) report('DDB140', [...at, 'types'], [edge.name, type, Object.keys(table.entities), table.delimiter]);
      else {
        const reason = nodeKeyProblem(entity);
        if (reason) report('DDB141', [...at, 'types'], [edge.name, type, entity.key.pk.source, reason, table.delimiter]);
      }
    }
    const nodes = edge.types.flatMap((type) => {
      const entity = table.entities[type];
      const pk = entity && !nodeKeyProblem(entity) ? keySegments(entity, entity.key.pk) : undefined;
      return entity && pk ? [{ entity, pk }] : [];
    });
    nodes.forEach((a, i) =>
      nodes.slice(i + 1).forEach((b) => {
        if (templatesCanCollide(a.pk, b.pk)) {
          report('DDB142', [...at, 'types'], [edge.name, a.entity.name, b.entity.name, `${a.entity.name} "${a.entity.key.pk.source}" vs ${b.entity.name} "${b.entity.key.pk.source}"`, table.delimiter]);
        }
      }),
    );
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
