// Connected: where features meet, on DynamoDB Local (fixtures/seams.ts). TTL hides expired items
// from native-index queries as from every other read; a native GSI keyed on the TTL attribute takes
// writes (its key declared as a number, as the attribute is stored); required sets round-trip empty;
// a pattern whose compared attribute is also its time bucket reads its bucket. The table is read
// back raw afterwards.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { SeamsTable, seamsTableDefinition } from '../../out/seams/index.js';
import { scanTable } from '../support/dynamodb-local.js';
import { tableTests } from '../support/social-tests.js';

const { test, local } = tableTests('seams', seamsTableDefinition, (client, tableName) => new SeamsTable(client, { tableName }));

const hour = 3_600_000;

test('a native-index query hides an item whose TTL has passed, as get does; includeExpired shows it', async (t) => {
  const { db, tableName } = t.context;
  const now = Date.now();
  await db.note.put({ noteId: 'old', owner: 'ada', createdAt: new Date(now - 2 * hour), expiresAt: new Date(now - hour), text: 'expired an hour ago' });
  await db.note.put({ noteId: 'new', owner: 'ada', createdAt: new Date(now - hour), expiresAt: new Date(now + hour), text: 'live' });
  t.is(await db.note.get({ noteId: 'old' }), undefined);
  t.deepEqual((await db.note.queryByOwner({ owner: 'ada' })).items.map((n) => n.noteId), ['new']);
  t.deepEqual((await db.note.queryByOwner({ owner: 'ada' }, { includeExpired: true })).items.map((n) => n.noteId), ['old', 'new']);
  // the expired item is still stored: DynamoDB deletes it some time later
  const raw = await local().documents.send(new GetCommand({ TableName: tableName, Key: { pk: 'Note#old', sk: 'NOTE' } }));
  t.is(typeof raw.Item?.['expiresAt'], 'number');
});

test('a native GSI keyed on the TTL attribute takes writes and orders by expiry; the copies follow severity and state', async (t) => {
  const { db, tableName } = t.context;
  const now = Date.now();
  for (const [taskId, offset] of [['b', 3], ['a', 1], ['c', 2]] as const) {
    await db.task.put({ tenantId: 't1', taskId, severity: offset, state: 'OPEN', expiresAt: new Date(now + offset * hour) });
  }
  t.deepEqual((await db.task.queryExpiring({ tenantId: 't1' })).items.map((x) => x.taskId), ['a', 'c', 'b']);
  t.deepEqual((await db.task.queryExpiring({ tenantId: 't1' }, { where: { expiresAt: { gt: new Date(now + 1.5 * hour) } } })).items.map((x) => x.taskId), ['c', 'b']);
  await db.task.update({ tenantId: 't1', taskId: 'a' }, { set: { severity: 9, state: 'DONE' } });
  t.deepEqual((await db.task.queryByPriority({ tenantId: 't1' }, { where: { severity: 9 } })).items.map((x) => [x.taskId, x.state]), [['a', 'DONE']]);
  const items = await scanTable(local().documents, tableName);
  const a = items.find((i) => i['taskId'] === 'a')!;
  t.like(a, { severity: 9, priority: 9, state: 'DONE', status: 'DONE' });
  t.is(typeof a['expiresAt'], 'number');
});

test('required sets and a map holding one round-trip empty; DynamoDB stores no empty set', async (t) => {
  const { db, tableName } = t.context;
  const thread = { forumName: 'f', subject: 's', tags: new Set<string>(), votes: new Set<number>(), seen: [new Date('2026-01-01T00:00:00.000Z')], meta: { labels: new Set<string>() }, amount: 1 };
  await db.thread.put(thread);
  t.deepEqual(await db.thread.get({ forumName: 'f', subject: 's' }), thread);
  await db.thread.update({ forumName: 'f', subject: 's' }, { add: { tags: new Set(['x']) } });
  t.deepEqual((await db.thread.get({ forumName: 'f', subject: 's' }))?.tags, new Set(['x']));
  await db.thread.update({ forumName: 'f', subject: 's' }, { set: { tags: new Set() } });
  t.deepEqual((await db.thread.get({ forumName: 'f', subject: 's' }))?.tags, new Set());
  const [raw] = await scanTable(local().documents, tableName);
  t.false('tags' in raw! || 'votes' in raw!);
});

test('a pattern on the attribute its partition key buckets: the bucket of the operand, from the operand on', async (t) => {
  const { db } = t.context;
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute));
  await db.view.batchPut([0, 10, 20, 50, 70].map((m) => ({ site: 's', at: at(m), viewId: `v${m}` })));
  t.deepEqual((await db.view.viewsSince({ site: 's', at: at(15) })).items.map((v) => v.viewId), ['v20', 'v50']);
  t.deepEqual((await db.view.viewsBetween({ site: 's', at: [at(5), at(55)] })).items.map((v) => v.viewId), ['v10', 'v20', 'v50']);
  t.deepEqual((await db.view.queryByHour({ at: at(65) })).items.map((v) => v.viewId), ['v70']);
});
