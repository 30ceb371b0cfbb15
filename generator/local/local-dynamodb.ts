// The engine `ddbgen local` serves: the in-memory table's data plane (its low-level path,
// `InMemoryEngine.request`) under a control plane that keeps what DynamoDB keeps about each
// table — its definition, status, ARNs, billing mode, Time to Live, tags and stream — and the
// Streams API over the stream records the engine keeps. Operations take and answer the JSON
// protocol's shapes (attribute values as the low-level API carries them); a refusal is thrown as
// a RequestError named as DynamoDB names it.

import type {
  AttributeDefinition,
  CreateTableCommandInput,
  GlobalSecondaryIndex,
  KeySchemaElement,
  LocalSecondaryIndex,
  Projection,
  ProvisionedThroughput,
  StreamSpecification,
  Tag,
} from '@aws-sdk/client-dynamodb';
import { InMemoryEngine, type InMemoryOperation, type InMemoryStreamRecord } from '../../templates/runtime/in-memory/engine.js';
import { itemBytes, RequestError, validation, type AttributeMap } from '../../templates/runtime/in-memory/value.js';
import { translateLegacy } from './legacy-parameters.js';
import { compileSelect, compileWrite, duplicateItem, keyAndCondition, parseStatement, projectSelected, type PartiqlTable, type Statement } from './partiql.js';
import { checkRequest } from './request-checks.js';
import { checkReservedWords } from './reserved-words.js';

const DATA_PLANE = new Set<string>(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan', 'BatchGetItem', 'BatchWriteItem', 'TransactGetItems', 'TransactWriteItems']);

/** What DynamoDB keeps about a table beside its items. */
export interface TableRecord {
  readonly definition: CreateTableCommandInput;
  /** Epoch milliseconds. */
  readonly created: number;
  readonly id: string;
  billingMode: 'PROVISIONED' | 'PAY_PER_REQUEST';
  throughput: { ReadCapacityUnits: number; WriteCapacityUnits: number };
  timeToLive: string | undefined;
  tags: Tag[];
  stream: { viewType: string; label: string } | undefined;
  deletionProtection: boolean;
  tableClass: string | undefined;
}

/** A table as it is saved and loaded: what DynamoDB keeps about it, and its items as attribute values. */
export interface SavedTable {
  readonly table: TableRecord;
  readonly items: AttributeMap[];
}

const NAME = /^[a-zA-Z0-9_.-]+$/;

/** DynamoDB's wording of a request that breaks the API's constraints ("1 validation error detected: …"). */
function constraints(problems: readonly string[]): RequestError {
  return validation(`${problems.length} validation error${problems.length === 1 ? '' : 's'} detected: ${problems.join('; ')}`);
}

function nameProblems(value: unknown, field: string, min = 3): string[] {
  if (value === undefined || value === null) return [`Value null at '${field}' failed to satisfy constraint: Member must not be null`];
  const text = String(value);
  const problems: string[] = [];
  if (!NAME.test(text)) problems.push(`Value '${text}' at '${field}' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+`);
  if (text.length < min) problems.push(`Value '${text}' at '${field}' failed to satisfy constraint: Member must have length greater than or equal to ${min}`);
  if (text.length > 255) problems.push(`Value '${text}' at '${field}' failed to satisfy constraint: Member must have length less than or equal to 255`);
  return problems;
}

const invalid = (detail: string) => validation(`One or more parameter values were invalid: ${detail}`);
const notFound = (name: string) => new RequestError('ResourceNotFoundException', `Requested resource not found: Table: ${name} not found`);

/** The local DynamoDB: one engine, its tables' records, and the operations of the DynamoDB and DynamoDB Streams APIs. */
export class LocalDynamoDB {
  readonly engine: InMemoryEngine;
  private readonly tables = new Map<string, TableRecord>();
  private readonly region: string;
  private readonly account = '000000000000';
  private swept = -Infinity;

  constructor(options: { readonly region?: string } = {}) {
    this.region = options.region ?? 'local';
    this.engine = new InMemoryEngine({ region: this.region });
  }

  /** Answers one operation (`GetItem`, `CreateTable`, … or a Streams operation) with its input as the JSON protocol carries it. */
  handle(operation: string, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    if (DATA_PLANE.has(operation)) {
      checkRequest(operation, input, (name) => this.tables.has(name));
      checkReservedWords(input);
      if (operation === 'GetItem' || operation === 'UpdateItem' || operation === 'DeleteItem') checkKeyShape(this.tables.get(String(input.TableName))!.definition, input.Key);
      if (operation === 'TransactGetItems') this.checkTransactGetKeys(input);
      const request = translateLegacy(operation, input);
      this.sweep();
      const output = this.engine.request(operation as InMemoryOperation, request);
      if (input.ReturnItemCollectionMetrics === 'SIZE' && (operation === 'PutItem' || operation === 'UpdateItem' || operation === 'DeleteItem')) {
        const metrics = this.itemCollectionMetrics(this.tables.get(String(input.TableName))!, (input.Item ?? input.Key) as Record<string, unknown>);
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
        return { TableDescription: this.createTable(input as unknown as CreateTableCommandInput) };
      case 'DescribeTable':
        return { Table: this.describe(this.record(input.TableName)) };
      case 'ListTables':
        return this.listTables(input);
      case 'DeleteTable':
        return { TableDescription: this.deleteTable(input.TableName) };
      case 'UpdateTable':
        return { TableDescription: this.updateTable(input) };
      case 'UpdateTimeToLive':
        return this.updateTimeToLive(input);
      case 'DescribeTimeToLive': {
        const table = this.record(input.TableName);
        return { TimeToLiveDescription: table.timeToLive ? { TimeToLiveStatus: 'ENABLED', AttributeName: table.timeToLive } : { TimeToLiveStatus: 'DISABLED' } };
      }
      case 'TagResource':
        return this.tagResource(input);
      case 'UntagResource':
        return this.untagResource(input);
      case 'ListTagsOfResource':
        return { Tags: this.byArn(input.ResourceArn, 'ListTagsOfResource').tags.map((tag) => ({ ...tag })) };
      case 'DescribeEndpoints':
        return { Endpoints: [{ Address: `dynamodb.${this.region}.amazonaws.com`, CachePeriodInMinutes: 1440 }] };
      case 'DescribeLimits':
        return { AccountMaxReadCapacityUnits: 80000, AccountMaxWriteCapacityUnits: 80000, TableMaxReadCapacityUnits: 40000, TableMaxWriteCapacityUnits: 40000 };
      case 'ExecuteStatement':
        return this.executeStatement(input);
      case 'BatchExecuteStatement':
        return this.batchExecuteStatement(input);
      case 'ExecuteTransaction':
        return this.executeTransaction(input);
      case 'ListStreams':
        return this.listStreams(input);
      case 'DescribeStream':
        return this.describeStream(input);
      case 'GetShardIterator':
        return this.getShardIterator(input);
      case 'GetRecords':
        return this.getRecords(input);
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
    return [...this.tables.values()].map((table) => ({ table, items: this.engine.rawItems(table.definition.TableName!) }));
  }

  /** Restores saved tables (replacing none: a name already here is an error). */
  load(saved: readonly SavedTable[]): void {
    for (const { table, items } of saved) {
      this.addTable(table);
      this.engine.restoreItems(table.definition.TableName!, items);
    }
  }

  /** A Get of a transaction whose Key does not match its table's schema cancels the transaction with a ValidationError for that Get, as DynamoDB answers it. */
  private checkTransactGetKeys(input: Readonly<Record<string, unknown>>): void {
    const reasons = ((input.TransactItems ?? []) as Array<{ Get?: { TableName?: string; Key?: unknown } }>).map(({ Get }) => {
      if (!Get) return { Code: 'None' }; // not a Get: the engine refuses it
      try {
        checkKeyShape(this.tables.get(String(Get?.TableName))!.definition, Get?.Key);
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
   * The item collection a write touched, for a table with local secondary indexes (DynamoDB
   * answers nothing for others): its partition key and its size's estimate in GB, a range one GB wide.
   */
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
      const table = this.tables.get(name)!;
      const hash = table.definition.KeySchema!.find((k) => k.KeyType === 'HASH')!.AttributeName!;
      const id = JSON.stringify([name, given[hash]]);
      if (seen.has(id)) continue;
      seen.add(id);
      const entry = this.itemCollectionMetrics(table, given);
      if (entry) (metrics[name] ??= []).push(entry);
    }
    return metrics;
  }

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

  private addTable(table: TableRecord): void {
    const name = table.definition.TableName!;
    this.engine.createTable(table.definition, table.timeToLive ? { timeToLive: { TableName: name, TimeToLiveSpecification: { Enabled: true, AttributeName: table.timeToLive } } } : undefined);
    this.engine.setStream(name, table.stream?.viewType);
    this.tables.set(name, table);
  }

  private record(name: unknown): TableRecord {
    const problems = nameProblems(name, 'tableName');
    if (problems.length) throw constraints(problems);
    const table = this.tables.get(String(name));
    if (!table) throw notFound(String(name));
    return table;
  }

  private arn(name: string): string {
    return `arn:aws:dynamodb:${this.region}:${this.account}:table/${name}`;
  }

  /** The table an ARN names; one that names no table here is refused as DynamoDB refuses it: access to it is denied. */
  private byArn(arn: unknown, action: string): TableRecord {
    const text = String(arn ?? '');
    const match = /^arn:aws:dynamodb:[^:]*:[^:]*:table\/([^/]+)$/.exec(text);
    if (!match) throw validation(`Invalid TableArn: Invalid ResourceArn provided as input ${text}`);
    const table = this.tables.get(match[1]!);
    if (!table) throw new RequestError('AccessDeniedException', `User: arn:aws:iam::${this.account}:user/local is not authorized to perform: dynamodb:${action} on resource: ${text} because no identity-based policy allows the dynamodb:${action} action`);
    return table;
  }

  // -------------------------------------------------------------------------------------------
  // Tables.

  private createTable(input: CreateTableCommandInput): Record<string, unknown> {
    if (input.TableName === undefined || input.TableName === null) throw validation("The parameter 'TableName' is required but was not present in the request");
    const problems = [
      ...(input.AttributeDefinitions === undefined ? [`Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not be null`] : []),
      ...nameProblems(input.TableName, 'tableName'),
      ...(input.KeySchema === undefined ? [`Value null at 'keySchema' failed to satisfy constraint: Member must not be null`] : []),
    ];
    for (const [at, element] of (input.KeySchema ?? []).entries()) {
      if (element.KeyType !== 'HASH' && element.KeyType !== 'RANGE') problems.push(`Value '${String(element.KeyType)}' at 'keySchema.${at + 1}.member.keyType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]`);
    }
    if (input.KeySchema && (input.KeySchema.length < 1 || input.KeySchema.length > 2)) {
      const elements = input.KeySchema.map((k) => `KeySchemaElement(attributeName=${k.AttributeName}, keyType=${k.KeyType})`).join(', ');
      problems.push(`Value '[${elements}]' at 'keySchema' failed to satisfy constraint: Member must have length ${input.KeySchema.length < 1 ? 'greater than or equal to 1' : 'less than or equal to 2'}`);
    }
    if (problems.length) throw constraints(problems);
    const name = input.TableName!;
    const definitions = input.AttributeDefinitions!;
    checkKeySchema(input.KeySchema!, definitions);
    const billingMode = checkBilling(input.BillingMode, input.ProvisionedThroughput);
    const used = new Set(input.KeySchema!.map((k) => k.AttributeName!));
    const names = new Set<string>();
    for (const index of [...(input.GlobalSecondaryIndexes ?? []), ...(input.LocalSecondaryIndexes ?? [])]) {
      if (names.has(index.IndexName!)) throw invalid(`Duplicate index name: ${index.IndexName}`);
      names.add(index.IndexName!);
    }
    for (const index of input.GlobalSecondaryIndexes ?? []) {
      checkIndex(index, definitions, 'global');
      checkIndexThroughput(index, billingMode);
      for (const k of index.KeySchema ?? []) used.add(k.AttributeName!);
    }
    if ((input.LocalSecondaryIndexes ?? []).length > 0 && !input.KeySchema!.some((k) => k.KeyType === 'RANGE')) throw invalid('Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex');
    for (const index of input.LocalSecondaryIndexes ?? []) {
      checkIndex(index, definitions, 'local');
      const hash = index.KeySchema!.find((k) => k.KeyType === 'HASH')?.AttributeName;
      const tableHash = input.KeySchema!.find((k) => k.KeyType === 'HASH')?.AttributeName;
      if (hash !== tableHash) throw invalid(`Index KeySchema does not have the same leading hash key as table KeySchema for index: ${index.IndexName}. index hash key: ${hash}, table hash key: ${tableHash}`);
      for (const k of index.KeySchema ?? []) used.add(k.AttributeName!);
    }
    if ((input.GlobalSecondaryIndexes ?? []).length > 20) throw invalid('GlobalSecondaryIndex count exceeds the per-table limit of 20');
    if ((input.LocalSecondaryIndexes ?? []).length > 5) throw invalid('LocalSecondaryIndex count exceeds the per-table limit of 5');
    if (definitions.length !== used.size || definitions.some((d) => !used.has(d.AttributeName!))) {
      throw invalid('Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions');
    }
    const stream = checkStream(input.StreamSpecification);
    if (this.tables.has(name)) throw new RequestError('ResourceInUseException', `Table already exists: ${name}`);
    const now = Date.now();
    const table: TableRecord = {
      definition: structuredClone({
        TableName: name,
        AttributeDefinitions: definitions,
        KeySchema: input.KeySchema,
        ...(input.GlobalSecondaryIndexes?.length ? { GlobalSecondaryIndexes: input.GlobalSecondaryIndexes } : {}),
        ...(input.LocalSecondaryIndexes?.length ? { LocalSecondaryIndexes: input.LocalSecondaryIndexes } : {}),
        BillingMode: billingMode,
        ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: stream } } : {}),
      }) as CreateTableCommandInput,
      created: now,
      id: randomId(),
      billingMode,
      throughput: throughputOf(input.ProvisionedThroughput),
      timeToLive: undefined,
      tags: [...(input.Tags ?? [])],
      stream: stream ? { viewType: stream, label: new Date(now).toISOString().replace('Z', '') } : undefined,
      deletionProtection: input.DeletionProtectionEnabled === true,
      tableClass: input.TableClass,
    };
    this.addTable(table);
    return this.describe(table, 'CREATING', new Set((input.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName!)));
  }

  /** A TableDescription as DescribeTable answers it. */
  /**
   * A table's description. `status` and `creating` (global indexes being built) are what a
   * CreateTable, UpdateTable or DeleteTable answers, as DynamoDB's do; here the change is done by
   * then, so DescribeTable answers ACTIVE at once.
   */
  private describe(table: TableRecord, status = 'ACTIVE', creating: ReadonlySet<string> = new Set()): Record<string, unknown> {
    const definition = table.definition;
    const name = definition.TableName!;
    const items = this.engine.rawItems(name);
    const arn = this.arn(name);
    const seconds = table.created / 1000;
    const throughput = (t: { ReadCapacityUnits: number; WriteCapacityUnits: number }) => ({ NumberOfDecreasesToday: 0, ReadCapacityUnits: t.ReadCapacityUnits, WriteCapacityUnits: t.WriteCapacityUnits });
    const inIndex = (keys: readonly KeySchemaElement[] | undefined) => items.filter((item) => (keys ?? []).every((k) => item[k.AttributeName!] !== undefined));
    const indexSize = (keys: readonly KeySchemaElement[] | undefined, projection: Projection | undefined) => {
      const held = inIndex(keys);
      const kept = (item: AttributeMap) => {
        if (projection?.ProjectionType === 'ALL' || projection?.ProjectionType === undefined) return item;
        const names = new Set([...(definition.KeySchema ?? []), ...(keys ?? [])].map((k) => k.AttributeName!).concat(projection.NonKeyAttributes ?? []));
        return Object.fromEntries(Object.entries(item).filter(([n]) => names.has(n)));
      };
      return { IndexSizeBytes: held.reduce((sum, item) => sum + itemBytes(kept(item)), 0), ItemCount: held.length };
    };
    const gsis = (definition.GlobalSecondaryIndexes ?? []).map((index) => ({
      IndexName: index.IndexName,
      KeySchema: index.KeySchema,
      Projection: index.Projection,
      IndexStatus: creating.has(index.IndexName!) ? 'CREATING' : 'ACTIVE',
      ProvisionedThroughput: throughput(throughputOf(index.ProvisionedThroughput)),
      ...(creating.has(index.IndexName!) ? { IndexSizeBytes: 0, ItemCount: 0 } : indexSize(index.KeySchema, index.Projection)),
      IndexArn: `${arn}/index/${index.IndexName}`,
      ...(index.OnDemandThroughput ? { OnDemandThroughput: index.OnDemandThroughput } : {}),
    }));
    const lsis = (definition.LocalSecondaryIndexes ?? []).map((index) => ({
      IndexName: index.IndexName,
      KeySchema: index.KeySchema,
      Projection: index.Projection,
      ...indexSize(index.KeySchema, index.Projection),
      IndexArn: `${arn}/index/${index.IndexName}`,
    }));
    return {
      AttributeDefinitions: definition.AttributeDefinitions,
      TableName: name,
      KeySchema: definition.KeySchema,
      TableStatus: status,
      CreationDateTime: seconds,
      ProvisionedThroughput: throughput(table.throughput),
      TableSizeBytes: items.reduce((sum, item) => sum + itemBytes(item), 0),
      ItemCount: items.length,
      TableArn: arn,
      TableId: table.id,
      ...(table.billingMode === 'PAY_PER_REQUEST' ? { BillingModeSummary: { BillingMode: 'PAY_PER_REQUEST', LastUpdateToPayPerRequestDateTime: seconds } } : {}),
      ...(lsis.length ? { LocalSecondaryIndexes: lsis } : {}),
      ...(gsis.length ? { GlobalSecondaryIndexes: gsis } : {}),
      ...(table.stream
        ? { StreamSpecification: { StreamEnabled: true, StreamViewType: table.stream.viewType }, LatestStreamLabel: table.stream.label, LatestStreamArn: `${arn}/stream/${table.stream.label}` }
        : {}),
      ...(table.tableClass ? { TableClassSummary: { TableClass: table.tableClass } } : {}),
      DeletionProtectionEnabled: table.deletionProtection,
    };
  }

  private listTables(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const limit = input.Limit as number | undefined;
    if (limit !== undefined && (limit < 1 || limit > 100)) {
      throw constraints([`Value '${limit}' at 'limit' failed to satisfy constraint: Member must have value ${limit < 1 ? 'greater than or equal to 1' : 'less than or equal to 100'}`]);
    }
    const start = input.ExclusiveStartTableName as string | undefined;
    const names = [...this.tables.keys()].sort().filter((name) => start === undefined || name > start);
    const page = names.slice(0, limit ?? 100);
    return { TableNames: page, ...(page.length < names.length ? { LastEvaluatedTableName: page.at(-1) } : {}) };
  }

  private deleteTable(name: unknown): Record<string, unknown> {
    const table = this.record(name);
    if (table.deletionProtection) throw invalid(`Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.`);
    const description = this.describe(table, 'DELETING');
    this.engine.deleteTable(table.definition.TableName!);
    this.tables.delete(table.definition.TableName!);
    return description;
  }

  private updateTable(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const table = this.record(input.TableName);
    const name = table.definition.TableName!;
    const definition = table.definition as { -readonly [K in keyof CreateTableCommandInput]: CreateTableCommandInput[K] };
    const definitions = (input.AttributeDefinitions as AttributeDefinition[] | undefined) ?? [];
    const updates = (input.GlobalSecondaryIndexUpdates as Array<{ Create?: GlobalSecondaryIndex; Delete?: { IndexName: string }; Update?: { IndexName: string; ProvisionedThroughput?: ProvisionedThroughput } }> | undefined) ?? [];
    const nothing = input.BillingMode === undefined && input.ProvisionedThroughput === undefined && updates.length === 0 && input.StreamSpecification === undefined && input.DeletionProtectionEnabled === undefined && input.TableClass === undefined;
    if (nothing) throw validation('At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required');
    if (updates.length > 1) throw invalid('Only one global secondary index update per index is allowed simultaneously.');
    const billingMode = input.BillingMode === undefined && input.ProvisionedThroughput === undefined ? table.billingMode : checkBilling((input.BillingMode as string | undefined) ?? table.billingMode, input.ProvisionedThroughput as ProvisionedThroughput | undefined);
    // every check before any change: a refused UpdateTable leaves the table as it was
    const asked = input.ProvisionedThroughput as ProvisionedThroughput | undefined;
    if (asked && table.billingMode === 'PROVISIONED' && billingMode === 'PROVISIONED' && Number(asked.ReadCapacityUnits) === table.throughput.ReadCapacityUnits && Number(asked.WriteCapacityUnits) === table.throughput.WriteCapacityUnits) {
      const { ReadCapacityUnits: read, WriteCapacityUnits: write } = table.throughput;
      throw validation(
        `The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: ${read}. Requested ReadCapacityUnits: ${read}. Current WriteCapacityUnits provisioned for the table: ${write}. Requested WriteCapacityUnits: ${write}. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.`,
      );
    }
    let streamAsked: string | undefined;
    if (input.StreamSpecification !== undefined) {
      const spec = input.StreamSpecification as StreamSpecification;
      if (spec.StreamEnabled) {
        if (table.stream) throw invalid(`Table already has an enabled stream: TableName: ${name}`);
        streamAsked = checkStream(spec)!;
      } else if (!table.stream) throw invalid(`Table does not have an enabled stream: TableName: ${name}`);
    }
    const creating = new Set(updates.flatMap((update) => (update.Create ? [update.Create.IndexName!] : [])));
    for (const update of updates) {
      if (update.Create) {
        const index = update.Create;
        const all = [...(table.definition.AttributeDefinitions ?? []), ...definitions.filter((d) => !(table.definition.AttributeDefinitions ?? []).some((e) => e.AttributeName === d.AttributeName))];
        checkIndex(index, all, 'global');
        checkIndexThroughput(index, billingMode);
        if ([...(definition.GlobalSecondaryIndexes ?? []), ...(definition.LocalSecondaryIndexes ?? [])].some((i) => i.IndexName === index.IndexName)) {
          throw invalid(`Attempting to create an index which already exists: ${index.IndexName}`);
        }
        const types: Record<string, 'S' | 'N' | 'B'> = {};
        for (const k of index.KeySchema ?? []) types[k.AttributeName!] = all.find((d) => d.AttributeName === k.AttributeName)!.AttributeType as 'S' | 'N' | 'B';
        this.engine.addIndex(name, index, types);
        definition.AttributeDefinitions = all;
        definition.GlobalSecondaryIndexes = [...(definition.GlobalSecondaryIndexes ?? []), structuredClone(index)];
      } else if (update.Delete) {
        const at = (definition.GlobalSecondaryIndexes ?? []).findIndex((i) => i.IndexName === update.Delete!.IndexName);
        if (at < 0) throw new RequestError('ResourceNotFoundException', `Requested resource not found: Table: ${name} index: ${update.Delete.IndexName} not found`);
        this.engine.removeIndex(name, update.Delete.IndexName);
        definition.GlobalSecondaryIndexes = definition.GlobalSecondaryIndexes!.filter((_, i) => i !== at);
        if (definition.GlobalSecondaryIndexes.length === 0) delete definition.GlobalSecondaryIndexes;
        const keys = new Set([...(definition.KeySchema ?? []), ...[...(definition.GlobalSecondaryIndexes ?? []), ...(definition.LocalSecondaryIndexes ?? [])].flatMap((i) => i.KeySchema ?? [])].map((k) => k.AttributeName!));
        definition.AttributeDefinitions = (definition.AttributeDefinitions ?? []).filter((d) => keys.has(d.AttributeName!));
      } else if (update.Update) {
        const index = (definition.GlobalSecondaryIndexes ?? []).find((i) => i.IndexName === update.Update!.IndexName);
        if (!index) throw new RequestError('ResourceNotFoundException', `Requested resource not found: Table: ${name} index: ${update.Update.IndexName} not found`);
        if (update.Update.ProvisionedThroughput) index.ProvisionedThroughput = update.Update.ProvisionedThroughput;
      }
    }
    table.billingMode = billingMode;
    if (input.ProvisionedThroughput !== undefined || billingMode === 'PAY_PER_REQUEST') table.throughput = throughputOf(input.ProvisionedThroughput as ProvisionedThroughput | undefined);
    if (input.StreamSpecification !== undefined) {
      table.stream = streamAsked ? { viewType: streamAsked, label: new Date(Date.now()).toISOString().replace('Z', '') } : undefined;
      this.engine.setStream(name, table.stream?.viewType);
    }
    if (input.DeletionProtectionEnabled !== undefined) table.deletionProtection = input.DeletionProtectionEnabled === true;
    if (input.TableClass !== undefined) table.tableClass = String(input.TableClass);
    return this.describe(table, 'UPDATING', creating);
  }

  private updateTimeToLive(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const spec = input.TimeToLiveSpecification as { Enabled?: boolean; AttributeName?: string } | undefined;
    const problems = [...nameProblems(input.TableName, 'tableName'), ...(spec === undefined ? [`Value null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null`] : [])];
    if (spec?.AttributeName !== undefined && (spec.AttributeName.length < 1 || spec.AttributeName.length > 255)) {
      problems.push(`Value '${spec.AttributeName}' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length ${spec.AttributeName.length < 1 ? 'greater than or equal to 1' : 'less than or equal to 255'}`);
    }
    if (problems.length) throw constraints(problems);
    const table = this.record(input.TableName);
    if (spec!.Enabled) {
      if (table.timeToLive !== undefined) throw validation('TimeToLive is already enabled');
    } else if (table.timeToLive === undefined) throw validation('TimeToLive is already disabled');
    else if (spec!.AttributeName !== table.timeToLive) throw validation('TimeToLive attribute name does not match the attribute name of the enabled TimeToLive');
    table.timeToLive = spec!.Enabled ? spec!.AttributeName : undefined;
    this.engine.setTimeToLive(table.definition.TableName!, table.timeToLive);
    return { TimeToLiveSpecification: { Enabled: spec!.Enabled === true, AttributeName: spec!.AttributeName } };
  }

  private tagResource(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const table = this.byArn(input.ResourceArn, 'TagResource');
    const tags = (input.Tags as Tag[] | undefined) ?? [];
    for (const tag of tags) {
      const at = table.tags.findIndex((t) => t.Key === tag.Key);
      if (at >= 0) table.tags[at] = { Key: tag.Key, Value: tag.Value };
      else table.tags.push({ Key: tag.Key, Value: tag.Value });
    }
    if (table.tags.length > 50) throw invalid('The number of tags exceeds the limit of 50');
    return {};
  }

  private untagResource(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const table = this.byArn(input.ResourceArn, 'UntagResource');
    const keys = new Set((input.TagKeys as string[] | undefined) ?? []);
    table.tags = table.tags.filter((tag) => !keys.has(tag.Key!));
    return {};
  }

  // -------------------------------------------------------------------------------------------
  // PartiQL (partiql.ts), compiled to the data plane's requests.

  /** The key attributes a statement reads by: the table's, or its index's. */
  private partiqlKey(table: string, index?: string): PartiqlTable {
    const record = this.tables.get(table);
    if (!record) throw new RequestError('ResourceNotFoundException', 'Requested resource not found');
    const indexes = [...(record.definition.GlobalSecondaryIndexes ?? []), ...(record.definition.LocalSecondaryIndexes ?? [])];
    const schema = index === undefined ? record.definition.KeySchema : indexes.find((i) => i.IndexName === index)?.KeySchema;
    if (!schema) throw validation(`The table does not have the specified index: ${index}`);
    return { hash: schema.find((k) => k.KeyType === 'HASH')!.AttributeName!, range: schema.find((k) => k.KeyType === 'RANGE')?.AttributeName };
  }

  private select(statement: Extract<Statement, { kind: 'select' }>, consistent: unknown): Array<Record<string, unknown>> {
    const { operation, input } = compileSelect(statement, this.partiqlKey(statement.table, statement.index), consistent);
    const items: Array<Record<string, unknown>> = [];
    let start: unknown;
    do {
      const page = this.handle(operation, { ...input, ...(start ? { ExclusiveStartKey: start } : {}) });
      items.push(...(page.Items as Array<Record<string, unknown>>).map((item) => projectSelected(statement, item)));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }

  private write(statement: Exclude<Statement, { kind: 'select' }>): void {
    const { kind, input } = compileWrite(statement, this.partiqlKey(statement.table));
    try {
      this.handle(kind === 'Put' ? 'PutItem' : kind === 'Update' ? 'UpdateItem' : 'DeleteItem', input);
    } catch (error) {
      if (kind === 'Put' && error instanceof RequestError && error.type === 'ConditionalCheckFailedException') throw duplicateItem();
      throw error;
    }
  }

  /**
   * One ExecuteStatement: a write, or one page of a SELECT — the page of the Query or Scan it means
   * (`Limit` items read at most, 1 MB), with a NextToken to ask for the next while there is more.
   */
  private executeStatement(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    if (input.Limit !== undefined && !(Number(input.Limit) >= 1)) throw constraints([`Value '${String(input.Limit)}' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1`]);
    const statement = parseStatement(input.Statement, input.Parameters);
    if (statement.kind !== 'select') {
      this.write(statement);
      return { Items: [] };
    }
    const { operation, input: request } = compileSelect(statement, this.partiqlKey(statement.table, statement.index), input.ConsistentRead);
    const start = input.NextToken === undefined ? undefined : readNextToken(input.NextToken, input.Statement);
    const page = this.handle(operation, { ...request, ...(input.Limit === undefined ? {} : { Limit: input.Limit }), ...(start ? { ExclusiveStartKey: start } : {}) });
    const items = (page.Items as Array<Record<string, unknown>>).map((item) => projectSelected(statement, item));
    return { Items: items, ...(page.LastEvaluatedKey ? { NextToken: nextToken(input.Statement, page.LastEvaluatedKey) } : {}) };
  }

  private batchExecuteStatement(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const statements = (input.Statements as Array<{ Statement?: string; Parameters?: unknown[]; ConsistentRead?: boolean }> | undefined) ?? [];
    if (statements.length < 1 || statements.length > 25) {
      throw constraints([`Value '${statements.length === 0 ? '[]' : 'statements'}' at 'statements' failed to satisfy constraint: Member must have length ${statements.length < 1 ? 'greater than or equal to 1' : 'less than or equal to 25'}`]);
    }
    const Responses = statements.map((request) => {
      let table: string | undefined;
      try {
        const statement = parseStatement(request.Statement, request.Parameters);
        table = statement.table;
        if (statement.kind !== 'select') {
          this.write(statement);
          return { TableName: table };
        }
        const [item] = this.select(statement, request.ConsistentRead);
        return { TableName: table, ...(item ? { Item: item } : {}) };
      } catch (error) {
        if (!(error instanceof RequestError)) throw error;
        const Code = error.type === 'ValidationException' ? 'ValidationError' : error.type.replace(/Exception$/, '');
        return { ...(table === undefined ? {} : { TableName: table }), Error: { Code, Message: error.message } };
      }
    });
    return { Responses };
  }

  private executeTransaction(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const given = (input.TransactStatements as Array<{ Statement?: string; Parameters?: unknown[] }> | undefined) ?? [];
    if (given.length < 1 || given.length > 100) {
      throw constraints([`Value '${given.length === 0 ? '[]' : 'transactStatements'}' at 'transactStatements' failed to satisfy constraint: Member must have length ${given.length < 1 ? 'greater than or equal to 1' : 'less than or equal to 100'}`]);
    }
    const statements = given.map((request) => parseStatement(request.Statement, request.Parameters));
    if (statements.every((statement) => statement.kind === 'select')) {
      const gets = statements.map((statement) => ({ Get: { TableName: statement.table, Key: keyAndCondition((statement as Extract<Statement, { kind: 'select' }>).where, this.partiqlKey(statement.table)).Key } }));
      const answer = this.handle('TransactGetItems', { TransactItems: gets });
      return { Responses: answer.Responses };
    }
    if (statements.some((statement) => statement.kind === 'select')) throw validation('A transaction holds either reads (SELECT) or writes, not both');
    const actions = statements.map((statement) => compileWrite(statement as Exclude<Statement, { kind: 'select' }>, this.partiqlKey(statement.table)));
    try {
      this.handle('TransactWriteItems', { TransactItems: actions.map(({ kind, input: action }) => ({ [kind]: action })), ...(input.ClientRequestToken ? { ClientRequestToken: input.ClientRequestToken } : {}) });
    } catch (error) {
      if (!(error instanceof RequestError) || error.type !== 'TransactionCanceledException') throw error;
      // an INSERT's failed condition is a duplicate key
      const reasons = (error.carries.CancellationReasons as Array<{ Code: string; Message?: string }>).map((reason, at) =>
        reason.Code === 'ConditionalCheckFailed' && actions[at]!.kind === 'Put' ? { Code: 'DuplicateItem', Message: duplicateItem().message } : reason,
      );
      throw new RequestError('TransactionCanceledException', `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`, { CancellationReasons: reasons });
    }
    return {};
  }

  // -------------------------------------------------------------------------------------------
  // The Streams API: one shard per stream, over the records the engine keeps.

  private streamArn(table: TableRecord): string {
    return `${this.arn(table.definition.TableName!)}/stream/${table.stream!.label}`;
  }

  private byStreamArn(arn: unknown): TableRecord {
    const text = String(arn ?? '');
    const table = [...this.tables.values()].find((t) => t.stream && this.streamArn(t) === text);
    if (!table) throw new RequestError('ResourceNotFoundException', `Requested resource not found: Stream: ${text} not found`);
    return table;
  }

  private listStreams(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const streams = [...this.tables.values()]
      .filter((t) => t.stream && (input.TableName === undefined || t.definition.TableName === input.TableName))
      .map((t) => ({ StreamArn: this.streamArn(t), TableName: t.definition.TableName, StreamLabel: t.stream!.label }));
    return { Streams: streams };
  }

  private shardId(table: TableRecord): string {
    return `shardId-00000001-${table.id.replace(/-/g, '').slice(0, 24)}`;
  }

  private describeStream(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const table = this.byStreamArn(input.StreamArn);
    const records = this.engine.streamRecords(table.definition.TableName!);
    return {
      StreamDescription: {
        StreamArn: this.streamArn(table),
        StreamLabel: table.stream!.label,
        StreamStatus: 'ENABLED',
        StreamViewType: table.stream!.viewType,
        CreationRequestDateTime: table.created / 1000,
        TableName: table.definition.TableName,
        KeySchema: table.definition.KeySchema,
        Shards: [{ ShardId: this.shardId(table), SequenceNumberRange: { StartingSequenceNumber: records[0]?.dynamodb.SequenceNumber ?? '000000000000000000001' } }],
      },
    };
  }

  private getShardIterator(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const table = this.byStreamArn(input.StreamArn);
    if (input.ShardId !== this.shardId(table)) throw new RequestError('ResourceNotFoundException', `Requested resource not found: Shard: ${String(input.ShardId)} in Stream: ${this.streamArn(table)} not found`);
    const records = this.engine.streamRecords(table.definition.TableName!);
    const sequence = input.SequenceNumber as string | undefined;
    let position: number;
    switch (input.ShardIteratorType) {
      case 'TRIM_HORIZON':
        position = 0;
        break;
      case 'LATEST':
        position = records.length;
        break;
      case 'AT_SEQUENCE_NUMBER':
      case 'AFTER_SEQUENCE_NUMBER': {
        if (sequence === undefined) throw invalid('SequenceNumber is required for shard iterator type AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER');
        const at = records.findIndex((r) => BigInt(r.dynamodb.SequenceNumber) >= BigInt(sequence));
        position = at < 0 ? records.length : at + (input.ShardIteratorType === 'AFTER_SEQUENCE_NUMBER' && records[at]!.dynamodb.SequenceNumber === sequence ? 1 : 0);
        break;
      }
      default:
        throw constraints([`Value '${String(input.ShardIteratorType)}' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, AT_SEQUENCE_NUMBER, LATEST, TRIM_HORIZON]`]);
    }
    return { ShardIterator: iterator(this.streamArn(table), position) };
  }

  private getRecords(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const { arn, position } = readIterator(input.ShardIterator);
    const table = this.byStreamArn(arn);
    const limit = (input.Limit as number | undefined) ?? 1000;
    if (limit < 1 || limit > 1000) throw constraints([`Value '${limit}' at 'limit' failed to satisfy constraint: Member must have value ${limit < 1 ? 'greater than or equal to 1' : 'less than or equal to 1000'}`]);
    const records = this.engine.streamRecords(table.definition.TableName!);
    const page = records.slice(position, position + limit);
    return { Records: page.map(wireRecord), NextShardIterator: iterator(arn, position + page.length) };
  }
}

/** A stream record as GetRecords answers it over the wire (the creation time in epoch seconds). */
function wireRecord(record: InMemoryStreamRecord): Record<string, unknown> {
  return { ...record, dynamodb: { ...record.dynamodb, ApproximateCreationDateTime: record.dynamodb.ApproximateCreationDateTime.getTime() / 1000 } };
}

const iterator = (arn: string, position: number) => Buffer.from(JSON.stringify({ arn, position })).toString('base64');

function readIterator(given: unknown): { arn: string; position: number } {
  try {
    const parsed = JSON.parse(Buffer.from(String(given), 'base64').toString('utf8')) as { arn?: unknown; position?: unknown };
    if (typeof parsed.arn === 'string' && typeof parsed.position === 'number') return { arn: parsed.arn, position: parsed.position };
  } catch {
    // an iterator that is not one of ours is refused below
  }
  throw validation('Invalid ShardIterator');
}

function randomId(): string {
  return crypto.randomUUID();
}

function throughputOf(given: ProvisionedThroughput | undefined): { ReadCapacityUnits: number; WriteCapacityUnits: number } {
  return { ReadCapacityUnits: Number(given?.ReadCapacityUnits ?? 0), WriteCapacityUnits: Number(given?.WriteCapacityUnits ?? 0) };
}

/** The billing mode a request sets, checked against the throughput it gives. */
function checkBilling(mode: string | undefined, throughput: ProvisionedThroughput | undefined): 'PROVISIONED' | 'PAY_PER_REQUEST' {
  if (mode !== undefined && mode !== 'PROVISIONED' && mode !== 'PAY_PER_REQUEST') {
    throw constraints([`Value '${mode}' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]`]);
  }
  if (mode === 'PAY_PER_REQUEST') {
    if (throughput !== undefined) throw invalid('Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST');
    return 'PAY_PER_REQUEST';
  }
  if (throughput === undefined) throw invalid('ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED');
  checkUnits(throughput);
  return 'PROVISIONED';
}

function checkUnits(throughput: ProvisionedThroughput): void {
  for (const [field, value] of [['readCapacityUnits', throughput.ReadCapacityUnits], ['writeCapacityUnits', throughput.WriteCapacityUnits]] as const) {
    if (value === undefined || value === null) throw constraints([`Value null at 'provisionedThroughput.${field}' failed to satisfy constraint: Member must not be null`]);
    if (Number(value) < 1) throw constraints([`Value '${value}' at 'provisionedThroughput.${field}' failed to satisfy constraint: Member must have value greater than or equal to 1`]);
  }
}

function checkIndexThroughput(index: GlobalSecondaryIndex, billingMode: string): void {
  if (billingMode === 'PROVISIONED' && index.ProvisionedThroughput === undefined) throw invalid(`ProvisionedThroughput must be specified for index: ${index.IndexName}`);
  if (billingMode === 'PAY_PER_REQUEST' && index.ProvisionedThroughput !== undefined) {
    throw invalid(`ProvisionedThroughput should not be specified for index: ${index.IndexName} when BillingMode is PAY_PER_REQUEST`);
  }
  if (index.ProvisionedThroughput) checkUnits(index.ProvisionedThroughput);
}

/** A key schema: one HASH first, at most one RANGE after it, every attribute defined as S, N or B. */
function checkKeySchema(keys: readonly KeySchemaElement[], definitions: readonly AttributeDefinition[]): void {
  for (const definition of definitions) {
    if (!['S', 'N', 'B'].includes(definition.AttributeType as string)) {
      throw constraints([`Value '${definition.AttributeType}' at 'attributeDefinitions.${definitions.indexOf(definition) + 1}.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]`]);
    }
  }
  if (keys.length === 2 && keys[0]!.AttributeName === keys[1]!.AttributeName) throw validation('Invalid KeySchema: Some index key attribute have no definition');
  const missing = keys.filter((k) => !definitions.some((d) => d.AttributeName === k.AttributeName)).map((k) => k.AttributeName);
  if (missing.length) {
    throw invalid(`Some index key attributes are not defined in AttributeDefinitions. Keys: [${missing.join(', ')}], AttributeDefinitions: [${definitions.map((d) => d.AttributeName).join(', ')}]`);
  }
  if (keys[0]?.KeyType !== 'HASH') throw invalid('Invalid KeySchema: The first KeySchemaElement is not a HASH key type');
  if (keys.length === 2 && keys[1]!.KeyType !== 'RANGE') throw invalid('Invalid KeySchema: The second KeySchemaElement is not a RANGE key type');
}

function checkIndex(index: GlobalSecondaryIndex | LocalSecondaryIndex, definitions: readonly AttributeDefinition[], kind: 'global' | 'local'): void {
  const problems = nameProblems(index.IndexName, `${kind}SecondaryIndexes.member.indexName`);
  if (problems.length) throw constraints(problems);
  if (!index.KeySchema?.length) throw constraints([`Value null at '${kind}SecondaryIndexes.member.keySchema' failed to satisfy constraint: Member must not be null`]);
  if (!index.Projection) throw constraints([`Value null at '${kind}SecondaryIndexes.member.projection' failed to satisfy constraint: Member must not be null`]);
  checkKeySchema(index.KeySchema, definitions);
  const type = index.Projection.ProjectionType;
  if (type === 'INCLUDE' && !index.Projection.NonKeyAttributes?.length) throw invalid('ProjectionType is INCLUDE, but NonKeyAttributes is not specified');
  if (type !== 'INCLUDE' && index.Projection.NonKeyAttributes !== undefined) throw invalid(`ProjectionType is ${type}, but NonKeyAttributes is specified`);
}

function checkStream(spec: StreamSpecification | undefined): string | undefined {
  if (!spec?.StreamEnabled) return undefined;
  const view = spec.StreamViewType;
  if (view === undefined) throw invalid('You must specify a StreamViewType when enabling a stream');
  if (!['NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES', 'KEYS_ONLY'].includes(view)) {
    throw constraints([`Value '${view}' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]`]);
  }
  return view;
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

/** An ExecuteStatement's NextToken: where the next page starts, for this statement only (opaque to the caller, as DynamoDB's are). */
function nextToken(statement: unknown, start: unknown): string {
  return Buffer.from(JSON.stringify({ statement, start })).toString('base64');
}

function readNextToken(token: unknown, statement: unknown): Record<string, unknown> {
  try {
    const read = JSON.parse(Buffer.from(String(token), 'base64').toString('utf8')) as { statement?: unknown; start?: Record<string, unknown> };
    if (read.statement === statement && typeof read.start === 'object' && read.start !== null) return read.start;
  } catch {
    // not one of ours
  }
  throw validation('Invalid NextToken: it was not returned by an ExecuteStatement of this statement');
}
