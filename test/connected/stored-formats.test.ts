// Connected: a table keyed and filled by another writer (fixtures/stored-formats.ts, ElectroDB's
// conventions) on DynamoDB Local. Items written as that writer stores them read back through the
// generated code; items ddbgen writes are stored exactly in that form (raw Scan); queries, a
// pattern, updates with conditions on renamed attributes, the discriminator and the refusals that
// keep unescaped keys parseable are checked against the table.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { KeyValueError, StoredFormatsTable, storedFormatsTableDefinition, type Employee, type Task } from '../../out/stored-formats/index.js';
import { scanTable } from '../support/dynamodb-local.js';
import { tableTests } from '../support/social-tests.js';

const { test, local } = tableTests('stored', storedFormatsTableDefinition, (client, tableName) => new StoredFormatsTable(client, { tableName }));

/** An Employee item as ElectroDB stores it: keys lower-cased, attribute names glued, birthday as `bday`. */
const foreignEmployee = {
  pk: '$taskapp#employee_jlowe',
  sk: '$employee_1',
  gsi1pk: '$taskapp#office_gw zoo',
  gsi1sk: '$workplaces#employee_1#employee_jlowe',
  employee: 'JLowe',
  firstName: 'Joe',
  office: 'Gw Zoo',
  salary: 45000,
  hired: '2020-01-05',
  bday: '1990-01-01',
  tags: new Set(['a', 'b']),
  __edb_e__: 'employee',
  __edb_v__: '1',
};

const task = (n: number, extra: Partial<Task> = {}): Task => ({
  employee: 'JLowe',
  project: 'Apollo',
  task: `t${n}`,
  points: n,
  status: 'Open',
  due: new Date(Date.UTC(2026, 0, n, 12)),
  updatedAt: new Date(Date.UTC(2026, 0, n, 9, 30, 15)),
  ...extra,
});

test('an item the other writer stored reads back whole, by key, by index and in a batch', async (t) => {
  const { db, tableName } = t.context;
  await local().documents.send(new PutCommand({ TableName: tableName, Item: foreignEmployee }));
  const want: Employee = { employee: 'JLowe', firstName: 'Joe', office: 'Gw Zoo', salary: 45000, hired: new Date('2020-01-05T00:00:00Z'), birthday: new Date('1990-01-01T00:00:00Z'), tags: new Set(['a', 'b']) };
  t.deepEqual(await db.employee.get({ employee: 'JLowe' }), want, 'a mixed-case id finds the lower-cased key');
  t.deepEqual(await db.employee.get({ employee: 'jlowe' }), want, 'and so does its lower-cased form: the key is case-insensitive');
  t.deepEqual((await db.employee.queryWorkplaces({ office: 'GW ZOO' })).items, [want]);
  t.deepEqual(await db.employee.batchGet([{ employee: 'JLowe' }, { employee: 'nobody' }]), [want, undefined]);
});

test('items ddbgen writes are stored exactly as the other writer stores them', async (t) => {
  const { db, tableName } = t.context;
  await db.employee.put({ employee: 'JLowe', firstName: 'Joe', office: 'Gw Zoo', salary: 45000, hired: new Date('2020-01-05T13:14:15Z'), birthday: new Date('1990-01-01T00:00:00Z'), tags: new Set(['a', 'b']) });
  await db.task.put(task(12));
  await db.office.put({ office: 'Gw Zoo', country: 'US', opened: new Date('2019-06-01T08:00:00.750Z') });
  const byKey = new Map((await scanTable(local().documents, tableName)).map((item) => [`${item['pk']} ${item['sk']}`, item]));
  t.deepEqual(byKey.get('$taskapp#employee_jlowe $employee_1'), foreignEmployee);
  t.deepEqual(byKey.get('$taskapp#employee_jlowe $task_1#project_apollo#points_12#task_t12'), {
    pk: '$taskapp#employee_jlowe',
    sk: '$task_1#project_apollo#points_12#task_t12',
    employee: 'JLowe',
    project: 'Apollo',
    task: 't12',
    points: 12,
    status: 'Open',
    due: 1768219200,
    updated: '2026-01-12T09:30:15Z',
    __edb_e__: 'task',
    __edb_v__: '1',
  });
  t.deepEqual(byKey.get('$taskapp#country_us $office_1#office_gw zoo'), {
    pk: '$taskapp#country_us',
    sk: '$office_1#office_gw zoo',
    gsi1pk: '$taskapp#office_gw zoo',
    gsi1sk: '$workplaces#office_1',
    office: 'Gw Zoo',
    country: 'US',
    opened: 1559376000,
    __edb_e__: 'office',
    __edb_v__: '1',
  });
  t.is(byKey.size, 3);
});

test('queries: a partition of two entities told apart, sort-key prefixes through glued names, a pattern on a plain integer', async (t) => {
  const { db } = t.context;
  await db.employee.put({ employee: 'JLowe', firstName: 'Joe', office: 'Gw Zoo', hired: new Date('2020-01-05T00:00:00Z') });
  await db.task.batchPut([task(2), task(10), task(11), task(3, { project: 'Gemini' })]);
  const tasks = (await db.task.query({ employee: 'JLowe' })).items;
  // stored order is text order: points_10 < points_11 < points_2 (the lint's HK025 warning)
  t.deepEqual(tasks.map((x) => `${x.project}/${x.points}`), ['Apollo/10', 'Apollo/11', 'Apollo/2', 'Gemini/3']);
  t.deepEqual((await db.task.query({ employee: 'jlowe' }, { where: { eq: { project: 'GEMINI' } } })).items.map((x) => x.task), ['t3']);
  t.deepEqual((await db.task.tasksWorth({ employee: 'JLowe', project: 'Apollo', points: 10 })).items.map((x) => x.task), ['t10'], 'eq on a plain integer: points_1 never matches points_10');
  const collection = (await db.employeeCollection({ employee: 'JLowe' })).items;
  t.deepEqual(collection.map((x) => x.type), ['Employee', 'Task', 'Task', 'Task', 'Task']);
  const error = await t.throwsAsync(db.task.query({ employee: 'JLowe' }, { where: { gt: { project: 'Apollo', points: 5 } } }), { instanceOf: KeyValueError });
  t.regex(error!.message, /sorts as text \(10 before 9\)/);
});

test('updates and conditions name properties; the table holds the stored names and forms', async (t) => {
  const { db, tableName } = t.context;
  await db.task.put(task(5));
  const later = new Date('2026-02-01T10:00:00.999Z');
  const updated = await db.task.update({ employee: 'JLowe', project: 'Apollo', points: 5, task: 't5' }, { set: { updatedAt: later, status: 'Done' } }, { condition: { updatedAt: { lt: later } } });
  t.deepEqual(updated.updatedAt, new Date('2026-02-01T10:00:00Z'), 'stored without milliseconds, read back as stored');
  const raw = await local().documents.send(new GetCommand({ TableName: tableName, Key: { pk: '$taskapp#employee_jlowe', sk: '$task_1#project_apollo#points_5#task_t5' } }));
  t.is(raw.Item!['updated'], '2026-02-01T10:00:00Z');
  t.false('updatedAt' in raw.Item!);
  await t.throwsAsync(db.task.update({ employee: 'JLowe', project: 'Apollo', points: 5, task: 't5' }, { set: { status: 'Open' } }, { condition: { updatedAt: { lt: new Date('2026-01-01T00:00:00Z') } } }), { name: 'ConditionFailedError' });
});

test('the discriminator: another entity\'s item under the same key is not read; values with the delimiter are refused before any request', async (t) => {
  const { db, tableName } = t.context;
  await local().documents.send(new PutCommand({ TableName: tableName, Item: { ...foreignEmployee, __edb_v__: '2' } }));
  t.is(await db.employee.get({ employee: 'JLowe' }), undefined, 'version 2 of the entity is not this schema\'s');
  t.deepEqual((await db.employee.queryWorkplaces({ office: 'Gw Zoo' })).items, []);
  const sent = (await scanTable(local().documents, tableName)).length;
  const error = await t.throwsAsync(db.task.put(task(1, { task: 'a#b' })), { instanceOf: KeyValueError });
  t.is(error!.code, 'KEY_PART_DELIMITER');
  t.is((await scanTable(local().documents, tableName)).length, sent, 'nothing was written');
});
