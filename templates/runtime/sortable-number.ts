// Numbers as sortable text: integers of a declared range as fixed-width digits whose text order is
// numeric order (and how key codec v1 wrote them), finite doubles as 16 ordered hex digits.

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
