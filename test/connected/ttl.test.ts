// Time to live, with the API generated from fixtures/sessions.ts (and, last, its sparse index of
// accepted invites), on the generated in-memory table (which, like DynamoDB Local, deletes nothing
// unless told; enabling TTL through DynamoDB Local's own API is in local-api.test.ts). Items
// whose expiry has passed stay in the table (DynamoDB deletes them only within a day or two, and
// DynamoDB Local not within a test), which is exactly the case to prove: every read hides them —
// get, batchGet, queries on the table and a GSI, a gathered query over shards, a collection, a
// parallel scan, fetched index pages — and { includeExpired: true } returns them. Each test checks
// the table afterwards: the expired items are still there, stored with epoch seconds.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { SessionsTable, sessionsTableDefinition, type Event, type Session } from '../../out/sessions/index.js';
import { memoryTableTests } from '../support/social-tests.js';

const { test, tables } = memoryTableTests('sessions', sessionsTableDefinition, (client, tableName) => new SessionsTable(client, { tableName }));

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const hour = 3_600_000;
const past = () => new Date(Math.floor((Date.now() - hour) / 1000) * 1000);
const future = () => new Date(Math.floor((Date.now() + hour) / 1000) * 1000);
const session = (sessionId: string, expiresAt: Date, extra: Partial<Session> = {}): Session => ({ userId: 'u1', sessionId, device: 'phone', createdAt: new Date(Date.UTC(2026, 0, Number(sessionId.replace(/\D/g, '')) || 1)), expiresAt, ...extra });

/** Every stored record of the table, as DynamoDB holds it. */
async function stored(tableName: string): Promise<Array<Record<string, unknown>>> {
  const result = await tables().documents.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }));
  return result.Items ?? [];
}

test('get and batchGet: an expired item reads as absent; includeExpired returns it', async (t) => {
  const { db, tableName } = t.context;
  const [gone, live] = [past(), future()];
  await db.session.batchPut([session('s1', gone), session('s2', live)]);
  t.is(await db.session.get({ userId: 'u1', sessionId: 's1' }), undefined);
  t.deepEqual(await db.session.get({ userId: 'u1', sessionId: 's2' }), session('s2', live));
  t.deepEqual(await db.session.get({ userId: 'u1', sessionId: 's1' }, { includeExpired: true, consistent: true }), session('s1', gone));
  const keys = ['s1', 's2', 's3'].map((sessionId) => ({ userId: 'u1', sessionId }));
  t.deepEqual(await db.session.batchGet(keys), [undefined, session('s2', live), undefined]);
  t.deepEqual(await db.session.batchGet(keys, { includeExpired: true }), [session('s1', gone), session('s2', live), undefined]);
  t.deepEqual((await stored(tableName)).map((r) => [r.sk, r.expiresAt]), [['Session#s1', seconds(gone)], ['Session#s2', seconds(live)]], 'the expired item is still in the table');
});

test('queries on the table, a GSI and a collection hide expired items; a page may come back short, and walking its cursor yields every live item once', async (t) => {
  const { db, tableName } = t.context;
  const [gone, live] = [past(), future()];
  await db.user.put({ userId: 'u1', name: 'Ada' });
  await db.session.batchPut([session('s1', gone), session('s2', live), session('s3', gone), session('s4', live), session('s5', live)]);
  const ids = (items: readonly Session[]) => items.map((s) => s.sessionId);
  t.deepEqual(ids((await db.session.query({ userId: 'u1' })).items), ['s2', 's4', 's5']);
  t.deepEqual(ids((await db.session.query({ userId: 'u1' }, { includeExpired: true })).items), ['s1', 's2', 's3', 's4', 's5']);
  t.deepEqual(ids((await db.session.queryByDevice({ device: 'phone' }, { order: 'desc' })).items), ['s5', 's4', 's2']);
  // Limit counts the items DynamoDB reads, expired or not: the first page of 1 holds s1, which is hidden.
  const first = await db.session.query({ userId: 'u1' }, { limit: 1 });
  t.deepEqual(first.items, []);
  t.truthy(first.cursor, 'an empty page still has a cursor: the walk goes on');
  const walked: string[] = [];
  for await (const s of db.session.queryAll({ userId: 'u1' }, { limit: 2 })) walked.push(s.sessionId);
  t.deepEqual(walked, ['s2', 's4', 's5']);
  const collection = await db.userCollection({ userId: 'u1' });
  t.deepEqual(collection.items.map((x) => (x.type === 'Session' ? x.item.sessionId : x.type)), ['User', 's2', 's4', 's5']);
  t.is((await stored(tableName)).length, 6, 'nothing was deleted');
});

test('a gathered query over 4 shards fills its page with live items; items without an expiry never expire', async (t) => {
  const { db, tableName } = t.context;
  const [gone, live] = [past(), future()];
  const event = (id: string, minute: number, expiresAt?: Date): Event => ({ stream: 'orders', at: new Date(Date.UTC(2026, 0, 1, 0, minute)), id, kind: 'placed', ...(expiresAt ? { expiresAt } : {}) });
  await db.event.batchPut([event('e1', 1, gone), event('e2', 2, live), event('e3', 3, gone), event('e4', 4), event('e5', 5, gone), event('e6', 6, live)]);
  const page = await db.event.query({ stream: 'orders' }, { limit: 2 });
  t.deepEqual(page.items.map((e) => e.id), ['e2', 'e4'], 'the gather refills until the page holds 2 live items');
  const rest = await db.event.query({ stream: 'orders' }, { limit: 2, cursor: page.cursor! });
  t.deepEqual(rest.items.map((e) => e.id), ['e6']);
  t.deepEqual((await db.event.query({ stream: 'orders' }, { includeExpired: true })).items.map((e) => e.id), ['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
  t.is(new Set((await stored(tableName)).map((r) => r.pk)).size > 1, true, 'the events are spread over shards');
});

test('scanSegments hides expired items of every entity; includeExpired reads them all', async (t) => {
  const { db, tableName } = t.context;
  const [gone, live] = [past(), future()];
  await db.session.batchPut([session('s1', gone), session('s2', live)]);
  await db.invite.put({ code: 'c1', email: 'a@example.com', expiresAt: gone });
  await db.invite.put({ code: 'c2', email: 'b@example.com' });
  await db.user.put({ userId: 'u1', name: 'Ada' });
  const names = async (options = {}) => {
    const out: string[] = [];
    for await (const x of db.scanSegments({ segments: 3, ...options })) out.push(x.type === 'Session' ? x.item.sessionId : x.type === 'Invite' ? x.item.code : String(x.type));
    return out.sort();
  };
  t.deepEqual(await names(), ['User', 'c2', 's2']);
  t.deepEqual(await names({ includeExpired: true }), ['User', 'c1', 'c2', 's1', 's2']);
  t.is((await stored(tableName)).length, 5);
});

test('a sparse index whose key also reads a required attribute: mark sets both, so the key is built without reading the item; clear takes it out; an update of the optional input alone is refused', async (t) => {
  const { db, tableName } = t.context;
  const key = { code: 'c7' };
  await db.invite.put({ code: 'c7', email: 'b@example.com' });
  const accepted = () => db.invite.queryAccepted({ email: 'b@example.com' });
  t.deepEqual((await accepted()).items, [], 'not accepted: not in the index');

  const at = new Date('2026-02-03T04:05:06.000Z');
  t.deepEqual(await db.invite.markAccepted(key, { acceptedAt: at, email: 'b@example.com' }), { code: 'c7', email: 'b@example.com', acceptedAt: at });
  t.deepEqual((await accepted()).items, [{ code: 'c7', email: 'b@example.com', acceptedAt: at }]);
  t.like((await stored(tableName))[0], { gsi2pk: 'Accepted#b@example.com', gsi2sk: '2026-02-03T04:05:06.000Z' });

  const refused = await t.throwsAsync(db.invite.update(key, { set: { acceptedAt: new Date('2026-03-01T00:00:00.000Z') } }));
  t.regex(refused!.message, /acceptedAt.*set email too/s);
  t.like((await stored(tableName))[0], { acceptedAt: '2026-02-03T04:05:06.000Z' }, 'nothing written');

  t.deepEqual(await db.invite.clearAccepted(key), { code: 'c7', email: 'b@example.com' });
  t.deepEqual((await accepted()).items, []);
  t.deepEqual(await stored(tableName), [{ pk: 'Invite#c7', sk: 'INVITE', code: 'c7', email: 'b@example.com' }], 'index keys and acceptedAt removed, the email kept');
});
