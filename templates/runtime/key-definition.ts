// A key template's definition, as generated code and the generator write it: its segments (fixed
// text, one attribute's value of a kind, the shard suffix), their constructors, and the key values
// a key is built from.

import type { TimestampKeyFormat, TimestampUnit } from './sortable-timestamp.js';

/** How a shard segment is named in messages and segment definitions (never a key of user values). */
export const SHARD_SEGMENT = '$shard';

/**
 * The private channel for an explicit shard number: gathered reads set `values[SHARD]` to address
 * one shard. A symbol, so no user value (a plain object, JSON, a form) can carry it by accident.
 */
export const SHARD: unique symbol = Symbol('ddbgen.shard');

/** Whether `name` is an own property of `values`. */
export const hasOwn = (values: object, name: PropertyKey) => Object.prototype.hasOwnProperty.call(values, name);

/** A key part as given: only an own property counts (an inherited one, from a class or `Object.create`, is absent). */
export const own = (values: KeyValues, name: string): unknown => (hasOwn(values, name) ? values[name] : undefined);

/** Key values, possibly addressing one shard explicitly. */
export type KeyValues = Readonly<Record<string, unknown>> & { readonly [SHARD]?: number };

/** Text glued to a value inside its segment (`user_<id>`: prefix `user_`), as other writers key items. */
interface Affixes {
  readonly prefix?: string;
  readonly suffix?: string;
}

/** A segment that encodes one attribute's value. */
export type ScalarSegmentDef = Affixes &
  (
    | { readonly kind: 'string'; readonly attr: string }
    | { readonly kind: 'enum'; readonly attr: string; readonly values: readonly string[] }
    /** `plain`: the decimal digits as they are, without padding (sorts as text). */
    | { readonly kind: 'integer'; readonly attr: string; readonly min: number; readonly max: number; readonly plain?: true }
    | { readonly kind: 'float'; readonly attr: string; readonly min: number; readonly max: number }
    /** `bucket`: truncated to `unit` by the template (`<at:hour>`), coarser than the value as stored, so the key does not give the value back. */
    | { readonly kind: 'timestamp'; readonly attr: string; readonly unit: TimestampUnit; readonly format?: TimestampKeyFormat; readonly bucket?: true }
    | { readonly kind: 'boolean'; readonly attr: string }
  );

/**
 * A write-shard suffix `start..start+count-1` (start defaults to 0). Calculated: a stable hash
 * (`shardOf`) of the `by` segments as the key encodes them (after truncation), so two writes that
 * build the same key always pick the same shard. `random`: drawn per write. Gathered reads give it
 * explicitly as `values[SHARD]`.
 */
export interface ShardSegmentDef {
  readonly kind: 'shard';
  readonly attr: typeof SHARD_SEGMENT;
  readonly count: number;
  readonly start?: number;
  readonly by: readonly ScalarSegmentDef[];
  readonly random?: true;
}

/** One segment of a key template: fixed text, or one attribute's encoded value, or the shard suffix. */
export type SegmentDef = { readonly kind: 'literal'; readonly text: string } | ScalarSegmentDef | ShardSegmentDef;

export type ValueSegmentDef = Exclude<SegmentDef, { kind: 'literal' }>;

/**
 * Segment constructors, as generated key templates write them: `segment.literal('User')`,
 * `segment.string('id')`. Each returns a plain definition; a call's declared result costs the user's
 * type checker one resolved signature, where an object literal per segment costs a fresh type and a
 * structural comparison with the `SegmentDef` union.
 */
export const segment = {
  literal: (text: string): SegmentDef => ({ kind: 'literal', text }),
  string: (attr: string): ScalarSegmentDef => ({ kind: 'string', attr }),
  enum: (attr: string, values: readonly string[]): ScalarSegmentDef => ({ kind: 'enum', attr, values }),
  integer: (attr: string, min: number, max: number): ScalarSegmentDef => ({ kind: 'integer', attr, min, max }),
  /** An integer written as its decimal digits, without padding. */
  plainInteger: (attr: string, min: number, max: number): ScalarSegmentDef => ({ kind: 'integer', attr, min, max, plain: true }),
  float: (attr: string, min: number, max: number): ScalarSegmentDef => ({ kind: 'float', attr, min, max }),
  timestamp: (attr: string, unit: TimestampUnit, format?: TimestampKeyFormat): ScalarSegmentDef => (format === undefined ? { kind: 'timestamp', attr, unit } : { kind: 'timestamp', attr, unit, format }),
  /** A timestamp truncated by the template to a time bucket (`<at:hour>`): the key holds the bucket, not the value. */
  bucket: (attr: string, unit: TimestampUnit): ScalarSegmentDef => ({ kind: 'timestamp', attr, unit, bucket: true }),
  boolean: (attr: string): ScalarSegmentDef => ({ kind: 'boolean', attr }),
  /** A value segment with text glued before (`prefix`) and after (`suffix`) it: `user_<id>`. */
  affixed: (value: ScalarSegmentDef, prefix: string, suffix = ''): ScalarSegmentDef => ({ ...value, ...(prefix ? { prefix } : {}), ...(suffix ? { suffix } : {}) }),
  /** The shard suffix: `count` shards from `start` (0 by default), hashed from `by` or drawn per write (`random`). */
  shard: (shard: { readonly count: number; readonly start?: number; readonly by: readonly ScalarSegmentDef[]; readonly random?: true }): SegmentDef => ({
    kind: 'shard',
    attr: SHARD_SEGMENT,
    ...shard,
  }),
};

export interface KeyTemplateDef {
  /** Entity that owns the key, for error messages. */
  readonly entity: string;
  /** Schema path of the template, e.g. `Article.key.sk`. */
  readonly target: string;
  readonly delimiter: string;
  /** DynamoDB's limit for this key attribute in UTF-8 bytes: 2048 (partition) or 1024 (sort). */
  readonly maxBytes: number;
  /**
   * Read-only either way. `SegmentDef[]` is spelled out beside `readonly SegmentDef[]` because a
   * generated `new KeyTemplate({ …, segments: [ … ] })` then relates its array literal to
   * `Array<SegmentDef>` by element type, where `ReadonlyArray` alone would make the type checker
   * instantiate each literal's array type.
   */
  readonly segments: SegmentDef[] | readonly SegmentDef[];
  /**
   * The key codec version the stored keys were written with (default `KEY_CODEC_VERSION`). Only a
   * migration's copy of an old schema sets 1, to read (and build) keys as codec v1 wrote them.
   */
  readonly codecVersion?: 1 | 2;
  /**
   * `false`: values are written as they are, not escaped (a table another writer keyed); a value
   * holding the delimiter (or U+0000) is then refused on write, so every key still splits exactly.
   */
  readonly escape?: false;
  /** String, enum, boolean and timestamp text folded to this case in the key (the value given is kept as it is in the item). */
  readonly casing?: 'lower' | 'upper';
}
