import test from 'ava';
import fc from 'fast-check';
import { CapacityBucket, WINDOW_MS, recordUnits, writeUnits, type BucketClock } from './capacity-bucket.js';

/** A virtual clock: sleeps are timers that `run` fires in time order, letting every promise settle in between. */
function virtualClock(): BucketClock & { run(until: () => boolean): Promise<void>; time: () => number } {
  let now = 0;
  const timers: Array<{ at: number; resolve: () => void }> = [];
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    now: () => now,
    time: () => now,
    sleep: (ms) => new Promise<void>((resolve) => timers.push({ at: now + Math.max(0, ms), resolve })),
    async run(done) {
      for (;;) {
        await settle();
        if (done()) return;
        timers.sort((a, b) => a.at - b.at);
        const next = timers.shift();
        if (!next) throw new Error('nothing scheduled, and the writers are not done');
        now = Math.max(now, next.at);
        next.resolve();
      }
    },
  };
}

/** The largest sum of `units` over any window [t, t + WINDOW_MS) of the events' times. */
function busiestWindow(events: ReadonlyArray<{ at: number; units: number }>): number {
  const sorted = [...events].sort((a, b) => a.at - b.at);
  let best = 0;
  let sum = 0;
  let start = 0;
  for (const event of sorted) {
    sum += event.units;
    while (sorted[start]!.at <= event.at - WINDOW_MS) sum -= sorted[start++]!.units;
    best = Math.max(best, sum);
  }
  return best;
}

test('write units: 1 per KB rounded up (1 at least) per item, doubled in a transaction', (t) => {
  t.is(writeUnits([1]), 1);
  t.is(writeUnits([1024, 1025]), 3);
  t.is(writeUnits([400 * 1024, 400 * 1024], true), 1600, 'a 400 KB item moved in a transaction: put and delete, doubled');
  t.is(recordUnits([{ pk: 'a', sk: 'b' }]), 1);
});

test('property: for random caps, item sizes up to 400 KB, latencies and corrections, no 10-second window exceeds the cap by more than 10 %', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 5, max: 3000 }),
      fc.integer({ min: 1, max: 6 }),
      fc.array(fc.record({ kb: fc.integer({ min: 1, max: 400 }), transaction: fc.boolean(), latency: fc.integer({ min: 1, max: 60 }), reported: fc.double({ min: 0.5, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 120 }),
      async (cap, writers, writes) => {
        const clock = virtualClock();
        const bucket = new CapacityBucket(cap, clock);
        const consumed: Array<{ at: number; units: number }> = [];
        const queue = writes.map((w) => ({ ...w, units: writeUnits([w.kb * 1024], w.transaction) }));
        const alone = queue.filter((w) => w.units > cap * (WINDOW_MS / 1000));
        let finished = 0;
        for (let k = 0; k < writers; k++) {
          void (async () => {
            for (let w = queue.shift(); w; w = queue.shift()) {
              const charge = await bucket.take(w.units);
              await clock.sleep(w.latency);
              const reported = Math.max(1, Math.round(w.units * w.reported));
              consumed.push({ at: clock.now(), units: reported });
              bucket.settle(charge, reported);
            }
            finished++;
          })();
        }
        await clock.run(() => finished === writers);
        const limit = 1.1 * cap * (WINDOW_MS / 1000);
        const busiest = busiestWindow(consumed);
        // a write that alone costs more than 10 seconds of the cap is the only write in its window
        const bound = alone.length ? Math.max(limit, ...alone.map((w) => w.units)) : limit;
        if (busiest > bound) throw new Error(`cap ${cap}: a window consumed ${busiest} units, more than ${bound}`);
        t.true(bucket.busiestWindow <= bound);
        return true;
      },
    ),
    { numRuns: 150 },
  );
});

test('a write that costs more than a second of the cap waits for a full second of tokens, and the writes after it wait out its debt', async (t) => {
  const clock = virtualClock();
  const bucket = new CapacityBucket(800, clock);
  const admitted: Array<[number, number]> = [];
  let done = false;
  void (async () => {
    for (const units of [1600, 10, 10]) admitted.push([units, (await bucket.take(units)).at]);
    done = true;
  })();
  await clock.run(() => done);
  // 1 s for 800 tokens, then 1600 charged (800 of debt): 10 more tokens take 1 s + 12.5 ms
  t.deepEqual(admitted, [
    [1600, 1000],
    [10, 2013],
    [10, 2026],
  ]);
});

test('admission is first come, first served: a large write is not starved by small ones', async (t) => {
  const clock = virtualClock();
  const bucket = new CapacityBucket(100, clock);
  const order: string[] = [];
  let pending = 3;
  const write = (name: string, units: number) =>
    void bucket.take(units).then(() => {
      order.push(name);
      pending--;
    });
  write('small 1', 5);
  write('large', 900);
  write('small 2', 5);
  await clock.run(() => pending === 0);
  t.deepEqual(order, ['small 1', 'large', 'small 2']);
});

test('settle corrects the charge by what DynamoDB reported: an over-estimate gives the difference back', async (t) => {
  const clock = virtualClock();
  const bucket = new CapacityBucket(100, clock);
  let charge: Awaited<ReturnType<CapacityBucket['take']>> | undefined;
  void bucket.take(100).then((c) => (charge = c));
  await clock.run(() => charge !== undefined);
  t.is(clock.time(), 1000);
  bucket.settle(charge!, 40);
  t.is(bucket.consumed, 40);
  let next = false;
  void bucket.take(60).then(() => (next = true));
  await clock.run(() => next);
  t.is(clock.time(), 1000, 'the 60 units given back pay for the next write at once');
  let unreported: Awaited<ReturnType<CapacityBucket['take']>> | undefined;
  void bucket.take(30).then((c) => (unreported = c));
  await clock.run(() => unreported !== undefined);
  bucket.settle(unreported!, undefined);
  t.is(bucket.consumed, 40 + 60 + 30, 'no report (a cancelled transaction): the estimate stands');
});

test('a new rate (a coordinated worker\'s share) applies from then on', async (t) => {
  const clock = virtualClock();
  const bucket = new CapacityBucket(100, clock);
  const at: number[] = [];
  let done = false;
  void (async () => {
    at.push((await bucket.take(100)).at);
    bucket.setRate(50);
    at.push((await bucket.take(50)).at);
    done = true;
  })();
  await clock.run(() => done);
  t.deepEqual(at, [1000, 2000]);
  t.is(bucket.perSecond, 50);
});

test('a lower rate starts the window afresh: the worker goes on at its new share instead of stalling on what it spent at its larger one', async (t) => {
  const clock = virtualClock();
  const bucket = new CapacityBucket(100, clock);
  const at: number[] = [];
  let done = false;
  void (async () => {
    // ten seconds at 100 units/s fill the window (1,000 units, answered at once)
    for (let i = 0; i < 10; i++) bucket.settle(await bucket.take(100), 100);
    bucket.setRate(50);
    for (let i = 0; i < 2; i++) at.push((await bucket.take(50)).at);
    done = true;
  })();
  await clock.run(() => done);
  t.deepEqual(at, [11_000, 12_000], 'one second of the new rate each, not after the 1,000 units have left the window');
});
