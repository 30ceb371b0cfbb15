// Attribute values as DynamoDB's low-level API carries them, for the in-memory table's low-level
// path (`InMemoryDynamoDB.request`, what `ddbgen local` serves): each value checked as DynamoDB
// checks it (exactly one type, numbers within 38 digits and DynamoDB's range, sets not empty and
// without duplicates, NULL true) and copied, numbers kept exactly in their canonical text, binary
// given as bytes or as base64 text (the JSON protocol's form).

import { canonicalNumber, compareBytes, compareDecimal, parseDecimal, sortedSet, validation, type AttributeMap, type AttributeValue } from './in-memory-value.js';

const TYPES = ['S', 'N', 'B', 'SS', 'NS', 'BS', 'M', 'L', 'NULL', 'BOOL'] as const;

const invalid = (detail: string) => validation(`One or more parameter values were invalid: ${detail}`);

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 text (standard alphabet, padding optional) as bytes. */
function fromBase64(text: string): Uint8Array {
  const digits = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((digits.length * 3) / 4));
  let bits = 0;
  let buffer = 0;
  let at = 0;
  for (const char of digits) {
    const digit = BASE64.indexOf(char);
    if (digit < 0) throw validation('Invalid Binary value: it is not base64 text');
    buffer = (buffer << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}

function bytes(given: unknown): Uint8Array {
  if (given instanceof Uint8Array) return new Uint8Array(given);
  if (typeof given === 'string') return fromBase64(given);
  throw validation('Invalid Binary value: expected base64 text');
}

function noDuplicates<T>(values: readonly T[], same: (a: T, b: T) => boolean, text: (value: T) => string): void {
  for (let i = 1; i < values.length; i++) {
    for (let j = 0; j < i; j++) if (same(values[i]!, values[j]!)) throw invalid(`Input collection [${values.map(text).join(', ')}] contains duplicates.`);
  }
}

/** One attribute value as the low-level API sends it, checked and copied (numbers in canonical text). */
export function wireValue(given: unknown): AttributeValue {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw validation('Supplied AttributeValue is empty, must contain exactly one of the supported datatypes');
  const set = TYPES.filter((type) => (given as Record<string, unknown>)[type] !== undefined && (given as Record<string, unknown>)[type] !== null);
  if (set.length === 0) throw validation('Supplied AttributeValue is empty, must contain exactly one of the supported datatypes');
  if (set.length > 1) throw validation('Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes');
  const type = set[0]!;
  const value = (given as Record<string, unknown>)[type];
  switch (type) {
    case 'S':
      if (typeof value !== 'string') throw validation('Invalid String value: expected a string');
      return { S: value };
    case 'N':
      return { N: canonicalNumber(String(value)) };
    case 'B':
      return { B: bytes(value) };
    case 'BOOL':
      return { BOOL: value === true || value === 'true' };
    case 'NULL':
      if (value !== true && value !== 'true') throw invalid('Null attribute value types must have the value of true');
      return { NULL: true };
    case 'SS': {
      const list = value as unknown[];
      if (!Array.isArray(list) || list.length === 0) throw invalid('An string set  may not be empty');
      const texts = list.map(String);
      noDuplicates(texts, (a, b) => a === b, String);
      return sortedSet({ SS: texts });
    }
    case 'NS': {
      const list = value as unknown[];
      if (!Array.isArray(list) || list.length === 0) throw invalid('An number set  may not be empty');
      const texts = list.map((n) => canonicalNumber(String(n)));
      noDuplicates(texts, (a, b) => compareDecimal(parseDecimal(a), parseDecimal(b)) === 0, String);
      return sortedSet({ NS: texts });
    }
    case 'BS': {
      const list = value as unknown[];
      if (!Array.isArray(list) || list.length === 0) throw invalid('Binary sets should not be empty');
      const all = list.map(bytes);
      noDuplicates(all, (a, b) => compareBytes(a, b) === 0, (b) => `[${b.join(', ')}]`);
      return sortedSet({ BS: all });
    }
    case 'L':
      if (!Array.isArray(value)) throw validation('Invalid List value: expected a list');
      return { L: value.map(wireValue) };
    case 'M':
      return { M: wireMap(value as Record<string, unknown>) };
  }
}

/** An item, key or map of values as the low-level API sends it, each value checked and copied. */
export function wireMap(given: Readonly<Record<string, unknown>>): AttributeMap {
  const map: AttributeMap = {};
  if (typeof given !== 'object' || given === null) return map;
  for (const name of Object.keys(given)) map[name] = wireValue(given[name]);
  return map;
}
