// Native multi-attribute GSI keys (fixtures/tenants.ts) on the generated in-memory table (the
// table's KeySchema as DynamoDB Local reports it is in local-api.test.ts) — every allowed
// sort-condition shape, pagination with a cursor,
// renamed attributes written as copies and kept in step by updates, bad items refused, a
// keys-only projection, and the stored items checked afterwards.
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { TenantsTable, ValidationError, tenantsTableDefinition, type Invoice, type Order } from '../../out/tenants/index.js';
import { memoryTableTests } from '../support/social-tests.js';

const { test, tables } = memoryTableTests('tenants', tenantsTableDefinition, (client, tableName) => new TenantsTable(client, { tableName }));

const at = (day: number) => new Date(Date.UTC(2026, 0, day));
const order = (orderId: string, status: Order['status'], day: number, extra: Partial<Order> = {}): Order => ({ tenantId: 't1', orderId, region: 'eu', status, createdAt: at(day), total: day * 10, ...extra });
const ids = (items: readonly { orderId: string }[]) => items.map((o) => o.orderId);

const seed = (db: TenantsTable) =>
  db.order.batchPut([
    order('a', 'OPEN', 1),
    order('b', 'OPEN', 2),
    order('c', 'OPEN', 3),
    order('d', 'PAID', 2),
    order('e', 'SHIPPED', 4),
    order('f', 'OPEN', 5, { region: 'us' }),
    order('g', 'OPEN', 6, { tenantId: 't2' }),
  ]);

test('every allowed sort-condition shape: the partition alone, equality prefixes, and each range on the last attribute given', async (t) => {
  const { db } = t.context;
  await seed(db);
  const q = async (where?: Parameters<TenantsTable['order']['queryByTenant']>[1]) => ids((await db.order.queryByTenant({ tenantId: 't1', region: 'eu' }, where)).items);
  const given: Array<[string, Parameters<TenantsTable['order']['queryByTenant']>[1], string[]]> = [
    ['partition only, in (status, createdAt) order', {}, ['a', 'b', 'c', 'd', 'e']],
    ['descending', { order: 'desc' }, ['e', 'd', 'c', 'b', 'a']],
    ['status =', { where: { status: 'OPEN' } }, ['a', 'b', 'c']],
    ['status >', { where: { status: { gt: 'OPEN' } } }, ['d', 'e']],
    ['status >=', { where: { status: { gte: 'PAID' } } }, ['d', 'e']],
    ['status <', { where: { status: { lt: 'PAID' } } }, ['a', 'b', 'c']],
    ['status <=', { where: { status: { lte: 'PAID' } } }, ['a', 'b', 'c', 'd']],
    ['status between', { where: { status: { between: ['OPEN', 'PAID'] } } }, ['a', 'b', 'c', 'd']],
    ['status begins_with', { where: { status: { beginsWith: 'SH' } } }, ['e']],
    ['status = and createdAt =', { where: { status: 'OPEN', createdAt: at(2) } }, ['b']],
    ['status = and createdAt >', { where: { status: 'OPEN', createdAt: { gt: at(1) } } }, ['b', 'c']],
    ['status = and createdAt >=', { where: { status: 'OPEN', createdAt: { gte: at(2) } } }, ['b', 'c']],
    ['status = and createdAt <', { where: { status: 'OPEN', createdAt: { lt: at(3) } } }, ['a', 'b']],
    ['status = and createdAt <=', { where: { status: 'OPEN', createdAt: { lte: at(1) } } }, ['a']],
    ['status = and createdAt between', { where: { status: 'OPEN', createdAt: { between: [at(2), at(3)] } } }, ['b', 'c']],
    ['status = and createdAt begins_with (ISO text)', { where: { status: 'OPEN', createdAt: { beginsWith: '2026-01-03' } } }, ['c']],
    ['status = and createdAt >, descending', { where: { status: 'OPEN', createdAt: { gt: at(1) } }, order: 'desc' }, ['c', 'b']],
  ];
  for (const [label, options, want] of given) t.deepEqual(await q(options), want, label);
  t.deepEqual(ids((await db.order.queryByTenant({ tenantId: 't1', region: 'us' })).items), ['f'], 'every partition attribute is matched');
  t.deepEqual(ids((await db.order.queryByTotal({ tenantId: 't1' }, { where: { total: { between: [25, 50] } } })).items), ['c', 'e', 'f'], 'a number sort attribute compares as a number (30 < 40 < 50), across regions');
});

test('pagination: a cursor resumes after the last item, through every page', async (t) => {
  const { db } = t.context;
  await seed(db);
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await db.order.queryByTenant({ tenantId: 't1', region: 'eu' }, { where: { status: 'OPEN' }, limit: 2, ...(cursor ? { cursor } : {}) });
    seen.push(...ids(page.items));
    cursor = page.cursor;
    pages++;
  } while (cursor !== undefined);
  t.deepEqual(seen, ['a', 'b', 'c']);
  t.true(pages >= 2);
  const all: string[] = [];
  for await (const o of db.order.queryByTenantAll({ tenantId: 't1', region: 'eu' }, { limit: 1 })) all.push(o.orderId);
  t.deepEqual(all, ['a', 'b', 'c', 'd', 'e']);
  const first = await db.order.queryByTenant({ tenantId: 't1', region: 'eu' }, { limit: 1 });
  await t.throwsAsync(db.order.queryByTenant({ tenantId: 't1', region: 'us' }, { limit: 1, cursor: first.cursor! }), { name: 'CursorError' }, 'a cursor is bound to its partition');
});

test('renamed attributes are written as copies, kept in step by update and removed with the item; another entity in the index is skipped', async (t) => {
  const { db, tableName } = t.context;
  const invoice: Invoice = { orgId: 't1', invoiceId: 'i1', region: 'eu', state: 'OPEN', issuedAt: at(2) };
  await db.invoice.put(invoice);
  await db.order.put(order('a', 'OPEN', 1));
  const stored = (await tables().documents.send(new GetCommand({ TableName: tableName, Key: { pk: 'Tenant#t1', sk: 'Invoice#i1' } }))).Item;
  t.deepEqual(stored, { pk: 'Tenant#t1', sk: 'Invoice#i1', orgId: 't1', invoiceId: 'i1', region: 'eu', state: 'OPEN', issuedAt: '2026-01-02T00:00:00.000Z', tenantId: 't1', status: 'OPEN', createdAt: '2026-01-02T00:00:00.000Z' });
  t.deepEqual((await db.invoice.get({ orgId: 't1', invoiceId: 'i1' })), invoice, 'copies are not part of the item read back');
  t.deepEqual((await db.invoice.queryByTenant({ orgId: 't1', region: 'eu' }, { where: { state: 'OPEN' } })).items, [invoice], 'the order in the same index partition is not an invoice');
  t.deepEqual(ids((await db.order.queryByTenant({ tenantId: 't1', region: 'eu' })).items), ['a'], 'nor the invoice an order');
  await db.invoice.update({ orgId: 't1', invoiceId: 'i1' }, { set: { state: 'PAID', issuedAt: at(5) } });
  t.deepEqual((await db.invoice.queryByTenant({ orgId: 't1', region: 'eu' }, { where: { state: 'PAID', issuedAt: { gte: at(5) } } })).items, [{ ...invoice, state: 'PAID', issuedAt: at(5) }]);
  t.deepEqual((await db.invoice.queryByTenant({ orgId: 't1', region: 'eu' }, { where: { state: 'OPEN' } })).items, []);
  await db.invoice.delete({ orgId: 't1', invoiceId: 'i1' });
  const left = (await tables().documents.send(new ScanCommand({ TableName: tableName }))).Items!;
  t.deepEqual(left.map((i) => i.sk), ['Order#a'], 'the table holds only the order afterwards');
});

test('bad items are refused before sending: an empty key value, and a renamed copy given as an attribute', async (t) => {
  const { db, tableName } = t.context;
  await db.order.put(order('a', 'OPEN', 1));
  await t.throwsAsync(db.order.put(order('b', 'OPEN', 1, { tenantId: '' })), { instanceOf: Error });
  await t.throwsAsync(db.invoice.put({ orgId: 't1', invoiceId: 'x', region: 'eu', state: 'OPEN', issuedAt: at(1), ...({ status: 'x' } as object) } as Invoice), { instanceOf: ValidationError, message: /status: is a key attribute/ });
  const left = (await tables().documents.send(new ScanCommand({ TableName: tableName }))).Items!;
  t.deepEqual(left.map((i) => i.sk), ['Order#a'], 'nothing half-written');
});

test('keys-only projection: items hold the table key parts and the index key attributes', async (t) => {
  const { db } = t.context;
  await db.order.put(order('a', 'OPEN', 1, { note: 'not projected' }));
  t.deepEqual((await db.order.queryByTotal({ tenantId: 't1' })).items, [{ tenantId: 't1', orderId: 'a', total: 10 }]);
});

test('bad conditions from untyped callers are refused before sending', async (t) => {
  const { db } = t.context;
  const q = (where: object) => db.order.queryByTenant({ tenantId: 't1', region: 'eu' }, { where } as never);
  await t.throwsAsync(q({ createdAt: at(1) }), { instanceOf: ValidationError, message: 'Order.status: the sort condition of index "byTenant" skips it: give the sort attributes left to right (status, createdAt)' });
  await t.throwsAsync(q({ status: { gt: 'A' }, createdAt: at(1) }), { instanceOf: ValidationError, message: 'Order.status: a range is allowed only on the last sort attribute given; status is followed by createdAt, so it takes one value' });
  await t.throwsAsync(db.order.queryByTenant({ tenantId: 't1' } as never), { instanceOf: ValidationError, message: 'Order.region: is part of the partition key of index "byTenant": every partition attribute needs a value' });
});
