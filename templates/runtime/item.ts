// Conversion between an entity's item type and its stored form. Timestamps are `Date` in the API
// and fixed-width UTC ISO-8601 strings in the table (truncated to a declared unit on every write),
// except the table's TTL attribute, stored as epoch seconds (a number, as DynamoDB's time to live
// reads it); an empty set is stored as no attribute (DynamoDB
// has no empty sets); everything else is stored as the DocumentClient marshals it. Key attributes
// are added on write and removed on read.
//
// Prototype safety: only own properties are read (never `for…in`, never `codecs[name]` without an
// own-property check); `__proto__`, `constructor` and `prototype` are refused as attribute names
// anywhere in a written value, and skipped when read. A write names only declared attributes
// (unless the entity is `passthrough`); a read keeps only declared ones and never throws on others.

import { isoDate, isoString, truncateTimestamp } from './codec.js';
import { ValidationError } from './errors.js';
import { utf8Bytes } from './hmac.js';
import type { PiiFingerprint } from './pii-fingerprint.js';

type TimestampUnit = 'second' | 'minute' | 'hour' | 'day' | 'month';

/**
 * A timestamp stored as another writer stored it (`t.timestamp({ format })`): ISO text without
 * milliseconds (`2024-01-05T10:00:00Z`), the date alone (`2024-01-05`), or a number of seconds or
 * milliseconds since the epoch.
 */
export type StoredTimestampFormat = 'iso-seconds' | 'date' | 'epoch-seconds' | 'epoch-milliseconds';

/**
 * How an attribute is converted; attributes stored as-is are not listed. `{ timestamp: unit }`
 * truncates on write; `{ epochSeconds: unit }` is the TTL attribute, stored as whole seconds since
 * the epoch (after truncating to the unit, `second` at least); `{ format }` a timestamp in another
 * writer's stored form (truncated to `unit` first, when given).
 */
export type AttributeCodec =
  | 'timestamp'
  | { readonly timestamp: TimestampUnit }
  | { readonly epochSeconds: TimestampUnit }
  | { readonly format: StoredTimestampFormat; readonly unit?: TimestampUnit }
  | 'set'
  | { readonly list: AttributeCodec }
  | { readonly map: Readonly<Record<string, AttributeCodec>>; readonly requiredSets?: readonly string[] };

export type AttributeCodecs = Readonly<Record<string, AttributeCodec>>;

/** Names that reach into JavaScript's object machinery: never attribute names. */
export const FORBIDDEN_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const hasOwn = (record: object, name: string) => Object.prototype.hasOwnProperty.call(record, name);

/** The codec of `name`, looked up without reaching the prototype. */
function codecOf(codecs: AttributeCodecs, name: string): AttributeCodec | undefined {
  return hasOwn(codecs, name) ? codecs[name] : undefined;
}

/** What the runtime knows of an entity's attributes (a slice of its EntityModel). */
export interface AttributeModel {
  readonly name: string;
  /** Declared attribute names. */
  readonly attributes: readonly string[];
  /** Keep undeclared attributes on write and read (entity({ passthrough: true })). */
  readonly passthrough?: boolean;
}

/** The error for a forbidden name at `path`. */
function refused(entity: string, path: string, name: string): ValidationError {
  return new ValidationError(entity, path, `"${name}" cannot be an attribute name or map key (it reaches into JavaScript's object prototype); it was refused`, 'ATTRIBUTE_FORBIDDEN');
}

/** Throws ValidationError naming every forbidden or (unless passthrough) undeclared name among `names`. */
export function checkAttributeNames(model: AttributeModel, names: Iterable<string>, what = 'written'): void {
  const unknown: string[] = [];
  for (const name of names) {
    if (FORBIDDEN_NAMES.has(name)) throw refused(model.name, name, name);
    if (!model.passthrough && !model.attributes.includes(name) && !unknown.includes(name)) unknown.push(name);
  }
  if (unknown.length) {
    const list = unknown.map((n) => JSON.stringify(n)).join(', ');
    throw new ValidationError(
      model.name,
      unknown[0]!,
      `${list} ${unknown.length === 1 ? 'is not an attribute' : 'are not attributes'} of ${model.name}, so ${unknown.length === 1 ? 'it was' : 'they were'} not ${what}; declared: ${model.attributes.join(', ')} (declare ${unknown.length === 1 ? 'it' : 'them'}, or pick the declared attributes out of the input)`,
      'ATTRIBUTE_UNKNOWN',
    );
  }
}

/** Throws ValidationError if a plain object anywhere inside `value` (at `path`; '' for a whole record) has a forbidden own key. */
export function checkValueNames(entity: string, path: string, value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => checkValueNames(entity, `${path}[${i}]`, v));
    return;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return;
  for (const key of Object.keys(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (FORBIDDEN_NAMES.has(key)) throw refused(entity, at, key);
    checkValueNames(entity, at, (value as Record<string, unknown>)[key]);
  }
}

/**
 * What a declared attribute holds, for the checks a write makes at run time: the schema's type,
 * with its declared bounds. `optional` marks a map field that may be absent (a top-level
 * attribute's optionality is the entity model's `required`).
 */
export type AttributeType =
  | { readonly kind: 'string'; readonly maxBytes?: number; readonly optional?: true }
  | { readonly kind: 'number'; readonly min?: number; readonly max?: number; readonly integer?: true; readonly optional?: true }
  | { readonly kind: 'boolean' | 'binary' | 'stringSet' | 'numberSet'; readonly optional?: true }
  | { readonly kind: 'timestamp'; readonly format?: StoredTimestampFormat; readonly optional?: true }
  | { readonly kind: 'enum'; readonly values: readonly string[]; readonly optional?: true }
  | { readonly kind: 'list'; readonly of: AttributeType; readonly maxItems?: number; readonly optional?: true }
  | { readonly kind: 'map'; readonly fields: Readonly<Record<string, AttributeType>>; readonly optional?: true };

export type AttributeTypes = Readonly<Record<string, AttributeType>>;

/** How a message names what a value is (never the value itself: it may be personal data). */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : 'a Date';
  if (value instanceof Set) return 'a set';
  if (value instanceof Uint8Array) return 'binary';
  if (typeof value === 'object') return Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null ? 'a map' : `an instance of ${(value as object).constructor?.name || 'a class'}`;
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value === 'undefined' ? 'missing' : `a ${typeof value}`;
}

const EXPECTED: Readonly<Record<AttributeType['kind'], string>> = {
  string: 'a string',
  number: 'a finite number',
  boolean: 'a boolean',
  timestamp: 'a valid Date',
  binary: 'binary (a Uint8Array)',
  stringSet: 'a Set of strings',
  numberSet: 'a Set of finite numbers',
  enum: 'one of its values',
  list: 'a list',
  map: 'a map',
};

/** A plain object: what a map attribute holds (never a Date, Set, class instance or array). */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/** The kinds `checkScalar` checks: what most entities' attributes are. */
export type ScalarAttributeType = Extract<AttributeType, { kind: 'string' | 'number' | 'boolean' | 'timestamp' | 'enum' }>;

/**
 * `checkValue` for a string, number, boolean, timestamp (a Date) or enum attribute, the same
 * checks and errors: what an entity model names as its `check` when it has no attribute of another
 * kind to check, so a bundle keeps no list, map, set or stored-form checks it cannot reach.
 */
export function checkScalar(entity: string, path: string, type: AttributeType, value: unknown): void {
  const wrong = (what = EXPECTED[type.kind]) => new ValidationError(entity, path, `must be ${what}, not ${kindOf(value)}`, 'VALUE_TYPE');
  switch (type.kind) {
    case 'string':
      if (typeof value !== 'string') throw wrong();
      if (type.maxBytes !== undefined && value.length > type.maxBytes / 3 && utf8Bytes(value).length > type.maxBytes) throw new ValidationError(entity, path, `is ${utf8Bytes(value).length} bytes of UTF-8, above its declared maxBytes ${type.maxBytes}`, 'VALUE_RANGE');
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw wrong();
      if (type.integer && !Number.isInteger(value)) throw new ValidationError(entity, path, `must be an integer, got ${value}`, 'VALUE_RANGE');
      if ((type.min !== undefined && value < type.min) || (type.max !== undefined && value > type.max)) throw new ValidationError(entity, path, `must be within ${type.min ?? '-∞'}..${type.max ?? '∞'}, got ${value}`, 'VALUE_RANGE');
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong();
      return;
    case 'timestamp':
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw wrong();
      return;
    case 'enum':
      if (typeof value !== 'string' || !type.values.includes(value)) throw wrong(`one of ${type.values.map((v) => JSON.stringify(v)).join(', ')}`);
      return;
    default:
      // a model names checkScalar only when it has no attribute of another kind (see entity-model.ts)
      throw new TypeError(`checkScalar checks no ${type.kind} attribute (${entity}.${path}): the model should name checkValue`);
  }
}

/**
 * Throws ValidationError (naming `path`) unless `value` is what `type` declares: the JavaScript type
 * the generated item type says, within its declared bounds (an integer, min/max, maxBytes, maxItems,
 * an enum's values), maps with only their declared fields, required fields present. Null is never
 * a value: an absent optional attribute is left out (or removed). Checked before any request, so a
 * value the types forbid (from untyped input) never reaches DynamoDB.
 */
export function checkValue(entity: string, path: string, type: AttributeType, value: unknown, stored = false): void {
  const wrong = (what = EXPECTED[type.kind]) => new ValidationError(entity, path, `must be ${what}, not ${kindOf(value)}`, 'VALUE_TYPE');
  switch (type.kind) {
    case 'timestamp':
      // `stored`: the text (or number) ddbgen writes, exactly (a loose text such as "Invoice 5" is no timestamp, though new Date() reads one)
      if (stored && !isStoredTimestamp(value, type.format)) throw wrong(`a timestamp stored as ${STORED_FORM[type.format ?? 'iso']}`);
      if (!stored) checkScalar(entity, path, type, value);
      return;
    case 'string':
    case 'number':
    case 'boolean':
    case 'enum':
      checkScalar(entity, path, type, value);
      return;
    case 'binary':
      if (!(value instanceof Uint8Array)) throw wrong();
      return;
    case 'stringSet':
    case 'numberSet':
      if (!(value instanceof Set)) throw wrong();
      for (const member of value) {
        if (type.kind === 'stringSet' ? typeof member !== 'string' : typeof member !== 'number' || !Number.isFinite(member)) throw new ValidationError(entity, path, `must be ${EXPECTED[type.kind]}; it holds ${kindOf(member)}`, 'VALUE_TYPE');
      }
      return;
    case 'list':
      if (!Array.isArray(value)) throw wrong();
      if (type.maxItems !== undefined && value.length > type.maxItems) throw new ValidationError(entity, path, `holds ${value.length} elements, above its declared maxItems ${type.maxItems}`, 'VALUE_RANGE');
      for (let i = 0; i < value.length; i++) checkValue(entity, `${path}[${i}]`, type.of, value[i], stored);
      return;
    case 'map': {
      if (!isPlainObject(value)) throw wrong();
      for (const name of Object.keys(value)) {
        if (FORBIDDEN_NAMES.has(name)) throw refused(entity, `${path}.${name}`, name);
        if (!hasOwn(type.fields, name)) throw new ValidationError(entity, `${path}.${name}`, `is not a field of ${path} (fields: ${Object.keys(type.fields).join(', ')})`, 'ATTRIBUTE_UNKNOWN');
        if (value[name] !== undefined) checkValue(entity, `${path}.${name}`, type.fields[name]!, value[name], stored);
      }
      for (const name of Object.keys(type.fields)) {
        const field = type.fields[name]!;
        // a required set is stored as nothing when empty
        if (!field.optional && value[name] === undefined && !(stored && (field.kind === 'stringSet' || field.kind === 'numberSet'))) throw new ValidationError(entity, `${path}.${name}`, 'is required', 'ATTRIBUTE_REQUIRED');
      }
      return;
    }
  }
}

/** A stored record with the attributes the table holds under other names (`storedNames`) under their property names. */
export function propertyNamed(model: { readonly storedNames?: Readonly<Record<string, string>> | undefined }, stored: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const names = model.storedNames;
  if (names === undefined) return stored;
  const out: Record<string, unknown> = { ...stored };
  for (const property of Object.keys(names)) {
    const name = names[property]!;
    delete out[property];
    if (hasOwn(stored, name)) out[property] = stored[name];
    delete out[name];
  }
  return out;
}

/** Whether a stored record is of the entity as its discriminator tells (true for an entity without one). */
export function hasDiscriminator(model: { readonly discriminator?: Readonly<Record<string, string>> | undefined }, stored: Readonly<Record<string, unknown>>, projected = true): boolean {
  const discriminator = model.discriminator;
  if (discriminator === undefined) return true;
  // an index that does not project the discriminator holds records without it: only a value it does hold can differ
  for (const name of Object.keys(discriminator)) if (stored[name] !== discriminator[name] && (projected || stored[name] !== undefined)) return false;
  return true;
}

/** Whether records of an index with this projection hold the entity's discriminator (`all`, or an INCLUDE naming it). */
export function projectsDiscriminator(model: { readonly discriminator?: Readonly<Record<string, string>> | undefined }, projection: 'all' | 'keys-only' | readonly string[]): boolean {
  if (model.discriminator === undefined || projection === 'all') return true;
  return projection !== 'keys-only' && Object.keys(model.discriminator).every((name) => projection.includes(name));
}

/** Adds an empty set for each required set attribute a whole stored item lacks: DynamoDB stores no empty set, so one written empty is stored as nothing. */
export function withRequiredSets<T extends Record<string, unknown>>(item: T, types: AttributeTypes | undefined, required: readonly string[] | undefined): T {
  if (types === undefined || required === undefined) return item;
  for (const name of required) {
    const kind = hasOwn(types, name) ? types[name]!.kind : undefined;
    if ((kind === 'stringSet' || kind === 'numberSet') && item[name] === undefined) (item as Record<string, unknown>)[name] = new Set();
  }
  return item;
}

/** How messages name each stored timestamp form. */
const STORED_FORM: Readonly<Record<StoredTimestampFormat | 'iso', string>> = {
  iso: 'ISO-8601 text (YYYY-MM-DDTHH:mm:ss.sssZ)',
  'iso-seconds': 'ISO-8601 text without milliseconds (YYYY-MM-DDTHH:mm:ssZ)',
  date: 'a date (YYYY-MM-DD)',
  'epoch-seconds': 'a whole number of seconds since the epoch',
  'epoch-milliseconds': 'a whole number of milliseconds since the epoch',
};

/**
 * Whether `value` is a timestamp exactly as stored in `format` (default ddbgen's ISO text): the
 * text of a valid instant that reads back to the same text, or a whole number for the epoch forms.
 */
export function isStoredTimestamp(value: unknown, format?: StoredTimestampFormat): boolean {
  if (format === 'epoch-seconds' || format === 'epoch-milliseconds') return typeof value === 'number' && Number.isSafeInteger(value);
  if (typeof value !== 'string') return false;
  const text = value;
  if (format === undefined && text.length < 20) return false;
  const date = format === undefined ? isoDate(text) : new Date(text);
  if (Number.isNaN(date.getTime())) return false;
  const iso = isoString(date);
  return format === undefined ? iso === text : format === 'date' ? iso.slice(0, 10) === text : iso.slice(0, 19) + 'Z' === text;
}

/** A Date in a stored timestamp format (truncated to `unit` first). */
export function toStoredTimestamp(value: Date, format: StoredTimestampFormat, unit?: TimestampUnit): string | number {
  const date = unit === undefined ? value : truncateTimestamp(value, unit);
  switch (format) {
    case 'iso-seconds':
      return isoString(date).slice(0, 19) + 'Z';
    case 'date':
      return isoString(date).slice(0, 10);
    case 'epoch-seconds':
      return Math.floor(date.getTime() / 1000);
    case 'epoch-milliseconds':
      return date.getTime();
  }
}

/** The Date a stored timestamp holds, read leniently: a number in the format's epoch unit, or any text `new Date` reads (an epoch format's digits too). */
export function fromStoredTimestamp(value: unknown, format: StoredTimestampFormat): Date {
  const epoch = format === 'epoch-seconds' ? 1000 : format === 'epoch-milliseconds' ? 1 : undefined;
  if (typeof value === 'number') return new Date(value * (epoch ?? 1000));
  const text = String(value);
  return epoch !== undefined && /^-?\d+$/.test(text) ? new Date(Number(text) * epoch) : new Date(text);
}

/** Throws ValidationError unless every own attribute of `record` that `types` declares holds its declared type (absent ones are the caller's to judge). */
export function checkValues(entity: string, types: AttributeTypes, record: Readonly<Record<string, unknown>>): void {
  for (const name of Object.keys(record)) {
    const value = record[name];
    if (value !== undefined && hasOwn(types, name)) checkValue(entity, name, types[name]!, value);
  }
}

/** The stored form of a `timestamp` attribute (full precision): its ISO-8601 text; ValidationError unless a valid Date. */
export function storedDate(entity: string, path: string, value: unknown): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new ValidationError(entity, path, 'must be a valid Date');
  return isoString(value);
}

/** The item form of a stored `timestamp` attribute. */
export function itemDate(value: unknown): Date | null | undefined {
  return value === undefined || value === null ? value : isoDate(value as string);
}

/** The stored form of an attribute value under its codec (undefined: store nothing, e.g. an empty set). */
export function toStoredValue(entity: string, path: string, codec: AttributeCodec, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (codec === 'timestamp' || (typeof codec === 'object' && ('timestamp' in codec || 'epochSeconds' in codec || 'format' in codec))) {
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new ValidationError(entity, path, 'must be a valid Date');
    if (codec === 'timestamp') return isoString(value);
    if ('timestamp' in codec) return truncateTimestamp(value, codec.timestamp).toISOString();
    if ('format' in codec) return toStoredTimestamp(value, codec.format, codec.unit);
    return truncateTimestamp(value, codec.epochSeconds).getTime() / 1000;
  }
  if (codec === 'set') return (value as Set<unknown>).size === 0 ? undefined : value;
  if ('list' in codec) {
    return (value as unknown[]).map((v, i) => {
      const stored = toStoredValue(entity, `${path}[${i}]`, codec.list, v);
      if (stored === undefined && v !== undefined) throw new ValidationError(entity, `${path}[${i}]`, 'an empty set cannot be stored inside a list');
      return stored;
    });
  }
  return convertRecord(entity, path + '.', codec.map, value as Record<string, unknown>, toStoredValue);
}

/** The item form of a stored attribute value under its codec. */
export function fromStoredValue(entity: string, path: string, codec: AttributeCodec, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (codec === 'timestamp' || (typeof codec === 'object' && 'timestamp' in codec)) return isoDate(value as string);
  // A number of epoch seconds; an ISO string written before the attribute became the TTL reads as it was.
  if (typeof codec === 'object' && 'epochSeconds' in codec) return new Date(typeof value === 'number' ? value * 1000 : (value as string));
  if (typeof codec === 'object' && 'format' in codec) return fromStoredTimestamp(value, codec.format);
  if (codec === 'set') return value;
  if ('list' in codec) return (value as unknown[]).map((v, i) => fromStoredValue(entity, `${path}[${i}]`, codec.list, v));
  const item = convertRecord(entity, path + '.', codec.map, value as Record<string, unknown>, fromStoredValue);
  for (const name of codec.requiredSets ?? []) if (item[name] === undefined) item[name] = new Set();
  return item;
}

function convertRecord(
  entity: string,
  prefix: string,
  codecs: AttributeCodecs,
  record: Readonly<Record<string, unknown>>,
  convert: typeof toStoredValue,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(record)) {
    if (FORBIDDEN_NAMES.has(name)) continue;
    const value = record[name];
    if (value === undefined) continue;
    const codec = codecOf(codecs, name);
    const converted = codec === undefined ? value : convert(entity, prefix + name, codec, value);
    if (converted !== undefined) out[name] = converted;
  }
  return out;
}

/** The stored form of (part of) an item: converted values, undefined attributes dropped; forbidden names refused at any depth. */
export function toStored(entity: string, codecs: AttributeCodecs, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  checkValueNames(entity, '', record);
  return convertRecord(entity, '', codecs, record, toStoredValue);
}

/** Names in `record` holding an empty set: an update must REMOVE them, as DynamoDB stores no empty set. */
export function emptySets(codecs: AttributeCodecs, record: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(record).filter((name) => codecOf(codecs, name) === 'set' && (record[name] as Set<unknown> | undefined)?.size === 0);
}

/**
 * The item form of a stored record: its declared attributes (every attribute but the table's key
 * attributes when `attributes` is undefined, i.e. passthrough), never a forbidden name. Another
 * writer's extra attributes are dropped, not an error.
 */
export function fromStored<T>(entity: string, codecs: AttributeCodecs, stored: Readonly<Record<string, unknown>>, keyAttributes: readonly string[], attributes?: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(stored)) {
    if (keyAttributes.includes(name) || FORBIDDEN_NAMES.has(name) || (attributes !== undefined && !attributes.includes(name))) continue;
    const codec = codecOf(codecs, name);
    const value = stored[name];
    out[name] = codec === undefined ? value : fromStoredValue(entity, name, codec, value);
  }
  return out as T;
}

/** Converts a record in DynamoDB's wire form (`{ S: 'x' }`, `{ N: '1' }`, …) to plain values, as the DocumentClient reads them. */
export function fromAttributeValues(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(record)) if (!FORBIDDEN_NAMES.has(name)) out[name] = fromAttributeValue(record[name]);
  return out;
}

function fromAttributeValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const wire = value as Record<string, unknown>;
  if (hasOwn(wire, 'S') || hasOwn(wire, 'B') || hasOwn(wire, 'BOOL')) return wire['S'] ?? wire['B'] ?? wire['BOOL'];
  if (hasOwn(wire, 'N')) return Number(wire['N']);
  if (hasOwn(wire, 'NULL')) return null;
  if (hasOwn(wire, 'L')) return (wire['L'] as unknown[]).map(fromAttributeValue);
  if (hasOwn(wire, 'M')) return fromAttributeValues(wire['M'] as Record<string, unknown>);
  if (hasOwn(wire, 'SS') || hasOwn(wire, 'BS')) return new Set((wire['SS'] ?? wire['BS']) as unknown[]);
  if (hasOwn(wire, 'NS')) return new Set((wire['NS'] as string[]).map(Number));
  return value;
}

/** A pii value where no fingerprint is at hand: nothing of the value at all. */
const hidden: PiiFingerprint = () => '<pii>';

/**
 * How an error message names an item: its entity and key parts, `User { id: "u1" }`; a part marked
 * pii prints as its fingerprint (the model's `fingerprint` keyed with `piiSecret`, the table's;
 * without one, with the process's random key), never its value. The hash comes into a bundle
 * through the models of entities with pii attributes only: an app whose entities mark nothing pii
 * carries none.
 */
export function describeItem(
  model: { readonly name: string; readonly primaryParts: readonly string[]; readonly pii?: readonly string[]; readonly fingerprint?: (secret: string | undefined) => PiiFingerprint },
  values: Readonly<Record<string, unknown>>,
  piiSecret?: string,
): string {
  const parts = model.primaryParts.map((name) => {
    const value = hasOwn(values, name) ? values[name] : undefined;
    const shown = model.pii?.includes(name) ? (model.fingerprint?.(piiSecret) ?? hidden)(value) : value instanceof Date ? value.toISOString() : typeof value === 'string' ? JSON.stringify(value) : String(value);
    return `${name}: ${shown}`;
  });
  return parts.length ? `${model.name} { ${parts.join(', ')} }` : model.name;
}
