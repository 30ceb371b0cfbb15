// The engine of DynamoDB in memory: tables with DynamoDB's semantics — expressions
// (expression.ts), items sorted by their sort key's UTF-8 bytes / number / bytes, 1 MB
// pages and `Limit` before filters, global and local secondary indexes with their projections and
// sparseness (global ones optionally behind by a lag), all-or-nothing transactions with
// cancellation reasons and idempotency tokens, DynamoDB's limits with its own error names and
// messages, Time to Live on a clock the test moves, stream records, and faults on demand
// (throttling, unprocessed batch items, transaction conflicts, 5xx, latency), drawn from a seeded
// generator so a failing test reproduces. It loads no part of the AWS SDK: `InMemoryDynamoDB`
// (table.ts) puts it behind a DynamoDBDocumentClient for generated code and tests, and
// `ddbgen local` serves its low-level `request` over HTTP, starting without the SDK.
//
// What it answers is proved against DynamoDB Local by the differential suite
// (test/in-memory/differential.test.ts); the deliberate differences are listed in docs/guide/testing.md.

import type { CreateTableCommandInput, GlobalSecondaryIndex, UpdateTimeToLiveCommandInput } from '@aws-sdk/client-dynamodb';
import { stringBytes } from '../item-size.js';
import {
  Aliases,
  applyUpdate,
  checkOverlap,
  evaluateCondition,
  parseCondition,
  parseProjection,
  parseUpdate,
  project,
  resolveCondition,
  resolvePath,
  resolveUpdate,
  updatedValues,
  type ExpressionKind,
  type PathPart,
  type Resolved,
  type ResolvedAction,
  type ResolvedCondition,
} from './expression.js';
import {
  compareScalars,
  copyMap,
  equalMaps,
  itemBytes,
  marshallExpressionValues as marshallDocumentValues,
  marshallMap as marshallDocument,
  RequestError,
  sentNumber,
  typeOf,
  unmarshallMap as unmarshallDocument,
  validation,
  wireExpressionValues,
  wireMap,
  type AttributeMap,
  type AttributeValue,
} from './value.js';

/**
 * How the request being answered carries its values: the DocumentClient's JavaScript values
 * (converted both ways), or the low-level API's attribute values (checked and copied in, copied
 * out). Requests are answered synchronously, one at a time, so one codec is in force at a time;
 * the engine reads its requests' values through `marshallMap` and `marshallExpressionValues`
 * and writes its answers' through `unmarshallMap`, all the codec's.
 */
interface RequestCodec {
  /** An item, key or start key (`number`: how the DocumentClient's numbers are read, default checked and canonical). */
  decode(data: Readonly<Record<string, unknown>>, number?: (text: string) => string): AttributeMap;
  /** ExpressionAttributeValues, an invalid one named by its placeholder. */
  values(data: Readonly<Record<string, unknown>>): AttributeMap;
  encode(map: Readonly<AttributeMap>): Record<string, unknown>;
}
const DOCUMENT: RequestCodec = { decode: marshallDocument, values: marshallDocumentValues, encode: unmarshallDocument };
const WIRE: RequestCodec = { decode: (data) => wireMap(data), values: wireExpressionValues, encode: copyMap };
let codec = DOCUMENT;
const marshallMap = (data: Readonly<Record<string, unknown>>, number?: (text: string) => string): AttributeMap => codec.decode(data, number);
const marshallExpressionValues = (data: Readonly<Record<string, unknown>>): AttributeMap => codec.values(data);
const unmarshallMap = (map: Readonly<AttributeMap>): Record<string, unknown> => codec.encode(map);

/** DynamoDB's API names of the operations the in-memory table answers. */
export type InMemoryOperation = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query' | 'Scan' | 'BatchGetItem' | 'BatchWriteItem' | 'TransactGetItems' | 'TransactWriteItems';

/** A fault to answer a request with instead of (or besides) what DynamoDB would answer. */
export type Fault =
  /** Throttled: ProvisionedThroughputExceededException with ThrottlingReasons (ThrottlingException for an on-demand maximum, `reason` ending in MaxOnDemandThroughputExceeded). */
  | { readonly kind: 'throttle'; readonly reason?: string }
  /** Batch requests: this share of the items or keys (default 0.5, at least one) comes back unprocessed, the rest is done. */
  | { readonly kind: 'unprocessed'; readonly share?: number }
  /** TransactWriteItems is cancelled with TransactionConflict on its first item; a single write fails with TransactionConflictException. */
  | { readonly kind: 'conflict' }
  /** A 5xx: InternalServerError (500) or ServiceUnavailable (503); `applied`: the write happened before the error (an ambiguous failure). */
  | { readonly kind: 'server-error'; readonly status?: 500 | 503; readonly applied?: boolean }
  /** The answer comes after `ms` milliseconds of real time. */
  | { readonly kind: 'latency'; readonly ms: number };

export interface FaultRule {
  readonly fault: Fault;
  /** The operations it applies to (default: every one). */
  readonly operations?: readonly InMemoryOperation[];
  /** The chance that a matching request gets the fault, drawn from the seeded generator (default 1). */
  readonly probability?: number;
  /** How many requests get the fault before the rule is spent (default: no end). */
  readonly times?: number;
}

export interface InMemoryOptions {
  /** Seeds the generator that decides faults with a probability and which batch items are left unprocessed (default 1). */
  readonly seed?: number;
  /**
   * The clock's start. Given, the clock stands still but for `advanceTime`; absent, it is the
   * system clock plus whatever `advanceTime` added.
   */
  readonly now?: Date | number;
  /** How far global secondary indexes lag behind the table, in milliseconds of the table's clock (default 0: at once). */
  readonly gsiLagMs?: number;
  /** Attempts per request for throttles and 5xx faults, as the SDK's standard retry makes them (default 3, without waiting). */
  readonly maxAttempts?: number;
  /** Named in ARNs (default 'local'). */
  readonly region?: string;
}

/** A stream record as the Streams API's GetRecords returns it (what the generated stream decoder and handler read). */
export interface InMemoryStreamRecord {
  readonly eventID: string;
  readonly eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  readonly eventVersion: '1.1';
  readonly eventSource: 'aws:dynamodb';
  readonly awsRegion: string;
  readonly dynamodb: {
    readonly ApproximateCreationDateTime: Date;
    readonly Keys: AttributeMap;
    readonly NewImage?: AttributeMap;
    readonly OldImage?: AttributeMap;
    readonly SequenceNumber: string;
    readonly SizeBytes: number;
    readonly StreamViewType: string;
  };
  /** Present on removals by Time to Live. */
  readonly userIdentity?: { readonly PrincipalId: 'dynamodb.amazonaws.com'; readonly Type: 'Service' };
}

/**
 * Settings CreateTable does not take (the generated `<table>TableSettings()`): Time to Live changes
 * how the table answers; the others (point-in-time recovery, …) are accepted and change nothing.
 */
export interface InMemoryTableSettings {
  readonly timeToLive?: UpdateTimeToLiveCommandInput | undefined;
  readonly [setting: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Keys and the table's shape.

type KeyType = 'S' | 'N' | 'B';

interface KeySchema {
  readonly hash: readonly string[];
  readonly range: readonly string[];
}

interface IndexShape {
  readonly name: string;
  readonly kind: 'gsi' | 'lsi';
  readonly key: KeySchema;
  readonly projection: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  readonly include: readonly string[];
}

/** One item in a key space: its attributes (as the space holds them), size and ordering key. */
interface Entry {
  readonly item: AttributeMap;
  readonly size: number;
  /** Sort key values (the space's RANGE attributes), then the table key for ties. */
  readonly order: readonly AttributeValue[];
  readonly id: string;
}

/** A key space: the table or one index, partitions of entries in DynamoDB's order. */
class KeySpace {
  readonly partitions = new Map<string, { readonly hash: number; readonly entries: Entry[] }>();
  private scanOrder: string[] | undefined;
  readonly key: KeySchema;
  constructor(key: KeySchema) {
    this.key = key;
  }

  partitionOf(item: Readonly<AttributeMap>): string {
    let id = '';
    for (const name of this.key.hash) id += valueId(item[name]!) + '\u0000';
    return id;
  }

  insert(partition: string, entry: Entry): void {
    let p = this.partitions.get(partition);
    if (!p) {
      p = { hash: hashOf(partition), entries: [] };
      this.partitions.set(partition, p);
      this.scanOrder = undefined;
    }
    const at = lowerBound(p.entries, entry.order);
    if (at < p.entries.length && p.entries[at]!.id === entry.id) p.entries[at] = entry;
    else p.entries.splice(at, 0, entry);
  }

  remove(partition: string, order: readonly AttributeValue[], id: string): void {
    const p = this.partitions.get(partition);
    if (!p) return;
    const at = lowerBound(p.entries, order);
    if (at < p.entries.length && p.entries[at]!.id === id) p.entries.splice(at, 1);
    if (p.entries.length === 0) {
      this.partitions.delete(partition);
      this.scanOrder = undefined;
    }
  }

  /** Partitions in scan order: by hash, as DynamoDB spreads them. */
  scanPartitions(): string[] {
    this.scanOrder ??= [...this.partitions.entries()].sort(([a, x], [b, y]) => x.hash - y.hash || (a < b ? -1 : a > b ? 1 : 0)).map(([id]) => id);
    return this.scanOrder;
  }
}

function compareOrder(a: readonly AttributeValue[], b: readonly AttributeValue[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareScalars(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

/** The first index whose entry is not before `order`. */
function lowerBound(entries: readonly Entry[], order: readonly AttributeValue[]): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareOrder(entries[mid]!.order, order) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function bytesId(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

function valueId(value: AttributeValue): string {
  const v = value as { S?: string; N?: string; B?: Uint8Array };
  return v.S !== undefined ? `S${v.S}` : v.N !== undefined ? `N${v.N}` : `B${bytesId(v.B!)}`;
}

/** FNV-1a over the UTF-16 units: spreads partitions over the scan order and the segments of a parallel scan. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Mulberry32: small, seeded, good enough to pick faults reproducibly. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MAX_ITEM_BYTES = 400 * 1024;
const PAGE_BYTES = 1024 * 1024;
const TRANSACTION_BYTES = 4 * 1024 * 1024;
const BATCH_GET_BYTES = 16 * 1024 * 1024;
const TOKEN_MS = 10 * 60 * 1000;
const FIVE_YEARS_S = 5 * 365 * 24 * 3600;

// ---------------------------------------------------------------------------------------------
// Errors, as the SDK builds them from DynamoDB's answers.

const metadata = (status: number) => ({ httpStatusCode: status, requestId: requestId(), attempts: 1, totalRetryDelay: 0 });
let requests = 0;
const requestId = () => `INMEMORY${(++requests).toString(36).toUpperCase().padStart(12, '0')}`;

/** The `__type` the SDK keeps from DynamoDB's error body. */
const typeOfError = (name: string) => (name === 'ValidationException' ? 'com.amazon.coral.validate#ValidationException' : `com.amazonaws.dynamodb.v20120810#${name}`);

type SdkModule = typeof import('@aws-sdk/client-dynamodb');
/** The SDK's exception classes, loaded with the first error (Node takes tens of milliseconds to make the module's ES view). */
let sdk: Promise<SdkModule> | undefined;

/** DynamoDB's answer as the SDK throws it: its own exception class (or DynamoDBServiceException by name), with `$metadata`, `__type` and what the answer carries. */
async function serviceError(error: RequestError): Promise<Error> {
  const classes = await (sdk ??= import('@aws-sdk/client-dynamodb'));
  const status = error.type === 'InternalServerError' ? 500 : error.type === 'ServiceUnavailable' ? 503 : 400;
  const options = { message: error.message, $metadata: metadata(status), ...error.carries };
  const Known = (classes as unknown as Record<string, (new (options: object) => Error) | undefined>)[error.type];
  const made = Known !== undefined ? new Known(options) : new classes.DynamoDBServiceException({ name: error.type, $fault: status >= 500 ? 'server' : 'client', ...options });
  return Object.assign(made, error.carries, { __type: typeOfError(error.type) });
}

const notFound = () => new RequestError('ResourceNotFoundException', 'Cannot do operations on a non-existent table');

/** A failed condition, with the item as it was. */
class ConditionFailure extends Error {
  readonly item: AttributeMap | undefined;
  constructor(item: AttributeMap | undefined) {
    super('The conditional request failed');
    this.item = item;
  }
}

const conflict = () => new RequestError('TransactionConflictException', 'Transaction is ongoing for the item');

// ---------------------------------------------------------------------------------------------
// One table.

type Capacity = { read: number; write: number; indexes: Map<string, number> };

interface Change {
  readonly old: AttributeMap | undefined;
  readonly item: AttributeMap | undefined;
}

class Table {
  readonly name: string;
  readonly key: KeySchema;
  readonly types = new Map<string, KeyType>();
  readonly indexes: IndexShape[] = [];
  readonly data: KeySpace;
  /** Every item by its key's id, for reads by key. */
  private readonly byId = new Map<string, AttributeMap>();
  readonly spaces = new Map<string, KeySpace>();
  streamView: string | undefined;
  ttl: string | undefined;
  readonly provisioned: boolean;
  /** GSI changes waiting for their time (gsiLagMs). */
  readonly pending: Array<{ readonly due: number; readonly index: IndexShape; readonly old: AttributeMap | undefined; readonly item: AttributeMap | undefined }> = [];

  constructor(definition: CreateTableCommandInput, settings: InMemoryTableSettings | undefined) {
    this.name = definition.TableName!;
    for (const attribute of definition.AttributeDefinitions ?? []) this.types.set(attribute.AttributeName!, attribute.AttributeType as KeyType);
    const schema = (elements: ReadonlyArray<{ AttributeName?: string | undefined; KeyType?: string | undefined }> | undefined): KeySchema => ({
      hash: (elements ?? []).filter((e) => e.KeyType === 'HASH').map((e) => e.AttributeName!),
      range: (elements ?? []).filter((e) => e.KeyType === 'RANGE').map((e) => e.AttributeName!),
    });
    this.key = schema(definition.KeySchema);
    this.data = new KeySpace(this.key);
    const projection = (p: { ProjectionType?: string | undefined; NonKeyAttributes?: string[] | undefined } | undefined) => ({
      projection: (p?.ProjectionType ?? 'ALL') as IndexShape['projection'],
      include: p?.NonKeyAttributes ?? [],
    });
    for (const index of definition.GlobalSecondaryIndexes ?? []) this.indexes.push({ name: index.IndexName!, kind: 'gsi', key: schema(index.KeySchema), ...projection(index.Projection) });
    for (const index of definition.LocalSecondaryIndexes ?? []) this.indexes.push({ name: index.IndexName!, kind: 'lsi', key: schema(index.KeySchema), ...projection(index.Projection) });
    for (const index of this.indexes) this.spaces.set(index.name, new KeySpace(index.key));
    this.streamView = definition.StreamSpecification?.StreamEnabled ? definition.StreamSpecification.StreamViewType : undefined;
    const ttl = settings?.timeToLive?.TimeToLiveSpecification;
    this.ttl = ttl?.Enabled ? ttl.AttributeName : undefined;
    this.provisioned = definition.BillingMode === 'PROVISIONED' || (definition.BillingMode === undefined && definition.ProvisionedThroughput !== undefined);
  }

  get keyNames(): string[] {
    return [...this.key.hash, ...this.key.range];
  }

  /** The table key of an item (its key attributes only). */
  keyOf(item: Readonly<AttributeMap>): AttributeMap {
    const key: AttributeMap = {};
    for (const name of this.keyNames) key[name] = item[name]!;
    return key;
  }

  private entryOf(space: KeySpace, item: AttributeMap): Entry {
    const order = [...space.key.range.map((name) => item[name]!), ...(space === this.data ? [] : this.keyNames.map((name) => item[name]!))];
    return { item, size: itemBytes(item), order, id: this.idOf(item) };
  }

  idOf(item: Readonly<AttributeMap>): string {
    let id = '';
    for (const name of this.keyNames) id += valueId(item[name]!) + '\u0000';
    return id;
  }

  get(key: Readonly<AttributeMap>): AttributeMap | undefined {
    return this.byId.get(this.idOf(key));
  }

  /** Whether an item belongs in an index (every key attribute present), and the entry it has there. */
  indexItem(index: IndexShape, item: Readonly<AttributeMap> | undefined): AttributeMap | undefined {
    if (!item) return undefined;
    const keys = [...index.key.hash, ...index.key.range];
    if (keys.some((name) => item[name] === undefined)) return undefined;
    if (index.projection === 'ALL') return item as AttributeMap;
    const out: AttributeMap = {};
    for (const name of [...this.keyNames, ...keys, ...(index.projection === 'INCLUDE' ? index.include : [])]) if (item[name] !== undefined) out[name] = item[name]!;
    return out;
  }

  /** Writes (or, with `item` undefined, deletes) an item, in the table and its indexes. */
  write(change: Change, now: number, lagMs: number): void {
    const { old, item } = change;
    const sample = (item ?? old)!;
    const partition = this.data.partitionOf(sample);
    const id = this.idOf(sample);
    if (item) {
      this.data.insert(partition, this.entryOf(this.data, item));
      this.byId.set(id, item);
    } else {
      this.data.remove(partition, this.key.range.map((name) => sample[name]!), id);
      this.byId.delete(id);
    }
    for (const index of this.indexes) {
      if (index.kind === 'gsi' && lagMs > 0) this.pending.push({ due: now + lagMs, index, old, item });
      else this.indexWrite(index, old, item);
    }
  }

  indexWrite(index: IndexShape, old: AttributeMap | undefined, item: AttributeMap | undefined): void {
    const space = this.spaces.get(index.name)!;
    const before = this.indexItem(index, old);
    const after = this.indexItem(index, item);
    if (before) {
      const entry = this.entryOf(space, before);
      space.remove(space.partitionOf(before), entry.order, entry.id);
    }
    if (after) space.insert(space.partitionOf(after), this.entryOf(space, after));
  }

  /** Applies the GSI changes whose time has come. */
  catchUp(now: number): void {
    while (this.pending.length && this.pending[0]!.due <= now) {
      const { index, old, item } = this.pending.shift()!;
      this.indexWrite(index, old, item);
    }
  }

  settle(): void {
    this.catchUp(Infinity);
  }

  /** Every item, in the order of a scan. */
  *all(): Generator<AttributeMap> {
    for (const id of this.data.scanPartitions()) for (const entry of this.data.partitions.get(id)!.entries) yield entry.item;
  }
}

// ---------------------------------------------------------------------------------------------
// Request checks.

function checkKeyValue(table: Table, name: string, value: AttributeValue | undefined, where: 'key' | 'item'): void {
  if (value === undefined) throw validation(where === 'item' ? 'One of the required keys was not given a value' : 'The number of conditions on the keys is invalid');
  const type = typeOf(value);
  if (type !== table.types.get(name)) throw validation('One or more parameter values were invalid: Type mismatch for key');
  if (type === 'S' && (value as { S: string }).S === '') throw validation(`One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: ${name}`);
  if (type === 'B' && (value as { B: Uint8Array }).B.length === 0) throw validation(`One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: ${name}`);
  const size = keySize(value);
  const range = table.key.range.includes(name);
  // DynamoDB's words (DynamoDB Local says 'Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes' for both)
  if (!range && size > 2048) throw validation('One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes');
  if (range && size > 1024) throw validation('One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes');
}

function keySize(value: AttributeValue): number {
  const v = value as { S?: string; N?: string; B?: Uint8Array };
  return v.S !== undefined ? stringBytes(v.S) : v.B !== undefined ? v.B.length : 0;
}

/** A Key parameter: exactly the table's key attributes, each valid. */
function checkKey(table: Table, key: Readonly<AttributeMap> | undefined): AttributeMap {
  const given = key ?? {};
  const names = Object.keys(given);
  if (names.length !== table.keyNames.length || table.keyNames.some((name) => given[name] === undefined)) throw validation('The number of conditions on the keys is invalid');
  for (const name of table.keyNames) checkKeyValue(table, name, given[name], 'key');
  return given as AttributeMap;
}

/** An item to write: its key and index keys valid, its size within 400 KB. */
function checkItem(table: Table, item: Readonly<AttributeMap>, update = false): void {
  for (const name of table.keyNames) checkKeyValue(table, name, item[name], 'item');
  for (const index of table.indexes) {
    for (const name of [...index.key.hash, ...index.key.range]) {
      const value = item[name];
      if (value === undefined || table.keyNames.includes(name)) continue;
      const type = typeOf(value);
      if (type !== table.types.get(name)) throw validation('One or more parameter values were invalid: Type mismatch for Index Key');
      if ((type === 'S' && (value as { S: string }).S === '') || (type === 'B' && (value as { B: Uint8Array }).B.length === 0)) {
        const empty = `The AttributeValue for a key attribute cannot contain an empty ${type === 'S' ? 'string' : 'binary'} value.`;
        throw validation(
          update
            ? `One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. ${empty}`
            : `One or more parameter values are not valid. A value specified for a secondary index key is not supported. ${empty} IndexName: ${index.name}, IndexKey: ${name}`,
        );
      }
      const max = index.key.range.includes(name) ? 1024 : 2048;
      const size = keySize(value);
      // DynamoDB's words; DynamoDB Local's stop at 'Size limit exceeded'
      if (size > max) throw validation(`One or more parameter values were invalid: Size limit exceeded for Index Key ${name} Actual Size: ${size} bytes Max Size: ${max} bytes IndexName: ${index.name}`);
    }
  }
  if (itemBytes(item) > MAX_ITEM_BYTES) throw validation(update ? 'Item size to update has exceeded the maximum allowed size' : 'Item size has exceeded the maximum allowed size');
}

function checkReturnValues(given: string | undefined, allowed: readonly string[]): string {
  const value = given ?? 'NONE';
  if (!allowed.includes(value)) throw validation('Return values set to invalid value');
  return value;
}

/** What a request's expressions are: parsed and resolved, with their aliases checked. */
interface Expressions {
  readonly condition?: ResolvedCondition;
  readonly filter?: ResolvedCondition;
  readonly projection?: PathPart[][];
}

function expressions(input: RequestInput, kinds: readonly ExpressionKind[], aliases: Aliases): Expressions {
  const out: { condition?: ResolvedCondition; filter?: ResolvedCondition; projection?: PathPart[][] } = {};
  if (kinds.includes('ConditionExpression') && input.ConditionExpression !== undefined) out.condition = resolveCondition(parseCondition('ConditionExpression', input.ConditionExpression), aliases, 'ConditionExpression');
  if (kinds.includes('FilterExpression') && input.FilterExpression !== undefined) out.filter = resolveCondition(parseCondition('FilterExpression', input.FilterExpression), aliases, 'FilterExpression');
  if (kinds.includes('ProjectionExpression') && input.ProjectionExpression !== undefined) {
    out.projection = parseProjection(input.ProjectionExpression).map((path) => resolvePath(path, aliases, 'ProjectionExpression'));
    checkOverlap('ProjectionExpression', out.projection);
  }
  return out;
}

/** The request's aliases; DynamoDB refuses them when no expression is given. */
function aliasesOf(input: RequestInput, hasExpression: boolean): Aliases {
  if (!hasExpression) {
    if (input.ExpressionAttributeNames !== undefined) throw validation('ExpressionAttributeNames can only be specified when using expressions');
    if (input.ExpressionAttributeValues !== undefined) throw validation(`ExpressionAttributeValues can only be specified when using expressions${input.Item !== undefined ? ': ConditionExpression is null' : ''}`);
  }
  return new Aliases(input.ExpressionAttributeNames, input.ExpressionAttributeValues === undefined ? undefined : marshallExpressionValues(input.ExpressionAttributeValues));
}

/** The input members the DocumentClient marshalls: items, keys and expression values. */
const MARSHALLED = new Set(['Item', 'Key', 'ExclusiveStartKey', 'ExpressionAttributeValues']);

/** Marshalls what the DocumentClient marshalls of an input (numbers unchecked), for its own errors alone. */
function checkMarshalling(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(checkMarshalling);
  if (typeof value !== 'object' || value === null) return;
  for (const [name, member] of Object.entries(value)) {
    if (member === undefined) continue;
    if (MARSHALLED.has(name)) marshallMap(member as Record<string, unknown>, sentNumber);
    else if (name === 'Keys' && Array.isArray(member)) for (const key of member) marshallMap(key as Record<string, unknown>, sentNumber);
    else if (name === 'RequestItems') Object.values(member as object).forEach(checkMarshalling);
    else checkMarshalling(member);
  }
}

/** A request's input as the DocumentClient's commands carry it (native values). */
interface RequestInput {
  readonly TableName?: string;
  readonly IndexName?: string;
  readonly Key?: Record<string, unknown>;
  readonly Item?: Record<string, unknown>;
  readonly ConditionExpression?: string;
  readonly FilterExpression?: string;
  readonly KeyConditionExpression?: string;
  readonly UpdateExpression?: string;
  readonly ProjectionExpression?: string;
  readonly ExpressionAttributeNames?: Record<string, string>;
  readonly ExpressionAttributeValues?: Record<string, unknown>;
  readonly ReturnValues?: string;
  readonly ReturnValuesOnConditionCheckFailure?: string;
  readonly ReturnConsumedCapacity?: string;
  readonly ConsistentRead?: boolean;
  readonly ExclusiveStartKey?: Record<string, unknown>;
  readonly Limit?: number;
  readonly ScanIndexForward?: boolean;
  readonly Select?: string;
  readonly Segment?: number;
  readonly TotalSegments?: number;
  readonly RequestItems?: Record<string, unknown>;
  readonly TransactItems?: ReadonlyArray<Record<string, RequestInput>>;
  readonly ClientRequestToken?: string;
}

// ---------------------------------------------------------------------------------------------
// Capacity.

const readUnits = (bytes: number, consistent: boolean) => Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);
const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

function capacity(): Capacity {
  return { read: 0, write: 0, indexes: new Map() };
}

const indexKeyText = (index: IndexShape, entry: Readonly<AttributeMap>) => JSON.stringify([...index.key.hash, ...index.key.range].map((name) => entry[name]));

/** Write units of a change to the table and each index it touches. */
function chargeWrite(table: Table, change: Change, used: Capacity, factor = 1): void {
  used.write += writeUnits(Math.max(change.old ? itemBytes(change.old) : 0, change.item ? itemBytes(change.item) : 0)) * factor;
  for (const index of table.indexes) {
    const before = table.indexItem(index, change.old);
    const after = table.indexItem(index, change.item);
    if ((!before && !after) || (before && after && equalMaps(before, after))) continue; // the index entry does not change: no write to the index
    // an entry whose index key changes is a delete and a put in the index; one that keeps it, a put
    const removed = before && (!after || indexKeyText(index, before) !== indexKeyText(index, after));
    const units = (removed ? writeUnits(itemBytes(before)) : 0) + (after ? writeUnits(itemBytes(after)) : 0);
    used.indexes.set(index.name, (used.indexes.get(index.name) ?? 0) + units * factor);
  }
}

function consumed(table: Table, used: Capacity, mode: string | undefined): Record<string, unknown> | undefined {
  if (mode !== 'TOTAL' && mode !== 'INDEXES') return undefined;
  const own = used.read + used.write;
  let total = own;
  for (const units of used.indexes.values()) total += units;
  if (mode === 'TOTAL') return { TableName: table.name, CapacityUnits: total };
  const gsis: Record<string, { CapacityUnits: number }> = {};
  const lsis: Record<string, { CapacityUnits: number }> = {};
  for (const [name, units] of used.indexes) (table.indexes.find((i) => i.name === name)!.kind === 'gsi' ? gsis : lsis)[name] = { CapacityUnits: units };
  return {
    TableName: table.name,
    CapacityUnits: total,
    Table: { CapacityUnits: own },
    ...(Object.keys(gsis).length ? { GlobalSecondaryIndexes: gsis } : {}),
    ...(Object.keys(lsis).length ? { LocalSecondaryIndexes: lsis } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The client.

const OPERATIONS: Readonly<Record<string, InMemoryOperation>> = {
  GetCommand: 'GetItem',
  PutCommand: 'PutItem',
  UpdateCommand: 'UpdateItem',
  DeleteCommand: 'DeleteItem',
  QueryCommand: 'Query',
  ScanCommand: 'Scan',
  BatchGetCommand: 'BatchGetItem',
  BatchWriteCommand: 'BatchWriteItem',
  TransactGetCommand: 'TransactGetItems',
  TransactWriteCommand: 'TransactWriteItems',
};
const CLIENT_OPERATIONS: Readonly<Record<string, InMemoryOperation>> = Object.fromEntries(Object.entries(OPERATIONS).map(([, op]) => [`${op}Command`, op]));

/** How a command is known: its class name, or (minified) its low-level command's name. */
function operationOf(command: { constructor: { name: string }; clientCommand?: { constructor: { name: string } } }): InMemoryOperation {
  const op = OPERATIONS[command.constructor.name] ?? (command.clientCommand ? CLIENT_OPERATIONS[command.clientCommand.constructor.name] : undefined);
  if (!op) throw new Error(`the in-memory table answers the DocumentClient's Get, Put, Update, Delete, Query, Scan, BatchGet, BatchWrite, TransactGet and TransactWrite commands; ${command.constructor.name} is not one of them`);
  return op;
}

const WRITES = new Set<InMemoryOperation>(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const timers = globalThis as unknown as { setTimeout(callback: () => void, ms: number): unknown };

/**
 * DynamoDB in memory: its tables, its clock, its stream and its faults. `InMemoryDynamoDB` is this
 * engine behind a DynamoDBDocumentClient (what generated code and tests use); `ddbgen local` calls
 * `request` with the low-level API's attribute values.
 */
export class InMemoryEngine {
  private readonly tables = new Map<string, Table>();
  private readonly random: () => number;
  private readonly rules: Array<{ rule: FaultRule; left: number }> = [];
  private readonly started: number | undefined;
  private offset = 0;
  private readonly gsiLagMs: number;
  private readonly maxAttempts: number;
  private readonly region: string;
  private readonly records = new Map<string, InMemoryStreamRecord[]>();
  private readonly taken = new Map<string, number>();
  private sequence = 0;
  private readonly tokens = new Map<string, { readonly input: string; readonly at: number }>();
  /** Items held by transactions in flight (a latency fault on TransactWriteItems), by id. */
  private readonly inFlight = new Map<string, number>();

  constructor(options: InMemoryOptions = {}) {
    this.random = generator(options.seed ?? 1);
    this.started = options.now === undefined ? undefined : new Date(options.now).getTime();
    this.gsiLagMs = options.gsiLagMs ?? 0;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.region = options.region ?? 'local';
  }

  /** Creates a table from a CreateTable input (the generated `<table>TableDefinition()`), with its TTL setting. */
  createTable(definition: CreateTableCommandInput, settings?: InMemoryTableSettings): this {
    if (!definition.TableName) throw new Error('createTable needs a TableName');
    if (this.tables.has(definition.TableName)) throw new Error(`the table ${definition.TableName} exists already`);
    this.tables.set(definition.TableName, new Table(definition, settings));
    this.records.set(definition.TableName, []);
    return this;
  }

  /** The table's clock, in milliseconds since the epoch. */
  now(): number {
    return (this.started ?? Date.now()) + this.offset;
  }

  /** Moves the table's clock forward (TTL, index lag and idempotency tokens follow it). */
  advanceTime(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advanceTime takes a non-negative number of milliseconds, got ${ms}`);
    this.offset += ms;
  }

  /**
   * Deletes the items whose Time to Live has passed (a number of epoch seconds at or before now,
   * and not more than five years ago, which DynamoDB never deletes), each streamed as a removal by
   * the service. Returns how many were deleted. DynamoDB does this on its own within days.
   */
  sweepExpired(tableName?: string): number {
    let count = 0;
    const now = this.now() / 1000;
    for (const table of this.selected(tableName)) {
      if (!table.ttl) continue;
      const expired = [...table.all()].filter((item) => {
        const value = item[table.ttl!] as { N?: string } | undefined;
        if (value?.N === undefined) return false;
        const at = Number(value.N);
        return at <= now && at > now - FIVE_YEARS_S;
      });
      for (const item of expired) {
        table.write({ old: item, item: undefined }, this.now(), this.gsiLagMs);
        this.stream(table, { old: item, item: undefined }, true);
        count++;
      }
    }
    return count;
  }

  /** Brings every lagging global secondary index up to date. */
  settleIndexes(tableName?: string): void {
    for (const table of this.selected(tableName)) table.settle();
  }

  /** Every item of a table (the only one when it has one), as the DocumentClient returns items, in scan order. */
  items(tableName?: string): Array<Record<string, unknown>> {
    return [...this.selected(tableName, true)[0]!.all()].map(unmarshallMap);
  }

  /** The table's stream records so far, oldest first (an empty list when the table has no stream). */
  streamRecords(tableName?: string): InMemoryStreamRecord[] {
    return [...this.records.get(this.selected(tableName, true)[0]!.name)!];
  }

  /** The stream records since the last call (for a Lambda-style handler: `{ Records: takeStreamRecords() }`). */
  takeStreamRecords(tableName?: string): InMemoryStreamRecord[] {
    const name = this.selected(tableName, true)[0]!.name;
    const all = this.records.get(name)!;
    const from = this.taken.get(name) ?? 0;
    this.taken.set(name, all.length);
    return all.slice(from);
  }

  /** Answers matching requests with a fault from now on; returns a function that removes the rule. */
  injectFault(rule: FaultRule): () => void {
    const entry = { rule, left: rule.times ?? Infinity };
    this.rules.push(entry);
    return () => {
      const at = this.rules.indexOf(entry);
      if (at >= 0) this.rules.splice(at, 1);
    };
  }

  clearFaults(): void {
    this.rules.length = 0;
  }

  /**
   * Answers one data-plane request of DynamoDB's low-level API (what `ddbgen local` serves):
   * attribute values in and out as the API carries them (binary as bytes, or base64 text), so
   * numbers of 38 digits and sets come back exactly. A refusal is thrown as a RequestError (`type`
   * is DynamoDB's error name). Faults are not applied.
   */
  request(operation: InMemoryOperation, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const previous = codec;
    codec = WIRE;
    try {
      return this.dispatch(operation, input as RequestInput, undefined) as Record<string, unknown>;
    } finally {
      codec = previous;
    }
  }

  /** Drops a table, its items and its stream records. */
  deleteTable(tableName: string): void {
    this.selected(tableName);
    this.tables.delete(tableName);
    this.records.delete(tableName);
    this.taken.delete(tableName);
  }

  /** Every item of a table as attribute values, in scan order (copies). */
  rawItems(tableName: string): AttributeMap[] {
    return [...this.selected(tableName)[0]!.all()].map(copyMap);
  }

  /** Writes items as they are (attribute values), with no stream records and no checks: a table restored from a copy. */
  restoreItems(tableName: string, items: readonly AttributeMap[]): void {
    const table = this.selected(tableName)[0]!;
    for (const item of items) table.write({ old: table.get(table.keyOf(item)), item: copyMap(item) }, this.now(), 0);
  }

  /** Turns Time to Live on (the attribute that holds the expiry) or off (undefined). */
  setTimeToLive(tableName: string, attribute: string | undefined): void {
    this.selected(tableName)[0]!.ttl = attribute;
  }

  /** Turns the stream on (its view type) or off (undefined); records kept so far stay. */
  setStream(tableName: string, viewType: string | undefined): void {
    this.selected(tableName)[0]!.streamView = viewType;
  }

  /** Adds a global secondary index and fills it from the items already in the table. */
  addIndex(tableName: string, index: GlobalSecondaryIndex, types: Readonly<Record<string, 'S' | 'N' | 'B'>>): void {
    const table = this.selected(tableName)[0]!;
    for (const [name, type] of Object.entries(types)) if (!table.types.has(name)) table.types.set(name, type);
    const elements = index.KeySchema ?? [];
    const shape: IndexShape = {
      name: index.IndexName!,
      kind: 'gsi',
      key: { hash: elements.filter((e) => e.KeyType === 'HASH').map((e) => e.AttributeName!), range: elements.filter((e) => e.KeyType === 'RANGE').map((e) => e.AttributeName!) },
      projection: (index.Projection?.ProjectionType ?? 'ALL') as IndexShape['projection'],
      include: index.Projection?.NonKeyAttributes ?? [],
    };
    table.settle();
    table.indexes.push(shape);
    table.spaces.set(shape.name, new KeySpace(shape.key));
    for (const item of table.all()) {
      // an item whose index key has another type than the index declares is left out, as DynamoDB's backfill leaves it
      if ([...shape.key.hash, ...shape.key.range].some((name) => item[name] !== undefined && typeOf(item[name]!) !== table.types.get(name))) continue;
      table.indexWrite(shape, undefined, item);
    }
  }

  /** Removes a global secondary index. */
  removeIndex(tableName: string, indexName: string): void {
    const table = this.selected(tableName)[0]!;
    table.settle();
    const at = table.indexes.findIndex((index) => index.name === indexName);
    if (at >= 0) table.indexes.splice(at, 1);
    table.spaces.delete(indexName);
  }

  private selected(tableName: string | undefined, one = false): Table[] {
    if (tableName !== undefined) {
      const table = this.tables.get(tableName);
      if (!table) throw new Error(`no in-memory table ${tableName}`);
      return [table];
    }
    if (one && this.tables.size !== 1) throw new Error(`name the table: this client holds ${this.tables.size} tables`);
    return [...this.tables.values()];
  }

  private table(name: string | undefined): Table {
    const table = name === undefined ? undefined : this.tables.get(name);
    if (!table) throw notFound();
    table.catchUp(this.now());
    return table;
  }

  /** The fault a request gets, if any (rules in the order given; the first that draws it wins). */
  private faultFor(operation: InMemoryOperation): Fault | undefined {
    for (const entry of this.rules) {
      const { rule } = entry;
      if (entry.left <= 0 || (rule.operations && !rule.operations.includes(operation))) continue;
      if (rule.probability !== undefined && this.random() >= rule.probability) continue;
      entry.left--;
      return rule.fault;
    }
    return undefined;
  }

  /**
   * Answers a DocumentClient command (what `InMemoryDynamoDB.send` is given): the command's own
   * middleware (what generated code adds, such as its guard against retrying ambiguous writes)
   * runs around the answer, inside the attempts the SDK's retry would make.
   */
  async answer(command: { input: RequestInput; middlewareStack?: { identify(): string[]; resolve(handler: unknown, context: unknown): (args: unknown) => Promise<{ output: unknown }> } } & Parameters<typeof operationOf>[0]): Promise<unknown> {
    const operation = operationOf(command);
    // the DocumentClient marshalls the input before the command's middleware runs: its errors (an
    // undefined value, a number past 2^53) are raised before it, never seen by it as a failed request
    checkMarshalling(command.input);
    const handler = async () => ({ output: await this.attempt(operation, command.input), response: {} });
    const stack = command.middlewareStack;
    const run = stack && stack.identify().length > 0 ? () => stack.resolve(handler, {})({ input: command.input }) : handler;
    for (let attempt = 1; ; attempt++) {
      try {
        return (await run()).output;
      } catch (error) {
        const retryable = (error as { $retryable?: unknown; $fault?: string; name?: string }).$fault === 'server' || /Throttl|ProvisionedThroughputExceeded/.test((error as { name?: string }).name ?? '');
        if (!retryable || attempt >= this.maxAttempts) {
          if ((error as { $metadata?: { attempts?: number } }).$metadata) (error as { $metadata: { attempts: number } }).$metadata.attempts = attempt;
          throw error;
        }
      }
    }
  }

  private async attempt(operation: InMemoryOperation, input: RequestInput): Promise<unknown> {
    const fault = this.faultFor(operation);
    if (fault?.kind === 'latency') {
      // a transaction in flight holds its items: single writes and other transactions on them conflict until it is done
      const held = operation === 'TransactWriteItems' ? this.transactionItems(input) : [];
      for (const id of held) this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
      try {
        await new Promise<void>((resolve) => timers.setTimeout(resolve, fault.ms));
      } finally {
        for (const id of held) this.inFlight.set(id, this.inFlight.get(id)! - 1);
      }
    }
    try {
      if (fault?.kind === 'throttle') throw this.throttle(operation, input, fault.reason);
      if (fault?.kind === 'server-error' && !(fault.applied && WRITES.has(operation))) throw this.serverError(fault.status);
      if (fault?.kind === 'conflict' && operation !== 'TransactWriteItems' && WRITES.has(operation)) throw conflict();
      const output = this.dispatch(operation, input, fault);
      if (fault?.kind === 'server-error') throw this.serverError(fault.status);
      return { ...(output as object), $metadata: metadata(200) };
    } catch (error) {
      if (error instanceof RequestError) throw await serviceError(error);
      throw error;
    }
  }

  /** The ids of the items a TransactWriteItems request names (none when it names them wrongly: its answer says so). */
  private transactionItems(input: RequestInput): string[] {
    try {
      return (input.TransactItems ?? []).map((entry) => {
        const request = Object.values(entry).find((value) => value !== undefined)!;
        const table = this.table(request.TableName);
        return this.itemId(table, request.Item ? table.keyOf(marshallMap(request.Item)) : marshallMap(request.Key ?? {}));
      });
    } catch {
      return [];
    }
  }

  private itemId(table: Table, key: Readonly<AttributeMap>): string {
    return `${table.name}\u0000${table.idOf(key)}`;
  }

  /** Whether a transaction in flight holds the item. */
  private held(table: Table, key: Readonly<AttributeMap>): boolean {
    return (this.inFlight.get(this.itemId(table, key)) ?? 0) > 0;
  }

  private serverError(status: 500 | 503 | undefined): RequestError {
    return status === 503 ? new RequestError('ServiceUnavailable', 'Service Unavailable') : new RequestError('InternalServerError', 'Internal server error');
  }

  private throttle(operation: InMemoryOperation, input: RequestInput, reason: string | undefined): RequestError {
    const name = input.TableName ?? Object.keys(input.RequestItems ?? {})[0] ?? (input.TransactItems?.[0] ? Object.values(input.TransactItems[0])[0]?.TableName : undefined) ?? '';
    const table = this.tables.get(name);
    const write = WRITES.has(operation);
    const why = reason ?? `Table${write ? 'Write' : 'Read'}${table?.provisioned ? 'ProvisionedThroughputExceeded' : 'KeyRangeThroughputExceeded'}`;
    const ThrottlingReasons = [{ reason: why, resource: `arn:aws:dynamodb:${this.region}:000000000000:table/${name}` }];
    if (why.endsWith('MaxOnDemandThroughputExceeded')) {
      return new RequestError('ThrottlingException', 'Throughput exceeds the maximum OnDemandThroughput configured on table or index', { throttlingReasons: ThrottlingReasons });
    }
    const message = why.endsWith('ProvisionedThroughputExceeded')
      ? 'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.'
      : 'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html';
    return new RequestError('ProvisionedThroughputExceededException', message, { ThrottlingReasons });
  }

  private dispatch(operation: InMemoryOperation, input: RequestInput, fault: Fault | undefined): unknown {
    switch (operation) {
      case 'GetItem':
        return this.getItem(input);
      case 'PutItem':
      case 'UpdateItem':
      case 'DeleteItem':
        return this.singleWrite(operation, input);
      case 'Query':
        return this.query(input);
      case 'Scan':
        return this.scan(input);
      case 'BatchGetItem':
        return this.batchGet(input, fault);
      case 'BatchWriteItem':
        return this.batchWrite(input, fault);
      case 'TransactGetItems':
        return this.transactGet(input);
      case 'TransactWriteItems':
        return this.transactWrite(input, fault);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Reads.

  private getItem(input: RequestInput): unknown {
    const table = this.table(input.TableName);
    const aliases = aliasesOf(input, input.ProjectionExpression !== undefined);
    const { projection } = expressions(input, ['ProjectionExpression'], aliases);
    aliases.checkAllUsed();
    const key = checkKey(table, marshallMap(input.Key ?? {}));
    const item = table.get(key);
    const used = capacity();
    used.read = readUnits(item ? itemBytes(item) : 0, input.ConsistentRead === true);
    const out: Record<string, unknown> = {};
    if (item) out.Item = unmarshallMap(projection ? project(item, projection) : item);
    const cc = consumed(table, used, input.ReturnConsumedCapacity);
    if (cc) out.ConsumedCapacity = cc;
    return out;
  }

  /** The key space a Query or Scan reads, and the attributes its items are returned with. */
  private space(table: Table, input: RequestInput): { space: KeySpace; index: IndexShape | undefined } {
    if (input.IndexName === undefined) return { space: table.data, index: undefined };
    const index = table.indexes.find((i) => i.name === input.IndexName);
    if (!index) throw validation(`The table does not have the specified index: ${input.IndexName}`);
    if (index.kind === 'gsi' && input.ConsistentRead) throw validation('Consistent reads are not supported on global secondary indexes');
    if (input.Select === 'ALL_ATTRIBUTES' && index.projection !== 'ALL' && index.kind === 'gsi') {
      throw validation(`One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index ${index.name} because its projection type is not ALL`);
    }
    return { space: table.spaces.get(index.name)!, index };
  }

  /** The position after which a page starts, checked as DynamoDB checks an ExclusiveStartKey. */
  private startKey(table: Table, index: IndexShape | undefined, given: Record<string, unknown> | undefined): AttributeMap | undefined {
    if (given === undefined) return undefined;
    const start = marshallMap(given);
    const names = [...new Set([...table.keyNames, ...(index ? [...index.key.hash, ...index.key.range] : [])])];
    if (Object.keys(start).length !== names.length || names.some((name) => start[name] === undefined)) throw validation("Exclusive Start Key must have same size as table's key schema");
    for (const name of names) if (typeOf(start[name]!) !== table.types.get(name)) throw validation('The provided starting key is invalid: The provided key element does not match the schema');
    return start;
  }

  private query(input: RequestInput): unknown {
    const table = this.table(input.TableName);
    const aliases = aliasesOf(input, true);
    if (input.KeyConditionExpression === undefined) throw validation('Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.');
    const { space, index } = this.space(table, input);
    const keyCondition = resolveCondition(parseCondition('KeyConditionExpression', input.KeyConditionExpression), aliases, 'KeyConditionExpression');
    const { filter, projection } = expressions(input, ['FilterExpression', 'ProjectionExpression'], aliases);
    aliases.checkAllUsed();
    if (input.Limit !== undefined && input.Limit < 1) throw validation('Limit must be greater than or equal to 1');
    if (filter) checkFilterKeys(filter, space.key);
    if (index && filter) checkProjected(table, index, 'filter', topNames(filter));
    if (index && projection) checkProjected(table, index, 'projection', projection.map((parts) => parts[0] as string));
    const { partition, test, bounds } = keyTest(keyCondition, space.key);
    const start = this.startKey(table, index, input.ExclusiveStartKey);
    if (start && test && !test(start)) throw validation('The provided starting key does not match the range key predicate');
    const entries = space.partitions.get(partition)?.entries ?? [];
    const forward = input.ScanIndexForward !== false;
    const startOrder = start ? [...space.key.range.map((name) => start[name]!), ...(space === table.data ? [] : table.keyNames.map((name) => start[name]!))] : undefined;
    let from: number;
    if (forward) {
      from = startOrder ? lowerBound(entries, startOrder) : 0;
      if (startOrder && from < entries.length && compareOrder(entries[from]!.order, startOrder) === 0) from++;
    } else {
      from = (startOrder ? lowerBound(entries, startOrder) : entries.length) - 1;
    }
    // the entries a key condition selects are contiguous in the partition's order
    const candidates = function* () {
      let matched = false;
      for (let i = from; forward ? i < entries.length : i >= 0; i += forward ? 1 : -1) {
        const entry = entries[i]!;
        if (!test || test(entry.item)) {
          matched = true;
          yield entry;
        } else if (matched) return;
      }
    };
    // a page that ends on the inclusive bound the query reads towards has nothing after it: no LastEvaluatedKey (as DynamoDB Local answers)
    const end = forward ? bounds.high : bounds.low;
    const atEnd = end && bounds.attribute ? (entry: Entry) => compareScalars(entry.item[bounds.attribute!]!, end) === 0 : undefined;
    return this.page(table, index, input, candidates(), filter, projection, atEnd);
  }

  private scan(input: RequestInput): unknown {
    const table = this.table(input.TableName);
    const aliases = aliasesOf(input, input.FilterExpression !== undefined || input.ProjectionExpression !== undefined);
    const { space, index } = this.space(table, input);
    const { filter, projection } = expressions(input, ['FilterExpression', 'ProjectionExpression'], aliases);
    aliases.checkAllUsed();
    if (index && projection) checkProjected(table, index, 'projection', projection.map((parts) => parts[0] as string));
    if (input.Limit !== undefined && input.Limit < 1) throw validation('Limit must be greater than or equal to 1');
    const segments = input.TotalSegments;
    if (input.Segment !== undefined && segments === undefined) throw validation('If segment is specified, total segment must also be specified');
    if (segments !== undefined && input.Segment === undefined) throw validation('If total segment is specified, segment must also be specified');
    if (segments !== undefined && (segments < 1 || segments > 1_000_000)) throw validation(`1 validation error detected: Value '${segments}' at 'totalSegments' failed to satisfy constraint: Member must have value ${segments < 1 ? 'greater than or equal to 1' : 'less than or equal to 1000000'}`);
    if (segments !== undefined && (input.Segment! < 0 || input.Segment! >= segments)) {
      throw validation(`1 validation error detected: Value '${input.Segment}' at 'segment' failed to satisfy constraint: Member must have value ${input.Segment! < 0 ? 'greater than or equal to 0' : `less than or equal to ${segments - 1}`}`);
    }
    const start = this.startKey(table, index, input.ExclusiveStartKey);
    const partitions = space.scanPartitions();
    const inSegment = (id: string) => segments === undefined || Math.floor((space.partitions.get(id)!.hash * segments) / 4294967296) === input.Segment;
    let first = 0;
    let startOrder: AttributeValue[] | undefined;
    if (start) {
      const id = space.partitionOf(start);
      const hash = hashOf(id);
      first = partitions.findIndex((p) => {
        const h = space.partitions.get(p)!.hash;
        return h > hash || (h === hash && p >= id);
      });
      if (first === -1) first = partitions.length;
      else if (partitions[first] === id) startOrder = [...space.key.range.map((name) => start[name]!), ...(space === table.data ? [] : table.keyNames.map((name) => start[name]!))];
    }
    const candidates = function* () {
      for (let p = first; p < partitions.length; p++) {
        const id = partitions[p]!;
        if (!inSegment(id)) continue;
        const entries = space.partitions.get(id)!.entries;
        let i = 0;
        if (p === first && startOrder) {
          i = lowerBound(entries, startOrder);
          if (i < entries.length && compareOrder(entries[i]!.order, startOrder) === 0) i++;
        }
        for (; i < entries.length; i++) yield entries[i]!;
      }
    };
    return this.page(table, index, input, candidates(), filter, projection);
  }

  /** One page of a Query or Scan: Limit items evaluated (before the filter), at most 1 MB read. */
  private page(
    table: Table,
    index: IndexShape | undefined,
    input: RequestInput,
    candidates: Iterable<Entry>,
    filter: ResolvedCondition | undefined,
    projection: PathPart[][] | undefined,
    atEnd?: (entry: Entry) => boolean,
  ): unknown {
    const items: Array<Record<string, unknown>> = [];
    let scanned = 0;
    let bytes = 0;
    let last: Entry | undefined;
    let more = false;
    const count = input.Select === 'COUNT';
    let counted = 0;
    // a local index reads what it does not project from the table (a global one cannot): the 1 MB
    // and the read units count what was read, the index entry or the table's item (DynamoDB Local
    // counts the table's item either way)
    // (a scan's filter on what the index does not project reads the table's item too, as DynamoDB Local does)
    const unprojected = (names: readonly string[]) => names.some((name) => !projectedNames(table, index!).has(name));
    const fetches =
      index?.kind === 'lsi' &&
      index.projection !== 'ALL' &&
      (input.Select === 'ALL_ATTRIBUTES' || unprojected((projection ?? []).map((parts) => parts[0] as string)) || (filter !== undefined && unprojected(topNames(filter))));
    for (const entry of candidates) {
      if ((input.Limit !== undefined && scanned >= input.Limit) || bytes >= PAGE_BYTES) {
        more = true;
        break;
      }
      scanned++;
      last = entry;
      const whole = fetches ? (table.get(table.keyOf(entry.item)) ?? entry.item) : entry.item;
      bytes += whole === entry.item ? entry.size : itemBytes(whole);
      if (filter && !evaluateCondition(filter, whole)) continue;
      counted++;
      if (count) continue;
      const item = projection ? project(whole, projection) : input.Select === 'ALL_ATTRIBUTES' ? whole : entry.item;
      items.push(unmarshallMap(item));
    }
    if (!more && input.Limit !== undefined && scanned >= input.Limit && last) more = !atEnd?.(last);
    const used = capacity();
    const units = scanned === 0 ? 0 : readUnits(bytes, input.ConsistentRead === true);
    if (index) used.indexes.set(index.name, units);
    else used.read = units;
    const out: Record<string, unknown> = count ? { Count: counted, ScannedCount: scanned } : { Items: items, Count: counted, ScannedCount: scanned };
    if (more && last) {
      const key: AttributeMap = table.keyOf(last.item);
      if (index) for (const name of [...index.key.hash, ...index.key.range]) key[name] = last.item[name]!;
      out.LastEvaluatedKey = unmarshallMap(key);
    }
    const cc = consumed(table, used, input.ReturnConsumedCapacity);
    if (cc) out.ConsumedCapacity = cc;
    return out;
  }

  private batchGet(input: RequestInput, fault: Fault | undefined): unknown {
    const requested = Object.entries((input.RequestItems ?? {}) as Record<string, { Keys?: Array<Record<string, unknown>>; ConsistentRead?: boolean; ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> }>);
    const total = requested.reduce((sum, [, r]) => sum + (r.Keys?.length ?? 0), 0);
    if (total > 100) throw validation('Too many items requested for the BatchGetItem call');
    const plans = requested.map(([name, request]) => {
      const table = this.table(name);
      const aliases = aliasesOf(request, request.ProjectionExpression !== undefined);
      const { projection } = expressions(request, ['ProjectionExpression'], aliases);
      aliases.checkAllUsed();
      const keys = (request.Keys ?? []).map((key) => checkKey(table, marshallMap(key)));
      const ids = new Set<string>();
      for (const key of keys) {
        const id = table.idOf(key);
        if (ids.has(id)) throw validation('Provided list of item keys contains duplicates');
        ids.add(id);
      }
      return { name, table, request, keys, projection };
    });
    const skipped = this.unprocessed(fault, plans.flatMap((plan) => plan.keys.map((key) => ({ plan, key }))));
    const Responses: Record<string, Array<Record<string, unknown>>> = {};
    const UnprocessedKeys: Record<string, { Keys: Array<Record<string, unknown>>; ConsistentRead?: boolean }> = {};
    const capacities: Array<Record<string, unknown>> = [];
    let responseBytes = 0;
    for (const plan of plans) {
      const used = capacity();
      const found: Array<Record<string, unknown>> = [];
      for (const key of plan.keys) {
        const item = skipped.has(key) ? undefined : plan.table.get(key);
        // a response holds at most 16 MB of items (whole items, whatever the projection); the keys past it come back unprocessed
        if (item && (responseBytes += itemBytes(item)) > BATCH_GET_BYTES) skipped.add(key);
        if (skipped.has(key)) {
          (UnprocessedKeys[plan.name] ??= { Keys: [], ...(plan.request.ConsistentRead ? { ConsistentRead: true } : {}) }).Keys.push(unmarshallMap(key));
          continue;
        }
        if (!item) continue;
        used.read += readUnits(itemBytes(item), plan.request.ConsistentRead === true);
        found.push(unmarshallMap(plan.projection ? project(item, plan.projection) : item));
      }
      Responses[plan.name] = found;
      const cc = consumed(plan.table, used, input.ReturnConsumedCapacity);
      if (cc) capacities.push(cc);
    }
    return { Responses, UnprocessedKeys, ...(capacities.length ? { ConsumedCapacity: capacities } : {}) };
  }

  private transactGet(input: RequestInput): unknown {
    const items = input.TransactItems ?? [];
    if (items.length === 0) throw validation("Value [] at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1");
    if (items.length > 100) throw validation('Member must have length less than or equal to 100');
    const seen = new Set<string>();
    const reads = items.map((entry) => {
      const get = entry.Get;
      if (!get) throw validation('TransactGetItems takes Get actions only');
      const table = this.table(get.TableName);
      const aliases = aliasesOf(get, get.ProjectionExpression !== undefined);
      const { projection } = expressions(get, ['ProjectionExpression'], aliases);
      aliases.checkAllUsed();
      const key = checkKey(table, marshallMap(get.Key ?? {}));
      const id = `${table.name}\u0000${table.idOf(key)}`;
      if (seen.has(id)) throw validation('Transaction request cannot include multiple operations on one item');
      seen.add(id);
      return { table, key, projection };
    });
    const usedBy = new Map<Table, Capacity>();
    const Responses = reads.map(({ table, key, projection }) => {
      const item = table.get(key);
      const used = usedBy.get(table) ?? capacity();
      usedBy.set(table, used);
      used.read += 2 * readUnits(item ? itemBytes(item) : 0, true);
      return item ? { Item: unmarshallMap(projection ? project(item, projection) : item) } : {};
    });
    const capacities = [...usedBy].map(([table, used]) => consumed(table, used, input.ReturnConsumedCapacity)).filter((c) => c !== undefined);
    return { Responses, ...(capacities.length ? { ConsumedCapacity: capacities } : {}) };
  }

  // -------------------------------------------------------------------------------------------
  // Writes.

  /** A planned write of one item: checked, its condition resolved, its outcome computable. */
  private planWrite(kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck', input: RequestInput): PlannedWrite {
    const table = this.table(input.TableName);
    const hasExpression = input.ConditionExpression !== undefined || input.UpdateExpression !== undefined;
    const aliases = aliasesOf(input, hasExpression);
    let item: AttributeMap | undefined;
    let key: AttributeMap;
    if (kind === 'Put') {
      item = marshallMap(input.Item ?? {});
      checkItem(table, item);
      key = table.keyOf(item);
    } else key = checkKey(table, marshallMap(input.Key ?? {}));
    const actions = kind === 'Update' ? (input.UpdateExpression === undefined ? undefined : resolveUpdate(parseUpdate(input.UpdateExpression), aliases, table.keyNames)) : undefined;
    if (kind === 'Update' && !actions) throw validation('UpdateExpression is missing: the in-memory table answers expressions, not AttributeUpdates');
    if (kind === 'ConditionCheck' && input.ConditionExpression === undefined) throw validation('The ConditionExpression of a ConditionCheck is missing');
    const { condition } = expressions(input, ['ConditionExpression'], aliases);
    aliases.checkAllUsed();
    return {
      kind,
      table,
      key,
      input,
      ...(condition ? { condition } : {}),
      /** The item after the write, given the item before (undefined: absent after). */
      next: (old: AttributeMap | undefined): AttributeMap | undefined => {
        if (kind === 'Put') return copyMap(item!);
        if (kind === 'Delete') return undefined;
        if (kind === 'ConditionCheck') return old;
        const updated = applyUpdate(actions!, old ?? copyMap(key));
        checkItem(table, updated, true);
        return updated;
      },
      actions: actions ?? [],
    };
  }

  private checkCondition(plan: PlannedWrite, old: AttributeMap | undefined): void {
    if (plan.condition && !evaluateCondition(plan.condition, old ?? {})) throw new ConditionFailure(old);
  }

  private singleWrite(operation: 'PutItem' | 'UpdateItem' | 'DeleteItem', input: RequestInput): unknown {
    const kind = operation === 'PutItem' ? 'Put' : operation === 'UpdateItem' ? 'Update' : 'Delete';
    const plan = this.planWrite(kind, input);
    const returnValues = checkReturnValues(input.ReturnValues, kind === 'Update' ? ['NONE', 'ALL_OLD', 'UPDATED_OLD', 'ALL_NEW', 'UPDATED_NEW'] : ['NONE', 'ALL_OLD']);
    if (this.held(plan.table, plan.key)) throw conflict();
    const old = plan.table.get(plan.key);
    try {
      this.checkCondition(plan, old);
    } catch (error) {
      if (!(error instanceof ConditionFailure)) throw error;
      throw new RequestError('ConditionalCheckFailedException', error.message, input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && old ? { Item: copyMap(old) } : {});
    }
    const item = plan.next(old);
    const used = capacity();
    if (input.ReturnConsumedCapacity === 'TOTAL' || input.ReturnConsumedCapacity === 'INDEXES') chargeWrite(plan.table, { old, item }, used);
    if (old || item) this.apply(plan.table, { old, item });
    const out: Record<string, unknown> = {};
    const attributes = returned(returnValues, old, item, plan.actions);
    if (attributes) out.Attributes = unmarshallMap(attributes);
    const cc = consumed(plan.table, used, input.ReturnConsumedCapacity);
    if (cc) out.ConsumedCapacity = cc;
    return out;
  }

  private apply(table: Table, change: Change): void {
    table.write(change, this.now(), this.gsiLagMs);
    this.stream(table, change, false);
  }

  private stream(table: Table, change: Change, expired: boolean): void {
    const view = table.streamView;
    if (!view) return;
    const { old, item } = change;
    if (old && item && equalMaps(old, item)) return; // DynamoDB writes no record for a write that changes nothing
    const keys = table.keyOf((item ?? old)!);
    const NewImage = item && (view === 'NEW_IMAGE' || view === 'NEW_AND_OLD_IMAGES') ? copyMap(item) : undefined;
    const OldImage = old && (view === 'OLD_IMAGE' || view === 'NEW_AND_OLD_IMAGES') ? copyMap(old) : undefined;
    const sequence = String(++this.sequence).padStart(21, '0');
    const record: InMemoryStreamRecord = {
      eventID: `${sequence.slice(-12)}-${table.name}`,
      eventName: !old ? 'INSERT' : !item ? 'REMOVE' : 'MODIFY',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: this.region,
      dynamodb: {
        ApproximateCreationDateTime: new Date(Math.floor(this.now() / 1000) * 1000),
        Keys: copyMap(keys),
        ...(NewImage ? { NewImage } : {}),
        ...(OldImage ? { OldImage } : {}),
        SequenceNumber: sequence,
        SizeBytes: itemBytes(keys) + (NewImage ? itemBytes(NewImage) : 0) + (OldImage ? itemBytes(OldImage) : 0),
        StreamViewType: view,
      },
      ...(expired ? { userIdentity: { PrincipalId: 'dynamodb.amazonaws.com', Type: 'Service' } as const } : {}),
    };
    this.records.get(table.name)!.push(record);
  }

  /** The requests a fault leaves unprocessed: a seeded draw of `share` of them, at least one. */
  private unprocessed<T extends { key: AttributeMap }>(fault: Fault | undefined, all: readonly T[]): Set<AttributeMap> {
    if (fault?.kind !== 'unprocessed' || all.length === 0) return new Set();
    const count = Math.min(all.length, Math.max(1, Math.round(all.length * (fault.share ?? 0.5))));
    const order = all.map((entry) => ({ entry, draw: this.random() })).sort((a, b) => a.draw - b.draw);
    return new Set(order.slice(0, count).map(({ entry }) => entry.key));
  }

  private batchWrite(input: RequestInput, fault: Fault | undefined): unknown {
    const requested = Object.entries((input.RequestItems ?? {}) as Record<string, Array<{ PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: { Key: Record<string, unknown> } }>>);
    const total = requested.reduce((sum, [, list]) => sum + list.length, 0);
    if (total > 25) throw validation('Too many items requested for the BatchWriteItem call');
    const writes = requested.flatMap(([name, list]) => {
      const table = this.table(name);
      if (list.length === 0) throw validation(`The batch write request list for a table cannot be null or empty: ${name}`);
      const ids = new Set<string>();
      return list.map((request) => {
        let item: AttributeMap | undefined;
        let key: AttributeMap;
        if (request.PutRequest) {
          item = marshallMap(request.PutRequest.Item);
          checkItem(table, item);
          key = table.keyOf(item);
        } else key = checkKey(table, marshallMap(request.DeleteRequest?.Key ?? {}));
        const id = table.idOf(key);
        if (ids.has(id)) throw validation('Provided list of item keys contains duplicates');
        ids.add(id);
        return { name, table, request, key, item };
      });
    });
    const skipped = this.unprocessed(fault, writes);
    const UnprocessedItems: Record<string, unknown[]> = {};
    const usedBy = new Map<Table, Capacity>();
    for (const write of writes) {
      if (skipped.has(write.key)) {
        (UnprocessedItems[write.name] ??= []).push(write.request);
        continue;
      }
      const old = write.table.get(write.key);
      const change = { old, item: write.item ? copyMap(write.item) : undefined };
      const used = usedBy.get(write.table) ?? capacity();
      usedBy.set(write.table, used);
      chargeWrite(write.table, change, used);
      if (old || change.item) this.apply(write.table, change);
    }
    const capacities = [...usedBy].map(([table, used]) => consumed(table, used, input.ReturnConsumedCapacity)).filter((c) => c !== undefined);
    return { UnprocessedItems, ...(capacities.length ? { ConsumedCapacity: capacities } : {}) };
  }

  private transactWrite(input: RequestInput, fault: Fault | undefined): unknown {
    const items = input.TransactItems ?? [];
    if (items.length === 0) throw validation("Value [] at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1");
    if (items.length > 100) throw validation('Member must have length less than or equal to 100');
    const seen = new Set<string>();
    let bytes = 0;
    const plans = items.map((entry) => {
      const [kind, request] = Object.entries(entry).find(([, value]) => value !== undefined) ?? [];
      if (kind !== 'Put' && kind !== 'Update' && kind !== 'Delete' && kind !== 'ConditionCheck') throw validation('A transaction item holds one of Put, Update, Delete or ConditionCheck');
      const plan = this.planWrite(kind, request!);
      const id = `${plan.table.name}\u0000${plan.table.idOf(plan.key)}`;
      if (seen.has(id)) throw validation('Transaction request cannot include multiple operations on one item');
      seen.add(id);
      bytes += kind === 'Put' ? itemBytes(marshallMap(request!.Item ?? {})) : itemBytes(plan.key);
      return plan;
    });
    if (bytes > TRANSACTION_BYTES) throw validation(`Transaction payload size cannot exceed 4MB. Payload Size: ${bytes}`);
    const token = input.ClientRequestToken;
    const fingerprint = token === undefined ? '' : JSON.stringify(items, (_, v: unknown) => (v instanceof Set ? [...v] : typeof v === 'bigint' ? String(v) : v));
    if (token !== undefined) {
      const previous = this.tokens.get(token);
      if (previous && this.now() - previous.at < TOKEN_MS) {
        if (previous.input !== fingerprint) throw new RequestError('IdempotentParameterMismatchException', 'The request uses the same client token as a previous, but non-identical request.');
        // done already: nothing is written again, and the capacity is that of reading the items
        const usedBy = new Map<Table, Capacity>();
        for (const plan of plans) {
          const used = usedBy.get(plan.table) ?? capacity();
          usedBy.set(plan.table, used);
          const item = plan.table.get(plan.key);
          used.read += 2 * readUnits(item ? itemBytes(item) : 0, true);
        }
        const capacities = [...usedBy].map(([table, used]) => consumed(table, used, input.ReturnConsumedCapacity)).filter((c) => c !== undefined);
        return capacities.length ? { ConsumedCapacity: capacities } : {};
      }
    }
    // every condition against the items as they are, then every write, or none
    const reasons: Array<{ Code: string; Message?: string; Item?: AttributeMap }> = [];
    const changes: Array<{ plan: PlannedWrite; change: Change }> = [];
    for (const plan of plans) {
      const old = plan.table.get(plan.key);
      if (this.held(plan.table, plan.key)) {
        reasons.push({ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' });
        continue;
      }
      try {
        this.checkCondition(plan, old);
        const item = plan.next(old);
        changes.push({ plan, change: { old, item } });
        reasons.push({ Code: 'None' });
      } catch (error) {
        if (error instanceof ConditionFailure) {
          // DynamoDB Local ends the message of a failed ConditionCheck with a full stop
          const asked = plan.input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD';
          reasons.push({ Code: 'ConditionalCheckFailed', Message: `The conditional request failed${plan.kind === 'ConditionCheck' ? '.' : ''}`, ...(asked && old ? { Item: copyMap(old) } : {}) });
        } else throw error; // an update that cannot apply (an operand of the wrong type) fails the whole request, as DynamoDB Local answers it
      }
    }
    if (fault?.kind === 'conflict' && reasons[0]?.Code === 'None') reasons[0] = { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' };
    if (reasons.some((r) => r.Code !== 'None')) {
      const codes = reasons.map((r) => r.Code).join(', ');
      const message = `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes}]`;
      throw new RequestError('TransactionCanceledException', message, { CancellationReasons: reasons });
    }
    const usedBy = new Map<Table, Capacity>();
    for (const { plan, change } of changes) {
      const used = usedBy.get(plan.table) ?? capacity();
      usedBy.set(plan.table, used);
      if (plan.kind === 'ConditionCheck') {
        used.read += 2 * readUnits(change.old ? itemBytes(change.old) : 0, true);
        continue;
      }
      chargeWrite(plan.table, change, used, 2);
      if (change.old || change.item) this.apply(plan.table, change);
    }
    if (token !== undefined) this.tokens.set(token, { input: fingerprint, at: this.now() });
    const capacities = [...usedBy].map(([table, used]) => consumed(table, used, input.ReturnConsumedCapacity)).filter((c) => c !== undefined);
    return capacities.length ? { ConsumedCapacity: capacities } : {};
  }
}

interface PlannedWrite {
  readonly kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  readonly table: Table;
  readonly key: AttributeMap;
  readonly input: RequestInput;
  readonly condition?: ResolvedCondition;
  next(old: AttributeMap | undefined): AttributeMap | undefined;
  readonly actions: readonly ResolvedAction[];
}

/** What a write returns for its ReturnValues. */
function returned(returnValues: string, old: AttributeMap | undefined, item: AttributeMap | undefined, actions: readonly ResolvedAction[]): AttributeMap | undefined {
  switch (returnValues) {
    case 'ALL_OLD':
      return old ? copyMap(old) : undefined;
    case 'ALL_NEW':
      return item ? copyMap(item) : undefined;
    case 'UPDATED_OLD':
      return updatedValues(actions, old);
    case 'UPDATED_NEW':
      return updatedValues(actions, item);
    default:
      return undefined;
  }
}

/** The top-level attribute names a condition reads, in order of appearance. */
function topNames(condition: ResolvedCondition): string[] {
  const names: string[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const n = node as { kind?: string; parts?: PathPart[] };
    if ((n.kind === 'path' || n.kind === 'if_not_exists') && n.parts && !names.includes(n.parts[0] as string)) names.push(n.parts[0] as string);
    for (const value of Object.values(node)) if (typeof value === 'object') Array.isArray(value) ? value.forEach(visit) : visit(value);
  };
  visit(condition);
  return names;
}

/**
 * What a query's filter or a read's projection names must be in the index (a local index reads a
 * projection's other attributes from the table), as DynamoDB Local checks it.
 */
/** The attributes an index that does not project ALL holds: the table's keys, its own, and what it includes. */
function projectedNames(table: Table, index: IndexShape): Set<string> {
  return new Set([...table.keyNames, ...index.key.hash, ...index.key.range, ...(index.projection === 'INCLUDE' ? index.include : [])]);
}

function checkProjected(table: Table, index: IndexShape, use: 'filter' | 'projection', names: readonly string[]): void {
  if (index.projection === 'ALL' || (use === 'projection' && index.kind === 'lsi')) return;
  const projected = projectedNames(table, index);
  const missing = [...new Set(names)].filter((name) => !projected.has(name));
  if (missing.length === 0) return;
  throw validation(
    use === 'filter'
      ? `One or more parameter values were invalid: Secondary index ${index.name} does not project one or more filter attributes: [${missing.join(', ')}]`
      : `One or more parameter values were invalid: Global secondary index ${index.name} does not project [${missing.join(', ')}]`,
  );
}

/** A filter may not name the key attributes of the key space queried. */
function checkFilterKeys(filter: ResolvedCondition, key: KeySchema): void {
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const n = node as { kind?: string; parts?: PathPart[] };
    if (n.kind === 'path' && n.parts && n.parts.length === 1 && [...key.hash, ...key.range].includes(n.parts[0] as string)) {
      throw validation(`Filter Expression can only contain non-primary key attributes: Primary key attribute: ${n.parts[0] as string}`);
    }
    for (const value of Object.values(node)) if (typeof value === 'object') Array.isArray(value) ? value.forEach(visit) : visit(value);
  };
  visit(filter);
}

/**
 * A key condition split into the partition it reads and a test of the sort key: equality on
 * every partition-key attribute, then conditions on sort-key attributes (equality on a leading
 * run, at most one range after it).
 */
function keyTest(
  condition: ResolvedCondition,
  key: KeySchema,
): { partition: string; test: ((item: Readonly<AttributeMap>) => boolean) | undefined; bounds: { attribute?: string; low?: AttributeValue | undefined; high?: AttributeValue | undefined } } {
  const atoms: ResolvedCondition[] = [];
  const flatten = (c: ResolvedCondition) => {
    if (c.kind === 'and') {
      flatten(c.left);
      flatten(c.right);
    } else if (c.kind === 'compare' || c.kind === 'between' || (c.kind === 'function' && c.name === 'begins_with')) atoms.push(c);
    else throw validation('Invalid operator used in KeyConditionExpression: ' + (c.kind === 'function' ? c.name : c.kind.toUpperCase()));
  };
  flatten(condition);
  const attributeOf = (c: ResolvedCondition): string => {
    const target = c.kind === 'compare' ? c.left : c.kind === 'between' ? c.operand : c.kind === 'function' ? c.args[0] : undefined;
    if (!target || target.kind !== 'path' || target.parts.length !== 1) throw validation('Query key condition not supported');
    return target.parts[0] as string;
  };
  const byName = new Map<string, ResolvedCondition>();
  const equality = (atom: ResolvedCondition | undefined): atom is Extract<ResolvedCondition, { kind: 'compare' }> => atom?.kind === 'compare' && atom.op === '=' && atom.right.kind === 'value';
  // DynamoDB names the key element a condition misses: the first partition-key attribute without an
  // equality, else (a condition on a non-key attribute) the sort key's first. (DynamoDB Local names none.)
  const missed = () => validation(`Query condition missed key schema element: ${key.hash.find((name) => !equality(byName.get(name))) ?? key.range[0] ?? key.hash[0]}`);
  let nonKey = false;
  for (const atom of atoms) {
    const name = attributeOf(atom);
    if (![...key.hash, ...key.range].includes(name)) nonKey = true;
    else if (byName.has(name)) throw validation(`KeyConditionExpressions must only contain one condition per key`);
    else byName.set(name, atom);
  }
  if (nonKey) throw missed();
  let partition = '';
  for (const name of key.hash) {
    const atom = byName.get(name);
    if (!equality(atom)) throw missed();
    partition += valueId((atom.right as Extract<Resolved, { kind: 'value' }>).value) + '\u0000';
  }
  const sortTests = key.range.filter((name) => byName.has(name)).map((name) => byName.get(name)!);
  if (sortTests.length === 0) return { partition, test: undefined, bounds: {} };
  // the inclusive bounds of a range on the last sort-key attribute named
  const last = sortTests[sortTests.length - 1]!;
  const attribute = attributeOf(last);
  const value = (operand: Resolved) => (operand.kind === 'value' ? operand.value : undefined);
  const bounds =
    last.kind === 'between'
      ? { attribute, low: value(last.low), high: value(last.high) }
      : last.kind === 'compare' && last.op === '>='
        ? { attribute, low: value(last.right) }
        : last.kind === 'compare' && last.op === '<='
          ? { attribute, high: value(last.right) }
          : {};
  return { partition, test: (item) => sortTests.every((test) => evaluateCondition(test, item)), bounds };
}
