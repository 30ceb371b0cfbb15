// `ddbgen local` as an SDK sees it: a server on a free port driven by the real low-level client
// and the DocumentClient over DynamoDB's JSON protocol — the control plane, exact numbers and
// sets end to end, legacy parameters, errors as DynamoDB names and words them, the Streams API,
// and tables kept across a restart.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ExecuteStatementCommand,
  ExecuteTransactionCommand,
  GetItemCommand,
  ListTablesCommand,
  ListTagsOfResourceCommand,
  PutItemCommand,
  QueryCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  TagResourceCommand,
  UpdateItemCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, ListStreamsCommand } from '@aws-sdk/client-dynamodb-streams';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { startLocal, type LocalServer } from '../../generator/local/local-server.js';

const config = (server: LocalServer) => ({ endpoint: server.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'any', secretAccessKey: 'any' } });

const table = (name: string, extra: Partial<CreateTableCommandInput> = {}): CreateTableCommandInput => ({
  TableName: name,
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'N' },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  BillingMode: 'PAY_PER_REQUEST',
  ...extra,
});

async function serve(t: { teardown(fn: () => Promise<void>): void }, persist?: string) {
  const server = await startLocal({ port: 0, ...(persist === undefined ? {} : { persist }) });
  const client = new DynamoDBClient(config(server));
  t.teardown(async () => {
    client.destroy();
    await server.stop();
  });
  return { server, client };
}

test('a table is created, described, listed in pages and deleted', async (t) => {
  const { client } = await serve(t);
  const created = await client.send(new CreateTableCommand(table('Orders', { Tags: [{ Key: 'team', Value: 'a' }] })));
  t.like(created.TableDescription, { TableName: 'Orders', TableStatus: 'CREATING', ItemCount: 0, BillingModeSummary: { BillingMode: 'PAY_PER_REQUEST' } }, 'CreateTable answers CREATING, as DynamoDB does');
  for (const name of ['Aa1', 'Bb2', 'Cc3']) await client.send(new CreateTableCommand(table(name)));
  const first = await client.send(new ListTablesCommand({ Limit: 2 }));
  t.deepEqual([first.TableNames, first.LastEvaluatedTableName], [['Aa1', 'Bb2'], 'Bb2']);
  const second = await client.send(new ListTablesCommand({ Limit: 2, ExclusiveStartTableName: first.LastEvaluatedTableName }));
  t.deepEqual([second.TableNames, second.LastEvaluatedTableName], [['Cc3', 'Orders'], undefined]);
  const described = (await client.send(new DescribeTableCommand({ TableName: 'Orders' }))).Table!;
  t.is(described.TableStatus, 'ACTIVE', 'and is ready by the next request');
  t.is(described.TableArn, 'arn:aws:dynamodb:local:000000000000:table/Orders');
  t.deepEqual((await client.send(new ListTagsOfResourceCommand({ ResourceArn: described.TableArn }))).Tags, [{ Key: 'team', Value: 'a' }]);
  await client.send(new TagResourceCommand({ ResourceArn: described.TableArn, Tags: [{ Key: 'env', Value: 'dev' }] }));
  t.is((await client.send(new ListTagsOfResourceCommand({ ResourceArn: described.TableArn }))).Tags?.length, 2);
  t.is((await client.send(new DeleteTableCommand({ TableName: 'Orders' }))).TableDescription?.TableStatus, 'DELETING');
  const missing = await t.throwsAsync(client.send(new DescribeTableCommand({ TableName: 'Orders' })));
  t.deepEqual([missing?.name, missing?.message], ['ResourceNotFoundException', 'Requested resource not found: Table: Orders not found']);
});

test("CreateTable's checks, named and worded as DynamoDB's", async (t) => {
  const { client } = await serve(t);
  const cases: Array<[string, CreateTableCommandInput, string]> = [
    ['a name too short', table('ab'), "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3"],
    ['a key attribute not defined', { ...table('Keys'), AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }] }, 'One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [sk], AttributeDefinitions: [pk]'],
    ['throughput with on-demand', table('Billing', { ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 } }), 'One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST'],
  ];
  for (const [given, input, want] of cases) {
    const error = await t.throwsAsync(client.send(new CreateTableCommand(input)), undefined, given);
    t.deepEqual([error?.name, error?.message], ['ValidationException', want], given);
  }
  await client.send(new CreateTableCommand(table('Twice')));
  const again = await t.throwsAsync(client.send(new CreateTableCommand(table('Twice'))));
  t.deepEqual([again?.name, again?.message], ['ResourceInUseException', 'Table already exists: Twice']);
});

test('numbers of 38 digits, sets and binary come back exactly through the low-level client', async (t) => {
  const { client } = await serve(t);
  await client.send(new CreateTableCommand(table('Exact')));
  const item = {
    pk: { S: 'p' },
    sk: { N: '-0.00000000000000000000000000000000000012345678901234567890123456789012345678' },
    big: { N: '99999999999999999999999999999999999999' },
    tiny: { N: '1E-130' },
    ns: { NS: ['3', '1.50', '-2'] },
    ss: { SS: ['b', 'a'] },
    bs: { BS: [new Uint8Array([2]), new Uint8Array([0, 1])] },
    b: { B: new Uint8Array([0, 255, 128]) },
  };
  await client.send(new PutItemCommand({ TableName: 'Exact', Item: item }));
  const got = (await client.send(new GetItemCommand({ TableName: 'Exact', Key: { pk: item.pk, sk: item.sk } }))).Item!;
  t.is(got.sk?.N, '-0.00000000000000000000000000000000000012345678901234567890123456789012345678');
  t.is(got.big?.N, '99999999999999999999999999999999999999');
  t.is(got.tiny?.N, '0.' + '0'.repeat(129) + '1');
  t.deepEqual([...got.ns!.NS!].sort(), ['-2', '1.5', '3']);
  t.deepEqual([...got.ss!.SS!].sort(), ['a', 'b']);
  t.deepEqual(got.b?.B, new Uint8Array([0, 255, 128]));
  t.is(got.bs?.BS?.length, 2);
  const added = await client.send(new UpdateItemCommand({ TableName: 'Exact', Key: { pk: item.pk, sk: item.sk }, UpdateExpression: 'ADD big :one', ExpressionAttributeValues: { ':one': { N: '-99999999999999999999999999999999999998' } }, ReturnValues: 'UPDATED_NEW' }));
  t.is(added.Attributes?.big?.N, '1');
});

test('attribute values DynamoDB refuses are refused with its messages', async (t) => {
  const { client } = await serve(t);
  await client.send(new CreateTableCommand(table('Checked')));
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['an empty string set', { SS: [] }, 'One or more parameter values were invalid: An string set  may not be empty'],
    ['a duplicate in a set', { SS: ['a', 'a'] }, 'One or more parameter values were invalid: Input collection [a, a] contains duplicates.'],
    ['NULL false', { NULL: false }, 'One or more parameter values were invalid: Null attribute value types must have the value of true'],
  ];
  for (const [given, value, want] of cases) {
    const error = await t.throwsAsync(client.send(new PutItemCommand({ TableName: 'Checked', Item: { pk: { S: 'p' }, sk: { N: '1' }, v: value as never } })), undefined, given);
    t.deepEqual([error?.name, error?.message], ['ValidationException', want], given);
  }
  const digits = await t.throwsAsync(client.send(new PutItemCommand({ TableName: 'Checked', Item: { pk: { S: 'p' }, sk: { N: '1' }, v: { N: '123456789012345678901234567890123456789' } } })));
  t.is(digits?.name, 'ValidationException', 'a number of 39 significant digits');
  const shape = await t.throwsAsync(client.send(new GetItemCommand({ TableName: 'Checked', Key: { pk: { S: 'p' } } })));
  t.deepEqual([shape?.name, shape?.message], ['ValidationException', 'The provided key element does not match the schema']);
  const inTransaction = await t.throwsAsync(client.send(new TransactGetItemsCommand({ TransactItems: [{ Get: { TableName: 'Checked', Key: { pk: { S: 'p' }, sk: { N: '1' } } } }, { Get: { TableName: 'Checked', Key: {} } }] })));
  t.deepEqual([inTransaction?.name, (inTransaction as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons?.map((r) => r.Code)], ['TransactionCanceledException', ['None', 'ValidationError']]);
  const missing = await t.throwsAsync(client.send(new GetItemCommand({ TableName: 'Nowhere', Key: { pk: { S: 'p' } } })));
  t.deepEqual([missing?.name, missing?.message, (missing as { __type?: string }).__type], ['ResourceNotFoundException', 'Requested resource not found', 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException']);
});

test('legacy parameters are answered as the expressions they mean', async (t) => {
  const { client } = await serve(t);
  await client.send(new CreateTableCommand(table('Legacy')));
  for (const sk of ['1', '2', '3']) await client.send(new PutItemCommand({ TableName: 'Legacy', Item: { pk: { S: 'p' }, sk: { N: sk }, tag: { S: sk === '2' ? 'x' : 'y' } } }));
  const page = await client.send(
    new QueryCommand({
      TableName: 'Legacy',
      KeyConditions: { pk: { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'p' }] }, sk: { ComparisonOperator: 'GE', AttributeValueList: [{ N: '2' }] } },
      QueryFilter: { tag: { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'y' }] } },
      AttributesToGet: ['sk'],
    }),
  );
  t.deepEqual(page.Items, [{ sk: { N: '3' } }]);
  await client.send(new UpdateItemCommand({ TableName: 'Legacy', Key: { pk: { S: 'p' }, sk: { N: '1' } }, AttributeUpdates: { count: { Action: 'ADD', Value: { N: '5' } }, tag: { Action: 'DELETE' } } }));
  t.deepEqual((await client.send(new GetItemCommand({ TableName: 'Legacy', Key: { pk: { S: 'p' }, sk: { N: '1' } } }))).Item, { pk: { S: 'p' }, sk: { N: '1' }, count: { N: '5' } });
});

test('a GSI added by UpdateTable is filled from the items already there; removed, it is gone', async (t) => {
  const { client } = await serve(t);
  await client.send(new CreateTableCommand(table('Grown')));
  await client.send(new PutItemCommand({ TableName: 'Grown', Item: { pk: { S: 'p' }, sk: { N: '1' }, email: { S: 'a@x' } } }));
  await client.send(new PutItemCommand({ TableName: 'Grown', Item: { pk: { S: 'q' }, sk: { N: '2' } } }));
  const updated = await client.send(
    new UpdateTableCommand({
      TableName: 'Grown',
      AttributeDefinitions: [{ AttributeName: 'email', AttributeType: 'S' }],
      GlobalSecondaryIndexUpdates: [{ Create: { IndexName: 'byEmail', KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } } }],
    }),
  );
  t.like(updated.TableDescription, { TableStatus: 'UPDATING', GlobalSecondaryIndexes: [{ IndexName: 'byEmail', IndexStatus: 'CREATING', ItemCount: 0 }] }, 'answered as DynamoDB answers the start of a backfill');
  t.like((await client.send(new DescribeTableCommand({ TableName: 'Grown' }))).Table, { TableStatus: 'ACTIVE', GlobalSecondaryIndexes: [{ IndexName: 'byEmail', IndexStatus: 'ACTIVE', ItemCount: 1 }] });
  const found = await client.send(new QueryCommand({ TableName: 'Grown', IndexName: 'byEmail', KeyConditionExpression: 'email = :e', ExpressionAttributeValues: { ':e': { S: 'a@x' } } }));
  t.deepEqual(found.Items, [{ pk: { S: 'p' }, sk: { N: '1' }, email: { S: 'a@x' } }]);
  const refused = await t.throwsAsync(
    client.send(
      new UpdateTableCommand({
        TableName: 'Grown',
        AttributeDefinitions: [{ AttributeName: 'sk', AttributeType: 'N' }],
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: 'bySk', KeySchema: [{ AttributeName: 'sk', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } } }],
        StreamSpecification: { StreamEnabled: false },
      }),
    ),
  );
  t.deepEqual([refused?.name, refused?.message], ['ValidationException', 'One or more parameter values were invalid: Table does not have an enabled stream: TableName: Grown']);
  t.deepEqual((await client.send(new DescribeTableCommand({ TableName: 'Grown' }))).Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName), ['byEmail'], 'a refused update changes nothing');
  await client.send(new UpdateTableCommand({ TableName: 'Grown', GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'byEmail' } }] }));
  const gone = await t.throwsAsync(client.send(new QueryCommand({ TableName: 'Grown', IndexName: 'byEmail', KeyConditionExpression: 'email = :e', ExpressionAttributeValues: { ':e': { S: 'a@x' } } })));
  t.is(gone?.name, 'ValidationException');
});

test('Time to Live is turned on and described; the stream is read through the Streams API', async (t) => {
  const { server, client } = await serve(t);
  await client.send(new CreateTableCommand(table('Streamed', { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } })));
  await client.send(new UpdateTimeToLiveCommand({ TableName: 'Streamed', TimeToLiveSpecification: { Enabled: true, AttributeName: 'expiresAt' } }));
  t.deepEqual((await client.send(new DescribeTimeToLiveCommand({ TableName: 'Streamed' }))).TimeToLiveDescription, { TimeToLiveStatus: 'ENABLED', AttributeName: 'expiresAt' });
  await client.send(new PutItemCommand({ TableName: 'Streamed', Item: { pk: { S: 'p' }, sk: { N: '1' }, n: { N: '1' } } }));
  await client.send(new PutItemCommand({ TableName: 'Streamed', Item: { pk: { S: 'p' }, sk: { N: '1' }, n: { N: '12345678901234567890123456789012345678' } } }));
  const streams = new DynamoDBStreamsClient(config(server));
  t.teardown(() => streams.destroy());
  const [stream] = (await streams.send(new ListStreamsCommand({ TableName: 'Streamed' }))).Streams!;
  const shard = (await streams.send(new DescribeStreamCommand({ StreamArn: stream!.StreamArn }))).StreamDescription!.Shards![0]!;
  const iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: stream!.StreamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
  const records = (await streams.send(new GetRecordsCommand({ ShardIterator: iterator }))).Records!;
  t.deepEqual(records.map((r) => r.eventName), ['INSERT', 'MODIFY']);
  t.is(records[1]!.dynamodb?.NewImage?.n?.N, '12345678901234567890123456789012345678');
  t.true(records[0]!.dynamodb?.ApproximateCreationDateTime instanceof Date);
});

test('the DocumentClient works against it as against DynamoDB', async (t) => {
  const { client } = await serve(t);
  await client.send(new CreateTableCommand(table('Documents')));
  const documents = DynamoDBDocumentClient.from(client);
  await documents.send(new PutCommand({ TableName: 'Documents', Item: { pk: 'p', sk: 1, tags: new Set(['a', 'b']), nested: { list: [1, 'two', null] } } }));
  t.deepEqual((await documents.send(new GetCommand({ TableName: 'Documents', Key: { pk: 'p', sk: 1 } }))).Item, { pk: 'p', sk: 1, tags: new Set(['a', 'b']), nested: { list: [1, 'two', null] } });
});

test('with persist, the tables, their items, TTL and tags survive a restart', async (t) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'ddbgen-local-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const first = await startLocal({ port: 0, persist: folder });
  const client = new DynamoDBClient(config(first));
  await client.send(new CreateTableCommand(table('Kept', { Tags: [{ Key: 'k', Value: 'v' }] })));
  await client.send(new UpdateTimeToLiveCommand({ TableName: 'Kept', TimeToLiveSpecification: { Enabled: true, AttributeName: 'ttl' } }));
  await client.send(new PutItemCommand({ TableName: 'Kept', Item: { pk: { S: 'p' }, sk: { N: '1' }, big: { N: '12345678901234567890123456789012345678' }, b: { B: new Uint8Array([9, 8]) }, ss: { SS: ['x'] } } }));
  client.destroy();
  await first.stop();
  t.deepEqual(readdirSync(folder), ['ddbgen-local.json'], 'one file, no temporary left');

  const second = await startLocal({ port: 0, persist: folder });
  const again = new DynamoDBClient(config(second));
  t.teardown(async () => {
    again.destroy();
    await second.stop();
  });
  t.deepEqual((await again.send(new GetItemCommand({ TableName: 'Kept', Key: { pk: { S: 'p' }, sk: { N: '1' } } }))).Item, { pk: { S: 'p' }, sk: { N: '1' }, big: { N: '12345678901234567890123456789012345678' }, b: { B: new Uint8Array([9, 8]) }, ss: { SS: ['x'] } });
  t.deepEqual((await again.send(new DescribeTimeToLiveCommand({ TableName: 'Kept' }))).TimeToLiveDescription, { TimeToLiveStatus: 'ENABLED', AttributeName: 'ttl' });
  const arn = (await again.send(new DescribeTableCommand({ TableName: 'Kept' }))).Table!.TableArn;
  t.deepEqual((await again.send(new ListTagsOfResourceCommand({ ResourceArn: arn }))).Tags, [{ Key: 'k', Value: 'v' }]);
});

test('a reserved word named bare in an expression is refused; through an alias it is answered', async (t) => {
  const { client } = await serve(t);
  await client.send(new CreateTableCommand(table('Words')));
  const key = { pk: { S: 'p' }, sk: { N: '1' } };
  const cases: Array<[string, string]> = [
    ['SET status = :v', 'Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: status'],
    ['SET a.Name = :v', 'Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: Name'],
  ];
  for (const [given, want] of cases) {
    const error = await t.throwsAsync(client.send(new UpdateItemCommand({ TableName: 'Words', Key: key, UpdateExpression: given, ExpressionAttributeValues: { ':v': { S: 'x' } } })), undefined, given);
    t.deepEqual([error?.name, error?.message], ['ValidationException', want], given);
  }
  await client.send(new UpdateItemCommand({ TableName: 'Words', Key: key, UpdateExpression: 'SET #s = :v', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':v': { S: 'x' } }, ConditionExpression: 'attribute_not_exists(pk) AND NOT begins_with(other, :v)' }));
  t.is((await client.send(new GetItemCommand({ TableName: 'Words', Key: key }))).Item?.status?.S, 'x');
});

test('PartiQL statements are answered as the requests they mean', async (t) => {
  const { client } = await serve(t);
  await client.send(new CreateTableCommand(table('Statements')));
  const run = (Statement: string, Parameters?: Array<Record<string, unknown>>) => client.send(new ExecuteStatementCommand({ Statement, ...(Parameters ? { Parameters: Parameters as never } : {}) }));
  await run(`INSERT INTO "Statements" VALUE {'pk': 'p', 'sk': 1, 'tags': <<'a', 'b'>>, 'm': {'deep': 'x'}}`);
  await run(`INSERT INTO "Statements" VALUE {'pk': ?, 'sk': ?, 'n': 12345678901234567890123456789012345678}`, [{ S: 'p' }, { N: '2' }]);
  const duplicate = await t.throwsAsync(run(`INSERT INTO "Statements" VALUE {'pk': 'p', 'sk': 1}`));
  t.is(duplicate?.name, 'DuplicateItemException');
  await run(`UPDATE "Statements" SET n = n + 1 REMOVE gone WHERE pk = 'p' AND sk = 2`);
  t.deepEqual((await run(`SELECT sk, m.deep FROM "Statements" WHERE pk = 'p' AND sk >= 1`)).Items, [{ sk: { N: '1' }, deep: { S: 'x' } }, { sk: { N: '2' } }]);
  t.deepEqual((await run(`SELECT n FROM "Statements" WHERE pk = 'p' AND sk = 2`)).Items, [{ n: { N: '12345678901234567890123456789012345679' } }]);
  const missing = await t.throwsAsync(run(`UPDATE "Statements" SET a = 1 WHERE pk = 'q' AND sk = 1`));
  t.is(missing?.name, 'ConditionalCheckFailedException');
  const cancelled = await t.throwsAsync(client.send(new ExecuteTransactionCommand({ TransactStatements: [{ Statement: `DELETE FROM "Statements" WHERE pk = 'p' AND sk = 2` }, { Statement: `INSERT INTO "Statements" VALUE {'pk': 'p', 'sk': 1}` }] })));
  t.deepEqual([cancelled?.name, (cancelled as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons?.map((r) => r.Code)], ['TransactionCanceledException', ['None', 'DuplicateItem']]);
  t.is((await run(`SELECT * FROM "Statements" WHERE pk = 'p'`)).Items?.length, 2, 'nothing of the cancelled transaction was applied');
  const malformed = await t.throwsAsync(run(`SELECTT * FROMM "Statements"`));
  t.is(malformed?.name, 'ValidationException');
});

test('a PartiQL SELECT is answered a page at a time: Limit items read, a NextToken while there is more', async (t) => {
  const { client } = await serve(t);
  await client.send(new CreateTableCommand(table('Paged')));
  for (let sk = 1; sk <= 5; sk++) await client.send(new PutItemCommand({ TableName: 'Paged', Item: { pk: { S: 'p' }, sk: { N: String(sk) }, odd: { BOOL: sk % 2 === 1 } } }));
  const pages: Array<Array<string | undefined>> = [];
  let NextToken: string | undefined;
  do {
    const page = await client.send(new ExecuteStatementCommand({ Statement: `SELECT sk FROM "Paged" WHERE pk = 'p' AND odd = true`, Limit: 2, ...(NextToken ? { NextToken } : {}) }));
    pages.push((page.Items ?? []).map((item) => item.sk?.N));
    NextToken = page.NextToken;
  } while (NextToken);
  t.deepEqual(pages, [['1'], ['3'], ['5']], 'two items read a page (the filter after the limit, as a Query with a filter), the last page without a token');
  const whole = await client.send(new ExecuteStatementCommand({ Statement: `SELECT sk FROM "Paged" WHERE pk = 'p'` }));
  t.deepEqual([whole.Items?.length, whole.NextToken], [5, undefined]);
  const foreign = await t.throwsAsync(client.send(new ExecuteStatementCommand({ Statement: `SELECT * FROM "Paged"`, NextToken: 'bm90IGEgdG9rZW4=' })));
  t.deepEqual([foreign?.name, foreign?.message], ['ValidationException', 'Invalid NextToken: it was not returned by an ExecuteStatement of this statement']);
  const zero = await t.throwsAsync(client.send(new ExecuteStatementCommand({ Statement: `SELECT * FROM "Paged"`, Limit: 0 })));
  t.deepEqual([zero?.name, zero?.message], ['ValidationException', "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"]);
});

test('ReturnItemCollectionMetrics: the collections a put, a batch and a transaction touched, for tables with a local index', async (t) => {
  const { client } = await serve(t);
  const withLsi = table('Collections', {
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'N' },
      { AttributeName: 'l', AttributeType: 'S' },
    ],
    LocalSecondaryIndexes: [{ IndexName: 'byL', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'l', KeyType: 'RANGE' }], Projection: { ProjectionType: 'KEYS_ONLY' } }],
  });
  await client.send(new CreateTableCommand(withLsi));
  await client.send(new CreateTableCommand(table('NoLsi')));
  const collection = (pk: string) => ({ ItemCollectionKey: { pk: { S: pk } }, SizeEstimateRangeGB: [0, 1] });
  const put = await client.send(new PutItemCommand({ TableName: 'Collections', Item: { pk: { S: 'a' }, sk: { N: '1' }, l: { S: 'x' } }, ReturnItemCollectionMetrics: 'SIZE' }));
  t.deepEqual(put.ItemCollectionMetrics, collection('a'));
  t.is((await client.send(new PutItemCommand({ TableName: 'NoLsi', Item: { pk: { S: 'a' }, sk: { N: '1' } }, ReturnItemCollectionMetrics: 'SIZE' }))).ItemCollectionMetrics, undefined, 'no local index: no item collections');
  t.is((await client.send(new PutItemCommand({ TableName: 'Collections', Item: { pk: { S: 'a' }, sk: { N: '2' } } }))).ItemCollectionMetrics, undefined, 'not asked for');

  const batch = await client.send(
    new BatchWriteItemCommand({
      ReturnItemCollectionMetrics: 'SIZE',
      RequestItems: {
        Collections: [{ PutRequest: { Item: { pk: { S: 'a' }, sk: { N: '3' } } } }, { PutRequest: { Item: { pk: { S: 'b' }, sk: { N: '1' } } } }, { DeleteRequest: { Key: { pk: { S: 'a' }, sk: { N: '2' } } } }],
        NoLsi: [{ PutRequest: { Item: { pk: { S: 'z' }, sk: { N: '1' } } } }],
      },
    }),
  );
  t.deepEqual(batch.ItemCollectionMetrics, { Collections: [collection('a'), collection('b')] }, 'each collection once, in the order written; none for the table without a local index');

  const transaction = await client.send(
    new TransactWriteItemsCommand({
      ReturnItemCollectionMetrics: 'SIZE',
      TransactItems: [
        { ConditionCheck: { TableName: 'Collections', Key: { pk: { S: 'e' }, sk: { N: '1' } }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Update: { TableName: 'Collections', Key: { pk: { S: 'd' }, sk: { N: '1' } }, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': { S: 'v' } } } },
        { Delete: { TableName: 'Collections', Key: { pk: { S: 'b' }, sk: { N: '1' } } } },
        { Put: { TableName: 'NoLsi', Item: { pk: { S: 'y' }, sk: { N: '1' } } } },
      ],
    }),
  );
  t.deepEqual(transaction.ItemCollectionMetrics, { Collections: [collection('d'), collection('b')] }, 'an update and a delete; not the condition check');
});
