// The seams between features (fixtures/seams.ts), offline: schemas that used to stop with DDB099
// generate and compile (out/seams is type-checked by npm test's typecheck), names that would collide
// are refused with a located code, and values the types forbid are refused by the runtime before any
// request, from untyped input too. Each case is one of the reproductions filed against the landed main.
import test from 'ava';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { defineTable, entity, gsi, t as types } from '../dsl/index.js';
import type { TableDef } from '../dsl/ir.js';
import { generateTable } from '../generator/emit/generate.js';
import { validateTable } from '../generator/load/validate-table.js';
import { KeyValueError, SeamsTable, ValidationError, seamsTableDefinition, type Thread } from '../out/seams/index.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A table whose client records every command and answers `reply` (nothing is ever sent anywhere). */
function recording(reply: (name: string, input: Record<string, unknown>) => unknown = () => ({})) {
  const sent: Array<{ name: string; input: Record<string, unknown> }> = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      return reply(command.constructor.name, command.input);
    },
  } as unknown as DynamoDBDocumentClient;
  return { db: new SeamsTable(client, { tableName: 'seams' }), sent };
}

const at = (iso: string) => new Date(iso);
const thread = (extra: Record<string, unknown> = {}): Thread =>
  ({ forumName: 'f', subject: 's', tags: new Set(['a']), votes: new Set([1]), seen: [at('2026-01-01T00:00:00.000Z')], meta: { labels: new Set(['x']) }, amount: 5, ...extra }) as Thread;

// ---- generation: each reproduction of issue 36 as a given/want case -------------------------------

const generates = (table: TableDef) => {
  const problems = validateTable(table);
  if (problems.length) return problems.map((p) => `${p.code} ${p.target}`);
  generateTable(table, path.join(mkdtempSync(path.join(tmpdir(), 'ddbgen-seams-')), 'out'), { keepCache: false });
  return 'compiles';
};

const one = (attributes: Record<string, ReturnType<typeof types.string>>, extra: object = {}) =>
  defineTable({ name: 'Repro', entities: { Tag: entity({ attributes: { id: types.string(), ...attributes } as never, key: { pk: 'Tag#<id>', sk: 'TAG' }, ...extra } as never) } } as never);

const cases: Array<[string, () => TableDef, string | string[]]> = [
  ['A: a required string set', () => one({ labels: types.stringSet() as never }), 'compiles'],
  ['A: a required number set', () => one({ scores: types.numberSet() as never }), 'compiles'],
  ['A: a required list of timestamps', () => one({ seen: types.list(types.timestamp()) as never }), 'compiles'],
  ['A: a required map holding a required set', () => one({ meta: types.map({ tags: types.stringSet() }) as never }), 'compiles'],
  ['B: a pattern on a sort-key attribute the partition key also holds', () => defineTable({
    name: 'Repro',
    entities: { View: entity({ attributes: { site: types.string(), at: types.timestamp(), viewId: types.string() }, key: { pk: 'Site#<site>#<at:hour>', sk: '<at>#<viewId>' } }) },
    patterns: { since: { entity: 'View', sk: 'at', op: 'gte' } },
  }), 'compiles'],
  ['B: one attribute in both keys of a GSI mapping', () => defineTable({
    name: 'Repro',
    indexes: { byHour: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) },
    entities: { View: entity({ attributes: { id: types.string(), at: types.timestamp() }, key: { pk: 'V#<id>', sk: 'V' }, indexes: { byHour: { pk: 'H#<at:hour>', sk: '<at>' } } }) },
  }), 'compiles'],
  ['B: beginsWith on a string the partition key also holds is refused', () => defineTable({
    name: 'Repro',
    entities: { Doc: entity({ attributes: { name: types.string(), id: types.string() }, key: { pk: 'Doc#<name>', sk: '<name>#<id>' } }) },
    patterns: { byPrefix: { entity: 'Doc', sk: 'name', op: 'beginsWith' } },
  }), ['DDB073 Repro.patterns.byPrefix.op']],
  ...(['All', 'Between', 'AcrossTables'] as const).map((name): [string, () => TableDef, string[]] => [`C: an index named ${name} is refused where it would make a repository method twice`, () => defineTable({
    name: 'Repro',
    indexes: { [name]: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) },
    entities: { View: entity({ attributes: { id: types.string() }, key: { pk: 'V#<id>', sk: 'V' }, indexes: { [name]: { pk: 'X#<id>', sk: 'X' } } as never }) },
  } as never), [`DDB024 Repro.entities.View.indexes.${name}`]]),
  ['D: a random shard on a key whose sort key has a placeholder', () => defineTable({
    name: 'Repro',
    entities: { Log: entity({ attributes: { id: types.string(), at: types.timestamp() }, key: { pk: 'Log#<id>#<shard>', sk: 'E#<at>', shard: { count: 4, random: true } } }) },
  }), 'compiles'],
  ...(['toString', 'valueOf', 'hasOwnProperty'] as const).map((name): [string, () => TableDef, string[]] => [`E: an attribute named ${name} is refused (DDB160)`, () => one({ [name]: types.string() }), [`DDB160 Repro.entities.Tag.attributes.${name}`]]),
  ['E: a map field named toString is refused', () => one({ meta: types.map({ toString: types.string() }) as never }), ['DDB160 Repro.entities.Tag.attributes.meta.fields.toString']],
  ['F: attributes named after runtime helpers and globals', () => one({ Date: types.stringSet().optional() as never, Set: types.string(), storedDate: types.timestamp() as never }), 'compiles'],
  ['F: a table key attribute named like a global', () => defineTable({ name: 'Repro', key: { pk: 'Date', sk: 'Set' }, entities: { Tag: entity({ attributes: { id: types.string() }, key: { pk: 'Tag#<id>', sk: 'TAG' } }) } }), 'compiles'],
  ['false refusal: hotKeyShare naming a native GSI the entity maps into', () => defineTable({
    name: 'Repro',
    indexes: { byTenant: gsi({ pk: ['tenantId'] }) },
    entities: { Doc: entity({ attributes: { id: types.string(), tenantId: types.string() }, key: { pk: 'Doc#<id>', sk: 'D' }, indexes: { byTenant: {} }, traffic: { hotKeyShare: { table: 0.1, byTenant: 0.2 } } }) },
  }), 'compiles'],
  ['false refusal: an entity named Stream on a table without a stream', () => defineTable({ name: 'Repro', entities: { Stream: entity({ attributes: { id: types.string() }, key: { pk: 'S#<id>', sk: 'S' } }) } }), 'compiles'],
  ['an entity named Stream on a table with a stream is a real clash', () => defineTable({ name: 'Repro', stream: 'new-image', entities: { Stream: entity({ attributes: { id: types.string() }, key: { pk: 'S#<id>', sk: 'S' } }) } }), ['DDB102 Repro.entities.Stream']],
];

for (const [name, table, want] of cases) {
  test(`generation: ${name}`, (t) => {
    t.timeout(120_000);
    t.deepEqual(generates(table()), want);
  });
}

test('DDB107: gsiQuota 20 is refused (it is the default), 21 accepted', (t) => {
  const quota = (gsiQuota: number) => validateTable(defineTable({ name: 'Repro', gsiQuota, entities: { Tag: entity({ attributes: { id: types.string() }, key: { pk: 'Tag#<id>', sk: 'T' } }) } })).map((p) => p.code);
  t.deepEqual(quota(20), ['DDB107']);
  t.deepEqual(quota(21), []);
});

// ---- the table definition --------------------------------------------------------------------------

test('a native GSI keyed on the TTL attribute declares it as a number, as the runtime stores it (epoch seconds)', (t) => {
  const definitions = seamsTableDefinition().AttributeDefinitions as ReadonlyArray<{ AttributeName: string; AttributeType: string }>;
  t.deepEqual(definitions.filter((d) => ['expiresAt', 'priority', 'status'].includes(d.AttributeName)), [
    { AttributeName: 'expiresAt', AttributeType: 'N' },
    { AttributeName: 'priority', AttributeType: 'N' },
    { AttributeName: 'status', AttributeType: 'S' },
  ]);
});

// ---- required sets read back --------------------------------------------------------------------

test('a required set is stored as no attribute when empty, and reads back as an empty set, inside a map too', async (t) => {
  let stored: Record<string, unknown> = {};
  const { db } = recording((name, input) => (name === 'PutCommand' ? ((stored = input['Item'] as Record<string, unknown>), {}) : { Item: stored }));
  await db.thread.put(thread({ tags: new Set(), votes: new Set(), meta: { labels: new Set() } }));
  t.false('tags' in stored || 'votes' in stored, 'DynamoDB stores no empty set');
  t.deepEqual(stored['meta'], {});
  const read = await db.thread.get({ forumName: 'f', subject: 's' });
  t.deepEqual(read?.tags, new Set());
  t.deepEqual(read?.votes, new Set());
  t.deepEqual(read?.meta, { labels: new Set() });
  t.deepEqual(read?.seen, [at('2026-01-01T00:00:00.000Z')]);
});

// ---- what the types forbid never reaches the client -------------------------------------------------

const refused: Array<[string, (db: SeamsTable) => Promise<unknown>, string]> = [
  ['a map where a string is declared', (db) => db.thread.put(thread({ subject: 's', title: { $ne: 1 } })), 'Thread.title: must be a string, not a map'],
  ['null for a required attribute', (db) => db.thread.put(thread({ amount: null })), 'Thread.amount: must be a finite number, not null'],
  ['a string where a number is declared', (db) => db.thread.put(thread({ amount: 'NaN-secret' })), 'Thread.amount: must be a finite number, not a string'],
  ['a number out of its declared range', (db) => db.thread.put(thread({ amount: -1 })), 'Thread.amount: must be within 0..1000000, got -1'],
  ['a string over its declared maxBytes', (db) => db.thread.put(thread({ title: 'é'.repeat(21) })), 'Thread.title: is 42 bytes of UTF-8, above its declared maxBytes 40'],
  ['numbers in a string set', (db) => db.thread.put(thread({ tags: new Set([1]) })), 'Thread.tags: must be a Set of strings; it holds a number'],
  ['a loose date in a list of timestamps', (db) => db.thread.put(thread({ seen: ['2026-01-01'] })), 'Thread.seen[0]: must be a valid Date, not a string'],
  ['an undeclared field in a map', (db) => db.thread.put(thread({ meta: { labels: new Set(['x']), isAdmin: true } })), 'Thread.meta.isAdmin: is not a field of meta (fields: labels, pinnedAt)'],
  ['a missing required map field', (db) => db.thread.put(thread({ meta: {} })), 'Thread.meta.labels: is required'],
  ['update: null in set', (db) => db.thread.update({ forumName: 'f', subject: 's' }, { set: { amount: null as never } }), 'Thread.amount: must be a finite number, not null'],
  ['update: a string in set', (db) => db.thread.update({ forumName: 'f', subject: 's' }, { set: { amount: '7' as never } }), 'Thread.amount: must be a finite number, not a string'],
  ['update: add on a string attribute', (db) => db.thread.update({ forumName: 'f', subject: 's' }, { add: { title: 'x' } } as never), 'Thread.title: add takes a number or set attribute; title is a string attribute'],
  ['update: add of an empty set', (db) => db.thread.update({ forumName: 'f', subject: 's' }, { add: { tags: new Set() } }), 'Thread.tags: add takes at least one element (DynamoDB stores no empty set)'],
  ['update: append of a wrong element', (db) => db.thread.update({ forumName: 'f', subject: 's' }, { append: { seen: ['yesterday'] as never } }), 'Thread.seen[0]: must be a valid Date, not a string'],
  ['update: add on an attribute copied into a native index', (db) => db.task.update({ tenantId: 't', taskId: 'x' }, { add: { severity: 1 } } as never), 'Task.severity: feeds an index key: change it with set, so the key is rebuilt'],
  ['update: setIfNotExists on an attribute copied into a native index', (db) => db.task.update({ tenantId: 't', taskId: 'x' }, { setIfNotExists: { state: 'NEW' } } as never), 'Task.state: feeds an index key: change it with set, so the key is rebuilt'],
  ['native query: a number as the partition value', (db) => db.task.queryByPriority({ tenantId: 42 as never }), 'Task.tenantId: must be a string, not a number'],
  ['native query: a string where a number sort attribute is declared', (db) => db.task.queryByPriority({ tenantId: 't' }, { where: { severity: '5' as never } }), 'Task.severity: must be a finite number, not a string'],
  ['native query: a value outside the enum', (db) => db.task.queryByPriority({ tenantId: 't' }, { where: { severity: 5, state: 'LOST' as never } }), 'Task.state: must be one of "NEW", "OPEN", "DONE", not a string'],
  ['native query: a range of the wrong type', (db) => db.task.queryByPriority({ tenantId: 't' }, { where: { severity: { gte: 'high' as never } } }), 'Task.severity: must be a finite number, not a string'],
  ['native query: beginsWith on the TTL attribute (stored as a number)', (db) => db.task.queryExpiring({ tenantId: 't' }, { where: { expiresAt: { beginsWith: '2026' } as never } }), 'Task.expiresAt: beginsWith matches text, and expiresAt is stored as a number: use gt, gte, lt, lte or between'],
  ['a pattern between two partitions of its time bucket', (db) => db.view.viewsBetween({ site: 's', at: [at('2026-01-01T10:00:00.000Z'), at('2026-01-01T11:30:00.000Z')] }), 'View.at: between must stay within one partition: the partition key View.key.pk holds at too, and the two ends fall in different partitions; query each partition separately'],
  ['an inherited key part is no key part', (db) => db.thread.get(Object.create({ forumName: 'f', subject: 's' })), 'KeyValueError'],
  ['an inherited attribute is not written', (db) => db.thread.put(Object.assign(Object.create({ title: 'inherited' }), thread())), 'Thread.title: is inherited, not an own property of the item, so it was not written: copy the values onto a plain object ({ ...item } copies only own ones)'],
];

for (const [name, call, message] of refused) {
  test(`refused before any request: ${name}`, async (t) => {
    const { db, sent } = recording(() => ({ Items: [] }));
    const error = await t.throwsAsync(call(db));
    if (message === 'KeyValueError') t.true(error instanceof KeyValueError, String(error));
    else {
      t.true(error instanceof ValidationError, String(error));
      t.is(error?.message, message);
    }
    t.deepEqual(sent, [], 'nothing reached the client');
  });
}

test('a pattern whose compared attribute is also in its partition key: the operand finds the partition', async (t) => {
  const { db, sent } = recording(() => ({ Items: [] }));
  await db.view.viewsSince({ site: 's', at: at('2026-01-01T10:15:00.000Z') });
  await db.view.viewsBetween({ site: 's', at: [at('2026-01-01T10:15:00.000Z'), at('2026-01-01T10:45:00.000Z')] });
  const values = sent.map((s) => s.input['ExpressionAttributeValues']);
  t.is((values[0] as Record<string, string>)[':v0'], 'Site#s#2026-01-01T10');
  t.is((values[1] as Record<string, string>)[':v0'], 'Site#s#2026-01-01T10');
  t.is(sent.length, 2);
});

test('an index query skips the items of another entity that shares the index partition (an overloaded GSI): the table key says whose', async (t) => {
  const hour = '2026-01-01T10';
  const view = { pk: `Site#s#${hour}`, sk: '2026-01-01T10:15:00.000Z#v1', gsi1pk: `Hour#${hour}`, gsi1sk: '2026-01-01T10:15:00.000Z', site: 's', at: '2026-01-01T10:15:00.000Z', viewId: 'v1' };
  const stranger = { pk: 'Note#n1', sk: 'NOTE', gsi1pk: `Hour#${hour}`, gsi1sk: '2026-01-01T10:20:00.000Z', noteId: 'n1' };
  const { db } = recording(() => ({ Items: [view, stranger] }));
  const page = await db.view.queryByHour({ at: at('2026-01-01T10:00:00.000Z') });
  t.deepEqual(page.items.map((v) => v.viewId), ['v1']);
});

test('on a table with a TTL attribute every index projects it (keys-only becomes INCLUDE of it), so index queries can hide expired items', async (t) => {
  const { createTableInput } = await import('../generator/emit/table/table-definition.js');
  const table = defineTable({
    name: 'Repro',
    ttl: 'expiresAt',
    indexes: { byOwner: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', projection: 'keys-only' }), byName: gsi({ pk: 'gsi2pk', projection: ['name'] }), byAll: gsi({ pk: 'gsi3pk' }) },
    entities: {
      Doc: entity({
        attributes: { id: types.string(), owner: types.string(), name: types.string(), expiresAt: types.timestamp() },
        key: { pk: 'Doc#<id>', sk: 'D' },
        indexes: { byOwner: { pk: 'O#<owner>', sk: '<id>' }, byName: { pk: 'N#<name>' }, byAll: { pk: 'A#<owner>' } },
      }),
    },
  });
  const indexes = (createTableInput(table) as { GlobalSecondaryIndexes: Array<{ IndexName: string; Projection: unknown }> }).GlobalSecondaryIndexes;
  t.deepEqual(Object.fromEntries(indexes.map((i) => [i.IndexName, i.Projection])), {
    byOwner: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['expiresAt'] },
    byName: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['name', 'expiresAt'] },
    byAll: { ProjectionType: 'ALL' },
  });
});

test('generation: a table with point-in-time recovery and no TTL (its in-memory table takes every setting)', (t) => {
  t.timeout(120_000);
  t.is(generates(defineTable({ name: 'Repro', pointInTimeRecovery: { days: 7 }, entities: { Tag: entity({ attributes: { id: types.string() }, key: { pk: 'Tag#<id>', sk: 'T' } }) } })), 'compiles');
});
