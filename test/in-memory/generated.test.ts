// The generated create<Table>InMemory of the fixtures: the table as the schema declares it, with no
// configuration — its stream for the generated handler, its Time to Live for the test clock, its
// name as the table class is given it.
import test from 'ava';
import { createFansInMemory } from '../../out/fans/in-memory.js';
import { FansTable, handleFansStream } from '../../out/fans/index.js';
import { createSessionsInMemory } from '../../out/sessions/in-memory.js';
import { SessionsTable } from '../../out/sessions/index.js';
import { createSocialInMemory } from '../../out/social/in-memory.js';
import { SocialTable } from '../../out/social/index.js';

test("createFansInMemory has the Fans stream: handleFansStream runs over its records in order", async (t) => {
  const memory = createFansInMemory();
  const db = new FansTable(memory);
  await db.user.put({ id: 1, name: 'Ada' });
  await db.user.update({ id: 1 }, { set: { name: 'Ada L.' } });
  await db.fan.add({ type: 'User', id: 1 }, { type: 'Actor', id: 2 }, { since: new Date('2013-07-11T00:00:00Z') });
  await db.user.delete({ id: 1 });
  const seen: string[] = [];
  const handler = handleFansStream({
    User: { insert: (c) => void seen.push(`+${c.newItem.name}`), modify: (c) => void seen.push(`${c.oldItem.name}→${c.newItem.name}`), remove: (c) => void seen.push(`-${c.oldItem.name}`) },
    Actor: 'ignore',
    Series: 'ignore',
    Fan: (c) => void seen.push(`${c.side} ${c.event}`),
    unknown: 'ignore',
  });
  t.deepEqual(await handler({ Records: memory.takeStreamRecords() }), { batchItemFailures: [] });
  t.deepEqual(seen, ['+Ada', 'Ada→Ada L.', 'forward insert', 'inverse insert', '-Ada L.']);
  t.deepEqual(memory.takeStreamRecords(), [], 'taken once');
});

test('createSessionsInMemory knows the TTL attribute: a sweep on the test clock deletes what expired', async (t) => {
  const memory = createSessionsInMemory({ now: new Date('2030-01-01T00:00:00Z') });
  const db = new SessionsTable(memory);
  const session = (sessionId: string, minutes: number) => ({ sessionId, userId: 'u1', device: 'd1', createdAt: new Date('2030-01-01T00:00:00Z'), expiresAt: new Date(Date.UTC(2030, 0, 1, 0, minutes)) });
  await db.session.put(session('short', 5));
  await db.session.put(session('long', 60));
  memory.advanceTime(10 * 60_000);
  t.is(memory.sweepExpired(), 1);
  t.deepEqual(memory.items().map((item) => item.sessionId), ['long']);
  t.is(await db.session.get({ userId: 'u1', sessionId: 'short' }, { includeExpired: true }), undefined);
});

test("the generated reads hide expired items by the in-memory table's clock, not the system's: get, batchGet, queries, index queries, gathered queries and scans", async (t) => {
  // the table's clock starts years after the system's, then moves on two hours: what production would read then
  const start = new Date('2040-03-01T12:00:00Z');
  const memory = createSessionsInMemory({ now: start });
  const db = new SessionsTable(memory);
  const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
  await db.session.put({ sessionId: 'short', userId: 'u1', device: 'd1', createdAt: start, expiresAt: at(60) });
  await db.session.put({ sessionId: 'long', userId: 'u1', device: 'd1', createdAt: at(1), expiresAt: at(180) });
  await db.event.put({ stream: 's', at: start, id: 'e1', kind: 'login', expiresAt: at(60) });
  await db.event.put({ stream: 's', at: at(1), id: 'e2', kind: 'login', expiresAt: at(180) });
  const scanned = async () => {
    const names: string[] = [];
    for await (const found of db.scanSegments()) names.push(found.type === 'Session' ? found.item.sessionId : found.type === 'Event' ? found.item.id : '?');
    return names.sort();
  };
  const sessions = async () => ({
    get: (await db.session.get({ userId: 'u1', sessionId: 'short' }))?.sessionId,
    batchGet: (await db.session.batchGet([{ userId: 'u1', sessionId: 'short' }, { userId: 'u1', sessionId: 'long' }])).map((s) => s?.sessionId),
    query: (await db.session.query({ userId: 'u1' })).items.map((s) => s.sessionId),
    byDevice: (await db.session.queryByDevice({ device: 'd1' })).items.map((s) => s.sessionId),
    gathered: (await db.event.query({ stream: 's' })).items.map((e) => e.id),
    scan: await scanned(),
  });
  t.deepEqual(await sessions(), { get: 'short', batchGet: ['short', 'long'], query: ['long', 'short'], byDevice: ['short', 'long'], gathered: ['e1', 'e2'], scan: ['e1', 'e2', 'long', 'short'] });
  memory.advanceTime(2 * 3_600_000);
  t.deepEqual(await sessions(), { get: undefined, batchGet: [undefined, 'long'], query: ['long'], byDevice: ['long'], gathered: ['e2'], scan: ['e2', 'long'] });
  t.is((await db.session.get({ userId: 'u1', sessionId: 'short' }, { includeExpired: true }))?.sessionId, 'short', 'not deleted until a sweep');
});

test('a table name given to both: the generated table and its class agree; another name is not found', async (t) => {
  const memory = createSocialInMemory({ tableName: 'Social-test' });
  await new SocialTable(memory, { tableName: 'Social-test' }).actor.put({ id: 'a', name: 'A' });
  t.deepEqual(memory.items(), [{ pk: 'Actor.a', sk: 'PROFILE', id: 'a', name: 'A' }]);
  await t.throwsAsync(new SocialTable(memory).actor.get({ id: 'a' }), { name: 'ResourceNotFoundException', message: 'Cannot do operations on a non-existent table' });
});

test('the function forms of the operations do what the methods do, on the context create<Table>Context builds from the same options', async (t) => {
  const { createSocialContext, protectCursors, userGet, userPut, userUpdate, userDelete, articlePut, articleQuery } = await import('../../out/social/index.js');
  const memory = createSocialInMemory();
  const db = new SocialTable(memory, { tableName: 'Social' });
  const context = createSocialContext(memory, { tableName: 'Social' });
  t.is(context.tableName, db.tableName);
  const user = { id: 'u1', email: 'ann@x.example', status: 'ACTIVE' as const, joinedAt: new Date('2024-01-01T00:00:00Z') };
  t.deepEqual(await userPut(context, user), user);
  t.deepEqual(await db.user.get({ id: 'u1' }), user, 'written by the function, read by the method');
  t.deepEqual(await userUpdate(context, { id: 'u1' }, { set: { status: 'BANNED' } }), { ...user, status: 'BANNED' });
  t.deepEqual(await userGet(context, { id: 'u1' }), await db.user.get({ id: 'u1' }));
  for (const [i, at] of ['2024-01-01', '2024-01-02', '2024-01-03'].entries()) {
    await articlePut(context, { userId: 'u1', articleId: `a${i}`, name: `n${i}`, updatedAt: new Date(`${at}T00:00:00Z`), views: i });
  }
  // pages and cursors are the same: a cursor the method returned continues under the function, and the other way round
  const first = await db.article.query({ userId: 'u1' }, { limit: 2 });
  const rest = await articleQuery(context, { userId: 'u1' }, { limit: 2, cursor: first.cursor! });
  t.deepEqual([...first.items, ...rest.items].map((a) => a.articleId), ['a0', 'a1', 'a2']);
  const viaFunction = await articleQuery(context, { userId: 'u1' }, { limit: 2 });
  t.deepEqual((await db.article.query({ userId: 'u1' }, { limit: 2, cursor: viaFunction.cursor! })).items, rest.items);
  t.deepEqual(await userDelete(context, { id: 'u1' }), { ...user, status: 'BANNED' });
  t.is(await db.user.get({ id: 'u1' }), undefined);
  // the options are checked as the table class checks them
  t.throws(() => createSocialContext(memory, { cursor: { secret: 'short' } }), { message: /cursor\.secret/ });
  t.throws(() => createSocialContext(memory, { piiSecret: 'short' }), { message: /piiSecret/ });
  // signed cursors: the options go through protectCursors, as the table class does with them; without it, a ConfigurationError when the context is made
  const cursor = protectCursors({ secret: 's'.repeat(32) });
  const signed = createSocialContext(memory, { cursor });
  const signedPage = await articleQuery(signed, { userId: 'u1' }, { limit: 2 });
  t.true(signedPage.cursor!.startsWith('3s0.'));
  t.deepEqual((await new SocialTable(memory, { cursor }).article.query({ userId: 'u1' }, { limit: 2, cursor: signedPage.cursor! })).items, rest.items);
  t.throws(() => createSocialContext(memory, { cursor: { secret: 's'.repeat(32) } }), { message: /protectCursors/ });
});
