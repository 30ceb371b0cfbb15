// The engine `ddbgen local` serves: the in-memory table's data plane (its low-level path,
// `InMemoryEngine.request`) under a control plane that keeps what DynamoDB keeps about each
// table (control-plane.ts), with PartiQL (partiql-api.ts) and the Streams API (streams-api.ts)
// beside them. Operations take and answer the JSON protocol's shapes (attribute values as the
// low-level API carries them); a refusal is thrown as a RequestError named as DynamoDB names it.

import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { InMemoryEngine, type InMemoryOperation } from '../../templates/runtime/in-memory/engine.js';
import { itemBytes, RequestError, validation, type AttributeMap } from '../../templates/runtime/in-memory/value.js';
import { ControlPlane, type TableRecord } from './control-plane.js';
import { translateLegacy } from './legacy-parameters.js';
import { PartiqlApi } from './partiql-api.js';
import { checkRequest } from './request-checks.js';
import { checkReservedWords } from './reserved-words.js';
import { StreamsApi } from './streams-api.js';

const DATA_PLANE = new Set<string>(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan', 'BatchGetItem', 'BatchWriteItem', 'TransactGetItems', 'TransactWriteItems']);

/** A table as it is saved and loaded: what DynamoDB keeps about it, and its items as attribute values. */
export interface SavedTable {
  readonly table: TableRecord;
  readonly items: AttributeMap[];
}

/** The local DynamoDB: one engine, its tables' records, and the operations of the DynamoDB and DynamoDB Streams APIs. */
export class LocalDynamoDB {
  readonly engine: InMemoryEngine;
  private readonly control: ControlPlane;
  private readonly partiql: PartiqlApi;
  private readonly streams: StreamsApi;
  private readonly region: string;
  private swept = -Infinity;

  constructor(options: { readonly region?: string } = {}) {
    this.region = options.region ?? 'local';
    this.engine = new InMemoryEngine({ region: this.region });
    this.control = new ControlPlane(this.engine, this.region);
    this.partiql = new PartiqlApi(this.control, (operation, input) => this.handle(operation, input));
    this.streams = new StreamsApi(this.control, this.engine);
  }

  /** Answers one operation (`GetItem`, `CreateTable`, … or a Streams operation) with its input as the JSON protocol carries it. */
  handle(operation: string, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    if (DATA_PLANE.has(operation)) {
      checkRequest(operation, input, (name) => this.control.tables.has(name));
      checkReservedWords(input);
      if (operation === 'GetItem' || operation === 'UpdateItem' || operation === 'DeleteItem') checkKeyShape(this.control.tables.get(String(input.TableName))!.definition, input.Key);
      if (operation === 'TransactGetItems') this.checkTransactGetKeys(input);
      const request = translateLegacy(operation, input);
      this.sweep();
      const output = this.engine.request(operation as InMemoryOperation, request);
      if (input.ReturnItemCollectionMetrics === 'SIZE' && (operation === 'PutItem' || operation === 'UpdateItem' || operation === 'DeleteItem')) {
        const metrics = this.itemCollectionMetrics(this.control.tables.get(String(input.TableName))!, (input.Item ?? input.Key) as Record<string, unknown>);
        if (metrics) output.ItemCollectionMetrics = metrics;
      }
      if (input.ReturnItemCollectionMetrics === 'SIZE' && (operation === 'BatchWriteItem' || operation === 'TransactWriteItems')) {
        const metrics = this.collectionsWritten(operation, input, output);
        if (Object.keys(metrics).length) output.ItemCollectionMetrics = metrics;
      }
      return output;
    }
    switch (operation) {
      case 'CreateTable':
        return { TableDescription: this.control.createTable(input as unknown as CreateTableCommandInput) };
      case 'DescribeTable':
        return { Table: this.control.describe(this.control.record(input.TableName)) };
      case 'ListTables':
        return this.control.listTables(input);
      case 'DeleteTable':
        return { TableDescription: this.control.deleteTable(input.TableName) };
      case 'UpdateTable':
        return { TableDescription: this.control.updateTable(input) };
      case 'UpdateTimeToLive':
        return this.control.updateTimeToLive(input);
      case 'DescribeTimeToLive': {
        const table = this.control.record(input.TableName);
        return { TimeToLiveDescription: table.timeToLive ? { TimeToLiveStatus: 'ENABLED', AttributeName: table.timeToLive } : { TimeToLiveStatus: 'DISABLED' } };
      }
      case 'TagResource':
        return this.control.tagResource(input);
      case 'UntagResource':
        return this.control.untagResource(input);
      case 'ListTagsOfResource':
        return { Tags: this.control.byArn(input.ResourceArn, 'ListTagsOfResource').tags.map((tag) => ({ ...tag })) };
      case 'DescribeEndpoints':
        return { Endpoints: [{ Address: `dynamodb.${this.region}.amazonaws.com`, CachePeriodInMinutes: 1440 }] };
      case 'DescribeLimits':
        return { AccountMaxReadCapacityUnits: 80000, AccountMaxWriteCapacityUnits: 80000, TableMaxReadCapacityUnits: 40000, TableMaxWriteCapacityUnits: 40000 };
      case 'ExecuteStatement':
        return this.partiql.executeStatement(input);
      case 'BatchExecuteStatement':
        return this.partiql.batchExecuteStatement(input);
      case 'ExecuteTransaction':
        return this.partiql.executeTransaction(input);
      case 'ListStreams':
        return this.streams.listStreams(input);
      case 'DescribeStream':
        return this.streams.describeStream(input);
      case 'GetShardIterator':
        return this.streams.getShardIterator(input);
      case 'GetRecords':
        return this.streams.getRecords(input);
      default:
        throw new RequestError('UnknownOperationException', `Unknown operation: ${operation}`);
    }
  }

  /** Deletes the items whose Time to Live has passed, at most once a second (DynamoDB takes days; a sweep reads every item). */
  private sweep(): void {
    const now = this.engine.now();
    if (now - this.swept < 1000) return;
    this.swept = now;
    this.engine.sweepExpired();
  }

  /** Every table with its items, for saving. */
  save(): SavedTable[] {
    return [...this.control.tables.values()].map((table) => ({ table, items: this.engine.rawItems(table.definition.TableName!) }));
  }

  /** Restores saved tables (replacing none: a name already here is an error). */
  load(saved: readonly SavedTable[]): void {
    for (const { table, items } of saved) {
      this.control.addTable(table);
      this.engine.restoreItems(table.definition.TableName!, items);
    }
  }

  /** A Get of a transaction whose Key does not match its table's schema cancels the transaction with a ValidationError for that Get, as DynamoDB answers it. */
  private checkTransactGetKeys(input: Readonly<Record<string, unknown>>): void {
    const reasons = ((input.TransactItems ?? []) as Array<{ Get?: { TableName?: string; Key?: unknown } }>).map(({ Get }) => {
      if (!Get) return { Code: 'None' }; // not a Get: the engine refuses it
      try {
        checkKeyShape(this.control.tables.get(String(Get?.TableName))!.definition, Get?.Key);
        return { Code: 'None' };
      } catch (error) {
        if (!(error instanceof RequestError)) throw error;
        return { Code: 'ValidationError', Message: error.message };
      }
    });
    if (reasons.every((reason) => reason.Code === 'None')) return;
    throw new RequestError('TransactionCanceledException', `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`, { CancellationReasons: reasons });
  }

  /**
   * A batch's or a transaction's ItemCollectionMetrics, as DynamoDB documents them: for each table
   * with a local secondary index, the item collections its writes (puts, updates, deletes; not
   * condition checks, nor a batch's unprocessed items) touched, each once, sized after the writes.
   */
  private collectionsWritten(operation: 'BatchWriteItem' | 'TransactWriteItems', input: Readonly<Record<string, unknown>>, output: Readonly<Record<string, unknown>>): Record<string, Array<Record<string, unknown>>> {
    const writes: Array<[string, Record<string, unknown>]> = [];
    if (operation === 'BatchWriteItem') {
      const unprocessed = JSON.stringify(output.UnprocessedItems ?? {});
      for (const [name, requests] of Object.entries((input.RequestItems ?? {}) as Record<string, Array<{ PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: { Key: Record<string, unknown> } }>>)) {
        for (const request of requests) {
          if (unprocessed.includes(JSON.stringify(request))) continue;
          writes.push([name, (request.PutRequest?.Item ?? request.DeleteRequest?.Key)!]);
        }
      }
    } else {
      for (const action of (input.TransactItems ?? []) as Array<Record<string, { TableName: string; Item?: Record<string, unknown>; Key?: Record<string, unknown> } | undefined>>) {
        const write = action.Put ?? action.Update ?? action.Delete;
        if (write) writes.push([write.TableName, (write.Item ?? write.Key)!]);
      }
    }
    const metrics: Record<string, Array<Record<string, unknown>>> = {};
    const seen = new Set<string>();
    for (const [name, given] of writes) {
      const table = this.control.tables.get(name)!;
      const hash = table.definition.KeySchema!.find((k) => k.KeyType === 'HASH')!.AttributeName!;
      const id = JSON.stringify([name, given[hash]]);
      if (seen.has(id)) continue;
      seen.add(id);
      const entry = this.itemCollectionMetrics(table, given);
      if (entry) (metrics[name] ??= []).push(entry);
    }
    return metrics;
  }

  /**
   * The item collection a write touched, for a table with local secondary indexes (DynamoDB
   * answers nothing for others): its partition key and its size's estimate in GB, a range one GB wide.
   */
  private itemCollectionMetrics(table: TableRecord, given: Record<string, unknown>): Record<string, unknown> | undefined {
    if (!table.definition.LocalSecondaryIndexes?.length) return undefined;
    const hash = table.definition.KeySchema!.find((k) => k.KeyType === 'HASH')!.AttributeName!;
    const value = JSON.stringify(given[hash]);
    const items = this.engine.rawItems(table.definition.TableName!).filter((item) => JSON.stringify(wireOf(item[hash])) === value);
    let bytes = 0;
    for (const item of items) {
      bytes += itemBytes(item);
      for (const index of table.definition.LocalSecondaryIndexes) if ((index.KeySchema ?? []).every((k) => item[k.AttributeName!] !== undefined)) bytes += itemBytes(item);
    }
    const low = Math.floor(bytes / 2 ** 30);
    return { ItemCollectionKey: { [hash]: given[hash] }, SizeEstimateRangeGB: [low, low + 1] };
  }
}

/** An attribute value as the wire carries it (bytes as base64), to compare with one given in a request. */
function wireOf(value: unknown): unknown {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value, (_, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v)));
}

/** A Key parameter names exactly the table's key attributes, each of its declared type. */
function checkKeyShape(definition: CreateTableCommandInput, key: unknown): void {
  const given = (key ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const schema = definition.KeySchema ?? [];
  const matches =
    Object.keys(given).length === schema.length &&
    schema.every((k) => {
      const value = given[k.AttributeName!];
      const type = definition.AttributeDefinitions!.find((d) => d.AttributeName === k.AttributeName)!.AttributeType!;
      return typeof value === 'object' && value !== null && value[type] !== undefined && Object.keys(value).length === 1;
    });
  if (!matches) throw validation('The provided key element does not match the schema');
}
