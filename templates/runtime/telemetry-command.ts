// What telemetry reads from the SDK's commands and their outcomes: the DynamoDB operation a command
// sends, the consumed capacity of an answer split by key space, and the name and throttling
// reasons of an error. Only names, codes and units: never a key or an attribute value.

import type { ConsumedUnits } from './telemetry-sink.js';
import { COMMAND_OPERATIONS } from './table-context.js';

const OPERATIONS: Readonly<Record<string, string>> = COMMAND_OPERATIONS;

export type Input = Record<string, unknown> & {
  TableName?: string;
  IndexName?: string;
  Limit?: number;
  ConsistentRead?: boolean;
  ScanIndexForward?: boolean;
  Segment?: number;
  TotalSegments?: number;
  ReturnConsumedCapacity?: string;
  RequestItems?: Record<string, unknown>;
  TransactItems?: unknown[];
};

export interface Command {
  readonly input: Input;
  readonly constructor: { readonly name: string };
  readonly middlewareStack?: { add(middleware: unknown, options: Record<string, unknown>): void };
}

/** The DynamoDB operation a command sends, by its class, or by its input's shape where a bundler renamed the class. */
export function operationOf(command: Command): string {
  const known = OPERATIONS[command.constructor.name];
  if (known !== undefined) return known;
  const input = command.input;
  if (input.KeyConditionExpression !== undefined) return 'Query';
  if (input.TotalSegments !== undefined || input.Segment !== undefined) return 'Scan';
  if (input.TransactItems !== undefined) return (input.TransactItems as Array<Record<string, unknown>>).some((entry) => 'Get' in entry) ? 'TransactGetItems' : 'TransactWriteItems';
  if (input.RequestItems !== undefined) return Object.values(input.RequestItems).some((v) => Array.isArray(v)) ? 'BatchWriteItem' : 'BatchGetItem';
  if (input.Item !== undefined) return 'PutItem';
  if (input.UpdateExpression !== undefined) return 'UpdateItem';
  return 'Unknown';
}

export interface CapacityBreakdown {
  readonly CapacityUnits?: number;
  readonly ReadCapacityUnits?: number;
  readonly WriteCapacityUnits?: number;
}
export interface ConsumedCapacity extends CapacityBreakdown {
  readonly TableName?: string;
  readonly Table?: CapacityBreakdown;
  readonly GlobalSecondaryIndexes?: Readonly<Record<string, CapacityBreakdown>>;
  readonly LocalSecondaryIndexes?: Readonly<Record<string, CapacityBreakdown>>;
}

export const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/** Read and write units of one breakdown; a bare CapacityUnits counts as the operation's kind. */
function unitsOf(part: CapacityBreakdown, write: boolean): { read: number; write: number } {
  if (part.ReadCapacityUnits !== undefined || part.WriteCapacityUnits !== undefined) return { read: part.ReadCapacityUnits ?? 0, write: part.WriteCapacityUnits ?? 0 };
  const units = part.CapacityUnits ?? 0;
  return write ? { read: 0, write: units } : { read: units, write: 0 };
}

/** A ConsumedCapacity entry split by key space: the table's share and each index's (when INDEXES gives them). */
export function splitCapacity(capacity: ConsumedCapacity, operation: string): ConsumedUnits[] {
  const write = WRITES.has(operation);
  const indexes = [...Object.entries(capacity.GlobalSecondaryIndexes ?? {}), ...Object.entries(capacity.LocalSecondaryIndexes ?? {})];
  if (capacity.Table === undefined && indexes.length === 0) return [unitsOf(capacity, write)];
  const out: ConsumedUnits[] = [];
  const total = unitsOf(capacity, write);
  let table = capacity.Table ? unitsOf(capacity.Table, write) : undefined;
  const perIndex = indexes.map(([index, part]) => ({ index, ...unitsOf(part, write) }));
  if (table === undefined) {
    // only indexes listed: the table's share is what the total leaves
    const read = perIndex.reduce((s, p) => s + p.read, 0);
    const written = perIndex.reduce((s, p) => s + p.write, 0);
    table = { read: Math.max(0, total.read - read), write: Math.max(0, total.write - written) };
  }
  out.push(table);
  out.push(...perIndex);
  return out;
}

/** A ConsumedCapacity entry as the semantic conventions carry it (`aws.dynamodb.consumed_capacity`): JSON of units and names only. */
export function capacityJson(capacity: ConsumedCapacity): string {
  const pick = (part: CapacityBreakdown | undefined) => (part === undefined ? undefined : { CapacityUnits: part.CapacityUnits, ReadCapacityUnits: part.ReadCapacityUnits, WriteCapacityUnits: part.WriteCapacityUnits });
  const indexes = (record: Readonly<Record<string, CapacityBreakdown>> | undefined) => (record === undefined ? undefined : Object.fromEntries(Object.entries(record).map(([name, part]) => [name, pick(part)])));
  return JSON.stringify({
    TableName: capacity.TableName,
    ...pick(capacity),
    Table: pick(capacity.Table),
    GlobalSecondaryIndexes: indexes(capacity.GlobalSecondaryIndexes),
    LocalSecondaryIndexes: indexes(capacity.LocalSecondaryIndexes),
  });
}

export const errorName = (error: unknown): string => {
  const name = (error as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && /^[A-Za-z][A-Za-z0-9_.]*$/.test(name) ? name : 'Error';
};
export const isThrottle = (name: string) => /Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded/.test(name);

/** The reasons a throttle carries (ProvisionedThroughputExceeded, ThrottlingException): reason codes and the resource ARNs (table or index). */
export function throttlingReasons(error: unknown): { reasons: string[]; resources: string[] } {
  const e = error as { ThrottlingReasons?: unknown; throttlingReasons?: unknown };
  const list = (Array.isArray(e.ThrottlingReasons) ? e.ThrottlingReasons : Array.isArray(e.throttlingReasons) ? e.throttlingReasons : []) as Array<{ reason?: unknown; resource?: unknown }>;
  return {
    reasons: list.map((r) => String(r.reason ?? 'unknown')),
    resources: list.map((r) => String(r.resource ?? '')),
  };
}
