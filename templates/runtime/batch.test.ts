// Fault injection for batches: a fake DocumentClient that leaves random subsets unprocessed or throttles.
import { inspect } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { UnprocessedItemsError, backoffDelay, batchGetRecords, batchWriteRecords, keyId, type RetryPolicy } from './batch.js';

type Item = { pk: string; sk: string; v?: number };

/** A small seeded uniform PRNG, so a failing case replays exactly. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An in-memory table behind BatchWrite/BatchGet that drops requests as `fault` decides. */
function fakeTable(fault: (attempt: number) => { unprocessed: (i: number) => boolean; throttle?: boolean }) {
  const items = new Map<string, Record<string, unknown>>();
  const sizes: number[] = [];
  let attempt = 0;
  const client = {
    async send(command: unknown) {
      const f = fault(attempt++);
      if (f.throttle) throw Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' });
      if (command instanceof BatchWriteCommand) {
        const requests = command.input.RequestItems!['t']!;
        sizes.push(requests.length);
        const dropped = requests.map((_, i) => f.unprocessed(i));
        const left = requests.filter((_, i) => dropped[i]);
        for (const r of requests.filter((_, i) => !dropped[i])) {
          if (r.PutRequest) items.set(keyId(r.PutRequest.Item!, ['pk', 'sk']), r.PutRequest.Item!);
          else items.delete(keyId(r.DeleteRequest!.Key!, ['pk', 'sk']));
        }
        return { UnprocessedItems: left.length ? { t: left } : {} };
      }
      if (command instanceof BatchGetCommand) {
        const keys = command.input.RequestItems!['t']!.Keys!;
        sizes.push(keys.length);
        const dropped = keys.map((_, i) => f.unprocessed(i));
        const found = keys.filter((_, i) => !dropped[i]).flatMap((k) => items.get(keyId(k, ['pk', 'sk'])) ?? []);
        const left = keys.filter((_, i) => dropped[i]);
        return { Responses: { t: found }, UnprocessedKeys: left.length ? { t: { Keys: left } } : {} };
      }
      throw new Error('unexpected command');
    },
  };
  return { ctx: { client: client as unknown as DynamoDBDocumentClient, tableName: 't' }, items, sizes };
}

const instant: RetryPolicy = { sleep: async () => undefined, maxAttempts: 60, concurrency: 3 };
const puts = (n: number) => Array.from({ length: n }, (_, i) => ({ PutRequest: { Item: { pk: `p${i % 7}`, sk: `s${i}`, v: i } as Item } }));

test('every write lands exactly once despite random unprocessed subsets and throttles', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: 120 }), fc.double({ min: 0, max: 0.8, noNaN: true }), fc.integer(), async (n, p, seed) => {
      const next = mulberry32(seed);
      const table = fakeTable(() => ({ unprocessed: () => next() < p, throttle: next() < p / 4 }));
      await batchWriteRecords(table.ctx, puts(n), ['pk', 'sk'], { ...instant, random: next });
      return table.items.size === n && table.sizes.every((s) => s <= 25) && [...table.items.values()].every((item) => item['v'] === Number(String(item['sk']).slice(1)));
    }),
    { numRuns: 60 },
  );
  t.pass();
});

test('when the budget runs out, the error carries exactly what did not land', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 1, max: 4 }), fc.integer(), async (n, maxAttempts, seed) => {
      const next = mulberry32(seed);
      const table = fakeTable(() => ({ unprocessed: () => next() < 0.5 || maxAttempts === 1 }));
      const requests = puts(n);
      try {
        await batchWriteRecords(table.ctx, requests, ['pk', 'sk'], { ...instant, maxAttempts });
        return table.items.size === n;
      } catch (error) {
        if (!(error instanceof UnprocessedItemsError)) throw error;
        const left = (error.unprocessed as typeof requests).map((u) => keyId(u.PutRequest.Item, ['pk', 'sk']));
        const landed = [...table.items.keys()];
        const all = requests.map((u) => keyId(u.PutRequest.Item, ['pk', 'sk'])).sort();
        return error.attempts <= maxAttempts && left.every((k) => !landed.includes(k)) && [...left, ...landed].sort().join() === all.join();
      }
    }),
    { numRuns: 80 },
  );
  t.pass();
});

test('all unprocessed on every attempt: nothing lands and everything is reported', async (t) => {
  const table = fakeTable(() => ({ unprocessed: () => true }));
  const error = await t.throwsAsync(batchWriteRecords(table.ctx, puts(30), ['pk', 'sk'], { ...instant, maxAttempts: 3 }), { instanceOf: UnprocessedItemsError });
  t.is(error.unprocessed.length, 30);
  t.is(error.code, 'UNPROCESSED_ITEMS');
  t.is(error.message, 'batchWrite: 30 item(s) still unprocessed after 3 attempt(s); they are in error.unprocessed');
  t.false(Object.keys(error).includes('unprocessed'), 'not enumerable: logging the error does not print the items');
  t.false(inspect(error, { depth: Infinity }).includes('PutRequest'));
  t.is(table.items.size, 0);
});

test('a throttle with nothing processed is retried; other errors are not', async (t) => {
  const table = fakeTable((attempt) => ({ unprocessed: () => false, throttle: attempt < 2 }));
  await batchWriteRecords(table.ctx, puts(5), ['pk', 'sk'], instant);
  t.is(table.items.size, 5);
  const broken = { ctx: { client: { send: async () => Promise.reject(Object.assign(new Error('bad'), { name: 'ValidationException' })) } as unknown as DynamoDBDocumentClient, tableName: 't' } };
  await t.throwsAsync(batchWriteRecords(broken.ctx, puts(1), ['pk', 'sk'], instant), { name: 'ValidationException' });
});

test('duplicate keys: the last request wins, and only one is sent', async (t) => {
  const table = fakeTable(() => ({ unprocessed: () => false }));
  await batchWriteRecords(table.ctx, [
    { PutRequest: { Item: { pk: 'a', sk: '1', v: 1 } } },
    { PutRequest: { Item: { pk: 'a', sk: '1', v: 2 } } },
    { PutRequest: { Item: { pk: 'b', sk: '1', v: 3 } } },
    { DeleteRequest: { Key: { pk: 'b', sk: '1' } } },
  ], ['pk', 'sk'], instant);
  t.deepEqual([...table.items.values()], [{ pk: 'a', sk: '1', v: 2 }]);
  t.deepEqual(table.sizes, [2]);
});

test('batch get: every stored key is found despite unprocessed keys, 100 per request', async (t) => {
  const table = fakeTable(() => ({ unprocessed: () => false }));
  await batchWriteRecords(table.ctx, puts(250), ['pk', 'sk'], instant);
  let flip = 0;
  const reading = fakeTable(() => ({ unprocessed: () => flip++ % 3 === 0 }));
  for (const [k, v] of table.items) reading.items.set(k, v);
  const keys = [...table.items.values()].map((i) => ({ pk: i['pk'], sk: i['sk'] }));
  const found = await batchGetRecords(reading.ctx, [...keys, ...keys.slice(0, 10), { pk: 'none', sk: 'x' }], ['pk', 'sk'], { policy: instant });
  t.is(found.size, 250);
  t.true(reading.sizes.every((s) => s <= 100));
});

test('backoff is full jitter under a capped exponential ceiling', (t) => {
  const policy = { baseDelayMs: 10, maxDelayMs: 300 };
  for (let attempt = 0; attempt < 12; attempt++) {
    const ceiling = Math.min(300, 10 * 2 ** attempt);
    t.is(backoffDelay(attempt, { ...policy, random: () => 0 }), 0);
    t.is(backoffDelay(attempt, { ...policy, random: () => 0.999999 }), ceiling - 1);
  }
});

test('the time budget stops retries even with attempts left', async (t) => {
  let now = 0;
  const table = fakeTable(() => ({ unprocessed: () => true }));
  const error = await t.throwsAsync(
    batchWriteRecords(table.ctx, puts(3), ['pk', 'sk'], { maxAttempts: 1000, budgetMs: 1000, random: () => 0.5, now: () => now, sleep: async (ms) => void (now += ms) }),
    { instanceOf: UnprocessedItemsError },
  );
  t.true(now <= 1000);
  t.true(error.attempts < 1000);
});
