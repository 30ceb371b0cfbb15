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
//
// This module holds the engine's state (tables, clock, stream records, faults, transactions in
// flight) and routes each request; the parts are modules of their own: options.ts (what a test
// gives and gets), key-space.ts and stored-table.ts (items in DynamoDB's order, indexes),
// request.ts (values, limits, errors, request checks), reads.ts with read-checks.ts, writes.ts,
// capacity.ts, stream-records.ts and faults.ts.

import type { CreateTableCommandInput, GlobalSecondaryIndex } from '@aws-sdk/client-dynamodb';
import type { EngineContext } from './engine-context.js';
import { generator } from './faults.js';
import { KeySpace, type IndexShape } from './key-space.js';
import type { Fault, FaultRule, InMemoryOperation, InMemoryOptions, InMemoryStreamRecord, InMemoryTableSettings } from './options.js';
import { batchGet, getItem, query, scan, transactGet } from './reads.js';
import { FIVE_YEARS_S, checkMarshalling, conflict, marshallMap, metadata, notFound, serviceError, unmarshallMap, withWireValues, type RequestInput } from './request.js';
import { COMMAND_OPERATIONS } from '../table-context.js';
import { Table, type Change } from './stored-table.js';
import { streamRecord } from './stream-records.js';
import { RequestError, copyMap, typeOf, type AttributeMap } from './value.js';
import { batchWrite, singleWrite, transactWrite } from './writes.js';

export type { Fault, FaultRule, InMemoryOperation, InMemoryOptions, InMemoryStreamRecord, InMemoryTableSettings } from './options.js';

const OPERATIONS: Readonly<Record<string, InMemoryOperation>> = COMMAND_OPERATIONS;
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
  /** What the reads and writes take from the engine. */
  private readonly context: EngineContext = {
    table: (name) => this.table(name),
    now: () => this.now(),
    held: (table, key) => this.held(table, key),
    apply: (table, change) => this.apply(table, change),
    random: () => this.random(),
    tokens: this.tokens,
  };

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
    return withWireValues(() => this.dispatch(operation, input as RequestInput, undefined) as Record<string, unknown>);
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
        return getItem(this.context, input);
      case 'PutItem':
      case 'UpdateItem':
      case 'DeleteItem':
        return singleWrite(this.context, operation, input);
      case 'Query':
        return query(this.context, input);
      case 'Scan':
        return scan(this.context, input);
      case 'BatchGetItem':
        return batchGet(this.context, input, fault);
      case 'BatchWriteItem':
        return batchWrite(this.context, input, fault);
      case 'TransactGetItems':
        return transactGet(this.context, input);
      case 'TransactWriteItems':
        return transactWrite(this.context, input, fault);
    }
  }

  private apply(table: Table, change: Change): void {
    table.write(change, this.now(), this.gsiLagMs);
    this.stream(table, change, false);
  }

  private stream(table: Table, change: Change, expired: boolean): void {
    const record = streamRecord(table, change, expired, { region: this.region, now: () => this.now(), sequence: () => ++this.sequence });
    if (record) this.records.get(table.name)!.push(record);
  }
}
