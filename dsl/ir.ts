// The IR: the DSL's only product. Plain, frozen, JSON-serialisable data with a `kind` on every node;
// the generator imports these types and never the DSL's functions.

export type TimestampTruncation = 'minute' | 'hour' | 'day' | 'month';

/** The precision a timestamp attribute is stored at (`t.timestamp({ unit })`). */
export type TimestampUnit = 'second' | 'minute' | 'hour' | 'day' | 'month';

/**
 * How a timestamp is stored, in the table and in keys (`t.timestamp({ format })`): ddbgen's own
 * `iso` (`2024-01-05T10:00:00.000Z`, the default), or the form another writer chose: `iso-seconds`
 * (`2024-01-05T10:00:00Z`), `date` (`2024-01-05`), `epoch-seconds` or `epoch-milliseconds` (a
 * number in the table, its decimal digits in a key).
 */
export type TimestampFormat = 'iso' | 'iso-seconds' | 'date' | 'epoch-seconds' | 'epoch-milliseconds';

/** Fields every attribute may carry: `storedAs`, the name the table holds it under when it differs from the item's property. */
type AttributeBase = {
  readonly optional: boolean;
  readonly storedAs?: string;
};

export type AttributeDef = AttributeBase &
  (
    | { readonly kind: 'string'; readonly cardinality?: number; readonly pii?: boolean; readonly maxBytes?: number }
    /** `keyFormat`: how an integer's key parts are written, where it differs from the table's `keyFormat.integers`. */
    | { readonly kind: 'number'; readonly min?: number; readonly max?: number; readonly integer?: boolean; readonly keyFormat?: 'padded' | 'plain' }
    | { readonly kind: 'boolean' }
    | { readonly kind: 'enum'; readonly values: readonly string[] }
    | { readonly kind: 'timestamp'; readonly unit?: TimestampUnit; readonly format?: TimestampFormat }
    | { readonly kind: 'list'; readonly of: AttributeDef; readonly maxItems?: number }
    | { readonly kind: 'map'; readonly fields: Readonly<Record<string, AttributeDef>> }
    | { readonly kind: 'stringSet' }
    | { readonly kind: 'numberSet' }
    | { readonly kind: 'binary' }
  );

export type AttributeKind = AttributeDef['kind'];

export type TemplateSegmentDef =
  | { readonly kind: 'literal'; readonly text: string }
  | {
      readonly kind: 'placeholder';
      readonly name: string;
      readonly truncate?: string;
      readonly source: string;
      /** Text glued before the value in the same segment (`user_<id>`: `user_`), as tables written by other code have it. */
      readonly prefix?: string;
      /** Text glued after the value in the same segment. */
      readonly suffix?: string;
    };

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

/**
 * How an entity's items appear in a native GSI (`gsi({ pk: [...], sk: [...] })`): each key
 * attribute of the index and the entity attribute whose value it holds (the same name, or renamed;
 * a renamed one is written as a copy).
 */
export interface NativeIndexMappingDef {
  readonly kind: 'native-index-mapping';
  readonly index: string;
  /** Index key attribute → the entity's attribute, for every key attribute of the index, in key order. */
  readonly attributes: Readonly<Record<string, string>>;
  /** Renamed names that are no key attribute of the index (a validation error). */
  readonly stray?: readonly string[];
  /** Synthetic-key fields given on the mapping (`pk`, `sk`, `shard`), which a native key cannot use (a validation error). */
  readonly synthetic?: readonly ('pk' | 'sk' | 'shard')[];
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
  /** Mappings into native multi-attribute GSIs (absent when the entity maps into none). */
  readonly nativeIndexes?: Readonly<Record<string, NativeIndexMappingDef>>;
  readonly version?: string;
  /** Undeclared attributes in a write are stored, and kept on read, instead of being a ValidationError. */
  readonly passthrough?: boolean;
  readonly traffic?: TrafficDef;
  /** Per-rule lint severity overrides for this entity. */
  readonly lint?: Readonly<Record<string, Severity>>;
  /**
   * Attributes with a fixed value on every item of this entity (`{ _et: 'User' }`, ElectroDB's
   * `{ __edb_e__: 'user', __edb_v__: '1' }`): written with each item, and an item whose values
   * differ is not this entity's (reads skip it).
   */
  readonly discriminator?: Readonly<Record<string, string>>;
  /** The table's `keyFormat`, repeated here: what this entity's key templates are written with (absent: ddbgen's codec). */
  readonly keyFormat?: KeyFormatDef;
}

/**
 * How key values are written, for a table whose items another writer keyed (`keyFormat`). Each
 * choice other than the default gives up a guarantee of ddbgen's codec, and the lint says which.
 */
export interface KeyFormatDef {
  readonly kind: 'key-format';
  /** Values are escaped (`\\`, `\<delimiter>`); false: written as they are, and a value holding the delimiter is refused. */
  readonly escape: boolean;
  /** Integer parts fixed-width from min/max (`padded`), or their decimal digits as they are (`plain`, which sorts as text). */
  readonly integers: 'padded' | 'plain';
  /** String and enum values as given (`preserve`), or folded to `lower` or `upper` case. */
  readonly casing: 'preserve' | 'lower' | 'upper';
}

export type Projection = 'all' | 'keys-only' | readonly string[];

/** Units per second, for provisioned capacity and warm throughput. */
export interface Throughput {
  readonly read: number;
  readonly write: number;
}

/** `indexName` on an index: its IndexName in DynamoDB, when that is not the declared name (`gsi1pk-gsi1sk-index`). */
export interface GsiDef {
  readonly kind: 'gsi';
  readonly name: string;
  readonly indexName?: string;
  readonly pk: string;
  readonly sk?: string;
  readonly projection: Projection;
  /** Provisioned capacity of this index (provisioned tables; default: the table's). */
  readonly capacity?: Throughput;
  /** Throughput the index serves at once (default for on-demand: 12,000 reads / 4,000 writes). */
  readonly warmThroughput?: Throughput;
}

/**
 * A GSI keyed natively by the items' own attributes: up to 4 partition-key and 4 sort-key
 * attributes (DynamoDB, November 2025), no synthetic concatenated key.
 */
export interface NativeGsiDef {
  readonly kind: 'native-gsi';
  readonly name: string;
  readonly indexName?: string;
  /** Physical attribute names of the partition key, in key order. */
  readonly pk: readonly string[];
  /** Physical attribute names of the sort key, in key order (empty: no sort key). */
  readonly sk: readonly string[];
  readonly projection: Projection;
  readonly capacity?: Throughput;
  readonly warmThroughput?: Throughput;
}

export interface LsiDef {
  readonly kind: 'lsi';
  readonly name: string;
  readonly indexName?: string;
  readonly sk: string;
  readonly projection: Projection;
}

export type IndexDef = GsiDef | LsiDef | NativeGsiDef;

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

/**
 * What a DynamoDB stream record carries (the table's StreamViewType): both images, the item after
 * or before the change, or only its key.
 */
export type StreamViewType = 'new-and-old-images' | 'new-image' | 'old-image' | 'keys-only';
/** `onDemandMax`: the most request units per second an on-demand table serves (OnDemandThroughput); beyond it, requests throttle. */
export interface OnDemandMaximum {
  readonly readRequestUnits?: number;
  readonly writeRequestUnits?: number;
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
  /** The table's stream and what its records carry; absent: no stream. */
  readonly stream?: StreamViewType;
  /**
   * The time-to-live attribute (TimeToLiveSpecification): a timestamp on every entity that declares
   * it, stored as epoch seconds; DynamoDB deletes an item some time after that instant, and reads
   * hide it from then on unless asked with `includeExpired`.
   */
  readonly ttl?: string;
  /** Point-in-time recovery, restorable over the last `days` (1–35) days. */
  readonly pointInTimeRecovery?: { readonly days: number };
  /** DeletionProtectionEnabled: DeleteTable fails while it is on. */
  readonly deletionProtection?: boolean;
  readonly onDemandMax?: OnDemandMaximum;
  /** Resource tags (at most 50; keys up to 128 characters, values up to 256). */
  readonly tags?: Readonly<Record<string, string>>;
  /** How key values are written when another writer keyed the items (absent: ddbgen's codec). */
  readonly keyFormat?: KeyFormatDef;
}
