// Writing a key: each value segment's text (checked, folded, escaped, affixed) by kind, the part
// functions generated builders call (`stringPart`, `timestampPart`, …), the whole key interpreted from
// its definition (`buildKey`), and the errors and length limit of a key being built.

// (The imports follow the order these concepts had in one codec module before it was split: a
// bundler lays modules out in import order, and in that order the bundle gzips about as small as before.)
import { KeyValueError } from './errors.js';
import { shardOf, shardWidth } from './shard-hash.js';
import { SHARD, hasOwn, own, type KeyTemplateDef, type KeyValues, type ScalarSegmentDef, type ShardSegmentDef, type ValueSegmentDef } from './key-definition.js';
import { isWellFormed, utf8ByteLength } from './utf8.js';
import { escapeSegment, fold } from './key-escape.js';
import { EARLIEST, EPOCH_KEY_RANGE, LATEST, encodeTimestamp, encodeTimestampAs } from './sortable-timestamp.js';
import { encodeFloat, encodeInteger, encodeLegacyInteger } from './sortable-number.js';

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Date) return 'Date';
  return typeof value;
}

/** A `KeyValueError` of a template's key. */
export function keyError(def: KeyTemplateDef, code: ConstructorParameters<typeof KeyValueError>[0], attr: string | undefined, message: string, limit?: string): KeyValueError {
  return new KeyValueError(code, {
    entity: def.entity,
    target: def.target,
    ...(attr === undefined ? {} : { attribute: attr }),
    ...(limit === undefined ? {} : { limit }),
    message,
  });
}

/** `key`, once it is checked to fit the template's limit in UTF-8 bytes; throws `KeyValueError` (KEY_TOO_LONG) above it. */
export function checkKeyLength(def: KeyTemplateDef, key: string): string {
  if (key.length * 3 <= def.maxBytes) return key; // a UTF-16 unit is at most 3 UTF-8 bytes
  const bytes = utf8ByteLength(key);
  if (bytes > def.maxBytes) {
    throw keyError(def, 'KEY_TOO_LONG', undefined, `key is ${bytes} bytes in UTF-8, above DynamoDB's limit of ${def.maxBytes}`, `${def.maxBytes} bytes`);
  }
  return key;
}

/**
 * The value of a segment. A shard is given explicitly (`values[SHARD]`, gathered reads), drawn
 * (random), or hashed from its `by` segments as this key encodes them.
 */
function segmentValue(def: KeyTemplateDef, segment: ValueSegmentDef, values: KeyValues): unknown {
  if (segment.kind !== 'shard') return own(values, segment.attr);
  if (hasOwn(values, SHARD) && values[SHARD] !== undefined) return values[SHARD];
  const start = segment.start ?? 0;
  if (segment.random) return start + Math.floor(Math.random() * segment.count);
  return start + shardOf(segment.by.map((by) => encodeSegment(def, by, own(values, by.attr))), segment.count);
}

/** Builds the full key from an item or its key parts, interpreting `def`. Throws `KeyValueError` for a missing, empty, mistyped or out-of-range part. */
export function buildKey(def: KeyTemplateDef, item: KeyValues | object): string {
  const values = item as KeyValues;
  const { segments, delimiter } = def;
  let key = '';
  for (let i = 0; i < segments.length; i++) {
    if (i > 0) key += delimiter;
    const segment = segments[i]!;
    key += segment.kind === 'literal' ? segment.text : encodeSegment(def, segment, segmentValue(def, segment, values));
  }
  return checkKeyLength(def, key);
}

/** The text of value segment `at` of a key, from an item's values: one kind's function (`stringPart`, `timestampPart`, …). */
export type KeyPart = (def: KeyTemplateDef, at: number, item: KeyValues | object) => string;

/** Any kind's text, the segment interpreted: what `keyPrefix` writes a part with. */
export const anyPart: KeyPart = (def, at, item) => {
  const segment = def.segments[at] as ValueSegmentDef;
  return encodeSegment(def, segment, segmentValue(def, segment, item as KeyValues));
};

/**
 * A value segment's text in the key: its value's text, folded to the template's casing, escaped
 * (or, unescaped, refused when it holds the delimiter), between the segment's affixes. The kinds'
 * own functions below (`stringPart`, `timestampPart`, …) do the same for one kind each: generated
 * builders call them, so a bundle keeps the kinds its keys hold.
 */
function encodeSegment(def: KeyTemplateDef, segment: ValueSegmentDef, value: unknown): string {
  switch (segment.kind) {
    case 'string':
    case 'enum':
      return writtenText(def, segment, stringText(def, segment, value));
    case 'integer':
      return integerWritten(def, segment, value);
    case 'float':
      return floatText(def, segment, value);
    case 'timestamp':
      return writtenText(def, segment, timestampText(def, segment, value));
    case 'boolean':
      return writtenText(def, segment, booleanText(def, segment, value));
    case 'shard':
      return shardText(def, segment, value);
  }
}

/** A scalar segment's text, folded to the template's casing (not an integer's), escaped or refused when unescaped and holding the delimiter, between its affixes. */
function writtenText(def: KeyTemplateDef, segment: ScalarSegmentDef, text: string): string {
  const { casing, escape, delimiter } = def;
  const folded = casing === undefined || segment.kind === 'integer' ? text : fold(text, casing);
  let written = folded;
  if (escape !== false) written = escapeSegment(folded, delimiter);
  else if (folded.includes(delimiter) || folded.includes('\u0000')) {
    const what = folded.includes(delimiter) ? `the delimiter "${delimiter}"` : 'U+0000';
    throw keyError(def, 'KEY_PART_DELIMITER', segment.attr, `"${segment.attr}" holds ${what}, and this table's keys are written unescaped (keyFormat: { escape: false }), so the key could not be split back; give a value without it`);
  }
  return affixed(segment, written);
}

/** `value`, once it is given: a missing (undefined or null) key part throws KEY_PART_MISSING. */
function given(def: KeyTemplateDef, attr: string, value: unknown): unknown {
  if (value === undefined || value === null) throw keyError(def, 'KEY_PART_MISSING', attr, `"${attr}" is required to build this key`);
  return value;
}

type Kind<K extends ValueSegmentDef['kind']> = Extract<ValueSegmentDef, { kind: K }>;

/** A string or enum part's value, checked: a string with content, well-formed, one of the enum's values. */
function stringText(def: KeyTemplateDef, segment: Kind<'string' | 'enum'>, value: unknown): string {
  const attr = segment.attr;
  given(def, attr, value);
  if (typeof value !== 'string') throw keyError(def, 'KEY_PART_TYPE', attr, `"${attr}" must be a string, got ${typeName(value)}`);
  if (value.trim() === '') throw keyError(def, 'KEY_PART_EMPTY', attr, `"${attr}" is empty or blank; key parts must have content`);
  if (!isWellFormed(value)) throw keyError(def, 'KEY_PART_TYPE', attr, `"${attr}" contains a lone surrogate (not well-formed Unicode)`);
  if (segment.kind === 'enum' && !segment.values.includes(value)) {
    throw keyError(def, 'KEY_PART_RANGE', attr, `"${attr}" must be one of ${segment.values.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** A number part's value, checked: an integer (or a finite number) in its declared range. */
function numberIn(def: KeyTemplateDef, segment: Kind<'integer' | 'float'>, value: unknown): number {
  const attr = segment.attr;
  given(def, attr, value);
  const integer = segment.kind === 'integer';
  if (typeof value !== 'number' || !(integer ? Number.isInteger(value) : Number.isFinite(value))) {
    throw keyError(def, 'KEY_PART_TYPE', attr, `"${attr}" must be ${integer ? 'an integer' : 'a finite number'}, got ${String(value)}`);
  }
  const range = `${segment.min}..${segment.max}`;
  if (value < segment.min || value > segment.max) throw keyError(def, 'KEY_PART_RANGE', attr, `"${attr}" is ${value}, outside its declared range ${range}`, range);
  return value;
}

/** A segment's text between its affixes (`tripno_` + `00005`): what every kind writes, and `unaffixed` reads back. */
const affixed = (segment: ScalarSegmentDef, text: string): string => (segment.prefix === undefined && segment.suffix === undefined ? text : (segment.prefix ?? '') + text + (segment.suffix ?? ''));

/** An integer part as the key writes it: plain digits (folded, escaped, affixed as text), else its fixed-width form of this codec version, affixed. */
function integerWritten(def: KeyTemplateDef, segment: Kind<'integer'>, value: unknown): string {
  const n = numberIn(def, segment, value);
  if (segment.plain) return writtenText(def, segment, String(n));
  return affixed(segment, def.codecVersion === 1 ? encodeLegacyInteger(n, segment.min, segment.max) : encodeInteger(n, segment.min, segment.max, def.delimiter));
}

/** A float part as the key writes it: 16 hex digits in numeric order, affixed. */
function floatText(def: KeyTemplateDef, segment: Kind<'float'>, value: unknown): string {
  return affixed(segment, encodeFloat(numberIn(def, segment, value)));
}

/** A timestamp part's text: a valid Date of years 0000..9999 (of the epoch range for epoch formats), in its unit and format. */
function timestampText(def: KeyTemplateDef, segment: Kind<'timestamp'>, value: unknown): string {
  const attr = segment.attr;
  given(def, attr, value);
  if (!(value instanceof Date)) throw keyError(def, 'KEY_PART_TYPE', attr, `"${attr}" must be a Date, got ${typeName(value)}`);
  const time = value.getTime();
  if (Number.isNaN(time)) throw keyError(def, 'KEY_PART_TYPE', attr, `"${attr}" is an invalid Date`);
  if (time < EARLIEST || time > LATEST) {
    throw keyError(def, 'KEY_PART_RANGE', attr, `"${attr}" must fall in years 0000..9999 to keep a fixed width`, '0000-01-01..9999-12-31');
  }
  if (segment.format === undefined) return encodeTimestamp(value, segment.unit);
  if (segment.format !== 'iso-seconds' && (time < EPOCH_KEY_RANGE.earliest || time > EPOCH_KEY_RANGE.latest)) {
    const range = `${new Date(EPOCH_KEY_RANGE.earliest).toISOString()}..${new Date(EPOCH_KEY_RANGE.latest).toISOString()}`;
    throw keyError(def, 'KEY_PART_RANGE', attr, `"${attr}" must fall in ${range}, where its ${segment.format} digits keep a fixed width (and so their order)`, range);
  }
  return encodeTimestampAs(value, segment.unit, segment.format);
}

/** A boolean part's text: `true` or `false`. */
function booleanText(def: KeyTemplateDef, segment: Kind<'boolean'>, value: unknown): string {
  const attr = segment.attr;
  given(def, attr, value);
  if (typeof value !== 'boolean') throw keyError(def, 'KEY_PART_TYPE', attr, `"${attr}" must be a boolean, got ${typeName(value)}`);
  return value ? 'true' : 'false';
}

/** A shard suffix: an integer start..start+count-1, zero-padded to the width of the largest. */
function shardText(def: KeyTemplateDef, segment: ShardSegmentDef, value: unknown): string {
  const attr = segment.attr;
  given(def, attr, value);
  const start = segment.start ?? 0;
  const last = start + segment.count - 1;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < start || value > last) {
    throw keyError(def, 'KEY_PART_RANGE', attr, `the shard must be an integer ${start}..${last}, got ${String(value)}`, `${start}..${last}`);
  }
  return String(value).padStart(shardWidth(segment), '0');
}

/** Segment `at` of a template, of the kind a generated builder names (the generator wrote both). */
const segmentAt = <K extends ValueSegmentDef['kind']>(def: KeyTemplateDef, at: number): Kind<K> => def.segments[at] as Kind<K>;

/** The text of string (or enum) segment `at` of a key: the item's value checked, folded, escaped and affixed. Throws `KeyValueError`. */
export function stringPart(def: KeyTemplateDef, at: number, item: KeyValues | object): string {
  const segment = segmentAt<'string' | 'enum'>(def, at);
  return writtenText(def, segment, stringText(def, segment, own(item as KeyValues, segment.attr)));
}

/** The text of integer segment `at` of a key: the item's value checked and written at its fixed width (or plain). Throws `KeyValueError`. */
export function integerPart(def: KeyTemplateDef, at: number, item: KeyValues | object): string {
  const segment = segmentAt<'integer'>(def, at);
  return integerWritten(def, segment, own(item as KeyValues, segment.attr));
}

/** The text of float segment `at` of a key: the item's value checked and written as ordered hex. Throws `KeyValueError`. */
export function floatPart(def: KeyTemplateDef, at: number, item: KeyValues | object): string {
  const segment = segmentAt<'float'>(def, at);
  return floatText(def, segment, own(item as KeyValues, segment.attr));
}

/** The text of timestamp segment `at` of a key: the item's Date checked and written in its unit and format. Throws `KeyValueError`. */
export function timestampPart(def: KeyTemplateDef, at: number, item: KeyValues | object): string {
  const segment = segmentAt<'timestamp'>(def, at);
  return writtenText(def, segment, timestampText(def, segment, own(item as KeyValues, segment.attr)));
}

/** The text of boolean segment `at` of a key. Throws `KeyValueError`. */
export function booleanPart(def: KeyTemplateDef, at: number, item: KeyValues | object): string {
  const segment = segmentAt<'boolean'>(def, at);
  return writtenText(def, segment, booleanText(def, segment, own(item as KeyValues, segment.attr)));
}

/** The shard suffix of a key (segment `at`): given (`item[SHARD]`), drawn, or hashed from its `by` parts. Throws `KeyValueError`. */
export function shardPart(def: KeyTemplateDef, at: number, item: KeyValues | object): string {
  const segment = segmentAt<'shard'>(def, at);
  return shardText(def, segment, segmentValue(def, segment, item as KeyValues));
}
