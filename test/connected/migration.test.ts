// Connected: the migration `ddbgen diff --emit-migration` writes, run as a real process against
// DynamoDB Local. Three entities: User's key template changes (keys rewritten), Order gains a GSI
// mapping (backfill), Product is untouched. The run is killed by pid mid-way and resumed; a writer
// using the new code runs before and during the resumed run; the table is then checked item by
// item. The suite writes 1,500 items (DDBGEN_MIGRATION_ITEMS=50000 runs the full size).
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { main } from '../../generator/cli/cli.js';
import { scanTable } from '../support/dynamodb-local.js';
import { putRaw, runProgram, sharedDynamoDbLocal, typeCheckProgram, workspace } from '../support/migration-program.js';

const ITEMS = Number(process.env.DDBGEN_MIGRATION_ITEMS ?? 600);
/** Users of the edge graph (each follows 5 users and 2 topics): 80 make ~600 edges, ~1,300 items. */
const GRAPH_USERS = Number(process.env.DDBGEN_MIGRATION_GRAPH_USERS ?? 80);
const PER_ENTITY = Math.floor(ITEMS / 3);
// one DynamoDB Local for the file: each test uses tables of its own (and runs alone)
const shared = sharedDynamoDbLocal(test);

function schema(userPk: string, orderIndexes: string): string {
  return `import { defineTable, entity, gsi, t } from 'ddbgen';
export default defineTable({
  name: 'Shop',
  indexes: { byEmail: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }), byStatus: gsi({ pk: 'gsi2pk', sk: 'gsi2sk' }) },
  entities: {
    User: entity({
      attributes: { id: t.string(), email: t.string(), joinedAt: t.timestamp() },
      key: { pk: '${userPk}', sk: 'PROFILE' },
      indexes: { byEmail: { pk: 'Email#<email>', sk: 'USER' } },
    }),
    Order: entity({
      attributes: { userId: t.string(), orderId: t.string(), status: t.enum(['OPEN', 'SHIPPED']), total: t.number({ min: 0, max: 1e6, integer: true }) },
      key: { pk: 'Account#<userId>', sk: 'Order#<orderId>' },
      indexes: { ${orderIndexes} },
    }),
    Product: entity({
      attributes: { sku: t.string(), name: t.string() },
      key: { pk: 'Product#<sku>', sk: 'PRODUCT' },
    }),
  },
});
`;
}

test.serial('a key rewrite and a GSI backfill: killed mid-way, resumed, with concurrent new-style writes; every item checked', async (t) => {
  t.timeout(240_000 + ITEMS * 40);
  const { local, dir } = await workspace(t, await shared());
  writeFileSync(path.join(dir, 'old.ts'), schema('User#<id>', ''));
  writeFileSync(path.join(dir, 'new.ts'), schema('Customer#<id>', "byStatus: { pk: 'Status#<status>', sk: '<orderId>' }"));
  let out = '';
  const code = await main(['diff', 'old.ts', 'new.ts', '--emit-migration', 'migrations'], { cwd: dir, stdout: (s) => (out += s), stderr: () => {} });
  t.is(code, 0);
  t.regex(out, /ddbgen: wrote migrations\/shop\/migrate-shop\.ts/);
  const program = path.join(dir, 'migrations', 'shop', 'migrate-shop.ts');
  // the emitted program type-checks as a user's strict compiler sees it (in the background meanwhile)
  const typeCheck = typeCheckProgram(dir, program);

  const before = await import(path.join(dir, 'migrations', 'shop', 'old', 'shop', 'index.js'));
  const after = await import(path.join(dir, 'migrations', 'shop', 'new', 'shop', 'index.js'));
  const tableName = `shop-${randomUUID()}`;
  await local.createTable(after.shopTableDefinition(tableName));
  const oldDb = new before.ShopTable(local.documents, { tableName });
  const newDb = new after.ShopTable(local.documents, { tableName });

  const joined = new Date(Date.UTC(2025, 0, 1));
  const users = Array.from({ length: PER_ENTITY }, (_, i) => ({ id: `u${i}`, email: `u${i}@example.com`, joinedAt: new Date(joined.getTime() + i * 1000) }));
  const orders = Array.from({ length: PER_ENTITY }, (_, i) => ({ userId: `u${i % 100}`, orderId: `o${i}`, status: i % 3 ? 'OPEN' : 'SHIPPED', total: i }));
  const products = Array.from({ length: PER_ENTITY }, (_, i) => ({ sku: `p${i}`, name: `Product ${i}` }));
  await oldDb.user.batchPut(users);
  await oldDb.order.batchPut(orders);
  await oldDb.product.batchPut(products);
  // items the old schema cannot account for: reported by key and skipped, never rewritten
  await local.documents.send(new PutCommand({ TableName: tableName, Item: { pk: 'User#broken', sk: 'PROFILE', id: 'broken' } }));
  await local.documents.send(new PutCommand({ TableName: tableName, Item: { pk: 'Junk#1', sk: 'X' } }));

  const checkpoints = path.join(dir, 'checkpoints');
  const args = ['--table', tableName, '--segments', '4', '--checkpoints', checkpoints, '--page-size', '50'];

  // a checkpoint of another migration: a clear error, nothing written
  const foreign = path.join(dir, 'foreign');
  mkdirSync(foreign);
  writeFileSync(path.join(foreign, 'segment-0-of-4.json'), JSON.stringify({ migration: 'shop-000000000000', segment: 0, segments: 4, done: false, counts: {} }));
  const refused = await runProgram(program, ['--table', tableName, '--segments', '4', '--checkpoints', foreign], local.endpoint);
  t.is(refused.code, 1);
  t.regex(refused.stderr, /segment-0-of-4\.json belongs to migration shop-000000000000, not shop-[0-9a-f]{12}/);
  t.is((await scanTable(local.documents, tableName)).filter((i) => String(i.pk).startsWith('Customer#') || i.gsi2pk !== undefined).length, 0, 'nothing was written');

  const killed = await runProgram(program, args, local.endpoint, { checkpoints, scanned: 100 });
  t.is(killed.code, null, 'ended by the signal');
  const midway = await scanTable(local.documents, tableName);
  const pending = readdirSync(checkpoints).filter((f) => f.endsWith('.json')).flatMap((f) => JSON.parse(readFileSync(path.join(checkpoints, f), 'utf8')).pending ?? []);
  t.true(pending.length > 0, 'killed with a page under way: its planned writes are in the checkpoint');
  const oldUsers = midway.filter((i) => /^User#u\d+$/.test(String(i.pk)));
  t.true(oldUsers.length > 0 && oldUsers.length < PER_ENTITY, `stopped mid-way (${oldUsers.length} users left)`);

  // the new code writes before and during the resumed run: its writes win
  const early = oldUsers.slice(0, 20).map((i) => ({ id: String(i.id), email: `early-${String(i.id)}@example.com`, joinedAt: joined }));
  await newDb.user.batchPut(early);
  const resumed = runProgram(program, [...args, '--max-wcu', '600'], local.endpoint);
  const during = oldUsers.slice(20, 60).map((i) => ({ id: String(i.id), email: `during-${String(i.id)}@example.com`, joinedAt: joined }));
  for (const user of during) await newDb.user.put(user);
  const run = await resumed;
  t.is(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const total = (k: string) => Object.values(report.segments as Record<string, Record<string, number>>).reduce((sum, c) => sum + c[k]!, 0);
  t.true(total('superseded') >= early.length);
  // exact across the kill: the writes the killed run made after its last checkpoint are counted too
  t.is(total('rewritten') + total('superseded'), PER_ENTITY, 'every user rewritten or superseded, once');
  t.is(total('backfilled'), PER_ENTITY, 'every order backfilled, once');
  t.deepEqual(
    report.skipped.map((s: { key: object }) => s.key).sort((a: { pk: string }, b: { pk: string }) => (a.pk < b.pk ? -1 : 1)),
    [
      { pk: 'Junk#1', sk: 'X' },
      { pk: 'User#broken', sk: 'PROFILE' },
    ],
  );
  // the cap is measured in consumed capacity, as DynamoDB reports it
  t.true(report.consumedWcu > 0);
  t.true(report.consumedWcu / report.seconds <= 600 * 1.1 + 50, `${report.consumedWcu} WCU in ${report.seconds}s`);
  t.regex(run.stderr, /WCU\/s \(cap 600\)/);

  // item by item: nothing lost, nothing duplicated, old keys gone
  const items = await scanTable(local.documents, tableName);
  const byKey = new Map(items.map((i) => [`${String(i.pk)} ${String(i.sk)}`, i]));
  t.is(byKey.size, items.length);
  t.is(items.length, 3 * PER_ENTITY + 2);
  const latest = new Map([...early, ...during].map((u) => [u.id, u.email]));
  for (const user of users) {
    const item = byKey.get(`Customer#${user.id} PROFILE`);
    t.truthy(item, user.id);
    t.is(item!.email, latest.get(user.id) ?? user.email);
    t.is(item!.gsi1pk, `Email#${String(item!.email)}`);
    t.false(byKey.has(`User#${user.id} PROFILE`));
  }
  for (const order of orders) {
    const item = byKey.get(`Account#${order.userId} Order#${order.orderId}`);
    t.is(item?.gsi2pk, `Status#${order.status}`);
    t.is(item?.total, order.total);
  }
  for (const product of products) t.is(byKey.get(`Product#${product.sku} PRODUCT`)?.name, product.name);
  t.true(byKey.has('User#broken PROFILE') && byKey.has('Junk#1 X'));
  const firstPage = await newDb.order.queryByStatus({ status: 'SHIPPED' }, { limit: 5 });
  t.is(firstPage.items.length, 5);

  // re-running changes nothing: finished segments stop at once; from scratch, every item is already current
  const again = JSON.parse((await runProgram(program, args, local.endpoint)).stdout);
  t.deepEqual(again.segments, report.segments, 'the counts are the checkpoints\' (cumulative), unchanged');
  t.is(again.consumedWcu, 0);
  const fresh = await runProgram(program, ['--table', tableName, '--segments', '2', '--checkpoints', path.join(dir, 'fresh')], local.endpoint);
  const counts = Object.values(JSON.parse(fresh.stdout).segments as Record<string, Record<string, number>>);
  const sum = (k: string) => counts.reduce((s, c) => s + c[k]!, 0);
  t.is(await typeCheck, '');
  t.deepEqual([sum('rewritten'), sum('backfilled'), sum('superseded'), sum('current'), sum('unchanged'), sum('skipped')], [0, 0, 0, 2 * PER_ENTITY, PER_ENTITY, 2]);
});

const FANS_V1 = `import { defineTable, entity, gsi, t } from 'ddbgen';
export default defineTable({
  name: 'Fans',
  indexes: { byRank: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) },
  entities: {
    User: entity({ attributes: { id: t.number({ integer: true, min: 1, max: 1e9 }), name: t.string() }, key: { pk: 'User#<id>', sk: 'PROFILE' } }),
    Series: entity({
      attributes: { id: t.string(), rank: t.number({ integer: true, min: 1, max: 100 }) },
      key: { pk: 'Series#<id>', sk: 'PROFILE' },
      indexes: { byRank: { pk: 'Rank#<rank>', sk: '<id>' } },
    }),
    Note: entity({ attributes: { id: t.string(), n: t.number({ integer: true, min: 0, max: 999 }) }, key: { pk: 'Note#<id>', sk: 'N#<n>' } }),
  },
});
`;

test.serial('the key codec change v1 → v2 as a migration: items written raw in v1 form are rewritten (User) or backfilled (Series), item by item; a re-run changes nothing', async (t) => {
  t.timeout(240_000);
  const { local, dir } = await workspace(t, await shared());
  writeFileSync(path.join(dir, 'schema.ts'), FANS_V1);
  let out = '';
  let err = '';
  const code = await main(['diff', 'schema.ts', 'schema.ts', '--old-codec', '1', '--emit-migration', 'migrations'], { cwd: dir, stdout: (s) => (out += s), stderr: (s) => (err += s) });
  t.is(code, 0);
  t.deepEqual(err.split('\n').filter((l) => l.startsWith('schema.ts')).map((l) => l.replace(/:.*? - /, ' ').split(':')[0]), [
    'schema.ts warning DDB230',
    'schema.ts warning DDB231',
  ]);
  t.regex(out, /2 changes \(1 needs a backfill, 1 rewrites keys\)[^]*ddbgen: wrote migrations\/fans\/migrate-fans\.ts/);
  const program = path.join(dir, 'migrations', 'fans', 'migrate-fans.ts');
  const after = await import(path.join(dir, 'migrations', 'fans', 'new', 'fans', 'index.js'));
  const tableName = `fans-${randomUUID()}`;
  await local.createTable(after.fansTableDefinition(tableName));
  const db = new after.FansTable(local.documents, { tableName });

  // written raw, as codec v1 wrote them: integers as the offset from min (1..1e9: 9 digits; 1..100: 2)
  const v1 = (value: number, min: number, width: number) => String(value - min).padStart(width, '0');
  const users = Array.from({ length: 40 }, (_, i) => ({ id: i * 7 + 1, name: `user ${i}` }));
  const series = Array.from({ length: 20 }, (_, i) => ({ id: `s${i}`, rank: (i % 100) + 1 }));
  const notes = Array.from({ length: 10 }, (_, i) => ({ id: `n${i}`, n: i }));
  const raw = [
    ...users.map((u) => ({ pk: `User#${v1(u.id, 1, 9)}`, sk: 'PROFILE', ...u })),
    ...series.map((s) => ({ pk: `Series#${s.id}`, sk: 'PROFILE', gsi1pk: `Rank#${v1(s.rank, 1, 2)}`, gsi1sk: s.id, ...s })),
    ...notes.map((n) => ({ pk: `Note#${n.id}`, sk: `N#${String(n.n).padStart(3, '0')}`, ...n })),
  ];
  for (const Item of raw) await local.documents.send(new PutCommand({ TableName: tableName, Item }));
  const stale = t.throws(() => after.UserKeys.parse({ pk: 'User#000000000', sk: 'PROFILE' }));
  t.is((stale as { codecVersion?: number }).codecVersion, 1, 'the new code reads a v1 key as a KeyParseError naming codec v1');
  // user 8 was already written again by the new code: its write wins, the v1 item only goes away
  await db.user.put({ id: 8, name: 'rewritten by new code' });

  const args = ['--table', tableName, '--segments', '2', '--checkpoints', path.join(dir, 'checkpoints'), '--page-size', '10', '--max-wcu', '400'];
  const run = await runProgram(program, args, local.endpoint);
  t.is(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const counts = Object.values(report.segments as Record<string, Record<string, number>>);
  const sum = (k: string) => counts.reduce((s, c) => s + c[k]!, 0);
  t.deepEqual([sum('rewritten'), sum('superseded'), sum('backfilled'), sum('unchanged'), sum('skipped')], [users.length - 1, 1, series.length, notes.length, 0]);
  t.true(report.consumedWcu / report.seconds <= 400 * 1.1 + 50);

  const items = await scanTable(local.documents, tableName);
  const byKey = new Map(items.map((i) => [`${String(i.pk)} ${String(i.sk)}`, i]));
  t.is(items.length, users.length + series.length + notes.length, 'nothing lost, nothing doubled');
  for (const user of users) {
    const item = byKey.get(`User#${String(user.id).padStart(10, '0')} PROFILE`);
    t.is(item?.name, user.id === 8 ? 'rewritten by new code' : user.name, `user ${user.id}`);
    t.false(byKey.has(`User#${v1(user.id, 1, 9)} PROFILE`), `user ${user.id}: the v1 key is gone`);
    t.deepEqual(await db.user.get({ id: user.id }), { id: user.id, name: item?.name });
  }
  for (const s of series) {
    const item = byKey.get(`Series#${s.id} PROFILE`);
    t.is(item?.gsi1pk, `Rank#${String(s.rank).padStart(3, '0')}`, `series ${s.id}`);
    t.is(item?.rank, s.rank);
  }
  for (const n of notes) t.is(byKey.get(`Note#${n.id} N#${String(n.n).padStart(3, '0')}`)?.n, n.n);
  t.deepEqual((await db.series.queryByRank({ rank: 3 })).items.map((s: { id: string }) => s.id), ['s2']);

  // idempotent: from scratch, every item is already in its v2 form
  const fresh = JSON.parse((await runProgram(program, ['--table', tableName, '--segments', '1', '--checkpoints', path.join(dir, 'fresh')], local.endpoint)).stdout);
  t.deepEqual(fresh.segments[0], { scanned: items.length, rewritten: 0, backfilled: 0, current: users.length + series.length, superseded: 0, unchanged: notes.length, skipped: 0 });
  t.is(fresh.consumedWcu, 0);
});

// Users (integer ids 1..1e9: key codec v1 wrote id 1 as 000000000) and topics (string ids) joined by
// edge Fan, whose items carry both nodes' ids: the v1 → v2 migration moves both halves of each.
const FAN_GRAPH = `import { defineTable, edge, entity, t } from 'ddbgen';
export default defineTable({
  name: 'Graph',
  entities: {
    User: entity({ attributes: { id: t.number({ integer: true, min: 1, max: 1e9 }), name: t.string() }, key: { pk: 'User#<id>', sk: 'PROFILE' } }),
    Topic: entity({ attributes: { name: t.string() }, key: { pk: 'Topic#<name>', sk: 'PROFILE' } }),
  },
  edges: { Fan: edge({ types: ['User', 'Topic'], forward: 'FAN_OF', inverse: 'FANNED_BY', attributes: { note: t.string() } }) },
});
`;

type GraphNode = { type: 'User'; id: number } | { type: 'Topic'; id: string };

test.serial('edge items across the key codec change: both halves moved, killed mid-way and resumed, new-style edge writes meanwhile; every edge checked from both sides', async (t) => {
  t.timeout(240_000);
  const { local, dir } = await workspace(t, await shared());
  writeFileSync(path.join(dir, 'schema.ts'), FAN_GRAPH);
  let err = '';
  const code = await main(['diff', 'schema.ts', 'schema.ts', '--old-codec', '1', '--emit-migration', 'migrations'], { cwd: dir, stdout: () => {}, stderr: (s) => (err += s) });
  t.is(code, 0);
  t.deepEqual(err.split('\n').filter((l) => l.startsWith('schema.ts')).map((l) => l.replace(/^.*? - (\w+ \w+):.*$/, '$1')), ['warning DDB230', 'warning DDB232']);
  const program = path.join(dir, 'migrations', 'graph', 'migrate-graph.ts');
  const typeCheck = typeCheckProgram(dir, program);
  const after = await import(path.join(dir, 'migrations', 'graph', 'new', 'graph', 'index.js'));
  const tableName = `graph-${randomUUID()}`;
  await local.createTable(after.graphTableDefinition(tableName));
  const db = new after.GraphTable(local.documents, { tableName });

  // the graph, written raw as codec v1 wrote it: each edge as two items, ids as the offset from min
  const v1 = (node: GraphNode) => (node.type === 'User' ? String(node.id - 1).padStart(9, '0') : node.id);
  const v2 = (node: GraphNode) => (node.type === 'User' ? String(node.id).padStart(10, '0') : node.id);
  const users: GraphNode[] = Array.from({ length: GRAPH_USERS }, (_, i) => ({ type: 'User', id: i * 37 + 1 }));
  const topics: GraphNode[] = Array.from({ length: 20 }, (_, i) => ({ type: 'Topic', id: `topic-${i}` }));
  const edges: Array<{ from: GraphNode; to: GraphNode; note: string }> = [];
  users.forEach((from, a) => {
    for (let k = 0; k < 5; k++) edges.push({ from, to: users[(a + 1 + k * 13) % users.length]!, note: `n${edges.length}` });
    for (let k = 0; k < 2; k++) edges.push({ from, to: topics[(a + k) % topics.length]!, note: `n${edges.length}` });
    if (a < 10) edges.push({ from, to: from, note: `n${edges.length}` });
  });
  topics.forEach((from, k) => edges.push({ from, to: users[(k * 10) % users.length]!, note: `n${edges.length}` }));
  const raw = [
    ...users.map((u) => ({ pk: `User#${v1(u)}`, sk: 'PROFILE', id: u.id, name: `user ${String(u.id)}` })),
    ...topics.map((g) => ({ pk: `Topic#${v1(g)}`, sk: 'PROFILE', name: g.id })),
    ...edges.flatMap((e) => [
      { pk: `${e.from.type}#${v1(e.from)}`, sk: `FAN_OF#${e.to.type}#${v1(e.to)}`, note: e.note },
      { pk: `${e.to.type}#${v1(e.to)}`, sk: `FANNED_BY#${e.from.type}#${v1(e.from)}`, note: e.note },
    ]),
    // an edge with only one half, and one whose id no codec wrote: reported by key and skipped
    { pk: 'User#000000000', sk: 'FAN_OF#Topic#orphan', note: 'orphan' },
    { pk: 'User#000000000', sk: 'FAN_OF#User#abc', note: 'unreadable' },
  ];
  await putRaw(local.documents, tableName, raw);
  t.true(edges.length > 7 * GRAPH_USERS);

  const checkpoints = path.join(dir, 'checkpoints');
  const args = ['--table', tableName, '--segments', '4', '--checkpoints', checkpoints, '--page-size', '50', '--max-wcu', '2000'];
  const killed = await runProgram(program, args, local.endpoint, { checkpoints, scanned: 100 });
  t.is(killed.code, null, 'ended by the signal');
  // transactions the killed process had sent may still commit: let them settle before looking
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const midway = await scanTable(local.documents, tableName);
  const oldForward = midway.filter((i) => /^FAN_OF#User#\d{9}$/.test(String(i.sk)) && /^User#\d{9}$/.test(String(i.pk)) && i.note !== 'orphan');
  t.true(oldForward.length > 60 && midway.some((i) => /^FAN_OF#\w+#(\d{10}|topic-\d+)$/.test(String(i.sk)) && /^(User#\d{10}|Topic#)/.test(String(i.pk))), `stopped mid-way (${oldForward.length} old forward items left)`);
  const byNote = new Map(edges.map((e) => [e.note, e]));

  // the new code adds edges still stored in v1 form before the resumed run (its halves win) and
  // during it (whichever transaction is first wins; a second add is a no-op), and new edges
  const latest = new Map<string, string>();
  for (const e of oldForward.slice(0, 10).map((i) => byNote.get(String(i.note))!)) {
    if ((await db.fan.add(e.from, e.to, { note: `early ${e.note}` })).created) latest.set(e.note, `early ${e.note}`);
  }
  const early = latest.size;
  t.true(early >= 8, `${early} of 10 edges still in v1 form were added by the new code`);
  const resumed = runProgram(program, args, local.endpoint);
  for (const e of oldForward.slice(10, 60).map((i) => byNote.get(String(i.note))!)) {
    if ((await db.fan.add(e.from, e.to, { note: `during ${e.note}` })).created) latest.set(e.note, `during ${e.note}`);
  }
  const added = topics.slice(10, 20).map((to, k) => ({ from: users[(k + 100) % users.length]!, to, note: `added ${k}` }));
  for (const e of added) await db.fan.add(e.from, e.to, { note: e.note });
  const run = await resumed;
  t.is(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const counts = Object.values(report.segments as Record<string, Record<string, number>>);
  const sum = (k: string) => counts.reduce((s, c) => s + c[k]!, 0);
  t.true(sum('superseded') >= early, `${sum('superseded')} superseded`);
  t.deepEqual(
    report.skipped.map((s: { key: object; reason: string }) => [s.key, s.reason]).sort((a: [{ sk: string }], b: [{ sk: string }]) => (a[0].sk < b[0].sk ? -1 : 1)),
    [
      [{ pk: 'User#000000000', sk: 'FAN_OF#Topic#orphan' }, 'edge Fan: its other half {"pk":"Topic#orphan","sk":"FANNED_BY#User#000000000"} is not in the table (an edge is stored as two items); nothing was written'],
      [{ pk: 'User#000000000', sk: 'FAN_OF#User#abc' }, 'edge Fan: its keys name no node of the old schema or the new one'],
    ],
  );
  t.true(report.consumedWcu / report.seconds <= 2000 * 1.1 + 50, `${report.consumedWcu} WCU in ${report.seconds}s`);

  // item by item: every edge's two halves under v2 keys with its latest attributes, no v1 key left
  const items = await scanTable(local.documents, tableName);
  const byKey = new Map(items.map((i) => [`${String(i.pk)} ${String(i.sk)}`, i]));
  t.is(byKey.size, items.length, 'no key twice');
  const all = [...edges, ...added];
  t.is(items.length, users.length + topics.length + 2 * all.length + 2, 'nothing lost, nothing doubled');
  for (const e of all) {
    const note = latest.get(e.note) ?? e.note;
    t.is(byKey.get(`${e.from.type}#${v2(e.from)} FAN_OF#${e.to.type}#${v2(e.to)}`)?.note, note, `${e.note} forward`);
    t.is(byKey.get(`${e.to.type}#${v2(e.to)} FANNED_BY#${e.from.type}#${v2(e.from)}`)?.note, note, `${e.note} inverse`);
  }
  t.deepEqual(items.filter((i) => /(^|#)\d{9}$/.test(String(i.pk)) || /#\d{9}$/.test(String(i.sk))).map((i) => i.note).sort(), ['orphan', 'unreadable'], 'only the skipped items keep v1 keys');

  // through the generated edge API: every node's outgoing and incoming links, exactly
  const id = (node: GraphNode) => `${node.type} ${String(node.id)}`;
  const listed = async (page: (options: object) => Promise<{ items: Array<{ type: string; id: unknown; note: string }>; cursor?: string }>) => {
    const out: string[] = [];
    let cursor: string | undefined;
    do {
      const result = await page(cursor ? { cursor } : {});
      out.push(...result.items.map((l) => `${l.type} ${String(l.id)}: ${l.note}`));
      cursor = result.cursor;
    } while (cursor);
    return out.sort();
  };
  for (const node of [...users, ...topics]) {
    const link = (other: GraphNode, e: { note: string }) => `${id(other)}: ${latest.get(e.note) ?? e.note}`;
    t.deepEqual(await listed((o) => db.fan.outgoing(node, o)), all.filter((e) => id(e.from) === id(node)).map((e) => link(e.to, e)).sort(), `outgoing ${id(node)}`);
    t.deepEqual(await listed((o) => db.fan.incoming(node, o)), all.filter((e) => id(e.to) === id(node)).map((e) => link(e.from, e)).sort(), `incoming ${id(node)}`);
  }
  t.deepEqual(await db.user.get({ id: users[3]!.id }), { id: users[3]!.id, name: `user ${String(users[3]!.id)}` });

  // idempotent: from scratch, every edge item and entity is already in its v2 form
  const fresh = JSON.parse((await runProgram(program, ['--table', tableName, '--segments', '2', '--checkpoints', path.join(dir, 'fresh')], local.endpoint)).stdout);
  const again = Object.values(fresh.segments as Record<string, Record<string, number>>);
  const total = (k: string) => again.reduce((s, c) => s + c[k]!, 0);
  t.deepEqual([total('rewritten'), total('superseded'), total('current'), total('unchanged'), total('skipped')], [0, 0, users.length + 2 * all.length, topics.length, 2]);
  t.is(fresh.consumedWcu, 8, 'only the orphan half tried again: a cancelled transaction reports nothing, so its estimate stands (4 items under 1 KB, doubled)');
  t.is(await typeCheck, '');
});

const socialGraph = (delimiter: string, follows: string) => `import { defineTable, edge, entity, gsi, t } from 'ddbgen';
export default defineTable({
  name: 'Social',
  delimiter: '${delimiter}',
  indexes: { byLiked: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) },
  entities: {
    User: entity({ attributes: { id: t.string(), name: t.string() }, key: { pk: 'User${delimiter}<id>', sk: 'PROFILE' } }),
    Topic: entity({ attributes: { name: t.string() }, key: { pk: 'Topic${delimiter}<name>', sk: 'PROFILE' } }),
  },
  edges: {
    Follow: edge({ types: ['User'], forward: '${follows}', inverse: 'FOLLOWED_BY' }),
    Like: edge({ types: ['User', 'Topic'], forward: 'LIKES', inverse: 'LIKED_BY', inverseIndex: 'byLiked', attributes: { stars: t.number({ integer: true, min: 1, max: 5 }) } }),
  },
});
`;

test.serial('a new delimiter and a renamed edge label: the migration moves both edges (one with its inverse in a GSI), written by the old code and read by the new', async (t) => {
  t.timeout(240_000);
  const { local, dir } = await workspace(t, await shared());
  writeFileSync(path.join(dir, 'old.ts'), socialGraph('#', 'FOLLOWS'));
  writeFileSync(path.join(dir, 'new.ts'), socialGraph('|', 'FOLLOWING'));
  let err = '';
  t.is(await main(['diff', 'old.ts', 'new.ts', '--emit-migration', 'migrations'], { cwd: dir, stdout: () => {}, stderr: (s) => (err += s) }), 0);
  t.deepEqual(err.split('\n').filter((l) => l.startsWith('new.ts') || l.startsWith('old.ts')).map((l) => l.replace(/^.*? - \w+ (\w+):.*$/, '$1')), ['DDB220', 'DDB215', 'DDB215', 'DDB223', 'DDB223']);
  t.regex(err, /DDB223: \[rewrites keys\] edge "Follow" changed forward: [^]*DDB223: \[rewrites keys\] edge "Like" uses the new delimiter: [^]*fix: generate and run the migration/);
  const program = path.join(dir, 'migrations', 'social', 'migrate-social.ts');
  // (the emitted program type-checks: the edge test above checks the same emitter's output)
  const before = await import(path.join(dir, 'migrations', 'social', 'old', 'social', 'index.js'));
  const after = await import(path.join(dir, 'migrations', 'social', 'new', 'social', 'index.js'));
  const tableName = `social-${randomUUID()}`;
  await local.createTable(after.socialTableDefinition(tableName));
  const oldDb = new before.SocialTable(local.documents, { tableName });
  const db = new after.SocialTable(local.documents, { tableName });

  // written by the old code: ids hold the new delimiter, so their escaping changes too
  const users = Array.from({ length: 30 }, (_, i) => ({ type: 'User' as const, id: `u|${i}` }));
  const topics = Array.from({ length: 5 }, (_, i) => ({ type: 'Topic' as const, id: `t#${i}` }));
  await oldDb.user.batchPut(users.map((u) => ({ id: u.id, name: `name ${u.id}` })));
  await oldDb.topic.batchPut(topics.map((g) => ({ name: g.id })));
  const follows = users.flatMap((from, a) => [1, 2, 3].map((k) => ({ from, to: users[(a + k) % users.length]! })));
  const likes = users.map((from, a) => ({ from, to: topics[a % topics.length]!, attributes: { stars: (a % 5) + 1 } }));
  t.deepEqual(await oldDb.follow.addMany(follows), { done: follows.length, unchanged: 0, failed: [] });
  t.deepEqual(await oldDb.like.addMany(likes), { done: likes.length, unchanged: 0, failed: [] });

  const args = ['--table', tableName, '--segments', '3', '--checkpoints', path.join(dir, 'checkpoints'), '--page-size', '20'];
  const run = await runProgram(program, args, local.endpoint);
  t.is(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  t.deepEqual(report.skipped, []);

  const items = await scanTable(local.documents, tableName);
  t.is(items.length, users.length + topics.length + 2 * follows.length + likes.length, 'nothing lost, nothing doubled');
  t.deepEqual(items.filter((i) => !/^(User|Topic)\|/.test(String(i.pk)) || !/^(PROFILE$|FOLLOWING\||FOLLOWED_BY\||LIKES\|)/.test(String(i.sk))), [], 'no key in the old form left');
  const sorted = (links: Array<{ id: unknown }>) => links.map((l) => String(l.id)).sort();
  for (const [a, user] of users.entries()) {
    t.deepEqual(sorted((await db.follow.outgoing(user)).items), sorted(follows.filter((f) => f.from === user).map((f) => f.to)), `${user.id} follows`);
    t.deepEqual(sorted((await db.follow.incoming(user)).items), sorted(follows.filter((f) => f.to === user).map((f) => f.from)), `${user.id} followed by`);
    t.deepEqual(await db.like.get(user, topics[a % topics.length]!), { stars: (a % 5) + 1 });
    t.is(await db.user.get({ id: user.id }).then((u: { name: string } | undefined) => u?.name), `name ${user.id}`);
  }
  for (const topic of topics) t.deepEqual(sorted((await db.like.incoming(topic)).items), sorted(likes.filter((l) => l.to === topic).map((l) => l.from)), `${topic.id} liked by`);

  const fresh = JSON.parse((await runProgram(program, ['--table', tableName, '--segments', '1', '--checkpoints', path.join(dir, 'fresh')], local.endpoint)).stdout);
  t.like(fresh.segments[0], { scanned: items.length, rewritten: 0, superseded: 0, current: items.length, skipped: 0 });
});
