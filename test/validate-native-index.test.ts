// Validation of native multi-attribute GSIs: more than 4 + 4 key attributes, a key attribute of a
// non-scalar type, an attribute the entity lacks, a rename of no key attribute, two stored types for
// one key attribute, synthetic-key fields and names, a copy over an own attribute and a declared
// pattern on a native index. Given/want with exact messages, and file:line:column through the loader.
import path from 'node:path';
import test from 'ava';
import { defineTable, entity, gsi, t } from '../dsl/index.js';
import type { TableDef } from '../dsl/ir.js';
import { loadSchemas } from '../generator/load/load-schema.js';
import { validateTable } from '../generator/load/validate-table.js';

const root = path.resolve(import.meta.dirname, '..');
const brief = (def: TableDef) => validateTable(def).map((d) => `${d.code} ${d.target}: ${d.message}`);
const order = { tenantId: t.string(), region: t.enum(['eu', 'us']), orderId: t.string(), status: t.enum(['OPEN', 'PAID']), createdAt: t.timestamp() };
const table = (indexes: Parameters<typeof defineTable>[0]['indexes'], entities: Parameters<typeof defineTable>[0]['entities'], extra: object = {}): TableDef =>
  defineTable({ name: 'Tab', indexes, entities, ...extra } as Parameters<typeof defineTable>[0]);

const cases: Array<[string, TableDef, string[]]> = [
  ['a valid native index, mapped by name and renamed', table({ byTenant: gsi({ pk: ['tenantId', 'region'], sk: ['status', 'createdAt'] }) }, {
    Order: entity({ attributes: order, key: { pk: 'Order#<orderId>', sk: 'O' }, indexes: { byTenant: {} } }),
    Invoice: entity({ attributes: { orgId: t.string(), region: t.enum(['eu']), invoiceId: t.string(), state: t.enum(['OPEN']), issuedAt: t.timestamp() }, key: { pk: 'Invoice#<invoiceId>', sk: 'I' }, indexes: { byTenant: { attributes: { tenantId: 'orgId', status: 'state', createdAt: 'issuedAt' } } } }),
  }), []],
  ['more than 4 + 4 key attributes, none, and one named twice', table({
    wide: gsi({ pk: ['a', 'b', 'c', 'd', 'e'], sk: ['f', 'g', 'h', 'i', 'j'] }),
    none: gsi({ pk: [] as unknown as ['a'] }),
    twice: gsi({ pk: ['a'], sk: ['b', 'a'] }),
  }, { Order: entity({ attributes: order, key: { pk: 'Order#<orderId>', sk: 'O' } }) }), [
    'DDB240 Tab.indexes.wide.pk: the partition key of native GSI "wide" names 5 attributes (a, b, c, d, e); DynamoDB keys a GSI by 1 to 4 partition-key attributes and 0 to 4 sort-key attributes, each named once',
    'DDB240 Tab.indexes.wide.sk: the sort key of native GSI "wide" names 5 attributes (f, g, h, i, j); DynamoDB keys a GSI by 1 to 4 partition-key attributes and 0 to 4 sort-key attributes, each named once',
    'DDB240 Tab.indexes.none.pk: the partition key of native GSI "none" names no attribute; DynamoDB keys a GSI by 1 to 4 partition-key attributes and 0 to 4 sort-key attributes, each named once',
    'DDB240 Tab.indexes.twice.sk: the sort key of native GSI "twice" names "a" twice; DynamoDB keys a GSI by 1 to 4 partition-key attributes and 0 to 4 sort-key attributes, each named once',
  ]],
  ['a non-scalar key attribute, an attribute the entity lacks, and a rename of no key attribute', table({ byTenant: gsi({ pk: ['tenantId', 'region'], sk: ['tags'] }) }, {
    Order: entity({ attributes: { ...order, tags: t.stringSet(), flag: t.boolean() }, key: { pk: 'Order#<orderId>', sk: 'O' }, indexes: { byTenant: { attributes: { region: 'flag', tenant: 'tenantId' } } } }),
    Invoice: entity({ attributes: { invoiceId: t.string(), tags: t.list(t.string()), region: t.string() }, key: { pk: 'Invoice#<invoiceId>', sk: 'I' }, indexes: { byTenant: {} } }),
  }), [
    'DDB243 Tab.entities.Order.indexes.byTenant.attributes.tenant: Order\'s mapping for native GSI "byTenant" renames "tenant", which is not one of its key attributes ("tenantId", "region", "tags")',
    'DDB241 Tab.entities.Order.indexes.byTenant.attributes.region: Order maps "flag", a boolean attribute, into key attribute "region" of native GSI "byTenant"; a key attribute holds one string, number or binary value',
    'DDB247 Tab.entities.Order.indexes.byTenant.attributes.region: Order maps "flag" into key attribute "region" of native GSI "byTenant", but Order also declares its own attribute "region": the copy would overwrite it',
    'DDB241 Tab.entities.Order.indexes.byTenant: Order maps "tags", a stringSet attribute, into key attribute "tags" of native GSI "byTenant"; a key attribute holds one string, number or binary value',
    'DDB242 Tab.entities.Invoice.indexes.byTenant: Invoice has no attribute "tenantId" for key attribute "tenantId" of native GSI "byTenant"',
    'DDB241 Tab.entities.Invoice.indexes.byTenant: Invoice maps "tags", a list attribute, into key attribute "tags" of native GSI "byTenant"; a key attribute holds one string, number or binary value',
  ]],
  ['one key attribute stored as two types, by a mapped and by an unmapped entity', table({ byTotal: gsi({ pk: ['tenantId'], sk: ['total'] }) }, {
    Order: entity({ attributes: { tenantId: t.string(), orderId: t.string(), total: t.number() }, key: { pk: 'Order#<orderId>', sk: 'O' }, indexes: { byTotal: {} } }),
    Refund: entity({ attributes: { tenantId: t.string(), refundId: t.string(), total: t.string() }, key: { pk: 'Refund#<refundId>', sk: 'R' } }),
  }), [
    'DDB244 Tab.indexes.byTotal: key attribute "total" of native GSI "byTotal" is stored with different types (N in Order, S in Refund); DynamoDB keeps one type per key attribute and refuses a write of the other type',
  ]],
  ['synthetic-key fields on a native mapping, a native key named like a synthetic key, and a pattern on a native index', table({
    byTenant: gsi({ pk: ['tenantId'], sk: ['sk'] }),
  }, {
    Order: entity({ attributes: order, key: { pk: 'Order#<orderId>', sk: 'O' }, indexes: { byTenant: { pk: 'Tenant#<tenantId>', shard: { count: 4 } } } }),
  }, { patterns: { openOrders: { entity: 'Order', index: 'byTenant', sk: 'status' } } }), [
    'DDB246 Tab.indexes.byTenant: key attribute "sk" of native GSI "byTenant" is also the table\'s sort key, which ddbgen writes as a key string',
    'DDB245 Tab.entities.Order.indexes.byTenant.pk: Order\'s mapping for native GSI "byTenant" gives pk, shard, but a native index is keyed by the attributes themselves: no template is built and no shard suffix can be added',
    'DDB242 Tab.entities.Order.indexes.byTenant: Order has no attribute "sk" for key attribute "sk" of native GSI "byTenant"',
    'DDB248 Tab.patterns.openOrders.index: pattern "openOrders" uses native GSI "byTenant"; declared patterns read synthetic keys',
  ]],
];

for (const [name, def, want] of cases) {
  test(`validate native indexes: ${name}`, (t) => {
    t.deepEqual(brief(def), want);
  });
}

test('each native-index diagnostic has a fix naming the way out', (t) => {
  const fixes = Object.fromEntries(cases.flatMap(([, def]) => validateTable(def)).map((d) => [d.code, d.fix]));
  t.is(fixes['DDB240'], "name at most 4 distinct attributes in sk, e.g. gsi({ pk: ['tenantId', 'region'], sk: ['status', 'createdAt'] }); key on the attributes queries fix first, and leave the rest to a filter or a second index");
  t.regex(fixes['DDB241']!, /map a string, enum, timestamp, number or binary attribute into "tags"/);
  t.is(fixes['DDB242'], "declare \"sk\" in Order's attributes, or map one of Order's own attributes into it: indexes: { byTenant: { attributes: { sk: 'tenantId' | 'region' | 'orderId' } } }");
  t.regex(fixes['DDB244']!, /all strings, enums and timestamps are stored as S, numbers as N, binary as B/);
  t.is(fixes['DDB245'], "a shard suffix needs a synthetic key: declare \"byTenant\" as gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) and map a template with shard: { count }, or remove shard");
  t.regex(fixes['DDB248']!, /queryByTenant\(partition, \{ where \}\)/);
});

test('bad native indexes are reported at file:line:column with the schema path and a fix', async (t) => {
  const { diagnostics } = await loadSchemas([path.join(root, 'fixtures/invalid/native-indexes.ts')], root);
  t.deepEqual(diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.target}`), [
    'fixtures/invalid/native-indexes.ts:8:25 error DDB240 BadNative.indexes.byEverything.pk',
    'fixtures/invalid/native-indexes.ts:15:52 error DDB241 BadNative.entities.Order.indexes.byTenant.attributes.status',
    'fixtures/invalid/native-indexes.ts:20:18 error DDB242 BadNative.entities.Refund.indexes.byTenant',
    'fixtures/invalid/native-indexes.ts:9:5 error DDB244 BadNative.indexes.byTenant',
  ]);
  t.true(diagnostics.every((d) => d.fix.length > 0 && d.target.startsWith('BadNative.')), 'each with a fix and the schema path');
});
