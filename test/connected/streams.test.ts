// Connected: the Fans table's real stream on DynamoDB Local (created from the generated definition,
// StreamSpecification NEW_AND_OLD_IMAGES), read with DescribeStream / GetShardIterator / GetRecords
// and decoded by the generated decodeFansStreamRecord into typed events for every entity and the
// edge, a record of no entity, and a TTL removal (a real REMOVE record with the service identity
// DynamoDB puts on TTL deletions, as DynamoDB Local does not expire items promptly); then the same
// records through handleFansStream, whose first failing record is what Lambda retries from.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record } from '@aws-sdk/client-dynamodb-streams';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { FansTable, StreamRecordError, decodeFansStreamRecord, fansTableDefinition, handleFansStream, type FansStreamEvent, type FansStreamHandlers } from '../../out/fans/index.js';
import { tableTests } from '../support/social-tests.js';

const root = path.resolve(import.meta.dirname, '../..');
const { test, local } = tableTests('fans', fansTableDefinition, (client, tableName) => new FansTable(client, { tableName }));

/** Every record the table's stream holds so far, in order, read as a consumer reads them. */
async function readStream(tableName: string, expected: number): Promise<_Record[]> {
  const table = await local().client.send(new DescribeTableCommand({ TableName: tableName }));
  const streams = new DynamoDBStreamsClient({ endpoint: local().endpoint, region: 'local', credentials: { accessKeyId: 'ddbgen', secretAccessKey: 'local' }, maxAttempts: 1 });
  try {
    const records: _Record[] = [];
    const deadline = Date.now() + 30_000;
    while (records.length < expected && Date.now() < deadline) {
      records.length = 0;
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: table.Table!.LatestStreamArn! }));
      for (const shard of StreamDescription!.Shards ?? []) {
        let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: table.Table!.LatestStreamArn!, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
        while (iterator) {
          const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
          records.push(...(page.Records ?? []));
          if (!page.Records?.length) break; // an open shard always has a next iterator: stop at its end
          iterator = page.NextShardIterator;
        }
      }
    }
    return records;
  } finally {
    streams.destroy();
  }
}

const since = new Date('2013-07-11T00:00:00.000Z');
const ttlService = { PrincipalId: 'dynamodb.amazonaws.com', Type: 'Service' };

/** A decoded event without its sequence number (which DynamoDB assigns), for exact comparison. */
const plain = (event: FansStreamEvent) => {
  const { sequenceNumber, ...rest } = event;
  return typeof sequenceNumber === 'string' ? rest : { ...rest, sequenceNumber };
};

test('every entity and edge of the Fans table, decoded from its real stream into typed events', async (t) => {
  const { db, tableName } = t.context;
  await db.user.put({ id: 1, name: 'Ada' });
  await db.user.update({ id: 1 }, { set: { name: 'Ada L.' } });
  await db.actor.put({ id: 2, name: 'Lee Min-ho' });
  await db.series.put({ id: 5, title: 'Boys Over Flowers' });
  await db.fan.add({ type: 'User', id: 1 }, { type: 'Actor', id: 2 }, { since, note: 'since ep. 1' });
  await db.fan.remove({ type: 'User', id: 1 }, { type: 'Actor', id: 2 });
  await db.series.delete({ id: 5 });
  await local().documents.send(new PutCommand({ TableName: tableName, Item: { pk: 'Order.7', sk: 'TOTAL', total: 12.5 } }));
  await db.actor.delete({ id: 2 }); // the TTL removal below is this record, as TTL would have written it

  const records = await readStream(tableName, 11);
  t.is(records.length, 11);
  const ttlRecord = { ...records[10]!, userIdentity: ttlService };
  const events = [...records.slice(0, 10), ttlRecord].map(decodeFansStreamRecord);
  t.true(events.every((e) => typeof e.sequenceNumber === 'string'));
  const fanOf = { from: { type: 'User', id: 1 }, to: { type: 'Actor', id: 2 } } as const;
  t.deepEqual(events.map(plain), [
    { entity: 'User', event: 'insert', expired: false, key: { id: 1 }, newItem: { id: 1, name: 'Ada' } },
    { entity: 'User', event: 'modify', expired: false, key: { id: 1 }, newItem: { id: 1, name: 'Ada L.' }, oldItem: { id: 1, name: 'Ada' } },
    { entity: 'Actor', event: 'insert', expired: false, key: { id: 2 }, newItem: { id: 2, name: 'Lee Min-ho' } },
    { entity: 'Series', event: 'insert', expired: false, key: { id: 5 }, newItem: { id: 5, title: 'Boys Over Flowers' } },
    { entity: 'Fan', side: 'forward', event: 'insert', expired: false, key: fanOf, newItem: { since, note: 'since ep. 1' } },
    { entity: 'Fan', side: 'inverse', event: 'insert', expired: false, key: fanOf, newItem: { since, note: 'since ep. 1' } },
    { entity: 'Fan', side: 'forward', event: 'remove', expired: false, key: fanOf, oldItem: { since, note: 'since ep. 1' } },
    { entity: 'Fan', side: 'inverse', event: 'remove', expired: false, key: fanOf, oldItem: { since, note: 'since ep. 1' } },
    { entity: 'Series', event: 'remove', expired: false, key: { id: 5 }, oldItem: { id: 5, title: 'Boys Over Flowers' } },
    { entity: undefined, event: 'insert', expired: false, key: { pk: 'Order.7', sk: 'TOTAL' }, newItem: { pk: 'Order.7', sk: 'TOTAL', total: 12.5 } },
    { entity: 'Actor', event: 'remove', expired: true, key: { id: 2 }, oldItem: { id: 2, name: 'Lee Min-ho' } },
  ]);
  const transcript = [0, 1, 10, 4].map((i) => `${records[i]!.eventName}${i === 10 ? ' (userIdentity Service dynamodb.amazonaws.com)' : ''} ${JSON.stringify(records[i]!.dynamodb!.Keys)}\n  → ${JSON.stringify(plain(events[i]!))}`);
  t.log(`insert, modify, TTL removal and edge add, decoded:\n${transcript.join('\n')}`);

  // the table after the changes: what the stream says happened is what it holds
  t.deepEqual(await db.user.get({ id: 1 }), { id: 1, name: 'Ada L.' });
  t.is(await db.actor.get({ id: 2 }), undefined);
  t.is(await db.series.get({ id: 5 }), undefined);
  t.false(await db.fan.exists({ type: 'User', id: 1 }, { type: 'Actor', id: 2 }));
  t.deepEqual((await local().documents.send(new GetCommand({ TableName: tableName, Key: { pk: 'Order.7', sk: 'TOTAL' } }))).Item, { pk: 'Order.7', sk: 'TOTAL', total: 12.5 });
});

test('handleFansStream runs the handlers in record order; a failing one is reported for Lambda to retry from', async (t) => {
  const { db, tableName } = t.context;
  await db.user.put({ id: 1, name: 'Ada' });
  await db.fan.add({ type: 'User', id: 1 }, { type: 'User', id: 2 }, { since });
  await db.series.put({ id: 5, title: 'Boys Over Flowers' });
  await db.user.delete({ id: 1 });
  const records = await readStream(tableName, 5);
  const seen: string[] = [];
  const failures: unknown[] = [];
  const handlers: FansStreamHandlers = {
    User: {
      insert: (change) => void seen.push(`welcome ${change.newItem.name}`),
      modify: 'ignore',
      remove: (change) => void seen.push(`goodbye ${change.oldItem.name}${change.expired ? ' (expired)' : ''}`),
    },
    Actor: 'ignore',
    Series: () => {
      throw new Error('the search index is down');
    },
    Fan: (change) => void (change.side === 'forward' && seen.push(`${change.key.from.type} ${String(change.key.from.id)} fan of ${change.key.to.type} ${String(change.key.to.id)}`)),
    unknown: 'ignore',
  };
  const handler = handleFansStream(handlers, { onError: (error) => failures.push(error) });
  const result = await handler({ Records: records });
  t.deepEqual(seen, ['welcome Ada', 'User 1 fan of User 2'], 'records after the failing one are not run now: Lambda retries from it');
  t.deepEqual(result, { batchItemFailures: [{ itemIdentifier: records[3]!.dynamodb!.SequenceNumber! }] });
  t.is((failures[0] as Error).message, 'the search index is down');

  seen.length = 0;
  const retried = await handleFansStream({ ...handlers, Series: 'ignore' })({ Records: records.slice(3) });
  t.deepEqual(retried, { batchItemFailures: [] });
  t.deepEqual(seen, ['goodbye Ada']);

  // a record that does not carry what the schema's view type promises names itself and the reason
  const modify = { ...records[0]!, eventName: 'MODIFY' as const };
  const error = t.throws(() => decodeFansStreamRecord(modify), { instanceOf: StreamRecordError });
  t.regex(error!.message, /^Fans stream record \d+ \(User \{ id: 1 \}\) cannot be decoded: it has no OldImage, which a NEW_AND_OLD_IMAGES stream carries on MODIFY/);
  t.is(await db.user.get({ id: 1 }), undefined, 'the table holds what the stream said: the user was removed');
});

test("the guide's handler (examples/fans-stream-handler.ts, shown verbatim in docs/guide/streams.md) on the real stream", async (t) => {
  const guide = readFileSync(path.join(root, 'docs/guide/streams.md'), 'utf8');
  const example = readFileSync(path.join(root, 'examples/fans-stream-handler.ts'), 'utf8');
  const code = example.slice(example.indexOf('import { handleFansStream }')).replace("'../out/fans/index.js'", "'./out/fans/index.js'");
  t.true(guide.includes(code), 'the guide shows the handler the test runs');

  const { db, tableName } = t.context;
  await db.user.put({ id: 1, name: 'Ada' });
  await db.user.update({ id: 1 }, { set: { name: 'Ada Lovelace' } });
  await db.actor.put({ id: 2, name: 'Lee Min-ho' });
  await db.fan.add({ type: 'User', id: 1 }, { type: 'Actor', id: 2 }, { since });
  await db.actor.delete({ id: 2 });
  const records = await readStream(tableName, 6);
  records[5] = { ...records[5]!, userIdentity: ttlService };
  const { handler } = await import('../../examples/fans-stream-handler.js');
  const printed: string[] = [];
  const log = console.log;
  console.log = (line: string) => void printed.push(line);
  try {
    t.deepEqual(await handler({ Records: records }), { batchItemFailures: [] });
  } finally {
    console.log = log;
  }
  t.deepEqual(printed, ['welcome Ada', 'Ada is now Ada Lovelace', 'User 1 is a fan of Actor 2', 'actor 2 expired']);
  t.deepEqual(await db.user.get({ id: 1 }), { id: 1, name: 'Ada Lovelace' });
  t.is(await db.actor.get({ id: 2 }), undefined);
});
