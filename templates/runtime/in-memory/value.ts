// Attribute values as DynamoDB holds them, for the in-memory table (table.ts): the
// DocumentClient's conversion of JavaScript values to attribute values and back (the same rules
// and error messages as @aws-sdk/util-dynamodb's marshall / unmarshall with default options),
// numbers as exact decimals (38 significant digits, magnitudes 1E-130 to below 1E+126, as DynamoDB
// stores them, so 0.1 + 0.2 is 0.3), DynamoDB's orders (strings by UTF-8 bytes, numbers by value,
// binary by bytes) and an item's size as DynamoDB counts it.

import { compareUtf8 } from '../codec.js';
import { numberBytes, stringBytes } from '../item-size.js';

export type AttributeValue =
  | { readonly S: string }
  | { readonly N: string }
  | { readonly B: Uint8Array }
  | { readonly BOOL: boolean }
  | { readonly NULL: true }
  | { readonly SS: readonly string[] }
  | { readonly NS: readonly string[] }
  | { readonly BS: readonly Uint8Array[] }
  | { readonly L: readonly AttributeValue[] }
  | { readonly M: Readonly<Record<string, AttributeValue>> };

export type AttributeMap = Record<string, AttributeValue>;

export type ValueType = 'S' | 'N' | 'B' | 'BOOL' | 'NULL' | 'SS' | 'NS' | 'BS' | 'L' | 'M';

/** An error DynamoDB answers a request with: its name (ValidationException, …), message and what it carries (`Item`, `CancellationReasons`, …). */
export class RequestError extends Error {
  readonly type: string;
  readonly carries: Readonly<Record<string, unknown>>;
  constructor(type: string, message: string, carries: Readonly<Record<string, unknown>> = {}) {
    super(message);
    this.type = type;
    this.carries = carries;
  }
}

export const validation = (message: string) => new RequestError('ValidationException', message);

/** The type of an attribute value. */
export function typeOf(value: AttributeValue): ValueType {
  const v = value as Partial<Record<ValueType, unknown>>;
  if (v.S !== undefined) return 'S';
  if (v.N !== undefined) return 'N';
  if (v.M !== undefined) return 'M';
  if (v.L !== undefined) return 'L';
  if (v.BOOL !== undefined) return 'BOOL';
  if (v.NULL !== undefined) return 'NULL';
  if (v.SS !== undefined) return 'SS';
  if (v.NS !== undefined) return 'NS';
  if (v.B !== undefined) return 'B';
  return 'BS';
}

// ---------------------------------------------------------------------------------------------
// Numbers: sign × digits × 10^exponent, digits without trailing zeros (0 is digits 0n, exponent 0).

export interface Decimal {
  readonly negative: boolean;
  readonly digits: bigint;
  readonly exponent: number;
}

const NUMBER = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const ZERO: Decimal = { negative: false, digits: 0n, exponent: 0 };

function normalized(negative: boolean, digits: bigint, exponent: number): Decimal {
  if (digits === 0n) return ZERO;
  while (digits % 10n === 0n) {
    digits /= 10n;
    exponent++;
  }
  return { negative, digits, exponent };
}

const digitCount = (digits: bigint) => (digits === 0n ? 1 : digits.toString().length);

/** A number as DynamoDB reads an N: ValidationException when it is not a number or out of range. */
export function parseDecimal(text: string): Decimal {
  const match = NUMBER.exec(text.trim());
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw validation('A value provided cannot be converted into a number');
  const [, sign, whole = '', fraction = '', power = '0'] = match;
  const decimal = normalized(sign === '-', BigInt(whole + fraction || '0'), Number(power) - fraction.length);
  return checkRange(decimal);
}

/** DynamoDB's limits on a number: 38 significant digits, magnitude from 1E-130 to below 1E+126. */
export function checkRange(decimal: Decimal): Decimal {
  if (decimal.digits === 0n) return decimal;
  const count = digitCount(decimal.digits);
  if (count > 38) throw validation('Attempting to store more than 38 significant digits in a Number');
  const magnitude = count - 1 + decimal.exponent; // the power of ten of the leading digit
  if (magnitude > 125) throw validation('Number overflow. Attempting to store a number with magnitude larger than supported range');
  if (magnitude < -130) throw validation('Number underflow. Attempting to store a number with magnitude smaller than supported range');
  return decimal;
}

/** The text of a number: plain decimal notation, as DynamoDB returns it. */
export function formatDecimal(d: Decimal): string {
  if (d.digits === 0n) return '0';
  let text = d.digits.toString();
  if (d.exponent >= 0) text += '0'.repeat(d.exponent);
  else {
    const point = text.length + d.exponent;
    text = point > 0 ? `${text.slice(0, point)}.${text.slice(point)}` : `0.${'0'.repeat(-point)}${text}`;
  }
  return d.negative ? `-${text}` : text;
}

/** a − b's sign, by value. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  const sa = a.digits === 0n ? 0 : a.negative ? -1 : 1;
  const sb = b.digits === 0n ? 0 : b.negative ? -1 : 1;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const exponent = Math.min(a.exponent, b.exponent);
  const x = a.digits * 10n ** BigInt(a.exponent - exponent);
  const y = b.digits * 10n ** BigInt(b.exponent - exponent);
  const c = x === y ? 0 : x < y ? -1 : 1;
  return sa < 0 ? -c : c;
}

/** a + b exactly, checked against DynamoDB's range and precision. */
export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const exponent = Math.min(a.exponent, b.exponent);
  const x = (a.negative ? -1n : 1n) * a.digits * 10n ** BigInt(a.exponent - exponent);
  const y = (b.negative ? -1n : 1n) * b.digits * 10n ** BigInt(b.exponent - exponent);
  const sum = x + y;
  return checkRange(normalized(sum < 0n, sum < 0n ? -sum : sum, exponent));
}

export const negateDecimal = (d: Decimal): Decimal => (d.digits === 0n ? d : { ...d, negative: !d.negative });

/** The canonical text of an N as given: the same number always has the same text. */
export const canonicalNumber = (text: string) => formatDecimal(parseDecimal(text));

// ---------------------------------------------------------------------------------------------
// The DocumentClient's conversions.

/** A NumberValue of @aws-sdk/lib-dynamodb (or anything else that holds a number as text). */
interface NumberLike {
  readonly value: string;
  toAttributeValue(): { N: string };
}

const isNumberValue = (data: object): data is NumberLike => typeof (data as Partial<NumberLike>).toAttributeValue === 'function' && typeof (data as Partial<NumberLike>).value === 'string';

const BINARY = new Set(['ArrayBuffer', 'Buffer', 'DataView', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']);

function bytesOf(data: object): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data as ArrayBuffer);
}

function numberText(num: number): string {
  if (Number.isNaN(num) || !Number.isFinite(num)) throw new Error(`Special numeric value ${num.toString()} is not allowed`);
  if (num > Number.MAX_SAFE_INTEGER) throw new Error(`Number ${num.toString()} is greater than Number.MAX_SAFE_INTEGER. Use NumberValue from @aws-sdk/lib-dynamodb.`);
  if (num < Number.MIN_SAFE_INTEGER) throw new Error(`Number ${num.toString()} is lesser than Number.MIN_SAFE_INTEGER. Use NumberValue from @aws-sdk/lib-dynamodb.`);
  return num.toString();
}

const UNDEFINED_VALUE = 'Pass options.removeUndefinedValues=true to remove undefined values from map/array/set.';

/**
 * A JavaScript value as the DocumentClient sends it (marshall with default options); numbers are
 * checked and kept as their canonical text (`number`: the text the SDK sends, as it is, for a
 * check of the DocumentClient's own errors alone). Throws the DocumentClient's own errors.
 */
export function marshallValue(data: unknown, number: (text: string) => string = canonicalNumber): AttributeValue {
  if (data === undefined) throw new Error(UNDEFINED_VALUE);
  if (data === null) return { NULL: true };
  if (typeof data === 'string') return { S: data };
  if (typeof data === 'number') return { N: number(numberText(data)) };
  if (typeof data === 'boolean') return { BOOL: data };
  if (typeof data === 'bigint') return { N: number(data.toString()) };
  if (Array.isArray(data)) return { L: data.filter((item) => typeof item !== 'function').map((item) => marshallValue(item, number)) };
  if (typeof data !== 'object') throw new Error(`Unsupported type passed: ${String(data)}. Pass options.convertClassInstanceToMap=true to marshall typeof object as map attribute.`);
  const kind = (data as { constructor?: { name?: string } }).constructor?.name;
  if (kind === 'Set') return marshallSet(data as ReadonlySet<unknown>, number);
  if (kind === 'Map') {
    const map: AttributeMap = {};
    for (const [key, value] of data as ReadonlyMap<string, unknown>) if (typeof value !== 'function') map[key] = marshallValue(value, number);
    return { M: map };
  }
  if (kind === 'Object' || kind === undefined) return { M: marshallMap(data as Record<string, unknown>, number) };
  if (kind !== undefined && BINARY.has(kind)) return { B: bytesOf(data) };
  if (kind === 'Boolean') return { BOOL: (data as unknown as boolean).valueOf() };
  if (kind === 'Number') return { N: number(numberText((data as unknown as number).valueOf())) };
  if (kind === 'String') return { S: (data as unknown as string).toString() };
  if (isNumberValue(data)) return { N: number(data.toAttributeValue().N) };
  throw new Error(`Unsupported type passed: ${String(data)}. Pass options.convertClassInstanceToMap=true to marshall typeof object as map attribute.`);
}

function marshallSet(set: ReadonlySet<unknown>, number: (text: string) => string): AttributeValue {
  if (set.has(undefined)) throw new Error(UNDEFINED_VALUE);
  if (set.size === 0) throw new Error('Pass a non-empty set, or options.convertEmptyValues=true.');
  const first = set.values().next().value as unknown;
  const all = [...set];
  if (typeof first === 'number') return sortedSet({ NS: all.map((n) => number(numberText(n as number))) });
  if (typeof first === 'bigint') return sortedSet({ NS: all.map((n) => number(String(n))) });
  if (typeof first === 'string') return sortedSet({ SS: all.map((s) => String(s)) });
  if (typeof first === 'object' && first !== null && isNumberValue(first)) return sortedSet({ NS: all.map((n) => number((n as NumberLike).value)) });
  if (typeof first === 'object' && first !== null && BINARY.has((first as { constructor?: { name?: string } }).constructor?.name ?? '')) return sortedSet({ BS: all.map((b) => bytesOf(b as object)) });
  throw new Error('Only Number Set (NS), Binary Set (BS) or String Set (SS) are allowed.');
}

/** A set with its elements in the order DynamoDB Local keeps them: strings by UTF-16 units, numbers by value, bytes by bytes. */
export function sortedSet<V extends AttributeValue>(set: V): V {
  const v = set as Partial<Record<ValueType, unknown[]>>;
  if (v.SS) return { SS: [...(v.SS as string[])].sort() } as unknown as V;
  if (v.NS) return { NS: [...(v.NS as string[])].sort((a, b) => compareDecimal(parseDecimal(a), parseDecimal(b))) } as unknown as V;
  if (v.BS) return { BS: [...(v.BS as Uint8Array[])].sort(compareBytes) } as unknown as V;
  return set;
}

/** An item or key as the DocumentClient sends it. */
export function marshallMap(data: Readonly<Record<string, unknown>>, number: (text: string) => string = canonicalNumber): AttributeMap {
  const map: AttributeMap = {};
  for (const key in data) {
    const value = data[key];
    if (typeof value !== 'function') map[key] = marshallValue(value, number);
  }
  return map;
}

/** The text the SDK sends a number in, unchecked: for finding the DocumentClient's own errors alone. */
export const sentNumber = (text: string): string => text;

/** The text an expression's number was given in, where DynamoDB's messages print it as given (`{N:1e5}`). */
const givenTexts = new WeakMap<AttributeValue, string>();

/** The text a value was given in, when it is an expression's number: else undefined. */
export const givenText = (value: AttributeValue): string | undefined => givenTexts.get(value);

/**
 * ExpressionAttributeValues as the DocumentClient sends them, checked as DynamoDB checks them: an
 * invalid number is named with its placeholder ("… for key :v0"), and each number keeps the text
 * it was given in for messages.
 */
export function marshallExpressionValues(values: Readonly<Record<string, unknown>>): AttributeMap {
  const map: AttributeMap = {};
  for (const name in values) {
    const value = values[name];
    if (typeof value === 'function') continue;
    try {
      map[name] = marshallValue(value);
    } catch (error) {
      if (error instanceof RequestError) throw validation(`ExpressionAttributeValues contains invalid value: ${error.message} for key ${name}`);
      throw error;
    }
    const given = marshallValue(value, sentNumber) as { readonly N?: string };
    if (given.N !== undefined) givenTexts.set(map[name]!, given.N);
  }
  return map;
}

function nativeNumber(text: string): number | bigint {
  const num = Number(text);
  if ((num > Number.MAX_SAFE_INTEGER || num < Number.MIN_SAFE_INTEGER) && Number.isFinite(num)) {
    try {
      return BigInt(text);
    } catch {
      throw new Error(`${text} can't be converted to BigInt. Set options.wrapNumbers to get string value.`);
    }
  }
  return num;
}

/** An attribute value as the DocumentClient returns it (unmarshall with default options). */
export function unmarshallValue(value: AttributeValue): unknown {
  const v = value as Partial<Record<ValueType, unknown>>;
  if (v.S !== undefined) return v.S;
  if (v.N !== undefined) return nativeNumber(v.N as string);
  if (v.M !== undefined) return unmarshallMap(v.M as AttributeMap);
  if (v.L !== undefined) return (v.L as AttributeValue[]).map(unmarshallValue);
  if (v.BOOL !== undefined) return v.BOOL;
  if (v.NULL !== undefined) return null;
  if (v.SS !== undefined) return new Set(v.SS as string[]);
  if (v.NS !== undefined) return new Set((v.NS as string[]).map(nativeNumber));
  if (v.B !== undefined) return copyBytes(v.B as Uint8Array);
  return new Set((v.BS as Uint8Array[]).map(copyBytes));
}

const copyBytes = (bytes: Uint8Array) => new Uint8Array(bytes);

export function unmarshallMap(map: Readonly<AttributeMap>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in map) out[key] = unmarshallValue(map[key]!);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Order, equality and size.

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}

/** The order of two scalar values of one type (S, N or B), as DynamoDB sorts and compares them. */
export function compareScalars(a: AttributeValue, b: AttributeValue): number {
  const x = a as Partial<Record<ValueType, unknown>>;
  const y = b as Partial<Record<ValueType, unknown>>;
  if (x.S !== undefined) return compareUtf8(x.S as string, y.S as string);
  if (x.N !== undefined) return x.N === y.N ? 0 : compareDecimal(parseDecimal(x.N as string), parseDecimal(y.N as string));
  return compareBytes(x.B as Uint8Array, y.B as Uint8Array);
}

function sameMembers<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  return a.length === b.length && a.every((x) => b.some((y) => same(x, y)));
}

/** Whether two values are equal as DynamoDB compares them: same type and value; sets in any order. */
export function equalValues(a: AttributeValue, b: AttributeValue): boolean {
  const type = typeOf(a);
  if (type !== typeOf(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  switch (type) {
    case 'S':
    case 'BOOL':
    case 'NULL':
      return x[type] === y[type];
    case 'N':
    case 'B':
      return compareScalars(a, b) === 0;
    case 'SS':
      return sameMembers(x.SS as string[], y.SS as string[], (p, q) => p === q);
    case 'NS':
      return sameMembers(x.NS as string[], y.NS as string[], (p, q) => compareDecimal(parseDecimal(p), parseDecimal(q)) === 0);
    case 'BS':
      return sameMembers(x.BS as Uint8Array[], y.BS as Uint8Array[], (p, q) => compareBytes(p, q) === 0);
    case 'L': {
      const p = x.L as AttributeValue[];
      const q = y.L as AttributeValue[];
      return p.length === q.length && p.every((v, i) => equalValues(v, q[i]!));
    }
    case 'M': {
      const p = x.M as AttributeMap;
      const q = y.M as AttributeMap;
      const keys = Object.keys(p);
      return keys.length === Object.keys(q).length && keys.every((k) => q[k] !== undefined && equalValues(p[k]!, q[k]!));
    }
  }
}

export function equalMaps(a: Readonly<AttributeMap>, b: Readonly<AttributeMap>): boolean {
  return equalValues({ M: a }, { M: b });
}

/** A value's size as DynamoDB counts it (item-size.ts: numbers by pairs of digits, strings in UTF-8). */
export function valueSize(value: AttributeValue): number {
  const v = value as Partial<Record<ValueType, unknown>>;
  if (v.S !== undefined) return stringBytes(v.S as string);
  if (v.N !== undefined) return numberBytes(v.N as string);
  if (v.B !== undefined) return (v.B as Uint8Array).length;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.SS !== undefined) return (v.SS as string[]).reduce((sum, s) => sum + stringBytes(s), 0);
  if (v.NS !== undefined) return (v.NS as string[]).reduce((sum, n) => sum + numberBytes(n), 0);
  if (v.BS !== undefined) return (v.BS as Uint8Array[]).reduce((sum, b) => sum + b.length, 0);
  if (v.L !== undefined) return (v.L as AttributeValue[]).reduce((sum, e) => sum + valueSize(e) + 1, 3);
  let total = 3;
  const map = v.M as AttributeMap;
  for (const name in map) total += stringBytes(name) + valueSize(map[name]!) + 1;
  return total;
}

/** An item's size: every attribute's name and value. */
export function itemBytes(item: Readonly<AttributeMap>): number {
  let total = 0;
  for (const name in item) total += stringBytes(name) + valueSize(item[name]!);
  return total;
}

/** A deep copy, so what a caller holds never aliases what the table stores. */
export function copyValue(value: AttributeValue): AttributeValue {
  const v = value as Partial<Record<ValueType, unknown>>;
  if (v.M !== undefined) return { M: copyMap(v.M as AttributeMap) };
  if (v.L !== undefined) return { L: (v.L as AttributeValue[]).map(copyValue) };
  if (v.B !== undefined) return { B: copyBytes(v.B as Uint8Array) };
  if (v.SS !== undefined) return { SS: [...(v.SS as string[])] };
  if (v.NS !== undefined) return { NS: [...(v.NS as string[])] };
  if (v.BS !== undefined) return { BS: (v.BS as Uint8Array[]).map(copyBytes) };
  return value;
}

export function copyMap(map: Readonly<AttributeMap>): AttributeMap {
  const out: AttributeMap = {};
  for (const name in map) out[name] = copyValue(map[name]!);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Attribute values as DynamoDB's low-level API carries them, for the in-memory table's low-level
// path (`InMemoryDynamoDB.request`, what `ddbgen local` serves): each value checked as DynamoDB
// checks it (exactly one type, numbers within 38 digits and DynamoDB's range, sets not empty and
// without duplicates, NULL true) and copied, numbers kept exactly in their canonical text, binary
// given as bytes or as base64 text (the JSON protocol's form).

const WIRE_TYPES = ['S', 'N', 'B', 'SS', 'NS', 'BS', 'M', 'L', 'NULL', 'BOOL'] as const;

const invalidParameter = (detail: string) => validation(`One or more parameter values were invalid: ${detail}`);

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

function wireBytes(given: unknown): Uint8Array {
  if (given instanceof Uint8Array) return new Uint8Array(given);
  if (typeof given === 'string') return fromBase64(given);
  throw validation('Invalid Binary value: expected base64 text');
}

function noDuplicates<T>(values: readonly T[], same: (a: T, b: T) => boolean, text: (value: T) => string): void {
  for (let i = 1; i < values.length; i++) {
    for (let j = 0; j < i; j++) if (same(values[i]!, values[j]!)) throw invalidParameter(`Input collection [${values.map(text).join(', ')}] contains duplicates.`);
  }
}

/** One attribute value as the low-level API sends it, checked and copied (numbers in canonical text). */
export function wireValue(given: unknown): AttributeValue {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw validation('Supplied AttributeValue is empty, must contain exactly one of the supported datatypes');
  const set = WIRE_TYPES.filter((type) => (given as Record<string, unknown>)[type] !== undefined && (given as Record<string, unknown>)[type] !== null);
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
      return { B: wireBytes(value) };
    case 'BOOL':
      return { BOOL: value === true || value === 'true' };
    case 'NULL':
      if (value !== true && value !== 'true') throw invalidParameter('Null attribute value types must have the value of true');
      return { NULL: true };
    case 'SS': {
      const list = value as unknown[];
      if (!Array.isArray(list) || list.length === 0) throw invalidParameter('An string set  may not be empty');
      const texts = list.map(String);
      noDuplicates(texts, (a, b) => a === b, String);
      return sortedSet({ SS: texts });
    }
    case 'NS': {
      const list = value as unknown[];
      if (!Array.isArray(list) || list.length === 0) throw invalidParameter('An number set  may not be empty');
      const texts = list.map((n) => canonicalNumber(String(n)));
      noDuplicates(texts, (a, b) => compareDecimal(parseDecimal(a), parseDecimal(b)) === 0, String);
      return sortedSet({ NS: texts });
    }
    case 'BS': {
      const list = value as unknown[];
      if (!Array.isArray(list) || list.length === 0) throw invalidParameter('Binary sets should not be empty');
      const all = list.map(wireBytes);
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

/** ExpressionAttributeValues as the low-level API sends them: checked, an invalid one named by its placeholder, each number keeping the text it was given in for messages. */
export function wireExpressionValues(given: Readonly<Record<string, unknown>>): AttributeMap {
  const map: AttributeMap = {};
  for (const name of Object.keys(given ?? {})) {
    try {
      map[name] = wireValue(given[name]);
    } catch (error) {
      if (error instanceof RequestError && error.message.startsWith('One or more parameter values were invalid')) throw error;
      if (error instanceof RequestError) throw validation(`ExpressionAttributeValues contains invalid value: ${error.message} for key ${name}`);
      throw error;
    }
    const text = (given[name] as { N?: unknown } | undefined)?.N;
    if (text !== undefined) givenTexts.set(map[name]!, String(text));
  }
  return map;
}

/** An item, key or map of values as the low-level API sends it, each value checked and copied. */
export function wireMap(given: Readonly<Record<string, unknown>>): AttributeMap {
  const map: AttributeMap = {};
  if (typeof given !== 'object' || given === null) return map;
  for (const name of Object.keys(given)) map[name] = wireValue(given[name]);
  return map;
}
