// Where stored formats (issue 32) meet index projections, as the connected schema-space property
// found them (each case failed before the fix): what a keys-only or INCLUDE index gives back is what
// its generated item type says, a discriminator an index does not project does not hide the entity's
// records, and an attribute stored under another name reads back under its own from a native index.
// A generated table, run on its in-memory table (proved against DynamoDB Local by the differential
// suite); the generated item types are checked as text.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import anyTest, { type TestFn } from 'ava';
import { defineTable, entity, gsi, t as types } from '../dsl/index.js'; // `t` is ava's in the tests
import { generateTable } from '../generator/emit/generate.js';

const test = anyTest as TestFn;
const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, 'out', `.stored-format-projections-${process.pid}`);

const table = defineTable({
  name: 'Legacy',
  key: { pk: 'pk', sk: 'sk' },
  keyFormat: { casing: 'lower' },
  indexes: {
    byDay: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', projection: 'keys-only' }),
    byOwner: gsi({ pk: ['owner'], sk: ['at'] }),
  },
  entities: {
    Order: entity({
      attributes: { userId: types.string(), orderId: types.string(), total: types.number({ integer: true, min: 0, max: 1e6 }), placedAt: types.timestamp({ unit: 'second' }), status: types.enum(['Open', 'Done']) },
      key: { pk: 'USER#<userId>', sk: 'ORDER#<placedAt>#<orderId>' },
      indexes: { byDay: { pk: 'DAY#<placedAt:day>', sk: '<total>#<status>' } },
      discriminator: { _et: 'Order' },
    }),
    Note: entity({
      attributes: { noteId: types.string(), owner: types.string(), at: types.timestamp(), text: types.string().storedAs('txt') },
      key: { pk: 'NOTE#<noteId>', sk: 'NOTE' },
      indexes: { byOwner: {} },
    }),
  },
});

let module: Record<string, any>;
let files: ReadonlyMap<string, string>;

test.before(async () => {
  files = generateTable(table, dir, { keepCache: false }).files;
  for (const [file, text] of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  module = { ...(await import(path.join(dir, 'legacy/index.ts'))), ...(await import(path.join(dir, 'legacy/in-memory.ts'))) };
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const db = () => new module['LegacyTable'](module['createLegacyInMemory']());

test('a keys-only index of a lower-cased key: the item type holds the exact parts only (numbers, untruncated timestamps), and so does the record', async (t) => {
  // the table key's strings are folded (userId, orderId) and the index's day is a bucket: neither comes back from the keys
  t.regex(files.get('legacy/order.ts')!, /export type OrderByDayItem = \{ total: number; placedAt: Date \};/);
  const legacy = db();
  const placedAt = new Date('2026-03-10T09:17:05.000Z');
  await legacy.order.put({ userId: 'Ann', orderId: 'O-1', total: 12, placedAt, status: 'Open' });
  const page = await legacy.order.queryByDay({ placedAt });
  t.deepEqual(page.items, [{ total: 12, placedAt }]);
  const fetched = await legacy.order.queryByDay({ placedAt }, { fetch: true });
  t.deepEqual(fetched.items, [{ userId: 'Ann', orderId: 'O-1', total: 12, placedAt, status: 'Open' }], 'fetch reads the whole item, its case kept');
});

test('a discriminated entity on an index that does not project the discriminator: its records are still its own', async (t) => {
  const legacy = db();
  const placedAt = new Date('2026-03-10T09:17:05.000Z');
  await legacy.order.put({ userId: 'bo', orderId: 'o2', total: 3, placedAt, status: 'Done' });
  t.is((await legacy.order.queryByDay({ placedAt })).items.length, 1, 'the keys-only record has no _et, and is not dropped for it');
  t.is((await legacy.order.queryByDay({ placedAt }, { fetch: true })).items.length, 1);
});

test('an attribute stored under another name reads back under its own from a native index', async (t) => {
  const legacy = db();
  const at = new Date('2026-03-10T09:00:00.000Z');
  await legacy.note.put({ noteId: 'n1', owner: 'ann', at, text: 'hello' });
  t.deepEqual((await legacy.note.queryByOwner({ owner: 'ann' })).items, [{ noteId: 'n1', owner: 'ann', at, text: 'hello' }]);
});
