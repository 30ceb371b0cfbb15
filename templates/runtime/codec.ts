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

import { KeyParseError, KeyValueError } from './errors.js';
import { utf8Bytes } from './hmac.js';

/** How a shard segment is named in messages and segment definitions (never a key of user values). */
export const SHARD_SEGMENT = '$shard';

/**
 * The private channel for an explicit shard number: gathered reads set `values[SHARD]` to address
 * one shard. A symbol, so no user value (a plain object, JSON, a form) can carry it by accident.
 */
export const SHARD: unique symbol = Symbol('ddbgen.shard');

const hasOwn = (values: object, name: PropertyKey) => Object.prototype.hasOwnProperty.call(values, name);

/** A key part as given: only an own property counts (an inherited one, from a class or `Object.create`, is absent). */
const own = (values: KeyValues, name: string): unknown => (hasOwn(values, name) ? values[name] : undefined);

/** Key values, possibly addressing one shard explicitly. */
export type KeyValues = Readonly<Record<string, unknown>> & { readonly [SHARD]?: number };

/** The escape character. A value's `\` is written `\\`, its delimiter `\<delimiter>`. */
export const ESCAPE = '\\';

export type TimestampUnit = 'millisecond' | 'second' | 'minute' | 'hour' | 'day' | 'month';

/**
 * How a timestamp segment is written when not in ddbgen's ISO form for its unit: `iso-seconds`
 * (`2024-01-05T10:00:00Z`), or the instant's epoch seconds or milliseconds (10 or 13 digits, so
 * keys of 2001-09-09..2286-11-20 stay fixed-width and in order; others are refused).
 */
export type TimestampKeyFormat = 'iso-seconds' | 'epoch-seconds' | 'epoch-milliseconds';

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

/** Number of bytes `s` takes in UTF-8 (what DynamoDB measures), without allocating. */
export function utf8ByteLength(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** False when `s` has a lone UTF-16 surrogate, which has no UTF-8 form. */
export function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return false;
    const next = s.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

/**
 * Compares two strings in UTF-8 byte order, DynamoDB's order for S keys. (JS `<` compares UTF-16
 * code units, which differs for characters above U+FFFF against U+E000..U+FFFF.)
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after every BMP unit in UTF-8 / code point order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * Escapes `\`, the delimiter and U+0000 (as `\0`), so an encoded value never contains a bare
 * delimiter and no key ever contains U+0000: the character just above it bounds strict range queries.
 */
export function escapeSegment(value: string, delimiter: string): string {
  if (!value.includes(ESCAPE) && !value.includes(delimiter) && !value.includes('\u0000')) return value;
  let out = '';
  for (const ch of value) out += ch === ESCAPE || ch === delimiter ? ESCAPE + ch : ch === '\u0000' ? ESCAPE + '0' : ch;
  return out;
}

/** Splits a key on bare (unescaped) delimiters, removing escapes. Returns undefined if malformed. */
export function splitKey(key: string, delimiter: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < key.length; i++) {
    const ch = key[i]!;
    if (ch === ESCAPE) {
      const next = key[i + 1];
      if (next !== ESCAPE && next !== delimiter && next !== '0') return undefined;
      current += next === '0' ? '\u0000' : next;
      i++;
    } else if (ch === delimiter) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

/** The form of a timestamp segment per unit (before escaping): `9` a digit, any other character itself. */
const TIMESTAMP_FORM: Record<TimestampUnit | TimestampKeyFormat, string> = {
  millisecond: '9999-99-99T99:99:99.999Z',
  second: '9999-99-99T99:99:99',
  minute: '9999-99-99T99:99',
  hour: '9999-99-99T99',
  day: '9999-99-99',
  month: '9999-99',
  'iso-seconds': '9999-99-99T99:99:99Z',
  'epoch-seconds': '9999999999',
  'epoch-milliseconds': '9999999999999',
};
const TIMESTAMP_WIDTH: Record<TimestampUnit, number> = { millisecond: 24, second: 19, minute: 16, hour: 13, day: 10, month: 7 };

/** The form a timestamp segment is written in: its stored format, else ddbgen's ISO text for its unit. */
export const timestampForm = (segment: { readonly unit: TimestampUnit; readonly format?: TimestampKeyFormat }): TimestampUnit | TimestampKeyFormat => segment.format ?? segment.unit;

/** The regular-expression source of a timestamp's text, each literal character as `literal` writes it. */
function timestampSource(form: TimestampUnit | TimestampKeyFormat, literal: (ch: string) => string): string {
  return TIMESTAMP_FORM[form].replace(/9+|[^9]/g, (run) => (run[0] === '9' ? `\\d{${run.length}}` : literal(run)));
}

const regexText = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|\/-]/g, '\\$&');

/** The text of a timestamp segment per unit or stored format (before escaping). */
export const TIMESTAMP_PATTERN: Readonly<Record<TimestampUnit | TimestampKeyFormat, RegExp>> = /* @__PURE__ */ Object.fromEntries(
  /* @__PURE__ */ (Object.keys(TIMESTAMP_FORM) as TimestampUnit[]).map((unit) => [unit, new RegExp(`^${timestampSource(unit, regexText)}$`)]),
) as Record<TimestampUnit | TimestampKeyFormat, RegExp>;

/** The earliest and latest instants an epoch key part holds at its fixed width (10 digits of seconds, 13 of milliseconds). */
export const EPOCH_KEY_RANGE = { earliest: 1e12, latest: 1e13 - 1 } as const;

/** Folds text to a template's casing. */
const fold = (text: string, casing: 'lower' | 'upper' | undefined): string => (casing === 'lower' ? text.toLowerCase() : casing === 'upper' ? text.toUpperCase() : text);

/**
 * One regular expression accepting exactly the keys `matches` accepts, for templates whose parts a
 * pattern can check (literals, strings, timestamps, enums, booleans); `undefined` for the others
 * (integers, floats and shards are checked against their ranges part by part). A part runs to the
 * next bare delimiter, so a value part is a run of plain characters and escapes, and an escaped
 * delimiter inside a timestamp is matched as the key writes it.
 */
export function keyShape(def: KeyTemplateDef): RegExp | undefined {
  const d = def.delimiter;
  const unescaped = def.escape === false;
  const escaped = (text: string) => (unescaped ? regexText(fold(text, def.casing)) : regexText(escapeSegment(fold(text, def.casing), d)));
  const value = unescaped ? `[^${regexText(d)}]+` : `(?:[^${regexText(d)}\\\\]|\\\\[${regexText(d)}\\\\0])+`;
  const parts: string[] = [];
  for (const segment of def.segments) {
    if (segment.kind === 'literal') {
      parts.push(regexText(segment.text));
      continue;
    }
    let part: string;
    switch (segment.kind) {
      case 'string':
        part = value;
        break;
      case 'timestamp':
        part = timestampSource(timestampForm(segment), escaped);
        break;
      case 'boolean':
        part = `(?:${fold('true', def.casing)}|${fold('false', def.casing)})`;
        break;
      case 'enum': {
        // an enum value's only written form is its escape, unless it holds U+0000 (written bare or as \0)
        if (segment.values.some((v) => v.includes('\u0000'))) return undefined;
        const values = segment.values.filter((v) => v !== '');
        part = values.length === 0 ? '(?!)' : `(?:${values.map(escaped).join('|')})`;
        break;
      }
      default:
        return undefined;
    }
    parts.push(regexText(segment.prefix ?? '') + part + regexText(segment.suffix ?? ''));
  }
  return new RegExp(`^${parts.join(regexText(d))}$`);
}
const TIMESTAMP_SUFFIX: Record<TimestampUnit, string> = {
  millisecond: '',
  second: '.000Z',
  minute: ':00.000Z',
  hour: ':00:00.000Z',
  day: 'T00:00:00.000Z',
  month: '-01T00:00:00.000Z',
};
/** Earliest and latest instants with a 4-digit year: outside them toISOString() is not fixed width. */
const EARLIEST = new Date('0000-01-01T00:00:00.000Z').getTime();
const LATEST = new Date('9999-12-31T23:59:59.999Z').getTime();

/**
 * The codec's version. v1 stored an integer as its offset from `min` (id 1 of 1..1e9 was
 * `000000000`); v2 stores the value itself. Floats, timestamps and every other kind are the same
 * in both. A v2 parser recognises a v1 integer by its shape (see `integerForm`) and throws a
 * `KeyParseError` whose `codecVersion` is 1 instead of returning a wrong value.
 */
export const KEY_CODEC_VERSION = 2;

/** The character that starts a negative integer: below every digit, and never the delimiter. */
export function negativeSign(delimiter: string): string {
  return delimiter === '-' ? '!' : '-';
}

/**
 * How integers of a declared range are written (v2). A value `>= 0` is its decimal digits
 * zero-padded to `width`, the width of `max` (`1` → `0000000001` for 1..1e9), so it reads as
 * itself. A negative value is the sign (`-`) and `10^negativeWidth + value` in `negativeWidth`
 * digits (`-5` → `-9999995` for -1e6..1e6): the sign sorts below every digit and the complement
 * keeps negatives in numeric order. v1 wrote every value as `legacyWidth` digits (`value - min`);
 * when a range with `min ≠ 0` would give v2 that same width, v2 writes one digit more, so no v2
 * key ever has the shape of a v1 key and a parser can tell them apart. (With `min = 0` the two
 * versions write the same text for the same value.)
 */
export interface IntegerForm {
  readonly width: number;
  readonly negativeWidth: number;
  readonly legacyWidth: number;
}

export function integerForm(min: number, max: number): IntegerForm {
  const legacyWidth = String(max - min).length;
  const natural = String(Math.max(max, 0)).length;
  const width = min !== 0 && natural === legacyWidth ? natural + 1 : natural;
  return { width, negativeWidth: min < 0 ? String(-min).length : 0, legacyWidth };
}

/** Encodes an integer of the range `min..max` (already checked to be in it) in its v2 form. */
export function encodeInteger(value: number, min: number, max: number, delimiter: string): string {
  const form = integerForm(min, max);
  if (value >= 0) return String(value).padStart(form.width, '0');
  const complement = BigInt(10) ** BigInt(form.negativeWidth) + BigInt(value);
  return negativeSign(delimiter) + complement.toString().padStart(form.negativeWidth, '0');
}

/** Decodes an integer segment's (unescaped) v2 text, or undefined when it is not one. */
export function decodeInteger(text: string, min: number, max: number, delimiter: string): number | undefined {
  const form = integerForm(min, max);
  const sign = negativeSign(delimiter);
  let value: number;
  if (text.startsWith(sign)) {
    const digits = text.slice(sign.length);
    if (form.negativeWidth === 0 || digits.length !== form.negativeWidth || !/^\d+$/.test(digits)) return undefined;
    value = Number(BigInt(digits) - BigInt(10) ** BigInt(form.negativeWidth));
    if (value >= 0) return undefined;
  } else {
    if (text.length !== form.width || !/^\d+$/.test(text)) return undefined;
    value = Number(text);
  }
  return value >= min && value <= max ? value : undefined;
}

/** Encodes an integer of the range `min..max` as key codec v1 did: its offset from `min`, zero-padded. */
export function encodeLegacyInteger(value: number, min: number, max: number): string {
  return String(value - min).padStart(integerForm(min, max).legacyWidth, '0');
}

/** Decodes an integer segment written by key codec v1, or undefined when it is not one. */
export function decodeLegacyInteger(text: string, min: number, max: number): number | undefined {
  if (text.length !== integerForm(min, max).legacyWidth || !/^\d+$/.test(text)) return undefined;
  const value = Number(text) + min;
  return value <= max ? value : undefined;
}

/** Whether `text` has the shape the v1 codec gave integers of this range (and v2 never does). */
export function isLegacyInteger(text: string, min: number, max: number): boolean {
  const form = integerForm(min, max);
  return min !== 0 && text.length === form.legacyWidth && /^\d+$/.test(text);
}

/** Encodes a timestamp as fixed-width UTC ISO-8601 text, truncated to `unit`. */
export function encodeTimestamp(value: Date, unit: TimestampUnit): string {
  return isoString(value).slice(0, TIMESTAMP_WIDTH[unit]);
}

/** Encodes a timestamp in a stored key format, after truncating it to `unit` (epoch instants outside `EPOCH_KEY_RANGE` are the caller's to refuse). */
export function encodeTimestampAs(value: Date, unit: TimestampUnit, format: TimestampKeyFormat): string {
  const truncated = truncateTimestamp(value, unit);
  if (format === 'iso-seconds') return isoString(truncated).slice(0, 19) + 'Z';
  const ms = truncated.getTime();
  return String(format === 'epoch-seconds' ? Math.floor(ms / 1000) : ms);
}

/** Decodes a timestamp segment written in a stored key format (upper-case ISO letters), or undefined. */
export function decodeTimestampAs(text: string, unit: TimestampUnit, format: TimestampKeyFormat): Date | undefined {
  if (!TIMESTAMP_PATTERN[format].test(text)) return undefined;
  const date = format === 'iso-seconds' ? new Date(text.slice(0, 19) + '.000Z') : new Date(Number(text) * (format === 'epoch-seconds' ? 1000 : 1));
  if (Number.isNaN(date.getTime()) || encodeTimestampAs(date, unit, format) !== text) return undefined;
  return date;
}

let lastDate: Date | undefined;
let lastTime = NaN;
let lastIso = '';

/**
 * `value.toISOString()`, remembered for the last Date: a write converts the same Date for its
 * attribute and for each key that holds it. (A Date is mutable, so its time is compared too.)
 */
export function isoString(value: Date): string {
  const time = value.getTime();
  if (value !== lastDate || time !== lastTime) {
    lastIso = value.toISOString();
    lastDate = value;
    lastTime = time;
  }
  return lastIso;
}

/** Two decimal digits of `text` at `at` as a number; NaN unless both are digits. */
function digits2(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : NaN;
}

/**
 * `new Date(text)`, read directly when `text` is in the form `isoString` writes
 * (`YYYY-MM-DDTHH:mm:ss.sssZ`, years 0100–9999, days 1–28, no leap second): item reads parse one
 * per timestamp attribute, and the engine's general date parser is the larger part of a read's
 * cost. Any other text (another form, an invalid field, a day past the 28th, which engines read
 * differently when the month has no such day) goes to `new Date`, so the result is always exactly
 * what `new Date(text)` gives.
 */
export function isoDate(text: string): Date {
  if (text.length === 24 && text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45 && text.charCodeAt(10) === 84 && text.charCodeAt(13) === 58 && text.charCodeAt(16) === 58 && text.charCodeAt(19) === 46 && text.charCodeAt(23) === 90) {
    const year = digits2(text, 0) * 100 + digits2(text, 2);
    const month = digits2(text, 5);
    const day = digits2(text, 8);
    const hour = digits2(text, 11);
    const minute = digits2(text, 14);
    const second = digits2(text, 17);
    const third = text.charCodeAt(22) - 48;
    const millisecond = third >= 0 && third <= 9 ? digits2(text, 20) * 10 + third : NaN;
    // every comparison is false for NaN: a non-digit anywhere falls through to new Date
    if (year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= 28 && hour <= 23 && minute <= 59 && second <= 59 && millisecond >= 0) {
      return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millisecond));
    }
  }
  return new Date(text);
}

/** The start of the UTC second, minute, hour, day or month holding `value`. */
export function truncateTimestamp(value: Date, unit: TimestampUnit): Date {
  return unit === 'millisecond' ? value : new Date(encodeTimestamp(value, unit) + TIMESTAMP_SUFFIX[unit]);
}

/** Decodes a timestamp segment; truncated units give the start of their bucket. */
export function decodeTimestamp(text: string, unit: TimestampUnit): Date | undefined {
  if (!TIMESTAMP_PATTERN[unit].test(text)) return undefined;
  const date = isoDate(text + TIMESTAMP_SUFFIX[unit]);
  if (Number.isNaN(date.getTime()) || encodeTimestamp(date, unit) !== text) return undefined;
  return date;
}

/** Encodes a finite double as 16 hex digits whose byte order equals numeric order. */
export function encodeFloat(value: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value === 0 ? 0 : value); // -0 and 0 are one value
  let hi = view.getUint32(0);
  let lo = view.getUint32(4);
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else hi = (hi | 0x80000000) >>> 0;
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

export function decodeFloat(text: string): number | undefined {
  if (!/^[0-9a-f]{16}$/.test(text)) return undefined;
  let hi = parseInt(text.slice(0, 8), 16);
  let lo = parseInt(text.slice(8), 16);
  if (hi & 0x80000000) hi = (hi & 0x7fffffff) >>> 0;
  else {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  }
  const view = new DataView(new ArrayBuffer(8));
  view.setUint32(0, hi);
  view.setUint32(4, lo);
  const value = view.getFloat64(0);
  return Number.isFinite(value) && encodeFloat(value) === text ? value : undefined;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Date) return 'Date';
  return typeof value;
}

/**
 * The shard of an item: FNV-1a (32-bit) over the UTF-8 bytes of its `by` values — strings as
 * they are, numbers in JavaScript's shortest form, booleans as true/false, Dates as ISO-8601 UTC —
 * joined by U+0000, modulo `count`. The same values give the same shard on every platform and
 * version (golden vectors in codec.test.ts).
 */
export function shardOf(values: readonly unknown[], count: number): number {
  let hash = 0x811c9dc5;
  const text = values.map((v) => (v instanceof Date ? v.toISOString() : String(v))).join('\u0000');
  for (const byte of utf8Bytes(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash % count;
}

/** Digits of a shard suffix: the width of its largest value. */
export function shardWidth(segment: ShardSegmentDef): number {
  return String((segment.start ?? 0) + segment.count - 1).length;
}

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

/** The text of value segment `at` of a key, from an item's values: one kind's function (`stringPart`, `timestampPart`, …). */
export type KeyPart = (def: KeyTemplateDef, at: number, item: KeyValues | object) => string;

/** Any kind's text, the segment interpreted: what `keyPrefix` writes a part with. */
const anyPart: KeyPart = (def, at, item) => {
  const segment = def.segments[at] as ValueSegmentDef;
  return encodeSegment(def, segment, segmentValue(def, segment, item as KeyValues));
};

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

function readKey(def: KeyTemplateDef, key: string): { values: Record<string, unknown>; shard: number | undefined } {
  const { segments, delimiter, target } = def;
  const parts = def.escape === false ? key.split(delimiter) : splitKey(key, delimiter);
  if (!parts) throw new KeyParseError(target, key, `it has an escape "\\" not followed by "\\", "0" or "${delimiter}"`);
  if (parts.length !== segments.length) {
    throw new KeyParseError(target, key, `expected ${segments.length} segments, found ${parts.length}`);
  }
  const out: Record<string, unknown> = {};
  let shard: number | undefined;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if (segment.kind === 'literal') {
      if (part !== segment.text) throw new KeyParseError(target, key, `segment ${i + 1} is "${part}", expected "${segment.text}"`);
      continue;
    }
    const value = decodeSegment(def, segment, part);
    if (value === undefined && segment.kind === 'integer' && def.codecVersion !== 1 && isLegacyInteger(part, segment.min, segment.max)) {
      throw new KeyParseError(
        target,
        key,
        `segment ${i + 1} ("${part}") is an integer written by key codec v1 (the offset from min ${segment.min}); this code reads codec v${KEY_CODEC_VERSION}, which stores "${segment.attr}" as the value itself: rewrite the item with its v${KEY_CODEC_VERSION} key`,
        { codecVersion: 1 },
      );
    }
    if (value === undefined) throw new KeyParseError(target, key, `segment ${i + 1} ("${part}") is not a valid ${segment.kind} for "${segment.attr}"`);
    if (segment.kind === 'shard') shard = value as number;
    else out[segment.attr] = value;
  }
  return { values: out, shard };
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

/** `keyMatches`, part by part: what `keyShape`'s pattern stands for (public for its tests). */
export function keyMatchesBySegments(def: KeyTemplateDef, key: string): boolean {
  const { segments, delimiter } = def;
  const plain = def.escape === false || !key.includes(ESCAPE);
  let at = 0;
  for (let i = 0; i < segments.length; i++) {
    if (i > 0) {
      if (!key.startsWith(delimiter, at)) return false;
      at += delimiter.length;
    }
    const segment = segments[i]!;
    if (segment.kind === 'literal') {
      if (!key.startsWith(segment.text, at)) return false;
      at += segment.text.length;
      continue;
    }
    // the part runs to the next delimiter that is not escaped
    let end = plain ? key.indexOf(delimiter, at) : at;
    if (end === -1) end = key.length;
    let escaped = false;
    while (!plain && end < key.length && !key.startsWith(delimiter, end)) {
      if (key[end] !== ESCAPE) end++;
      else {
        const next = key[end + 1];
        if (next !== ESCAPE && next !== delimiter && next !== '0') return false;
        escaped = true;
        end += 2;
      }
    }
    if (end === at) return false;
    if (segment.kind !== 'string' || segment.prefix !== undefined || segment.suffix !== undefined) {
      const raw = key.slice(at, end);
      const part = escaped ? splitKey(raw, delimiter)![0]! : raw;
      if (!wellFormedPart(def, segment, part)) return false;
    }
    at = end;
  }
  return at === key.length;
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

/** A segment's text without its affixes, or undefined when it does not have them. */
function unaffixed(segment: ValueSegmentDef, written: string): string | undefined {
  if (segment.kind === 'shard' || (segment.prefix === undefined && segment.suffix === undefined)) return written;
  const prefix = segment.prefix ?? '';
  const suffix = segment.suffix ?? '';
  if (written.length < prefix.length + suffix.length || !written.startsWith(prefix) || !written.endsWith(suffix)) return undefined;
  return written.slice(prefix.length, written.length - suffix.length);
}

/** What `keyShape` checks of a part: a timestamp's text has its form (not that it names a valid instant), any other part decodes. */
function wellFormedPart(def: KeyTemplateDef, segment: ValueSegmentDef, written: string): boolean {
  if (segment.kind !== 'timestamp') return decodeSegment(def, segment, written) !== undefined;
  const part = unaffixed(segment, written);
  const casing = def.casing;
  return part !== undefined && (casing === undefined || part === fold(part, casing)) && TIMESTAMP_PATTERN[timestampForm(segment)].test(casing === undefined ? part : part.toUpperCase());
}

/** A segment's value from its (unescaped) text in the key, or undefined when the text is not one; affixes are stripped first. */
function decodeSegment(def: KeyTemplateDef, segment: ValueSegmentDef, written: string): unknown {
  const part = unaffixed(segment, written);
  const casing = def.casing;
  // a folded key holds folded enum, boolean and timestamp text only (`ACTIVE` is no value of a lower-cased key); a string part is any text
  if (part === undefined || (casing !== undefined && (segment.kind === 'enum' || segment.kind === 'boolean' || segment.kind === 'timestamp') && part !== fold(part, casing))) return undefined;
  switch (segment.kind) {
    case 'string':
      return part === '' ? undefined : part;
    case 'enum':
      return casing === undefined ? (segment.values.includes(part) ? part : undefined) : segment.values.find((v) => fold(v, casing) === part);
    case 'integer':
      if (segment.plain) {
        if (!/^-?(0|[1-9]\d*)$/.test(part) || part === '-0') return undefined;
        const value = Number(part);
        return Number.isSafeInteger(value) && value >= segment.min && value <= segment.max ? value : undefined;
      }
      return def.codecVersion === 1 ? decodeLegacyInteger(part, segment.min, segment.max) : decodeInteger(part, segment.min, segment.max, def.delimiter);
    case 'float': {
      const value = decodeFloat(part);
      return value !== undefined && value >= segment.min && value <= segment.max ? value : undefined;
    }
    case 'timestamp': {
      const text = casing === undefined ? part : part.toUpperCase();
      return segment.format === undefined ? decodeTimestamp(text, segment.unit) : decodeTimestampAs(text, segment.unit, segment.format);
    }
    case 'boolean': {
      const text = casing === undefined ? part : part.toLowerCase();
      return text === 'true' ? true : text === 'false' ? false : undefined;
    }
    case 'shard': {
      const start = segment.start ?? 0;
      return part.length === shardWidth(segment) && /^\d+$/.test(part) && Number(part) >= start && Number(part) < start + segment.count ? Number(part) : undefined;
    }
  }
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
