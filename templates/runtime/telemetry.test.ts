// The pure parts of telemetry.ts: key templates as the schema writes them, the operation a command
// sends (by class, or by shape where a bundler renamed the class), and ConsumedCapacity split by
// key space as ReturnConsumedCapacity INDEXES reports it. The operations themselves are tested on
// generated tables (test/telemetry*.test.ts, test/connected/telemetry*.test.ts).
import test from 'ava';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { segment, type KeyCodec } from './codec.js';
import { operationOf, splitCapacity } from './telemetry-command.js';
import { edgeKeySpace, templateText } from './telemetry-key-space.js';

const codec = (delimiter: string, segments: KeyCodec['def']['segments']): KeyCodec => ({ def: { entity: 'E', target: 'E.key.pk', delimiter, maxBytes: 2048, segments }, build: () => '', matches: () => true, parts: [] }) as unknown as KeyCodec;

test('templateText writes a key template as the schema does: literals, placeholders, buckets, shards, affixes', (t) => {
  t.is(templateText(codec('.', [segment.literal('User'), segment.string('id')])), 'User.<id>');
  t.is(templateText(codec('#', [segment.literal('Site'), segment.string('site'), segment.bucket('at', 'hour')])), 'Site#<site>#<at:hour>');
  t.is(templateText(codec('#', [segment.literal('Vote'), segment.string('candidateId'), segment.shard({ count: 10, by: [] })])), 'Vote#<candidateId>#<shard>');
  t.is(templateText(codec('#', [segment.affixed(segment.string('id'), 'user_')])), 'user_<id>');
  t.is(templateText(codec('#', [segment.timestamp('at', 'second')])), '<at>');
});

test('operationOf names the DynamoDB operation by the command class, and by the input where the class was renamed', (t) => {
  t.is(operationOf(new GetCommand({ TableName: 'T', Key: { pk: 'a' } })), 'GetItem');
  t.is(operationOf(new PutCommand({ TableName: 'T', Item: { pk: 'a' } })), 'PutItem');
  t.is(operationOf(new UpdateCommand({ TableName: 'T', Key: { pk: 'a' }, UpdateExpression: 'SET a = :a' })), 'UpdateItem');
  t.is(operationOf(new DeleteCommand({ TableName: 'T', Key: { pk: 'a' } })), 'DeleteItem');
  t.is(operationOf(new QueryCommand({ TableName: 'T', KeyConditionExpression: 'pk = :p' })), 'Query');
  t.is(operationOf(new ScanCommand({ TableName: 'T' })), 'Scan');
  t.is(operationOf(new BatchGetCommand({ RequestItems: { T: { Keys: [] } } })), 'BatchGetItem');
  t.is(operationOf(new BatchWriteCommand({ RequestItems: { T: [] } })), 'BatchWriteItem');
  t.is(operationOf(new TransactWriteCommand({ TransactItems: [] })), 'TransactWriteItems');
  // a minifier's names
  const renamed = (input: Record<string, unknown>) => ({ input, constructor: { name: 'e' } });
  t.is(operationOf(renamed({ KeyConditionExpression: 'x' })), 'Query');
  t.is(operationOf(renamed({ TotalSegments: 4, Segment: 0 })), 'Scan');
  t.is(operationOf(renamed({ TransactItems: [{ Put: {} }] })), 'TransactWriteItems');
  t.is(operationOf(renamed({ TransactItems: [{ Get: {} }] })), 'TransactGetItems');
  t.is(operationOf(renamed({ RequestItems: { T: [] } })), 'BatchWriteItem');
  t.is(operationOf(renamed({ RequestItems: { T: { Keys: [] } } })), 'BatchGetItem');
  t.is(operationOf(renamed({ Item: {} })), 'PutItem');
  t.is(operationOf(renamed({ UpdateExpression: 'SET a = :a' })), 'UpdateItem');
});

test('splitCapacity: the table\'s units and each index\'s, from INDEXES, TOTAL or a bare CapacityUnits', (t) => {
  // a write through two GSIs (INDEXES): the table's share and each index's
  t.deepEqual(splitCapacity({ TableName: 'T', CapacityUnits: 3, Table: { CapacityUnits: 1 }, GlobalSecondaryIndexes: { byName: { CapacityUnits: 1 }, featured: { CapacityUnits: 1 } } }, 'PutItem'), [
    { read: 0, write: 1 },
    { index: 'byName', read: 0, write: 1 },
    { index: 'featured', read: 0, write: 1 },
  ]);
  // a query of a GSI: its units are the index's
  t.deepEqual(splitCapacity({ TableName: 'T', CapacityUnits: 0.5, GlobalSecondaryIndexes: { byName: { CapacityUnits: 0.5 } } }, 'Query'), [
    { read: 0, write: 0 },
    { index: 'byName', read: 0.5, write: 0 },
  ]);
  // TOTAL: one figure, by the operation's kind
  t.deepEqual(splitCapacity({ TableName: 'T', CapacityUnits: 2 }, 'GetItem'), [{ read: 2, write: 0 }]);
  t.deepEqual(splitCapacity({ TableName: 'T', CapacityUnits: 2 }, 'TransactWriteItems'), [{ read: 0, write: 2 }]);
  // read and write units reported apart (a transaction that checks and writes)
  t.deepEqual(splitCapacity({ TableName: 'T', ReadCapacityUnits: 2, WriteCapacityUnits: 4, Table: { ReadCapacityUnits: 2, WriteCapacityUnits: 4 } }, 'TransactWriteItems'), [{ read: 2, write: 4 }]);
  // LSIs count as indexes too
  t.deepEqual(splitCapacity({ CapacityUnits: 2, Table: { CapacityUnits: 1 }, LocalSecondaryIndexes: { byTitle: { CapacityUnits: 1 } } }, 'PutItem'), [
    { read: 0, write: 1 },
    { index: 'byTitle', read: 0, write: 1 },
  ]);
});

test('edgeKeySpace: each side\'s sort-key template, or the inverse index\'s attributes', (t) => {
  const fan = { name: 'Fan', nodes: {}, forward: 'FAN_OF', inverse: 'FANNED_BY', delimiter: '.' };
  t.is(edgeKeySpace(fan, 'forward'), '<node> / FAN_OF.<toType>.<toId>');
  t.is(edgeKeySpace(fan, 'inverse'), '<node> / FANNED_BY.<fromType>.<fromId>');
  t.is(edgeKeySpace({ ...fan, inverseIndex: { name: 'followers', pk: 'gsi3pk', sk: 'gsi3sk' } }, 'inverse'), 'gsi3pk / gsi3sk');
});
