// Conditions, optimistic locking, transactions, reserved words and the item-size limit
// through the repositories generated from fixtures/social.ts, on the generated in-memory table; and a model-based
// test of versioned writes against an in-memory model.
import fc from 'fast-check';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  ConditionFailedError,
  ItemExistsError,
  ItemNotFoundError,
  ItemTooLargeError,
  SocialTable,
  TransactionError,
  ValidationError,
  VersionConflictError,
  type Article,
  type User,
} from '../../out/social/index.js';
import { itemSize } from '../../out/social/runtime/item-size.js';
import { memorySocialTests } from '../support/social-tests.js';

const { test, tables } = memorySocialTests();

const day = (d: number) => new Date(Date.UTC(2024, 0, d));
const user = (id: string, extra: Partial<User> = {}): User => ({ id, email: `${id}@example.com`, status: 'ACTIVE', joinedAt: day(1), ...extra });
const article = (articleId: string, extra: Partial<Article> = {}): Article => ({ userId: 'u', articleId, name: `n-${articleId}`, updatedAt: day(1), views: 0, ...extra });
const articleKey = (articleId: string) => ({ userId: 'u', updatedAt: day(1), articleId });

test('conditions on putIf, update and delete; reserved words as attribute names', async (t) => {
  const { db } = t.context;
  await db.user.put(user('a', { bio: 'x' }));
  const banned = await db.user.update({ id: 'a' }, { set: { status: 'BANNED' } }, { condition: { status: { eq: 'ACTIVE' }, bio: { exists: true } } });
  t.is(banned.status, 'BANNED');
  const failed = await t.throwsAsync(db.user.update({ id: 'a' }, { set: { status: 'ACTIVE' } }, { condition: { status: { in: ['ACTIVE'] } } }), { instanceOf: ConditionFailedError });
  t.is(failed.code, 'CONDITION_FAILED');
  await t.throwsAsync(db.user.putIf(user('a'), { joinedAt: { gt: day(5) } }), { instanceOf: ConditionFailedError });
  await db.user.putIf(user('a', { status: 'ACTIVE' }), { $or: [{ joinedAt: { lt: day(5) } }, { bio: { beginsWith: 'zzz' } }] });
  // where there is no item, the condition is on no attributes: an exists fails, a not-exists holds
  await t.throwsAsync(db.user.putIf(user('fresh'), { bio: { exists: true } }), { instanceOf: ConditionFailedError });
  await db.user.putIf(user('fresh'), { bio: { exists: false } });
  t.truthy(await db.user.get({ id: 'fresh' }));
  // put takes no options: from untyped code, a condition given to it is refused before any request, never dropped
  const refused = await t.throwsAsync(db.user.put(user('a', { status: 'BANNED' }), ...([{ condition: { status: { eq: 'X' } } }] as unknown as [])), { instanceOf: ValidationError });
  t.is(refused.code, 'OPTIONS_UNKNOWN');
  t.is(refused.message, 'User.(options): put takes no options: a put on a condition is putIf(item, condition, options)');
  t.is((await db.user.get({ id: 'a' }))?.status, 'ACTIVE', 'the refused put wrote nothing');
  await t.throwsAsync(db.user.delete({ id: 'a' }, { condition: { $not: { status: { eq: 'ACTIVE' } } } }), { instanceOf: ConditionFailedError });
  t.truthy(await db.user.get({ id: 'a' }), 'a failed condition writes nothing');
  await db.settings.create({ userId: 'a', theme: 'dark', notifications: true, data: { language: 'en', shortcuts: ['k'] }, ttl: 1700000000 });
  const updated = await db.settings.update({ userId: 'a' }, { set: { data: { language: 'fr', shortcuts: [] }, ttl: 1800000000 } }, { expectedVersion: 1, condition: { ttl: { lt: 1750000000 } } });
  t.like(updated, { data: { language: 'fr', shortcuts: [] }, ttl: 1800000000, revision: 2 });
  await t.throwsAsync(db.user.update({ id: 'a' }, { set: { bio: 'x' } }, { condition: { status: { in: Array(101).fill('ACTIVE') } } }), { instanceOf: ValidationError, message: /IN takes 1 to 100 values, got 101/ });
});

test('returnValues: the item after or before, the changed attributes, or nothing', async (t) => {
  const { db } = t.context;
  await db.user.put(user('rv', { bio: 'one' }));
  const after = await db.user.update({ id: 'rv' }, { set: { bio: 'two' } });
  t.is(after.bio, 'two');
  const before = await db.user.update({ id: 'rv' }, { set: { bio: 'three' } }, { returnValues: 'ALL_OLD' });
  t.is(before?.bio, 'two');
  t.deepEqual(await db.user.update({ id: 'rv' }, { set: { bio: 'four' } }, { returnValues: 'UPDATED_NEW' }), { bio: 'four' });
  t.deepEqual(await db.user.update({ id: 'rv' }, { set: { bio: 'five' } }, { returnValues: 'UPDATED_OLD' }), { bio: 'four' });
  t.is(await db.user.update({ id: 'rv' }, { set: { bio: 'six' } }, { returnValues: 'NONE' }), undefined);
  t.is(await db.user.delete({ id: 'rv' }, { returnValues: 'NONE' }), undefined);
  t.is(await db.user.get({ id: 'rv' }), undefined);
});

test('replace fails when the item is absent; create when it exists', async (t) => {
  const { db } = t.context;
  await t.throwsAsync(db.user.replace(user('r')), { instanceOf: ItemNotFoundError });
  await db.user.create(user('r'));
  await t.throwsAsync(db.user.create(user('r')), { instanceOf: ItemExistsError });
  t.is((await db.user.replace(user('r', { bio: 'new' }))).bio, 'new');
});

test('optimistic locking: versions are created, checked and incremented; stale writes are VersionConflictErrors', async (t) => {
  const { db } = t.context;
  const created = await db.settings.put({ userId: 'v', theme: 'light', notifications: false });
  t.is(created.revision, 1);
  await t.throwsAsync(db.settings.put({ userId: 'v', theme: 'dark', notifications: false }), { instanceOf: VersionConflictError }, 'a put without a version creates');
  const read = (await db.settings.get({ userId: 'v' }))!;
  const [first, second] = await Promise.allSettled([
    db.settings.update({ userId: 'v' }, { set: { theme: 'dark' } }, { expectedVersion: read.revision }),
    db.settings.update({ userId: 'v' }, { set: { notifications: true } }, { expectedVersion: read.revision }),
  ]);
  const outcomes = [first.status, second.status].sort();
  t.deepEqual(outcomes, ['fulfilled', 'rejected'], 'of two writers from the same read, exactly one wins');
  const loser = [first, second].find((r) => r.status === 'rejected') as PromiseRejectedResult;
  t.true(loser.reason instanceof VersionConflictError);
  t.is((loser.reason as VersionConflictError).expected, 1);
  t.is((await db.settings.get({ userId: 'v' }))!.revision, 2);
  const replaced = await db.settings.put({ userId: 'v', theme: 'light', notifications: true, revision: 2 });
  t.is(replaced.revision, 3);
  await t.throwsAsync(db.settings.delete({ userId: 'v' }, { expectedVersion: 2 }), { instanceOf: VersionConflictError });
  await t.throwsAsync(db.settings.update({ userId: 'none' }, { set: { theme: 'dark' } }, { expectedVersion: 1 }), { instanceOf: ItemNotFoundError });
  t.is((await db.settings.delete({ userId: 'v' }, { expectedVersion: 3 }))?.revision, 3);
  await t.throwsAsync(db.settings.update({ userId: 'v' }, { set: { theme: 'dark' } }, {} as never), { instanceOf: ValidationError, message: /pass \{ expectedVersion \}/ });
});

test('update operators: counters, set add/delete, list prepend/append, setIfNotExists', async (t) => {
  const { db } = t.context;
  await db.article.put(article('a', { tags: new Set(['x', 'y']) }));
  const after = await db.article.update(articleKey('a'), { add: { views: 5 }, delete: { tags: new Set(['x']) } });
  t.is(after.views, 5);
  t.deepEqual(after.tags, new Set(['y']));
  await db.settings.create({ userId: 'l', theme: 'light', notifications: true, data: { language: 'en', shortcuts: ['b'] } });
  const set = await db.settings.update({ userId: 'l' }, { setIfNotExists: { ttl: 5, theme: 'dark' } }, { expectedVersion: 1 });
  t.like(set, { ttl: 5, theme: 'light', revision: 2 }, 'setIfNotExists leaves present attributes alone');
});

test('transactions: all writes or none, with the failing item and its reason named', async (t) => {
  const { db } = t.context;
  await db.transaction().user.create(user('t1')).article.create(article('a1')).settings.create({ userId: 't1', theme: 'dark', notifications: true }).commit();
  t.truthy(await db.user.get({ id: 't1' }));
  t.truthy(await db.article.get(articleKey('a1')));

  const error = await t.throwsAsync(
    db.transaction().user.create(user('t2')).article.create(article('a1')).commit(),
    { instanceOf: TransactionError },
  );
  t.is(error.failures.length, 1);
  t.like(error.failures[0], { index: 1, operation: 'put', entity: 'Article', reason: 'ConditionalCheckFailed' });
  t.true(error.failures[0]!.error instanceof ItemExistsError);
  t.is(await db.user.get({ id: 't2' }), undefined, 'the other write did not happen');

  const stale = await t.throwsAsync(
    db.transaction().settings.update({ userId: 't1' }, { set: { theme: 'light' } }, { expectedVersion: 7 }).user.check({ id: 't1' }, { status: { eq: 'ACTIVE' } }).commit(),
    { instanceOf: TransactionError },
  );
  t.true(stale.failures[0]!.error instanceof VersionConflictError);

  await db.transaction().user.delete({ id: 't1' }).article.update(articleKey('a1'), { add: { views: 1 } }).commit();
  t.is(await db.user.get({ id: 't1' }), undefined);
  t.is((await db.article.get(articleKey('a1')))?.views, 1);
});

test('transactions are checked before sending: one write per item, at most 100 writes', async (t) => {
  const { db } = t.context;
  await t.throwsAsync(db.transaction().user.put(user('d')).user.delete({ id: 'd' }).commit(), { instanceOf: ValidationError, message: /written twice \(put and delete\)/ });
  const big = db.transaction();
  for (let i = 0; i < 101; i++) big.user.put(user(`u${i}`));
  await t.throwsAsync(big.commit(), { instanceOf: ValidationError, message: /1 to 100 writes, this one has 101/ });
  await t.throwsAsync(db.transaction().commit(), { instanceOf: ValidationError });
});

test('the 400 KB limit, measured like DynamoDB in UTF-8: at the limit it is written, one byte over it is refused before sending', async (t) => {
  const { db, tableName } = t.context;
  const base = user('big', { bio: '' });
  const overhead = itemSize({ ...base, joinedAt: base.joinedAt.toISOString(), pk: 'User.big', sk: 'PROFILE' });
  const room = 400 * 1024 - overhead;
  const bio = 'é'.repeat(Math.floor(room / 2)) + 'x'.repeat(room % 2); // 2-byte characters fill most of it
  await db.user.put({ ...base, bio });
  t.is((await db.user.get({ id: 'big' }))?.bio?.length, bio.length);
  const error = await t.throwsAsync(db.user.put({ ...base, bio: bio + 'x' }), { instanceOf: ItemTooLargeError });
  t.is(error.bytes, 400 * 1024 + 1);
  const direct = tables().documents.send(new PutCommand({ TableName: tableName, Item: { pk: 'User.big2', sk: 'PROFILE', ...base, joinedAt: base.joinedAt.toISOString(), id: 'big', bio: bio + 'x' } }));
  await t.throwsAsync(direct, { name: 'ValidationException' }, 'DynamoDB Local agrees the same item is too large');
});

test('model-based: versioned writes match an in-memory model, step by step', async (t) => {
  const { db } = t.context;
  type Model = Map<string, { revision: number; theme: 'light' | 'dark' }>;
  type Outcome = string;
  const ids = fc.constantFrom('a', 'b');
  const theme = fc.constantFrom<'light' | 'dark'>('light', 'dark');
  const offset = fc.constantFrom(0, 0, 0, -1, 1);
  const run = async (action: () => Promise<unknown>): Promise<Outcome> => {
    try {
      await action();
      return 'ok';
    } catch (error) {
      return (error as Error).name;
    }
  };
  let round = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.constantFrom('create', 'put', 'update', 'delete'), ids, theme, offset), { minLength: 1, maxLength: 15 }),
      async (steps) => {
        const model: Model = new Map();
        const prefix = `m${round++}-`;
        for (const [op, id, value, delta] of steps) {
          const userId = prefix + id;
          const current = model.get(id);
          const expected = (current?.revision ?? 1) + delta;
          let want: Outcome;
          let got: Outcome;
          if (op === 'create') {
            want = current ? 'ItemExistsError' : 'ok';
            got = await run(() => db.settings.create({ userId, theme: value, notifications: false }));
            if (!current) model.set(id, { revision: 1, theme: value });
          } else if (op === 'put') {
            want = !current ? 'ItemNotFoundError' : expected !== current.revision ? 'VersionConflictError' : 'ok';
            got = await run(() => db.settings.put({ userId, theme: value, notifications: false, revision: expected }));
            if (want === 'ok') model.set(id, { revision: expected + 1, theme: value });
          } else if (op === 'update') {
            want = !current ? 'ItemNotFoundError' : expected !== current.revision ? 'VersionConflictError' : 'ok';
            got = await run(() => db.settings.update({ userId }, { set: { theme: value } }, { expectedVersion: expected }));
            if (want === 'ok') model.set(id, { revision: expected + 1, theme: value });
          } else {
            want = !current ? 'ItemNotFoundError' : expected !== current.revision ? 'VersionConflictError' : 'ok';
            got = await run(() => db.settings.delete({ userId }, { expectedVersion: expected }));
            if (want === 'ok') model.delete(id);
          }
          if (got !== want) throw new Error(`${op} ${id} (expected version ${expected}): got ${got}, model says ${want}`);
          const stored = await db.settings.get({ userId }, { consistent: true });
          const modelled = model.get(id);
          if ((stored === undefined) !== (modelled === undefined) || (stored && (stored.revision !== modelled!.revision || stored.theme !== modelled!.theme))) {
            throw new Error(`after ${op} ${id}: table has ${JSON.stringify(stored)}, model ${JSON.stringify(modelled)}`);
          }
        }
        return true;
      },
    ),
    { numRuns: 40 },
  );
  t.pass();
});

test('increment: atomic counters create the rollup item with the other counters at 0, then add', async (t) => {
  const { db } = t.context;
  const key = { userId: 'u', day: new Date('2024-05-06T10:00:00Z') };
  t.deepEqual(await db.dailyStats.increment(key, { views: 1 }), { userId: 'u', day: new Date('2024-05-06T00:00:00Z'), views: 1, likes: 0 }, 'the rollup keeps its day\'s start, not the first write\'s time');
  await Promise.all(Array.from({ length: 10 }, () => db.dailyStats.increment({ userId: 'u', day: new Date('2024-05-06T23:00:00Z') }, { views: 2, likes: 1 })));
  const stats = await db.dailyStats.get({ userId: 'u', day: new Date('2024-05-06T00:00:00Z') });
  t.like(stats, { views: 21, likes: 10 }, 'the same day, whatever the time: one item');
  await t.throwsAsync(db.dailyStats.increment(key, {}), { message: /nothing to increment/ });
});

test('scanSegments reads every item of the table, tagged with its entity', async (t) => {
  const { db } = t.context;
  await db.user.put(user('s1'));
  await db.article.batchPut([article('a'), article('b')]);
  await db.fan.add({ type: 'User', id: 's1' }, { type: 'Actor', id: 'x' }, { since: new Date(0) });
  const seen: string[] = [];
  for await (const entry of db.scanSegments({ segments: 1, pageSize: 2 })) seen.push(entry.type ?? 'edge');
  t.deepEqual(seen.sort(), ['Article', 'Article', 'User', 'edge', 'edge']);
});
