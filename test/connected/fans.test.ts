// Seed 002's fan graph (fixtures/fans.ts) on the generated in-memory table — the article's raw layout
// (a user's profile and FAN_OF items in one partition, FANNED_BY in the other node's), integer ids
// stored as themselves and read back as numbers in numeric order, bad ids refused before any
// request, and a key written by codec v1 read back as a KeyParseError naming the version.
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ActorKeys, FansTable, KeyParseError, KeyValueError, UserKeys, ValidationError, fansTableDefinition } from '../../out/fans/index.js';
import { memoryTableTests } from '../support/social-tests.js';

const { test, tables } = memoryTableTests('fans', fansTableDefinition, (client, tableName) => new FansTable(client, { tableName }));

const since = new Date('2013-07-11T00:00:00.000Z');
const user = (id: number) => ({ type: 'User' as const, id });
const actor = (id: number) => ({ type: 'Actor' as const, id });
const series = (id: number) => ({ type: 'Series' as const, id });

/** Every stored item of one partition, as [sk, other attributes]. */
async function partition(tableName: string, pk: string) {
  const result = await tables().documents.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }));
  return result.Items!.map(({ pk: _pk, ...rest }) => rest);
}

test("seed 002's layout: a user's profile and FAN_OF items share its partition; FANNED_BY lives in the other node's", async (t) => {
  const { db, tableName } = t.context;
  await db.user.put({ id: 1, name: 'Ada' });
  await db.actor.put({ id: 2, name: 'Lee Min-ho' });
  await db.series.put({ id: 5, title: 'Boys Over Flowers' });
  for (const to of [user(12), actor(2), user(2), series(5), user(7)]) await db.fan.add(user(1), to, { since });

  t.is(UserKeys.key({ id: 1 }).pk, 'User.0000000001', "the node key is the entity's own partition key");
  const raw = await partition(tableName, UserKeys.key({ id: 1 }).pk);
  t.log(`pk User.0000000001:\n${raw.map((item) => JSON.stringify(item)).join('\n')}`);
  t.deepEqual(raw, [
    { sk: 'FAN_OF.Actor.0000000002', since: since.toISOString() },
    { sk: 'FAN_OF.Series.0000000005', since: since.toISOString() },
    { sk: 'FAN_OF.User.0000000002', since: since.toISOString() },
    { sk: 'FAN_OF.User.0000000007', since: since.toISOString() },
    { sk: 'FAN_OF.User.0000000012', since: since.toISOString() },
    { sk: 'PROFILE', id: 1, name: 'Ada' },
  ]);
  t.deepEqual(await partition(tableName, ActorKeys.key({ id: 2 }).pk), [
    { sk: 'FANNED_BY.User.0000000001', since: since.toISOString() },
    { sk: 'PROFILE', id: 2, name: 'Lee Min-ho' },
  ]);
  t.deepEqual(
    (await db.fan.outgoing(user(1), { type: 'User' })).items,
    [2, 7, 12].map((id) => ({ type: 'User', id, since })),
    'numeric ids come back as numbers, in numeric order (not 12, 2, 7)',
  );
  t.deepEqual((await db.fan.incoming(actor(2))).items, [{ type: 'User', id: 1, since }]);
  t.deepEqual((await db.fan.incoming(user(12))).items.map((l) => l.id), [1]);
  t.deepEqual(await db.user.get({ id: 1 }), { id: 1, name: 'Ada' }, 'the edges do not disturb the profile');
  t.is(await db.fan.count('outgoing', user(1)), 5);
});

test('optional attributes, a type filter that is a key prefix, and remove taking both halves', async (t) => {
  const { db, tableName } = t.context;
  await db.fan.add(user(1), series(5), { since, note: 'binge' });
  await db.fan.add(user(10), series(5), { since });
  t.deepEqual((await db.fan.incoming(series(5), { type: 'User' })).items, [{ type: 'User', id: 1, since, note: 'binge' }, { type: 'User', id: 10, since }]);
  t.deepEqual((await db.fan.outgoing(user(1), { type: 'Actor' })).items, []);
  await db.fan.remove(user(1), series(5));
  t.deepEqual(await partition(tableName, UserKeys.key({ id: 1 }).pk), []);
  t.deepEqual((await db.fan.incoming(series(5))).items.map((l) => l.id), [10]);
});

test('bad ids are typed errors before any request', async (t) => {
  const { db, tableName } = t.context;
  const range = await t.throwsAsync(db.fan.add(user(0), actor(2), { since }), { instanceOf: KeyValueError });
  t.is(range.message, 'User.key.pk: "id" is 0, outside its declared range 1..1000000000');
  const type = await t.throwsAsync(db.fan.add(user('1' as never), actor(2), { since }), { instanceOf: KeyValueError });
  t.is(type.code, 'KEY_PART_TYPE');
  const node = await t.throwsAsync(db.fan.outgoing({ type: 'Movie', id: 1 } as never), { instanceOf: ValidationError });
  t.is(node.message, 'Fan.type: "Movie" is not a node type of this edge (User, Actor, Series)');
  t.deepEqual(await partition(tableName, 'User.0000000000'), []);
});

test('a link written by codec v1 (id as an offset from min) is read back as a KeyParseError naming v1', async (t) => {
  const { db, tableName } = t.context;
  await db.fan.add(user(1), user(2), { since });
  // What the v1 codec wrote for "user 1 is a fan of user 7": 7 - 1 in nine digits.
  await tables().documents.send(new PutCommand({ TableName: tableName, Item: { pk: 'User.0000000001', sk: 'FAN_OF.User.000000006', since: since.toISOString() } }));
  const error = await t.throwsAsync(db.fan.outgoing(user(1)), { instanceOf: KeyParseError });
  t.is(error.codecVersion, 1);
  t.regex(error.message, /^Fan\.forward: cannot parse "FAN_OF\.User\.000000006": segment 3 \("000000006"\) is an integer written by key codec v1/);
});
