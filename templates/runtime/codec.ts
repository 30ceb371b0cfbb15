// The key codec: builds and parses composite string keys from a template of literal and value
// segments. Guarantees (each has a property test beside this file): injective (values are escaped,
// never concatenated raw), parseable back, prefix-safe partial keys (they end with the delimiter),
// order-preserving fixed-width numbers and UTC timestamps, case-preserving, empty/missing parts and
// oversize keys rejected before any request, limits measured in UTF-8 bytes.
//
// Stored formats (a table another writer keyed, `keyFormat` and `t.timestamp({ format })`) give
// some of these up, each on purpose: unescaped values (a value holding the delimiter is refused,
// so parsing stays unambiguous), plain integers (they sort as text, so range conditions on them
// are refused), folded case (values are compared and parsed back folded), text glued to a value
// (`user_<id>`), and timestamps as ISO without milliseconds or epoch digits.
//
// This module is the codec's entry (generated code imports it): a key template and the operations
// on one (build, prefix, parse, match), and the names of the modules below, each one concept:
// key-definition (segments and key values), key-writer (a key's parts written), key-reader (a key
// read back and matched), key-escape (escaping and casing), sortable-timestamp and sortable-number
// (values as text in order), shard-hash (write shards), utf8 (DynamoDB's measure and order of text).

import { anyPart, buildKey, checkKeyLength, keyError, type KeyPart } from './key-writer.js';
import { own, type KeyTemplateDef, type KeyValues, type ScalarSegmentDef, type SegmentDef, type ShardSegmentDef, type ValueSegmentDef } from './key-definition.js';
import { escapeSegment, fold } from './key-escape.js';
import { keyMatchesBySegments, keyShape, readKey } from './key-reader.js';

// What the codec's modules export for generated code, the runtime and ddbgen, named from here (the
// names generated declarations may not take: generator/validate/name-rules.ts, IMPORTED_RUNTIME).
export { SHARD, SHARD_SEGMENT, segment, type KeyTemplateDef, type KeyValues, type ScalarSegmentDef, type SegmentDef, type ShardSegmentDef, type ValueSegmentDef } from './key-definition.js';
export { ESCAPE, escapeSegment, splitKey } from './key-escape.js';
export { keyMatchesBySegments, keyShape } from './key-reader.js';
export { booleanPart, buildKey, checkKeyLength, floatPart, integerPart, keyError, shardPart, stringPart, timestampPart, type KeyPart } from './key-writer.js';
export { shardOf, shardWidth } from './shard-hash.js';
export { KEY_CODEC_VERSION, decodeFloat, decodeInteger, decodeLegacyInteger, encodeFloat, encodeInteger, encodeLegacyInteger, integerForm, isLegacyInteger, negativeSign, type IntegerForm } from './sortable-number.js';
export {
  EPOCH_KEY_RANGE,
  TIMESTAMP_PATTERN,
  decodeTimestamp,
  decodeTimestampAs,
  encodeTimestamp,
  encodeTimestampAs,
  isoDate,
  isoString,
  timestampForm,
  truncateTimestamp,
  type TimestampKeyFormat,
  type TimestampUnit,
} from './sortable-timestamp.js';
export { compareUtf8, isWellFormed, utf8ByteLength } from './utf8.js';

/**
 * A key template as the runtime's operations hold it: its definition, and how its keys are built.
 * Generated code gives each key one (`orderPk`), whose `build` is written out for its segments;
 * reading a key (`parseKey`, `keyPrefix`, `keyMatches`, …) interprets `def`, so a bundle keeps
 * only the functions its operations call. A `KeyTemplate` is one too.
 */
export interface KeyCodec {
  readonly def: KeyTemplateDef;
  /** The full key of an item or its key parts. Throws `KeyValueError` for a missing, empty, mistyped or out-of-range part. */
  build(item: KeyValues | object): string;
  /**
   * Whether `key` has this template's shape: what `keyMatches` answers (what `parseKey` accepts,
   * without decoding or throwing). Generated codecs test `keyShape`'s pattern, written out.
   */
  matches(key: string): boolean;
  /**
   * The function writing each value segment's text (undefined for a literal), which `keyPrefix`
   * writes a query's leading parts with: generated codecs name their kinds' (`stringPart`, …).
   */
  readonly parts: ReadonlyArray<KeyPart | undefined>;
}

/** What the reading functions work out once per template definition. */
interface Derived {
  /** The value segments, in template order. */
  readonly valueSegments: readonly ValueSegmentDef[];
  /** Attributes of the value segments (the shard left out), in template order. */
  readonly attributes: readonly string[];
  /** `keyShape(def)`, worked out on first use. */
  shape?: RegExp | undefined | null;
  /** `keyPrefix(…, {}).key`, worked out on first use. */
  leading?: string;
}

const derivedOf = new WeakMap<KeyTemplateDef, Derived>();

function derived(def: KeyTemplateDef): Derived {
  let found = derivedOf.get(def);
  if (!found) {
    const segments: readonly SegmentDef[] = def.segments;
    const valueSegments = segments.filter((s): s is ValueSegmentDef => s.kind !== 'literal');
    found = { valueSegments, attributes: valueSegments.filter((s) => s.kind !== 'shard').map((s) => s.attr) };
    derivedOf.set(def, found);
  }
  return found;
}

/** The attributes of a template's value segments (its shard left out), in template order. */
export function keyAttributes(template: KeyCodec): readonly string[] {
  return derived(template.def).attributes;
}

/** The shard segment of a template: its count, first suffix and whether it is drawn per write; undefined when the key has no `<shard>`. */
export function keyShard(template: KeyCodec): { readonly count: number; readonly start: number; readonly random: boolean } | undefined {
  const shard = (template.def.segments as readonly SegmentDef[]).find((s): s is ShardSegmentDef => s.kind === 'shard');
  return shard && { count: shard.count, start: shard.start ?? 0, random: shard.random === true };
}

/**
 * Builds the partial key for the leading value segments present in `values` (left to right),
 * with the literal segments between them. `complete` is true when every segment was given; a
 * partial key is returned with a trailing delimiter so `begins_with` never over-matches
 * (`User.1.` cannot match `User.12.`). A value given after a missing one is an error.
 */
export function keyPrefix(template: KeyCodec, values: KeyValues): KeyPrefix {
  return keyPrefixBy(template.def, values, template.parts);
}

/** A partial key (`keyPrefix`): its text, whether every segment was given, and how many value segments were. */
export interface KeyPrefix {
  readonly key: string;
  readonly complete: boolean;
  readonly given: number;
}

/** `keyPrefix`, each value segment written by its function in `parts` (undefined for a literal). */
function keyPrefixBy(def: KeyTemplateDef, values: KeyValues, parts: ReadonlyArray<KeyPart | undefined>): KeyPrefix {
  const { segments, delimiter } = def;
  let key = '';
  let given = 0;
  let i = 0;
  for (; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind !== 'literal' && segment.kind !== 'shard' && own(values, segment.attr) === undefined) break;
    key += (i > 0 ? delimiter : '') + (segment.kind === 'literal' ? segment.text : parts[i]!(def, i, values));
    if (segment.kind !== 'literal') given++;
  }
  if (i === segments.length) return { key: checkKeyLength(def, key), complete: true, given };
  const missing = (segments[i] as ValueSegmentDef).attr;
  for (const segment of derived(def).valueSegments.slice(given + 1)) {
    if (own(values, segment.attr) !== undefined) {
      throw keyError(def, 'KEY_PREFIX_GAP', segment.attr, `"${segment.attr}" was given without "${missing}", which comes before it in the key`);
    }
  }
  return { key: checkKeyLength(def, i === 0 ? '' : key + delimiter), complete: false, given };
}

/**
 * The key text before the first value: `keyPrefix(template, {}).key`, every key's common start
 * ('' when the key starts with a value). Worked out once: a query without a condition reads it on
 * every call.
 */
export function keyLeadingText(template: KeyCodec): string {
  const found = derived(template.def);
  return (found.leading ??= keyPrefix(template, {}).key);
}

/** Parses a key built by this template back into its attribute values. */
export function parseKey(template: KeyCodec, key: string): Record<string, unknown> {
  return readKey(template.def, key).values;
}

/** The shard suffix of a key built by this template (undefined when it has no `<shard>`); throws as `parseKey` does. */
export function keyShardIn(template: KeyCodec, key: string): number | undefined {
  return readKey(template.def, key).shard;
}

/**
 * Whether `key` has this template's shape: its literals, and a well-formed part for each value
 * segment (a timestamp's text, an integer, enum value, … in range). What `parseKey` accepts,
 * without decoding values or throwing: the check a query runs on every record it reads.
 */
export function keyMatches(template: KeyCodec, key: string): boolean {
  const found = derived(template.def);
  if (found.shape === undefined) found.shape = keyShape(template.def) ?? null;
  return found.shape !== null ? found.shape.test(key) : keyMatchesBySegments(template.def, key);
}

/**
 * Like `parseKey`, without values the key holds only approximately: a timestamp truncated to a
 * bucket (`<at:hour>`), and every string or enum value of a folded key (`casing`). An untruncated
 * timestamp is the value as stored, at its declared unit and in its stored format.
 * (`exactKeyParts` in generator/model/key-segments.ts is the same rule, for the types.)
 */
export function parseExactKey(template: KeyCodec, key: string): Record<string, unknown> {
  const values = parseKey(template, key);
  for (const segment of derived(template.def).valueSegments) {
    // a time bucket is not the value; an untruncated timestamp is the value as stored (at its unit, in its format)
    if (segment.kind === 'timestamp' && segment.bucket) delete values[segment.attr];
    else if (template.def.casing !== undefined && (segment.kind === 'string' || segment.kind === 'enum')) delete values[segment.attr];
  }
  return values;
}

/**
 * The text a string part's value takes in a key, with the segment's leading text (`user_`): what
 * `beginsWith` compares the stored text with (no trailing affix, since the value may go on).
 */
export function keyTextOf(template: KeyCodec, attr: string, value: string): string {
  const def = template.def;
  const segment = derived(def).valueSegments.find((s) => s.kind !== 'shard' && s.attr === attr) as ScalarSegmentDef | undefined;
  const folded = fold(value, def.casing);
  if (def.escape === false && (folded.includes(def.delimiter) || folded.includes('\u0000'))) {
    throw keyError(def, 'KEY_PART_DELIMITER', attr, `"${attr}" holds the delimiter "${def.delimiter}" or U+0000, which this table's unescaped keys cannot hold`);
  }
  return (segment?.prefix ?? '') + (def.escape === false ? folded : escapeSegment(folded, def.delimiter));
}

/** Whether the segment of `attr` sorts as text rather than by value (a plain integer): range conditions on it are refused. */
export function keySortsAsText(template: KeyCodec, attr: string): boolean {
  return derived(template.def).valueSegments.some((s) => s.kind === 'integer' && s.attr === attr && s.plain === true);
}

/**
 * A compiled key template, every operation of a key in one object: `build`, `parse`, `prefix`,
 * `matches`, … (the functions above, on its definition). Generated `<Entity>Keys` hold one per key
 * (`UserKeys.pk`); all failures throw `KeyValueError` / `KeyParseError`.
 */
export class KeyTemplate implements KeyCodec {
  readonly def: KeyTemplateDef;
  /** Attributes of the value segments, in template order. */
  readonly attributes: readonly string[];

  /** The shard count when the key has a `<shard>` segment. */
  readonly shards: number | undefined;

  /** The first shard suffix when the key has a `<shard>` segment. */
  readonly shardStart: number;

  /** Whether the shard suffix is drawn per write (the key cannot be rebuilt from an item). */
  readonly random: boolean;

  /** Each value segment written by `encodeSegment`, the segment interpreted (any kind). */
  readonly parts: ReadonlyArray<KeyPart | undefined>;

  private readonly builder: ((item: KeyValues | object) => string) | undefined;

  /** `build`: the generated builder of a `KeyCodec` (see `keyTemplate`), else `buildKey` on `def`. */
  constructor(def: KeyTemplateDef, build?: (item: KeyValues | object) => string) {
    this.def = def;
    this.builder = build;
    this.attributes = derived(def).attributes;
    this.parts = def.segments.map((s) => (s.kind === 'literal' ? undefined : anyPart));
    const shard = keyShard(this);
    this.shards = shard?.count;
    this.shardStart = shard?.start ?? 0;
    this.random = shard?.random === true;
  }

  /** Builds the full key from an item or its key parts. Throws `KeyValueError` for a missing, empty, mistyped or out-of-range part. */
  build(item: KeyValues | object): string {
    return this.builder ? this.builder(item) : buildKey(this.def, item);
  }

  /** `keyPrefix`: the partial key of the leading value segments present in `values`. */
  prefix(values: KeyValues): KeyPrefix {
    return keyPrefix(this, values);
  }

  /** `keyLeadingText`: the key text before the first value. */
  leadingText(): string {
    return keyLeadingText(this);
  }

  /** Parses a key built by this template back into its attribute values. */
  parse(key: string): Record<string, unknown> {
    return parseKey(this, key);
  }

  /** The shard suffix of a key built by this template (undefined when it has no `<shard>`); throws as `parse` does. */
  shardIn(key: string): number | undefined {
    return keyShardIn(this, key);
  }

  /** `keyMatches`: whether `key` has this template's shape (what `parse` accepts, without throwing). */
  matches(key: string): boolean {
    return keyMatches(this, key);
  }

  /** `matches`, part by part: what `keyShape`'s pattern stands for (public for its tests). */
  matchesBySegments(key: string): boolean {
    return keyMatchesBySegments(this.def, key);
  }

  /** `parseExactKey`: `parse` without the values the key holds only approximately. */
  parseExact(key: string): Record<string, unknown> {
    return parseExactKey(this, key);
  }

  /** `keyTextOf`: the text a string part's value takes in a key. */
  textOf(attr: string, value: string): string {
    return keyTextOf(this, attr, value);
  }

  /** Whether the segment of `attr` sorts as text rather than by value (a plain integer): range conditions on it are refused. */
  sortsAsText(attr: string): boolean {
    return keySortsAsText(this, attr);
  }
}

/**
 * The `KeyTemplate` of a generated key (`UserKeys.pk`): its definition, built by its generated
 * builder. Without side effects, so a bundle that never reads `UserKeys` leaves it and the class out.
 */
/* @__NO_SIDE_EFFECTS__ */
export function keyTemplate(codec: KeyCodec): KeyTemplate {
  return new KeyTemplate(codec.def, (item) => codec.build(item));
}
