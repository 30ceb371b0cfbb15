// Connected: a coordinated worker dies mid-page (fault injected on its client: after a number of its
// moves were answered, every request fails, and a response still on its way is lost, so writes it
// made are unknown to it) and another worker takes its segment over from the checkpoint. The run's
// counts in the lease table must be exact: every planned write of the dead worker's page counted once,
// items whose write is a no-op (random-shard counters whose shard keeps its key when the count goes
// from 8 to 4) never counted as rewritten, and an edge whose two halves both move (a new delimiter)
// counted once, not once from each half. The table is checked item by item afterwards.
import test from 'ava';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientFor, scanTable } from '../support/dynamodb-local.js';
import { libraryItems, librarySchema } from '../support/library-design.js';
import { libraryMigration, putRaw, sharedDynamoDbLocal } from '../support/migration-program.js';

const shared = sharedDynamoDbLocal(test);

const members = 30;
const seed = libraryItems(members);
const designs = [
  {
    change: 'counter shards 8 → 4 (half of them keep their key), MEMBER → PATRON',
    schema: librarySchema({ member: 'PATRON', shards: 4 }),
    // members and their forward edge halves moved, counter shards 4..7 of both branches merged into 0..3
    rewritten: 2 * members + 8,
    keys: seed.expected.filter((k) => !/^VISITS#\w+#[4-7] /.test(k)),
  },
  {
    change: 'delimiter # → | (every item moves, both halves of every edge)',
    schema: librarySchema({ delimiter: '|' }),
    rewritten: seed.items.length,
    keys: seed.items.map((i) => `${String(i.pk)} ${String(i.sk)}`.replaceAll('#', '|')),
  },
];

for (const design of designs) {
  for (const dieAfter of [6, 20]) {
    test.serial(`${design.change}: a worker dies mid-page after ${dieAfter} moves; the worker that takes the segment over counts every write once`, async (t) => {
      t.timeout(180_000);
      const local = await shared();
      const { plan, lease, after, tableName } = await libraryMigration(t, local, librarySchema(), design.schema);
      await putRaw(local.documents, tableName, seed.items);

      // the dying worker: its moves are counted as they are answered; after `dieAfter`, nothing more
      // goes out and answers still on their way are lost (the writes were made, the worker never knew)
      const dying = DynamoDBDocumentClient.from(clientFor(local.endpoint), { marshallOptions: { removeUndefinedValues: true } });
      let answered = 0;
      let dead = false;
      dying.middlewareStack.add(
        (next) => async (args) => {
          if (dead) throw new Error('worker died');
          const result = await next(args);
          if (dead) throw new Error('worker died');
          if ((args.input as { TransactItems?: unknown }).TransactItems && ++answered >= dieAfter) dead = true;
          return result;
        },
        { step: 'initialize', name: 'dieMidPage' },
      );
      const survivor = DynamoDBDocumentClient.from(clientFor(local.endpoint), { marshallOptions: { removeUndefinedValues: true } });
      // one segment, one page: the dying worker's page holds every item
      const options = { tableName, leaseTable: `${tableName}-migration`, segments: 1, maxWcu: 1000, pageSize: 500, leaseMs: 2000 };
      let claimed = false;
      const first = lease.runWorker(plan, { ...options, client: dying, worker: 'dying', log: (line: string) => (claimed ||= /claimed segment/.test(line)) });
      while (!claimed) await new Promise((resolve) => setTimeout(resolve, 20));
      const lines: string[] = [];
      const second = lease.runWorker(plan, { ...options, client: survivor, worker: 'survivor', log: (line: string) => lines.push(line) });
      await t.throwsAsync(first, { message: /worker died/ });
      const report = await second;
      t.true(report.complete);
      t.true(lines.some((l) => /claimed segment 0 from dying \(its lease expired\)/.test(l)), lines.join('\n'));
      t.true(dead && answered >= dieAfter);

      const status = await lease.migrationStatus(plan, { client: survivor, leaseTable: options.leaseTable });
      t.log(JSON.stringify(status.counts));
      t.like(status.counts, { rewritten: design.rewritten, superseded: 0, skipped: 0 }, 'every write counted once, no no-op as a rewrite');

      // the table: every item in its new form once, the counters' sums kept
      const items = await scanTable(local.documents, tableName);
      t.deepEqual(items.map((i) => `${String(i.pk)} ${String(i.sk)}`).sort(), [...design.keys].sort());
      for (const branch of ['north', 'south']) {
        const counters = items.filter((i) => i.branchId === branch);
        t.is(counters.reduce((sum, i) => sum + Number(i.visits), 0), 36, `${branch}: visits 1 + … + 8`);
        t.is(counters.reduce((sum, i) => sum + Number(i.pages), 0), 280, `${branch}: pages 0 + 10 + … + 70`);
      }
      dying.destroy();
      survivor.destroy();
    });
  }
}
