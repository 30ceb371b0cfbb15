// The IR: the DSL's only product. Plain, frozen, JSON-serialisable data with a `kind` on every node;
// the generator imports these types and never the DSL's functions.

export type TimestampTruncation = 'minute' | 'hour' | 'day' | 'month';

/** The precision a timestamp attribute is stored at (`t.timestamp({ unit })`). */
export type TimestampUnit = 'second' | 'minute' | 'hour' | 'day' | 'month';

export type AttributeDef =
  | { readonly kind: 'string'; readonly optional: boolean; readonly cardinality?: number; readonly pii?: boolean; readonly maxBytes?: number }
  | { readonly kind: 'number'; readonly optional: boolean; readonly min?: number; readonly max?: number; readonly integer?: boolean }
  | { readonly kind: 'boolean'; readonly optional: boolean }
  | { readonly kind: 'enum'; readonly optional: boolean; readonly values: readonly string[] }
  | { readonly kind: 'timestamp'; readonly optional: boolean; readonly unit?: TimestampUnit }
  | { readonly kind: 'list'; readonly optional: boolean; readonly of: AttributeDef; readonly maxItems?: number }
  | { readonly kind: 'map'; readonly optional: boolean; readonly fields: Readonly<Record<string, AttributeDef>> }
  | { readonly kind: 'stringSet'; readonly optional: boolean }
  | { readonly kind: 'numberSet'; readonly optional: boolean }
  | { readonly kind: 'binary'; readonly optional: boolean };

export type AttributeKind = AttributeDef['kind'];

export type TemplateSegmentDef =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'placeholder'; readonly name: string; readonly truncate?: string; readonly source: string };

/** A key template such as `Article.<updatedAt>.<articleId>`, split by the table's delimiter. */
export interface TemplateDef {
  readonly kind: 'template';
  readonly source: string;
  readonly segments: readonly TemplateSegmentDef[];
}

export interface ShardDef {
  readonly kind: 'shard';
  readonly count: number;
  /** Attributes a calculated suffix hashes (the DSL takes one name or a list); absent: the identity the key encodes. */
  readonly by?: readonly string[];
  /** The suffix is drawn per write: such items are read by gathering every shard, never by key. */
  readonly random?: boolean;
  /** The first suffix (default 0): suffixes run start..start+count-1. */
  readonly start?: number;
}

export interface KeyDef {
  readonly kind: 'key';
  readonly pk: TemplateDef;
  readonly sk?: TemplateDef;
  readonly shard?: ShardDef;
}

/** How an entity's items appear in one of the table's indexes. */
export interface IndexMappingDef {
  readonly kind: 'index-mapping';
  readonly index: string;
  readonly pk?: TemplateDef;
  readonly sk?: TemplateDef;
  readonly shard?: ShardDef;
}

export interface TrafficDef {
  readonly kind: 'traffic';
  readonly items?: number;
  readonly itemBytes?: number;
  readonly itemsPerKey?: number;
  readonly writesPerSecond?: number;
  readonly readsPerSecond?: number;
  /**
   * Fraction (0..1) of the traffic on the single hottest partition-key value. A number is the
   * entity's table key (or both sides of an edge); a record gives each key space its own:
   * `table` and index names on an entity, `forward` and `inverse` on an edge.
   */
  readonly hotKeyShare?: number | Readonly<Record<string, number>>;
  /** Reads are strongly consistent (twice the read units of eventually consistent reads). */
  readonly consistent?: boolean;
  /** Writes go through transactions (twice the write units). */
  readonly transactional?: boolean;
}

export interface EntityDef {
  readonly kind: 'entity';
  readonly name: string;
  readonly attributes: Readonly<Record<string, AttributeDef>>;
  readonly key: KeyDef;
  readonly indexes: Readonly<Record<string, IndexMappingDef>>;
  readonly version?: string;
  /** Undeclared attributes in a write are stored, and kept on read, instead of being a ValidationError. */
  readonly passthrough?: boolean;
  readonly traffic?: TrafficDef;
  /** Per-rule lint severity overrides for this entity. */
  readonly lint?: Readonly<Record<string, Severity>>;
}

export type Projection = 'all' | 'keys-only' | readonly string[];

/** Units per second, for provisioned capacity and warm throughput. */
export interface Throughput {
  readonly read: number;
  readonly write: number;
}

export interface GsiDef {
  readonly kind: 'gsi';
  readonly name: string;
  readonly pk: string;
  readonly sk?: string;
  readonly projection: Projection;
  /** Provisioned capacity of this index (provisioned tables; default: the table's). */
  readonly capacity?: Throughput;
  /** Throughput the index serves at once (default for on-demand: 12,000 reads / 4,000 writes). */
  readonly warmThroughput?: Throughput;
}

export interface LsiDef {
  readonly kind: 'lsi';
  readonly name: string;
  readonly sk: string;
  readonly projection: Projection;
}

export type IndexDef = GsiDef | LsiDef;

export interface EdgeDef {
  readonly kind: 'edge';
  readonly name: string;
  readonly types: readonly string[];
  readonly forward: string;
  readonly inverse?: string;
  /** A GSI that holds the inverse direction instead of a second item (one write; incoming reads are eventually consistent). */
  readonly inverseIndex?: string;
  readonly attributes: Readonly<Record<string, AttributeDef>>;
  readonly traffic?: TrafficDef;
}

export type PatternOperator = 'eq' | 'beginsWith' | 'between' | 'gt' | 'gte' | 'lt' | 'lte';

export interface PatternDef {
  readonly kind: 'pattern';
  readonly name: string;
  readonly entity: string;
  readonly index?: string;
  readonly sk?: string;
  readonly op?: PatternOperator;
  readonly order?: 'asc' | 'desc';
  readonly readsPerSecond?: number;
  readonly writesPerSecond?: number;
  /** The pattern's reads are strongly consistent (twice the read units; not on a GSI). */
  readonly consistent?: boolean;
  /** The pattern's writes go through transactions (twice the write units). */
  readonly transactional?: boolean;
}

/** `warmThroughput`: what the table serves at once (default for on-demand: 12,000 reads / 4,000 writes). */
export type Capacity =
  | { readonly mode: 'on-demand'; readonly warmThroughput?: Throughput }
  | { readonly mode: 'provisioned'; readonly read: number; readonly write: number; readonly warmThroughput?: Throughput };

export type Severity = 'off' | 'info' | 'warn' | 'error';

/**
 * An acknowledged schema change (`ddbgen diff`): `change` is the changed part's schema path
 * (`entities.User.key.pk`), or a path above it that covers every change beneath.
 */
export interface MigrationDef {
  readonly kind: 'migration';
  readonly change: string;
  /** Why the change is acceptable, e.g. which migration rewrote the items. */
  readonly reason?: string;
}

export interface TableDef {
  readonly kind: 'table';
  readonly name: string;
  readonly delimiter: string;
  readonly key: { readonly pk: string; readonly sk?: string };
  readonly capacity: Capacity;
  readonly indexes: Readonly<Record<string, IndexDef>>;
  readonly entities: Readonly<Record<string, EntityDef>>;
  readonly edges: Readonly<Record<string, EdgeDef>>;
  readonly patterns: Readonly<Record<string, PatternDef>>;
  readonly lint: Readonly<Record<string, Severity>>;
  /** One physical table per period (`<name>_<YYYY-MM-DD | YYYY-Www | YYYY-MM | YYYY>`), for time series. */
  readonly rotation?: 'day' | 'week' | 'month' | 'year';
  /** The "Global secondary indexes per table" quota, when AWS has raised it above the default 20. */
  readonly gsiQuota?: number;
  /** Non-safe changes the schema acknowledges, so `ddbgen diff --check` passes. */
  readonly migrations?: readonly MigrationDef[];
}
