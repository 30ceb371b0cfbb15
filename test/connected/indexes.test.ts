// Indexes, projections, sparse membership, patterns, collections and pagination of the
// API generated from fixtures/social.ts, on the generated in-memory table; a model-based test
// against UTF-8 order.
import fc from 'fast-check';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ArticleKeys, CursorError, SocialTable, ValidationError, type Article } from '../../out/social/index.js';
import { compareUtf8 } from '../../out/social/runtime/codec.js';
import { memorySocialTests } from '../support/social-tests.js';

const { test, tables } = memorySocialTests();

const day = (d: number) => new Date(Date.UTC(2024, 0, d));
const article = (userId: string, articleId: string, d: number, extra: Partial<Article> = {}): Article => ({ userId, articleId, name: `name-${articleId}`, updatedAt: day(d), views: d, ...extra });
const ids = (items: readonly { articleId: string }[]) => items.map((a) => a.articleId);

test('GSI query: items of every user by name, in updatedAt order, with a condition', async (t) => {
  const { db } = t.context;
  await db.article.batchPut([article('u1', 'a', 3, { name: 'same' }), article('u2', 'b', 1, { name: 'same' }), article('u3', 'c', 2, { name: 'same' }), article('u1', 'd', 2, { name: 'other' })]);
  t.deepEqual(ids((await db.article.queryByName({ name: 'same' })).items), ['b', 'c', 'a']);
  t.deepEqual(ids((await db.article.queryByName({ name: 'same' }, { where: { gte: { updatedAt: day(2) } }, order: 'desc' })).items), ['a', 'c']);
  t.deepEqual(ids((await db.article.articlesByName({ name: 'same', updatedAt: day(2) })).items), ['c', 'a']);
});

test('keys-only LSI: projected items hold exactly the key parts; fetch reads full items', async (t) => {
  const { db } = t.context;
  await db.article.batchPut([article('u', 'x', 1, { name: 'Zeta', tags: new Set(['t']) }), article('u', 'y', 2, { name: 'Alpha' })]);
  const projected = await db.article.queryByTitle({ userId: 'u' });
  t.deepEqual(projected.items, [
    { userId: 'u', articleId: 'y', updatedAt: day(2), name: 'Alpha' },
    { userId: 'u', articleId: 'x', updatedAt: day(1), name: 'Zeta' },
  ]);
  const full = await db.article.queryByTitle({ userId: 'u' }, { fetch: true });
  t.deepEqual(full.items, [article('u', 'y', 2, { name: 'Alpha' }), article('u', 'x', 1, { name: 'Zeta', tags: new Set(['t']) })]);
  t.deepEqual(ids((await db.article.articlesByTitlePrefix({ userId: 'u', name: 'Ze' })).items), ['x']);
});

test('sparse GSI with an include projection: membership follows featuredAt through put, mark, update and clear', async (t) => {
  const { db, tableName } = t.context;
  const key = { userId: 'u', updatedAt: day(1), articleId: 'a' };
  await db.article.put(article('u', 'a', 1));
  const featured = (at: Date) => db.article.queryFeatured({ featuredAt: at });
  t.deepEqual((await featured(day(1))).items, [], 'not featured: not in the index');
  const stored = async () => (await tables().documents.send(new GetCommand({ TableName: tableName, Key: ArticleKeys.key(key) }))).Item!;
  t.false('gsi2pk' in (await stored()));

  await db.article.markFeatured(key, { featuredAt: new Date('2024-03-05T00:00:00Z') });
  const march = await db.article.queryFeatured({ featuredAt: new Date('2024-03-31T00:00:00Z') });
  t.deepEqual(march.items, [{ userId: 'u', articleId: 'a', updatedAt: day(1), name: 'name-a', views: 1, featuredAt: new Date('2024-03-05T00:00:00Z') }], 'include projection: keys, name and views');
  t.like(await stored(), { gsi2pk: 'Featured.2024-03', gsi2sk: '2024-03-05T00:00:00\\.000Z' });

  await db.article.update(key, { set: { featuredAt: new Date('2024-04-01T00:00:00Z') } });
  t.is((await db.article.queryFeatured({ featuredAt: new Date('2024-03-01T00:00:00Z') })).items.length, 0, 'moved out of March');
  t.is((await db.article.queryFeatured({ featuredAt: new Date('2024-04-09T00:00:00Z') })).items.length, 1, 'into April');

  await db.article.clearFeatured(key);
  t.is((await db.article.queryFeatured({ featuredAt: new Date('2024-04-09T00:00:00Z') })).items.length, 0);
  const after = await stored();
  t.false('gsi2pk' in after || 'gsi2sk' in after || 'featuredAt' in after, 'index keys removed, never set to "" or NULL');
});

test('renaming an article moves it in the name GSI and the title LSI in one update', async (t) => {
  const { db } = t.context;
  const key = { userId: 'u', updatedAt: day(1), articleId: 'a' };
  await db.article.put(article('u', 'a', 1, { name: 'Old' }));
  const renamed = await db.article.update(key, { set: { name: 'New' } });
  t.is(renamed.name, 'New');
  t.deepEqual((await db.article.queryByName({ name: 'Old' })).items, []);
  t.deepEqual(ids((await db.article.queryByName({ name: 'New' })).items), ['a']);
  t.deepEqual((await db.article.queryByTitle({ userId: 'u' })).items.map((i) => i.name), ['New']);
});

test('patterns: between newest first, and gte on a signed number', async (t) => {
  const { db } = t.context;
  await db.article.batchPut([1, 2, 3, 4, 5].map((d) => article('u', `a${d}`, d)));
  t.deepEqual(ids((await db.article.recentArticles({ userId: 'u', updatedAt: [day(2), day(4)] })).items), ['a4', 'a3', 'a2']);
  const at = new Date('2024-06-01T00:00:00Z');
  await db.score.batchPut([-20, -5, 0, 3, 99].map((points, i) => ({ game: 'chess' as const, day: at, playerId: `p${i}`, points })));
  t.deepEqual((await db.score.topScores({ game: 'chess', day: at, points: -5 })).items.map((s) => s.points), [99, 3, 0, -5]);
});

test('collection: a user and their articles in one query, tagged by entity', async (t) => {
  const { db } = t.context;
  await db.user.put({ id: 'u', email: 'u@example.com', status: 'ACTIVE', joinedAt: day(1) });
  await db.article.batchPut([article('u', 'a', 1), article('u', 'b', 2), article('other', 'c', 1)]);
  const { items } = await db.userCollection({ id: 'u' });
  t.deepEqual(items.map((i) => i.type), ['Article', 'Article', 'User']);
  const user = items.find((i) => i.type === 'User');
  t.is(user?.type === 'User' ? user.item.email : undefined, 'u@example.com');
});

test('batch get returns items in key order, undefined for missing ones', async (t) => {
  const { db } = t.context;
  await db.article.batchPut([article('u', 'a', 1), article('u', 'b', 2)]);
  const found = await db.article.batchGet([
    { userId: 'u', updatedAt: day(2), articleId: 'b' },
    { userId: 'u', updatedAt: day(9), articleId: 'zz' },
    { userId: 'u', updatedAt: day(1), articleId: 'a' },
  ]);
  t.deepEqual(found.map((a) => a?.articleId), ['b', undefined, 'a']);
  await db.article.batchDelete([{ userId: 'u', updatedAt: day(2), articleId: 'b' }]);
  t.is((await db.article.get({ userId: 'u', updatedAt: day(2), articleId: 'b' })), undefined);
});

test('an index input changed without the rest of its key, or a sparse input removed alone, is refused', async (t) => {
  const { db } = t.context;
  const key = { userId: 'u', updatedAt: day(1), articleId: 'a' };
  await db.article.put(article('u', 'a', 1));
  await t.throwsAsync(db.article.update(key, { set: { featuredAt: day(2) }, remove: ['featuredAt'] } as never), { instanceOf: ValidationError });
});

test('signed cursors and async iteration', async (t) => {
  const { tableName } = t.context;
  const db = new SocialTable(tables().documents, { tableName, cursor: { secret: 'a-secret-of-at-least-32-bytes-for-tests', ttlSeconds: 60 } });
  await db.article.batchPut([1, 2, 3, 4, 5, 6, 7].map((d) => article('u', `a${d}`, d)));
  const first = await db.article.query({ userId: 'u' }, { limit: 3 });
  t.regex(first.cursor!, /\./, 'signed');
  const tampered = first.cursor!.replace(/^./, (c) => (c === 'e' ? 'f' : 'e'));
  await t.throwsAsync(db.article.query({ userId: 'u' }, { limit: 3, cursor: tampered }), { instanceOf: CursorError });
  const seen: string[] = [];
  for await (const a of db.article.queryAll({ userId: 'u' }, { limit: 2 })) seen.push(a.articleId);
  t.deepEqual(seen, ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7']);
  const rest: string[] = [];
  for await (const a of db.article.queryAll({ userId: 'u' }, { limit: 3, cursor: first.cursor! })) rest.push(a.articleId);
  t.deepEqual(rest, ['a4', 'a5', 'a6', 'a7'], 'iteration can resume from a cursor');
});

test('model-based: random articles and random queries return what an in-memory model sorted by UTF-8 bytes returns, across random page sizes', async (t) => {
  const { db } = t.context;
  const alphabet = fc.constantFrom('a', 'b', '.', '\\', 'é', '😀', 'Z', '\uFFFF');
  const articleId = fc.string({ unit: alphabet, minLength: 1, maxLength: 4 });
  const stored = fc.uniqueArray(fc.record({ d: fc.integer({ min: 1, max: 6 }), articleId }), { selector: (a) => `${a.d}|${a.articleId}`, maxLength: 25 });
  const op = fc.constantFrom('none', 'eq', 'eqDay', 'beginsWith', 'gt', 'gte', 'lt', 'lte', 'between');
  let round = 0;
  await fc.assert(
    fc.asyncProperty(stored, op, fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), articleId, fc.integer({ min: 1, max: 7 }), fc.boolean(), async (items, operator, d1, d2, id, limit, desc) => {
      const userId = `model-${round++}`;
      await db.article.batchPut(items.map((i) => article(userId, i.articleId, i.d)));
      const key = (a: { d: number; articleId: string }) => ArticleKeys.sk.build({ updatedAt: day(a.d), articleId: a.articleId });
      const where =
        operator === 'none' ? undefined
        : operator === 'eq' ? { eq: { updatedAt: day(d1), articleId: id } }
        : operator === 'between' ? { between: [{ updatedAt: day(Math.min(d1, d2)) }, { updatedAt: day(Math.max(d1, d2)) }] as const }
        : operator === 'eqDay' ? { eq: { updatedAt: day(d1) } }
        : operator === 'beginsWith' ? { beginsWith: { updatedAt: day(d1), articleId: [...id].slice(0, 2).join('') } }
        : { [operator]: { updatedAt: day(d1) } };
      const lo = Math.min(d1, d2);
      const hi = Math.max(d1, d2);
      const expected = items
        .filter((i) => {
          switch (operator) {
            case 'none': return true;
            case 'eq': return i.d === d1 && i.articleId === id;
            case 'eqDay': return i.d === d1;
            case 'beginsWith': return i.d === d1 && i.articleId.startsWith([...id].slice(0, 2).join(''));
            case 'gt': return i.d > d1;
            case 'gte': return i.d >= d1;
            case 'lt': return i.d < d1;
            case 'lte': return i.d <= d1;
            case 'between': return i.d >= lo && i.d <= hi;
          }
        })
        .sort((a, b) => compareUtf8(key(a), key(b)) * (desc ? -1 : 1))
        .map((i) => `${i.d}|${i.articleId}`);
      const seen: string[] = [];
      for await (const a of db.article.queryAll({ userId }, { ...(where ? { where: where as never } : {}), limit, order: desc ? 'desc' : 'asc' })) {
        seen.push(`${a.updatedAt.getUTCDate()}|${a.articleId}`);
      }
      return JSON.stringify(seen) === JSON.stringify(expected);
    }),
    { numRuns: 40 },
  );
  t.pass();
});
