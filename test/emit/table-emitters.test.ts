// The table-level emitters (table-class.ts, table-definition.ts), each given a small table and
// checked on its own output: declared names, members, signatures and statements (small exact
// strings, never a whole module).
import test from 'ava';
import type { ClassDeclarationStructure, FunctionDeclarationStructure, InterfaceDeclarationStructure, MethodDeclarationStructure, OptionalKind, StatementStructures, TypeAliasDeclarationStructure } from 'ts-morph';
import { defineTable, entity, t as types } from '../../dsl/index.js';
import { createContext } from '../../generator/emit/context.js';
import { emitTableClass } from '../../generator/emit/table/table-class.js';
import { emitTableDefinition } from '../../generator/emit/table/table-definition.js';

const shop = defineTable({
  name: 'Shop',
  ttl: 'expiresAt',
  entities: {
    Order: entity({ attributes: { orderId: types.string(), placedAt: types.timestamp(), rev: types.number({ integer: true }) }, key: { pk: 'Order#<orderId>', sk: 'ORDER' }, version: 'rev' }),
    // shares Order's partition: the two make the order collection
    Line: entity({ attributes: { orderId: types.string(), n: types.number({ integer: true, min: 0, max: 99 }), sku: types.string() }, key: { pk: 'Order#<orderId>', sk: 'LINE#<n>' } }),
    // a random shard: no key a transaction could address
    Hit: entity({ attributes: { page: types.string(), count: types.number() }, key: { pk: 'Page#<page>#<shard>', sk: 'HIT', shard: { count: 4, random: true } } }),
  },
});
const rotated = defineTable({
  name: 'Metrics',
  rotation: 'month',
  entities: { Point: entity({ attributes: { id: types.string(), at: types.timestamp() }, key: { pk: 'P#<id>', sk: '<at>' } }) },
});
const lone = defineTable({ name: 'Kv', key: { pk: 'id' }, entities: { Setting: entity({ attributes: { name: types.string() }, key: { pk: 'S#<name>' } }) } });

type Method = OptionalKind<MethodDeclarationStructure>;
const module = (table: typeof shop) => emitTableClass(table, createContext(table));
const declaration = <T>(statements: StatementStructures[], name: string) => statements.find((s) => (s as { name?: string }).name === name) as T;
const classOf = (table: typeof shop, name: string) => declaration<ClassDeclarationStructure>(module(table).statements, name);
const method = (table: typeof shop, className: string, name: string) => classOf(table, className).methods!.find((m) => m.name === name) as Method;
const signature = (m: Method) => `${m.name}(${(m.parameters ?? []).map((p) => `${p.name}${p.hasQuestionToken ? '?' : ''}: ${p.type}${p.initializer ? ` = ${p.initializer}` : ''}`).join(', ')}): ${m.returnType}`;
const importsOf = (table: typeof shop) => Object.fromEntries(module(table).imports.map((i) => [i.moduleSpecifier, (i.namedImports as Array<string | { name: string }>).map((n) => (typeof n === 'string' ? n : n.name))]));

test('table class: options, the tagged item unions, the transaction and the table, in order', (t) => {
  t.deepEqual(module(shop).statements.map((s) => (s as { name: string }).name), ['ShopTableOptions', 'ShopItem', 'ShopOrderCollectionItem', 'createShopContext', 'ShopTransaction', 'ShopTable']);
  const options = declaration<InterfaceDeclarationStructure>(module(shop).statements, 'ShopTableOptions');
  t.deepEqual(options.properties!.map((p) => `${p.name}?: ${p.type}`), ['tableName?: string', 'cursor?: CursorOptions', 'retry?: RetryPolicy', 'transactionRetry?: TransactionRetryPolicy', 'gatherConcurrency?: number', 'piiSecret?: string', 'telemetry?: TableTelemetry']);
});

test('table class: a tagged union one member per line, the untagged rest last', (t) => {
  t.is(
    declaration<TypeAliasDeclarationStructure>(module(shop).statements, 'ShopOrderCollectionItem').type,
    [
      '',
      "  | { readonly type: 'Order'; readonly item: Order; }",
      "  | { readonly type: 'Line'; readonly item: Line; }",
      '  | { readonly type: undefined; readonly item: Record<string, unknown>; }',
    ].join('\n'),
  );
});

test('table class: the transaction extends the runtime\'s TableTransaction, declaring one typed member per entity with a key', (t) => {
  const transaction = classOf(shop, 'ShopTransaction');
  t.is(transaction.extends, 'TableTransaction');
  t.deepEqual(transaction.properties!.map((p) => `${p.hasDeclareKeyword ? 'declare ' : ''}${p.name}: ${p.type}`), [
    'declare order: EntityTransaction<ShopTransaction, OrderInput, OrderKey, OrderUpdate, Order, true>',
    'declare line: EntityTransaction<ShopTransaction, Line, LineKey, LineUpdate, Line, false>',
  ]);
  t.deepEqual(transaction.ctors![0]!.statements, ['super(context, { order: orderModel, line: lineModel });']);
});

test('table class: the context takes each option only when it is set, and the ttl attribute with the client\'s clock', (t) => {
  // built by create<Table>Context, which the function forms of the operations take in place of the class
  const [protect, context, tableName, ...repositories] = classOf(shop, 'ShopTable').ctors![0]!.statements as string[];
  // the class signs or encrypts cursors as its options say (protectCursors brings that code); the context checks them
  t.is(protect, 'if (options.cursor !== undefined) protectCursors(options.cursor);');
  t.is(context, 'this.context = createShopContext(client, options);');
  t.is(tableName, 'this.tableName = this.context.tableName;');
  const create = declaration<FunctionDeclarationStructure>(module(shop).statements, 'createShopContext');
  t.true(create.isExported);
  t.deepEqual(create.parameters!.map((p) => `${p.name}: ${p.type}${p.initializer ? ` = ${p.initializer}` : ''}`), ['client: DynamoDBDocumentClient', 'options: ShopTableOptions = {}']);
  t.is(create.returnType, 'TableContext');
  const [name, built] = create.statements as string[];
  t.is(name, "const tableName = options.tableName ?? 'Shop';");
  t.is(
    built,
    [
      'return {',
      '    client,',
      '    tableName,',
      '    ...(options.cursor ? { cursor: checkContextCursor(options.cursor) } : {}),',
      '    ...(options.retry ? { retry: options.retry } : {}),',
      '    ...(options.transactionRetry ? { transactionRetry: options.transactionRetry } : {}),',
      '    ...(options.gatherConcurrency ? { gatherConcurrency: options.gatherConcurrency } : {}),',
      '    ...(options.telemetry ? { telemetry: options.telemetry } : {}),',
      // the secret checked and kept as text: the models of entities with pii key their fingerprints with it
      '    ...(options.piiSecret !== undefined ? { piiSecret: checkPiiSecret(options.piiSecret) } : {}),',
      "    ttl: 'expiresAt',",
      // the clock its reads hide expired items by: the client's own (the in-memory table's), else the system's
      '    ...clientClock(client)',
      '};',
    ].join('\n'),
  );
  t.deepEqual(repositories, [
    'this.order = new OrderRepository(this.context);',
    'this.line = new LineRepository(this.context);',
    'this.hit = new HitRepository(this.context);',
    // telemetry, when given, wraps the members just made with their models (and the collections' owners)
    "if (options.telemetry !== undefined) options.telemetry.instrument(this, this.context, {\n    table: 'Shop',\n    members: { order: orderModel, line: lineModel, hit: hitModel },\n    collections: { orderCollection: orderModel }\n});",
  ]);
});

test('table class: a collection query tags each record by the member whose templates parse it', (t) => {
  const collection = method(shop, 'ShopTable', 'orderCollection');
  t.is(signature(collection), "orderCollection(partition: OrderPartition, options: PageOptions & ReadOptions & { order?: 'asc' | 'desc'; } = {}): Promise<Page<ShopOrderCollectionItem>>");
  t.deepEqual(collection.statements, [
    "const members: CollectionMember[] = [\n    { type: 'Order', model: orderModel },\n    { type: 'Line', model: lineModel }\n];",
    "const order = options.order ?? 'asc';",
    "const request = {\n    scope: 'Shop.orderCollection',\n    pk: orderModel.pk,\n    partition,\n    params: { partition, order },\n    keyAttributes: ['pk', 'sk'],\n    order,\n    consistent: options.consistent === true\n};",
    'return queryPage(this.context, request, options, stored => tagRecord(members, stored)) as Promise<Page<ShopOrderCollectionItem>>;',
  ]);
  // a table without a sort key has no collections
  t.deepEqual(classOf(lone, 'KvTable').methods!.map((m) => m.name), ['transaction', 'scanSegments']);
});

test('table class: a rotated table names its period tables and opens one', (t) => {
  const methods = classOf(rotated, 'MetricsTable').methods!;
  t.deepEqual(methods.map((m) => `${m.isStatic ? 'static ' : ''}${m.name}`), ['transaction', 'scanSegments', 'static tableNameFor', 'static tablesBetween', 'static forTime']);
  t.is(signature(methods[2]!), "tableNameFor(at: Date, base: string = 'Metrics'): string");
  t.is(methods[2]!.statements, "return rotatedTableName(base, at, 'month');");
  t.deepEqual(methods[4]!.statements, [
    "const base = options.rotationBase ?? options.tableName ?? 'Metrics';",
    "return new MetricsTable(client, {\n    ...options,\n    rotationBase: base,\n    tableName: rotatedTableName(base, at, 'month')\n});",
  ]);
  t.true(String((declaration<FunctionDeclarationStructure>(module(rotated).statements, 'createMetricsContext').statements as string[]).at(-1)).includes("rotation: { base: options.rotationBase ?? tableName, every: 'month' }"));
});

test('table class: imports are what it uses (no collections, edges or rotation runtime when the table has none)', (t) => {
  const imports = importsOf(lone);
  t.deepEqual(Object.keys(imports), ['@aws-sdk/lib-dynamodb', './runtime/batch.js', './runtime/cursor.js', './runtime/pii-fingerprint.js', './runtime/repository.js', './runtime/scan.js', './runtime/telemetry.js', './runtime/transaction.js', './setting.js']);
  t.deepEqual(imports['./runtime/repository.js'], ['TableContext']);
  // telemetry's option type only: its code comes with openTelemetry / telemetry, which the app imports when it turns it on
  t.deepEqual(imports['./runtime/telemetry.js'], ['TableTelemetry']);
  // the random-shard entity brings no key type: no transaction addresses it
  t.deepEqual(importsOf(shop)['./hit.js'], ['Hit', 'hitModel', 'HitRepository']);
  t.deepEqual(importsOf(rotated)['./runtime/rotation.js'], ['rotatedTableName', 'rotatedTablesBetween']);
});

test('table class: transaction() and the collection query document a call and its request', (t) => {
  const tags = (m: Method) => (m.docs![0] as { tags?: Array<{ tagName: string; text: string }> }).tags ?? [];
  const transaction = tags(method(shop, 'ShopTable', 'transaction'));
  t.deepEqual(transaction.map((tag) => tag.tagName), ['example']);
  t.true(transaction[0]!.text.includes(".commit({ token: 'token-1' });\n// sends TransactWriteCommand:"));
  t.deepEqual(tags(method(shop, 'ShopTable', 'orderCollection')).map((tag) => tag.tagName), ['example', 'throws']);
});

const definition = (table: typeof shop) => emitTableDefinition(table, createContext(table)).statements as Array<OptionalKind<FunctionDeclarationStructure>>;

test('table definition: the CreateTable input as a literal, the physical name its one parameter', (t) => {
  const [create] = definition(lone);
  t.is(`${create!.name}(${create!.parameters!.map((p) => `${p.name}: ${p.type} = ${p.initializer}`).join(', ')}): ${create!.returnType}`, "kvTableDefinition(tableName: string = 'Kv'): CreateTableCommandInput");
  t.is(
    create!.statements,
    "return {\n    TableName: tableName,\n    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],\n    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],\n    BillingMode: 'PAY_PER_REQUEST'\n};",
  );
  t.deepEqual(emitTableDefinition(lone, createContext(lone)).imports, [{ moduleSpecifier: '@aws-sdk/client-dynamodb', isTypeOnly: true, namedImports: ['CreateTableCommandInput'] }]);
});

test('table definition: settings CreateTable does not take come from a second function, typed by the calls that apply them', (t) => {
  const [, settings] = definition(shop);
  t.is(settings!.name, 'shopTableSettings');
  t.is(settings!.returnType, '{ timeToLive: UpdateTimeToLiveCommandInput; }');
  t.is(settings!.statements, "return {\n    timeToLive: {\n        TableName: tableName,\n        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true }\n    }\n};");
  t.deepEqual(emitTableDefinition(shop, createContext(shop)).imports[0]!.namedImports, ['CreateTableCommandInput', 'UpdateTimeToLiveCommandInput']);
  t.is(definition(lone).length, 1);
});
