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
  LsiDef,
  PatternDef,
  PatternOperator,
  Projection,
  Severity,
  ShardDef,
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
}

type CheckedMappings<IX, A extends string> = {
  [K in keyof IX]: {
    pk?: KeyTemplate<IX[K] extends { pk: infer P extends string } ? P : string, A>;
    sk?: KeyTemplate<IX[K] extends { sk: infer S extends string } ? S : string, A>;
    shard?: Shard<A>;
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
  });
}

/**
 * A global secondary index. `pk`/`sk` name the physical attributes that hold its keys.
 *
 * @example
 * indexes: { byName: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', projection: 'all' }) }
 * // provisioned tables may give an index its own capacity: gsi({ …, capacity: { read: 500, write: 2000 } });
 * // warmThroughput: { read, write } pre-warms it (what it serves at once)
 * // emits in the table definition: GlobalSecondaryIndexes: [{ IndexName: 'byName', … }]
 */
export function gsi(options: { pk: string; sk?: string; projection?: Projection; capacity?: Throughput; warmThroughput?: Throughput }): Omit<GsiDef, 'name'> {
  return Object.freeze({
    kind: 'gsi',
    pk: options.pk,
    ...(options.sk === undefined ? {} : { sk: options.sk }),
    projection: options.projection ?? 'all',
    ...(options.capacity === undefined ? {} : { capacity: Object.freeze({ ...options.capacity }) }),
    ...(options.warmThroughput === undefined ? {} : { warmThroughput: Object.freeze({ ...options.warmThroughput }) }),
  });
}

/** A local secondary index: the table's partition key with another sort-key attribute. */
export function lsi(options: { sk: string; projection?: Projection }): Omit<LsiDef, 'name'> {
  return Object.freeze({ kind: 'lsi', sk: options.sk, projection: options.projection ?? 'all' });
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
  indexes?: Record<string, Omit<GsiDef, 'name'> | Omit<LsiDef, 'name'>>;
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
  const entities: Record<string, EntityDef> = {};
  for (const [name, decl] of Object.entries(declaration.entities)) {
    const indexes: Record<string, IndexMappingDef> = {};
    for (const [index, mapping] of Object.entries(decl.indexes)) {
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
      ...(decl.version === undefined ? {} : { version: decl.version }),
      ...(decl.passthrough ? { passthrough: true } : {}),
      ...(traffic ? { traffic } : {}),
      ...(decl.lint ? { lint: decl.lint } : {}),
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
    ...(declaration.migrations === undefined
      ? {}
      : { migrations: Object.freeze(declaration.migrations.map((m) => Object.freeze({ kind: 'migration' as const, change: m.change, ...(m.reason === undefined ? {} : { reason: m.reason }) }))) }),
  });
}
