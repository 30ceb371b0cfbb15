// Connected: the cap of a coordinated migration (`--coordinate --max-wcu`) across workers, measured
// from the ConsumedCapacity DynamoDB Local returns to every worker's writes (recorded by middleware
// on each worker's client, by response time) and summed over every sliding 10-second window:
//
// - workers started together hold the cap from the first request (no worker runs at the whole cap
//   while it has not yet seen the others);
// - the cap goes with the segments, not with the workers: with more workers than segments (or a
//   worker waiting for one to be handed back, or the tail of any run), the workers that hold
//   segments write at the whole cap between them, not at their per-worker third of it.
//
// The workers run in this process (one client each, as separate processes would) so every response
// is seen; each test checks the table item by item afterwards.
import test, { type ExecutionContext } from 'ava';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientFor, scanTable, type LocalDynamo } from '../support/dynamodb-local.js';
import { libraryItems, librarySchema } from '../support/library-design.js';
import { libraryMigration, putRaw, sharedDynamoDbLocal } from '../support/migration-program.js';

const shared = sharedDynamoDbLocal(test);
const CAP = 30;
const WINDOW_MS = 10_000;
/** What a 10-second window may hold: 10 seconds of the cap and 10 % (the allowance). */
const ALLOWANCE = 1.1 * CAP * (WINDOW_MS / 1000);
/**
 * Members to move (with their edges, about 400 WCU at 100): a run of about 15 s at the cap, so one
 * 10-second window lies inside it, and more than a window's allowance in all, so a run that ignored
 * the cap (or ran at a worker's whole cap before it saw the others) would fail.
 */
const MEMBERS = 100;

interface Consumed {
  readonly at: number;
  readonly units: number;
  readonly worker: number;
}

/** The most units in any window [t, t + 10 s) of response times. */
function busiestWindow(events: readonly Consumed[]): number {
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

/** A worker's client: records the units DynamoDB reports consumed on `tableName` by each response. */
function recordingClient(local: LocalDynamo, tableName: string, worker: number, events: Consumed[]): DynamoDBDocumentClient {
  const client = DynamoDBDocumentClient.from(clientFor(local.endpoint), { marshallOptions: { removeUndefinedValues: true } });
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const reported = (result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      const list = (Array.isArray(reported) ? reported : reported ? [reported] : []) as Array<{ TableName?: string; CapacityUnits?: number }>;
      const units = list.filter((c) => c.TableName === tableName).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      if (units) events.push({ at: Date.now(), units, worker });
      return result;
    },
    { step: 'initialize', name: 'recordConsumedCapacity' },
  );
  return client;
}

/** Emits the MEMBER → PATRON migration, seeds a table with `members` members and their edges, and loads the plan and the worker. */
async function prepare(t: ExecutionContext, members: number) {
  const local = await shared();
  const { plan, lease, tableName } = await libraryMigration(t, local, librarySchema(), librarySchema({ member: 'PATRON' }));
  const seed = libraryItems(members);
  await putRaw(local.documents, tableName, seed.items);
  return { local, plan, lease, tableName, seed };
}

/** The table item by item: every item in its new form, once. */
async function checkTable(t: ExecutionContext, local: LocalDynamo, tableName: string, seed: ReturnType<typeof libraryItems>) {
  const items = await scanTable(local.documents, tableName);
  t.is(items.length, seed.items.length, 'nothing lost, nothing doubled');
  const keys = new Set(items.map((i) => `${String(i.pk)} ${String(i.sk)}`));
  t.is(keys.size, items.length);
  t.deepEqual(seed.expected.filter((k) => !keys.has(k)), [], 'every item in its new form');
}

const perWorker = (events: readonly Consumed[], workers: number) => Array.from({ length: workers }, (_, w) => events.filter((e) => e.worker === w).reduce((sum, e) => sum + e.units, 0));

test.serial('workers started together hold the cap from the first request: no 10-second window of consumed WCU above 10 × --max-wcu + 10 %', async (t) => {
  t.timeout(240_000);
  const { local, plan, lease, tableName, seed } = await prepare(t, MEMBERS);
  const events: Consumed[] = [];
  const clients = [0, 1, 2].map((w) => recordingClient(local, tableName, w, events));
  const started = Date.now();
  // the default lease (20 s): a worker renews and looks at the others every 5 s
  const reports = await Promise.all(clients.map((client, w) => lease.runWorker(plan, { client, tableName, leaseTable: `${tableName}-migration`, segments: 16, maxWcu: CAP, pageSize: 25, worker: `w${w}` })));
  const seconds = (Date.now() - started) / 1000;
  for (const client of clients) client.destroy();
  const total = events.reduce((sum, e) => sum + e.units, 0);
  const first5 = events.filter((e) => e.at < started + 5000).reduce((sum, e) => sum + e.units, 0);
  const busiest = busiestWindow(events);
  t.log(`${total} WCU in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(1)} WCU/s, cap ${CAP}); busiest 10 s ${busiest} (allowance ${ALLOWANCE}); first 5 s ${first5}; per worker ${perWorker(events, 3).join(' / ')}`);
  t.true(reports.every((r: { complete: boolean }) => r.complete));
  t.true(busiest <= ALLOWANCE, `busiest 10-second window ${busiest} WCU, allowance ${ALLOWANCE}`);
  t.true(first5 <= 0.55 * ALLOWANCE, `first 5 seconds ${first5} WCU`);
  await checkTable(t, local, tableName, seed);
});

test.serial('idle share goes to the workers with work: three workers on two segments (one started first) use the whole cap, not two thirds of it', async (t) => {
  t.timeout(240_000);
  const { local, plan, lease, tableName, seed } = await prepare(t, MEMBERS);
  const events: Consumed[] = [];
  const clients = [0, 1, 2].map((w) => recordingClient(local, tableName, w, events));
  const options = (w: number) => ({ client: clients[w], tableName, leaseTable: `${tableName}-migration`, segments: 2, maxWcu: CAP, pageSize: 25, worker: `w${w}` });
  let claimed = false;
  const first = lease.runWorker(plan, { ...options(0), log: (line: string) => (claimed ||= /claimed segment/.test(line)) });
  while (!claimed) await new Promise((resolve) => setTimeout(resolve, 20));
  const reports = await Promise.all([first, lease.runWorker(plan, options(1)), lease.runWorker(plan, options(2))]);
  for (const client of clients) client.destroy();
  t.true(reports.every((r: { complete: boolean }) => r.complete));
  const times = events.map((e) => e.at);
  const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
  const total = events.reduce((sum, e) => sum + e.units, 0);
  const used = total / seconds;
  t.log(`${total} WCU in ${seconds.toFixed(1)} s from the first write to the last: ${used.toFixed(1)} of ${CAP} WCU/s used; per worker ${perWorker(events, 3).join(' / ')}; busiest 10 s ${busiestWindow(events)}`);
  t.true(busiestWindow(events) <= ALLOWANCE, `busiest 10-second window ${busiestWindow(events)} WCU, allowance ${ALLOWANCE}`);
  t.true(used >= 0.8 * CAP, `${used.toFixed(1)} WCU/s used of a cap of ${CAP}`);
  await checkTable(t, local, tableName, seed);
});
