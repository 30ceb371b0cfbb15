// Compares two versions of a table's IR and classifies every change by what it means for the items
// already stored: safe, needs a backfill, rewrites keys, needs table recreation, destructive, needs
// a split deploy. Keys are compared as the codec encodes them (template, attribute types, ranges,
// shard), so a change that moves stored keys is found even when the template text is the same.
// Fields this module does not know (added to the IR later) are compared generically and reported
// as "needs review", never as safe.

import type { AttributeDef, EdgeDef, EntityDef, IndexDef, ShardDef, TableDef, TemplateDef } from '../../dsl/ir.js';
import { KEY_CODEC_VERSION, type SegmentDef } from '../../templates/runtime/codec.js';
import { messages } from '../diagnostics/messages.js';
import { indexProjection } from '../model/access-paths.js';
import { keySegments, storedKeyFormat } from '../model/key-segments.js';

export const CHANGE_CLASSES = ['safe', 'backfill', 'rewrite-keys', 'recreate-table', 'destructive', 'split-deploy', 'review'] as const;
export type ChangeClass = (typeof CHANGE_CLASSES)[number];

/** How each class reads in text output. */
export const CLASS_LABEL: Record<ChangeClass, string> = {
  safe: 'safe',
  backfill: 'needs a backfill',
  'rewrite-keys': 'rewrites keys',
  'recreate-table': 'needs table recreation',
  destructive: 'destructive',
  'split-deploy': 'needs a split deploy',
  review: 'needs review',
};

export type DiffCode = keyof typeof messages;

export interface SchemaChange {
  readonly code: DiffCode;
  readonly class: ChangeClass;
  /** Schema path of the changed part inside the table (`entities.User.key.pk`): what `migrations` entries name. */
  readonly change: string;
  readonly message: string;
  readonly fix: string;
  /** The path exists only in the old schema (a removal): locate it there. */
  readonly removed?: boolean;
  /** Entities whose stored items a generated migration rewrites (keys) or backfills (index attributes); edges whose items it moves. */
  readonly migrate?: { readonly entity: string; readonly kind: 'rewrite' | 'backfill' } | { readonly edge: string; readonly kind: 'edge' };
}

type Plain = unknown;

/** Deep equality of plain IR data (key order ignored). */
export function sameData(a: Plain, b: Plain): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A field of an IR node by name. */
const field = (node: object | undefined, name: string): unknown => (node as Record<string, unknown> | undefined)?.[name];

/** Changed fields of two nodes outside `known`, as paths (for fields this module has no rule for). */
function unknownChanges(a: object | undefined, b: object | undefined, known: readonly string[], at: string): SchemaChange[] {
  const fields = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})].filter((k) => !known.includes(k)));
  return [...fields]
    .filter((f) => !sameData(field(a, f), field(b, f)))
    .sort()
    .map((f) => change('DDB226', 'review', `${at}${at ? '.' : ''}${f}`, messages.DDB226(`${at}${at ? '.' : ''}${f}`)));
}

function change(code: DiffCode, cls: ChangeClass, path: string, text: { message: string; fix: string }, extra: Partial<SchemaChange> = {}): SchemaChange {
  return { code, class: cls, change: path, ...text, ...extra };
}

const quoted = (t: TemplateDef | undefined) => (t ? JSON.stringify(t.source) : 'none');

/** Whether every value `before` accepts, `after` accepts too; and a phrase for the change. */
function attributeChange(before: AttributeDef, after: AttributeDef): { phrase: string; narrowed: boolean } {
  if (before.kind !== after.kind) {
    const widened = before.kind === 'enum' && after.kind === 'string';
    return { phrase: `changed type from ${before.kind} to ${after.kind}`, narrowed: !widened };
  }
  const phrases: string[] = [];
  let narrowed = false;
  if (before.optional !== after.optional) {
    phrases.push(after.optional ? 'became optional' : 'became required');
    narrowed ||= !after.optional;
  }
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  if (before.kind === 'enum' && after.kind === 'enum' && !sameData(before.values, after.values)) {
    const dropped = before.values.filter((v) => !after.values.includes(v));
    phrases.push(dropped.length ? `no longer allows ${dropped.map((v) => JSON.stringify(v)).join(', ')}` : `allows ${after.values.filter((v) => !before.values.includes(v)).map((v) => JSON.stringify(v)).join(', ')}`);
    narrowed ||= dropped.length > 0;
  }
  const bound = (field: 'min' | 'max' | 'maxBytes' | 'maxItems', tighter: (x: number, y: number) => boolean) => {
    if (b[field] === a[field]) return;
    phrases.push(`${field} ${String(b[field] ?? 'none')} → ${String(a[field] ?? 'none')}`);
    narrowed ||= a[field] !== undefined && (b[field] === undefined || tighter(a[field] as number, b[field] as number));
  };
  bound('min', (x, y) => x > y);
  bound('max', (x, y) => x < y);
  bound('maxBytes', (x, y) => x < y);
  bound('maxItems', (x, y) => x < y);
  if (b.integer !== a.integer) {
    phrases.push(a.integer ? 'became integer' : 'is no longer integer-only');
    narrowed ||= a.integer === true;
  }
  if (before.kind === 'list' && after.kind === 'list') {
    const inner = attributeChange(before.of, after.of);
    if (!sameData(before.of, after.of)) phrases.push(`its elements ${inner.phrase}`);
    narrowed ||= !sameData(before.of, after.of) && inner.narrowed;
  }
  if (before.kind === 'map' && after.kind === 'map') {
    for (const field of new Set([...Object.keys(before.fields), ...Object.keys(after.fields)])) {
      const x = before.fields[field];
      const y = after.fields[field];
      if (sameData(x, y)) continue;
      if (!x) phrases.push(`gained field ${field}`), (narrowed ||= !y!.optional);
      else if (!y) phrases.push(`lost field ${field}`), (narrowed = true);
      else {
        const inner = attributeChange(x, y);
        phrases.push(`field ${field} ${inner.phrase}`);
        narrowed ||= inner.narrowed;
      }
    }
  }
  // declarations for the lint and the report only (cardinality, pii)
  for (const f of ['cardinality', 'pii']) if (!sameData(b[f], a[f])) phrases.push(`${f} ${String(b[f] ?? 'none')} → ${String(a[f] ?? 'none')}`);
  const known = ['kind', 'optional', 'values', 'min', 'max', 'maxBytes', 'maxItems', 'integer', 'of', 'fields', 'cardinality', 'pii', 'storedAs', 'format'];
  for (const f of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (!known.includes(f) && !sameData(b[f], a[f])) phrases.push(`${f} changed`), (narrowed = true);
  }
  return { phrase: phrases.join(', '), narrowed };
}

/**
 * The codec's view of a key: its segments as encoded (an enum's value list only validates, so a
 * value added or dropped is an attribute change, not a key change) and its whole shard declaration.
 */
function encoded(entity: EntityDef, template: TemplateDef | undefined, shard: unknown): string {
  if (!template) return 'none';
  const segments = keySegments(entity, template, shard as never)?.map((s) => (s.kind === 'enum' ? { kind: s.kind, attr: s.attr } : s));
  // the shard moves only the key that holds it: a sort key without <shard> is not re-encoded by a new count
  const sharded = template.segments.some((s) => s.kind === 'placeholder' && s.name === 'shard');
  return JSON.stringify({ segments: segments ?? template.source, shard: sharded ? (shard ?? null) : null, format: storedKeyFormat(entity) });
}

/** The key codec versions whose stored keys differ in form: 1 wrote an integer as its offset from min. */
export type KeyCodecVersion = 1 | typeof KEY_CODEC_VERSION;

/**
 * The integer parts of a key that codec v1 wrote differently from the current codec: those with a
 * range whose min is not 0 (v1 stored the offset from min; with min 0 both write the same text).
 * A calculated shard hashes its parts as encoded, so they count too.
 */
function codecSensitiveParts(entity: EntityDef, template: TemplateDef | undefined, shard?: ShardDef): string[] {
  if (!template) return [];
  const integers = (segments: readonly SegmentDef[]): string[] =>
    segments.flatMap((s) => (s.kind === 'integer' && s.min !== 0 ? [s.attr] : s.kind === 'shard' ? integers(s.by) : []));
  return [...new Set(integers(keySegments(entity, template, shard) ?? []))];
}

/**
 * The edges whose stored items live in the entity's partitions in both versions (it is one of
 * their node types): when its partition key moves, their items move with it.
 */
function edgesOf(before: TableDef, after: TableDef, entity: string): string[] {
  return Object.values(after.edges).filter((e) => e.types.includes(entity) && before.edges[e.name]?.types.includes(entity)).map((e) => e.name);
}

/** The node types of an edge whose partition key encodes differently in `after` (every item keyed by such a node moves). */
function movedNodes(before: TableDef, after: TableDef, edge: EdgeDef): string[] {
  return edge.types.filter((type) => {
    const x = before.entities[type];
    const y = after.entities[type];
    return x !== undefined && y !== undefined && encoded(x, x.key.pk, x.key.shard) !== encoded(y, y.key.pk, y.key.shard);
  });
}

function compareEntity(before: EntityDef, after: EntityDef, delimiterChanged: boolean, oldCodec: KeyCodecVersion, edges: readonly string[]): SchemaChange[] {
  const at = `entities.${after.name}`;
  const out: SchemaChange[] = [];
  const name = after.name;
  for (const attribute of new Set([...Object.keys(before.attributes), ...Object.keys(after.attributes)])) {
    const x = before.attributes[attribute];
    const y = after.attributes[attribute];
    const path = `${at}.attributes.${attribute}`;
    if (!x) out.push(change('DDB212', y!.optional ? 'safe' : 'backfill', path, messages.DDB212(name, attribute, !y!.optional)));
    else if (!y) out.push(change('DDB213', 'destructive', path, messages.DDB213(name, attribute), { removed: true }));
    else {
      const stored = storedForm(x, y);
      if (stored) out.push(change('DDB235', 'backfill', path, messages.DDB235(name, attribute, stored), { migrate: { entity: name, kind: 'backfill' } }));
      const { storedAs: _a, format: _f, ...xs } = x as AttributeDef & { format?: unknown };
      const { storedAs: _b, format: _g, ...ys } = y as AttributeDef & { format?: unknown };
      if (!sameData(xs, ys)) {
        const { phrase, narrowed } = attributeChange(xs as AttributeDef, ys as AttributeDef);
        out.push(change('DDB214', narrowed ? 'destructive' : 'safe', path, messages.DDB214(name, attribute, phrase, narrowed)));
      }
    }
  }
  if (!sameData(before.discriminator, after.discriminator)) {
    const text = (d: EntityDef['discriminator']) => (d ? JSON.stringify(d) : 'none');
    out.push(change('DDB234', 'backfill', `${at}.discriminator`, messages.DDB234(name, `changed from ${text(before.discriminator)} to ${text(after.discriminator)}`, after.discriminator === undefined), { migrate: { entity: name, kind: 'backfill' } }));
  }
  const keyParts: Array<['pk' | 'sk', string]> = [['pk', 'partition key'], ['sk', 'sort key']];
  let rewrite = false;
  for (const [part, label] of keyParts) {
    const x = encoded(before, before.key[part], before.key.shard);
    const y = encoded(after, after.key[part], after.key.shard);
    if (x === y) continue;
    rewrite = true;
    const source = before.key[part]?.source !== after.key[part]?.source;
    const phrase = source ? `changed from ${quoted(before.key[part])} to ${quoted(after.key[part])}` : `${quoted(after.key[part])} encodes differently (attribute types, ranges, shard or key format changed)`;
    out.push(change('DDB215', 'rewrite-keys', `${at}.key.${part}`, messages.DDB215(name, label, phrase, part === 'pk' ? edges : []), { migrate: { entity: name, kind: 'rewrite' } }));
  }
  if (!rewrite && delimiterChanged) out.push(change('DDB215', 'rewrite-keys', `${at}.key`, messages.DDB215(name, 'keys', 'use the new delimiter', edges), { migrate: { entity: name, kind: 'rewrite' } }));
  const codecChanged = oldCodec !== KEY_CODEC_VERSION;
  const v1Parts = codecChanged ? codecSensitiveParts(before, before.key.pk, before.key.shard).concat(codecSensitiveParts(before, before.key.sk)) : [];
  if (!rewrite && !delimiterChanged && v1Parts.length) {
    out.push(change('DDB230', 'rewrite-keys', `${at}.key`, messages.DDB230(name, [...new Set(v1Parts)], oldCodec, KEY_CODEC_VERSION), { migrate: { entity: name, kind: 'rewrite' } }));
  }
  out.push(...unknownChanges(before.key, after.key, ['kind', 'pk', 'sk', 'shard'], `${at}.key`));
  for (const index of new Set([...Object.keys(before.indexes), ...Object.keys(after.indexes)])) {
    const x = before.indexes[index];
    const y = after.indexes[index];
    const path = `${at}.indexes.${index}`;
    if (x && !y) {
      out.push(change('DDB216', 'destructive', path, messages.DDB216(name, index, 'was removed', true), { removed: true }));
      continue;
    }
    if (!y) continue;
    const optional = [...(y.pk?.segments ?? []), ...(y.sk?.segments ?? [])].flatMap((s) => (s.kind === 'placeholder' && after.attributes[s.name]?.optional ? [s.name] : []));
    const sparse = optional.length ? ` (sparse: only items with ${optional.join(', ')})` : '';
    const migrate = { entity: name, kind: 'backfill' } as const;
    if (!x) {
      out.push(change('DDB216', 'backfill', path, messages.DDB216(name, index, `is new${sparse}`, false), { migrate }));
      continue;
    }
    const moved = (['pk', 'sk'] as const).filter((part) => encoded(before, x[part], x.shard) !== encoded(after, y[part], y.shard));
    const v1Index = codecChanged && !rewrite && !v1Parts.length ? [...new Set([...codecSensitiveParts(before, x.pk, x.shard), ...codecSensitiveParts(before, x.sk)])] : [];
    if (moved.length || delimiterChanged) {
      const what = moved.map((part) => `${part} changed from ${quoted(x[part])} to ${quoted(y[part])}`).join(', ') || 'uses the new delimiter';
      out.push(change('DDB216', 'backfill', path, messages.DDB216(name, index, `${what}${sparse}`, false), { migrate }));
    } else if (v1Index.length) {
      out.push(change('DDB231', 'backfill', path, messages.DDB231(name, index, v1Index, oldCodec, KEY_CODEC_VERSION), { migrate }));
    }
    out.push(...unknownChanges(x, y, ['kind', 'index', 'pk', 'sk', 'shard'], path));
  }
  const mappings = [...new Set([...Object.keys(before.nativeIndexes ?? {}), ...Object.keys(after.nativeIndexes ?? {})])];
  for (const index of mappings) {
    const x = before.nativeIndexes?.[index];
    const y = after.nativeIndexes?.[index];
    const path = `${at}.nativeIndexes.${index}`;
    if (sameData(x, y)) continue;
    if (!y) {
      out.push(change('DDB233', 'destructive', path, messages.DDB233(name, index, 'removed', []), { removed: true }));
      continue;
    }
    // an index key attribute held under another name is written as a copy: items stored before lack it
    const copies = Object.entries(y.attributes).filter(([key, source]) => key !== source && x?.attributes[key] !== source).map(([key]) => key);
    out.push(change('DDB233', copies.length ? 'backfill' : 'safe', path, messages.DDB233(name, index, x ? 'changed' : 'new', copies), copies.length ? { migrate: { entity: name, kind: 'backfill' } } : {}));
  }
  if (before.version !== after.version) {
    const backfill = after.version !== undefined;
    const phrase = before.version === undefined ? `"${after.version}" is new` : after.version === undefined ? `"${before.version}" was removed` : `changed from "${before.version}" to "${after.version}"`;
    out.push(change('DDB224', backfill ? 'backfill' : 'safe', `${at}.version`, messages.DDB224(name, phrase, backfill)));
  }
  for (const setting of ['traffic', 'lint'] as const) {
    if (!sameData(before[setting], after[setting])) out.push(change('DDB225', 'safe', `${at}.${setting}`, messages.DDB225(`${name}'s ${setting}`)));
  }
  out.push(...unknownChanges(before, after, ['kind', 'name', 'attributes', 'key', 'indexes', 'nativeIndexes', 'version', 'traffic', 'lint', 'discriminator', 'keyFormat'], at));
  return out;
}

/** How an attribute's stored name or timestamp format changed, or undefined when the table holds it as before. */
function storedForm(before: AttributeDef, after: AttributeDef): string | undefined {
  const phrases: string[] = [];
  if (before.storedAs !== after.storedAs) phrases.push(`stored as "${before.storedAs ?? '(its own name)'}" → "${after.storedAs ?? '(its own name)'}"`);
  const format = (def: AttributeDef) => (def.kind === 'timestamp' ? (def.format ?? 'iso') : undefined);
  if (before.kind === 'timestamp' && after.kind === 'timestamp' && format(before) !== format(after)) phrases.push(`format ${format(before)} → ${format(after)}`);
  return phrases.length ? phrases.join(', ') : undefined;
}

/**
 * Why the generated migration cannot move an edge's stored items from `before` to `after`, or
 * undefined when it can: it moves items whose keys re-encode (node ids, delimiter, labels), never
 * creates or drops halves.
 */
function edgeNotMovable(before: EdgeDef, after: EdgeDef): string | undefined {
  if (before.types.some((type) => !after.types.includes(type))) return 'an item that links a removed node type has no new key';
  if ((before.inverse === undefined) !== (after.inverse === undefined)) return 'inverse items would have to be created from nothing or dropped, not re-keyed';
  if (before.inverseIndex !== after.inverseIndex) return 'the inverse moves between a second item and a GSI, so items are created or dropped, not re-keyed';
  if ((before.forward === before.inverse) !== (after.forward === after.inverse)) return "a symmetric edge's items read as either direction, so they cannot be matched to an asymmetric edge's halves";
  const roles = [before.forward, before.inverse];
  if ((after.forward !== before.forward && roles.includes(after.forward)) || (after.inverse !== before.inverse && roles.includes(after.inverse))) {
    return "a new label is an old label of the other direction, so a moved item could not be told from one still to move";
  }
  return undefined;
}

/** The table with each index's projection as the table definition writes it (indexProjection). */
function withEffectiveProjections(table: TableDef): TableDef {
  return { ...table, indexes: Object.fromEntries(Object.entries(table.indexes).map(([name, index]) => [name, { ...index, projection: indexProjection(table, index) }])) };
}

function describeIndex(index: IndexDef): string {
  const projection = Array.isArray(index.projection) ? `[${index.projection.join(', ')}]` : index.projection;
  if (index.kind === 'native-gsi') return `pk [${index.pk.join(', ')}]${index.sk.length ? `, sk [${index.sk.join(', ')}]` : ''}, projection ${projection}`;
  return index.kind === 'gsi' ? `pk ${index.pk}${index.sk ? `, sk ${index.sk}` : ''}, projection ${projection}` : `sk ${index.sk}, projection ${projection}`;
}

/**
 * Every change from `before` to `after`, in schema order: table, indexes, entities, edges, patterns.
 * `oldCodec` is the key codec version that wrote the stored items (the current one by default).
 */
export function compareTables(declaredBefore: TableDef, declaredAfter: TableDef, oldCodec: KeyCodecVersion = KEY_CODEC_VERSION): SchemaChange[] {
  // indexes as the table holds them: a TTL attribute is projected into every index, so adding one
  // changes the projection of an index that projects less than all attributes
  const before = withEffectiveProjections(declaredBefore);
  const after = withEffectiveProjections(declaredAfter);
  const out: SchemaChange[] = [];
  const delimiterChanged = before.delimiter !== after.delimiter;
  if (delimiterChanged) out.push(change('DDB220', 'rewrite-keys', 'delimiter', messages.DDB220(before.delimiter, after.delimiter)));
  const keyBefore = `pk ${before.key.pk}${before.key.sk ? `, sk ${before.key.sk}` : ', no sort key'}`;
  const keyAfter = `pk ${after.key.pk}${after.key.sk ? `, sk ${after.key.sk}` : ', no sort key'}`;
  if (keyBefore !== keyAfter) out.push(change('DDB219', 'recreate-table', 'key', messages.DDB219('key attributes', `changed from ${keyBefore} to ${keyAfter}`)));
  if (before.rotation !== after.rotation) out.push(change('DDB219', 'recreate-table', 'rotation', messages.DDB219('rotation', `changed from ${before.rotation ?? 'none'} to ${after.rotation ?? 'none'} (the physical table names change)`)));
  // Settings applied to the table in place (UpdateTable, UpdateContinuousBackups, TagResource); the
  // ttl attribute is not among them: which attribute holds epoch seconds changes how items are stored.
  for (const setting of ['capacity', 'lint', 'pointInTimeRecovery', 'deletionProtection', 'onDemandMax', 'tags'] as const) {
    if (!sameData(before[setting], after[setting])) out.push(change('DDB225', 'safe', setting, messages.DDB225(`the table's ${setting}`)));
  }
  if (before.stream !== after.stream) out.push(change('DDB261', before.stream === undefined ? 'safe' : 'review', 'stream', messages.DDB261(before.stream, after.stream)));

  const created: string[] = [];
  const deleted: string[] = [];
  for (const name of new Set([...Object.keys(before.indexes), ...Object.keys(after.indexes)])) {
    const x = before.indexes[name];
    const y = after.indexes[name];
    const path = `indexes.${name}`;
    if (x?.kind === 'lsi' || y?.kind === 'lsi') {
      if (!sameData(x, y)) {
        const phrase = !x ? 'is new' : !y ? 'was removed' : x.kind !== y.kind ? `changed from ${x.kind} to ${y.kind}` : `changed from ${describeIndex(x)} to ${describeIndex(y)}`;
        out.push(change('DDB218', 'recreate-table', path, messages.DDB218(name, phrase), y ? {} : { removed: true }));
      }
      continue;
    }
    if (!x) {
      created.push(name);
      out.push(change('DDB217', 'safe', path, messages.DDB217(name, 'added', '')));
    } else if (!y) {
      deleted.push(name);
      out.push(change('DDB217', 'destructive', path, messages.DDB217(name, 'removed', ''), { removed: true }));
    } else {
      const structure = ['kind', 'name', 'pk', 'sk', 'projection', 'indexName'] as const;
      if (structure.some((f) => !sameData(field(x, f), field(y, f)))) {
        created.push(name);
        deleted.push(name);
        out.push(change('DDB217', 'split-deploy', path, messages.DDB217(name, 'replaced', `changed from ${describeIndex(x)} to ${describeIndex(y)}`)));
      }
      // capacity and warm throughput are updated in place
      for (const setting of ['capacity', 'warmThroughput']) {
        if (!sameData(field(x, setting), field(y, setting))) out.push(change('DDB225', 'safe', `${path}.${setting}`, messages.DDB225(`GSI "${name}"'s ${setting}`)));
      }
      out.push(...unknownChanges(x, y, [...structure, 'capacity', 'warmThroughput'], path));
    }
  }
  if (created.length + deleted.length > 1) {
    const backfills = [...new Set(Object.values(after.entities).flatMap((e) => Object.keys(e.indexes).filter((i) => created.includes(i)).map(() => e.name)))];
    const steps = [
      ...deleted.map((i) => `delete GSI ${i}`),
      ...created.map((i) => `create GSI ${i}`),
      ...(backfills.length ? [`run the backfill for ${backfills.join(', ')}`] : []),
    ];
    out.push(change('DDB221', 'split-deploy', 'indexes', messages.DDB221(created.length + deleted.length, steps)));
  }

  for (const name of new Set([...Object.keys(before.entities), ...Object.keys(after.entities)])) {
    const x = before.entities[name];
    const y = after.entities[name];
    if (!x) out.push(change('DDB210', 'safe', `entities.${name}`, messages.DDB210(name)));
    else if (!y) out.push(change('DDB211', 'destructive', `entities.${name}`, messages.DDB211(name), { removed: true }));
    else out.push(...compareEntity(x, y, delimiterChanged, oldCodec, edgesOf(before, after, name)));
  }

  for (const name of new Set([...Object.keys(before.edges), ...Object.keys(after.edges)])) {
    const x = before.edges[name];
    const y = after.edges[name];
    const path = `edges.${name}`;
    if (!x) out.push(change('DDB223', 'safe', path, messages.DDB223(name, 'is new', 'none')));
    else if (!y) out.push(change('DDB223', 'destructive', path, messages.DDB223(name, 'was removed; its stored edge items stay in the table', 'none'), { removed: true }));
    else {
      const keyed = ['types', 'forward', 'inverse', 'inverseIndex'] as const;
      // node types only added (or reordered) leave every stored item's key as it was
      const typesGrew = x.types.every((type) => y.types.includes(type));
      const added = y.types.filter((type) => !x.types.includes(type));
      if (typesGrew && added.length) out.push(change('DDB223', 'safe', `${path}.types`, messages.DDB223(name, `also connects ${added.join(', ')}`, 'none')));
      const moved = keyed.filter((f) => !sameData(x[f], y[f]) && !(f === 'types' && typesGrew));
      const nodes = movedNodes(before, after, y);
      if (moved.length || delimiterChanged || nodes.length) {
        const what = moved.length ? `changed ${moved.join(', ')}` : delimiterChanged ? 'uses the new delimiter' : `moves with ${nodes.map((n) => `${n}'s partition key`).join(' and ')}`;
        const why = edgeNotMovable(x, y);
        out.push(change('DDB223', 'rewrite-keys', path, messages.DDB223(name, what, why === undefined ? 'migration' : 'by hand', why), why === undefined ? { migrate: { edge: name, kind: 'edge' } } : {}));
      } else if (oldCodec !== KEY_CODEC_VERSION) {
        const ids = x.types.filter((type) => {
          const node = before.entities[type];
          return node !== undefined && codecSensitiveParts(node, node.key.pk, node.key.shard).length > 0;
        });
        if (ids.length) out.push(change('DDB232', 'rewrite-keys', path, messages.DDB232(name, ids, oldCodec, KEY_CODEC_VERSION), { migrate: { edge: name, kind: 'edge' } }));
      }
      if (!sameData(x.attributes, y.attributes)) out.push(change('DDB223', 'safe', `${path}.attributes`, messages.DDB223(name, 'changed its attributes', 'none')));
      if (!sameData(x.traffic, y.traffic)) out.push(change('DDB225', 'safe', `${path}.traffic`, messages.DDB225(`edge "${name}"'s traffic`)));
      out.push(...unknownChanges(x, y, ['kind', 'name', 'attributes', 'traffic', ...keyed], path));
    }
  }

  for (const name of new Set([...Object.keys(before.patterns), ...Object.keys(after.patterns)])) {
    const x = before.patterns[name];
    const y = after.patterns[name];
    if (sameData(x, y)) continue;
    out.push(change('DDB222', 'safe', `patterns.${name}`, messages.DDB222(name, !x ? 'is new' : !y ? 'was removed' : 'changed'), y ? {} : { removed: true }));
  }
  // keyFormat is compared per entity, as each one's keys encode it
  out.push(...unknownChanges(before, after, ['kind', 'name', 'delimiter', 'key', 'capacity', 'indexes', 'entities', 'edges', 'patterns', 'lint', 'rotation', 'migrations', 'stream', 'pointInTimeRecovery', 'deletionProtection', 'onDemandMax', 'tags', 'keyFormat'], ''));
  return out;
}

/** Whether a `migrations` entry covers a change: the same path, or a path above it. */
export function acknowledges(entry: string, change: string): boolean {
  return entry === change || change.startsWith(`${entry}.`);
}
