// A DynamoDB table in memory, for testing an app without Java or a network: `InMemoryDynamoDB` is
// a DynamoDBDocumentClient (the generated `<Table>Table` takes it as its client) that answers the
// DocumentClient commands the generated code sends — Get, Put, Update, Delete, Query, Scan (with
// segments), BatchGet, BatchWrite, TransactGet, TransactWrite — itself, through the engine in
// engine.ts (DynamoDB's semantics, limits, errors, clock, stream and faults).

import type { CreateTableCommandInput, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, __Client } from '@aws-sdk/lib-dynamodb';
import { InMemoryEngine, type FaultRule, type InMemoryOptions, type InMemoryStreamRecord, type InMemoryTableSettings } from './engine.js';

export type { Fault, FaultRule, InMemoryOperation, InMemoryOptions, InMemoryStreamRecord, InMemoryTableSettings } from './engine.js';
export { InMemoryEngine } from './engine.js';

/**
 * What the DocumentClient is made from. It takes a DynamoDBClient for its configuration and
 * middleware stack only, and this one never sends: a bare SDK client (a stack that says it
 * serializes, as a DynamoDBClient's does) spares configuring a DynamoDBClient and loading
 * `@aws-sdk/client-dynamodb` before the first error, tens of milliseconds before the first answer.
 */
function baseClient(): DynamoDBClient {
  const client = new __Client({} as never);
  client.middlewareStack.add((next) => next, { step: 'serialize', name: 'serializerMiddleware' });
  return client as unknown as DynamoDBClient;
}

/** The key under which a client offers its clock to generated code (item.ts reads it by the same registered symbol). */
const CLIENT_CLOCK: unique symbol = Symbol.for('ddbgen.clock') as never;

/**
 * DynamoDB in memory, as a DynamoDBDocumentClient: give it to a generated `<Table>Table` (or
 * build one with the generated `create<Table>InMemory()`), run the app, then look at the table
 * (`items`), move the clock (`advanceTime`, `sweepExpired`), read the stream (`streamRecords`) and
 * inject faults (`injectFault`).
 */
export class InMemoryDynamoDB extends DynamoDBDocumentClient {
  /** The engine that answers (its low-level `request` takes the API's attribute values, as `ddbgen local` serves them). */
  readonly engine: InMemoryEngine;

  constructor(options: InMemoryOptions = {}) {
    super(baseClient());
    const engine = (this.engine = new InMemoryEngine(options));
    // The DocumentClient's send, answered here instead of over HTTP: the type stays the SDK's.
    this.send = ((command: Parameters<InMemoryEngine['answer']>[0], optionsOrCallback?: unknown, callback?: unknown) => {
      const done = typeof optionsOrCallback === 'function' ? optionsOrCallback : callback;
      const promise = engine.answer(command);
      if (typeof done !== 'function') return promise;
      promise.then((result) => done(null, result), (error: unknown) => done(error));
      return undefined;
    }) as DynamoDBDocumentClient['send'];
  }

  /** Creates a table from a CreateTable input (the generated `<table>TableDefinition()`), with its TTL setting. */
  createTable(definition: CreateTableCommandInput, settings?: InMemoryTableSettings): this {
    this.engine.createTable(definition, settings);
    return this;
  }

  /** The table's clock, in milliseconds since the epoch. */
  now(): number {
    return this.engine.now();
  }

  /**
   * The clock offered to the generated table class (expiry.ts, `clientClock`): its reads hide items
   * whose Time to Live passed on this clock, as DynamoDB's clock would at that time.
   */
  readonly [CLIENT_CLOCK] = (): number => this.engine.now();

  /** Moves the table's clock forward (TTL, index lag and idempotency tokens follow it). */
  advanceTime(ms: number): void {
    this.engine.advanceTime(ms);
  }

  /**
   * Deletes the items whose Time to Live has passed (a number of epoch seconds at or before now,
   * and not more than five years ago, which DynamoDB never deletes), each streamed as a removal by
   * the service. Returns how many were deleted. DynamoDB does this on its own within days.
   */
  sweepExpired(tableName?: string): number {
    return this.engine.sweepExpired(tableName);
  }

  /** Brings every lagging global secondary index up to date. */
  settleIndexes(tableName?: string): void {
    this.engine.settleIndexes(tableName);
  }

  /** Every item of a table (the only one when it has one), as the DocumentClient returns items, in scan order. */
  items(tableName?: string): Array<Record<string, unknown>> {
    return this.engine.items(tableName);
  }

  /** The table's stream records so far, oldest first (an empty list when the table has no stream). */
  streamRecords(tableName?: string): InMemoryStreamRecord[] {
    return this.engine.streamRecords(tableName);
  }

  /** The stream records since the last call (for a Lambda-style handler: `{ Records: takeStreamRecords() }`). */
  takeStreamRecords(tableName?: string): InMemoryStreamRecord[] {
    return this.engine.takeStreamRecords(tableName);
  }

  /** Answers matching requests with a fault from now on; returns a function that removes the rule. */
  injectFault(rule: FaultRule): () => void {
    return this.engine.injectFault(rule);
  }

  /** Removes every fault rule. */
  clearFaults(): void {
    this.engine.clearFaults();
  }
}
