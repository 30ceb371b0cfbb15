// Connected: a coordinated migration (`--coordinate`) run by several worker processes sharing one
// lease table on DynamoDB Local. Two workers are killed by pid at random moments and a new one is
// started later; the survivors take the dead workers' segments over from their checkpoints, and
// the run ends with every item moved exactly once (the table checked item by item, the counts in
// the lease table exact). The suite moves a few thousand items; `npm run migration:scale` runs the
// issue's full acceptance run (test/scale/migration-scale.ts).
import path from 'node:path';
import test from 'ava';
import { scanTable } from '../support/dynamodb-local.js';
import { libraryMigration, putRaw, runProgram, sharedDynamoDbLocal, startProgram } from '../support/migration-program.js';
import { librarySchema, libraryItems } from '../support/library-design.js';

const MEMBERS = Number(process.env.DDBGEN_COORDINATED_MEMBERS ?? 600);
// the run's DynamoDB Local (or one for the file): the test's table and its lease table are its own
const shared = sharedDynamoDbLocal(test);

test.serial('coordinated workers: two killed by pid at random moments, one started later; every item moved exactly once, counts exact, status finished', async (t) => {
  t.timeout(300_000);
  const local = await shared();
  const { tableName, folder } = await libraryMigration(t, local, librarySchema(), librarySchema({ member: 'PATRON' }));
  const program = path.join(folder, 'migrate-library.ts');
  const seed = libraryItems(MEMBERS);
  await putRaw(local.documents, tableName, seed.items);

  // one cap for the whole run, shared by the workers alive
  const cap = 400;
  const args = ['--coordinate', '--table', tableName, '--segments', '12', '--lease-seconds', '3', '--page-size', '50', '--max-wcu', String(cap)];
  const started = Date.now();
  const workers = [0, 1, 2].map(() => startProgram(program, args, local.endpoint));
  // two of them killed at random moments once they work (hold a segment), a fourth started after the first kill
  const kill = async (i: number) => {
    while (!/claimed segment/.test(workers[i]!.stderr()) && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 50));
    const after = Math.round(Math.random() * 2000);
    await new Promise((resolve) => setTimeout(resolve, after));
    process.kill(workers[i]!.pid, 'SIGKILL');
    t.log(`worker ${i} killed ${after} ms after its first claim, ${Date.now() - started} ms into the run`);
  };
  await kill(1);
  const late = startProgram(program, args, local.endpoint);
  await kill(2);
  const [first, killed1, killed2, last] = await Promise.all([workers[0]!.done, workers[1]!.done, workers[2]!.done, late.done]);
  const seconds = (Date.now() - started) / 1000;
  t.log(`run finished in ${seconds.toFixed(1)} s`);
  t.deepEqual([killed1.code, killed2.code], [null, null], 'ended by the signal');
  t.is(first.code, 0, first.stderr);
  t.is(last.code, 0, last.stderr);
  t.true(JSON.parse(first.stdout).complete && JSON.parse(last.stdout).complete);
  t.regex(`${first.stderr}${last.stderr}`, /claimed segment \d+ from \S+ \(its lease expired\)/, 'a dead worker\'s segment was taken over');

  // the table, item by item: every item in its new form, once; nothing else changed
  const items = await scanTable(local.documents, tableName);
  t.is(items.length, seed.items.length, 'nothing lost, nothing doubled');
  const keys = new Set(items.map((i) => `${String(i.pk)} ${String(i.sk)}`));
  t.is(keys.size, items.length);
  for (const item of seed.expected) t.true(keys.has(item), item);
  t.deepEqual(items.filter((i) => String(i.pk).startsWith('MEMBER#')), []);

  // the run's report, from the lease table: exact counts across the kills
  const status = await runProgram(program, ['status', '--table', tableName, '--format', 'json'], local.endpoint);
  t.is(status.code, 0, status.stderr);
  const report = JSON.parse(status.stdout);
  t.like(report, { segments: 12, done: 12, inProgress: 0, etaSeconds: 0, skipped: [] });
  t.like(report.counts, { rewritten: seed.moved, superseded: 0, skipped: 0 }, 'every moved item counted once');
  // a moved item whose new key lies in a segment scanned later is scanned again there, as already done
  const c = report.counts;
  t.is(c.scanned, c.rewritten + c.backfilled + c.current + c.superseded + c.unchanged + c.skipped, 'every scan counted once');
  t.true(c.scanned >= seed.items.length);
  const text = await runProgram(program, ['status', '--table', tableName], local.endpoint);
  t.regex(text.stdout, new RegExp(`^migration library-[0-9a-f]{12} on table ${tableName}: 12 of 12 segments done, 0 in progress, [0-9]+ workers? alive\nitems: ${c.scanned} scanned of ~${seed.items.length} \\(100 %\\): ${seed.moved} rewritten, `));
  t.regex(text.stdout, /rate: \d+ items\/s since the start, \d+ WCU consumed \(cap 400 WCU\/s\); finished/);
  // the workers' consumption together (the dead ones' as of their last heartbeat) stays within the one cap
  t.log(`${report.consumedWcu} WCU in ${seconds.toFixed(1)} s: ${Math.round(report.consumedWcu / seconds)} WCU/s (cap ${cap})`);
  t.true(report.consumedWcu > 0 && report.consumedWcu / seconds <= 1.1 * cap, `${report.consumedWcu} WCU in ${seconds} s`);
});
