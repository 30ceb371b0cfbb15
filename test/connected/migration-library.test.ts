// Connected: migrations of a library design (members, books, a Borrowed edge Member→Book with its
// inverse as a second item, a Reserved edge with its inverse in a GSI, a title GSI, a random-shard
// Visits counter) that once lost data: a node entity's key prefix renamed must move every edge
// half keyed by it, and a re-keyed random-shard counter must keep its total, whether only the
// encoding changes (each item keeps its shard) or the shard count changes (counters merged).
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { DeleteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientFor, scanTable } from '../support/dynamodb-local.js';
import { librarySchema } from '../support/library-design.js';
import { emitLibraryMigration, emitMigration, libraryMigration, putRaw, runProgram, sharedDynamoDbLocal, typeCheckProgram, workspace } from '../support/migration-program.js';

// one DynamoDB Local for the file: each test uses tables of its own
const shared = sharedDynamoDbLocal(test);

type Node = { type: 'Member' | 'Book'; id: string };

test.serial('a node entity key prefix renamed (MEMBER → PATRON): the diff names both edges, and every edge half keyed by a member moves, forward and inverse, GSI copies too', async (t) => {
  t.timeout(240_000);
  const local = await shared();
  // emitted once for this test and the last one (emitLibraryMigration)
  const { run: diff, folder } = await emitLibraryMigration(librarySchema(), librarySchema({ member: 'PATRON' }));
  const dir = path.dirname(path.dirname(folder));
  t.is(diff.code, 0, diff.stderr);
  const codes = diff.stderr.split('\n').filter((l) => l.startsWith('new.ts')).map((l) => l.replace(/^.*? - \w+ (\w+): \[([^\]]+)\] (.*)$/, '$1 $2'));
  t.deepEqual(codes, ['DDB215 rewrites keys', 'DDB223 rewrites keys', 'DDB223 rewrites keys']);
  t.regex(diff.stderr, /Member's partition key changed from "MEMBER#<memberId>" to "PATRON#<memberId>"[^\n]*edges "Borrowed", "Reserved" in its partitions move with it/);
  t.regex(diff.stderr, /edge "Borrowed" [^\n]*Member's partition key/);
  const program = path.join(dir, 'migrations', 'library', 'migrate-library.ts');
  const typeCheck = typeCheckProgram(dir, program, path.join(dir, 'migrations', 'library', 'lambda-library.ts'));
  // the command line: its header and --help list every option; a mistyped one is a usage line, exit 2
  t.regex(readFileSync(program, 'utf8'), /--page-size N\] \[--endpoint URL\] \[--region R\]/);
  // run as its header tells a user, by tsx (the other runs use its bundle): every module it imports loads
  const help = await runProgram(program, ['--help'], local.endpoint, undefined, { loader: 'tsx' });
  t.is(help.code, 0);
  for (const option of ['--endpoint URL', '--region R', '--page-size N', '--coordinate', '--lease-table NAME', 'status']) t.true(help.stdout.includes(option), option);
  for (const [args, message] of [
    [['--segmnets', '4'], "migrate-library.ts: Unknown option '--segmnets'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--segmnets\"\n"],
    [['--max-wcu', 'lots'], 'migrate-library.ts: --max-wcu must be a whole number from 1 to 1,000,000, got "lots"\n'],
    [['--coordinate', '--segment', '2'], 'migrate-library.ts: --segment and --checkpoints are for a run in one process; coordinated workers share segments and checkpoints through the lease table\n'],
  ] as const) {
    const usage = await runProgram(program, [...args], local.endpoint);
    t.deepEqual([usage.code, usage.stdout, usage.stderr], [2, '', `${message}run npx tsx migrate-library.ts --help for the options\n`], args.join(' '));
  }
  const before = await import(path.join(dir, 'migrations', 'library', 'old', 'library', 'index.js'));
  const after = await import(path.join(dir, 'migrations', 'library', 'new', 'library', 'index.js'));
  const tableName = `library-${randomUUID()}`;
  await local.createTable(after.libraryTableDefinition(tableName));
  const oldDb = new before.LibraryTable(local.documents, { tableName });
  const db = new after.LibraryTable(local.documents, { tableName });

  const members: Node[] = Array.from({ length: 30 }, (_, i) => ({ type: 'Member', id: `m${i}` }));
  const books: Node[] = Array.from({ length: 12 }, (_, i) => ({ type: 'Book', id: `b${i}` }));
  await oldDb.member.batchPut(members.map((m) => ({ memberId: m.id, name: `name ${m.id}` })));
  await oldDb.book.batchPut(books.map((b) => ({ isbn: b.id, title: `title ${b.id}` })));
  const borrowed = members.flatMap((from, a) => [0, 1, 2].map((k) => ({ from, to: books[(a + k * 5) % books.length]!, attributes: { on: `2026-0${k + 1}-01` } })));
  const reserved = members.map((from, a) => ({ from, to: books[a % books.length]! }));
  t.deepEqual(await oldDb.borrowed.addMany(borrowed), { done: borrowed.length, unchanged: 0, failed: [] });
  t.deepEqual(await oldDb.reserved.addMany(reserved), { done: reserved.length, unchanged: 0, failed: [] });
  // left by other writers: a key that disagrees with the item's attributes (built from them, it
  // would land on member m5's key), a wrong-typed value, an edge whose attribute is wrong-typed
  // (its inverse half keeps its key in this change, so only the forward half is reported)
  const inconsistent = [
    { pk: 'MEMBER#m99', sk: 'PROFILE', memberId: 'm5', name: 'not m5' },
    { pk: 'MEMBER#m98', sk: 'PROFILE', memberId: 'm98', name: 98 },
    { pk: 'MEMBER#m97', sk: 'BORROWED#Book#b1', on: 7 },
    { pk: 'BOOK#b1', sk: 'BORROWED_BY#Member#m97', on: 7 },
  ];
  await putRaw(local.documents, tableName, inconsistent);

  const run = await runProgram(program, ['--table', tableName, '--segments', '3', '--checkpoints', path.join(dir, 'checkpoints'), '--page-size', '25'], local.endpoint);
  t.is(run.code, 0, run.stderr);
  const byKey = (a: { key: { pk: string; sk: string } }, b: { key: { pk: string; sk: string } }) => (`${a.key.pk} ${a.key.sk}` < `${b.key.pk} ${b.key.sk}` ? -1 : 1);
  t.deepEqual(JSON.parse(run.stdout).skipped.sort(byKey), [
    { key: { pk: 'MEMBER#m97', sk: 'BORROWED#Book#b1' }, reason: 'edge Borrowed: on is 7, not a string' },
    { key: { pk: 'MEMBER#m98', sk: 'PROFILE' }, reason: 'Member: name is 98, not a string' },
    { key: { pk: 'MEMBER#m99', sk: 'PROFILE' }, reason: 'Member: its stored pk "MEMBER#m99" disagrees with its attributes, which build "MEMBER#m5"' },
  ]);

  const items = await scanTable(local.documents, tableName);
  t.is(items.length, members.length + books.length + 2 * borrowed.length + reserved.length + inconsistent.length, 'nothing lost, nothing doubled');
  t.deepEqual(items.filter((i) => String(i.pk).startsWith('MEMBER#')).map((i) => i.pk).sort(), ['MEMBER#m97', 'MEMBER#m98', 'MEMBER#m99'], 'only the skipped items left under a MEMBER# key, untouched');
  t.deepEqual(items.find((i) => i.pk === 'PATRON#m5' && i.sk === 'PROFILE'), { pk: 'PATRON#m5', sk: 'PROFILE', memberId: 'm5', name: 'name m5' }, 'm5 is still m5');
  const ids = (links: { items: Array<{ id: unknown }> }) => links.items.map((l) => String(l.id)).sort();
  for (const member of members) {
    t.deepEqual(ids(await db.borrowed.outgoing(member)), borrowed.filter((e) => e.from === member).map((e) => e.to.id).sort(), `${member.id} borrowed`);
    t.deepEqual(ids(await db.reserved.outgoing(member)), reserved.filter((e) => e.from === member).map((e) => e.to.id).sort(), `${member.id} reserved`);
  }
  for (const book of books) {
    // the skipped edge's inverse half is left as it was: b1 still lists m97
    const others = book.id === 'b1' ? ['m97'] : [];
    t.deepEqual(ids(await db.borrowed.incoming(book)), [...borrowed.filter((e) => e.to === book).map((e) => e.from.id), ...others].sort(), `${book.id} borrowed by`);
    t.deepEqual(ids(await db.reserved.incoming(book)), reserved.filter((e) => e.to === book).map((e) => e.from.id).sort(), `${book.id} reserved by`);
  }
  t.true(await db.borrowed.exists(members[1]!, borrowed[3]!.to));
  t.deepEqual(await db.borrowed.get(members[0]!, books[0]!), { on: '2026-01-01' });
  t.is((await db.member.get({ memberId: 'm7' }))?.name, 'name m7');
  t.is(await typeCheck, '');
});

/** Increments spread over random shards, then the stored shard items, raw. */
async function seedVisits(db: { visits: { increment(key: object, deltas: object): Promise<unknown> } }, branches: readonly string[], increments: number) {
  for (let i = 0; i < increments; i++) await db.visits.increment({ branchId: branches[i % branches.length]! }, { visits: 1, pages: i });
}

for (const [title, shards] of [
  ['only the encoding changes (delimiter # → |): every shard item keeps its shard', 8],
  ['the shard count changes (8 → 3, delimiter # → |): shard items merged by adding their counters, none dropped', 3],
] as const) {
  test.serial(`a random-shard counter re-keyed, ${title}`, async (t) => {
    t.timeout(240_000);
    const { local, dir } = await workspace(t, await shared());
    writeFileSync(path.join(dir, 'old.ts'), librarySchema());
    writeFileSync(path.join(dir, 'new.ts'), librarySchema({ delimiter: '|', shards }));
    const diff = await emitMigration(dir, ['old.ts', 'new.ts']);
    t.is(diff.code, 0, diff.stderr);
    const program = path.join(dir, 'migrations', 'library', 'migrate-library.ts');
    const before = await import(path.join(dir, 'migrations', 'library', 'old', 'library', 'index.js'));
    const after = await import(path.join(dir, 'migrations', 'library', 'new', 'library', 'index.js'));
    const tableName = `library-${randomUUID()}`;
    await local.createTable(after.libraryTableDefinition(tableName));
    const oldDb = new before.LibraryTable(local.documents, { tableName });
    const db = new after.LibraryTable(local.documents, { tableName });
    const branches = ['north', 'south'];
    await seedVisits(oldDb, branches, 60);
    const totals = await Promise.all(branches.map((branchId) => oldDb.visits.sum({ branchId })));
    t.deepEqual(totals, [{ visits: 30, pages: 870 }, { visits: 30, pages: 900 }]);
    const oldShards = new Map((await scanTable(local.documents, tableName)).map((i) => [String(i.pk).replaceAll('#', '|'), Number(i.visits)]));
    // the new code counts during the run too: its increments land on new keys and are kept
    const run = runProgram(program, ['--table', tableName, '--segments', '2', '--checkpoints', path.join(dir, 'checkpoints'), '--page-size', '4'], local.endpoint);
    await seedVisits(db, branches, 10);
    const done = await run;
    t.is(done.code, 0, done.stderr);
    t.deepEqual(JSON.parse(done.stdout).skipped, []);
    t.deepEqual(await Promise.all(branches.map((branchId) => db.visits.sum({ branchId }))), [
      { visits: 35, pages: 870 + 0 + 2 + 4 + 6 + 8 },
      { visits: 35, pages: 900 + 1 + 3 + 5 + 7 + 9 },
    ]);
    const items = await scanTable(local.documents, tableName);
    t.deepEqual(items.filter((i) => String(i.pk).includes('#')), [], 'no old key left');
    // each item kept its shard: every old shard's count is still there (the new code's increments added to some)
    if (shards === 8) for (const [key, visits] of oldShards) t.true(Number(items.find((i) => i.pk === key)?.visits) >= visits, key);
    else t.true(items.every((i) => /^VISITS\|(north|south)\|[0-2]$/.test(String(i.pk))), 'every item on one of the 3 new shards');
  });
}

const scans = (prefix: string) => `import { defineTable, entity, t } from 'ddbgen';
export default defineTable({
  name: 'Scans',
  entities: {
    Scan: entity({ attributes: { pageId: t.string(), text: t.string() }, key: { pk: '${prefix}#<pageId>', sk: 'PAGE' } }),
  },
});
`;

test.serial('the cap holds per 10-second window with 400 KB items, each move estimated at twice a second of the cap (1,600 WCU at 800 WCU/s)', async (t) => {
  t.timeout(240_000);
  const { local, dir } = await workspace(t, await shared());
  writeFileSync(path.join(dir, 'old.ts'), scans('SCAN'));
  writeFileSync(path.join(dir, 'new.ts'), scans('PAGE'));
  t.is((await emitMigration(dir, ['old.ts', 'new.ts'])).code, 0);
  const program = path.join(dir, 'migrations', 'scans', 'migrate-scans.ts');
  const after = await import(path.join(dir, 'migrations', 'scans', 'new', 'scans', 'index.js'));
  const tableName = `scans-${randomUUID()}`;
  await local.createTable(after.scansTableDefinition(tableName));
  // 8 pages just under 400 KB: a move puts 400 KB and deletes 400 KB in a transaction (2 × 800 WCU)
  const pages = Array.from({ length: 8 }, (_, i) => ({ pk: `SCAN#p${i}`, sk: 'PAGE', pageId: `p${i}`, text: String(i % 10).repeat(399 * 1024) }));
  for (const page of pages) await putRaw(local.documents, tableName, [page]);
  const cap = 800;
  const run = await runProgram(program, ['--table', tableName, '--segments', '2', '--checkpoints', path.join(dir, 'checkpoints'), '--page-size', '4', '--max-wcu', String(cap)], local.endpoint);
  t.is(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const moved = Object.values(report.segments as Record<string, { rewritten: number }>).reduce((sum, c) => sum + c.rewritten, 0);
  t.is(moved, pages.length);
  // charged 1,600 WCU each before it goes (put and delete of 399 KB, doubled), then corrected by what DynamoDB reports
  t.true(report.consumedWcu >= pages.length * 800, `DynamoDB reported ${report.consumedWcu} WCU`);
  // the busiest 10 seconds, by what DynamoDB reported and when it answered: within the cap (and its 10 %)
  t.true(report.busiest10s <= 1.1 * cap * 10, `busiest 10 s: ${report.busiest10s} WCU`);
  t.true(report.busiest10s >= 0.3 * cap * 10, `the cap is used, not starved: ${report.busiest10s} WCU`);
  t.log(`${pages.length} pages of 399 KB moved in ${report.seconds.toFixed(1)} s: ${report.consumedWcu} WCU, busiest 10 s ${report.busiest10s} WCU (cap ${cap * 10})`);
  const items = await scanTable(local.documents, tableName);
  t.deepEqual(items.map((i) => i.pk).sort(), pages.map((p) => `PAGE#${p.pageId}`).sort());
  t.true(items.every((i) => String(i.text).length === 399 * 1024));
});

test.serial('nothing is deleted unless its replacement is there: a newer item deleted between the failed move and the old item\'s delete leaves the old one to move after all', async (t) => {
  t.timeout(240_000);
  const { local, dir } = await workspace(t, await shared());
  const { plan, after, tableName, folder } = await libraryMigration(t, local, librarySchema(), librarySchema({ member: 'PATRON' }));
  const { runMigration } = await import(path.join(folder, 'new', 'library', 'runtime', 'migration', 'engine.js'));
  await putRaw(local.documents, tableName, [0, 1, 2].map((i) => ({ pk: `MEMBER#m${i}`, sk: 'PROFILE', memberId: `m${i}`, name: `member ${i}` })));
  // the new code wrote m0 already: the move of MEMBER#m0 finds PATRON#m0 taken
  const db = new after.LibraryTable(local.documents, { tableName });
  await db.member.put({ memberId: 'm0', name: 'written by the new code' });
  // ... and deletes it again just before the migration deletes the old item (fault injected on the migration's client)
  const client = DynamoDBDocumentClient.from(clientFor(local.endpoint));
  let injected = 0;
  client.middlewareStack.add(
    (next) => async (args) => {
      const items = (args.input as { TransactItems?: Array<Record<string, unknown>> }).TransactItems ?? [];
      if (items.some((i) => 'ConditionCheck' in i) && injected++ === 0) await local.documents.send(new DeleteCommand({ TableName: tableName, Key: { pk: 'PATRON#m0', sk: 'PROFILE' } }));
      return next(args);
    },
    { step: 'initialize', name: 'deleteReplacement' },
  );
  const report = await runMigration(plan, { client, tableName, segments: 1, checkpoints: path.join(dir, 'checkpoints'), maxWcu: 1000 });
  t.is(injected, 1, 'the old item was about to be deleted because a newer one held its key');
  t.like(report.segments[0], { rewritten: 3, superseded: 0, skipped: 0 });
  const items = await scanTable(local.documents, tableName);
  t.deepEqual(items.map((i) => [i.pk, i.name]).sort(), [
    ['PATRON#m0', 'member 0'],
    ['PATRON#m1', 'member 1'],
    ['PATRON#m2', 'member 2'],
  ], 'm0 was not lost: its old item moved once the newer one was gone');
  client.destroy();
});
