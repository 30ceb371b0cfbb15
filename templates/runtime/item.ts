// Conversion between an entity's item type and its stored form. Timestamps are `Date` in the API
// and fixed-width UTC ISO-8601 strings in the table (truncated to a declared unit on every write),
// except the table's TTL attribute, stored as epoch seconds (a number, as DynamoDB's time to live
// reads it); an empty set is stored as no attribute (DynamoDB
// has no empty sets); everything else is stored as the DocumentClient marshals it. Key attributes
// are added on write and removed on read.

import { truncateTimestamp } from './codec.js';
import { ValidationError } from './errors.js';

type TimestampUnit = 'second' | 'minute' | 'hour' | 'day' | 'month';

/**
 * How an attribute is converted; attributes stored as-is are not listed. `{ timestamp: unit }`
 * truncates on write; `{ epochSeconds: unit }` is the TTL attribute, stored as whole seconds since
 * the epoch (after truncating to the unit, `second` at least).
 */
export type AttributeCodec =
  | 'timestamp'
  | { readonly timestamp: TimestampUnit }
  | { readonly epochSeconds: TimestampUnit }
  | 'set'
  | { readonly list: AttributeCodec }
  | { readonly map: Readonly<Record<string, AttributeCodec>> };

export type AttributeCodecs = Readonly<Record<string, AttributeCodec>>;

function toStoredValue(entity: string, path: string, codec: AttributeCodec, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (codec === 'timestamp' || (typeof codec === 'object' && ('timestamp' in codec || 'epochSeconds' in codec))) {
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new ValidationError(entity, path, 'must be a valid Date');
    if (codec === 'timestamp') return value.toISOString();
    if ('timestamp' in codec) return truncateTimestamp(value, codec.timestamp).toISOString();
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

function fromStoredValue(entity: string, path: string, codec: AttributeCodec, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (codec === 'timestamp' || (typeof codec === 'object' && 'timestamp' in codec)) return new Date(value as string);
  // A number of epoch seconds; an ISO string written before the attribute became the TTL reads as it was.
  if (typeof codec === 'object' && 'epochSeconds' in codec) return new Date(typeof value === 'number' ? value * 1000 : (value as string));
  if (codec === 'set') return value;
  if ('list' in codec) return (value as unknown[]).map((v, i) => fromStoredValue(entity, `${path}[${i}]`, codec.list, v));
  return convertRecord(entity, path + '.', codec.map, value as Record<string, unknown>, fromStoredValue);
}

function convertRecord(
  entity: string,
  prefix: string,
  codecs: AttributeCodecs,
  record: Readonly<Record<string, unknown>>,
  convert: typeof toStoredValue,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name in record) {
    const value = record[name];
    if (value === undefined) continue;
    const codec = codecs[name];
    const converted = codec === undefined ? value : convert(entity, prefix + name, codec, value);
    if (converted !== undefined) out[name] = converted;
  }
  return out;
}

/** The stored form of (part of) an item: converted values, undefined attributes dropped. */
export function toStored(entity: string, codecs: AttributeCodecs, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return convertRecord(entity, '', codecs, record, toStoredValue);
}

/** Names in `record` holding an empty set: an update must REMOVE them, as DynamoDB stores no empty set. */
export function emptySets(codecs: AttributeCodecs, record: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(record).filter((name) => codecs[name] === 'set' && (record[name] as Set<unknown> | undefined)?.size === 0);
}

/** The item form of a stored record, without the table's key attributes. */
export function fromStored<T>(entity: string, codecs: AttributeCodecs, stored: Readonly<Record<string, unknown>>, keyAttributes: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const name in stored) {
    if (keyAttributes.includes(name)) continue;
    const codec = codecs[name];
    const value = stored[name];
    out[name] = codec === undefined ? value : fromStoredValue(entity, name, codec, value);
  }
  return out as T;
}

// Time to live on reads. DynamoDB deletes an expired item only some time after its TTL (typically
// within 48 hours), and reads return it until then; ddbgen's reads hide it from its TTL on, unless
// asked with `includeExpired`. The check runs on each stored record as it arrives, client-side, for
// every read (GetItem and BatchGetItem have no FilterExpression; a FilterExpression would cost the
// same read units and cut pages before the filter just the same), and DynamoDB's own positions stay
// the cursors. As DynamoDB does, a record whose TTL attribute is absent or not a number never expires.

/** The option every read takes on a table with a TTL attribute. */
export interface ExpiryOptions {
  /** Return items whose TTL has passed but that DynamoDB has not deleted yet. Default false. */
  readonly includeExpired?: boolean;
}

/** Whether a stored record's TTL attribute (epoch seconds) is at or before `now` (ms since the epoch). */
export function isExpired(stored: Readonly<Record<string, unknown>>, attribute: string, now: number): boolean {
  const ttl = stored[attribute];
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl * 1000 <= now;
}

/**
 * The records a read keeps: every one when the table has no TTL attribute or the caller asked for
 * expired items, else those not expired at the time of the call.
 */
export function unexpired(ttl: string | undefined, options: ExpiryOptions = {}, now = Date.now()): (stored: Readonly<Record<string, unknown>>) => boolean {
  if (ttl === undefined || options.includeExpired === true) return () => true;
  return (stored) => !isExpired(stored, ttl, now);
}
