// Connected: tables written by the peers themselves — ElectroDB, DynamoDB-Toolbox v2 and OneTable,
// each with a model shaped like its documented example app (test/support/peer-models.ts) — are
// pulled and generated. Every item the peer wrote reads back through ddbgen equal to what the peer
// reads; items ddbgen writes read back through the peer as written; the peer's collection and index
// queries and ddbgen's return the same items. (Values compare in their stored form: a Date as the
// text or number the table holds, a set as its sorted members.)
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import anyTest, { type TestFn } from 'ava';
import { GetItemCommand, QueryCommand } from 'dynamodb-toolbox';
import { main } from '../../generator/cli/cli.js';
import { scanTable, useDynamoDbLocal, type LocalDynamo } from '../support/dynamodb-local.js';
import { electroFleet, electroTable, electroTaskApp, oneTableAccounts, oneTableTable, toolboxPokedex, toolboxTable } from '../support/peer-models.js';

const test = anyTest as TestFn;
const root = path.resolve(import.meta.dirname, '../..');
const dir = path.join(root, 'out', `.peers-${randomUUID().slice(0, 8)}`);
let local: LocalDynamo;

test.before(async () => {
  local = await useDynamoDbLocal();
  mkdirSync(dir, { recursive: true });
  process.env['AWS_ACCESS_KEY_ID'] = 'ddbgen';
  process.env['AWS_SECRET_ACCESS_KEY'] = 'local';
});
test.after.always(async () => {
  await local?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Model = { types: Record<string, { kind: string; format?: string }> };
type Item = Record<string, unknown>;

/** Pulls `table` and generates its code; the generated module and the pulled schema's text. */
async function pullAndGenerate(table: string): Promise<{ generated: Record<string, any>; schema: string; report: any }> {
  let out = '';
  let err = '';
  const io = { cwd: dir, stdout: (s: string) => (out += s), stderr: (s: string) => (err += s) };
  const pulled = await main(['pull', '--table', table, '--endpoint', local.endpoint, '--out', `${table}.ts`, '--format', 'json'], io);
  if (pulled !== 0) throw new Error(`pull failed: ${err}`);
  const report = JSON.parse(out);
  const keep = process.env['DDBGEN_KEEP_PULLED'];
  if (keep) {
    // DDBGEN_KEEP_PULLED=DIR: the pulled schema and the text report, as a user sees them, kept for review
    let text = '';
    mkdirSync(keep, { recursive: true });
    const again = await main(['pull', '--table', table, '--endpoint', local.endpoint, '--out', path.resolve(root, keep, `${table}.ts`), '--force'], { ...io, stdout: (s: string) => (text += s) });
    if (again !== 0) throw new Error(`pull (text report) failed: ${err}`);
    writeFileSync(path.resolve(root, keep, `${table}.report.txt`), text);
  }
  const generated = await main(['generate', `${table}.ts`, '--out', 'gen'], io);
  if (generated !== 0) throw new Error(`generate failed: ${err}`);
  return { generated: await import(path.join(dir, 'gen', table, 'index.js')), schema: readFileSync(path.join(dir, `${table}.ts`), 'utf8'), report };
}

/** A value in the form the table stores it: Dates by the attribute's declared format, sets as sorted arrays. */
function stored(model: Model, item: Item | undefined): Item | undefined {
  if (item === undefined) return undefined;
  const out: Item = {};
  for (const [name, value] of Object.entries(item)) {
    if (value instanceof Date) {
      const iso = value.toISOString();
      const format = model.types[name]?.format;
      out[name] = format === 'date' ? iso.slice(0, 10) : format === 'iso-seconds' ? `${iso.slice(0, 19)}Z` : format === 'epoch-seconds' ? value.getTime() / 1000 : format === 'epoch-milliseconds' ? value.getTime() : iso;
    } else out[name] = value instanceof Set ? [...value].sort() : value;
  }
  return out;
}

/** A peer's item with its property names as the table stores them, sets sorted and Dates as ISO text. */
function peerItem(item: Item | undefined | null, stored: Readonly<Record<string, string>> = {}): Item | undefined {
  if (!item) return undefined;
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [stored[name] ?? name, value instanceof Set || Array.isArray(value) ? [...(value as Iterable<unknown>)].sort() : value instanceof Date ? value.toISOString() : value]));
}

const byKey = (items: readonly Item[], ...names: string[]) => [...items].sort((a, b) => names.map((n) => String(a[n])).join('\0').localeCompare(names.map((n) => String(b[n])).join('\0')));

test('ElectroDB: a task manager written by ElectroDB reads back through ddbgen; ddbgen\'s writes read back through ElectroDB; collections match', async (t) => {
  const table = 'taskapp';
  await local.createTable(electroTable(table));
  const edb = electroTaskApp(table, local.documents);
  const employees = [
    { employee: 'JLowe', firstName: 'Joe', lastName: 'Lowe', office: 'Gw Zoo', title: 'Dev', salary: 45000, hired: '2020-01-05', birthday: '1990-01-01', skills: ['ts', 'sql'] },
    { employee: 'TMiller', firstName: 'Tom', lastName: 'Miller', office: 'Gw Zoo', title: 'Lead', hired: '2019-03-01' },
    { employee: 'ASmith', firstName: 'Ann', lastName: 'Smith', office: 'Portland HQ', title: 'Dev', salary: 52000, hired: '2021-07-19', skills: ['go'] },
  ];
  const tasks = [
    { task: 'T-1', project: 'Apollo', employee: 'JLowe', points: 3, status: 'open', description: 'write the codec' },
    { task: 'T-2', project: 'Apollo', employee: 'JLowe', points: 5, status: 'done' },
    { task: 'T-3', project: 'Gemini', employee: 'ASmith', points: 8, status: 'in-progress' },
  ] as const;
  const offices = [{ office: 'Gw Zoo', country: 'US', city: 'Portland', opened: 2015 }, { office: 'Portland HQ', country: 'US', city: 'Portland', opened: 2009 }];
  for (const e of employees) await edb.employee.put(e).go();
  for (const x of tasks) await edb.task.put(x).go();
  for (const o of offices) await edb.office.put(o).go();

  const { generated: g, schema, report } = await pullAndGenerate(table);
  t.deepEqual(report.unmatched, []);
  t.regex(schema, /keyFormat: \{ escape: false, integers: 'padded', casing: 'lower' \}/);
  t.regex(schema, /gsi1pkGsi1skIndex: gsi\(\{ pk: 'gsi1pk', sk: 'gsi1sk', projection: 'all', indexName: 'gsi1pk-gsi1sk-index' \}\)/);
  const db = new g.TaskappTable(local.documents, { tableName: table });
  const renamed = { birthday: 'bday' };
  for (const e of employees) t.deepEqual(stored(g.employeeModel, await db.employee.get({ employee: e.employee })), peerItem((await edb.employee.get({ employee: e.employee }).go()).data, renamed), e.employee);
  for (const x of tasks) t.deepEqual(stored(g.taskModel, await db.task.get({ task: x.task, project: x.project })), peerItem((await edb.task.get(x).go()).data), x.task);
  for (const o of offices) t.deepEqual(stored(g.officeModel, await db.office.get(o)), peerItem((await edb.office.get(o).go()).data), o.office);

  // ddbgen writes, ElectroDB reads
  const hire = { employee: 'BNew', firstName: 'Bea', lastName: 'New', office: 'Gw Zoo', title: 'Intern', hired: new Date('2024-05-06T00:00:00Z'), bday: new Date('2001-02-03T00:00:00Z'), skills: new Set(['rust', 'css']) };
  await db.employee.put(hire);
  await db.task.put({ task: 'T-4', project: 'Apollo', employee: 'BNew', points: 1, status: 'open' });
  t.deepEqual(peerItem((await edb.employee.get({ employee: 'BNew' }).go()).data, renamed), stored(g.employeeModel, hire));
  t.deepEqual(peerItem((await edb.task.get({ task: 'T-4', project: 'Apollo' }).go()).data), { task: 'T-4', project: 'Apollo', employee: 'BNew', points: 1, status: 'open' });

  // the same queries: ElectroDB's collections against ddbgen's index queries
  const workplaces = (await edb.service.collections.workplaces({ office: 'Gw Zoo' }).go()).data;
  t.deepEqual(byKey((await db.employee.queryGsi1pkGsi1skIndex({ office: 'Gw Zoo' })).items.map((i: Item) => stored(g.employeeModel, i)!), 'employee'), byKey(workplaces.employee.map((i) => peerItem(i, renamed)!), 'employee'));
  t.deepEqual((await db.office.queryGsi1pkGsi1skIndex({ office: 'Gw Zoo' })).items.map((i: Item) => stored(g.officeModel, i)), workplaces.office.map((i) => peerItem(i)));
  t.is(workplaces.employee.length, 3);
  const assignments = (await edb.service.collections.assignments({ employee: 'JLowe' }).go()).data;
  t.deepEqual(byKey((await db.task.queryGsi2pkGsi2skIndex({ employee: 'JLowe' })).items.map((i: Item) => stored(g.taskModel, i)!), 'task'), byKey(assignments.task.map((i) => peerItem(i)!), 'task'));
  t.is(assignments.task.length, 2);

  // later, the move to ddbgen's own codec: the pulled schema without ElectroDB's key format and
  // discriminators, `ddbgen diff --emit-migration`, and the migration run against the table
  const next = schema
    .split('\n')
    .filter((line) => !/^\s*(keyFormat|discriminator):/.test(line))
    .join('\n')
    .replace("key: { pk: '$taskapp#employee_<employee>', sk: '$employee_1' }", "key: { pk: 'Employee#<employee>', sk: 'PROFILE' }")
    .replace("gsi1pkGsi1skIndex: { pk: '$taskapp#office_<office>', sk: '$workplaces#employee_1#employee_<employee>' }", "gsi1pkGsi1skIndex: { pk: 'Office#<office>', sk: 'Employee#<employee>' }")
    .replace("gsi2pkGsi2skIndex: { pk: '$taskapp#employee_<employee>', sk: '$assignments#employee_1' }", "gsi2pkGsi2skIndex: { pk: 'Employee#<employee>', sk: 'PROFILE' }")
    .replace("key: { pk: '$taskapp#task_<task>', sk: '$task_1#project_<project>' }", "key: { pk: 'Task#<task>', sk: 'Project#<project>' }")
    .replace("gsi2pkGsi2skIndex: { pk: '$taskapp#employee_<employee>', sk: '$assignments#task_1#project_<project>#task_<task>' }", "gsi2pkGsi2skIndex: { pk: 'Employee#<employee>', sk: 'Task#<project>#<task>' }")
    .replace("key: { pk: '$taskapp#country_<country>', sk: '$office_1#city_<city>#office_<office>' }", "key: { pk: 'Country#<country>', sk: 'Office#<city>#<office>' }")
    .replace("gsi1pkGsi1skIndex: { pk: '$taskapp#office_<office>', sk: '$workplaces#office_1' }", "gsi1pkGsi1skIndex: { pk: 'Office#<office>', sk: 'OFFICE' }");
  t.false(next.includes("'$"), 'every ElectroDB template replaced');
  writeFileSync(path.join(dir, 'taskapp-next.ts'), next);
  let diffOut = '';
  t.is(await main(['diff', `${table}.ts`, 'taskapp-next.ts', '--emit-migration', 'migrations'], { cwd: dir, stdout: (x) => (diffOut += x), stderr: (x) => (diffOut += x) }), 0);
  t.regex(diffOut, /Employee's partition key changed from "\$taskapp#employee_<employee>" to "Employee#<employee>"/);
  t.regex(diffOut, /Employee's discriminator changed from \{"__edb_e__":"employee","__edb_v__":"1"\} to none: stored items carry the old values, which the new code no longer writes or reads/);
  const program = path.join(dir, 'migrations', table, `migrate-${table}.ts`);
  const migrated = spawnSync(process.execPath, ['--import=tsx', program, '--endpoint', local.endpoint, '--region', 'local', '--table', table], { cwd: path.dirname(program), env: process.env, encoding: 'utf8' });
  t.is(migrated.status, 0, migrated.stderr);
  const after = await import(path.join(dir, 'migrations', table, 'new', table, 'index.js'));
  const moved = new after.TaskappTable(local.documents, { tableName: table });
  t.deepEqual(stored(after.employeeModel, await moved.employee.get({ employee: 'JLowe' })), peerItem({ ...employees[0], birthday: '1990-01-01' }, renamed), 'read by its new key, case as given');
  t.deepEqual((await moved.employee.queryGsi1pkGsi1skIndex({ office: 'Gw Zoo' })).items.map((i: Item) => i['employee']).sort(), ['BNew', 'JLowe', 'TMiller']);
  const raw = await scanTable(local.documents, table);
  t.is(raw.length, employees.length + tasks.length + offices.length + 2);
  t.false(raw.some((i) => String(i['pk']).startsWith('$') || '__edb_e__' in i), 'no item keeps an ElectroDB key or attribute');
});

test('ElectroDB: trip numbers ElectroDB pads and fleet numbers it does not, in one table: every item is found, written, updated, deleted and ranged where ElectroDB keys it', async (t) => {
  const table = 'fleet';
  await local.createTable(electroTable(table));
  const edb = electroFleet(table, local.documents);
  const vehicles = [
    { vehicleId: 'v1', depot: 'North', fleetNo: 7, make: 'Volvo' },
    { vehicleId: 'v2', depot: 'North', fleetNo: 105, make: 'MAN' },
    { vehicleId: 'v3', depot: 'South', fleetNo: 41, make: 'DAF' },
    { vehicleId: 'v4', depot: 'North', fleetNo: 12, make: 'Scania' },
  ];
  const trips = [
    ...[1, 2, 3, 4, 5, 6, 7, 8].map((tripNo) => ({ vehicleId: 'v1', tripNo, km: 10 * tripNo, driver: 'Ann' })),
    ...[3, 5, 12, 120].map((tripNo) => ({ vehicleId: 'v2', tripNo, km: tripNo + 1, driver: 'Bo' })),
  ];
  for (const v of vehicles) await edb.vehicle.put(v).go();
  for (const x of trips) await edb.trip.put(x).go();

  const { generated: g, schema, report } = await pullAndGenerate(table);
  t.deepEqual(report.unmatched, []);
  t.deepEqual(report.outliers, []);
  t.deepEqual(report.warnings, []);
  t.regex(schema, /keyFormat: \{ escape: false, integers: 'padded', casing: 'lower' \}/);
  t.regex(schema, /tripNo: t\.number\(\{ integer: true, min: 0, max: 99999 \}\)/);
  t.regex(schema, /fleetNo: t\.number\(\{ integer: true, keyFormat: 'plain' \}\)/);
  t.regex(schema, /\/\/ pk fits 12 of 12 items; sk fits 12 of 12 items\n\s+key: \{ pk: '\$fleet#vehicleid_<vehicleId>', sk: '\$history#trip_1#tripno_<tripNo>' \}/);
  t.regex(schema, /gsi1pkGsi1skIndex: \{ pk: '\$fleet#depot_<depot>', sk: '\$roster#vehicle_1#fleetno_<fleetNo>' \}, \/\/ fits 4 of 4 items/);
  const db = new g.FleetTable(local.documents, { tableName: table });

  // every trip and vehicle ElectroDB wrote reads back through ddbgen as ElectroDB reads it
  for (const x of trips) t.deepEqual(await db.trip.get(x), peerItem((await edb.trip.get(x).go()).data), `trip ${x.vehicleId} ${x.tripNo}`);
  for (const v of vehicles) t.deepEqual(await db.vehicle.get(v), peerItem((await edb.vehicle.get(v).go()).data), v.vehicleId);
  // a range on the padded number reads what ElectroDB's does
  const inRange = (await edb.trip.query.trips({ vehicleId: 'v1' }).between({ tripNo: 4 }, { tripNo: 6 }).go()).data.map((i) => peerItem(i));
  t.is(inRange.length, 3);
  t.deepEqual((await db.trip.query({ vehicleId: 'v1' }, { where: { between: [{ tripNo: 4 }, { tripNo: 6 }] } })).items, inRange);
  // the roster, on the GSI keyed by the plain number, as ElectroDB's collection has it
  const roster = (await edb.vehicle.query.roster({ depot: 'North' }).go()).data.map((i) => peerItem(i));
  t.deepEqual((await db.vehicle.queryGsi1pkGsi1skIndex({ depot: 'North' })).items, roster);

  // ddbgen writes, updates and deletes where ElectroDB reads
  await db.trip.put({ vehicleId: 'v1', tripNo: 9, km: 31, driver: 'Cy' });
  t.deepEqual(peerItem((await edb.trip.get({ vehicleId: 'v1', tripNo: 9 }).go()).data), { vehicleId: 'v1', tripNo: 9, km: 31, driver: 'Cy' });
  await db.trip.update({ vehicleId: 'v1', tripNo: 2 }, { set: { km: 99 } });
  t.is((await edb.trip.get({ vehicleId: 'v1', tripNo: 2 }).go()).data?.km, 99);
  await db.trip.delete({ vehicleId: 'v2', tripNo: 12 });
  t.is((await edb.trip.get({ vehicleId: 'v2', tripNo: 12 }).go()).data, null);
  await db.vehicle.create({ vehicleId: 'v5', depot: 'North', fleetNo: 41, make: 'Iveco' });
  t.deepEqual((await edb.vehicle.query.roster({ depot: 'North' }).go()).data.map((i) => i.vehicleId).sort(), ['v1', 'v2', 'v4', 'v5']);
  // the table afterwards: every key as ElectroDB writes it, nothing else
  const raw = await scanTable(local.documents, table);
  t.is(raw.length, vehicles.length + trips.length + 1 + 1 - 1);
  t.deepEqual(raw.filter((i) => i['__edb_e__'] === 'trip').map((i) => i['sk']).sort(), [...trips.filter((x) => !(x.vehicleId === 'v2' && x.tripNo === 12)).map((x) => x.tripNo), 9].map((n) => `$history#trip_1#tripno_${String(n).padStart(5, '0')}`).sort());
  t.is(raw.find((i) => i['vehicleId'] === 'v5')?.['gsi1sk'], '$roster#vehicle_1#fleetno_41');
});

test('DynamoDB-Toolbox v2: trainers and pokemon written by Toolbox read back through ddbgen and back; the partition and the species index match', async (t) => {
  const table = 'pokedex';
  await local.createTable(toolboxTable(table));
  const tb = toolboxPokedex(table, local.documents);
  const { PutItemCommand } = await import('dynamodb-toolbox');
  for (const trainer of [{ trainerId: 'ash', name: 'Ash', region: 'Kanto', badges: 8 }, { trainerId: 'misty', name: 'Misty', region: 'Kanto' }]) await tb.trainer.build(PutItemCommand).item(trainer).send();
  const pokemon = [
    { trainerId: 'ash', pokemonId: 'p1', species: 'pikachu', level: 25, nickname: 'Pika', types: new Set(['electric']) },
    { trainerId: 'ash', pokemonId: 'p2', species: 'bulbasaur', level: 7, types: new Set(['grass', 'poison']) },
    { trainerId: 'misty', pokemonId: 'p3', species: 'staryu', level: 18, types: new Set(['water']) },
    { trainerId: 'misty', pokemonId: 'p4', species: 'pikachu', level: 102, types: new Set(['electric']) },
  ];
  for (const p of pokemon) await tb.pokemon.build(PutItemCommand).item(p).send();

  const { generated: g, schema, report } = await pullAndGenerate(table);
  t.deepEqual(report.unmatched, []);
  t.regex(schema, /level: t\.number\(\{ integer: true, min: 0, max: 999 \}\)/);
  t.regex(schema, /bySpecies: \{ pk: 'SPECIES#<species>', sk: 'LEVEL#<level>#<pokemonId>' \}/);
  const db = new g.PokedexTable(local.documents, { tableName: table });
  const renamed = { nickname: 'nick', created: '_ct', modified: '_md' };
  const get = async (entity: 'trainer' | 'pokemon', key: Item) => {
    const read = entity === 'trainer' ? await tb.trainer.build(GetItemCommand).key(key as never).send() : await tb.pokemon.build(GetItemCommand).key(key as never).send();
    return peerItem(read.Item as Item, renamed);
  };
  for (const trainerId of ['ash', 'misty']) t.deepEqual(stored(g.trainerModel, await db.trainer.get({ trainerId })), await get('trainer', { trainerId }));
  for (const p of pokemon) t.deepEqual(stored(g.pokemonModel, await db.pokemon.get(p)), await get('pokemon', p), p.pokemonId);

  const caught = { trainerId: 'ash', pokemonId: 'p5', species: 'charmander', level: 5, nick: 'Char', types: new Set(['fire']), _ct: new Date('2024-05-06T07:08:09.010Z'), _md: new Date('2024-05-06T07:08:09.010Z') };
  await db.pokemon.put(caught);
  t.deepEqual(await get('pokemon', caught), stored(g.pokemonModel, caught));

  const partition = await tb.table.build(QueryCommand).entities(tb.trainer, tb.pokemon).query({ partition: 'TRAINER#ash' }).send();
  const collection = await db.pokemonCollection({ trainerId: 'ash' });
  t.is(collection.items.length, 4, 'the trainer and three pokemon');
  t.deepEqual(collection.items.map((i: { type: string; item: Item }) => stored(i.type === 'Trainer' ? g.trainerModel : g.pokemonModel, i.item)), (partition.Items ?? []).map((i) => peerItem(i as Item, renamed)));
  const bySpecies = await tb.table.build(QueryCommand).entities(tb.pokemon).query({ index: 'bySpecies', partition: 'SPECIES#pikachu' }).send();
  t.deepEqual((await db.pokemon.queryBySpecies({ species: 'pikachu' })).items.map((i: Item) => stored(g.pokemonModel, i)), (bySpecies.Items ?? []).map((i) => peerItem(i as Item, renamed)));
  t.deepEqual((bySpecies.Items ?? []).map((i) => (i as Item)['level']), [25, 102], 'both in padded-level order');
});

test('OneTable: accounts with users and invoices written by OneTable read back through ddbgen and back; the account partition and gs1 match', async (t) => {
  const table = 'accounts';
  await local.createTable(oneTableTable(table));
  const ot = oneTableAccounts(table, local.client);
  const [Account, User, Invoice] = [ot.getModel('Account'), ot.getModel('User'), ot.getModel('Invoice')];
  const acme = await Account.create({ name: 'Acme' });
  const globex = await Account.create({ name: 'Globex', balance: 250 });
  for (const [account, email, name, role] of [[acme, 'ann@acme.io', 'Ann', 'admin'], [acme, 'bob@acme.io', 'Bob', 'user'], [globex, 'cy@globex.com', 'Cy', 'user']] as const) {
    await User.create({ accountId: account.id!, email, name, role, registered: new Date('2024-01-05T10:00:00.000Z') });
  }
  for (const [account, amount, due] of [[acme, 100, '2024-02-01'], [acme, 40, '2024-03-01'], [globex, 75, '2024-02-15']] as const) await Invoice.create({ accountId: account.id!, amount, due: new Date(`${due}T00:00:00.000Z`) });

  const { generated: g, report } = await pullAndGenerate(table);
  t.deepEqual(report.unmatched, []);
  t.deepEqual(report.entities.map((e: { name: string; key: { pk: { source: string }; sk: { source: string } } }) => `${e.name} ${e.key.pk.source} / ${e.key.sk.source}`).sort(), ['Account account#<id> / account#', 'Invoice account#<accountId> / invoice#<id>', 'User account#<accountId> / user#<em>']);
  const db = new g.AccountsTable(local.documents, { tableName: table });
  const renamed = { email: 'em' };
  for (const account of [acme, globex]) t.deepEqual(stored(g.accountModel, await db.account.get({ id: account.id })), peerItem(await Account.get({ id: account.id! })));
  for (const user of await User.scan({})) t.deepEqual(stored(g.userModel, await db.user.get({ accountId: user.accountId, em: user.email })), peerItem(user, renamed));
  for (const invoice of await Invoice.scan({})) t.deepEqual(stored(g.invoiceModel, await db.invoice.get({ accountId: invoice.accountId, id: invoice.id })), peerItem(invoice));

  const joined = { accountId: globex.id, em: 'dee@globex.com', id: '01J0000000000000000000DEE0', name: 'Dee', role: 'user', registered: new Date('2024-06-01T12:00:00.000Z'), created: new Date('2024-06-01T12:00:00.000Z'), updated: new Date('2024-06-01T12:00:00.000Z') };
  await db.user.put(joined);
  t.deepEqual(peerItem(await User.get({ accountId: globex.id!, email: 'dee@globex.com' }), renamed), stored(g.userModel, joined));

  const partition = await ot.queryItems({ pk: `account#${acme.id}` }, { parse: true });
  const models: Record<string, Model> = { Account: g.accountModel, User: g.userModel, Invoice: g.invoiceModel };
  // the partition's collection method is named after its first member; its partition is { id } or { accountId }
  const method = Object.getOwnPropertyNames(Object.getPrototypeOf(db)).find((m) => m.endsWith('Collection'))!;
  const collection = await db[method]({ id: acme.id, accountId: acme.id });
  t.deepEqual(collection.items.map((i: { type: string; item: Item }) => stored(models[i.type]!, i.item)), (partition as unknown as Item[]).map((i) => peerItem(i, renamed)));
  t.is(collection.items.length, 5);
  const found = await Account.find({ name: 'Globex' }, { index: 'gs1' });
  t.deepEqual((await db.account.queryGs1({ name: 'Globex' })).items.map((i: Item) => stored(g.accountModel, i)), found.map((i) => peerItem(i)));
});
