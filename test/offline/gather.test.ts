// Scatter-gather, offline: the shard hash (golden vectors, spread), and a model test of gathered
// pagination against a fake DynamoDB that answers Query from in-memory shards.
import test from 'ava';
import fc from 'fast-check';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KeyTemplate, SHARD, SHARD_SEGMENT, compareUtf8, shardOf } from '../../out/social/runtime/codec.js';
import { gatherPage, shardPartitions, timeBuckets } from '../../out/social/runtime/gather.js';
import type { QueryRequest } from '../../out/social/runtime/read.js';

test('shard hash: golden vectors (FNV-1a 32-bit over UTF-8, computed independently)', (t) => {
  const vectors: Array<[unknown[], number, number]> = [
    [['a'], 1000, 0xe40c292c % 1000],
    [['voter-1'], 10, 0x679bba0b % 10],
    [['voter-1'], 100, 0x679bba0b % 100],
    [['😀'], 97, 0x33a29608 % 97],
    [['u', 3, true, new Date(0)], 16, 0x20178b64 % 16],
    [[''], 10, 0x811c9dc5 % 10],
  ];
  for (const [values, count, want] of vectors) t.is(shardOf(values, count), want, JSON.stringify(values));
});

test('shard hash: 100,000 ids spread evenly over 10 and 100 shards', (t) => {
  for (const [n, bound] of [[10, 1.05], [100, 1.3]] as const) {
    const counts = new Array<number>(n).fill(0);
    for (let i = 0; i < 100_000; i++) counts[shardOf([`user-${i}`], n)]!++;
    const ratio = Math.max(...counts) / Math.min(...counts);
    t.true(ratio < bound, `max/min over ${n} shards is ${ratio.toFixed(3)}`);
  }
});

const pk = new KeyTemplate({ entity: 'E', target: 'E.key.pk', delimiter: '#', maxBytes: 2048, segments: [{ kind: 'literal', text: 'P' }, { kind: 'shard', attr: SHARD_SEGMENT, count: 1, by: [] }] });

/** A fake DynamoDB: items per partition, sorted by sk in UTF-8 order; honours Limit, order and ExclusiveStartKey. */
function fakeShards(items: Array<{ pk: string; sk: string }>) {
  let queries = 0;
  const client = {
    send: async (command: unknown) => {
      if (!(command instanceof QueryCommand)) throw new Error('unexpected');
      queries++;
      const input = command.input;
      const key = input.ExpressionAttributeValues![':v0'] as string;
      const forward = input.ScanIndexForward !== false;
      let rows = items.filter((i) => i.pk === key).sort((a, b) => compareUtf8(a.sk, b.sk) * (forward ? 1 : -1));
      const start = input.ExclusiveStartKey as { sk: string } | undefined;
      if (start) rows = rows.filter((r) => compareUtf8(r.sk, start.sk) * (forward ? 1 : -1) > 0);
      const limit = input.Limit ?? Infinity;
      const page = rows.slice(0, limit);
      return { Items: page, ...(rows.length > limit ? { LastEvaluatedKey: { pk: key, sk: page[page.length - 1]!.sk } } : {}) };
    },
  } as unknown as DynamoDBDocumentClient;
  return { ctx: { client, tableName: 'social-test' }, queries: () => queries };
}

test('model: gathered pages concatenate to the globally sorted result, with no duplicates or gaps, from any cursor', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 12 }),
      fc.array(fc.tuple(fc.nat(), fc.string({ unit: fc.constantFrom('a', 'b', 'é', '😀', '\uFFFF', '0'), minLength: 1, maxLength: 3 })), { maxLength: 60 }),
      fc.integer({ min: 1, max: 9 }),
      fc.boolean(),
      async (shards, raw, limit, desc) => {
        const template = new KeyTemplate({ ...pk.def, segments: [{ kind: 'literal', text: 'P' }, { kind: 'shard', attr: SHARD_SEGMENT, count: shards, by: [] }] });
        const unique = new Map(raw.map(([s, sk]) => [`${s % shards}|${sk}`, { pk: template.build({ [SHARD]: s % shards }), sk }]));
        const items = [...unique.values()];
        const { ctx } = fakeShards(items);
        const request: QueryRequest = { scope: 'E.query', pk: { attribute: 'pk', template }, partition: {}, sk: { attribute: 'sk', condition: undefined }, params: {}, keyAttributes: ['pk', 'sk'], order: desc ? 'desc' : 'asc' };
        const expected = [...items].sort((a, b) => (compareUtf8(a.sk, b.sk) || compareUtf8(a.pk, b.pk)) * (desc ? -1 : 1)).map((i) => `${i.pk}|${i.sk}`);
        const seen: string[] = [];
        const cursors: Array<string | undefined> = [undefined];
        let cursor: string | undefined;
        do {
          const page = await gatherPage(ctx, request, shardPartitions({}, template), { limit, ...(cursor ? { cursor } : {}) }, (r) => `${r['pk']}|${r['sk']}`);
          if (page.items.length > limit) return false;
          seen.push(...page.items);
          cursor = page.cursor;
          cursors.push(cursor);
        } while (cursor);
        if (JSON.stringify(seen) !== JSON.stringify(expected)) return false;
        // Resuming from any cursor gives the same continuation.
        for (let i = 1; i < cursors.length - 1; i++) {
          const rest: string[] = [];
          let c: string | undefined = cursors[i];
          while (c) {
            const page = await gatherPage(ctx, request, shardPartitions({}, template), { limit, cursor: c }, (r) => `${r['pk']}|${r['sk']}`);
            rest.push(...page.items);
            c = page.cursor;
          }
          if (JSON.stringify(rest) !== JSON.stringify(expected.slice(i * limit))) return false;
        }
        return true;
      },
    ),
    { numRuns: 200 },
  );
  t.pass();
});

test('model: a gathered walk stays monotonic while writes land behind it, and returns everything written before it began', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 2, max: 8 }),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 999 })), { maxLength: 40 }),
      // Between pages: writes (shard, sk) landing anywhere, before or after the walk's position.
      fc.array(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 999 })), { maxLength: 4 }), { maxLength: 20 }),
      fc.integer({ min: 1, max: 6 }),
      async (shards, initial, writes, limit) => {
        const template = new KeyTemplate({ ...pk.def, segments: [{ kind: 'literal', text: 'P' }, { kind: 'shard', attr: SHARD_SEGMENT, count: shards, by: [] }] });
        const items: Array<{ pk: string; sk: string }> = [];
        const write = ([s, n]: [number, number]) => {
          const item = { pk: template.build({ [SHARD]: s % shards }), sk: String(n).padStart(3, '0') };
          if (!items.some((i) => i.pk === item.pk && i.sk === item.sk)) items.push(item);
        };
        initial.forEach(write);
        const before = new Set(items.map((i) => `${i.pk}|${i.sk}`));
        const { ctx } = fakeShards(items);
        const request: QueryRequest = { scope: 'E.query', pk: { attribute: 'pk', template }, partition: {}, sk: { attribute: 'sk', condition: undefined }, params: {}, keyAttributes: ['pk', 'sk'], order: 'asc' };
        const seen: Array<{ pk: string; sk: string }> = [];
        let cursor: string | undefined;
        let round = 0;
        do {
          const page = await gatherPage(ctx, request, shardPartitions({}, template), { limit, ...(cursor ? { cursor } : {}) }, (r) => ({ pk: r['pk'] as string, sk: r['sk'] as string }));
          seen.push(...page.items);
          cursor = page.cursor;
          (writes[round++] ?? []).forEach(write);
        } while (cursor);
        const order = (a: { pk: string; sk: string }, b: { pk: string; sk: string }) => compareUtf8(a.sk, b.sk) || compareUtf8(a.pk, b.pk);
        for (let i = 1; i < seen.length; i++) if (order(seen[i - 1]!, seen[i]!) >= 0) return false;
        const returned = new Set(seen.map((i) => `${i.pk}|${i.sk}`));
        return [...before].every((id) => returned.has(id));
      },
    ),
    { numRuns: 300 },
  );
  t.pass();
});

test('a gathered walk never goes back: an event written at 00:25 into a shard page 1 took nothing from is not returned after 00:30', async (t) => {
  const template = new KeyTemplate({ ...pk.def, segments: [{ kind: 'literal', text: 'P' }, { kind: 'shard', attr: SHARD_SEGMENT, count: 8, by: [] }] });
  const at = (seconds: number) => `00:${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
  // 16 events 10 s apart over 8 shards: page 1 takes 00:00..00:30 from shards 0..3 and nothing from 4..7.
  const items = Array.from({ length: 16 }, (_, i) => ({ pk: template.build({ [SHARD]: i % 8 }), sk: at(i * 10) }));
  const { ctx } = fakeShards(items);
  const request: QueryRequest = { scope: 'E.query', pk: { attribute: 'pk', template }, partition: {}, sk: { attribute: 'sk', condition: undefined }, params: {}, keyAttributes: ['pk', 'sk'], order: 'asc' };
  const first = await gatherPage(ctx, request, shardPartitions({}, template), { limit: 4 }, (r) => r['sk'] as string);
  t.deepEqual(first.items, ['00:00:00', '00:00:10', '00:00:20', '00:00:30']);
  items.push({ pk: template.build({ [SHARD]: 5 }), sk: '00:00:25' });
  const second = await gatherPage(ctx, request, shardPartitions({}, template), { limit: 4, cursor: first.cursor! }, (r) => r['sk'] as string);
  t.deepEqual(second.items, ['00:00:40', '00:00:50', '00:01:00', '00:01:10']);
});

test('a page stops early: shards are not read past what the page needs', async (t) => {
  const template = new KeyTemplate({ ...pk.def, segments: [{ kind: 'literal', text: 'P' }, { kind: 'shard', attr: SHARD_SEGMENT, count: 4, by: [] }] });
  const items = Array.from({ length: 400 }, (_, i) => ({ pk: template.build({ [SHARD]: i % 4 }), sk: String(i).padStart(3, '0') }));
  const fake = fakeShards(items);
  const request: QueryRequest = { scope: 'E.query', pk: { attribute: 'pk', template }, partition: {}, sk: { attribute: 'sk', condition: undefined }, params: {}, keyAttributes: ['pk', 'sk'], order: 'asc' };
  const page = await gatherPage(fake.ctx, request, shardPartitions({}, template), { limit: 5 }, (r) => r['sk']);
  t.deepEqual(page.items, ['000', '001', '002', '003', '004']);
  t.is(fake.queries(), 4, 'one query per shard, each asking for its share of the page');
});

test('time buckets: every UTC minute, hour, day or month a range touches, and a refusal for huge ranges', (t) => {
  const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
  t.deepEqual(iso(timeBuckets(new Date('2024-01-31T22:30:00Z'), new Date('2024-02-01T01:00:00Z'), 'hour')), ['2024-01-31T22:00:00.000Z', '2024-01-31T23:00:00.000Z', '2024-02-01T00:00:00.000Z', '2024-02-01T01:00:00.000Z']);
  t.deepEqual(iso(timeBuckets(new Date('2023-11-15T00:00:00Z'), new Date('2024-02-01T00:00:00Z'), 'month')), ['2023-11-01T00:00:00.000Z', '2023-12-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z']);
  t.deepEqual(iso(timeBuckets(new Date('2024-01-01T00:00:00Z'), new Date('2024-01-01T00:00:00Z'), 'day')), ['2024-01-01T00:00:00.000Z']);
  t.throws(() => timeBuckets(new Date('2024-01-01T00:00:00Z'), new Date('2025-01-01T00:00:00Z'), 'minute'), { message: /more than 10000 minute buckets/ });
  t.throws(() => timeBuckets(new Date(10), new Date(0), 'day'), { message: /is after to/ });
});
