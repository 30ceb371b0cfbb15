// Connected: what `status` and `cleanup` see of a coordinated run. A worker with a slow cap is on its
// first page (nothing checkpointed yet) when status is read: it shows the items scanned so far and
// an ETA. The worker dies (fault injected on its client: every request fails); status, told no lease
// length, judges it by the run's own (stored by the first worker, 2 s here), as the workers do: not
// alive once a lease has passed. A second worker finishes the run; cleanup refuses while it is
// alive, then removes the run and the lease table; a worker started afterwards sweeps the table
// again (a new run) and finds nothing left to move. The table is checked item by item.
import test from 'ava';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientFor, scanTable } from '../support/dynamodb-local.js';
import { libraryItems, librarySchema } from '../support/library-design.js';
import { libraryMigration, putRaw, sharedDynamoDbLocal } from '../support/migration-program.js';

const shared = sharedDynamoDbLocal(test);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.serial('status: progress item by item before the first checkpoint, liveness by the lease stored with the run; cleanup: refused while a worker lives, then the run and the lease table go, and a later run sweeps again', async (t) => {
  t.timeout(180_000);
  const local = await shared();
  const { plan, lease, tableName } = await libraryMigration(t, local, librarySchema(), librarySchema({ member: 'PATRON' }));
  const leaseTable = `${tableName}-migration`;
  // 20 members (40 items to move): the first page at 10 WCU/s takes about 8 s, long past the
  // status read below (after 5 items, within a second or two), and the survivor does not take 15 s
  const members = 20;
  const seed = libraryItems(members);
  await putRaw(local.documents, tableName, seed.items);
  const observer = DynamoDBDocumentClient.from(clientFor(local.endpoint));

  // one segment, one page of every item, 10 WCU/s: the first page takes seconds
  const dying = DynamoDBDocumentClient.from(clientFor(local.endpoint), { marshallOptions: { removeUndefinedValues: true } });
  let dead = false;
  dying.middlewareStack.add(
    (next) => async (args) => {
      if (dead) throw new Error('worker died');
      return next(args);
    },
    { step: 'initialize', name: 'die' },
  );
  t.is(await lease.migrationStatus(plan, { client: observer, leaseTable }), undefined, 'before any worker, no lease table: no run');
  const options = { tableName, leaseTable, segments: 1, maxWcu: 10, pageSize: 500 };
  const first = lease.runWorker(plan, { ...options, client: dying, worker: 'dying', leaseMs: 2000 });
  first.catch(() => undefined);
  let early;
  for (const started = Date.now(); Date.now() - started < 30_000; await sleep(100)) {
    early = await lease.migrationStatus(plan, { client: observer, leaseTable });
    if (early && early.scanned >= 5) break;
  }
  t.log(lease.statusText(early));
  t.is(early.counts.scanned, 0, 'the first page is not checkpointed yet');
  t.true(early.scanned >= 5 && early.etaSeconds !== undefined && early.etaSeconds < 3600, `${early.scanned} scanned, ETA ${early.etaSeconds}`);
  t.like(early, { leaseSeconds: 2, workers: [{ worker: 'dying' }] });

  dead = true;
  await t.throwsAsync(first, { message: /worker died/ });
  const diedAt = Date.now();
  // the last heartbeat is at most a quarter lease old when it dies: after one lease and a margin it is not alive
  await sleep(2000 + 1000);
  const later = await lease.migrationStatus(plan, { client: observer, leaseTable });
  t.log(`${((Date.now() - diedAt) / 1000).toFixed(1)} s after the worker died: ${lease.statusText(later).split('\n')[0]}`);
  t.deepEqual(later.workers, [], 'a worker silent for the run\'s lease is not alive');

  // a second worker takes the segment over and finishes; cleanup is refused while it is alive
  const survivor = DynamoDBDocumentClient.from(clientFor(local.endpoint), { marshallOptions: { removeUndefinedValues: true } });
  let claimed = false;
  const second = lease.runWorker(plan, { ...options, maxWcu: 1000, client: survivor, worker: 'survivor', log: (line: string) => (claimed ||= /claimed segment/.test(line)) });
  while (!claimed) await sleep(20);
  await t.throwsAsync(lease.cleanupRun(plan, { client: observer, leaseTable }), { name: 'RunInProgressError', message: /1 worker of migration \S+ still alive \(survivor\)/ });
  const report = await second;
  t.true(report.complete);
  const done = await lease.migrationStatus(plan, { client: observer, leaseTable });
  t.like(done, { done: 1, etaSeconds: 0, workers: [] });
  t.like(done.counts, { rewritten: seed.moved, superseded: 0, skipped: 0 });

  // cleanup: the run's items and the (now empty) lease table go
  const removed = await lease.cleanupRun(plan, { client: observer, leaseTable });
  t.like(removed, { tableDeleted: true });
  t.true(removed.removed >= 4, 'run, segment and the two workers');
  await t.throwsAsync(observer.send(new DescribeTableCommand({ TableName: leaseTable })), { name: 'ResourceNotFoundException' });

  // a worker started afterwards begins a new run: it scans every item again and moves nothing
  const sweep = await lease.runWorker(plan, { ...options, maxWcu: 1000, client: survivor, worker: 'sweep' });
  t.true(sweep.complete);
  const swept = await lease.migrationStatus(plan, { client: observer, leaseTable });
  t.like(swept.counts, { scanned: seed.items.length, rewritten: 0 });

  const items = await scanTable(local.documents, tableName);
  t.deepEqual(items.map((i) => `${String(i.pk)} ${String(i.sk)}`).sort(), [...seed.expected].sort());
  for (const client of [observer, dying, survivor]) client.destroy();
});
