// The control plane of the local DynamoDB: what DynamoDB keeps about each table beside its items
// (its definition, status, ARNs, billing mode and throughput, Time to Live, tags, stream, deletion
// protection, table class), and the operations that create, describe, list, update and delete
// tables, as DynamoDB answers them. The items are the engine's.

import type {
  AttributeDefinition,
  CreateTableCommandInput,
  GlobalSecondaryIndex,
  KeySchemaElement,
  Projection,
  ProvisionedThroughput,
  StreamSpecification,
  Tag,
} from '@aws-sdk/client-dynamodb';
import type { InMemoryEngine } from '../../templates/runtime/in-memory/engine.js';
import { itemBytes, RequestError, validation, type AttributeMap } from '../../templates/runtime/in-memory/value.js';
import { checkBilling, checkIndex, checkIndexThroughput, checkKeySchema, checkStream, constraints, invalid, nameProblems } from './table-definition-checks.js';

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

const notFound = (name: string) => new RequestError('ResourceNotFoundException', `Requested resource not found: Table: ${name} not found`);

/** The tables of the local DynamoDB, by name, and the operations of the DynamoDB API on them. */
export class ControlPlane {
  readonly tables = new Map<string, TableRecord>();
  private readonly engine: InMemoryEngine;
  private readonly region: string;
  private readonly account = '000000000000';

  constructor(engine: InMemoryEngine, region: string) {
    this.engine = engine;
    this.region = region;
  }

  addTable(table: TableRecord): void {
    const name = table.definition.TableName!;
    this.engine.createTable(table.definition, table.timeToLive ? { timeToLive: { TableName: name, TimeToLiveSpecification: { Enabled: true, AttributeName: table.timeToLive } } } : undefined);
    this.engine.setStream(name, table.stream?.viewType);
    this.tables.set(name, table);
  }

  record(name: unknown): TableRecord {
    const problems = nameProblems(name, 'tableName');
    if (problems.length) throw constraints(problems);
    const table = this.tables.get(String(name));
    if (!table) throw notFound(String(name));
    return table;
  }

  arn(name: string): string {
    return `arn:aws:dynamodb:${this.region}:${this.account}:table/${name}`;
  }

  /** The table an ARN names; one that names no table here is refused as DynamoDB refuses it: access to it is denied. */
  byArn(arn: unknown, action: string): TableRecord {
    const text = String(arn ?? '');
    const match = /^arn:aws:dynamodb:[^:]*:[^:]*:table\/([^/]+)$/.exec(text);
    if (!match) throw validation(`Invalid TableArn: Invalid ResourceArn provided as input ${text}`);
    const table = this.tables.get(match[1]!);
    if (!table) throw new RequestError('AccessDeniedException', `User: arn:aws:iam::${this.account}:user/local is not authorized to perform: dynamodb:${action} on resource: ${text} because no identity-based policy allows the dynamodb:${action} action`);
    return table;
  }

  createTable(input: CreateTableCommandInput): Record<string, unknown> {
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
  describe(table: TableRecord, status = 'ACTIVE', creating: ReadonlySet<string> = new Set()): Record<string, unknown> {
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

  listTables(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const limit = input.Limit as number | undefined;
    if (limit !== undefined && (limit < 1 || limit > 100)) {
      throw constraints([`Value '${limit}' at 'limit' failed to satisfy constraint: Member must have value ${limit < 1 ? 'greater than or equal to 1' : 'less than or equal to 100'}`]);
    }
    const start = input.ExclusiveStartTableName as string | undefined;
    const names = [...this.tables.keys()].sort().filter((name) => start === undefined || name > start);
    const page = names.slice(0, limit ?? 100);
    return { TableNames: page, ...(page.length < names.length ? { LastEvaluatedTableName: page.at(-1) } : {}) };
  }

  deleteTable(name: unknown): Record<string, unknown> {
    const table = this.record(name);
    if (table.deletionProtection) throw invalid(`Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.`);
    const description = this.describe(table, 'DELETING');
    this.engine.deleteTable(table.definition.TableName!);
    this.tables.delete(table.definition.TableName!);
    return description;
  }

  updateTable(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
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

  updateTimeToLive(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
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

  tagResource(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
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

  untagResource(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const table = this.byArn(input.ResourceArn, 'UntagResource');
    const keys = new Set((input.TagKeys as string[] | undefined) ?? []);
    table.tags = table.tags.filter((tag) => !keys.has(tag.Key!));
    return {};
  }
}

function randomId(): string {
  return crypto.randomUUID();
}

function throughputOf(given: ProvisionedThroughput | undefined): { ReadCapacityUnits: number; WriteCapacityUnits: number } {
  return { ReadCapacityUnits: Number(given?.ReadCapacityUnits ?? 0), WriteCapacityUnits: Number(given?.WriteCapacityUnits ?? 0) };
}
