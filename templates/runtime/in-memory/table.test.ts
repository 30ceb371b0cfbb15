// The in-memory table through the DocumentClient's commands: what each answers, DynamoDB's
// order, pages, indexes, transactions, limits, TTL, the stream and faults. Its agreement with
// DynamoDB Local is proved by test/in-memory/differential.test.ts.
import test from 'ava';
import { ConditionalCheckFailedException, ProvisionedThroughputExceededException, TransactionCanceledException, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, TransactGetCommand, type QueryCommandInput, type QueryCommandOutput, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { InMemoryDynamoDB, type InMemoryOptions } from './table.js';

const definition = (name = 'T'): CreateTableCommandInput => ({
  TableName: name,
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'S' },
    { AttributeName: 'g', AttributeType: 'S' },
    { AttributeName: 'gs', AttributeType: 'N' },
    { AttributeName: 'l', AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  BillingMode: 'PAY_PER_REQUEST',
  GlobalSecondaryIndexes: [
    {
      IndexName: 'byG',
      KeySchema: [
        { AttributeName: 'g', KeyType: 'HASH' },
        { AttributeName: 'gs', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['name'] },
    },
  ],
  LocalSecondaryIndexes: [
    {
      IndexName: 'byL',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'l', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'KEYS_ONLY' },
    },
  ],
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
});

const open = (options: InMemoryOptions = {}) => new InMemoryDynamoDB(options).createTable(definition(), { timeToLive: { TableName: 'T', TimeToLiveSpecification: { AttributeName: 'expires', Enabled: true } } });
const put = (db: InMemoryDynamoDB, item: Record<string, unknown>) => db.send(new PutCommand({ TableName: 'T', Item: item }));

test('put, get, update with ReturnValues and delete, as the DocumentClient returns them', async (t) => {
  const db = open();
  await put(db, { pk: 'a', sk: '1', n: 1, tags: new Set(['x']) });
  t.deepEqual((await db.send(new GetCommand({ TableName: 'T', Key: { pk: 'a', sk: '1' } }))).Item, { pk: 'a', sk: '1', n: 1, tags: new Set(['x']) });
  const updated = await db.send(new UpdateCommand({ TableName: 'T', Key: { pk: 'a', sk: '1' }, UpdateExpression: 'SET #n = #n + :one ADD tags :t', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':one': 1, ':t': new Set(['y']) }, ReturnValues: 'UPDATED_NEW' }));
  t.deepEqual(updated.Attributes, { n: 2, tags: new Set(['x', 'y']) });
  const deleted = await db.send(new DeleteCommand({ TableName: 'T', Key: { pk: 'a', sk: '1' }, ReturnValues: 'ALL_OLD', ReturnConsumedCapacity: 'TOTAL' }));
  t.deepEqual(deleted.Attributes, { pk: 'a', sk: '1', n: 2, tags: new Set(['x', 'y']) });
  t.deepEqual(deleted.ConsumedCapacity, { TableName: 'T', CapacityUnits: 1 });
  t.is((await db.send(new GetCommand({ TableName: 'T', Key: { pk: 'a', sk: '1' } }))).Item, undefined);
  t.is(deleted.$metadata.httpStatusCode, 200);
});

test('a failed condition is the SDK exception, with the old item in wire form when asked', async (t) => {
  const db = open();
  await put(db, { pk: 'a', sk: '1', n: 1 });
  const error = await t.throwsAsync(db.send(new PutCommand({ TableName: 'T', Item: { pk: 'a', sk: '1' }, ConditionExpression: 'attribute_not_exists(pk)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })), { instanceOf: ConditionalCheckFailedException });
  t.is(error.message, 'The conditional request failed');
  t.deepEqual(error.Item, { pk: { S: 'a' }, sk: { S: '1' }, n: { N: '1' } });
  t.is(error.$metadata.httpStatusCode, 400);
});

test("DynamoDB's refusals, with its names and messages", async (t) => {
  const db = open();
  const refusals: Array<[Promise<unknown>, string, string]> = [
    [put(db, { pk: 'a', sk: '' }), 'ValidationException', 'One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: sk'],
    [put(db, { pk: 'a' }), 'ValidationException', 'One of the required keys was not given a value'],
    [put(db, { pk: 'a', sk: 'b', x: 'x'.repeat(400 * 1024) }), 'ValidationException', 'Item size has exceeded the maximum allowed size'],
    [put(db, { pk: 'p'.repeat(2049), sk: 'b' }), 'ValidationException', 'One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes'],
    [put(db, { pk: 'a', sk: 'b', g: '' }), 'ValidationException', 'One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: byG, IndexKey: g'],
    [db.send(new PutCommand({ TableName: 'nope', Item: { pk: 'a', sk: 'b' } })), 'ResourceNotFoundException', 'Cannot do operations on a non-existent table'],
    [db.send(new GetCommand({ TableName: 'T', Key: { pk: 'a' } })), 'ValidationException', 'The number of conditions on the keys is invalid'],
    [db.send(new QueryCommand({ TableName: 'T', IndexName: 'byG', ConsistentRead: true, KeyConditionExpression: 'g = :g', ExpressionAttributeValues: { ':g': 'x' } })), 'ValidationException', 'Consistent reads are not supported on global secondary indexes'],
    [db.send(new QueryCommand({ TableName: 'T', KeyConditionExpression: 'sk = :s', ExpressionAttributeValues: { ':s': 'x' } })), 'ValidationException', 'Query condition missed key schema element: pk'],
    [db.send(new QueryCommand({ TableName: 'T', KeyConditionExpression: 'other = :s', ExpressionAttributeValues: { ':s': 'x' } })), 'ValidationException', 'Query condition missed key schema element: pk'],
    [db.send(new BatchWriteCommand({ RequestItems: { T: Array.from({ length: 26 }, (_, i) => ({ PutRequest: { Item: { pk: 'b', sk: String(i) } } })) } })), 'ValidationException', 'Too many items requested for the BatchWriteItem call'],
    [db.send(new BatchGetCommand({ RequestItems: { T: { Keys: [{ pk: 'a', sk: 'b' }, { pk: 'a', sk: 'b' }] } } })), 'ValidationException', 'Provided list of item keys contains duplicates'],
    [db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 'T', Item: { pk: 't', sk: '1' } } }, { Delete: { TableName: 'T', Key: { pk: 't', sk: '1' } } }] })), 'ValidationException', 'Transaction request cannot include multiple operations on one item'],
  ];
  for (const [request, name, message] of refusals) {
    const error = await t.throwsAsync(request);
    t.is(`${error?.name}: ${error?.message}`, `${name}: ${message}`);
  }
  t.deepEqual(db.items(), [], 'nothing was written');
});

test('a query reads sort keys in UTF-8 byte order, Limit before the filter, with LastEvaluatedKey', async (t) => {
  const db = open();
  for (const sk of ['b', 'a', '\u{1F600}', '\uFF5E', 'a#2', 'A']) await put(db, { pk: 'p', sk, keep: sk !== 'a' });
  const query = ({ ExpressionAttributeValues: values = {}, ...extra }: Partial<QueryCommandInput>): Promise<QueryCommandOutput> =>
    db.send(new QueryCommand({ TableName: 'T', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'p', ...values }, ...extra }));
  t.deepEqual((await query({})).Items!.map((i) => i.sk), ['A', 'a', 'a#2', 'b', '\uFF5E', '\u{1F600}']);
  const first = await query({ Limit: 2, FilterExpression: 'keep = :k', ExpressionAttributeValues: { ':k': true } });
  t.deepEqual([first.Items!.map((i) => i.sk), first.Count, first.ScannedCount, first.LastEvaluatedKey], [['A'], 1, 2, { pk: 'p', sk: 'a' }]);
  const second = await query({ Limit: 2, ScanIndexForward: false, ExclusiveStartKey: { pk: 'p', sk: 'b' } });
  t.deepEqual(second.Items!.map((i) => i.sk), ['a#2', 'a']);
  const range = await db.send(new QueryCommand({ TableName: 'T', KeyConditionExpression: 'pk = :p AND begins_with(sk, :a)', ExpressionAttributeValues: { ':p': 'p', ':a': 'a' } }));
  t.deepEqual(range.Items!.map((i) => i.sk), ['a', 'a#2']);
});

test('pages stop at 1 MB read', async (t) => {
  const db = open();
  for (let i = 0; i < 6; i++) await put(db, { pk: 'big', sk: String(i), data: 'x'.repeat(300 * 1024) });
  const page = await db.send(new QueryCommand({ TableName: 'T', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'big' }, ProjectionExpression: 'sk' }));
  t.deepEqual([page.Count, page.LastEvaluatedKey], [4, { pk: 'big', sk: '3' }]);
});

test('an index query pages by what it reads: the index entries of a keys-only LSI or an INCLUDE GSI, the table items an LSI query fetches', async (t) => {
  const db = open();
  // 13 items of 200 KB whose index entries are a few bytes
  for (let i = 0; i < 13; i++) await put(db, { pk: 'big', sk: String(i).padStart(2, '0'), g: 'G', gs: i, l: String(i).padStart(2, '0'), name: 'n', data: 'x'.repeat(200 * 1024) });
  const query = (input: Partial<QueryCommandInput>) => db.send(new QueryCommand({ TableName: 'T', ReturnConsumedCapacity: 'INDEXES', ...input } as QueryCommandInput));
  const local = { IndexName: 'byL', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'big' } };
  const global = { IndexName: 'byG', KeyConditionExpression: 'g = :g', ExpressionAttributeValues: { ':g': 'G' } };
  for (const [name, input] of [['keys-only LSI', local], ['INCLUDE GSI', global]] as const) {
    const page = await query(input);
    t.deepEqual([page.Count, page.LastEvaluatedKey, page.ConsumedCapacity?.CapacityUnits], [13, undefined, 0.5], `${name}: one page, half a unit`);
  }
  // fetching what the LSI does not project reads the table's items: 1 MB of them a page
  for (const input of [{ ...local, Select: 'ALL_ATTRIBUTES' as const }, { ...local, ProjectionExpression: 'sk, #d', ExpressionAttributeNames: { '#d': 'data' } }]) {
    const page = await query(input);
    t.deepEqual([page.Count, page.LastEvaluatedKey?.['sk']], [6, '05']);
    t.true(page.ConsumedCapacity!.CapacityUnits! >= 150);
  }
});

test('indexes: a sparse GSI with its projection, a keys-only LSI, and a GSI that lags until settled', async (t) => {
  const db = open({ now: 0, gsiLagMs: 1000 });
  await put(db, { pk: 'a', sk: '1', g: 'G', gs: 2, name: 'two', other: 'x', l: 'L1' });
  await put(db, { pk: 'b', sk: '1', g: 'G', gs: 10, name: 'ten' });
  await put(db, { pk: 'c', sk: '1', name: 'not in the index' });
  const byG = () => db.send(new QueryCommand({ TableName: 'T', IndexName: 'byG', KeyConditionExpression: 'g = :g AND gs > :low', ExpressionAttributeValues: { ':g': 'G', ':low': 1 } }));
  t.deepEqual((await byG()).Items, [], 'the index has not caught up yet');
  db.advanceTime(1000);
  t.deepEqual((await byG()).Items, [
    { pk: 'a', sk: '1', g: 'G', gs: 2, name: 'two' },
    { pk: 'b', sk: '1', g: 'G', gs: 10, name: 'ten' },
  ]);
  const byL = await db.send(new QueryCommand({ TableName: 'T', IndexName: 'byL', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'a' } }));
  t.deepEqual(byL.Items, [{ pk: 'a', sk: '1', l: 'L1' }]);
  await db.send(new UpdateCommand({ TableName: 'T', Key: { pk: 'a', sk: '1' }, UpdateExpression: 'REMOVE g' }));
  db.settleIndexes();
  t.deepEqual((await byG()).Items!.map((i) => i.pk), ['b']);
});

test('a transaction writes everything or nothing, naming each reason', async (t) => {
  const db = open();
  await put(db, { pk: 'a', sk: '1', n: 1 });
  const error = await t.throwsAsync(
    db.send(new TransactWriteCommand({ TransactItems: [
      { Put: { TableName: 'T', Item: { pk: 'new', sk: '1' } } },
      { ConditionCheck: { TableName: 'T', Key: { pk: 'a', sk: '1' }, ConditionExpression: 'n > :n', ExpressionAttributeValues: { ':n': 5 }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
    ] })),
    { instanceOf: TransactionCanceledException },
  );
  t.is(error.message, 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]');
  t.deepEqual(error.CancellationReasons, [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed.', Item: { pk: { S: 'a' }, sk: { S: '1' }, n: { N: '1' } } }]);
  t.deepEqual(db.items().map((i) => i.pk), ['a']);
  const write = new TransactWriteCommand({ ClientRequestToken: 'once', TransactItems: [{ Update: { TableName: 'T', Key: { pk: 'a', sk: '1' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } }] });
  await db.send(write);
  await db.send(write);
  t.deepEqual((await db.send(new TransactGetCommand({ TransactItems: [{ Get: { TableName: 'T', Key: { pk: 'a', sk: '1' } } }, { Get: { TableName: 'T', Key: { pk: 'x', sk: '1' } } }] }))).Responses, [{ Item: { pk: 'a', sk: '1', n: 2 } }, {}], 'the token made the retry a no-op');
});

test('scan segments split the table: each item in exactly one', async (t) => {
  const db = open();
  for (let i = 0; i < 40; i++) await put(db, { pk: `p${i}`, sk: '1' });
  const seen: string[] = [];
  for (let segment = 0; segment < 4; segment++) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new ScanCommand({ TableName: 'T', Segment: segment, TotalSegments: 4, Limit: 3, ...(start ? { ExclusiveStartKey: start } : {}) }));
      seen.push(...page.Items!.map((i) => i.pk as string));
      start = page.LastEvaluatedKey;
    } while (start);
  }
  t.deepEqual(seen.sort(), Array.from({ length: 40 }, (_, i) => `p${i}`).sort());
});

test('TTL: a sweep on the test clock deletes expired items and streams them as removals by the service', async (t) => {
  const db = open({ now: Date.UTC(2030, 0, 1) });
  const now = Date.UTC(2030, 0, 1) / 1000;
  await put(db, { pk: 'a', sk: '1', expires: now + 60 });
  await put(db, { pk: 'b', sk: '1', expires: now + 3600 });
  await put(db, { pk: 'c', sk: '1', expires: now - 6 * 365 * 86400 });
  db.takeStreamRecords();
  db.advanceTime(61_000);
  t.is(db.sweepExpired(), 1);
  t.deepEqual(db.items().map((i) => i.pk).sort(), ['b', 'c'], 'items expired more than five years ago are never deleted');
  const [removal, ...rest] = db.takeStreamRecords();
  t.deepEqual(rest, []);
  t.is(removal!.eventName, 'REMOVE');
  t.deepEqual(removal!.userIdentity, { PrincipalId: 'dynamodb.amazonaws.com', Type: 'Service' });
  t.deepEqual(removal!.dynamodb.Keys, { pk: { S: 'a' }, sk: { S: '1' } });
});

test('the stream: records in order with the view type; a write that changes nothing writes none', async (t) => {
  const db = open();
  await put(db, { pk: 'a', sk: '1', n: 1 });
  await put(db, { pk: 'a', sk: '1', n: 1 });
  await db.send(new UpdateCommand({ TableName: 'T', Key: { pk: 'a', sk: '1' }, UpdateExpression: 'SET n = :two', ExpressionAttributeValues: { ':two': 2 } }));
  await db.send(new DeleteCommand({ TableName: 'T', Key: { pk: 'a', sk: '1' } }));
  const records = db.streamRecords();
  t.deepEqual(records.map((r) => [r.eventName, r.dynamodb.SequenceNumber, r.dynamodb.OldImage?.n, r.dynamodb.NewImage?.n]), [
    ['INSERT', '000000000000000000001', undefined, { N: '1' }],
    ['MODIFY', '000000000000000000002', { N: '1' }, { N: '2' }],
    ['REMOVE', '000000000000000000003', { N: '2' }, undefined],
  ]);
});

test('faults: throttling with reasons (retried as the SDK retries), unprocessed batch items, conflicts, 5xx after the write', async (t) => {
  const db = open({ seed: 7 });
  db.injectFault({ fault: { kind: 'throttle' }, operations: ['PutItem'], times: 2 });
  await put(db, { pk: 'a', sk: '1' }); // two throttles, then the third attempt succeeds
  const remove = db.injectFault({ fault: { kind: 'throttle' }, operations: ['GetItem'] });
  const throttled = await t.throwsAsync(db.send(new GetCommand({ TableName: 'T', Key: { pk: 'a', sk: '1' } })), { instanceOf: ProvisionedThroughputExceededException });
  t.deepEqual(throttled.ThrottlingReasons, [{ reason: 'TableReadKeyRangeThroughputExceeded', resource: 'arn:aws:dynamodb:local:000000000000:table/T' }]);
  t.is(throttled.$metadata.attempts, 3);
  remove();

  db.injectFault({ fault: { kind: 'unprocessed', share: 0.5 }, operations: ['BatchWriteItem'], times: 1 });
  const batch = await db.send(new BatchWriteCommand({ RequestItems: { T: Array.from({ length: 4 }, (_, i) => ({ PutRequest: { Item: { pk: 'b', sk: String(i) } } })) } }));
  t.is(batch.UnprocessedItems!.T!.length, 2);
  t.is(db.items().filter((i) => i.pk === 'b').length, 2);

  db.injectFault({ fault: { kind: 'conflict' }, operations: ['TransactWriteItems'], times: 1 });
  const conflict = await t.throwsAsync(db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 'T', Item: { pk: 'c', sk: '1' } } }] })), { instanceOf: TransactionCanceledException });
  t.deepEqual(conflict.CancellationReasons, [{ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }]);

  db.injectFault({ fault: { kind: 'server-error', applied: true }, operations: ['PutItem'], times: 3 });
  const failed = await t.throwsAsync(put(db, { pk: 'd', sk: '1' }));
  t.is(failed?.name, 'InternalServerError');
  t.deepEqual((await db.send(new GetCommand({ TableName: 'T', Key: { pk: 'd', sk: '1' } }))).Item, { pk: 'd', sk: '1' }, 'the write happened: an ambiguous failure');
});

// serial: the held second is real time, which the other tests' work in this event loop could use up
test.serial('a transaction in flight (held by a latency fault) conflicts with writes to its items, not with others', async (t) => {
  const db = open();
  // the transaction holds its item from the moment it is sent until its answer, a second later (a wide window on a busy machine)
  db.injectFault({ fault: { kind: 'latency', ms: 1000 }, operations: ['TransactWriteItems'], times: 1 });
  const slow = db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 'T', Item: { pk: 'a', sk: '1', by: 'slow' } } }] }));
  const single = await t.throwsAsync(put(db, { pk: 'a', sk: '1', by: 'single' }), { name: 'TransactionConflictException' });
  t.is(single.message, 'Transaction is ongoing for the item');
  const other = await t.throwsAsync(db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 'T', Item: { pk: 'b', sk: '1' } } }, { Put: { TableName: 'T', Item: { pk: 'a', sk: '1', by: 'other' } } }] })), { instanceOf: TransactionCanceledException });
  t.deepEqual(other.CancellationReasons, [{ Code: 'None' }, { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }]);
  await put(db, { pk: 'c', sk: '1' });
  await slow;
  t.deepEqual(db.items().map((item) => `${item.pk}${item.by ? ` by ${item.by}` : ''}`).sort(), ['a by slow', 'c']);
  await put(db, { pk: 'a', sk: '1', by: 'after' });
});
