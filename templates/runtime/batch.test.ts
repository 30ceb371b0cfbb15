// Fault injection for batches: a fake DocumentClient that leaves random subsets unprocessed or throttles.
// The tests run one at a time (test.serial): the batch's time budget (30 s without progress) and the
// order of requests in flight are real time, which other tests' CPU-bound work in the same event loop
// (this file's property tests, or another file's in a group, see test/groups/) would stretch.
import { inspect } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backoffDelay, batchGetRecords, batchWriteRecords, keyId, type RetryPolicy } from './batch.js';
import { BatchError, UnprocessedItemsError } from './errors.js';

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
const puts = (n: number) => Array.from({ length: n }, (_, i) => ({ pk: `p${i % 7}`, sk: `s${i}`, v: i }) as Item);
const asWrites = (items: readonly Item[]) => items.map((source) => ({ request: { PutRequest: { Item: source } }, source }));
const asReads = (items: readonly Item[]) => items.map(({ pk, sk }) => ({ key: { pk, sk }, source: { pk, sk } }));
const id = (item: Readonly<Record<string, unknown>>) => keyId(item, ['pk', 'sk']);
const write = (table: ReturnType<typeof fakeTable>, items: readonly Item[], policy: RetryPolicy) =>
  batchWriteRecords(table.ctx, { operation: 'batchPut', entity: 'Item' }, asWrites(items), ['pk', 'sk'], policy);
const read = (table: ReturnType<typeof fakeTable>, items: readonly Item[], policy: RetryPolicy) =>
  batchGetRecords(table.ctx, { operation: 'batchGet', entity: 'Item' }, asReads(items), ['pk', 'sk'], (stored) => stored as Item, { policy });

test.serial('every write lands exactly once despite random unprocessed subsets and throttles', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: 120 }), fc.double({ min: 0, max: 0.8, noNaN: true }), fc.integer(), async (n, p, seed) => {
      const next = mulberry32(seed);
      const table = fakeTable(() => ({ unprocessed: () => next() < p, throttle: next() < p / 4 }));
      await write(table, puts(n), { ...instant, random: next });
      return table.items.size === n && table.sizes.every((s) => s <= 25) && [...table.items.values()].every((item) => item['v'] === Number(String(item['sk']).slice(1)));
    }),
    { numRuns: 60 },
  );
  t.pass();
});

test.serial('the default policy finishes 10,000 writes and reads under 30 % unprocessed and 10 % throttles, every time', async (t) => {
  const items = puts(10_000);
  for (let seed = 1; seed <= 12; seed++) {
    const next = mulberry32(seed);
    const table = fakeTable(() => ({ unprocessed: () => next() < 0.3, throttle: next() < 0.1 }));
    const fast = { sleep: async () => undefined, random: next };
    await write(table, items, fast);
    t.is(table.items.size, 10_000, `seed ${seed}`);
    const found = await read(table, items, fast);
    t.is(found.size, 10_000, `seed ${seed}`);
  }
});

test.serial('any progress starts the attempt count again: one item per response still finishes', async (t) => {
  const table = fakeTable(() => ({ unprocessed: (i) => i > 0 }));
  await write(table, puts(60), { ...instant, maxAttempts: 1 });
  t.is(table.items.size, 60);
});

test.serial('when retries make no progress, the error carries the caller\'s items: exactly what landed and what did not', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 1, max: 4 }), fc.integer(), async (n, maxAttempts, seed) => {
      const next = mulberry32(seed);
      let calls = 0;
      const table = fakeTable(() => ({ unprocessed: () => calls > 3 || next() < 0.5, throttle: calls++ > 3 && next() < 0.5 }));
      const items = puts(n);
      try {
        await write(table, items, { ...instant, maxAttempts });
        return table.items.size === n;
      } catch (error) {
        if (!(error instanceof UnprocessedItemsError)) throw error;
        const written = error.written as Item[];
        const left = error.unprocessed as Item[];
        return (
          error.attempts === maxAttempts &&
          written.every((item) => items.includes(item)) &&
          left.every((item) => items.includes(item) && !table.items.has(id(item))) &&
          written.map(id).sort().join() === [...table.items.keys()].sort().join() &&
          written.length + left.length === n
        );
      }
    }),
    { numRuns: 80 },
  );
  t.pass();
});

test.serial('all unprocessed on every attempt: nothing lands, everything is reported, and the lists are not enumerable', async (t) => {
  const table = fakeTable(() => ({ unprocessed: () => true }));
  const items = puts(30);
  const error = await t.throwsAsync(write(table, items, { ...instant, maxAttempts: 3 }), { instanceOf: UnprocessedItemsError });
  t.deepEqual(error.unprocessed, items);
  t.deepEqual(error.written, []);
  t.is(error.code, 'UNPROCESSED_ITEMS');
  t.true(error instanceof BatchError);
  t.is(error.message, 'batchPut Item: 3 attempt(s) in a row processed nothing; 30 of 30 not written, they are in error.unprocessed');
  t.is(table.items.size, 0);
  t.deepEqual(Object.keys(error).sort(), ['attempts', 'code', 'entity', 'name', 'operation']);
  t.false(inspect(error).includes('s29'));
  t.false(JSON.stringify(error).includes('s29'));
});

test.serial('a throttle with nothing processed is retried', async (t) => {
  const table = fakeTable((attempt) => ({ unprocessed: () => false, throttle: attempt < 2 }));
  await write(table, puts(5), instant);
  t.is(table.items.size, 5);
});

test.serial('an error that is not retried stops the batch: nothing new is sent, requests in flight settle, BatchError lists both sides', async (t) => {
  const items = puts(250);
  const table = fakeTable(() => ({ unprocessed: () => false }));
  const send = table.ctx.client.send.bind(table.ctx.client);
  let calls = 0;
  let afterFailure = 0;
  let failed = false;
  // the first two requests answer only after the third has failed (each 20 ms later), however late the
  // third is sent on a busy machine; if it is never sent while they wait, they answer after 10 s
  let fail!: () => void;
  const failure = new Promise<void>((resolve) => (fail = resolve));
  const client = {
    async send(command: unknown) {
      const call = ++calls;
      if (failed) afterFailure++;
      if (call === 3) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        failed = true;
        fail();
        throw Object.assign(new Error('boom'), { name: 'InternalServerError' });
      }
      await Promise.race([failure, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return send(command as never);
    },
  };
  const error = await t.throwsAsync(
    batchWriteRecords({ client: client as never, tableName: 't' }, { operation: 'batchPut', entity: 'Item' }, asWrites(items), ['pk', 'sk'], instant),
    { instanceOf: BatchError },
  );
  t.is(error.code, 'BATCH_FAILED');
  t.is((error.cause as Error).name, 'InternalServerError');
  t.is(afterFailure, 0, 'no request is sent after the failure');
  t.is(calls, 3, 'the two requests in flight settled');
  t.is(error.written.length, 50);
  t.deepEqual((error.written as Item[]).map(id).sort(), [...table.items.keys()].sort());
  t.deepEqual([...error.written, ...error.unprocessed].map((item) => id(item as Item)).sort(), items.map(id).sort());
  t.is(error.message, 'batchPut Item: stopped by InternalServerError, which is not retried; 200 of 250 not written, they are in error.unprocessed');
  const later = table.items.size;
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(table.items.size, later, 'nothing is written after the promise rejects');
});

test.serial('duplicate keys: the last request wins, and only one is sent', async (t) => {
  const table = fakeTable(() => ({ unprocessed: () => false }));
  const requests = [
    { PutRequest: { Item: { pk: 'a', sk: '1', v: 1 } } },
    { PutRequest: { Item: { pk: 'a', sk: '1', v: 2 } } },
    { PutRequest: { Item: { pk: 'b', sk: '1', v: 3 } } },
    { DeleteRequest: { Key: { pk: 'b', sk: '1' } } },
  ];
  await batchWriteRecords(table.ctx, { operation: 'batchPut', entity: 'Item' }, requests.map((request, source) => ({ request, source })), ['pk', 'sk'], instant);
  t.deepEqual([...table.items.values()], [{ pk: 'a', sk: '1', v: 2 }]);
  t.deepEqual(table.sizes, [2]);
});

test.serial('batch get: every stored key is found despite unprocessed keys, 100 per request', async (t) => {
  const table = fakeTable(() => ({ unprocessed: () => false }));
  const items = puts(250);
  await write(table, items, instant);
  let flip = 0;
  const reading = fakeTable(() => ({ unprocessed: () => flip++ % 3 === 0 }));
  for (const [k, v] of table.items) reading.items.set(k, v);
  const found = await read(reading, [...items, ...items.slice(0, 10), { pk: 'none', sk: 'x' }], instant);
  t.is(found.size, 250);
  t.true(reading.sizes.every((s) => s <= 100));
});

test.serial('batch get that gives up keeps what it read: items in key order, the keys not read', async (t) => {
  const table = fakeTable(() => ({ unprocessed: () => false }));
  const items = puts(150);
  await write(table, items, instant);
  const reading = fakeTable((attempt) => ({ unprocessed: () => attempt > 0, throttle: attempt > 1 }));
  for (const [k, v] of table.items) reading.items.set(k, v);
  const error = await t.throwsAsync(read(reading, items, { ...instant, concurrency: 1, maxAttempts: 3 }), { instanceOf: UnprocessedItemsError });
  t.is(error.operation, 'batchGet');
  t.deepEqual(error.items, items.slice(0, 100));
  t.deepEqual(error.unprocessed, items.slice(100).map(({ pk, sk }) => ({ pk, sk })));
  t.deepEqual(error.written, []);
});

test.serial('backoff is full jitter under a capped exponential ceiling', (t) => {
  const policy = { baseDelayMs: 10, maxDelayMs: 300 };
  for (let attempt = 0; attempt < 12; attempt++) {
    const ceiling = Math.min(300, 10 * 2 ** attempt);
    t.is(backoffDelay(attempt, { ...policy, random: () => 0 }), 0);
    t.is(backoffDelay(attempt, { ...policy, random: () => 0.999999 }), ceiling - 1);
  }
});

test.serial('the time budget without progress stops retries even with attempts left', async (t) => {
  let now = 0;
  const table = fakeTable(() => ({ unprocessed: () => true }));
  const error = await t.throwsAsync(
    write(table, puts(3), { maxAttempts: 1000, budgetMs: 1000, random: () => 0.5, now: () => now, sleep: async (ms: number) => void (now += ms) }),
    { instanceOf: UnprocessedItemsError },
  );
  t.true(now <= 1000);
  t.true(error.attempts < 1000);
  t.regex(error.message, /nothing was processed for 1000 ms/);
});

test.serial('the default policy gives up in bounded time when nothing progresses', async (t) => {
  let now = 0;
  const table = fakeTable(() => ({ unprocessed: () => true, throttle: true }));
  const error = await t.throwsAsync(write(table, puts(100), { now: () => now, sleep: async (ms: number) => void (now += ms) }), { instanceOf: UnprocessedItemsError });
  t.true(now <= 30_000, `${now} ms`);
  t.is(error.unprocessed.length, 100);
  t.is((error.cause as Error).name, 'ProvisionedThroughputExceededException');
});
