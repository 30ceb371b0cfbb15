// Connected: the seed articles' sharding and time designs behave as the seeds describe, on
// DynamoDB Local — seed 004's election totals under random suffixes (summed on read), its day-keyed
// orders over suffixes 1..200 calculated from the order, events keyed by day whose suffix hashes
// the key's own identity, seed 000's sequence (metadata at position 0, articles 1..n), per-minute
// and per-hour click rollups that keep their bucket's start, and seed 001's weekly tables read
// across with one cursor and swept by independent scan segments.
import { randomUUID } from 'node:crypto';
import anyTest, { type TestFn } from 'ava';
import { ItemExistsError, SeedsTable, ValidationError, seedsTableDefinition } from '../../out/seeds/index.js';
import { WeeklyTable, weeklyTableDefinition } from '../../out/weekly/index.js';
import { scanTable, useDynamoDbLocal, type LocalDynamo } from '../support/dynamodb-local.js';

const test = anyTest as TestFn<{ tableName: string; db: SeedsTable }>;
let local: LocalDynamo;

test.before(async () => {
  local = await useDynamoDbLocal();
});
test.after.always(async () => {
  await local?.stop();
});
test.beforeEach(async (t) => {
  const tableName = `seeds-${randomUUID()}`;
  await local.createTable(seedsTableDefinition(tableName));
  t.context = { tableName, db: new SeedsTable(local.documents, { tableName }) };
});

/** Every stored record of the table, as DynamoDB holds it (pk, sk and attributes), sorted by key. */
async function rawTable(tableName: string): Promise<Array<Record<string, unknown>>> {
  const items = await scanTable(local.documents, tableName);
  return items.sort((a, b) => (String(a['pk']) + String(a['sk']) < String(b['pk']) + String(b['sk']) ? -1 : 1));
}

test('election totals: 100 votes for A land on many of the 20 random shards, and sum reads back 100', async (t) => {
  const { db, tableName } = t.context;
  for (let i = 0; i < 100; i++) await db.voteTotal.increment({ candidateId: 'A' }, { votes: 1 });
  await db.voteTotal.increment({ candidateId: 'B' }, { votes: 7 });
  const raw = await rawTable(tableName);
  const shardsOfA = raw.filter((r) => String(r['pk']).startsWith('Total#A#'));
  t.log('raw layout (candidate A):', JSON.stringify(shardsOfA.map((r) => ({ pk: r['pk'], sk: r['sk'], votes: r['votes'] }))));
  t.true(shardsOfA.length >= 15, `100 random writes touch most of the 20 shards (${shardsOfA.length})`);
  for (const record of shardsOfA) t.regex(String(record['pk']), /^Total#A#(0\d|1\d)$/);
  t.is(shardsOfA.reduce((n, r) => n + (r['votes'] as number), 0), 100);
  t.deepEqual(await db.voteTotal.sum({ candidateId: 'A' }), { votes: 100 });
  t.deepEqual(await db.voteTotal.sum({ candidateId: 'B' }), { votes: 7 });
  t.deepEqual(await db.voteTotal.sum({ candidateId: 'C' }), { votes: 0 }, 'no shard written: 0');
  const all = await db.voteTotal.getAll({ candidateId: 'A' });
  t.is(all.length, shardsOfA.length);
  t.true(all.every((item) => item.candidateId === 'A' && item.votes >= 1));
  const gathered: number[] = [];
  for await (const item of db.voteTotal.queryAll({ candidateId: 'A' }, { limit: 3 })) gathered.push(item.votes);
  t.is(gathered.reduce((a, b) => a + b, 0), 100, 'a gathered query over every shard, one cursor');
  // Random suffixes have no key to address an item by.
  // @ts-expect-error: no get by key for a random-sharded entity
  t.is(db.voteTotal.get, undefined);
  // @ts-expect-error: no update by key either
  t.is(db.voteTotal.update, undefined);
  // @ts-expect-error: nor delete
  t.is(db.voteTotal.delete, undefined);
});

test('day-keyed orders: suffixes 1..200 calculated from the order id; a get, a create and a day\'s query', async (t) => {
  const { db, tableName } = t.context;
  const day = '2014-07-09';
  const orders = Array.from({ length: 40 }, (_, i) => ({ orderId: `order-${i}`, createdAt: new Date(`${day}T${String(i % 24).padStart(2, '0')}:15:00.000Z`), total: i * 10 }));
  await db.order.batchPut(orders);
  const raw = await rawTable(tableName);
  t.log('raw layout (first 5 of the day):', JSON.stringify(raw.slice(0, 5).map((r) => ({ pk: r['pk'], sk: r['sk'], createdAt: r['createdAt'] }))));
  const suffixes = raw.map((r) => Number(/^OrderDay#2014-07-09#(\d{3})$/.exec(String(r['pk']))![1]));
  t.true(suffixes.every((s) => s >= 1 && s <= 200), 'suffixes run 1..200, three digits');
  t.true(new Set(suffixes).size >= 30, `40 orders spread over many suffixes (${new Set(suffixes).size})`);
  const one = orders[7]!;
  t.deepEqual(await db.order.get({ orderId: one.orderId, createdAt: new Date(`${day}T23:59:00.000Z`) }), one, 'any time of the day finds it: one GetItem');
  await t.throwsAsync(db.order.create({ ...one, createdAt: new Date(`${day}T01:00:00.000Z`) }), { instanceOf: ItemExistsError });
  const all: string[] = [];
  for await (const order of db.order.queryAll({ createdAt: new Date(`${day}T12:00:00Z`) }, { limit: 7 })) all.push(order.orderId);
  t.deepEqual(all, orders.map((o) => o.orderId).sort(), 'the day gathered over 200 suffixes, in sort-key order');
});

test('events keyed by day: two writes at 01:00 and 02:00 of one day with one eventId are one item; create refuses the second', async (t) => {
  const { db, tableName } = t.context;
  await db.event.put({ eventId: 'e1', createdAt: new Date('2024-03-01T01:00:00.000Z'), kind: 'first' });
  await db.event.put({ eventId: 'e1', createdAt: new Date('2024-03-01T02:00:00.000Z'), kind: 'second' });
  const raw = await rawTable(tableName);
  t.log('raw layout:', JSON.stringify(raw.map((r) => ({ pk: r['pk'], sk: r['sk'], createdAt: r['createdAt'], kind: r['kind'] }))));
  t.is(raw.length, 1, 'one item: the suffix hashes the day and the id, as the key holds them');
  await t.throwsAsync(db.event.create({ eventId: 'e1', createdAt: new Date('2024-03-01T03:00:00.000Z'), kind: 'third' }), { instanceOf: ItemExistsError });
  t.like(await db.event.get({ eventId: 'e1', createdAt: new Date('2024-03-01T18:30:00.000Z') }), { kind: 'second' });
});

test('$shard is not an input: create with it is refused before any request, and nothing is stored', async (t) => {
  const { db, tableName } = t.context;
  const order = { orderId: 'o-1', createdAt: new Date('2024-03-01T01:00:00.000Z'), total: 1 };
  await db.order.create(order);
  await t.throwsAsync(db.order.create({ ...order, $shard: 7 } as typeof order), { instanceOf: ValidationError, message: /\$shard.*not an attribute/ });
  await t.throwsAsync(db.order.put({ ...order, $shard: 7 } as typeof order), { instanceOf: ValidationError });
  const raw = await rawTable(tableName);
  t.is(raw.length, 1);
  t.false('$shard' in raw[0]!);
});

test('seed 000\'s sequence: the metadata item at position 0 and articles 1..n share a partition; each query returns only its entity; one batched read gets the run', async (t) => {
  const { db, tableName } = t.context;
  const sequences = [
    { sequenceId: 'c-travel', name: 'Travel', titles: ['Lisbon', 'Kyoto', 'Oaxaca'] },
    { sequenceId: 'c-food', name: 'Food', titles: ['Bread', 'Miso'] },
  ];
  for (const { sequenceId, name, titles } of sequences) {
    await db.article.batchPut(titles.map((title, i) => ({ userId: 'u1', position: i + 1, sequenceId, title })));
    // The metadata item last, with the count: once it exists the sequence is complete.
    await db.category.put({ userId: 'u1', sequenceId, name, count: titles.length });
  }
  const raw = await rawTable(tableName);
  t.deepEqual(raw.map((r) => String(r['sk'])), ['0#c-food', '0#c-travel', '0001#c-food', '0001#c-travel', '0002#c-food', '0002#c-travel', '0003#c-travel']);
  const categories = (await db.category.query({ userId: 'u1' })).items;
  t.deepEqual(categories.map((c) => `${c.name}:${c.count}`), ['Food:2', 'Travel:3'], 'categories by their own prefix 0#');
  const articles: string[] = [];
  for await (const article of db.article.queryAll({ userId: 'u1' }, { limit: 2 })) articles.push(article.title);
  t.deepEqual(articles, ['Bread', 'Lisbon', 'Miso', 'Kyoto', 'Oaxaca'], 'article queries read the partition and skip the metadata items');
  const travel = categories.find((c) => c.sequenceId === 'c-travel')!;
  const run = await db.article.getPositionRange({ userId: 'u1', sequenceId: travel.sequenceId }, 1, travel.count);
  t.deepEqual(run.map((a) => a?.title), ['Lisbon', 'Kyoto', 'Oaxaca'], 'positions 1..n in one batched call');
  const collection = (await db.categoryCollection({ userId: 'u1' })).items.map((entry) => entry.type);
  t.deepEqual(collection, ['Category', 'Category', 'Article', 'Article', 'Article', 'Article', 'Article'], 'the collection read tags both');
});

test('rollups: per-minute and per-hour click counters keep their bucket\'s start, not the first event\'s time', async (t) => {
  const { db, tableName } = t.context;
  const times = ['2024-05-06T10:59:46.655Z', '2024-05-06T10:59:01.000Z', '2024-05-06T10:12:00.000Z', '2024-05-06T11:00:00.001Z'];
  for (const at of times) {
    await db.clickMinute.increment({ url: '/a', eventTime: new Date(at) }, { clicks: 1 });
    await db.clickHour.increment({ url: '/a', eventTime: new Date(at) }, { clicks: 1 });
  }
  const raw = await rawTable(tableName);
  t.log('raw layout:', JSON.stringify(raw.map((r) => ({ pk: r['pk'], sk: r['sk'], eventTime: r['eventTime'], clicks: r['clicks'] }))));
  t.deepEqual(
    raw.map((r) => `${r['pk']} ${r['sk']} ${r['eventTime']} ${r['clicks']}`),
    [
      'ClickHour#/a 2024-05-06T10 2024-05-06T10:00:00.000Z 3',
      'ClickHour#/a 2024-05-06T11 2024-05-06T11:00:00.000Z 1',
      'ClickMinute#/a 2024-05-06T10:12 2024-05-06T10:12:00.000Z 1',
      'ClickMinute#/a 2024-05-06T10:59 2024-05-06T10:59:00.000Z 2',
      'ClickMinute#/a 2024-05-06T11:00 2024-05-06T11:00:00.000Z 1',
    ],
  );
  t.deepEqual(await db.clickMinute.get({ url: '/a', eventTime: new Date('2024-05-06T10:59:30Z') }), { url: '/a', eventTime: new Date('2024-05-06T10:59:00.000Z'), clicks: 2 });
  await db.clickHour.put({ url: '/b', eventTime: new Date('2024-05-06T08:45:00Z'), clicks: 5 });
  t.deepEqual((await db.clickHour.query({ url: '/b' })).items, [{ url: '/b', eventTime: new Date('2024-05-06T08:00:00.000Z'), clicks: 5 }], 'put truncates too');
});

test('weekly tables: ISO weeks (across a year end), a time range read across three tables with one cursor, and scan segments run apart', async (t) => {
  const base = `weekly-${randomUUID()}`;
  // 2020-12-31 is in 2020-W53, 2021-01-04 starts 2021-W01.
  const from = new Date('2020-12-30T00:00:00Z');
  const to = new Date('2021-01-12T00:00:00Z');
  const tables = WeeklyTable.tablesBetween(from, to, base);
  t.deepEqual(tables, [`${base}_2020-W53`, `${base}_2021-W01`, `${base}_2021-W02`]);
  for (const name of tables) await local.createTable(weeklyTableDefinition(name));
  const readings = Array.from({ length: 14 }, (_, i) => ({ sensorId: 's1', at: new Date(from.getTime() + i * 86_400_000 + 3_600_000), value: i }));
  for (const reading of readings) await WeeklyTable.forTime(local.documents, reading.at, { tableName: base }).reading.put(reading);
  t.is(WeeklyTable.tableNameFor(new Date('2021-01-03T23:59:59Z'), base), `${base}_2020-W53`, 'Sunday closes the ISO week');
  const db = WeeklyTable.forTime(local.documents, to, { tableName: base });
  const range = { from: new Date('2021-01-01T00:00:00Z'), to: new Date('2021-01-10T12:00:00Z') };
  const want = readings.filter((r) => r.at >= range.from && r.at <= range.to);
  for (const order of ['asc', 'desc'] as const) {
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await db.reading.queryAcrossTables({ sensorId: 's1' }, range, { limit: 3, order, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((r) => r.value));
      cursor = page.cursor;
    } while (cursor);
    t.deepEqual(seen, (order === 'asc' ? want : [...want].reverse()).map((r) => r.value), order);
  }
  // Segment k of 3, each run on its own (as separate workers would), together read the week's table once.
  const week = WeeklyTable.forTime(local.documents, new Date('2021-01-05T00:00:00Z'), { tableName: base });
  const parts = await Promise.all(
    [0, 1, 2].map(async (segment) => {
      const out: number[] = [];
      for await (const entry of week.scanSegments({ segments: 3, segment })) out.push((entry.item as { value: number }).value);
      return out;
    }),
  );
  t.deepEqual(parts.flat().sort((a, b) => a - b), readings.filter((r) => WeeklyTable.tableNameFor(r.at, base) === `${base}_2021-W01`).map((r) => r.value));
  await t.throwsAsync(week.scanSegments({ segments: 3, segment: 3 }).next(), { instanceOf: RangeError });
});
