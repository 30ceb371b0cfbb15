// `npx tsx examples/fans-stream.ts` (after npm run build && npm run generate): the Fans table's
// stream on an embedded DynamoDB Local. It makes one insert, one modify, one edge add and one
// removal, reads the table's real stream (DescribeStream / GetShardIterator / GetRecords), marks the
// removal as Time to Live writes it (userIdentity Service dynamodb.amazonaws.com: DynamoDB Local
// does not expire items promptly), prints each record decoded by decodeFansStreamRecord, then runs
// the Streams guide's handler over the records.

import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record } from '@aws-sdk/client-dynamodb-streams';
import { FansTable, decodeFansStreamRecord, fansTableDefinition } from '../out/fans/index.js';
import { startDynamoDbLocal } from '../test/support/dynamodb-local.js';
import { handler } from './fans-stream-handler.js';

const local = await startDynamoDbLocal();
try {
  await local.createTable(fansTableDefinition('Fans'));
  const db = new FansTable(local.documents, { tableName: 'Fans' });
  await db.user.put({ id: 1, name: 'Ada' });
  await db.user.update({ id: 1 }, { set: { name: 'Ada Lovelace' } });
  await db.actor.put({ id: 2, name: 'Lee Min-ho' });
  await db.fan.add({ type: 'User', id: 1 }, { type: 'Actor', id: 2 }, { since: new Date('2013-07-11T00:00:00.000Z') });
  await db.actor.delete({ id: 2 });

  const arn = (await local.client.send(new DescribeTableCommand({ TableName: 'Fans' }))).Table!.LatestStreamArn!;
  const streams = new DynamoDBStreamsClient({ endpoint: local.endpoint, region: 'local', credentials: { accessKeyId: 'ddbgen', secretAccessKey: 'local' } });
  const records: _Record[] = [];
  for (const shard of (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription!.Shards ?? []) {
    let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
    while (iterator) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
      records.push(...(page.Records ?? []));
      iterator = page.Records?.length ? page.NextShardIterator : undefined;
    }
  }
  streams.destroy();
  const last = records.length - 1;
  records[last] = { ...records[last]!, userIdentity: { Type: 'Service', PrincipalId: 'dynamodb.amazonaws.com' } };

  const json = (value: unknown) => JSON.stringify(value, (_, v) => (v instanceof Set ? [...v] : v));
  for (const record of records) {
    const { sequenceNumber, ...event } = decodeFansStreamRecord(record);
    console.log(`${record.eventName} ${json(record.dynamodb!.Keys)}${record.userIdentity ? ' by dynamodb.amazonaws.com (TTL)' : ''}\n  → ${json(event)}`);
  }
  console.log('\nThe Streams guide\'s handler over the same records:');
  console.log(json(await handler({ Records: records })));
} finally {
  await local.stop();
}
