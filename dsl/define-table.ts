// defineTable, entity, gsi, lsi and edge: the public DSL. Declarations are object literals; the
// helpers exist for type inference and return frozen data. defineTable produces the table's IR.

import { attributeDefs, type Attribute } from './attribute.js';
import type {
  AttributeDef,
  Capacity,
  EdgeDef,
  EntityDef,
  GsiDef,
  IndexMappingDef,
  KeyFormatDef,
  LsiDef,
  OnDemandMaximum,
  NativeGsiDef,
  NativeIndexMappingDef,
  PatternDef,
  PatternOperator,
  Projection,
  Severity,
  ShardDef,
  StreamViewType,
  TableDef,
  Throughput,
  TrafficDef,
} from './ir.js';
import { parseTemplate, type KeyTemplate } from './template.js';

type Attributes = Record<string, Attribute>;
type Names<A> = keyof A & string;

/** Declared load, used by the hot-key lint and the capacity planner. */
export interface Traffic {
  /** Items of this entity in the table. */
  items?: number;
  /** Typical item size in bytes. */
  itemBytes?: number;
  /** Items sharing one partition-key value (an item collection). */
  itemsPerKey?: number;
  writesPerSecond?: number;
  readsPerSecond?: number;
  /**
   * Fraction (0..1) of the traffic on the single hottest partition-key value: one number for the
   * entity's table key, or one per key space, e.g. `{ table: 0.2, byLiker: 0.001 }` (a GSI without
   * one takes the table's when its key contains the table key's attributes, else assumes uniform).
   */
  hotKeyShare?: number | Record<string, number>;
  /** Reads are strongly consistent: twice the read units. */
  consistent?: boolean;
  /** Writes go through transactions: twice the write units. */
  transactional?: boolean;
}

/**
 * Write sharding: a suffix `start..start+count-1` in the partition key. Calculated (the default)
 * from the item's identity as its key encodes it, or from `by` (one attribute of the key or a
 * list): the same key always gets the same suffix, so items stay addressable by key. `random: true`
 * draws the suffix per write (counters, append-only logs): such items are read by gathering every
 * shard (`getAll`, `sum`, queries), never by key; it takes no `by` (validation: DDB122).
 */
export interface Shard<A extends string = string> {
  count: number;
  by?: A | readonly A[];
  random?: boolean;
  start?: number;
}

export interface IndexMapping {
  pk?: string;
  sk?: string;
  shard?: Shard;
  /**
   * For a native GSI (`gsi({ pk: [...], sk: [...] })`): the entity attribute each index key
   * attribute takes its value from, when the names differ (`{ tenantId: 'orgId' }`); key
   * attributes not named here take the entity's attribute of the same name.
   */
  attributes?: Readonly<Record<string, string>>;
}

/** A declaration the DSL cannot turn into IR; the generator reports it by its code (messages.ts). */
export class DeclarationError extends Error {
  readonly ddbgenCode: string;
  constructor(ddbgenCode: string, message: string) {
    super(message);
    this.ddbgenCode = ddbgenCode;
  }
}

/** An entity declaration, consumed by `defineTable`. */
export interface EntityDeclaration {
  readonly kind: 'entity-declaration';
  readonly attributes: Readonly<Record<string, AttributeDef>>;
  readonly key: { readonly pk: string; readonly sk?: string; readonly shard?: Shard };
  readonly indexes: Readonly<Record<string, IndexMapping>>;
  readonly version?: string;
  readonly passthrough?: boolean;
  readonly traffic?: Traffic;
  readonly lint?: Readonly<Record<string, Severity>>;
  readonly discriminator?: Readonly<Record<string, string>>;
}

type CheckedMappings<IX, A extends string> = {
  [K in keyof IX]: {
    pk?: KeyTemplate<IX[K] extends { pk: infer P extends string } ? P : string, A>;
    sk?: KeyTemplate<IX[K] extends { sk: infer S extends string } ? S : string, A>;
    shard?: Shard<A>;
    attributes?: Readonly<Record<string, A>>;
  };
};

/**
 * Declares an entity. Key templates are checked against `attributes` when the schema compiles.
 *
 * @example
 * User: entity({
 *   attributes: { id: t.string(), email: t.string({ pii: true }) },
 *   key: { pk: 'User.<id>', sk: 'PROFILE' },
 * })
 * // emits: interface User { id: string; email: string }, UserKeys, class UserRepository
 */
export function entity<
  const A extends Attributes,
  const PK extends string,
  const SK extends string = never,
  const IX extends Record<string, IndexMapping> = {},
>(declaration: {
  attributes: A;
  key: { pk: KeyTemplate<PK, Names<A>>; sk?: KeyTemplate<SK, Names<A>>; shard?: Shard<Names<A>> };
  indexes?: IX & CheckedMappings<IX, Names<A>>;
  /** A numeric attribute used for optimistic locking. */
  version?: Names<A>;
  /**
   * Store attributes a write names but the entity does not declare, and keep them on read. By
   * default an undeclared attribute in a write is a ValidationError naming it, so a request body
   * passed through cannot add fields (`isAdmin: true`).
   */
  passthrough?: boolean;
  traffic?: Traffic;
  /** Per-rule lint severity overrides for this entity, e.g. `{ HK003: 'off' }`. */
  lint?: Record<string, Severity>;
  /**
   * Attributes with a fixed value on every item of this entity, as another writer tags its items:
   * `{ _et: 'User' }` (DynamoDB-Toolbox), `{ _type: 'User' }` (OneTable), `{ __edb_e__: 'user',
   * __edb_v__: '1' }` (ElectroDB). Written with every item; reads skip an item whose values differ.
   */
  discriminator?: Record<string, string>;
}): EntityDeclaration {
  const { key } = declaration;
  // an untyped schema can leave the key out: a clear error at this call, not a crash later
  if (typeof key !== 'object' || key === null || typeof key.pk !== 'string') throw new DeclarationError('DDB103', 'an entity has no key');
  return Object.freeze({
    kind: 'entity-declaration',
    attributes: attributeDefs(declaration.attributes),
    key: Object.freeze({ pk: key.pk as string, ...(key.sk === undefined ? {} : { sk: key.sk as string }), ...(key.shard ? { shard: key.shard } : {}) }),
    indexes: Object.freeze({ ...(declaration.indexes ?? {}) }) as Record<string, IndexMapping>,
    ...(declaration.version === undefined ? {} : { version: declaration.version }),
    ...(declaration.passthrough ? { passthrough: true } : {}),
    ...(declaration.traffic === undefined ? {} : { traffic: declaration.traffic }),
    ...(declaration.lint === undefined ? {} : { lint: Object.freeze({ ...declaration.lint }) }),
    ...(declaration.discriminator === undefined ? {} : { discriminator: Object.freeze({ ...declaration.discriminator }) }),
  });
}

/**
 * A native multi-attribute GSI: its partition key is up to 4 of the items' own attributes and its
 * sort key up to 4 more (no synthetic key). Entities map into it by attribute name, or rename:
 * `indexes: { byTenant: { attributes: { tenantId: 'orgId' } } }`. Queries take equality on every
 * partition attribute and a left-to-right sort condition.
 *
 * @example
 * indexes: { byTenant: gsi({ pk: ['tenantId', 'region'], sk: ['status', 'createdAt'] }) }
 * // emits KeySchema [tenantId HASH, region HASH, status RANGE, createdAt RANGE] and queryByTenant(…)
 */
export function gsi(options: { pk: readonly [string, ...string[]]; sk?: readonly string[]; projection?: Projection; capacity?: Throughput; warmThroughput?: Throughput; indexName?: string }): Omit<NativeGsiDef, 'name'>;
/**
 * A global secondary index. `pk`/`sk` name the physical attributes that hold its keys.
 *
 * @example
 * indexes: { byName: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', projection: 'all' }) }
 * // provisioned tables may give an index its own capacity: gsi({ …, capacity: { read: 500, write: 2000 } });
 * // warmThroughput: { read, write } pre-warms it (what it serves at once)
 * // emits in the table definition: GlobalSecondaryIndexes: [{ IndexName: 'byName', … }]
 */
export function gsi(options: { pk: string; sk?: string; projection?: Projection; capacity?: Throughput; warmThroughput?: Throughput; indexName?: string }): Omit<GsiDef, 'name'>;
export function gsi(options: { pk: string | readonly string[]; sk?: string | readonly string[]; projection?: Projection; capacity?: Throughput; warmThroughput?: Throughput; indexName?: string }): Omit<GsiDef | NativeGsiDef, 'name'> {
  const throughput = {
    ...(options.indexName === undefined ? {} : { indexName: options.indexName }),
    ...(options.capacity === undefined ? {} : { capacity: Object.freeze({ ...options.capacity }) }),
    ...(options.warmThroughput === undefined ? {} : { warmThroughput: Object.freeze({ ...options.warmThroughput }) }),
  };
  if (Array.isArray(options.pk)) {
    const sk = options.sk === undefined ? [] : typeof options.sk === 'string' ? [options.sk] : options.sk;
    return Object.freeze({ kind: 'native-gsi', pk: Object.freeze([...options.pk]), sk: Object.freeze([...sk]), projection: options.projection ?? 'all', ...throughput });
  }
  return Object.freeze({
    kind: 'gsi',
    pk: options.pk as string,
    ...(options.sk === undefined ? {} : { sk: options.sk as string }),
    projection: options.projection ?? 'all',
    ...throughput,
  });
}

/**
 * A local secondary index: the table's partition key with another sort-key attribute. `indexName`
 * (on lsi and gsi): its IndexName in DynamoDB when that is not the declared name, as in a table
 * another tool created (`gsi1pk-gsi1sk-index`); methods are named after the declared name.
 */
export function lsi(options: { sk: string; projection?: Projection; indexName?: string }): Omit<LsiDef, 'name'> {
  return Object.freeze({ kind: 'lsi', sk: options.sk, projection: options.projection ?? 'all', ...(options.indexName === undefined ? {} : { indexName: options.indexName }) });
}

/** Declared load of an edge: relationships added per second, link reads per second, the hottest node's share. */
export interface EdgeTraffic {
  /** Relationships added or removed per second (each writes both halves). */
  writesPerSecond?: number;
  /** `outgoing` / `incoming` reads per second. */
  readsPerSecond?: number;
  /**
   * Fraction (0..1) of the edge's traffic on its single hottest node (a celebrity's FANNED_BY): one
   * number for both sides, or `{ forward, inverse }`.
   */
  hotKeyShare?: number | { forward?: number; inverse?: number };
  /** Link reads are strongly consistent: twice the read units. */
  consistent?: boolean;
}

/** An edge declaration, consumed by `defineTable`: `types` name the entities it connects. */
export type EdgeDeclaration<Type extends string = string> = Omit<EdgeDef, 'name' | 'types'> & { readonly types: readonly Type[] };

/**
 * A many-to-many relationship between declared entities, stored as an adjacency list: two items
 * per relationship, written in one transaction — under the source entity's own partition key
 * (`User.<id>`: the partition that holds the user's profile) sk `FAN_OF.<toType>.<toId>`, and
 * under the target's sk `FANNED_BY.<fromType>.<fromId>`, ids encoded as the entities' keys encode
 * them. With `inverseIndex` (a GSI of the table), the inverse lives in that index instead: one
 * write per relationship, and `incoming` reads are eventually consistent.
 *
 * @example
 * edges: { Fan: edge({ types: ['User', 'Actor'], forward: 'FAN_OF', inverse: 'FANNED_BY', attributes: { since: t.timestamp() },
 *                      traffic: { writesPerSecond: 200, readsPerSecond: 2000, hotKeyShare: 0.01 } }) }
 * // emits db.fan: add, remove, exists, outgoing, incoming, count, addMany, removeMany
 */
export function edge<const Type extends string>(options: {
  /** The entities this edge connects; each one's partition key identifies one item of it (e.g. `User.<id>` with sk `PROFILE`). */
  types: readonly Type[];
  forward: string;
  inverse?: string;
  inverseIndex?: string;
  attributes?: Attributes;
  traffic?: EdgeTraffic;
}): EdgeDeclaration<Type> {
  const traffic = freezeTraffic(options.traffic);
  return Object.freeze({
    kind: 'edge',
    types: Object.freeze([...options.types]),
    forward: options.forward,
    ...(options.inverse === undefined ? {} : { inverse: options.inverse }),
    ...(options.inverseIndex === undefined ? {} : { inverseIndex: options.inverseIndex }),
    attributes: attributeDefs(options.attributes ?? {}),
    ...(traffic ? { traffic } : {}),
  });
}

export interface PatternDeclaration {
  entity: string;
  index?: string;
  sk?: string;
  op?: PatternOperator;
  order?: 'asc' | 'desc';
  readsPerSecond?: number;
  writesPerSecond?: number;
  /** Strongly consistent reads (twice the read units; table and LSI patterns only). */
  consistent?: boolean;
  /** Writes through transactions (twice the write units). */
  transactional?: boolean;
}

export interface TableDeclaration<E extends Record<string, EntityDeclaration>> {
  /** Logical name: the output folder (`out/social`) and the class (`SocialTable`). */
  name: string;
  /** Separates key segments. Default `#`. */
  delimiter?: string;
  /** Physical key attribute names. Default `{ pk: 'pk', sk: 'sk' }`; omit `sk` for a table without a sort key. */
  key?: { pk: string; sk?: string };
  capacity?: Capacity;
  indexes?: Record<string, Omit<GsiDef, 'name'> | Omit<LsiDef, 'name'> | Omit<NativeGsiDef, 'name'>>;
  entities: E;
  /** Relationships between the entities (a type naming no entity is a compile error here). */
  edges?: Record<string, EdgeDeclaration<keyof E & string>>;
  patterns?: Record<string, PatternDeclaration & { entity: keyof E & string }>;
  /** Per-rule severity override, e.g. `{ HK015: 'off' }`. */
  lint?: Record<string, Severity>;
  /** Time series: one physical table per day, ISO week, month or year; `<Table>Table.forTime(client, at)` picks it. */
  rotation?: 'day' | 'week' | 'month' | 'year';
  /** The "Global secondary indexes per table" quota, when AWS has raised it for your account above the default 20. */
  gsiQuota?: number;
  /**
   * Acknowledged schema changes: each names a change `ddbgen diff` reports (its schema path, e.g.
   * `entities.User.key.pk`), so `ddbgen diff --check` passes once the migration is planned or run.
   */
  migrations?: ReadonlyArray<{ change: string; reason?: string }>;
  /**
   * Turns on the table's DynamoDB stream: what each record carries (`'new-and-old-images'`,
   * `'new-image'`, `'old-image'` or `'keys-only'`). The output gets `decode<Table>StreamRecord` and
   * `handle<Table>Stream`, typed by it.
   */
  stream?: StreamViewType;
  /**
   * Time to live: the attribute that holds each item's expiry, a `t.timestamp()` on every entity that
   * declares it (entities without it never expire). Stored as epoch seconds, read back as a `Date`;
   * reads hide items past it (DynamoDB deletes them only within a day or two) unless given
   * `{ includeExpired: true }`.
   */
  ttl?: string;
  /** Point-in-time recovery: restore to any second of the last `days` days (1–35, default 35). */
  pointInTimeRecovery?: { days?: number };
  /** Refuse DeleteTable while set (DeletionProtectionEnabled). */
  deletionProtection?: boolean;
  /** On-demand only: the most read / write request units per second the table serves; beyond them requests throttle. */
  onDemandMax?: OnDemandMaximum;
  /** Resource tags: at most 50, keys 1–128 characters (not starting with `aws:`), values up to 256. */
  tags?: Record<string, string>;
  /**
   * How key values are written, when another writer keyed the items already in the table (ddbgen's
   * codec otherwise): `escape: false` writes values as they are (one holding the delimiter is then
   * refused), `integers: 'plain'` writes integer parts without padding (they sort as text),
   * `casing: 'lower' | 'upper'` folds string values. Declaring it also allows text glued to a
   * placeholder (`user_<id>`) and empty segments (`account#`). The lint names the guarantees given up.
   */
  keyFormat?: { escape?: boolean; integers?: 'padded' | 'plain'; casing?: 'preserve' | 'lower' | 'upper' };
}

/**
 * An entity's mapping into a native GSI: every key attribute of the index with the entity attribute
 * that holds it. Renames of names that are no key attribute, and templates or a shard (which a
 * native key cannot hold), are kept by name so validation can report them.
 */
function nativeMapping(index: string, gsiDef: Omit<NativeGsiDef, 'name'>, mapping: IndexMapping): NativeIndexMappingDef {
  const renamed = mapping.attributes ?? {};
  const keys = [...gsiDef.pk, ...gsiDef.sk];
  const stray = Object.keys(renamed).filter((key) => !keys.includes(key));
  const synthetic = (['pk', 'sk', 'shard'] as const).filter((field) => mapping[field] !== undefined);
  return Object.freeze({
    kind: 'native-index-mapping',
    index,
    attributes: Object.freeze(Object.fromEntries(keys.map((key) => [key, renamed[key] ?? key]))),
    ...(stray.length ? { stray: Object.freeze(stray) } : {}),
    ...(synthetic.length ? { synthetic: Object.freeze(synthetic) } : {}),
  });
}

function freezeTraffic(traffic: Traffic | undefined): TrafficDef | undefined {
  if (traffic === undefined) return undefined;
  const share = traffic.hotKeyShare;
  return Object.freeze({ kind: 'traffic', ...traffic, ...(typeof share === 'object' && share !== null ? { hotKeyShare: Object.freeze({ ...share }) } : {}) });
}

function freezeShard(shard: Shard | undefined): ShardDef | undefined {
  if (shard === undefined) return undefined;
  const by = shard.by === undefined ? undefined : Object.freeze(typeof shard.by === 'string' ? [shard.by] : [...(shard.by as readonly string[])]);
  return Object.freeze({
    kind: 'shard',
    count: shard.count,
    ...(by === undefined ? {} : { by }),
    ...(shard.random === undefined ? {} : { random: shard.random }),
    ...(shard.start === undefined ? {} : { start: shard.start }),
  });
}

/**
 * Declares a table and returns its frozen IR. A schema module's default export is one table or an
 * array of tables.
 *
 * @example
 * export default defineTable({ name: 'Social', delimiter: '.', entities: { User: entity({ … }) } });
 * // `ddbgen generate` emits out/social/: item types, key builders, repositories, SocialTable
 */
export function defineTable<const E extends Record<string, EntityDeclaration>>(declaration: TableDeclaration<E>): TableDef {
  const delimiter = declaration.delimiter ?? '#';
  const key = declaration.key ?? { pk: 'pk', sk: 'sk' };
  const format = declaration.keyFormat === undefined ? undefined : keyFormat(declaration.keyFormat);
  const entities: Record<string, EntityDef> = {};
  for (const [name, decl] of Object.entries(declaration.entities)) {
    const indexes: Record<string, IndexMappingDef> = {};
    const nativeIndexes: Record<string, NativeIndexMappingDef> = {};
    for (const [index, mapping] of Object.entries(decl.indexes)) {
      const native = declaration.indexes?.[index];
      if (native?.kind === 'native-gsi') {
        nativeIndexes[index] = nativeMapping(index, native, mapping);
        continue;
      }
      const shard = freezeShard(mapping.shard);
      indexes[index] = Object.freeze({
        kind: 'index-mapping',
        index,
        ...(mapping.pk === undefined ? {} : { pk: parseTemplate(mapping.pk, delimiter) }),
        ...(mapping.sk === undefined ? {} : { sk: parseTemplate(mapping.sk, delimiter) }),
        ...(shard ? { shard } : {}),
      });
    }
    const shard = freezeShard(decl.key.shard);
    const traffic = freezeTraffic(decl.traffic);
    entities[name] = Object.freeze({
      kind: 'entity',
      name,
      attributes: decl.attributes,
      key: Object.freeze({
        kind: 'key',
        pk: parseTemplate(decl.key.pk, delimiter),
        ...(decl.key.sk === undefined ? {} : { sk: parseTemplate(decl.key.sk, delimiter) }),
        ...(shard ? { shard } : {}),
      }),
      indexes: Object.freeze(indexes),
      ...(Object.keys(nativeIndexes).length ? { nativeIndexes: Object.freeze(nativeIndexes) } : {}),
      ...(decl.version === undefined ? {} : { version: decl.version }),
      ...(decl.passthrough ? { passthrough: true } : {}),
      ...(traffic ? { traffic } : {}),
      ...(decl.lint ? { lint: decl.lint } : {}),
      ...(decl.discriminator ? { discriminator: decl.discriminator } : {}),
      ...(format ? { keyFormat: format } : {}),
    });
  }
  const named = <T extends object>(record: Record<string, T> | undefined) =>
    Object.freeze(Object.fromEntries(Object.entries(record ?? {}).map(([name, def]) => [name, Object.freeze({ ...def, name })])));
  return Object.freeze({
    kind: 'table',
    name: declaration.name,
    delimiter,
    key: Object.freeze({ ...key }),
    capacity: Object.freeze({ ...(declaration.capacity ?? { mode: 'on-demand' }) }),
    indexes: named(declaration.indexes) as Record<string, GsiDef | LsiDef>,
    entities: Object.freeze(entities),
    edges: named(declaration.edges) as Record<string, EdgeDef>,
    patterns: Object.freeze(
      Object.fromEntries(Object.entries(declaration.patterns ?? {}).map(([name, p]) => [name, Object.freeze({ kind: 'pattern', name, ...p })])),
    ) as Record<string, PatternDef>,
    lint: Object.freeze({ ...(declaration.lint ?? {}) }),
    ...(declaration.rotation === undefined ? {} : { rotation: declaration.rotation }),
    ...(declaration.gsiQuota === undefined ? {} : { gsiQuota: declaration.gsiQuota }),
    ...(declaration.stream === undefined ? {} : { stream: declaration.stream }),
    ...(declaration.migrations === undefined
      ? {}
      : { migrations: Object.freeze(declaration.migrations.map((m) => Object.freeze({ kind: 'migration' as const, change: m.change, ...(m.reason === undefined ? {} : { reason: m.reason }) }))) }),
    ...(declaration.ttl === undefined ? {} : { ttl: declaration.ttl }),
    ...(declaration.pointInTimeRecovery === undefined ? {} : { pointInTimeRecovery: Object.freeze({ days: declaration.pointInTimeRecovery?.days ?? 35 }) }),
    ...(declaration.deletionProtection === undefined ? {} : { deletionProtection: declaration.deletionProtection }),
    ...(declaration.onDemandMax === undefined ? {} : { onDemandMax: Object.freeze({ ...declaration.onDemandMax }) }),
    ...(declaration.tags === undefined ? {} : { tags: Object.freeze({ ...declaration.tags }) }),
    ...(format ? { keyFormat: format } : {}),
  });
}

function keyFormat(format: NonNullable<TableDeclaration<never>['keyFormat']>): KeyFormatDef {
  return Object.freeze({ kind: 'key-format', escape: format.escape ?? true, integers: format.integers ?? 'padded', casing: format.casing ?? 'preserve' });
}
