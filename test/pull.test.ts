// `ddbgen pull`, offline: the delimiter and the bindings of key segments (given/want), entity
// inference over small samples shaped like real tables (told apart by a discriminator, by key shape,
// with glued text, folded case, padded and plain integers, stored timestamp formats, sparse and
// native indexes, names that are not identifiers), the failures that stop it with what was inferred,
// the rendered module (it loads and validates; its hash tells an edited file), and NoSQL Workbench models.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { loadSchemas } from '../generator/load/load-schema.js';
import { bindingsOf, inferDelimiter } from '../generator/pull/infer-keys.js';
import { inferSchema } from '../generator/pull/infer-schema.js';
import { PullError, type SampledItem } from '../generator/pull/inferred-schema.js';
import { isUnedited, renderSchema } from '../generator/pull/render-schema.js';
import type { PulledTable } from '../generator/pull/table-description.js';
import { readWorkbench } from '../generator/pull/workbench.js';
import { typeText } from '../generator/pull/infer-attributes.js';
import { checkFits } from '../generator/pull/check-fits.js';
import { dropEntity } from '../generator/pull/pull-command.js';
import { defineTable, entity, gsi, t as types } from '../dsl/index.js';

const root = path.resolve(import.meta.dirname, '..');
const table = (extra: Partial<PulledTable> = {}): PulledTable => ({ name: 'shop', pk: { name: 'PK', type: 'S' }, sk: { name: 'SK', type: 'S' }, indexes: [], capacity: { mode: 'on-demand' }, ...extra });
const sample = (...items: Array<Record<string, unknown>>): SampledItem[] => items.map((item) => ({ item }));
/** Entities as `Name: pk / sk [attribute: type, …]`, the way a reviewer reads them. */
const brief = (t: PulledTable, items: SampledItem[], options = {}) => {
  const schema = inferSchema(t, items, options);
  return {
    format: schema.keyFormat,
    entities: schema.entities.map((e) => `${e.name} ${e.key.pk.source} / ${e.key.sk?.source ?? '-'}${e.indexes.length ? ` ${e.indexes.map((m) => `${m.index}(${m.native ? 'native' : `${m.pk?.source ?? ''}|${m.sk?.source ?? ''}`})`).join(' ')}` : ''} [${e.attributes.map((a) => `${a.property}${a.storedAs ? `@${a.storedAs}` : ''}${a.optional ? '?' : ''}:${a.type.kind}${'format' in a.type && a.type.format ? `/${a.type.format}` : ''}${'max' in a.type && a.type.max !== undefined ? `/0..${a.type.max}` : ''}`).join(' ')}]${e.undescribed.length ? ` passthrough(${e.undescribed.map((u) => u.name).join(',')})` : ''}`),
    unmatched: schema.unmatched.map((u) => `${JSON.stringify(u.key)}: ${u.reason}`),
  };
};

test('the delimiter: the preferred character most values hold, outside dates, uuids and e-mail addresses', (t) => {
  const given: Array<[string[], string]> = [
    [['$taskapp#employee_jlowe', '$employee_1', '$office_1#office_gw zoo', '$workplaces#employee_1#employee_jlowe'], '#'],
    [['USER#u1', 'PROFILE', 'ORDER#2024-01-05T10:00:00.000Z#o1'], '#'],
    [['user:42', 'order:2024-01-05T10:00:00Z:7', 'user:43'], ':'],
    [['tenant|a@b.com', 'tenant|c@d.org|x'], '|'],
    [['7b0c1f9e-5d2a-4c1e-9f3b-2a6d8e4f1c00', 'plain'], '#'],
    [['a.b', 'c.d', 'e_f'], '.'],
  ];
  for (const [values, want] of given) t.is(inferDelimiter(values), want, values.join(' '));
});

test('bindings: a segment holds an attribute whole, glued to text, folded, padded or truncated', (t) => {
  const item = { employee: 'JLowe', n: 7, at: '2024-01-05T10:20:30.400Z', id: 'u1', count: 1 };
  const of = (segment: string) => bindingsOf(segment, item, new Set(['pk'])).map((b) => `${b.attr} [${b.prefix}|${b.suffix}] ${JSON.stringify(b.form)} ${[...b.casings].sort().join(',')}`);
  t.deepEqual(of('employee_jlowe'), ['employee [employee_|] {"kind":"text"} lower']);
  t.deepEqual(of('JLowe'), ['employee [|] {"kind":"text"} preserve']);
  t.deepEqual(of('007'), ['n [|] {"kind":"integer","padded":3} lower,preserve,upper']);
  t.deepEqual(of('n_7'), ['n [n_|] {"kind":"integer"} lower,preserve,upper', 'n [n_|] {"kind":"integer","padded":1} lower,preserve,upper'], 'its digits, which may also be a padding it fills');
  t.deepEqual(of('2024-01-05'), ['at [|] {"kind":"truncate","unit":"day"} lower,preserve,upper']);
  t.deepEqual(of('u1'), ['id [|] {"kind":"text"} lower,preserve']);
  t.deepEqual(of('PROFILE'), [], 'no attribute holds it: literal text');
  t.deepEqual(of('u10'), [], 'a value inside a word is not bound');
  t.deepEqual(of('v1x'), [], 'nor one glued to letters on both sides');
});

test('entities by key shape (no discriminator): literal words name them; timestamps keep their stored form', (t) => {
  const got = brief(
    table(),
    sample(
      { PK: 'USER#u1', SK: 'PROFILE', userId: 'u1', email: 'a@x.io', joined: '2024-01-05' },
      { PK: 'USER#u2', SK: 'PROFILE', userId: 'u2', email: 'b@x.io', joined: '2024-02-01', nick: 'bee' },
      { PK: 'USER#u1', SK: 'ORDER#2024-01-05T10:00:00Z#o1', userId: 'u1', orderId: 'o1', placedAt: '2024-01-05T10:00:00Z', total: 12.5 },
      { PK: 'USER#u2', SK: 'ORDER#2024-01-06T11:00:00Z#o2', userId: 'u2', orderId: 'o2', placedAt: '2024-01-06T11:00:00Z', total: 3 },
    ),
  );
  t.deepEqual(got, {
    format: { escape: false, integers: 'padded', casing: 'preserve' },
    entities: [
      'User USER#<userId> / PROFILE [userId:string email:string joined:timestamp/date nick?:string]',
      'Order USER#<userId> / ORDER#<placedAt>#<orderId> [userId:string placedAt:timestamp/iso-seconds orderId:string total:number]',
    ],
    unmatched: [],
  });
});

test('entities by discriminator: ElectroDB keys (glued names, lower-cased), and an item of another shape listed as unmatched', (t) => {
  const e = (employee: string, office: string, extra = {}) => ({ pk: `$taskapp#employee_${employee.toLowerCase()}`, sk: '$employee_1', gsi1pk: `$taskapp#office_${office.toLowerCase()}`, gsi1sk: `$workplaces#employee_1#employee_${employee.toLowerCase()}`, employee, office, __edb_e__: 'employee', __edb_v__: '1', ...extra });
  const got = brief(
    table({ pk: { name: 'pk', type: 'S' }, sk: { name: 'sk', type: 'S' }, indexes: [{ kind: 'gsi', name: 'gsi1pk-gsi1sk-index', pk: [{ name: 'gsi1pk', type: 'S' }], sk: [{ name: 'gsi1sk', type: 'S' }], projection: 'all' }] }),
    sample(e('JLowe', 'Gw Zoo', { salary: 45000 }), e('TMiller', 'Gw Zoo'), e('Ann', 'Portland'), { ...e('Bob', 'X'), sk: '$employee_2#bob' }),
  );
  t.deepEqual(got.format, { escape: false, integers: 'padded', casing: 'lower' });
  t.deepEqual(got.entities, ['Employee $taskapp#employee_<employee> / $employee_1 gsi1pk-gsi1sk-index($taskapp#office_<office>|$workplaces#employee_1#employee_<employee>) [employee:string office:string salary?:number]']);
  t.deepEqual(got.unmatched, ['{"pk":"$taskapp#employee_bob","sk":"$employee_2#bob"}: its __edb_e__ / __edb_v__ is that of Employee items, but its key is shaped "$taskapp#employee_<employee> / $employee_2#<employee>"']);
});

test('integers: padded keys give a range and keyFormat integers padded; plain ones sort as text', (t) => {
  const padded = brief(table(), sample({ PK: 'INV#0007', SK: 'I', no: 7 }, { PK: 'INV#0042', SK: 'I', no: 42 }, { PK: 'INV#1042', SK: 'I', no: 1042 }));
  t.deepEqual(padded.entities, ['Inv INV#<no> / I [no:number/0..9999]']);
  t.is(padded.format?.integers, 'padded');
  const plain = brief(table(), sample({ PK: 'INV#7', SK: 'I', no: 7 }, { PK: 'INV#42', SK: 'I', no: 42 }));
  t.deepEqual(plain.entities, ['Inv INV#<no> / I [no:number]']);
  t.is(plain.format?.integers, 'plain');
});

test('integers: one table may pad some and not others; an attribute written otherwise than the table\'s keyFormat says so itself, and one written both ways leaves the index out', (t) => {
  const indexed = table({ indexes: [{ kind: 'gsi', name: 'GSI1', pk: [{ name: 'GSI1PK', type: 'S' }], sk: [{ name: 'GSI1SK', type: 'S' }], projection: 'all' }] });
  const trips = [5, 12, 7].map((tripNo, i) => ({ PK: `VEHICLE#v${i}`, SK: `TRIP#tripno_${String(tripNo).padStart(5, '0')}`, vehicleId: `v${i}`, tripNo }));
  const vehicles = [7, 105, 41].map((fleetNo, i) => ({ PK: `VEHICLE#v${i}`, SK: 'PROFILE', GSI1PK: 'DEPOT#north', GSI1SK: `fleetno_${fleetNo}`, vehicleId: `v${i}`, depot: 'north', fleetNo }));
  const schema = inferSchema(indexed, sample(...trips, ...vehicles));
  t.deepEqual(schema.keyFormat, { escape: false, integers: 'padded', casing: 'preserve' });
  const types = (name: string) => Object.fromEntries(schema.entities.find((e) => e.name === name)!.attributes.map((a) => [a.property, typeText(a.type)]));
  t.is(types('Trip')['tripNo'], 't.number({ integer: true, min: 0, max: 99999 })');
  t.is(types('Vehicle')['fleetNo'], "t.number({ integer: true, keyFormat: 'plain' })");
  t.deepEqual(schema.warnings, []);
  // one attribute, two forms: written padded in the table key and plain in the index
  const both = [7, 105, 41].map((n, i) => ({ PK: `V#v${i}`, SK: `NO#${String(n).padStart(3, '0')}`, GSI1PK: 'DEPOT#north', GSI1SK: `fleetno_${n}`, vehicleId: `v${i}`, depot: 'north', n }));
  const mixed = inferSchema(indexed, sample(...both));
  t.deepEqual(mixed.entities[0]!.indexes, []);
  t.is(mixed.warnings[0]?.code, 'DDB304');
  t.regex(mixed.warnings[0]!.message, /its keys write n without padding, and the keys before it write it padded to 3 digits; ddbgen writes one attribute one way \(items \{"PK":"V#v0","SK":"NO#007"\}/);
});

test('fits are counted by the codec: an item whose stored key the schema writes otherwise is an outlier (DDB307); too few fitting leave the index (DDB304) or the entity (DDB306) out', (t) => {
  const indexed = table({ indexes: [{ kind: 'gsi', name: 'GSI1', pk: [{ name: 'GSI1PK', type: 'S' }], sk: [{ name: 'GSI1SK', type: 'S' }], projection: 'all' }] });
  // ten items keyed by three-digit numbers (their width tells plain from padded only for the last), one stored plain
  const items = [...[100, 120, 230, 310, 420, 555, 640, 777, 999].map((n) => ({ PK: `ITEM#${n}`, SK: 'A', GSI1PK: 'ALL', GSI1SK: `N#${n}`, n })), { PK: 'ITEM#7', SK: 'A', GSI1PK: 'ALL', GSI1SK: 'N#7', n: 7 }];
  const inferred = inferSchema(indexed, sample(...items));
  t.deepEqual(inferred.entities.map((e) => `${e.name} ${e.key.pk.source} fits ${e.key.pk.fits} of ${e.key.pk.of}`), ['Item ITEM#<n> fits 10 of 10']);
  // the schema as it might load: n padded to three digits, the index keyed by n as well
  const loaded = (indexSk: string) =>
    defineTable({
      name: 'Shop',
      key: { pk: 'PK', sk: 'SK' },
      keyFormat: { escape: false },
      indexes: { GSI1: gsi({ pk: 'GSI1PK', sk: 'GSI1SK', projection: 'all' }) },
      entities: { Item: entity({ attributes: { n: types.number({ integer: true, min: 0, max: 999 }) }, key: { pk: 'ITEM#<n>', sk: 'A' }, indexes: { GSI1: { pk: 'ALL', sk: indexSk } } }) },
    });
  const held = checkFits(inferred, loaded('N#<n>'), sample(...items), dropEntity);
  const item = held.entities[0]!;
  t.is(item.key.pk.fits, 9);
  t.is(item.key.sk?.fits, 10);
  t.deepEqual(item.outliers, [{ key: { PK: 'ITEM#7', SK: 'A' }, reason: 'its PK is "ITEM#7", where the schema\'s key.pk "ITEM#<n>" writes "ITEM#007"; its GSI1SK is "N#7", where the schema\'s indexes.GSI1.sk "N#<n>" writes "N#007"' }]);
  t.deepEqual(held.warnings.map((w) => w.code), ['DDB307']);
  t.regex(held.warnings[0]!.message, /^ddbgen's codec does not write the stored keys of 1 of 10 Item items as they are \(\{"PK":"ITEM#7","SK":"A"\}: its PK is "ITEM#7", where/);
  t.is(checkFits(held, loaded('N#<n>'), sample(...items), dropEntity).entities[0]!.outliers.length, 1, 'an item listed once is not listed again');
  // an index template that writes few of its stored keys: the mapping is left out
  const noIndex = checkFits(inferred, loaded('M#<n>'), sample(...items), dropEntity);
  t.deepEqual(noIndex.entities[0]!.indexes, []);
  t.deepEqual(noIndex.warnings.map((w) => w.code), ['DDB304', 'DDB307']);
  t.regex(noIndex.warnings[0]!.message, /^index GSI1 is left out of Item: ddbgen's codec writes its stored keys as they are for only 0 of 10 items/);
  // a table key that writes few (stored four digits wide, loaded three): the entity is left out, its items listed
  const plain = items.map((i) => ({ ...i, PK: `ITEM#${String(i.n).padStart(4, '0')}`, GSI1SK: `N#${String(i.n).padStart(4, '0')}` }));
  const dropped = checkFits(inferSchema(indexed, sample(...plain)), loaded('N#<n>'), sample(...plain), dropEntity);
  t.deepEqual(dropped.entities, []);
  t.deepEqual(dropped.warnings.map((w) => w.code), ['DDB306']);
  t.is(dropped.unmatched.length, 10);
});

test('indexes: native when keyed by an attribute, sparse when an optional attribute feeds it, left out otherwise', (t) => {
  const t1 = table({
    indexes: [
      { kind: 'gsi', name: 'byEmail', pk: [{ name: 'email', type: 'S' }], sk: [], projection: 'all' },
      { kind: 'gsi', name: 'GSI1', pk: [{ name: 'GSI1PK', type: 'S' }], sk: [{ name: 'GSI1SK', type: 'S' }], projection: 'keys-only' },
    ],
  });
  const got = brief(t1, sample(
    { PK: 'USER#u1', SK: 'PROFILE', id: 'u1', email: 'a@x.io', team: 't1', GSI1PK: 'TEAM#t1', GSI1SK: 'USER#u1' },
    { PK: 'USER#u2', SK: 'PROFILE', id: 'u2', email: 'b@x.io' },
  ));
  t.deepEqual(got.entities, ['User USER#<id> / PROFILE byEmail(native) GSI1(TEAM#<team>|USER#<id>) [id:string team?:string email:string]']);
});

test('attributes: names that are not identifiers get a property and storedAs; what no type describes is kept by passthrough', (t) => {
  const got = brief(table(), sample(
    { PK: 'PERSON#p1', SK: 'P', id: 'p1', 'first-name': 'Ann', mixed: 1, nothing: null, tags: ['a'], meta: { a: 1 } },
    { PK: 'PERSON#p2', SK: 'P', id: 'p2', 'first-name': 'Bo', mixed: 'x', tags: ['b', 'c'], meta: { a: 2, b: true } },
  ));
  t.deepEqual(got.entities, ['Person PERSON#<id> / P [id:string firstName@first-name:string meta:map tags:list] passthrough(mixed,nothing)']);
});

test('what stops inference: an empty table, number keys, keys no attribute holds, a discriminator no item carries', (t) => {
  const fails = (t1: PulledTable, items: SampledItem[], options = {}) => t.throws(() => inferSchema(t1, items, options), { instanceOf: PullError });
  t.regex(fails(table(), []).message, /has no items/);
  t.regex(fails(table({ pk: { name: 'id', type: 'N' } }), sample({ id: 1 })).message, /is a number \(N\)/);
  const unbound = fails(table(), sample({ PK: 'USER#7b0c1f9e-5d2a-4c1e-9f3b-2a6d8e4f1c00', SK: 'P' }, { PK: 'USER#8b0c1f9e-5d2a-4c1e-9f3b-2a6d8e4f1c00', SK: 'P' }));
  t.regex(unbound.message, /no entity fits the 2 sampled item\(s\): 2 item\(s\): partition key: segment 2 \("[0-9a-f-]+", uuid\) is a value no attribute of the item holds/);
  t.regex(unbound.fix, /--discriminator/);
  t.regex(fails(table(), sample({ PK: 'A#1', SK: 'x', a: '1' }), { discriminator: 'kind' }).message, /no sampled item has a string attribute "kind"/);
});

test('the rendered module loads and validates; its hash tells the file pull wrote from an edited one', async (t) => {
  const schema = inferSchema(table({ ttl: 'expires', tags: { team: 'core' } }), sample(
    { PK: 'USER#u1', SK: 'PROFILE', userId: 'u1', expires: 1767225600, _et: 'User' },
    { PK: 'USER#u2', SK: 'PROFILE', userId: 'u2', _et: 'User' },
  ));
  const text = renderSchema(schema, 'a test');
  const dir = mkdtempSync(path.join(root, 'out', '.pull-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'shop.ts'), text);
  const { tables, diagnostics } = await loadSchemas([path.join(dir, 'shop.ts')], root);
  t.deepEqual(diagnostics, []);
  const def = tables[0]!.table;
  t.deepEqual(def.entities['User']!.discriminator, { _et: 'User' });
  t.is(def.ttl, 'expires');
  t.is(def.entities['User']!.attributes['expires']!.kind, 'timestamp');
  t.true(isUnedited(text));
  t.false(isUnedited(text.replace("sk: 'PROFILE'", "sk: 'PROFILE2'")));
  t.false(isUnedited('export default {};\n'));
});

test('NoSQL Workbench: facets name the entities of their items; GSIs and capacity come from the model', (t) => {
  const model = {
    ModelName: 'Bookmarks',
    DataModel: [
      {
        TableName: 'CustomerBookmark',
        KeyAttributes: { PartitionKey: { AttributeName: 'customerId', AttributeType: 'S' }, SortKey: { AttributeName: 'sk', AttributeType: 'S' } },
        GlobalSecondaryIndexes: [{ IndexName: 'ByEmail', KeyAttributes: { PartitionKey: { AttributeName: 'email', AttributeType: 'S' } }, Projection: { ProjectionType: 'ALL' } }],
        TableFacets: [
          { FacetName: 'Customer', TableData: [{ customerId: { S: 'CUST#1' }, sk: { S: 'CUST#1' }, id: { S: '1' }, email: { S: 'a@x.io' }, fullName: { S: 'Ann' } }, { customerId: { S: 'CUST#2' }, sk: { S: 'CUST#2' }, id: { S: '2' }, email: { S: 'b@x.io' }, fullName: { S: 'Bo' } }] },
          { FacetName: 'Bookmark', TableData: [{ customerId: { S: 'CUST#1' }, sk: { S: 'https://a.io' }, id: { S: '1' }, url: { S: 'https://a.io' }, folder: { S: 'Cloud' } }, { customerId: { S: 'CUST#2' }, sk: { S: 'https://b.io' }, id: { S: '2' }, url: { S: 'https://b.io' }, folder: { S: 'AWS' } }] },
        ],
        BillingMode: 'PROVISIONED',
        ProvisionedCapacitySettings: { ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 } },
      },
    ],
  };
  const [read] = readWorkbench(JSON.stringify(model), 'model.json');
  t.deepEqual(read!.table.capacity, { mode: 'provisioned', read: 5, write: 5 });
  const got = brief(read!.table, read!.sample);
  t.deepEqual(got.entities, [
    'Customer CUST#<id> / CUST#<id> ByEmail(native) [id:string email:string fullName:string]',
    'Bookmark CUST#<id> / <url> [id:string url:string folder:string]',
  ]);
  t.throws(() => readWorkbench('{"ModelName":"x"}', 'model.json'), { instanceOf: PullError, message: /not a NoSQL Workbench data model/ });
  t.throws(() => readWorkbench('not json', 'model.json'), { instanceOf: PullError, message: /is not JSON/ });
});

// Messy real tables: a few odd items must not reshape the schema. Each case is given items and wants
// the entities, the outliers (items of an entity that differ from the others) and the items that fit
// no entity, each with its key and reason.
const outliersOf = (t1: PulledTable, items: SampledItem[]) => inferSchema(t1, items).entities.flatMap((e) => e.outliers.map((o) => `${e.name} ${JSON.stringify(o.key)}: ${o.reason}`));
const gsi1 = table({ indexes: [{ kind: 'gsi', name: 'GSI1', pk: [{ name: 'GSI1PK', type: 'S' }], sk: [{ name: 'GSI1SK', type: 'S' }], projection: 'all' }] });
/** `n` orders as another program writes them: GSI1 by status, numeric totals. */
const orders = (n: number, from = 0) =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const at = new Date(Date.UTC(2024, 6, 1, 0, i)).toISOString().replace('.000Z', 'Z');
    const status = ['pending', 'shipped'][i % 2]!;
    return { PK: `USER#${1000 + (i % 7)}`, SK: `ORDER#${at}`, GSI1PK: `STATUS#${status}`, GSI1SK: at, userId: String(1000 + (i % 7)), orderId: `ord_${i}`, placedAt: at, status, total: i + 0.5 };
  });

test('an index most items are in stays mapped; the items outside it are outliers, by key and reason', (t) => {
  const [odd, ...rest] = orders(20);
  const { GSI1PK: _p, GSI1SK: _s, ...outside } = odd!;
  const got = brief(gsi1, sample(outside, ...rest));
  t.deepEqual(got.entities, ['Order USER#<userId> / ORDER#<placedAt> GSI1(STATUS#<status>|<placedAt>) [userId:string placedAt:timestamp/iso-seconds status:string orderId:string total:number]']);
  t.deepEqual(outliersOf(gsi1, sample(outside, ...rest)), [
    `Order {"PK":"USER#1000","SK":"ORDER#2024-07-01T00:00:00Z"}: it is not in index GSI1 (no GSI1PK / GSI1SK), where 19 of 20 Order items are; ddbgen's code writes it there when it puts the item`,
  ]);
  t.deepEqual(inferSchema(gsi1, sample(outside, ...rest)).warnings, []);
  // an index key of another shape on one item: the mapping holds, the item is an outlier
  const twisted = sample({ ...odd!, GSI1PK: 'STATUS#shipped#legacy' }, ...rest);
  t.deepEqual(brief(gsi1, twisted).entities, got.entities);
  t.regex(outliersOf(gsi1, twisted)[0]!, /^Order \{"PK":"USER#1000","SK":"ORDER#2024-07-01T00:00:00Z"\}: its GSI1PK \("STATUS#shipped#legacy"\) has 3 segments, where 19 of 20 items in index GSI1 have 2/);
  // an index key holding another item's value: an outlier too, and not counted as fitting the mapping
  const crossed = sample({ ...odd!, GSI1PK: 'STATUS#cancelled' }, ...rest);
  t.deepEqual(outliersOf(gsi1, crossed), ['Order {"PK":"USER#1000","SK":"ORDER#2024-07-01T00:00:00Z"}: in index GSI1, its GSI1PK segment 2 ("cancelled") is not its status ("pending"), as in 19 of 20 items keyed alike']);
  t.like(inferSchema(gsi1, crossed).entities[0]!.indexes[0]!.pk, { source: 'STATUS#<status>', fits: 19, of: 20 });
});

test('an index left out is a warning of the summary, not a note', (t) => {
  // half of the items in it, and its keys read no attribute the others lack: ddbgen would write it for all
  const items = orders(10).map((o, i) => {
    if (i % 2 === 0) return o;
    const { GSI1PK: _p, GSI1SK: _s, ...rest } = o;
    return rest;
  });
  const schema = inferSchema(gsi1, sample(...items));
  t.deepEqual(schema.entities[0]!.indexes, []);
  t.deepEqual(schema.entities[0]!.notes, []);
  t.deepEqual(schema.warnings.map((w) => `${w.code} ${w.message}`), [
    "DDB304 index GSI1 is left out of Order: only 5 of 10 items are in it, and its keys read no attribute the others lack (ddbgen writes an index for every item holding its attributes); items ddbgen writes for Order are then not in GSI1, and the table's other writers and readers of GSI1 do not see them (map it by hand if they should)",
  ]);
  const text = renderSchema(schema, 'a test');
  t.regex(text, /\/\/ warning DDB304: index GSI1 is left out of Order: only 5 of 10 items/);
  // an LSI keyed by the items' own attribute: left out of the table, a warning too
  const withLsi = table({ indexes: [{ kind: 'lsi', name: 'byTotal', pk: [], sk: [{ name: 'total', type: 'N' }], projection: 'all' }] });
  const lsi = inferSchema(withLsi, sample(...orders(4).map(({ GSI1PK: _p, GSI1SK: _s, ...o }) => o)));
  t.deepEqual(lsi.warnings.map((w) => `${w.code} ${w.message}`), ["DDB305 LSI byTotal is left out of the schema: it is keyed by the items' own attribute total, and ddbgen's LSIs hold a built sort key; queries on it are yours to write"]);
  t.deepEqual(lsi.notes, []);
  const lsiText = renderSchema(lsi, 'a test');
  t.regex(lsiText, /^\/\/ warning DDB305: LSI byTotal is left out of the schema/m);
  t.false(lsiText.includes('lsi('));
});

test('a value of another type on a few items: the type is the majority\'s, the items are outliers; without a clear majority it stays passthrough', (t) => {
  const items: Array<Record<string, unknown>> = orders(20).map((o) => ({ ...o, paidOn: '2024-07-02' }));
  items[3] = { ...items[3]!, total: '12.00' };
  items[7] = { ...items[7]!, paidOn: 'unknown' };
  const got = brief(gsi1, sample(...items));
  t.deepEqual(got.entities, ['Order USER#<userId> / ORDER#<placedAt> GSI1(STATUS#<status>|<placedAt>) [userId:string placedAt:timestamp/iso-seconds status:string orderId:string paidOn:timestamp/date total:number]']);
  t.deepEqual(outliersOf(gsi1, sample(...items)), [
    'Order {"PK":"USER#1003","SK":"ORDER#2024-07-01T00:03:00Z"}: total is a string ("12.00"), where 19 of 20 Order items hold a number; the schema declares it t.number(), which this value is not',
    'Order {"PK":"USER#1000","SK":"ORDER#2024-07-01T00:07:00Z"}: paidOn is a string ("unknown"), where 19 of 20 Order items hold a date; the schema declares it t.timestamp({ format: \'date\' }), which this value is not',
  ]);
  const attribute = inferSchema(gsi1, sample(...items)).entities[0]!.attributes.find((a) => a.property === 'total')!;
  t.is(attribute.odd, 1);
  t.regex(renderSchema(inferSchema(gsi1, sample(...items)), 'a test'), /total: t\.number\(\), \/\/ in 20 of 20 items; 1 holds another type \(outliers, in the pull report\)/);
  t.regex(renderSchema(inferSchema(gsi1, sample(...items)), 'a test'), /^\/\/ 1 entity covers 20 of 20 of them; 2 items differ from the rest of its entity \(listed in the pull report\)\.$/m);
  // 3 numbers and 2 strings: no clear majority, kept as stored
  const mixed = orders(5).map((o, i) => (i < 2 ? { ...o, total: String(o.total) } : o));
  t.deepEqual(brief(gsi1, sample(...mixed)).entities.map((e) => e.replace(/ \[.*\]/, '')), ['Order USER#<userId> / ORDER#<placedAt> GSI1(STATUS#<status>|<placedAt>) passthrough(total)']);
  t.deepEqual(outliersOf(gsi1, sample(...mixed)), []);
});

test('a key shape on too few items is not an entity: its items fit none, with the reason and the shape they are closest to', (t) => {
  const got = brief(gsi1, sample(
    ...orders(30),
    { PK: 'USER#1002', SK: 'ORDER#legacy-42', userId: '1002', orderId: 'ord_x', placedAt: 'unknown', status: 'pending', total: 3 },
    { PK: 'USER#123', SK: 'CART#current', skus: ['sku-1'] },
  ));
  t.deepEqual(got.entities.map((e) => e.replace(/ \[.*\]/, '')), ['Order USER#<userId> / ORDER#<placedAt> GSI1(STATUS#<status>|<placedAt>)']);
  t.deepEqual(got.unmatched, [
    '{"PK":"USER#1002","SK":"ORDER#legacy-42"}: only 1 sampled item has keys shaped "USER#<userId> / ORDER#legacy-42" (an entity of its own needs 3 items, or 10% of the sample); 30 items are keyed "USER#<userId> / ORDER#<placedAt>"',
    '{"PK":"USER#123","SK":"CART#current"}: only 1 sampled item has keys shaped "USER#123 / CART#current" (an entity of its own needs 3 items, or 10% of the sample)',
  ]);
});

test('an item whose key disagrees with its attributes fits no entity, and does not unmake the others', (t) => {
  const items = orders(20);
  items[5] = { ...items[5]!, userId: '1099' };
  const got = brief(gsi1, sample(...items));
  t.deepEqual(got.entities.map((e) => e.replace(/ \[.*\]/, '')), ['Order USER#<userId> / ORDER#<placedAt> GSI1(STATUS#<status>|<placedAt>)']);
  t.deepEqual(got.unmatched, ['{"PK":"USER#1005","SK":"ORDER#2024-07-01T00:05:00Z"}: its partition key segment 2 ("1005") is not its userId ("1099"), as in 19 of 20 items keyed alike']);
  // without a clear majority the key shapes are told apart, and each is judged on its own
  const split = [...orders(6), ...orders(3, 6).map((o) => ({ ...o, SK: `ORDER#${o.orderId}` }))];
  t.deepEqual(brief(gsi1, sample(...split)).entities.map((e) => e.replace(/ \[.*\]/, '')), ['Order USER#<userId> / ORDER#<placedAt> GSI1(STATUS#<status>|<placedAt>)', 'Order2 USER#<userId> / ORDER#<orderId> GSI1(STATUS#<status>|<placedAt>)']);
});

test('entities that share a partition prefix are named by their sort key: a Cart, not User2', (t) => {
  const users = Array.from({ length: 4 }, (_, i) => ({ PK: `USER#u${i}`, SK: 'PROFILE', userId: `u${i}`, name: `n${i}` }));
  const carts = Array.from({ length: 3 }, (_, i) => ({ PK: `USER#u${i}`, SK: 'CART#current', userId: `u${i}`, skus: ['a'] }));
  t.deepEqual(brief(table(), sample(...users, ...carts)).entities.map((e) => e.replace(/ \[.*\]/, '')), ['User USER#<userId> / PROFILE', 'Cart USER#<userId> / CART#current']);
  // more carts than profiles: the profiles still keep the partition key's name
  const more = Array.from({ length: 6 }, (_, i) => ({ PK: `USER#u${i}`, SK: 'CART#current', userId: `u${i}`, skus: ['a'] }));
  t.deepEqual(brief(table(), sample(...users, ...more)).entities.map((e) => e.replace(/ \[.*\]/, '')), ['Cart USER#<userId> / CART#current', 'User USER#<userId> / PROFILE']);
});

test('report types are printed on one line, as the DSL writes them', (t) => {
  t.is(typeText({ kind: 'list', of: { kind: 'map', fields: { sku: { type: { kind: 'string' }, optional: false }, qty: { type: { kind: 'number', integer: true }, optional: true } } } }), 't.list(t.map({ sku: t.string(), qty: t.number({ integer: true }).optional() }))');
  t.is(typeText({ kind: 'map', fields: {} }), 't.map({})');
});

/** `ddbgen pull` as the CLI runs it, in `dir` (under out/, so the module it writes imports ddbgen). */
async function pullCli(dir: string, args: string[]) {
  const { main } = await import('../generator/cli/cli.js');
  let stdout = '';
  let stderr = '';
  const code = await main(['pull', ...args], { cwd: dir, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}
/** A NoSQL Workbench model of one table (PK / SK), its items as TableData without facets. */
const model = (items: Array<Record<string, unknown>>) => JSON.stringify({
  ModelName: 'm',
  DataModel: [{
    TableName: 'shop-prod',
    KeyAttributes: { PartitionKey: { AttributeName: 'PK', AttributeType: 'S' }, SortKey: { AttributeName: 'SK', AttributeType: 'S' } },
    TableData: items.map((item) => Object.fromEntries(Object.entries(item).map(([k, v]) => [k, typeof v === 'number' ? { N: String(v) } : { S: String(v) }]))),
    BillingMode: 'PAY_PER_REQUEST',
  }],
});

test('pull never fails over its own entities: of two that can build the same key, the one with fewer items is left out, its items listed', async (t) => {
  // 6 orders keyed by their time, 3 by their id: two shapes, both entities, and ORDER#<orderId> can build ORDER#<placedAt>
  const items = [...orders(6), ...orders(3, 6).map((o) => ({ ...o, SK: `ORDER#${o.orderId}` }))].map(({ GSI1PK: _p, GSI1SK: _s, ...o }) => o);
  const dir = mkdtempSync(path.join(root, 'out', '.pull-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'model.json'), model(items));
  const { code, stdout, stderr } = await pullCli(dir, ['--workbench', 'model.json', '--out', 'shop.ts', '--format', 'json']);
  t.is(code, 0, stderr);
  const report = JSON.parse(stdout);
  t.deepEqual(report.entities.map((e: { name: string; items: number }) => [e.name, e.items]), [['Order', 6]]);
  t.is(report.warnings.length, 1);
  t.is(report.warnings[0].code, 'DDB306');
  t.regex(report.warnings[0].message, /^entity Order2 \(keys "USER#<userId> \/ ORDER#<orderId>", 3 items\) is left out: Order and Order2 can build the same key .*\(DDB040\), and it has the fewer items; its items are listed as fitting no entity$/);
  t.deepEqual(report.unmatched.map((u: { key: { SK: string } }) => u.key.SK), ['ORDER#ord_6', 'ORDER#ord_7', 'ORDER#ord_8']);
  t.regex(report.unmatched[0].reason, /^its keys are shaped "USER#<userId> \/ ORDER#<orderId>", an entity pull left out: Order and Order2 can build the same key/);
  t.regex(stderr, /wrote shop\.ts \(1 warning in the report: read it first\)/);
  const { diagnostics } = await loadSchemas([path.join(dir, 'shop.ts')], root);
  t.deepEqual(diagnostics.filter((d) => d.severity === 'error'), []);
  t.regex(readFileSync(path.join(dir, 'shop.ts'), 'utf8'), /\/\/ warning DDB306: entity Order2 /);
  // the text summary shows the warning first, before the entities
  const text = await pullCli(dir, ['--workbench', 'model.json', '--out', 'shop.ts']);
  t.is(text.code, 0);
  t.regex(text.stdout, /^ddbgen pull: NoSQL Workbench model model\.json, table shop-prod: 9 items sampled\n  keys: [^\n]*\n  warning DDB306: entity Order2 \(keys "USER#<userId> \/ ORDER#<orderId>", 3 items\) is left out: [^\n]*\n  Order: 6 items/);
  t.regex(text.stdout, /\n  3 sampled items fit no entity:\n/);
});

test('pull --format json prints a JSON error object on stdout when it fails; the exit code is unchanged', async (t) => {
  const dir = mkdtempSync(path.join(root, 'out', '.pull-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const run = (args: string[]) => pullCli(dir, args);
  writeFileSync(path.join(dir, 'bad.json'), 'not json');
  const bad = await run(['--workbench', 'bad.json', '--format', 'json']);
  t.is(bad.code, 1);
  t.like(JSON.parse(bad.stdout), { code: 'DDB300', inferred: 'nothing', read: null });
  t.regex(JSON.parse(bad.stdout).message, /^bad\.json is not JSON/);
  // items that fit nothing: what was read comes with it
  writeFileSync(path.join(dir, 'opaque.json'), model(Array.from({ length: 4 }, (_, i) => ({ PK: `DOC#7b0c1f9e-5d2a-4c1e-9f3b-2a6d8e4f1c0${i}`, SK: 'V1' }))));
  const opaque = await run(['--workbench', 'opaque.json', '--format', 'json', '--out', 'none.ts']);
  t.is(opaque.code, 1);
  const error = JSON.parse(opaque.stdout);
  t.like(error, { code: 'DDB302', read: { source: 'NoSQL Workbench model opaque.json, table shop-prod', table: 'shop-prod', sampled: 4 } });
  t.regex(error.message, /^no entity fits the 4 sampled item\(s\)/);
  t.is(error.error, error.message);
  t.regex(error.fix, /--discriminator/);
  // a usage error: exit 2, and the JSON object still
  const usage = await run(['--workbench', 'opaque.json', '--format', 'json', '--sample', '5']);
  t.is(usage.code, 2);
  t.like(JSON.parse(usage.stdout), { code: 'usage', message: '--workbench reads a model file: --endpoint, --region, --sample and --max-rcu are for a live table' });
  // text: nothing on stdout
  t.is((await run(['--workbench', 'bad.json'])).stdout, '');
  // a fault outside pull's own checks (here: an --out folder that does not exist) prints the object too
  writeFileSync(path.join(dir, 'shop.json'), model(orders(4).map(({ GSI1PK: _p, GSI1SK: _s, ...o }) => o)));
  const fault = await run(['--workbench', 'shop.json', '--format', 'json', '--out', 'no/such/folder/shop.ts']);
  t.is(fault.code, 1);
  t.like(JSON.parse(fault.stdout), { code: 'internal', read: { table: 'shop-prod', sampled: 4 } });
  t.regex(JSON.parse(fault.stdout).message, /ENOENT/);
});
