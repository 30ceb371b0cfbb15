// An item's size as DynamoDB counts it (UTF-8 names and values; numbers by significant digits; 3
// bytes of overhead and 1 per element for lists and maps), so oversize items are refused before a
// request is sent rather than by the service. DynamoDB documents a number's size as about 1 byte per
// two significant digits plus 1; the exact figures below are DynamoDB Local's, measured at the 1 KB
// write-unit and 400 KB boundaries (docs/guide/testing.md): the digits are counted in pairs aligned
// on the decimal point (base 100: 15 is one pair, 1.5 is two, 01|50), plus 1 byte, plus 1 more for a
// negative number of fewer than 20 pairs (21 bytes at most); zero is 1 byte. A lone UTF-16 surrogate, which has no UTF-8 form, counts 1 byte
// (DynamoDB Local stores and returns it, and counts it as the '?' its UTF-8 encoder writes).

/** DynamoDB's item size limit: 400 KB. */
export const MAX_ITEM_BYTES = 400 * 1024;

/** The most pairs of digits a number takes (38 significant digits, as DynamoDB allows, misaligned). */
const MAX_PAIRS = 20;
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** The bytes a number counts for, from its decimal text (sign, digits, point, exponent). */
export function numberBytes(text: string): number {
  const match = DECIMAL.exec(text);
  if (!match) return 1;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  const digits = whole + fraction;
  const first = digits.search(/[1-9]/);
  if (first === -1) return 1;
  let last = digits.length - 1;
  while (digits[last] === '0') last--;
  // the power of ten of the first and last significant digits; a pair holds powers 2k + 1 and 2k
  const power = (index: number) => whole.length - 1 - index + Number(exponent);
  const pairs = Math.floor(power(first) / 2) - Math.floor(power(last) / 2) + 1;
  return pairs + 1 + (sign === '-' && pairs < MAX_PAIRS ? 1 : 0);
}

function numberSize(value: number | bigint): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    // the same count without the text: powers of ten of the last and first significant digits
    if (value === 0) return 1;
    let n = Math.abs(value);
    let low = 0;
    while (n % 10 === 0) {
      n /= 10;
      low++;
    }
    let high = low;
    while (n >= 10) {
      n = Math.floor(n / 10);
      high++;
    }
    // a safe integer has at most 16 digits: 8 pairs, below MAX_PAIRS
    return Math.floor(high / 2) - Math.floor(low / 2) + 2 + (value < 0 ? 1 : 0);
  }
  return numberBytes(String(value));
}

/** A string's bytes as DynamoDB counts them: UTF-8, and 1 for a lone surrogate. */
export function stringBytes(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c < 0xd800 || c > 0xdfff) bytes += 3;
    else if (c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      bytes += 4;
      i++;
    } else bytes += 1;
  }
  return bytes;
}

/** Size of one stored value (after conversion: timestamps are strings by then). */
export function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberSize(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) {
    let total = 0;
    for (const element of value) total += valueSize(element);
    return total;
  }
  if (Array.isArray(value)) {
    let total = 3;
    for (const element of value) total += valueSize(element) + 1;
    return total;
  }
  if (typeof value === 'object') {
    let total = 3;
    for (const [name, element] of Object.entries(value)) if (element !== undefined) total += stringBytes(name) + valueSize(element) + 1;
    return total;
  }
  return stringBytes(String(value));
}

/**
 * A cheap upper bound of `itemSize` for flat records of strings, numbers and booleans (3 bytes per
 * UTF-16 unit covers every character), or undefined when the record holds anything else.
 */
export function itemSizeBound(record: Readonly<Record<string, unknown>>): number | undefined {
  let total = 0;
  for (const name in record) {
    const value = record[name];
    if (typeof value === 'string') total += 3 * (name.length + value.length);
    else if (typeof value === 'number' || typeof value === 'boolean') total += 3 * name.length + 21;
    else if (value !== undefined) return undefined;
  }
  return total;
}

/** Size of a stored record: every attribute's name plus its value. */
export function itemSize(record: Readonly<Record<string, unknown>>): number {
  let total = 0;
  for (const [name, value] of Object.entries(record)) if (value !== undefined) total += stringBytes(name) + valueSize(value);
  return total;
}
