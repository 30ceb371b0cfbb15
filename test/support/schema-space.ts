// A fast-check generator of schemas over the whole DSL: every attribute type, required and optional,
// in and out of keys; synthetic and native GSIs, LSIs, every projection, sparse mappings; shards
// calculated and random; rotation; TTL; edges; patterns; streams; table settings. Nearly every
// schema it draws is valid by construction (a placeholder only names an attribute its key can hold,
// a native GSI's key attributes exist with one type), and the rest are the shapes validation must
// refuse with a located code. Names are drawn from the hard cases too: names of JavaScript globals,
// of Object.prototype's members, of runtime helpers and of generated members.
import fc from 'fast-check';
import { defineTable, edge, entity, gsi, lsi, t } from '../../dsl/index.js';
import type { Attribute } from '../../dsl/attribute.js';
import type { TableDef } from '../../dsl/ir.js';

/** Names that have broken generation before, and plain ones. */
const HARD_ATTRIBUTE_NAMES = ['toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'Date', 'Set', 'Map', 'Array', 'Object', 'item', 'record', 'key', 'values', 'options', 'context', 'model', 'storedTags', 'ttl', 'type', 'at', 'status', 'name', 'count'];
const HARD_INDEX_NAMES = ['All', 'Between', 'AcrossTables', 'Page', 'Shards', 'Stream', 'Gather', 'Index', 'byOwner', 'byTenant', 'gsiOne', 'lsiOne'];
const HARD_ENTITY_NAMES = ['Stream', 'Edges', 'Item', 'Thread', 'Note', 'Order', 'Visit', 'Log', 'Tag', 'Member', 'Book', 'Site', 'View'];

type AttrKind = 'string' | 'number' | 'boolean' | 'enum' | 'timestamp' | 'list' | 'map' | 'stringSet' | 'numberSet' | 'binary';

export interface AttributeSpec {
  readonly name: string;
  readonly kind: AttrKind;
  readonly optional: boolean;
  /** The list's element kind, the map's fields, the enum's values, the timestamp's unit. */
  readonly detail: number;
  /** How another writer stored it: a timestamp's format (0–4: ddbgen's own; 5–8: iso-seconds, date, epoch seconds, epoch milliseconds), and 9 a top-level attribute under another name (storedAs). */
  readonly stored: number;
}

export interface EntitySpec {
  readonly name: string;
  readonly attributes: readonly AttributeSpec[];
  /** Attributes the pk reads (of those that can be in a key), by position. */
  readonly pkParts: readonly number[];
  readonly skParts: readonly number[];
  readonly skLiteral: boolean;
  readonly truncateFirstTimestamp: boolean;
  readonly shard: 'none' | 'calculated' | 'random';
  readonly shardCount: number;
  readonly gsiParts: readonly (readonly [number, number])[];
  readonly sparse: boolean;
  readonly version: boolean;
  readonly passthrough: boolean;
  readonly hotKeyShare: boolean;
  /** A calculated shard hashes one named sort-key attribute (shard.by) rather than the whole identity. */
  readonly shardBy: boolean;
  /** Items carry a discriminator attribute (`_et`, as DynamoDB-Toolbox writes it). */
  readonly discriminator: boolean;
}

export interface SchemaSpec {
  readonly delimiter: string;
  readonly withSortKey: boolean;
  readonly ttl: boolean;
  readonly stream: 'none' | 'new-and-old-images' | 'new-image' | 'old-image' | 'keys-only';
  readonly rotation: 'none' | 'day' | 'month';
  readonly indexes: ReadonlyArray<{ readonly name: string; readonly kind: 'gsi' | 'lsi' | 'native'; readonly projection: 0 | 1 | 2; readonly withSk: boolean }>;
  readonly entities: readonly EntitySpec[];
  readonly edge: boolean;
  readonly patterns: boolean;
  readonly settings: boolean;
  readonly patternOp: 'gte' | 'between' | 'lt' | 'eq';
  readonly patternDesc: boolean;
  /** Keys as another writer wrote them (keyFormat): 0–3 ddbgen's codec, 4 unescaped, 5 plain integers, 6 lower-cased, 7 all three. */
  readonly keyFormat: number;
}

/** A hard name one time in five, a plain one otherwise: most schemas are valid, the hard cases come up often. */
const nameFrom = (hard: readonly string[], plain: readonly string[]) => fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...hard) }, { weight: 4, arbitrary: fc.constantFrom(...plain) });

const attribute = (names: fc.Arbitrary<string>): fc.Arbitrary<AttributeSpec> =>
  fc.record({
    name: names,
    kind: fc.constantFrom<AttrKind>('string', 'string', 'number', 'boolean', 'enum', 'timestamp', 'timestamp', 'list', 'map', 'stringSet', 'numberSet', 'binary'),
    optional: fc.boolean(),
    detail: fc.nat(7),
    stored: fc.nat(9),
  });

const entitySpec: fc.Arbitrary<EntitySpec> = fc.record({
  name: nameFrom(HARD_ENTITY_NAMES, ['Note', 'Order', 'Visit', 'Member', 'Book', 'Site', 'Thread', 'Tag']),
  attributes: fc.uniqueArray(attribute(nameFrom(HARD_ATTRIBUTE_NAMES, ['a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'title', 'score', 'owner', 'createdAt'])), { minLength: 1, maxLength: 7, selector: (a) => a.name }),
  pkParts: fc.uniqueArray(fc.nat(6), { minLength: 0, maxLength: 2 }),
  skParts: fc.uniqueArray(fc.nat(6), { minLength: 0, maxLength: 2 }),
  skLiteral: fc.boolean(),
  truncateFirstTimestamp: fc.boolean(),
  shard: fc.constantFrom<'none' | 'calculated' | 'random'>('none', 'none', 'calculated', 'random'),
  shardCount: fc.integer({ min: 2, max: 6 }),
  gsiParts: fc.array(fc.tuple(fc.nat(6), fc.nat(6)), { maxLength: 3 }),
  sparse: fc.boolean(),
  version: fc.boolean(),
  passthrough: fc.boolean(),
  hotKeyShare: fc.boolean(),
  shardBy: fc.boolean(),
  discriminator: fc.nat(3).map((n) => n === 0),
});

export const schemaSpec: fc.Arbitrary<SchemaSpec> = fc.record({
  delimiter: fc.constantFrom('#', '.', '|', ':', '_'),
  withSortKey: fc.nat(9).map((n) => n < 8),
  ttl: fc.boolean(),
  stream: fc.constantFrom<SchemaSpec['stream']>('none', 'none', 'new-and-old-images', 'new-image', 'old-image', 'keys-only'),
  rotation: fc.constantFrom<SchemaSpec['rotation']>('none', 'none', 'none', 'day', 'month'),
  indexes: fc.uniqueArray(
    fc.record({ name: nameFrom(HARD_INDEX_NAMES, ['byOwner', 'byTenant', 'byTime', 'gsiOne', 'gsiTwo', 'lsiOne', 'lsiTwo']), kind: fc.constantFrom<'gsi' | 'lsi' | 'native'>('gsi', 'gsi', 'lsi', 'native'), projection: fc.constantFrom<0 | 1 | 2>(0, 1, 2), withSk: fc.boolean() }),
    { maxLength: 3, selector: (i) => i.name },
  ),
  entities: fc.uniqueArray(entitySpec, { minLength: 1, maxLength: 3, selector: (e) => e.name }),
  edge: fc.boolean(),
  patterns: fc.boolean(),
  settings: fc.boolean(),
  patternOp: fc.constantFrom<'gte' | 'between' | 'lt' | 'eq'>('gte', 'between', 'lt', 'eq'),
  patternDesc: fc.boolean(),
  keyFormat: fc.nat(7),
});

const ENUM_VALUES = [['A', 'B'], ['OPEN', 'CLOSED', 'HELD'], ['x']] as const;
const UNITS = [undefined, 'second', 'minute', 'hour', 'day', 'month'] as const;
const FORMATS = ['iso-seconds', 'date', 'epoch-seconds', 'epoch-milliseconds'] as const;
/** The keyFormat a spec's number declares (undefined: ddbgen's own codec). */
const KEY_FORMATS = [undefined, undefined, undefined, undefined, { escape: false }, { integers: 'plain' }, { casing: 'lower' }, { escape: false, integers: 'plain', casing: 'lower' }] as const;

function attributeOf(spec: AttributeSpec, depth = 0): Attribute {
  const { kind, detail } = spec;
  switch (kind) {
    case 'string':
      return detail % 3 === 0 ? t.string({ maxBytes: 40 + detail }) : detail % 3 === 1 ? t.string({ cardinality: 1000 }) : t.string();
    case 'number':
      return detail % 2 === 0 ? t.number({ min: detail === 0 ? -1000 : 0, max: 10 ** (detail + 2), integer: true }) : t.number({ min: -50, max: 50 });
    case 'boolean':
      return t.boolean();
    case 'enum':
      return t.enum(ENUM_VALUES[detail % ENUM_VALUES.length] as unknown as [string, ...string[]]);
    case 'timestamp': {
      const unit = UNITS[detail % UNITS.length];
      const format = depth === 0 && spec.stored >= 5 && spec.stored <= 8 ? FORMATS[spec.stored - 5] : undefined;
      return t.timestamp({ ...(unit === undefined ? {} : { unit }), ...(format === undefined ? {} : { format }) });
    }
    case 'list': {
      const inner: AttrKind[] = ['string', 'timestamp', 'number', 'stringSet', 'map', 'boolean', 'enum', 'binary'];
      const of = depth > 1 ? 'string' : inner[detail % inner.length]!;
      return t.list(attributeOf({ name: 'of', kind: of, optional: false, detail: (detail + 3) % 8, stored: 0 }, depth + 1), detail % 2 ? { maxItems: 10 } : {});
    }
    case 'map': {
      const fields: Record<string, Attribute> = { label: t.string() };
      if (depth < 2) {
        if (detail % 2) fields['when'] = detail % 4 === 1 ? t.timestamp().optional() : t.timestamp();
        if (detail % 3 === 0) fields['tags'] = t.stringSet();
        if (detail % 4 === 0) fields['inner'] = attributeOf({ name: 'inner', kind: 'map', optional: false, detail: detail + 1, stored: 0 }, depth + 1);
      }
      return t.map(fields);
    }
    case 'stringSet':
      return t.stringSet();
    case 'numberSet':
      return t.numberSet();
    case 'binary':
      return t.binary();
  }
}

const KEYABLE: ReadonlySet<AttrKind> = new Set(['string', 'number', 'boolean', 'enum', 'timestamp']);
/** Native GSI key attributes: strings, numbers and binary (DynamoDB's scalar key types). */
const NATIVE_KEYABLE: ReadonlySet<AttrKind> = new Set(['string', 'number', 'enum', 'timestamp', 'boolean']);

/** The declaration (as `defineTable` takes it) a spec describes; the caller passes it to defineTable. */
export function schemaDeclaration(spec: SchemaSpec, name = 'Fuzz'): Parameters<typeof defineTable>[0] {
  const d = spec.delimiter;
  const indexes: Record<string, unknown> = {};
  const synthetic: Array<{ name: string; withSk: boolean }> = [];
  const lsis: string[] = [];
  const natives: Array<{ name: string; pk: string[]; sk: string[] }> = [];
  // Native GSIs key on attributes every mapping entity holds with one type: a required string
  // `tenantKey` and, for a sort key, a timestamp `ttl`-free `createdKey` each entity gets when mapped.
  spec.indexes.forEach((index, i) => {
    const projection = index.projection === 0 ? 'all' : index.projection === 1 ? 'keys-only' : ['label'];
    if (index.kind === 'gsi') {
      indexes[index.name] = gsi({ pk: `g${i}pk`, ...(index.withSk ? { sk: `g${i}sk` } : {}), projection });
      synthetic.push({ name: index.name, withSk: index.withSk });
    } else if (index.kind === 'lsi' && spec.withSortKey) {
      indexes[index.name] = lsi({ sk: `l${i}sk`, projection });
      lsis.push(index.name);
    } else if (index.kind === 'native') {
      const pk = ['nativeKey'];
      const sk = index.withSk ? [spec.ttl && i % 2 === 0 ? 'expiresAt' : 'nativeAt'] : [];
      indexes[index.name] = gsi({ pk: pk as [string], sk, projection });
      natives.push({ name: index.name, pk, sk });
    }
  });
  const entities: Record<string, unknown> = {};
  const entityNames: string[] = [];
  const skAttributes = new Map<string, string>();
  const nodes: string[] = [];
  spec.entities.forEach((e, n) => {
    const attributes: Record<string, Attribute> = {};
    for (const a of e.attributes) {
      const declared = a.optional ? attributeOf(a).optional() : attributeOf(a);
      // stored under another name, as another writer named it (never one of the table's own key attributes)
      attributes[a.name] = a.stored === 9 ? declared.storedAs(`x_${a.name}`) : declared;
    }
    const keyable = e.attributes.filter((a) => KEYABLE.has(a.kind) && !a.optional);
    // every entity gets an id, so a key always has a part that tells items apart
    attributes['id'] = t.string();
    const partsOf = (positions: readonly number[]) => [...new Set(positions.map((p) => keyable[p % Math.max(keyable.length, 1)]).filter((a) => a !== undefined))] as AttributeSpec[];
    // a timestamp in a partition key is a time bucket (truncated), at most one per key
    const truncates = e.truncateFirstTimestamp && d !== ':' && spec.withSortKey;
    const candidates = partsOf(e.pkParts);
    const bucket = truncates ? candidates.find((a) => a.kind === 'timestamp') : undefined;
    const pkParts = candidates.filter((a) => a.kind !== 'timestamp' || a === bucket);
    // a shard needs a sort key to spread (a calculated suffix hashes what the partition key lacks)
    const shard: Record<string, unknown> | undefined = e.shard === 'none' || !spec.withSortKey ? undefined : e.shard === 'random' ? { count: e.shardCount, random: true } : { count: e.shardCount };
    // the id tells items apart: in the pk when nothing else is there, or when the table has no sort key
    const idInPk = (pkParts.length === 0 && shard === undefined) || !spec.withSortKey;
    const pk = [`${e.name.toUpperCase()}${n}`, ...pkParts.map((a) => (a === bucket ? `<${a.name}:hour>` : `<${a.name}>`)), ...(idInPk ? ['<id>'] : []), ...(shard ? ['<shard>'] : [])].join(d);
    // a bucketed timestamp is held whole by the sort key too (one item per bucket otherwise)
    const skParts = [...(bucket ? [bucket] : []), ...partsOf(e.skParts).filter((a) => !pkParts.includes(a))];
    const literalSk = e.skLiteral && skParts.length === 0 && idInPk;
    const sk = literalSk ? 'PROFILE' : [`S${n}`, ...skParts.map((a) => `<${a.name}>`), ...(idInPk ? [] : ['<id>'])].join(d);
    // a calculated shard may hash one attribute that varies within the partition: the id the sort key holds
    if (shard && !('random' in shard) && e.shardBy && !idInPk) Object.assign(shard, { by: 'id' });
    if (literalSk && pkParts.length === 0) nodes.push(e.name);
    const skAttribute = skParts.find((a) => a.kind !== 'boolean');
    if (skAttribute && spec.withSortKey) skAttributes.set(e.name, skAttribute.name);
    const mappings: Record<string, unknown> = {};
    const sparseAttribute = e.attributes.find((a) => a.optional && KEYABLE.has(a.kind));
    synthetic.forEach((index, k) => {
      const [p, s] = e.gsiParts[k] ?? [k, k + 1];
      const pkAttr = keyable[p % Math.max(keyable.length, 1)];
      const skAttr = keyable[s % Math.max(keyable.length, 1)];
      const sparse = e.sparse && sparseAttribute !== undefined && k === 0;
      mappings[index.name] = {
        pk: [`G${k}`, ...(pkAttr ? [`<${pkAttr.name}>`] : []), '<id>'].join(d),
        ...(index.withSk ? { sk: sparse ? `<${sparseAttribute!.name}>` : skAttr ? `<${skAttr.name}>` : 'X' } : {}),
      };
    });
    lsis.forEach((index, k) => {
      const skAttr = keyable[(e.gsiParts[k]?.[1] ?? k) % Math.max(keyable.length, 1)];
      mappings[index] = { sk: [`L${k}`, ...(skAttr ? [`<${skAttr.name}>`] : []), '<id>'].join(d) };
    });
    for (const native of natives) {
      attributes['nativeKey'] = t.string();
      for (const k of native.sk) if (k !== 'expiresAt') attributes[k] = t.timestamp();
      mappings[native.name] = {};
    }
    if (spec.ttl) attributes['expiresAt'] = natives.some((x) => x.sk.includes('expiresAt')) ? t.timestamp() : t.timestamp().optional();
    const versionAttr = e.version ? { version: 'revision' } : {};
    if (e.version) attributes['revision'] = t.number({ min: 0, max: 1e9, integer: true });
    entities[e.name] = entity({
      attributes,
      key: { pk, ...(spec.withSortKey ? { sk } : {}), ...(shard ? { shard } : {}) },
      indexes: mappings,
      ...versionAttr,
      ...(e.passthrough ? { passthrough: true } : {}),
      ...(e.discriminator ? { discriminator: { _et: e.name } } : {}),
      ...(e.hotKeyShare ? { traffic: { writesPerSecond: 50, readsPerSecond: 200, hotKeyShare: { table: 0.1, ...(natives[0] ? { [natives[0].name]: 0.2 } : {}) } } } : {}),
    } as never);
    entityNames.push(e.name);
  });
  const patterns: Record<string, unknown> = {};
  if (spec.patterns) {
    for (const [entityName, attribute] of skAttributes) patterns[`since${entityName}`] = { entity: entityName, sk: attribute, op: spec.patternOp, ...(spec.patternDesc ? { order: 'desc' } : {}) };
  }
  return {
    name,
    delimiter: d,
    ...(spec.withSortKey ? {} : { key: { pk: 'pk' } }),
    ...(Object.keys(indexes).length ? { indexes } : {}),
    entities,
    ...(spec.edge && nodes.length && spec.withSortKey ? { edges: { Link: edge({ types: nodes, forward: 'LINKS', inverse: 'LINKEDBY', attributes: { since: t.timestamp() } }) } } : {}),
    ...(Object.keys(patterns).length ? { patterns } : {}),
    ...(spec.ttl ? { ttl: 'expiresAt' } : {}),
    ...(spec.stream === 'none' ? {} : { stream: spec.stream }),
    ...(spec.rotation === 'none' ? {} : { rotation: spec.rotation }),
    ...(spec.settings ? { pointInTimeRecovery: { days: 7 }, deletionProtection: true, tags: { team: 'fuzz' } } : {}),
    ...(KEY_FORMATS[spec.keyFormat] === undefined ? {} : { keyFormat: KEY_FORMATS[spec.keyFormat] }),
  } as Parameters<typeof defineTable>[0];
}

/** The table a spec describes, or the DSL's own refusal (a DeclarationError) thrown. */
export function schemaOf(spec: SchemaSpec, name?: string): TableDef {
  return defineTable(schemaDeclaration(spec, name));
}
