// The Fan edge of fixtures/social.ts on the generated in-memory table — both halves or neither,
// type filters as key prefixes, delimiter-safe ids, prefix safety, pagination, bulk writes.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { SocialTable, TransactionError } from '../../out/social/index.js';
import { memorySocialTests } from '../support/social-tests.js';

const { test, tables } = memorySocialTests();

const since = new Date('2024-02-03T04:05:06.007Z');
const user = (id: string) => ({ type: 'User' as const, id });
const actor = (id: string) => ({ type: 'Actor' as const, id });
const series = (id: string) => ({ type: 'Series' as const, id });

test('add writes both halves; outgoing and incoming read them with type filters', async (t) => {
  const { db, tableName } = t.context;
  t.deepEqual(await db.fan.add(user('1'), actor('a.b'), { since }), { created: true });
  await db.fan.add(user('1'), actor('z'), { since });
  await db.fan.add(user('1'), series('s1'), { since });
  await db.fan.add(user('2'), actor('a.b'), { since });
  const items = (await tables().documents.send(new ScanCommand({ TableName: tableName }))).Items!;
  t.is(items.length, 8, 'two items per relationship');
  t.true(items.some((i) => i['pk'] === 'User.1' && i['sk'] === 'FAN_OF.Actor.a\\.b'));
  t.true(items.some((i) => i['pk'] === 'Actor.a\\.b' && i['sk'] === 'FANNED_BY.User.1'));
  t.deepEqual((await db.fan.outgoing(user('1'), { type: 'Actor' })).items, [{ type: 'Actor', id: 'a.b', since }, { type: 'Actor', id: 'z', since }]);
  t.deepEqual((await db.fan.outgoing(user('1'))).items.map((l) => `${l.type}:${l.id}`), ['Actor:a.b', 'Actor:z', 'Series:s1']);
  t.deepEqual((await db.fan.incoming(actor('a.b'))).items.map((l) => l.id), ['1', '2']);
  t.deepEqual(await db.fan.get(user('1'), actor('a.b')), { since });
  t.true(await db.fan.exists(user('2'), actor('a.b')));
  t.false(await db.fan.exists(user('2'), actor('z')));
  t.is(await db.fan.count('outgoing', user('1')), 3);
  t.is(await db.fan.count('outgoing', user('1'), { type: 'Series' }), 1);
});

test('prefix safety: User.1 never sees User.12, and Actor a never sees Actor a.b', async (t) => {
  const { db } = t.context;
  await db.fan.add(user('12'), actor('x'), { since });
  await db.fan.add(user('1'), actor('a'), { since });
  await db.fan.add(user('1'), actor('a.b'), { since });
  t.deepEqual((await db.fan.outgoing(user('1'))).items.map((l) => l.id), ['a', 'a.b']);
  t.deepEqual((await db.fan.incoming(actor('a'))).items.map((l) => l.id), ['1']);
  t.deepEqual((await db.fan.incoming(actor('x'))).items.map((l) => l.id), ['12']);
});

test('re-adding is a no-op unless asked to fail; remove takes both halves; a self-edge works', async (t) => {
  const { db, tableName } = t.context;
  await db.fan.add(user('1'), actor('a'), { since });
  t.deepEqual(await db.fan.add(user('1'), actor('a'), { since: new Date(0) }), { created: false });
  t.deepEqual(await db.fan.get(user('1'), actor('a')), { since }, 'the existing edge is kept');
  const error = await t.throwsAsync(db.fan.add(user('1'), actor('a'), { since }, { failIfExists: true }), { instanceOf: TransactionError });
  t.deepEqual(error.failures.map((f) => `${f.entity}: ${f.reason}`), ['Fan (forward): ConditionalCheckFailed', 'Fan (inverse): ConditionalCheckFailed']);
  await db.fan.remove(user('1'), actor('a'));
  t.is((await tables().documents.send(new ScanCommand({ TableName: tableName }))).Items!.length, 0);
  await db.fan.remove(user('1'), actor('a'));
  await db.fan.add(user('me'), user('me'), { since });
  t.deepEqual((await db.fan.outgoing(user('me'))).items.map((l) => l.id), ['me']);
  t.deepEqual((await db.fan.incoming(user('me'))).items.map((l) => l.id), ['me']);
});

test('pagination over many links, and bulk add/remove in transactions of up to 100 items', async (t) => {
  const { db } = t.context;
  const pairs = Array.from({ length: 130 }, (_, i) => ({ from: user('fan'), to: actor(`a${String(i).padStart(3, '0')}`), attributes: { since } }));
  t.deepEqual(await db.fan.addMany(pairs), { done: 130, unchanged: 0, failed: [] });
  const again = await db.fan.addMany([...pairs.slice(0, 3), { from: user('fan'), to: series('new'), attributes: { since } }]);
  t.deepEqual(again, { done: 1, unchanged: 3, failed: [] }, 'a transaction with existing edges falls back to pair by pair');
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await db.fan.outgoing(user('fan'), { type: 'Actor', limit: 40, ...(cursor ? { cursor } : {}) });
    seen.push(...page.items.map((l) => l.id));
    cursor = page.cursor;
  } while (cursor);
  t.deepEqual(seen, pairs.map((p) => p.to.id));
  t.is(await db.fan.count('incoming', actor('a042')), 1);
  t.deepEqual(await db.fan.removeMany(pairs), { done: 130, unchanged: 0, failed: [] });
  t.deepEqual((await db.fan.outgoing(user('fan'))).items.map((l) => l.id), ['new']);
});

test('edge items share the user\'s partition without disturbing user queries', async (t) => {
  const { db } = t.context;
  await db.user.put({ id: '1', email: 'e', status: 'ACTIVE', joinedAt: since });
  await db.article.put({ userId: '1', articleId: 'x', name: 'n', updatedAt: since, views: 0 });
  await db.fan.add(user('1'), actor('a'), { since });
  t.deepEqual((await db.article.query({ userId: '1' })).items.map((a) => a.articleId), ['x']);
  const collection = await db.userCollection({ id: '1' });
  t.deepEqual(collection.items.map((i) => i.type), ['Article', undefined, 'User']);
});

test('an edge with its inverse in a GSI: one item per follow, incoming read from the index', async (t) => {
  const { db, tableName } = t.context;
  t.deepEqual(await db.follow.add(user('a'), user('b')), { created: true });
  t.deepEqual(await db.follow.add(user('a'), user('b')), { created: false });
  await db.follow.add(user('c'), user('b'));
  await db.follow.add(user('b'), user('b'));
  const items = (await tables().documents.send(new ScanCommand({ TableName: tableName }))).Items!;
  t.is(items.length, 3, 'one item per relationship');
  t.like(items.find((i) => i['pk'] === 'User.a'), { sk: 'FOLLOWS.User.b', gsi3pk: 'User.b', gsi3sk: 'FOLLOWED_BY.User.a' });
  t.deepEqual((await db.follow.outgoing(user('a'))).items.map((l) => l.id), ['b']);
  t.deepEqual((await db.follow.incoming(user('b'))).items.map((l) => l.id), ['a', 'b', 'c']);
  t.is(await db.follow.count('incoming', user('b')), 3);
  await t.throwsAsync(db.follow.incoming(user('b'), { consistent: true }), { message: /no consistent reads/ });
  await db.follow.remove(user('a'), user('b'));
  t.deepEqual((await db.follow.incoming(user('b'))).items.map((l) => l.id), ['b', 'c']);
});
