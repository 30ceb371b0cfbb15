// An item's size as DynamoDB counts it (UTF-8 names and values; numbers by significant digits; 3
// bytes of overhead and 1 per element for lists and maps), so oversize items are refused before a
// request is sent rather than by the service.

import { utf8ByteLength } from './codec.js';

/** DynamoDB's item size limit: 400 KB. */
export const MAX_ITEM_BYTES = 400 * 1024;

function numberSize(value: number | bigint): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    let n = Math.abs(value);
    while (n !== 0 && n % 10 === 0) n /= 10;
    let digits = 1;
    while (n >= 10) {
      n = Math.floor(n / 10);
      digits++;
    }
    return Math.ceil(digits / 2) + 1;
  }
  const digits = String(value).replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

/** Size of one stored value (after conversion: timestamps are strings by then). */
export function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8ByteLength(value);
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
    for (const [name, element] of Object.entries(value)) if (element !== undefined) total += utf8ByteLength(name) + valueSize(element) + 1;
    return total;
  }
  return utf8ByteLength(String(value));
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
  for (const [name, value] of Object.entries(record)) if (value !== undefined) total += utf8ByteLength(name) + valueSize(value);
  return total;
}
