// The `@example` of each repository method family, given a small entity: the call with sample
// values and the request the runtime's builders compute for it (small exact texts).
import test from 'ava';
import fc from 'fast-check';
import { arr, binary, call, construct, literal, obj, print, prop, str, type Expression } from '../../generator/emit/ast.js';
import { docCode, LINE_WIDTH } from '../../generator/emit/output/format.js';
import { defineTable, entity, gsi, lsi, t as types } from '../../dsl/index.js';
import { createContext } from '../../generator/emit/context.js';
import { examplesOf, scanExample, sendsText, transactionExample } from '../../generator/emit/examples/doc-examples.js';
import { entityScope } from '../../generator/emit/entity/entity-scope.js';

const table = defineTable({
  name: 'Shop',
  indexes: { byStatus: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', projection: 'all' }), byDate: lsi({ sk: 'lsi1sk', projection: 'keys-only' }) },
  entities: {
    Order: entity({
      attributes: { orderId: types.string(), status: types.enum(['OPEN', 'SHIPPED']), note: types.string(), flaggedAt: types.timestamp().optional() },
      key: { pk: 'Order#<orderId>', sk: 'ORDER' },
      indexes: { byStatus: { pk: 'Status#<status>', sk: '<flaggedAt>' } },
    }),
    Note: entity({
      attributes: { id: types.string(), pinnedAt: types.timestamp().optional() },
      key: { pk: 'Note#<id>', sk: 'NOTE' },
      indexes: { byStatus: { pk: 'Pinned#<id>', sk: '<pinnedAt>' } },
    }),
    Stock: entity({
      attributes: { sku: types.string(), count: types.number({ integer: true }), reserved: types.number({ integer: true }).optional() },
      key: { pk: 'Sku#<sku>', sk: 'STOCK' },
    }),
    Tag: entity({
      attributes: { name: types.string(), at: types.timestamp(), rev: types.number({ integer: true }) },
      key: { pk: 'Tag#<name>', sk: 'AT#<at>' },
      indexes: { byDate: { sk: 'D#<at>' } },
      version: 'rev',
    }),
  },
  patterns: { tagsSince: { entity: 'Tag', sk: 'at', op: 'gte', order: 'desc' } },
});
const ctx = createContext(table);
const examples = (name: string) => examplesOf(entityScope(table.entities[name]!, ctx));
/** The tag's text as its lines (the doc comment adds ` * `). */
const lines = (tag: { text: string } | undefined) => tag?.text.trim().split('\n');

test('get: the call, then the Key built by the key templates', (t) => {
  t.deepEqual(lines(examples('Order').get()), [
    "await db.order.get({ orderId: 'orderId-1' });",
    '// sends GetCommand:',
    "// { TableName: 'Shop', Key: { pk: 'Order#orderId-1', sk: 'ORDER' } }",
  ]);
});

test('create: required attributes only, the item with its table and index keys, and the condition', (t) => {
  t.deepEqual(lines(examples('Order').put('create')), [
    "await db.order.create({ orderId: 'orderId-1', status: 'OPEN', note: 'note-1' });",
    '// sends PutCommand:',
    '// {',
    "//   TableName: 'Shop',",
    '//   Item: {',
    "//     orderId: 'orderId-1',",
    "//     status: 'OPEN',",
    "//     note: 'note-1',",
    "//     pk: 'Order#orderId-1',",
    "//     sk: 'ORDER',",
    '//   },',
    "//   ConditionExpression: 'attribute_not_exists(#n0)',",
    "//   ExpressionAttributeNames: { '#n0': 'pk' },",
    "//   ReturnValuesOnConditionCheckFailure: 'ALL_OLD',",
    '// }',
  ]);
});

test('put: an unconditional put sends the item alone', (t) => {
  t.deepEqual(lines(examples('Stock').put('put')), [
    "await db.stock.put({ sku: 'sku-1', count: 1 });",
    '// sends PutCommand:',
    '// {',
    "//   TableName: 'Shop',",
    "//   Item: { sku: 'sku-1', count: 1, pk: 'Sku#sku-1', sk: 'STOCK' },",
    '// }',
  ]);
});

test('update: sets the first attribute that feeds no index key', (t) => {
  t.deepEqual(lines(examples('Order').update()), [
    "await db.order.update({ orderId: 'orderId-1' }, { set: { note: 'note-1' } });",
    '// sends UpdateCommand:',
    '// {',
    "//   TableName: 'Shop',",
    "//   Key: { pk: 'Order#orderId-1', sk: 'ORDER' },",
    "//   UpdateExpression: 'SET #n0 = :v0',",
    "//   ConditionExpression: 'attribute_exists(#n1)',",
    "//   ExpressionAttributeNames: { '#n0': 'note', '#n1': 'pk' },",
    "//   ExpressionAttributeValues: { ':v0': 'note-1' },",
    "//   ReturnValuesOnConditionCheckFailure: 'ALL_OLD',",
    "//   ReturnValues: 'ALL_NEW',",
    '// }',
  ]);
});

test('delete of a versioned entity: the expected version in the call and the condition', (t) => {
  t.deepEqual(lines(examples('Tag').delete()), [
    "await db.tag.delete({ name: 'name-1', at: new Date('2024-01-15T09:30:00.000Z') }, {",
    '  expectedVersion: 1,',
    '});',
    '// sends DeleteCommand:',
    '// {',
    "//   TableName: 'Shop',",
    "//   Key: { pk: 'Tag#name-1', sk: 'AT#2024-01-15T09:30:00.000Z' },",
    "//   ConditionExpression: '#n0 = :v0',",
    "//   ExpressionAttributeNames: { '#n0': 'rev' },",
    "//   ExpressionAttributeValues: { ':v0': 1 },",
    "//   ReturnValuesOnConditionCheckFailure: 'ALL_OLD',",
    "//   ReturnValues: 'ALL_OLD',",
    '// }',
  ]);
});

test('batchDelete: a one-key batch and its BatchWriteItem request', (t) => {
  t.deepEqual(lines(examples('Stock').batchDelete()), [
    "await db.stock.batchDelete([{ sku: 'sku-1' }]);",
    '// sends BatchWriteCommand:',
    '// {',
    "//   RequestItems: { Shop: [{ DeleteRequest: { Key: { pk: 'Sku#sku-1', sk: 'STOCK' } } }] },",
    '// }',
  ]);
});

test('index query: one partition, `where` on the first sort-key part', (t) => {
  const scope = entityScope(table.entities['Order']!, ctx);
  t.deepEqual(lines(examplesOf(scope).query(scope.indexPaths[0]!, 'queryByStatus')), [
    "await db.order.queryByStatus({ status: 'OPEN' }, {",
    "  where: { eq: { flaggedAt: new Date('2024-01-15T09:30:00.000Z') } },",
    '});',
    '// sends QueryCommand:',
    '// {',
    "//   TableName: 'Shop',",
    "//   IndexName: 'byStatus',",
    "//   KeyConditionExpression: '#n0 = :v0 AND #n1 = :v1',",
    "//   ExpressionAttributeNames: { '#n0': 'gsi1pk', '#n1': 'gsi1sk' },",
    "//   ExpressionAttributeValues: { ':v0': 'Status#OPEN', ':v1': '2024-01-15T09:30:00.000Z' },",
    '// }',
  ]);
});

test('pattern: its parameters and the sort condition it plans (gte on a prefix: up to the last key under it, spelled with repeat)', (t) => {
  const scope = entityScope(table.entities['Tag']!, ctx);
  t.deepEqual(lines(examplesOf(scope).pattern(scope.patterns[0]!)), [
    "await db.tag.tagsSince({ name: 'name-1', at: new Date('2024-01-15T09:30:00.000Z') });",
    '// sends QueryCommand:',
    '// {',
    "//   TableName: 'Shop',",
    "//   KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2',",
    "//   ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' },",
    '//   ExpressionAttributeValues: {',
    "//     ':v0': 'Tag#name-1',",
    "//     ':v1': 'AT#2024-01-15T09:30:00.000Z',",
    "//     ':v2': 'AT#' + '\\u{10ffff}'.repeat(255) + '\\u007f',",
    '//   },',
    '//   ScanIndexForward: false,',
    '// }',
  ]);
});

test('increment: one of each counter, the other counters started at 0', (t) => {
  t.deepEqual(lines(examples('Stock').increment(['count', 'reserved'])), [
    "await db.stock.increment({ sku: 'sku-1' }, { count: 1, reserved: 1 });",
    '// sends UpdateCommand:',
    '// {',
    "//   TableName: 'Shop',",
    "//   Key: { pk: 'Sku#sku-1', sk: 'STOCK' },",
    "//   UpdateExpression: 'SET #n0 = if_not_exists(#n0, :v0) ADD #n1 :v1, #n2 :v2',",
    "//   ExpressionAttributeNames: { '#n0': 'sku', '#n1': 'count', '#n2': 'reserved' },",
    "//   ExpressionAttributeValues: { ':v0': 'sku-1', ':v1': 1, ':v2': 1 },",
    "//   ReturnValues: 'ALL_NEW',",
    '// }',
  ]);
});

test('sparse index: mark sets the optional inputs and the index key in one update', (t) => {
  t.deepEqual(lines(examples('Note').sparse('markByStatus', ['pinnedAt'], true)), [
    "await db.note.markByStatus({ id: 'id-1' }, {",
    "  pinnedAt: new Date('2024-01-15T09:30:00.000Z'),",
    '});',
    '// sends UpdateCommand:',
    '// {',
    "//   TableName: 'Shop',",
    "//   Key: { pk: 'Note#id-1', sk: 'NOTE' },",
    "//   UpdateExpression: 'SET #n0 = :v0, #n1 = :v1, #n2 = :v2',",
    "//   ConditionExpression: 'attribute_exists(#n3)',",
    '//   ExpressionAttributeNames: {',
    "//     '#n0': 'pinnedAt',",
    "//     '#n1': 'gsi1pk',",
    "//     '#n2': 'gsi1sk',",
    "//     '#n3': 'pk',",
    '//   },',
    '//   ExpressionAttributeValues: {',
    "//     ':v0': '2024-01-15T09:30:00.000Z',",
    "//     ':v1': 'Pinned#id-1',",
    "//     ':v2': '2024-01-15T09:30:00.000Z',",
    '//   },',
    "//   ReturnValuesOnConditionCheckFailure: 'ALL_OLD',",
    "//   ReturnValues: 'ALL_NEW',",
    '// }',
  ]);
});

test('an entity whose shard is drawn at random has no write examples (its keys are not reproducible); its reads gather every shard', (t) => {
  const random = defineTable({ name: 'R', entities: { Hit: entity({ attributes: { page: types.string(), n: types.number() }, key: { pk: 'Page#<page>#<shard>', sk: 'HIT', shard: { count: 4, random: true } } }) } });
  const scope = entityScope(random.entities['Hit']!, createContext(random));
  const hit = examplesOf(scope);
  t.deepEqual([hit.put('put'), hit.batchPut(), hit.get(), hit.increment(['n'])], [undefined, undefined, undefined, undefined]);
  // its query gathers one Query per shard: how many, and the first
  t.deepEqual(lines(hit.query(scope.primary, 'query')), [
    "await db.hit.query({ page: 'page-1' });",
    '// sends 4 QueryCommand requests (one per shard); the first:',
    '// {',
    "//   TableName: 'R',",
    "//   KeyConditionExpression: '#n0 = :v0 AND begins_with(#n1, :v1)',",
    "//   ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' },",
    "//   ExpressionAttributeValues: { ':v0': 'Page#page-1#0', ':v1': 'HIT' },",
    '// }',
  ]);
  // every shard's item: one batched read of the four keys
  t.deepEqual(lines(hit.gatherKeys('getAll')), [
    "await db.hit.getAll({ page: 'page-1' });",
    '// sends BatchGetCommand:',
    '// {',
    '//   RequestItems: {',
    '//     R: {',
    '//       Keys: [',
    "//         { pk: 'Page#page-1#0', sk: 'HIT' },",
    "//         { pk: 'Page#page-1#1', sk: 'HIT' },",
    "//         { pk: 'Page#page-1#2', sk: 'HIT' },",
    "//         { pk: 'Page#page-1#3', sk: 'HIT' },",
    '//       ],',
    '//     },',
    '//   },',
    '// }',
  ]);
});

test('a call the runtime refuses leaves the method without an example', (t) => {
  // Order's byStatus key also reads status: setting flaggedAt alone cannot rebuild it
  t.is(examples('Order').sparse('markByStatus', ['flaggedAt'], true), undefined);
});

const events = defineTable({
  name: 'Ev',
  rotation: 'week',
  entities: {
    Visit: entity({ attributes: { site: types.string(), at: types.timestamp(), id: types.string() }, key: { pk: 'Site#<site>#<at:hour>', sk: '<at>#<id>' } }),
    Log: entity({ attributes: { site: types.string(), at: types.timestamp() }, key: { pk: 'Site#<site>', sk: 'LOG#<at>' } }),
  },
});
const eventScope = (name: string) => entityScope(events.entities[name]!, createContext(events));

test('time range: an hour from the sample instant spans two hour buckets, one Query each, the first shown', (t) => {
  t.deepEqual(lines(examplesOf(eventScope('Visit')).timeRange('queryBetween', undefined, { attribute: 'at', unit: 'hour' }, ['site']))!.slice(0, 9), [
    "await db.visit.queryBetween({ site: 'site-1' }, {",
    "  from: new Date('2024-01-15T09:30:00.000Z'),",
    "  to: new Date('2024-01-15T10:30:00.000Z'),",
    '});',
    '// sends 2 QueryCommand requests (one per time bucket); the first:',
    '// {',
    "//   TableName: 'Ev',",
    "//   KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2',",
    "//   ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' },",
  ]);
});

test('across tables: the period table of the range (ISO week), the sort key bounded to it', (t) => {
  t.deepEqual(lines(examplesOf(eventScope('Log')).acrossTables('queryAcrossTables', 'at', ['site'])), [
    "await db.log.queryAcrossTables({ site: 'site-1' }, {",
    "  from: new Date('2024-01-15T09:30:00.000Z'),",
    "  to: new Date('2024-01-15T10:30:00.000Z'),",
    '});',
    '// sends QueryCommand:',
    '// {',
    "//   TableName: 'Ev_2024-W03',",
    "//   KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2',",
    "//   ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' },",
    '//   ExpressionAttributeValues: {',
    "//     ':v0': 'Site#site-1',",
    "//     ':v1': 'LOG#2024-01-15T09:30:00.000Z',",
    "//     ':v2': 'LOG#2024-01-15T10:30:00.000Z',",
    '//   },',
    '// }',
  ]);
  // a table that is not rotated has no such query
  t.is(examples('Tag').acrossTables('queryAcrossTables', 'at', ['name']), undefined);
});

test('collection: one Query of the first member\'s partition, every sort key in it', (t) => {
  t.deepEqual(lines(examplesOf(eventScope('Log')).collection('logCollection', ['pk', 'sk'])), [
    "await db.logCollection({ site: 'site-1' });",
    '// sends QueryCommand:',
    '// {',
    "//   TableName: 'Ev',",
    "//   KeyConditionExpression: '#n0 = :v0',",
    "//   ExpressionAttributeNames: { '#n0': 'pk' },",
    "//   ExpressionAttributeValues: { ':v0': 'Site#site-1' },",
    '// }',
  ]);
});

test('transaction: a create and a delete committed with a fixed token, sent as one TransactWriteItems', (t) => {
  const tag = lines(transactionExample('Ev', [eventScope('Visit'), eventScope('Log')]))!;
  t.deepEqual(tag.slice(0, 10), [
    'await db.transaction().visit.create({',
    "  site: 'site-1',",
    "  at: new Date('2024-01-15T09:30:00.000Z'),",
    "  id: 'id-1',",
    "}).log.delete({ site: 'site-1', at: new Date('2024-01-15T09:30:00.000Z') }).commit({",
    "  token: 'token-1',",
    '});',
    '// sends TransactWriteCommand:',
    '// {',
    "//   ClientRequestToken: 'token-1',",
  ]);
  t.deepEqual(tag.slice(-8), ['//     {', '//       Delete: {', "//         TableName: 'Ev',", "//         Key: { pk: 'Site#site-1', sk: 'LOG#2024-01-15T09:30:00.000Z' },", '//       },', '//     },', '//   ],', '// }']);
  t.is(transactionExample('Ev', []), undefined);
});

test('an iterator (…All): its method\'s call in a loop, and what the first page sends', (t) => {
  const tags = examples('Tag');
  const access = entityScope(table.entities['Tag']!, ctx).primary;
  // none before the method's own example is made
  t.is(examplesOf(entityScope(table.entities['Tag']!, ctx)).iterated('query'), undefined);
  tags.query(access, 'query');
  t.deepEqual(lines(tags.iterated('query'))!.slice(0, 7), [
    'for await (',
    "  const item of db.tag.queryAll({ name: 'name-1' }, {",
    "    where: { eq: { at: new Date('2024-01-15T09:30:00.000Z') } },",
    '  })',
    ') {',
    '  console.log(item);',
    '}',
  ]);
  t.is(lines(tags.iterated('query'))![7], '// sends QueryCommand:');
});

test('scanSegments: four segments unless told otherwise, the first shown', (t) => {
  t.deepEqual(lines(scanExample('Shop')), [
    'for await (const tagged of db.scanSegments()) {',
    '  console.log(tagged);',
    '}',
    '// sends 4 ScanCommand requests (one per segment); the first:',
    "// { TableName: 'Shop', Segment: 0, TotalSegments: 4, Limit: 100 }",
  ]);
});

/** A request value as the compiler's printer spells it through ast.ts's builders (`obj` and `arr` break a member per line past 72 columns), long runs of one character repeated. */
function printerLiteral(value: unknown): Expression {
  if (typeof value === 'string') {
    const parts = [...value.matchAll(/(.)\1{7,}|(?:(.)(?!\2{7}))+/gsu)].map(([run, char]) => (char === undefined ? str(run) : call(prop(str(char), 'repeat'), [literal([...run].length)])));
    return parts.length ? parts.reduce((left, right) => binary(left, '+', right)) : str('');
  }
  if (value instanceof Set) return construct('Set', [arr([...value].map(printerLiteral))]);
  if (value instanceof Uint8Array) return construct('Uint8Array', [arr([...value].map((b) => literal(b)))]);
  if (Array.isArray(value)) return arr(value.map(printerLiteral));
  if (value !== null && typeof value === 'object') return obj(Object.entries(value).map(([k, v]) => [k, v === undefined ? undefined : printerLiteral(v)] as const));
  return literal(value);
}

test('a request is laid out as the compiler printed it: any strings, runs, numbers, odd keys, sets, bytes and nesting', (t) => {
  const text = fc.oneof(fc.string({ maxLength: 12, unit: 'grapheme' }), fc.constantFrom('*/', "it's", 'a\\b', 'x'.repeat(9), `Article.${'\u{10ffff}'.repeat(12)}`, 'Z'.repeat(20)));
  const scalar = fc.oneof(text, fc.integer({ min: -1e6, max: 1e6 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean());
  const key = fc.oneof(fc.constantFrom('TableName', 'Key', '#n0', ':v0', 'a-b', '__proto__'), fc.string({ minLength: 1, maxLength: 8 }));
  const value = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 5 }),
      fc.uniqueArray(text, { maxLength: 3 }).map((items) => new Set(items)),
      fc.uint8Array({ maxLength: 4 }),
    ),
  })).value;
  fc.assert(
    fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 6 }), (input) => {
      const want = `// sends PutCommand:\n${docCode({ code: print(printerLiteral(input)), width: LINE_WIDTH - 6, wrap: ['(', ');'], linePrefix: '// ' })}`;
      t.is(sendsText({ command: 'PutCommand', input }), want);
    }),
    { numRuns: 150 },
  );
});
