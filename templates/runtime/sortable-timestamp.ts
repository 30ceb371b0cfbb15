// Timestamps as sortable text: fixed-width UTC ISO-8601 truncated to a unit (so text order is time
// order), the stored formats of other writers (ISO seconds, epoch digits), the patterns of each form,
// and reading ISO text back to a Date quickly.

import { regexText } from './key-escape.js';

export type TimestampUnit = 'millisecond' | 'second' | 'minute' | 'hour' | 'day' | 'month';

/**
 * How a timestamp segment is written when not in ddbgen's ISO form for its unit: `iso-seconds`
 * (`2024-01-05T10:00:00Z`), or the instant's epoch seconds or milliseconds (10 or 13 digits, so
 * keys of 2001-09-09..2286-11-20 stay fixed-width and in order; others are refused).
 */
export type TimestampKeyFormat = 'iso-seconds' | 'epoch-seconds' | 'epoch-milliseconds';

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
export function timestampSource(form: TimestampUnit | TimestampKeyFormat, literal: (ch: string) => string): string {
  return TIMESTAMP_FORM[form].replace(/9+|[^9]/g, (run) => (run[0] === '9' ? `\\d{${run.length}}` : literal(run)));
}

/** The text of a timestamp segment per unit or stored format (before escaping). */
export const TIMESTAMP_PATTERN: Readonly<Record<TimestampUnit | TimestampKeyFormat, RegExp>> = /* @__PURE__ */ Object.fromEntries(
  /* @__PURE__ */ (Object.keys(TIMESTAMP_FORM) as TimestampUnit[]).map((unit) => [unit, new RegExp(`^${timestampSource(unit, regexText)}$`)]),
) as Record<TimestampUnit | TimestampKeyFormat, RegExp>;

/** The earliest and latest instants an epoch key part holds at its fixed width (10 digits of seconds, 13 of milliseconds). */
export const EPOCH_KEY_RANGE = { earliest: 1e12, latest: 1e13 - 1 } as const;

const TIMESTAMP_SUFFIX: Record<TimestampUnit, string> = {
  millisecond: '',
  second: '.000Z',
  minute: ':00.000Z',
  hour: ':00:00.000Z',
  day: 'T00:00:00.000Z',
  month: '-01T00:00:00.000Z',
};
/**
 * Earliest and latest instants with a 4-digit year (0000-01-01T00:00:00.000Z, 9999-12-31T23:59:59.999Z):
 * outside them toISOString() is not fixed width. Written as numbers, so loading the module computes nothing.
 */
export const EARLIEST = -62167219200000;
export const LATEST = 253402300799999;

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
