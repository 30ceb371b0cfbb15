// Connected: write-sharded keys and scatter-gather reads on DynamoDB Local — the seed's election
// votes (candidate + calculated shard) and the time-series GSI scattered over 16 keys — and a
// differential test of our UTF-8 comparator against DynamoDB Local's own ordering.
import { randomUUID } from 'node:crypto';
import anyTest, { type TestFn } from 'ava';
import { QueryCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { SocialTable, VoteKeys, socialTableDefinition } from '../../out/social/index.js';
import { ClicksTable, clicksTableDefinition } from '../../out/clicks/index.js';
import { compareUtf8 } from '../../out/social/runtime/codec.js';
import { useDynamoDbLocal, type LocalDynamo } from '../support/dynamodb-local.js';

const test = anyTest as TestFn<{ tableName: string }>;
let local: LocalDynamo;

test.before(async () => {
  local = await useDynamoDbLocal();
});
test.after.always(async () => {
  await local?.stop();
});
test.beforeEach((t) => {
  t.context = { tableName: `t-${randomUUID()}` };
});

test('votes: writes spread over 10 shard keys per candidate; a query gathers them in order, page by page', async (t) => {
  await local.createTable(socialTableDefinition(t.context.tableName));
  const db = new SocialTable(local.documents, { tableName: t.context.tableName, gatherConcurrency: 4 });
  const start = Date.UTC(2024, 10, 5, 20);
  const votes = Array.from({ length: 120 }, (_, i) => ({ candidateId: i % 3 === 0 ? 'B' : 'A', voterId: `voter-${i}`, votedAt: new Date(start + i * 1000) }));
  await db.vote.batchPut(votes);
  const scanned = await local.documents.send(new ScanCommand({ TableName: t.context.tableName }));
  const keys = new Set(scanned.Items!.map((i) => i['pk'] as string));
  t.deepEqual([...keys].filter((k) => k.startsWith('Candidate.A.')).sort(), Array.from({ length: 10 }, (_, i) => `Candidate.A.${i}`), 'candidate A is on all 10 shards');

  const expected = votes.filter((v) => v.candidateId === 'A').map((v) => v.voterId);
  for (const limit of [7, 25, 100]) {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await db.vote.query({ candidateId: 'A' }, { limit, ...(cursor ? { cursor } : {}) });
      t.true(page.items.length <= limit);
      seen.push(...page.items.map((v) => v.voterId));
      cursor = page.cursor;
    } while (cursor);
    t.deepEqual(seen, expected, `limit ${limit}: every vote once, in votedAt order`);
  }
  const latest = await db.vote.query({ candidateId: 'A' }, { order: 'desc', limit: 3 });
  t.deepEqual(latest.items.map((v) => v.voterId), expected.slice(-3).reverse());
  const since = await db.vote.query({ candidateId: 'B' }, { where: { gte: { votedAt: new Date(start + 100_000) } } });
  t.deepEqual(since.items.map((v) => v.voterId), votes.filter((v) => v.candidateId === 'B' && v.votedAt.getTime() >= start + 100_000).map((v) => v.voterId));

  const one = votes[4]!;
  t.deepEqual(await db.vote.get({ candidateId: one.candidateId, votedAt: one.votedAt, voterId: one.voterId }), one, 'a calculated shard needs no extra input to get');
  t.regex(VoteKeys.key(one).pk, /^Candidate\.A\.\d$/);
});

test('time-series GSI: clicks scattered over 16 keys are read back for a time range in eventTime order', async (t) => {
  await local.createTable(clicksTableDefinition(t.context.tableName));
  const db = new ClicksTable(local.documents, { tableName: t.context.tableName });
  const base = Date.UTC(2024, 0, 1);
  const clicks = Array.from({ length: 80 }, (_, i) => ({ referrer: `site-${i % 5}`, clickId: `c${i}`, eventTime: new Date(base + ((i * 7919) % 80) * 60_000), url: `/p/${i}` }));
  await db.click.batchPut(clicks);
  const from = new Date(base + 30 * 60_000);
  const expected = clicks.filter((c) => c.eventTime >= from).sort((a, b) => a.eventTime.getTime() - b.eventTime.getTime()).map((c) => c.clickId);
  const seen: string[] = [];
  for await (const click of db.click.clicksSinceAll({ eventTime: from }, { limit: 9 })) seen.push(click.clickId);
  t.deepEqual(seen, expected);
  const scanned = await local.documents.send(new ScanCommand({ TableName: t.context.tableName }));
  t.true(new Set(scanned.Items!.map((i) => i['gsi1pk'])).size >= 12, 'the GSI key is scattered');
});

test('a time range over hour buckets and shards: every matching view once, in time order, both directions', async (t) => {
  await local.createTable(clicksTableDefinition(t.context.tableName));
  const db = new ClicksTable(local.documents, { tableName: t.context.tableName });
  const base = Date.UTC(2024, 2, 10, 0, 0);
  const views = Array.from({ length: 240 }, (_, i) => ({ site: i % 7 === 0 ? 'other' : 'main', at: new Date(base + ((i * 37) % 360) * 60_000), viewId: `v${i}`, path: '/' }));
  await db.pageView.batchPut(views);
  const from = new Date(base + 90 * 60_000);
  const to = new Date(base + 255 * 60_000);
  const expected = views
    .filter((v) => v.site === 'main' && v.at >= from && v.at <= to)
    .sort((a, b) => a.at.getTime() - b.at.getTime() || (a.viewId < b.viewId ? -1 : 1))
    .map((v) => v.viewId);
  for (const order of ['asc', 'desc'] as const) {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await db.pageView.queryBetween({ site: 'main' }, { from, to }, { limit: 13, order, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((v) => v.viewId));
      cursor = page.cursor;
    } while (cursor);
    t.deepEqual(seen, order === 'asc' ? expected : [...expected].reverse(), order);
  }
});

test('table rotation: one table per month, picked by time', async (t) => {
  const base = t.context.tableName;
  t.deepEqual(ClicksTable.tablesBetween(new Date('2024-01-20T00:00:00Z'), new Date('2024-03-02T00:00:00Z'), base), [`${base}_2024-01`, `${base}_2024-02`, `${base}_2024-03`]);
  t.is(ClicksTable.tableNameFor(new Date('2024-02-29T23:59:59Z'), base), `${base}_2024-02`);
  for (const name of ClicksTable.tablesBetween(new Date('2024-01-01T00:00:00Z'), new Date('2024-02-01T00:00:00Z'), base)) await local.createTable(clicksTableDefinition(name));
  const january = new Date('2024-01-15T12:00:00Z');
  const february = new Date('2024-02-15T12:00:00Z');
  for (const at of [january, february]) {
    await ClicksTable.forTime(local.documents, at, { tableName: base }).click.put({ referrer: 'r', clickId: at.toISOString(), eventTime: at, url: '/' });
  }
  const inJanuary = await ClicksTable.forTime(local.documents, january, { tableName: base }).click.query({ referrer: 'r' });
  t.deepEqual(inJanuary.items.map((c) => c.clickId), [january.toISOString()]);
  t.is(ClicksTable.forTime(local.documents, february, { tableName: base }).tableName, `${base}_2024-02`);
});

test('our UTF-8 comparator orders sort keys exactly as DynamoDB Local does, astral characters included', async (t) => {
  await local.createTable(socialTableDefinition(t.context.tableName));
  const values = ['a', 'b', 'Z', 'é', 'ü', '\u07FF', '\u0800', '\uD7FF', '\uE000', '\uFFFD', '\uFFFF', '😀', '𝄞', '\u{10FFFF}', 'a😀', 'a\uFFFF', 'ab', '~', '0', '.'];
  for (const sk of values) await local.documents.send(new PutCommand({ TableName: t.context.tableName, Item: { pk: 'ORDER', sk } }));
  const result = await local.documents.send(new QueryCommand({ TableName: t.context.tableName, KeyConditionExpression: '#p = :p', ExpressionAttributeNames: { '#p': 'pk' }, ExpressionAttributeValues: { ':p': 'ORDER' } }));
  const local_ = result.Items!.map((i) => i['sk'] as string);
  t.deepEqual(local_, [...values].sort(compareUtf8));
  t.notDeepEqual([...values].sort(), local_, 'JavaScript\'s default sort differs (UTF-16 code units)');
});
