// ddbgen local held to DynamoDB's documented behaviour, one request at a time, in this project's own
// cases: the order in which DynamoDB checks a request (all constraint violations together, then
// the parameters a request needs, then whether its tables exist, then keys and expressions), its
// limits (item and key sizes, batch and transaction sizes), the legacy parameters (and mixing them
// with expressions), the control plane's answers and the Streams API's. Each case: a request
// through the real low-level client over HTTP, and the exact error name and message, or the answer.
import test from 'ava';
import { DynamoDBClient, CreateTableCommand, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import * as dynamodb from '@aws-sdk/client-dynamodb';
import * as streams from '@aws-sdk/client-dynamodb-streams';
import { startLocal, type LocalServer } from '../../generator/local/local-server.js';

let server: LocalServer;
let client: DynamoDBClient;
let streamsClient: streams.DynamoDBStreamsClient;
const config = () => ({ endpoint: server.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'any', secretAccessKey: 'any' }, maxAttempts: 1 });

const T = 'Conformance';
const definition: CreateTableCommandInput = {
  TableName: T,
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  BillingMode: 'PAY_PER_REQUEST',
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
};

test.before(async () => {
  server = await startLocal({ port: 0 });
  client = new DynamoDBClient(config());
  streamsClient = new streams.DynamoDBStreamsClient(config());
  await client.send(new CreateTableCommand(definition));
  await client.send(new dynamodb.PutItemCommand({ TableName: T, Item: { pk: { S: 'p' }, sk: { S: '1' }, n: { N: '1' } } }));
});
test.after.always(async () => {
  client.destroy();
  streamsClient.destroy();
  await server.stop();
});

const key = { pk: { S: 'p' }, sk: { S: '1' } };
const S = (n: number) => ({ S: 'x'.repeat(n) });

type Case = readonly [given: string, command: () => object, want: readonly [name: string, message: string | RegExp]];
const cases: Case[] = [
  // validation order: every constraint broken, together, before the table is looked up
  ['a bad table name and a bad enum, together', () => new dynamodb.GetItemCommand({ TableName: 'a!', Key: key, ReturnConsumedCapacity: 'ALL' as never }), ['ValidationException', "2 validation errors detected: Value 'a!' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; Value 'ALL' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"]],
  ['a constraint broken on a table that does not exist: the constraint first', () => new dynamodb.ScanCommand({ TableName: 'Nowhere', Limit: 0 }), ['ValidationException', "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"]],
  ['a missing table before a key that does not fit it', () => new dynamodb.GetItemCommand({ TableName: 'Nowhere', Key: { nope: { S: 'x' } } }), ['ResourceNotFoundException', 'Requested resource not found']],
  ['a key that does not fit the table', () => new dynamodb.GetItemCommand({ TableName: T, Key: { pk: { S: 'p' } } }), ['ValidationException', 'The provided key element does not match the schema']],
  ['a key of the wrong type', () => new dynamodb.GetItemCommand({ TableName: T, Key: { pk: { S: 'p' }, sk: { N: '1' } } }), ['ValidationException', 'The provided key element does not match the schema']],
  ['Segment without TotalSegments', () => new dynamodb.ScanCommand({ TableName: T, Segment: 0 }), ['ValidationException', 'The TotalSegments parameter is required but was not present in the request when Segment parameter is present']],
  ['SPECIFIC_ATTRIBUTES without a projection', () => new dynamodb.QueryCommand({ TableName: T, Select: 'SPECIFIC_ATTRIBUTES', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: 'p' } } }), ['ValidationException', 'One or more parameter values were invalid: Select type SPECIFIC_ATTRIBUTES requires either AttributesToGet or ProjectionExpression']],
  ['a batch write with no tables', () => new dynamodb.BatchWriteItemCommand({ RequestItems: {} }), ['ValidationException', 'The requestItems parameter is required for BatchWriteItem']],
  ['an empty transaction', () => new dynamodb.TransactWriteItemsCommand({ TransactItems: [] }), ['ValidationException', "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1"]],
  // limits
  ['an item over 400 KB', () => new dynamodb.PutItemCommand({ TableName: T, Item: { ...key, big: S(400 * 1024) } }), ['ValidationException', 'Item size has exceeded the maximum allowed size']],
  ['a partition key over 2048 bytes', () => new dynamodb.PutItemCommand({ TableName: T, Item: { pk: S(2049), sk: { S: '1' } } }), ['ValidationException', 'One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes']],
  ['a sort key over 1024 bytes', () => new dynamodb.PutItemCommand({ TableName: T, Item: { pk: { S: 'p' }, sk: S(1025) } }), ['ValidationException', 'One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes']],
  ['an empty string key', () => new dynamodb.PutItemCommand({ TableName: T, Item: { pk: { S: '' }, sk: { S: '1' } } }), ['ValidationException', 'One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk']],
  ['26 writes in a batch', () => new dynamodb.BatchWriteItemCommand({ RequestItems: { [T]: Array.from({ length: 26 }, (_, i) => ({ PutRequest: { Item: { pk: { S: 'b' }, sk: { S: String(i) } } } })) } }), ['ValidationException', /^1 validation error detected: Value '.*' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: \[Member must have length less than or equal to 25, Member must have length greater than or equal to 1\]$/s]],
  ['101 keys in a batch get', () => new dynamodb.BatchGetItemCommand({ RequestItems: { [T]: { Keys: Array.from({ length: 101 }, (_, i) => ({ pk: { S: 'b' }, sk: { S: String(i) } })) } } }), ['ValidationException', `1 validation error detected: Value at 'RequestItems.${T}.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100`]],
  ['one item twice in a batch', () => new dynamodb.BatchWriteItemCommand({ RequestItems: { [T]: [{ PutRequest: { Item: key } }, { DeleteRequest: { Key: key } }] } }), ['ValidationException', 'Provided list of item keys contains duplicates']],
  ['one item twice in a transaction', () => new dynamodb.TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: T, Item: key } }, { Delete: { TableName: T, Key: key } }] }), ['ValidationException', 'Transaction request cannot include multiple operations on one item']],
  ['a number of 39 significant digits', () => new dynamodb.PutItemCommand({ TableName: T, Item: { ...key, n: { N: '1'.repeat(39) } } }), ['ValidationException', 'Attempting to store more than 38 significant digits in a Number']],
  ['a number past 10^125', () => new dynamodb.PutItemCommand({ TableName: T, Item: { ...key, n: { N: '1E+126' } } }), ['ValidationException', 'Number overflow. Attempting to store a number with magnitude larger than supported range']],
  // expressions
  ['a value placeholder never used', () => new dynamodb.QueryCommand({ TableName: T, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: 'p' }, ':x': { S: 'x' } } }), ['ValidationException', 'Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}']],
  ['a reserved word named bare', () => new dynamodb.GetItemCommand({ TableName: T, Key: key, ProjectionExpression: 'name' }), ['ValidationException', 'Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name']],
  ['an update that changes a key', () => new dynamodb.UpdateItemCommand({ TableName: T, Key: key, UpdateExpression: 'SET sk = :s', ExpressionAttributeValues: { ':s': { S: '2' } } }), ['ValidationException', 'One or more parameter values were invalid: Cannot update attribute sk. This attribute is part of the key']],
  ['a failed condition', () => new dynamodb.PutItemCommand({ TableName: T, Item: key, ConditionExpression: 'attribute_not_exists(pk)' }), ['ConditionalCheckFailedException', 'The conditional request failed']],
  // legacy parameters
  ['AttributesToGet beside a ProjectionExpression', () => new dynamodb.GetItemCommand({ TableName: T, Key: key, AttributesToGet: ['n'], ProjectionExpression: 'n' }), ['ValidationException', 'Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}']],
  ['Expected beside a ConditionExpression', () => new dynamodb.PutItemCommand({ TableName: T, Item: key, Expected: { n: { Exists: false } }, ConditionExpression: 'attribute_exists(pk)' }), ['ValidationException', 'Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}']],
  // the control plane
  ['describing a table that does not exist', () => new dynamodb.DescribeTableCommand({ TableName: 'Nowhere' }), ['ResourceNotFoundException', 'Requested resource not found: Table: Nowhere not found']],
  ['creating a table that exists', () => new dynamodb.CreateTableCommand(definition), ['ResourceInUseException', `Table already exists: ${T}`]],
  ['deleting a table that does not exist', () => new dynamodb.DeleteTableCommand({ TableName: 'Nowhere' }), ['ResourceNotFoundException', 'Requested resource not found: Table: Nowhere not found']],
  ['an operation DynamoDB does not have', () => new dynamodb.ListBackupsCommand({}), ['UnknownOperationException', /./]],
  // the Streams API
  ['a shard iterator for a stream that does not exist', () => new streams.GetShardIteratorCommand({ StreamArn: `arn:aws:dynamodb:us-east-1:000000000000:table/Nowhere/stream/2026-01-01T00:00:00.000`, ShardId: 'shardId-1', ShardIteratorType: 'TRIM_HORIZON' }), ['ResourceNotFoundException', /Requested resource not found/]],
];

for (const [given, command, [name, message]] of cases) {
  test(given, async (t) => {
    const sent = command() as { constructor: { name: string } };
    const error = await t.throwsAsync(sent.constructor.name === 'GetShardIteratorCommand' ? streamsClient.send(sent as never) : client.send(sent as never));
    t.is(error?.name, name);
    if (typeof message === 'string') t.is(error?.message, message);
    else t.regex(error?.message ?? '', message);
  });
}

test('a stream read from the start: every change to the table, oldest first, with both images', async (t) => {
  const arn = (await client.send(new dynamodb.DescribeTableCommand({ TableName: T }))).Table!.LatestStreamArn!;
  t.regex(arn, new RegExp(`^arn:aws:dynamodb:local:\\d{12}:table/${T}/stream/`));
  const shard = (await streamsClient.send(new streams.DescribeStreamCommand({ StreamArn: arn }))).StreamDescription!.Shards![0]!;
  const iterator = (await streamsClient.send(new streams.GetShardIteratorCommand({ StreamArn: arn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator!;
  const records = (await streamsClient.send(new streams.GetRecordsCommand({ ShardIterator: iterator }))).Records ?? [];
  t.true(records.length >= 1);
  t.like(records[0], { eventName: 'INSERT', eventSource: 'aws:dynamodb', dynamodb: { Keys: key, NewImage: { ...key, n: { N: '1' } }, StreamViewType: 'NEW_AND_OLD_IMAGES' } });
});
