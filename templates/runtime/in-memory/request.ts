// The requests the in-memory engine answers: how their values are carried (the DocumentClient's
// or the low-level API's), their input, DynamoDB's limits and its errors as the SDK throws them,
// and the checks of keys, items, ReturnValues and expressions every operation makes.

import { stringBytes } from '../item-size.js';
import { Aliases, checkOverlap, resolveCondition, resolvePath, type ResolvedCondition } from './expression.js';
import { parseCondition, parseProjection, type ExpressionKind, type PathPart } from './expression-parser.js';
import type { Table } from './stored-table.js';
import {
  copyMap,
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

/** Runs `answer` with the low-level API's attribute values in force (what `ddbgen local` serves), then the DocumentClient's again. */
export function withWireValues<T>(answer: () => T): T {
  const previous = codec;
  codec = WIRE;
  try {
    return answer();
  } finally {
    codec = previous;
  }
}
export const marshallMap = (data: Readonly<Record<string, unknown>>, number?: (text: string) => string): AttributeMap => codec.decode(data, number);
export const marshallExpressionValues = (data: Readonly<Record<string, unknown>>): AttributeMap => codec.values(data);
export const unmarshallMap = (map: Readonly<AttributeMap>): Record<string, unknown> => codec.encode(map);

export const MAX_ITEM_BYTES = 400 * 1024;
export const PAGE_BYTES = 1024 * 1024;
export const TRANSACTION_BYTES = 4 * 1024 * 1024;
export const BATCH_GET_BYTES = 16 * 1024 * 1024;
export const TOKEN_MS = 10 * 60 * 1000;
export const FIVE_YEARS_S = 5 * 365 * 24 * 3600;

// ---------------------------------------------------------------------------------------------
// Errors, as the SDK builds them from DynamoDB's answers.

export const metadata = (status: number) => ({ httpStatusCode: status, requestId: requestId(), attempts: 1, totalRetryDelay: 0 });
let requests = 0;
const requestId = () => `INMEMORY${(++requests).toString(36).toUpperCase().padStart(12, '0')}`;

/** The `__type` the SDK keeps from DynamoDB's error body. */
const typeOfError = (name: string) => (name === 'ValidationException' ? 'com.amazon.coral.validate#ValidationException' : `com.amazonaws.dynamodb.v20120810#${name}`);

type SdkModule = typeof import('@aws-sdk/client-dynamodb');
/** The SDK's exception classes, loaded with the first error (Node takes tens of milliseconds to make the module's ES view). */
let sdk: Promise<SdkModule> | undefined;

/** DynamoDB's answer as the SDK throws it: its own exception class (or DynamoDBServiceException by name), with `$metadata`, `__type` and what the answer carries. */
export async function serviceError(error: RequestError): Promise<Error> {
  const classes = await (sdk ??= import('@aws-sdk/client-dynamodb'));
  const status = error.type === 'InternalServerError' ? 500 : error.type === 'ServiceUnavailable' ? 503 : 400;
  const options = { message: error.message, $metadata: metadata(status), ...error.carries };
  const Known = (classes as unknown as Record<string, (new (options: object) => Error) | undefined>)[error.type];
  const made = Known !== undefined ? new Known(options) : new classes.DynamoDBServiceException({ name: error.type, $fault: status >= 500 ? 'server' : 'client', ...options });
  return Object.assign(made, error.carries, { __type: typeOfError(error.type) });
}

export const notFound = () => new RequestError('ResourceNotFoundException', 'Cannot do operations on a non-existent table');

/** A failed condition, with the item as it was. */
export class ConditionFailure extends Error {
  readonly item: AttributeMap | undefined;
  constructor(item: AttributeMap | undefined) {
    super('The conditional request failed');
    this.item = item;
  }
}

export const conflict = () => new RequestError('TransactionConflictException', 'Transaction is ongoing for the item');

// ---------------------------------------------------------------------------------------------
// One table.

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
export function checkKey(table: Table, key: Readonly<AttributeMap> | undefined): AttributeMap {
  const given = key ?? {};
  const names = Object.keys(given);
  if (names.length !== table.keyNames.length || table.keyNames.some((name) => given[name] === undefined)) throw validation('The number of conditions on the keys is invalid');
  for (const name of table.keyNames) checkKeyValue(table, name, given[name], 'key');
  return given as AttributeMap;
}

/** An item to write: its key and index keys valid, its size within 400 KB. */
export function checkItem(table: Table, item: Readonly<AttributeMap>, update = false): void {
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

export function checkReturnValues(given: string | undefined, allowed: readonly string[]): string {
  const value = given ?? 'NONE';
  if (!allowed.includes(value)) throw validation('Return values set to invalid value');
  return value;
}

/** What a request's expressions are: parsed and resolved, with their aliases checked. */
export interface Expressions {
  readonly condition?: ResolvedCondition;
  readonly filter?: ResolvedCondition;
  readonly projection?: PathPart[][];
}

export function expressions(input: RequestInput, kinds: readonly ExpressionKind[], aliases: Aliases): Expressions {
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
export function aliasesOf(input: RequestInput, hasExpression: boolean): Aliases {
  if (!hasExpression) {
    if (input.ExpressionAttributeNames !== undefined) throw validation('ExpressionAttributeNames can only be specified when using expressions');
    if (input.ExpressionAttributeValues !== undefined) throw validation(`ExpressionAttributeValues can only be specified when using expressions${input.Item !== undefined ? ': ConditionExpression is null' : ''}`);
  }
  return new Aliases(input.ExpressionAttributeNames, input.ExpressionAttributeValues === undefined ? undefined : marshallExpressionValues(input.ExpressionAttributeValues));
}

/** The input members the DocumentClient marshalls: items, keys and expression values. */
const MARSHALLED = new Set(['Item', 'Key', 'ExclusiveStartKey', 'ExpressionAttributeValues']);

/** Marshalls what the DocumentClient marshalls of an input (numbers unchecked), for its own errors alone. */
export function checkMarshalling(value: unknown): void {
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
export interface RequestInput {
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

