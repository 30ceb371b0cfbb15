// The repositories generated from fixtures/social.ts, on the generated in-memory table.
import { GetCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  ArticleKeys,
  CursorError,
  ItemExistsError,
  ItemNotFoundError,
  KeyValueError,
  SocialTable,
  UserKeys,
  ValidationError,
  type Article,
} from '../../out/social/index.js';
import { memorySocialTests } from '../support/social-tests.js';

const { test, tables } = memorySocialTests();

const day = (d: number) => new Date(Date.UTC(2024, 0, d));
const article = (userId: string, articleId: string, d: number, extra: Partial<Article> = {}): Article => ({
  userId,
  articleId,
  name: `name-${articleId}`,
  updatedAt: day(d),
  views: d,
  ...extra,
});

test('create, get, update, delete round-trip every attribute type', async (t) => {
  const { db } = t.context;
  const user = { id: 'u1', email: 'a@example.com', status: 'ACTIVE' as const, joinedAt: new Date('2024-05-06T07:08:09.010Z'), bio: 'hi' };
  t.deepEqual(await db.user.create(user), user);
  t.deepEqual(await db.user.get({ id: 'u1' }), user);
  const updated = await db.user.update({ id: 'u1' }, { set: { status: 'BANNED', joinedAt: new Date('2025-01-01T00:00:00Z') }, remove: ['bio'] });
  t.deepEqual(updated, { id: 'u1', email: 'a@example.com', status: 'BANNED', joinedAt: new Date('2025-01-01T00:00:00Z') });
  const withTags = await db.article.put(article('u1', 'a1', 1, { tags: new Set(['x', 'y']) }));
  t.deepEqual(await db.article.get({ userId: 'u1', updatedAt: day(1), articleId: 'a1' }), withTags);
  const bumped = await db.article.update({ userId: 'u1', updatedAt: day(1), articleId: 'a1' }, { add: { views: 5, tags: new Set(['z']) }, set: { featuredAt: day(9) } });
  t.is(bumped.views, 6);
  t.deepEqual(bumped.tags, new Set(['x', 'y', 'z']));
  t.deepEqual(bumped.featuredAt, day(9));
  const cleared = await db.article.update({ userId: 'u1', updatedAt: day(1), articleId: 'a1' }, { set: { tags: new Set() } });
  t.is(cleared.tags, undefined, 'setting an empty set removes the attribute (DynamoDB has no empty sets)');
  await db.article.put(article('u1', 'a2', 2, { tags: new Set() }));
  t.is((await db.article.get({ userId: 'u1', updatedAt: day(2), articleId: 'a2' }))?.tags, undefined);
  t.deepEqual(await db.user.delete({ id: 'u1' }), updated);
  t.is(await db.user.get({ id: 'u1' }), undefined);
  t.is(await db.user.delete({ id: 'u1' }), undefined);
});

test('create refuses an existing key; update refuses a missing item', async (t) => {
  const { db } = t.context;
  const user = { id: 'u1', email: 'a@example.com', status: 'ACTIVE' as const, joinedAt: day(1) };
  await db.user.create(user);
  const exists = await t.throwsAsync(db.user.create({ ...user, email: 'b@example.com' }), { instanceOf: ItemExistsError });
  t.is(exists.code, 'ITEM_EXISTS');
  t.deepEqual(exists.key, { pk: 'User.u1', sk: 'PROFILE' });
  t.is((await db.user.get({ id: 'u1' }))?.email, 'a@example.com', 'the first item is intact');
  const missing = await t.throwsAsync(db.user.update({ id: 'nobody' }, { set: { bio: 'x' } }), { instanceOf: ItemNotFoundError });
  t.is(missing.code, 'ITEM_NOT_FOUND');
  t.is(await db.user.get({ id: 'nobody' }), undefined, 'update did not create an item');
});

test('values containing the delimiter, the escape and ${ are stored apart and read back (floci#3800)', async (t) => {
  const { db, tableName } = t.context;
  const ids = ['a.b', 'a', 'b', 'a\\.b', 'a\\', '.', '..', '${x}', 'A.B', 'a.b.', '😀.𝄞', 'nul\u0000x', 'nul\\0x'];
  for (const id of ids) await db.user.put({ id, email: `${id}@example.com`, status: 'ACTIVE', joinedAt: day(1) });
  for (const id of ids) t.is((await db.user.get({ id }))?.email, `${id}@example.com`, id);
  const scanned = await tables().documents.send(new ScanCommand({ TableName: tableName }));
  t.is(scanned.Items?.length, ids.length, 'no two ids shared a key');
  const stored = await tables().documents.send(new GetCommand({ TableName: tableName, Key: UserKeys.key({ id: 'a.b' }) }));
  t.is(stored.Item?.['pk'], 'User.a\\.b');
  t.deepEqual(UserKeys.parse({ pk: 'User.a\\.b', sk: 'PROFILE' }), { id: 'a.b' });
  await db.article.put(article('u', 'A.', 1));
  await db.article.put(article('u', 'A', 1));
  const { items } = await db.article.query({ userId: 'u' });
  t.deepEqual(items.map((a) => a.articleId).sort(), ['A', 'A.']);
});

test('User.1 never reads User.12: partitions and prefixes are exact', async (t) => {
  const { db } = t.context;
  await db.article.put(article('1', 'one', 1));
  await db.article.put(article('12', 'twelve', 1));
  await db.article.put(article('1.2', 'dotted', 1));
  const { items } = await db.article.query({ userId: '1' });
  t.deepEqual(items.map((a) => a.articleId), ['one']);
  await db.article.put(article('1', 'a', 2));
  await db.article.put(article('1', 'ab', 2));
  const exact = await db.article.query({ userId: '1' }, { where: { eq: { updatedAt: day(2), articleId: 'a' } } });
  t.deepEqual(exact.items.map((a) => a.articleId), ['a'], 'eq on every part is an exact match');
  const text = await db.article.query({ userId: '1' }, { where: { beginsWith: { updatedAt: day(2), articleId: 'a' } } });
  t.deepEqual(text.items.map((a) => a.articleId), ['a', 'ab'], 'beginsWith on a string part is a text prefix');
  const sameDay = await db.article.query({ userId: '1' }, { where: { eq: { updatedAt: day(2) } } });
  t.deepEqual(sameDay.items.map((a) => a.articleId), ['a', 'ab']);
});

test('sort-key conditions and order, bounded to the entity', async (t) => {
  const { db } = t.context;
  await db.user.put({ id: 'u', email: 'u@example.com', status: 'ACTIVE', joinedAt: day(1) }); // same partition, other entity
  for (let d = 1; d <= 6; d++) await db.article.put(article('u', `a${d}`, d));
  const ids = async (where?: object, order?: 'asc' | 'desc') =>
    (await db.article.query({ userId: 'u' }, { ...(where ? { where: where as never } : {}), ...(order ? { order } : {}) })).items.map((a) => a.articleId);
  t.deepEqual(await ids(), ['a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
  t.deepEqual(await ids(undefined, 'desc'), ['a6', 'a5', 'a4', 'a3', 'a2', 'a1']);
  t.deepEqual(await ids({ eq: { updatedAt: day(3), articleId: 'a3' } }), ['a3']);
  t.deepEqual(await ids({ gt: { updatedAt: day(4) } }), ['a5', 'a6']);
  t.deepEqual(await ids({ gte: { updatedAt: day(4) } }), ['a4', 'a5', 'a6']);
  t.deepEqual(await ids({ lt: { updatedAt: day(3) } }), ['a1', 'a2']);
  t.deepEqual(await ids({ lte: { updatedAt: day(3) } }), ['a1', 'a2', 'a3']);
  t.deepEqual(await ids({ gt: { updatedAt: day(4), articleId: 'a4' } }), ['a5', 'a6']);
  t.deepEqual(await ids({ lt: { updatedAt: day(3), articleId: 'a3' } }), ['a1', 'a2']);
  t.deepEqual(await ids({ between: [{ updatedAt: day(2) }, { updatedAt: day(4) }] }), ['a2', 'a3', 'a4']);
  t.deepEqual(await ids({ gte: { updatedAt: day(5) } }, 'desc'), ['a6', 'a5']);
});

test('numbers in keys sort numerically, negatives included; timestamps truncate to the day', async (t) => {
  const { db } = t.context;
  const at = new Date('2024-05-01T10:00:00Z');
  const points = [120, -5, 0, 7, -300, 45, 1_000_000, -1_000_000];
  for (const [i, p] of points.entries()) await db.score.put({ game: 'go', day: new Date(at.getTime() + i * 60_000), playerId: `p${i}`, points: p });
  const { items } = await db.score.query({ game: 'go', day: new Date('2024-05-01T23:59:59Z') });
  t.deepEqual(items.map((s) => s.points), [...points].sort((a, b) => a - b), 'one partition per day, sorted by points');
  const high = await db.score.query({ game: 'go', day: at }, { where: { gte: { points: 0 } }, order: 'desc' });
  t.deepEqual(high.items.map((s) => s.points), [1_000_000, 120, 45, 7, 0]);
  t.is((await db.score.query({ game: 'go', day: new Date('2024-05-02T00:00:00Z') })).items.length, 0);
});

test('pagination: every item exactly once in order, for every page size, both directions', async (t) => {
  const { db } = t.context;
  for (let d = 1; d <= 9; d++) await db.article.put(article('p', `a${d}`, d));
  for (const order of ['asc', 'desc'] as const) {
    for (const limit of [1, 2, 4, 9, 10]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await db.article.query({ userId: 'p' }, { limit, order, ...(cursor ? { cursor } : {}) });
        seen.push(...page.items.map((a) => a.articleId));
        cursor = page.cursor;
        t.true(++pages <= 10);
      } while (cursor);
      const expected = Array.from({ length: 9 }, (_, i) => `a${i + 1}`);
      t.deepEqual(seen, order === 'asc' ? expected : expected.reverse(), `${order} limit ${limit}`);
    }
  }
});

test('a cursor is bound to its query: other parameters or tampering are CursorErrors', async (t) => {
  const { db } = t.context;
  for (let d = 1; d <= 3; d++) await db.article.put(article('c', `a${d}`, d));
  const { cursor } = await db.article.query({ userId: 'c' }, { limit: 1 });
  t.truthy(cursor);
  await t.throwsAsync(db.article.query({ userId: 'other' }, { limit: 1, cursor: cursor! }), { instanceOf: CursorError, message: /other query parameters/ });
  await t.throwsAsync(db.article.query({ userId: 'c' }, { order: 'desc', cursor: cursor! }), { instanceOf: CursorError });
  await t.throwsAsync(db.score.query({ game: 'go', day: day(1) }, { cursor: cursor! }), { instanceOf: CursorError, message: /made for another query, not Score.query/ });
  await t.throwsAsync(db.article.query({ userId: 'c' }, { cursor: 'garbage!' }), { instanceOf: CursorError });
});

test('bad key values throw typed errors before any request is sent', async (t) => {
  // a client of this test's own, counting the requests sent through it (other tests run meanwhile)
  let sent = 0;
  const { documents } = tables();
  const db = new SocialTable({ send: (command: never) => (sent++, documents.send(command)) } as unknown as DynamoDBDocumentClient, { tableName: t.context.tableName });
  const before = sent;
  const cases: Array<[string, () => Promise<unknown>, string, string | undefined]> = [
    ['empty id', () => db.user.get({ id: '' }), 'KEY_PART_EMPTY', 'id'],
    ['missing id', () => db.user.get({} as never), 'KEY_PART_MISSING', 'id'],
    ['out of range', () => db.score.put({ game: 'go', day: day(1), playerId: 'p', points: 1_000_001 }), 'KEY_PART_RANGE', 'points'],
    ['not an integer', () => db.score.put({ game: 'go', day: day(1), playerId: 'p', points: 1.5 }), 'KEY_PART_TYPE', 'points'],
    ['enum outside its values', () => db.score.query({ game: 'chess ' as never, day: day(1) }), 'KEY_PART_RANGE', 'game'],
    ['invalid date', () => db.article.put(article('u', 'a', 1, { updatedAt: new Date(Number.NaN) })), 'KEY_PART_TYPE', 'updatedAt'],
    ['oversize partition key', () => db.user.put({ id: 'x'.repeat(2044), email: '', status: 'ACTIVE', joinedAt: day(1) }), 'KEY_TOO_LONG', undefined],
    ['sort prefix with a gap', () => db.article.query({ userId: 'u' }, { where: { gte: { articleId: 'a' } as never } }), 'KEY_PREFIX_GAP', 'articleId'],
    ['index key part empty', () => db.article.put(article('u', 'a', 1, { name: ' ' })), 'KEY_PART_EMPTY', 'name'],
  ];
  for (const [name, run, code, attribute] of cases) {
    const error = await t.throwsAsync(run(), { instanceOf: KeyValueError }, name);
    t.is(error.code, code, name);
    t.is(error.attribute, attribute, name);
  }
  await t.throwsAsync(db.article.update({ userId: 'u', updatedAt: day(1), articleId: 'a' }, { set: { updatedAt: day(2) } as never }), { instanceOf: ValidationError, message: /part of the primary key/ });
  await t.throwsAsync(db.user.update({ id: 'u' }, {}), { instanceOf: ValidationError, message: /nothing to update/ });
  t.is(sent, before, 'no request reached DynamoDB');
});

test('index keys are written with the item, and parse back', async (t) => {
  const { db, tableName } = t.context;
  await db.article.put(article('u', 'a1', 2, { name: 'Hello.World' }));
  const key = ArticleKeys.key({ userId: 'u', updatedAt: day(2), articleId: 'a1' });
  const stored = (await tables().documents.send(new GetCommand({ TableName: tableName, Key: key }))).Item!;
  t.like(stored, {
    pk: 'User.u',
    sk: 'Article.2024-01-02T00:00:00\\.000Z.a1',
    gsi1pk: 'ArticleName.Hello\\.World',
    gsi1sk: '2024-01-02T00:00:00\\.000Z',
    lsi1sk: 'Title.Hello\\.World',
    updatedAt: '2024-01-02T00:00:00.000Z',
  });
  t.deepEqual(ArticleKeys.parse({ pk: stored['pk'] as string, sk: stored['sk'] as string }), { userId: 'u', updatedAt: day(2), articleId: 'a1' });
});
