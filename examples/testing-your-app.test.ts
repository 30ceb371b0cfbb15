// The testing guide's example (docs/guide/testing.md), run by npm test (and shown there verbatim from the
// import on): an app's own functions tested against the generated in-memory Social table, with
// faults injected, no Java and no network.
import test from 'ava';
import { AmbiguousWriteError, SocialTable, TransactionError } from '../out/social/index.js';
import { createSocialInMemory } from '../out/social/in-memory.js';

// The app under test: a few functions written against the generated SocialTable.
async function signUp(db: SocialTable, id: string, email: string) {
  return db.user.create({ id, email, status: 'ACTIVE', joinedAt: new Date('2024-05-01T00:00:00Z') });
}

async function importArticles(db: SocialTable, userId: string, names: string[]) {
  await db.article.batchPut(names.map((name, i) => ({ userId, articleId: `a${i}`, name, updatedAt: new Date(Date.UTC(2024, 4, 1, 0, i)), views: 0 })));
}

async function follow(db: SocialTable, from: string, to: string) {
  // both users must exist: checked in the same transaction as the follow is written
  await db.transaction().user.check({ id: from }, { status: { eq: 'ACTIVE' } }).user.check({ id: to }, { status: { exists: true } }).commit();
  await db.follow.add({ type: 'User', id: from }, { type: 'User', id: to });
}

test('signing up twice fails; the first sign-up stays', async (t) => {
  const db = new SocialTable(createSocialInMemory());
  await signUp(db, 'ann', 'ann@example.com');
  await t.throwsAsync(signUp(db, 'ann', 'other@example.com'), { name: 'ItemExistsError' });
  t.is((await db.user.get({ id: 'ann' }))?.email, 'ann@example.com');
});

test('an import lands every article though DynamoDB throttles half of each batch', async (t) => {
  const memory = createSocialInMemory({ seed: 42 });
  const db = new SocialTable(memory, { retry: { baseDelayMs: 1 } });
  memory.injectFault({ fault: { kind: 'unprocessed', share: 0.5 }, operations: ['BatchWriteItem'], times: 4 });
  await importArticles(db, 'ann', Array.from({ length: 60 }, (_, i) => `Article ${i}`));
  const page = await db.article.query({ userId: 'ann' }, { limit: 100 });
  t.is(page.items.length, 60);
  t.is(memory.items().length, 60, 'no article written twice, none lost');
});

test('a follow needs both users; a transaction conflict is retried', async (t) => {
  const memory = createSocialInMemory();
  const db = new SocialTable(memory, { transactionRetry: { baseDelayMs: 1 } });
  await signUp(db, 'ann', 'ann@example.com');
  const error = await t.throwsAsync(follow(db, 'ann', 'bo'), { instanceOf: TransactionError });
  t.is(error.failures[0]?.reason, 'ConditionalCheckFailed');
  await signUp(db, 'bo', 'bo@example.com');
  memory.injectFault({ fault: { kind: 'conflict' }, operations: ['TransactWriteItems'], times: 2 });
  await follow(db, 'ann', 'bo');
  t.deepEqual((await db.follow.incoming({ type: 'User', id: 'bo' })).items.map((link) => link.id), ['ann']);
});

test('a counter increment that meets a 5xx is reported as ambiguous, not retried', async (t) => {
  const memory = createSocialInMemory();
  const db = new SocialTable(memory);
  memory.injectFault({ fault: { kind: 'server-error', applied: true }, operations: ['UpdateItem'], times: 1 });
  const day = new Date('2024-05-01T00:00:00Z');
  await t.throwsAsync(db.dailyStats.increment({ userId: 'ann', day }, { views: 1 }), { instanceOf: AmbiguousWriteError });
  t.is((await db.dailyStats.get({ userId: 'ann', day }))?.views, 1, 'it was applied once: read before retrying');
});
