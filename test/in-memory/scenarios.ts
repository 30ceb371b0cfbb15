// App steps on the generated tables of the fixtures, each run once against DynamoDB Local and once
// against the in-memory table (differential.test.ts): what every step returns or throws is
// recorded, and the two recordings must be equal, as must the tables afterwards.
import type { FansTable } from '../../out/fans/index.js';
import type { SessionsTable } from '../../out/sessions/index.js';
import type { SocialTable } from '../../out/social/index.js';
import type { TenantsTable } from '../../out/tenants/index.js';
import { outcomeOf, plain, type Outcome } from '../support/differential.js';

/** Records each step's outcome; a page's cursor is kept as `true` (its text holds a time). */
export class Recorder {
  readonly steps: Array<{ readonly step: string; readonly outcome: Outcome }> = [];
  async step<T>(step: string, run: () => Promise<T>): Promise<T | undefined> {
    let value: T | undefined;
    const outcome = await outcomeOf(async () => (value = await run()));
    this.steps.push({ step, outcome: maskCursors(outcome) as Outcome });
    return value;
  }
}

function maskCursors(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskCursors);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'cursor' && typeof v === 'string' ? true : maskCursors(v)]));
}

const day = (d: number) => new Date(Date.UTC(2024, 0, d));
const article = (userId: string, articleId: string, d: number, extra: object = {}) => ({ userId, articleId, name: `name-${articleId}`, updatedAt: day(d), views: d, ...extra });

/** fixtures/social.ts: CRUD, conditions, versions, counters, patterns, every index, edges, shards, transactions, batches, collections, scans. */
export async function socialScenario(db: SocialTable, r: Recorder): Promise<void> {
  const user = (id: string) => ({ id, email: `${id}@example.com`, status: 'ACTIVE' as const, joinedAt: day(1) });
  await r.step('create a user', () => db.user.create({ ...user('u1'), bio: 'hi' }));
  await r.step('create it again', () => db.user.create(user('u1')));
  await r.step('update with a failed condition', () => db.user.update({ id: 'u1' }, { set: { status: 'BANNED' } }, { condition: { status: { eq: 'BANNED' } }, returnValuesOnConditionFailure: 'old' }));
  await r.step('update and remove', () => db.user.update({ id: 'u1' }, { set: { status: 'BANNED' }, remove: ['bio'] }));
  await r.step('update a missing user', () => db.user.update({ id: 'nobody' }, { set: { bio: 'x' } }));
  await r.step('replace a missing user', () => db.user.replace(user('nobody')));
  await r.step('update returning the old values', () => db.user.update({ id: 'u1' }, { set: { bio: 'back' } }, { returnValues: 'UPDATED_OLD' }));
  await r.step('batch put articles', () => db.article.batchPut([1, 2, 3, 4, 5, 6, 7].map((d) => article('u1', `a${d}`, d, { name: d % 2 ? 'Odd' : 'Even', tags: new Set([`t${d}`]) }))));
  // index keys are unique: items with equal index keys come back in an order DynamoDB does not define
  await r.step('put an article of another user', () => db.article.put(article('u2', 'b1', 8, { name: 'Odd' })));
  await r.step('get an article', () => db.article.get({ userId: 'u1', updatedAt: day(2), articleId: 'a2' }));
  await r.step('add to a counter and a set', () => db.article.update({ userId: 'u1', updatedAt: day(2), articleId: 'a2' }, { add: { views: 5, tags: new Set(['z']) } }));
  await r.step('empty a set', () => db.article.update({ userId: 'u1', updatedAt: day(3), articleId: 'a3' }, { set: { tags: new Set() } }));
  await r.step('mark featured', () => db.article.markFeatured({ userId: 'u1', updatedAt: day(4), articleId: 'a4' }, { featuredAt: new Date('2024-03-05T00:00:00Z') }));
  await r.step('mark another featured', () => db.article.markFeatured({ userId: 'u2', updatedAt: day(8), articleId: 'b1' }, { featuredAt: new Date('2024-03-01T00:00:00Z') }));
  const first = await r.step('query a page of 3', () => db.article.query({ userId: 'u1' }, { limit: 3 }));
  await r.step('the next page', () => db.article.query({ userId: 'u1' }, { limit: 3, ...(first?.cursor ? { cursor: first.cursor } : {}) }));
  await r.step('query backwards from day 3', () => db.article.query({ userId: 'u1' }, { where: { lte: { updatedAt: day(3) } }, order: 'desc' }));
  await r.step('query a whole day', () => db.article.query({ userId: 'u1' }, { where: { eq: { updatedAt: day(5) } } }));
  await r.step('recent articles', () => db.article.recentArticles({ userId: 'u1', updatedAt: [day(2), day(5)] }, { limit: 2 }));
  await r.step('articles by name (GSI, all attributes)', () => db.article.articlesByName({ name: 'Odd', updatedAt: day(2) }));
  await r.step('articles by title prefix (LSI, keys only)', () => db.article.articlesByTitlePrefix({ userId: 'u1', name: 'Ev' }));
  await r.step('query by title', () => db.article.queryByTitle({ userId: 'u1' }, { limit: 2 }));
  await r.step('query featured (GSI, some attributes)', () => db.article.queryFeatured({ featuredAt: new Date('2024-03-05T00:00:00Z') }));
  await r.step('clear featured', () => db.article.clearFeatured({ userId: 'u1', updatedAt: day(4), articleId: 'a4' }));
  await r.step('query featured again', () => db.article.queryFeatured({ featuredAt: new Date('2024-03-05T00:00:00Z') }));
  await r.step('batch get articles', () => db.article.batchGet([{ userId: 'u1', updatedAt: day(1), articleId: 'a1' }, { userId: 'u1', updatedAt: day(9), articleId: 'none' }, { userId: 'u2', updatedAt: day(8), articleId: 'b1' }]));
  await r.step('batch delete articles', () => db.article.batchDelete([{ userId: 'u1', updatedAt: day(6), articleId: 'a6' }, { userId: 'u1', updatedAt: day(7), articleId: 'a7' }]));
  // versioned settings
  await r.step('create settings', () => db.settings.create({ userId: 'u1', theme: 'dark', notifications: true, data: { language: 'en', shortcuts: ['k'] } }));
  await r.step('update settings at version 1', () => db.settings.update({ userId: 'u1' }, { set: { theme: 'light' } }, { expectedVersion: 1 }));
  await r.step('update settings at a stale version', () => db.settings.update({ userId: 'u1' }, { set: { theme: 'dark' } }, { expectedVersion: 1 }));
  await r.step('delete settings at a stale version', () => db.settings.delete({ userId: 'u1' }, { expectedVersion: 7 }));
  // counters, scores, shards
  await r.step('increment a counter', () => db.dailyStats.increment({ userId: 'u1', day: day(2) }, { views: 2 }));
  await r.step('increment it again', () => db.dailyStats.increment({ userId: 'u1', day: day(2) }, { views: 3, likes: 1 }));
  // the DocumentClient refuses a number past 2^53 before sending: a plain Error, not an ambiguous write
  await r.step('increment it past 2^53', () => db.dailyStats.increment({ userId: 'u1', day: day(2) }, { views: 2 ** 53 + 2 }));
  await r.step('scores', () => db.score.batchPut([-20, -5, 0, 3, 99].map((points, i) => ({ game: 'chess' as const, day: day(1), playerId: `p${i}`, points }))));
  await r.step('top scores', () => db.score.topScores({ game: 'chess', day: day(1), points: -5 }));
  await r.step('votes', () => db.vote.batchPut(Array.from({ length: 12 }, (_, i) => ({ candidateId: 'c1', voterId: `v${i}`, votedAt: day(1 + (i % 4)) }))));
  await r.step('gather every vote', async () => {
    const all = [];
    for await (const vote of db.vote.queryAll({ candidateId: 'c1' }, { limit: 5 })) all.push(vote);
    return all;
  });
  // edges and transactions
  await r.step('an actor', () => db.actor.put({ id: 'a1', name: 'Lee' }));
  await r.step('a fan edge', () => db.fan.add({ type: 'User', id: 'u1' }, { type: 'Actor', id: 'a1' }, { since: day(2) }));
  await r.step('the same edge again', () => db.fan.add({ type: 'User', id: 'u1' }, { type: 'Actor', id: 'a1' }, { since: day(3) }));
  await r.step('outgoing', () => db.fan.outgoing({ type: 'User', id: 'u1' }));
  await r.step('incoming', () => db.fan.incoming({ type: 'Actor', id: 'a1' }));
  await r.step('follows (inverse in a KEYS_ONLY GSI)', () => db.follow.add({ type: 'User', id: 'u2' }, { type: 'User', id: 'u1' }));
  await r.step('followers', () => db.follow.incoming({ type: 'User', id: 'u1' }));
  await r.step('a transaction that fails its check', () =>
    db.transaction().user.update({ id: 'u1' }, { set: { bio: 'tx' } }).actor.check({ id: 'a1' }, { name: { eq: 'Nobody' } }).commit({ token: 'social-fail' }),
  );
  await r.step('a transaction that commits', () => db.transaction().user.update({ id: 'u1' }, { set: { bio: 'tx' } }).series.create({ id: 's1', title: 'Show' }).commit());
  await r.step('a transaction writing one item twice', () => db.transaction().series.put({ id: 's2', title: 'x' }).series.delete({ id: 's2' }).commit());
  await r.step('the user collection, 4 at a time', () => db.userCollection({ id: 'u1' }, { limit: 4 }));
  await r.step('scan in segments', async () => {
    const all = [];
    for await (const tagged of db.scanSegments({ segments: 3, pageSize: 4 })) all.push(tagged);
    return all.map((t) => JSON.stringify(plain(t))).sort(); // the order of a scan is not defined
  });
}

/** fixtures/fans.ts: a table with a NEW_AND_OLD_IMAGES stream (compared afterwards, record by record). */
export async function fansScenario(db: FansTable, r: Recorder): Promise<void> {
  const since = new Date('2013-07-11T00:00:00.000Z');
  await r.step('put a user', () => db.user.put({ id: 1, name: 'Ada' }));
  await r.step('put it unchanged', () => db.user.put({ id: 1, name: 'Ada' }));
  await r.step('update it', () => db.user.update({ id: 1 }, { set: { name: 'Ada L.' } }));
  await r.step('an actor', () => db.actor.put({ id: 2, name: 'Lee' }));
  await r.step('a series', () => db.series.put({ id: 5, title: 'Boys Over Flowers' }));
  await r.step('an edge', () => db.fan.add({ type: 'User', id: 1 }, { type: 'Actor', id: 2 }, { since, note: 'ep. 1' }));
  await r.step('remove it', () => db.fan.remove({ type: 'User', id: 1 }, { type: 'Actor', id: 2 }));
  await r.step('delete the series', () => db.series.delete({ id: 5 }));
}

/** fixtures/sessions.ts: Time to Live (expired items are hidden by reads, and shown when asked). */
export async function sessionsScenario(db: SessionsTable, r: Recorder): Promise<void> {
  const past = new Date('2001-01-01T00:00:00Z');
  const future = new Date('2100-01-01T00:00:00Z');
  await r.step('a user', () => db.user.put({ userId: 'u1', name: 'Ann' }));
  await r.step('an expired session', () => db.session.put({ sessionId: 's1', userId: 'u1', device: 'd1', createdAt: past, expiresAt: past }));
  await r.step('a live session', () => db.session.put({ sessionId: 's2', userId: 'u1', device: 'd1', createdAt: past, expiresAt: future }));
  await r.step('get the expired session', () => db.session.get({ userId: 'u1', sessionId: 's1' }));
  await r.step('get it, expired included', () => db.session.get({ userId: 'u1', sessionId: 's1' }, { includeExpired: true }));
  await r.step('an invite, accepted (in the sparse index)', () => db.invite.put({ code: 'c1', email: 'e@x', acceptedAt: past }));
  await r.step('an invite not accepted', () => db.invite.put({ code: 'c2', email: 'e@x' }));
  await r.step('sessions by device', () => db.session.queryByDevice({ device: 'd1' }));
  await r.step('sessions by device, expired included', () => db.session.queryByDevice({ device: 'd1' }, { includeExpired: true }));
  await r.step('accepted invites', () => db.invite.queryAccepted({ email: 'e@x' }));
}

/** fixtures/tenants.ts: native multi-attribute GSI keys, renamed attributes, a KEYS_ONLY native index. */
export async function tenantsScenario(db: TenantsTable, r: Recorder): Promise<void> {
  const order = (orderId: string, status: 'OPEN' | 'PAID' | 'SHIPPED', d: number, total: number) => ({ tenantId: 't1', orderId, region: 'eu' as const, status, createdAt: day(d), total });
  await r.step('orders', () => db.order.batchPut([order('o1', 'OPEN', 3, 10), order('o2', 'PAID', 1, 250.5), order('o3', 'OPEN', 2, -4), order('o4', 'SHIPPED', 4, 11), { ...order('o5', 'OPEN', 5, 7), region: 'us' as const }]));
  await r.step('an invoice (renamed index attributes)', () => db.invoice.put({ orgId: 't1', invoiceId: 'i1', region: 'eu', state: 'OPEN', issuedAt: day(2) }));
  await r.step('by tenant and region', () => db.order.queryByTenant({ tenantId: 't1', region: 'eu' }));
  await r.step('open orders', () => db.order.queryByTenant({ tenantId: 't1', region: 'eu' }, { where: { status: 'OPEN' } }));
  await r.step('open orders after day 2', () => db.order.queryByTenant({ tenantId: 't1', region: 'eu' }, { where: { status: 'OPEN', createdAt: { gt: day(2) } }, limit: 1 }));
  await r.step('by total (keys only)', () => db.order.queryByTotal({ tenantId: 't1' }, { where: { total: { between: [0, 100] } } }));
  await r.step('invoices by tenant', () => db.invoice.queryByTenant({ orgId: 't1', region: 'eu' }));
}
