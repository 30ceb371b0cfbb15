// One entity's emitters, each given a small entity and checked on its own output: declared names,
// members and method statements (small exact strings, never a whole module).
import test from 'ava';
import { StructureKind, type FunctionDeclarationStructure, type InterfaceDeclarationStructure, type MethodDeclarationStructure, type OptionalKind, type StatementStructures, type VariableStatementStructure } from 'ts-morph';
import { defineTable, entity, gsi, t as types } from '../../dsl/index.js';
import { createContext } from '../../generator/emit/context.js';
import { emitEntity } from '../../generator/emit/entity/entity.js';
import { entityScope } from '../../generator/emit/entity/entity-scope.js';
import { emitItemTypes } from '../../generator/emit/entity/item-types.js';
import { emitKeyBuilders } from '../../generator/emit/entity/key-builders.js';
import { emitEntityModel } from '../../generator/emit/entity/entity-model.js';
import { emitCrud, shapeType } from '../../generator/emit/operations/repository-crud.js';
import { print } from '../../generator/emit/ast.js';
import { keyShape } from '../../templates/runtime/codec.js';
import { emitIndexQueries } from '../../generator/emit/operations/repository-index-query.js';
import { emitPatterns } from '../../generator/emit/operations/repository-pattern.js';
import { emitCounters } from '../../generator/emit/operations/repository-counter.js';
import { emitSparseIndexes } from '../../generator/emit/operations/repository-sparse-index.js';
import { emitRecordConversion } from '../../generator/emit/entity/record-conversion.js';
import { emitTableClass } from '../../generator/emit/table/table-class.js';
import { nameProblems } from '../../generator/emit/generated-names.js';

const table = defineTable({
  name: 'Shop',
  indexes: { byStatus: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', projection: 'keys-only' }), bySku: gsi({ pk: 'gsi2pk', projection: 'all' }) },
  entities: {
    Order: entity({
      attributes: { orderId: types.string(), status: types.enum(['OPEN', 'SHIPPED']), placedAt: types.timestamp(), flaggedAt: types.timestamp().optional() },
      key: { pk: 'Order#<orderId>', sk: 'ORDER' },
      indexes: { byStatus: { pk: 'Status#<status>', sk: '<flaggedAt>' } },
    }),
    Stock: entity({
      attributes: { sku: types.string(), count: types.number({ integer: true }), reserved: types.number({ integer: true }).optional() },
      key: { pk: 'Sku#<sku>', sk: 'STOCK' },
    }),
    Tag: entity({
      attributes: { name: types.string(), at: types.timestamp() },
      key: { pk: 'Tag#<name>', sk: 'AT#<at>' },
    }),
  },
  patterns: { tagsSince: { entity: 'Tag', sk: 'at', op: 'gte', order: 'desc' } },
});
const ctx = createContext(table);
const scope = (name: string) => entityScope(table.entities[name]!, ctx);
const named = (statements: StatementStructures[]) => statements.map((s) => (s as { name?: string; declarations?: Array<{ name: string }> }).name ?? (s as { declarations: Array<{ name: string }> }).declarations[0]!.name);
const methodNames = (methods: OptionalKind<MethodDeclarationStructure>[]) => methods.map((m) => m.name);
const find = (statements: StatementStructures[], name: string) => statements.find((s) => (s as { name?: string }).name === name) as { type?: string; properties?: Array<{ name: string; type: string; hasQuestionToken?: boolean }> };

test('item types: the item, its key, each path and the update, nothing empty', (t) => {
  const statements = emitItemTypes(scope('Order'));
  t.deepEqual(named(statements), ['Order', 'OrderCondition', 'OrderKey', 'OrderPartition', 'OrderByStatusPartition', 'OrderByStatusSortKey', 'OrderByStatusSortPrefix', 'OrderByStatusSortCondition', 'OrderByStatusItem', 'OrderUpdate']);
  t.is(find(statements, 'OrderKey').type, '{ orderId: string; }');
  // the projection spelled out, optional attributes kept optional
  t.is(find(statements, 'OrderByStatusItem').type, "{ orderId: string; status: 'OPEN' | 'SHIPPED'; flaggedAt?: Date; }");
  // SortCondition<OrderByStatusSortPrefix> spelled out over the runtime's plain interfaces (nothing to instantiate): no beginsWith member, as no sort-key part is a string
  t.is(
    find(statements, 'OrderByStatusSortCondition').type,
    ['Eq', 'Between', 'Gt', 'Gte', 'Lt', 'Lte'].map((op) => `(Only${op} & { readonly ${op.toLowerCase()}: ${op === 'Between' ? 'readonly [OrderByStatusSortPrefix, OrderByStatusSortPrefix]' : 'OrderByStatusSortPrefix'}; })`).join(' | '),
  );
  t.deepEqual(find(statements, 'Order').properties!.map((p) => `${p.name}${p.hasQuestionToken ? '?' : ''}: ${p.type}`), ['orderId: string', "status: 'OPEN' | 'SHIPPED'", 'placedAt: Date', 'flaggedAt?: Date']);
  // Condition<Order> spelled out: one comparison per attribute (optional ones too), and the combinators
  t.deepEqual(find(statements, 'OrderCondition').properties!.map((p) => `${p.name}${p.hasQuestionToken ? '?' : ''}: ${p.type}`), [
    'orderId?: Comparison<string>',
    "status?: Comparison<'OPEN' | 'SHIPPED'>",
    'placedAt?: Comparison<Date>',
    'flaggedAt?: Comparison<Date>',
    '$and?: readonly OrderCondition[]',
    '$or?: readonly OrderCondition[]',
    '$not?: OrderCondition',
  ]);
});

test('item types: an entity whose attributes are all key parts has no update type', (t) => {
  const only = defineTable({ name: 'K', entities: { Pair: entity({ attributes: { a: types.string(), b: types.string() }, key: { pk: 'A#<a>', sk: 'B#<b>' } }) } });
  t.false(named(emitItemTypes(entityScope(only.entities['Pair']!, createContext(only)))).includes('PairUpdate'));
  t.false(methodNames(emitCrud(entityScope(only.entities['Pair']!, createContext(only)))).includes('update'));
});

test('key builders: one codec per template, built straight by the kinds\' functions; <Entity>Keys their KeyTemplates, pure, with key and parse by direct calls', (t) => {
  const s = scope('Tag');
  const statements = emitKeyBuilders(s) as Array<{ declarations: Array<{ name: string; type?: string; initializer: string }> }>;
  t.deepEqual(statements.map((st) => st.declarations[0]!.name), ['tagPk', 'tagSk', 'TagKeys']);
  const [pk, sk, keys] = statements.map((st) => st.declarations[0]!);
  t.is(pk!.type, 'KeyCodec');
  // each segment a call of the runtime's constructor (one declared type), not an object literal; pure, so an unused key leaves the bundle
  t.true(pk!.initializer.replace(/\s+/g, ' ').includes("segments: [ /* @__PURE__ */ segment.literal('Tag'), /* @__PURE__ */ segment.string('name') ]"));
  t.true(sk!.initializer.replace(/\s+/g, ' ').includes("segments: [ /* @__PURE__ */ segment.literal('AT'), /* @__PURE__ */ segment.timestamp('at', 'millisecond') ]"));
  // built straight: literal text with its delimiters, each value through its kind's function, the length checked
  t.true(pk!.initializer.includes("build: item => checkKeyLength(tagPk.def, 'Tag#' + stringPart(tagPk.def, 1, item))"));
  t.true(sk!.initializer.includes("build: item => checkKeyLength(tagSk.def, 'AT#' + timestampPart(tagSk.def, 1, item))"));
  // parts: each value segment's function, for the partial keys of queries
  t.true(sk!.initializer.includes('parts: [undefined, timestampPart]'));
  // matches: keyShape's pattern written out as a literal, the same pattern the runtime would build
  const matcher = /matches: key => (\/.+\/)\.test\(key\)/.exec(pk!.initializer)?.[1];
  t.is((new Function(`return ${matcher}`)() as RegExp).source, keyShape({ entity: 'Tag', target: 'Tag.key.pk', delimiter: '#', maxBytes: 2048, segments: [{ kind: 'literal', text: 'Tag' }, { kind: 'string', attr: 'name' }] })!.source);
  const text = keys!.initializer;
  t.true(text.includes('pk: /* @__PURE__ */ keyTemplate(tagPk) as KeyTemplate'), 'typed where it is made, for isolatedDeclarations');
  t.true(text.includes('return { pk: TagKeys.pk.build(values), sk: TagKeys.sk.build(values) };'));
  t.true(text.includes('return { ...TagKeys.pk.parse(key.pk), ...TagKeys.sk.parse(key.sk) } as TagKey;'));
  t.deepEqual(s.imports.declarations(), [{ moduleSpecifier: './runtime/codec.js', namedImports: ['checkKeyLength', { isTypeOnly: true, name: 'KeyCodec' }, 'keyTemplate', { isTypeOnly: true, name: 'KeyTemplate' }, 'segment', 'stringPart', 'timestampPart'] }]);
});

test('key builders: every segment kind as a constructor call, a shard with its options and hashed segments', (t) => {
  const kinds = defineTable({
    name: 'K',
    entities: {
      Vote: entity({
        attributes: { voterId: types.string(), rank: types.number({ integer: true, min: 0, max: 99 }), score: types.number({ min: -1, max: 1 }), open: types.boolean(), kind: types.enum(['A', 'B']) },
        key: { pk: 'Vote#<voterId>#<shard>', sk: '<rank>#<score>#<open>#<kind>', shard: { count: 4, start: 1, by: 'voterId' } },
      }),
    },
  });
  const codecs = emitKeyBuilders(entityScope(kinds.entities['Vote']!, createContext(kinds))) as Array<{ declarations: Array<{ initializer: string }> }>;
  const segments = [...codecs.map((c) => c.declarations[0]!.initializer).join('\n').matchAll(/segment\.\w+\([^()]*(?:\([^()]*\)[^()]*)*\)/g)].map((m) => m[0].replace(/\s+/g, ' '));
  t.deepEqual(segments, [
    "segment.literal('Vote')",
    "segment.string('voterId')",
    "segment.shard({ count: 4, start: 1, by: [/* @__PURE__ */ segment.string('voterId')] })",
    "segment.integer('rank', 0, 99)",
    "segment.float('score', -1, 1)",
    "segment.boolean('open')",
    "segment.enum('kind', ['A', 'B'])",
  ]);
});

test('entity model: an index is a named constant, the model lists them by name', (t) => {
  const statements = emitEntityModel(scope('Order')) as Array<{ declarations: Array<{ name: string; initializer: string }> }>;
  t.deepEqual(statements.map((s) => s.declarations[0]!.name), ['orderByStatusIndex', 'orderModel']);
  t.true(statements[1]!.declarations[0]!.initializer.includes('indexes: [orderByStatusIndex]'));
  t.true(statements[0]!.declarations[0]!.initializer.includes("optional: ['flaggedAt']"));
});

test('entity model: declared and required attributes, PII and passthrough for the runtime checks', (t) => {
  const passing = defineTable({ name: 'Kv', key: { pk: 'id' }, entities: { Setting: entity({ attributes: { name: types.string({ pii: true }), note: types.string().optional() }, key: { pk: 'S#<name>' }, passthrough: true }) } });
  const [model] = emitEntityModel(entityScope(passing.entities['Setting']!, createContext(passing))) as Array<{ declarations: Array<{ initializer: string }> }>;
  const text = model!.declarations[0]!.initializer;
  for (const line of ["attributes: ['name', 'note']", "required: ['name']", "pii: ['name']", 'passthrough: true', 'sk: undefined']) t.true(text.includes(line), line);
  t.false((emitEntityModel(scope('Tag'))[0] as { declarations: Array<{ initializer: string }> }).declarations[0]!.initializer.includes('passthrough'));
});

test('crud: each operation made by the runtime\'s factory for it and typed by a shape the runtime declares', (t) => {
  const s = scope('Order');
  const methods = emitCrud(s);
  t.deepEqual(methodNames(methods), ['get', 'put', 'putIf', 'create', 'replace', 'update', 'delete', 'batchGet', 'batchPut', 'batchDelete']);
  const made = (name: string) => methods.find((m) => m.name === name)!.shape!;
  // the factory's call, pure: a bundle drops an operation the app does not import
  t.is(print(made('get').make), '/* @__PURE__ */ getOperation(orderModel)');
  t.is(print(made('create').make), "/* @__PURE__ */ putOperation(orderModel, 'create')");
  // a put without a version is the request alone (no condition code in a bundle that puts); a put on a condition is putIf
  t.is(print(made('put').make), '/* @__PURE__ */ plainPutOperation(orderModel)');
  t.is(print(shapeType(s, made('put'), 'Function')), 'PlainPutFunction<Order, Order>');
  t.is(print(made('putIf').make), '/* @__PURE__ */ putIfOperation(orderModel)');
  t.is(print(shapeType(s, made('putIf'), 'Method')), 'PutIfMethod<Order, Order, OrderCondition>');
  t.is(print(shapeType(s, made('get'), 'Function')), 'GetFunction<Order, OrderKey>');
  t.is(print(shapeType(s, made('get'), 'Method')), 'GetMethod<Order, OrderKey>');
  // update's result is read off an interface member per `returnValues` inside the shape (generic in R), not a conditional type
  t.is(print(shapeType(s, made('update'), 'Method')), 'UpdateMethod<Order, OrderKey, OrderUpdate, OrderCondition>');
  t.true(methods.every((m) => m.statements === undefined && m.parameters === undefined));
});

test('operations: each declared once, as an exported function of the context; the repository an interface of documented members and the class the runtime makes of the same functions', (t) => {
  const { statements } = emitEntity(table.entities['Order']!, ctx);
  const constants = statements.filter((s) => s.kind === StructureKind.VariableStatement) as VariableStatementStructure[];
  const declared = (name: string) => constants.find((c) => c.declarations[0]!.name === name)!.declarations[0]!;
  const repository = statements.find((s) => s.kind === StructureKind.Interface && s.name === 'OrderRepository') as InterfaceDeclarationStructure;
  const members = repository.properties!.map((p) => p.name);
  t.deepEqual(members, ['get', 'put', 'putIf', 'create', 'replace', 'update', 'delete', 'batchGet', 'batchPut', 'batchDelete', 'queryByStatus', 'queryByStatusAll']);
  for (const name of members) t.true(constants.some((c) => c.isExported && c.declarations[0]!.name === `order${name[0]!.toUpperCase()}${name.slice(1)}`), name);
  t.is(declared('orderGet').type, 'GetFunction<Order, OrderKey>');
  t.is(declared('orderGet').initializer, '/* @__PURE__ */ getOperation(orderModel)');
  // the iterator pages through the query's function form, and reports the query's pattern
  t.is(declared('orderQueryByStatusAll').initializer, "/* @__PURE__ */ queryAllOperation(orderModel, 'queryByStatus', orderQueryByStatus)");
  // the projection's two signatures are one shape: the records as projected, or the items with fetch: true
  t.is(declared('orderQueryByStatus').type, 'FetchQueryFunction<Order, OrderByStatusItem, OrderByStatusPartition, IndexQueryOptions<OrderByStatusSortCondition>>');
  // the example on the member callers of the class see; the function form points at it
  const get = repository.properties!.find((p) => p.name === 'get')!;
  t.is(get.type, 'GetMethod<Order, OrderKey>');
  t.true(((get.docs![0] as { tags: Array<{ tagName: string }> }).tags).some((tag) => tag.tagName === 'example'));
  const getDocs = constants.find((c) => c.declarations[0]!.name === 'orderGet')!.docs!;
  t.regex((getDocs[0] as { description: string }).description, /^Reads one Order by its key; undefined when there is none\. The function form of\s+`OrderRepository\.get`/);
  // the class: every member, called with the repository's context
  t.is(declared('OrderRepository').type, 'RepositoryClass<OrderRepository>');
  t.is(
    String(declared('OrderRepository').initializer).replace(/\s+/g, ' '),
    `/* @__PURE__ */ repositoryClass('OrderRepository', { ${[...members, 'markByStatus', 'clearByStatus'].map((m) => `${m}: order${m[0]!.toUpperCase()}${m.slice(1)}`).join(', ')} })`,
  );
  // the sparse index's mark and clear are operations of their own: signatures in the interface
  t.deepEqual(repository.methods!.map((m) => m.name), ['markByStatus', 'clearByStatus']);
  // an operation of its own (a pattern) is still written out: its function holds the body, and the interface its signature
  const { statements: tagStatements } = emitEntity(table.entities['Tag']!, ctx);
  const tagsSince = tagStatements.find((s) => s.kind === StructureKind.Function && s.name === 'tagTagsSince') as FunctionDeclarationStructure;
  t.is((tagsSince.statements as string[])[0], "if (context.telemetry) return context.telemetry.call(tagModel, 'tagsSince', tagTagsSince, arguments) as never;");
  const tagRepository = tagStatements.find((s) => s.kind === StructureKind.Interface && s.name === 'TagRepository') as InterfaceDeclarationStructure;
  t.deepEqual(tagRepository.methods!.map((m) => m.name), ['tagsSince', 'tagsSinceAll']);
  t.is(tagRepository.methods![0]!.parameters![0]!.name, 'params');
});

test('crud: documentation on what callers see, with the typed errors thrown', (t) => {
  const [get] = emitCrud(scope('Order'));
  const doc = get!.docs![0] as { description: string; tags: Array<{ tagName: string; text: string }> };
  t.is(doc.description, 'Reads one Order by its key; undefined when there is none.');
  t.deepEqual(doc.tags.map((tag) => tag.tagName), ['example', 'throws']);
  // the request is built by the runtime codec (KeyTemplate), not written by hand
  t.is(doc.tags[0]!.text, "\nawait db.order.get({ orderId: 'orderId-1' });\n// sends GetCommand:\n// { TableName: 'Shop', Key: { pk: 'Order#orderId-1', sk: 'ORDER' } }");
});

test('index queries: the table path is left out when its sort key is constant; a projection is one shape of two signatures, with the documentation', (t) => {
  const s = scope('Order');
  const methods = emitIndexQueries(s);
  t.deepEqual(methodNames(methods), ['queryByStatus', 'queryByStatusAll']);
  // the iterator's type has a covariant item (declared `out`): the assertion compares item types only
  t.is(print(shapeType(s, methods[1]!.shape!, 'Method')), 'QueryAllMethod<OrderByStatusItem, OrderByStatusPartition, IndexQueryOptions<OrderByStatusSortCondition>>');
  t.is(print(shapeType(s, methods[0]!.shape!, 'Method')), 'FetchQueryMethod<Order, OrderByStatusItem, OrderByStatusPartition, IndexQueryOptions<OrderByStatusSortCondition>>');
  t.true(methods[0]!.docs !== undefined);
  t.is(print(methods[0]!.shape!.make), "/* @__PURE__ */ fetchQueryOperation(orderModel, 'queryByStatus', 'byStatus', stored => projectRecord(orderModel, orderByStatusIndex, stored))");
});

test('patterns: one method and its iterator per pattern', (t) => {
  const methods = emitPatterns(scope('Tag'));
  t.deepEqual(methodNames(methods), ['tagsSince', 'tagsSinceAll']);
  t.true(String(methods[0]!.statements).includes("order: 'desc'"));
  t.deepEqual(emitPatterns(scope('Order')), []);
});

test('counters: increment for an entity of numbers; nothing for others', (t) => {
  t.deepEqual(methodNames(emitCounters(scope('Stock'))), ['increment']);
  t.deepEqual(emitCounters(scope('Order')), []);
});

test('sparse indexes: mark and clear for an index read by optional attributes; mark also takes the key\'s required non-key inputs', (t) => {
  const methods = emitSparseIndexes(scope('Order'));
  t.deepEqual(methodNames(methods), ['markByStatus', 'clearByStatus']);
  // byStatus reads status (required, not in the primary key) and flaggedAt (optional): an update cannot read status, so mark takes it
  t.deepEqual(methods[0]!.parameters!.map((p) => `${p.name}: ${p.type}`), ['key: OrderKey', "values: { flaggedAt: Date; status: 'OPEN' | 'SHIPPED'; }"]);
  t.is(methods[1]!.statements, "return updateItem(context, orderModel, key, { remove: ['flaggedAt'] }) as Promise<Order>;");
  t.deepEqual(emitSparseIndexes(scope('Tag')), []);
});

test('record conversion: keys built first, then the required attributes no key reads, attributes converted in place, optional ones and sparse index keys only when present', (t) => {
  const [record, item] = emitRecordConversion(scope('Order')) as Array<{ name: string; parameters: Array<{ type: string }>; returnType: string; statements: string[] }>;
  t.is(record!.name, 'orderToRecord');
  t.deepEqual(record!.parameters.map((p) => p.type), ['Order']);
  t.deepEqual(record!.statements, [
    'checkWritten(orderModel, item);',
    'const pk = orderPk.build(item);',
    'const sk = orderSk.build(item);',
    "if (item.status === undefined)\n    throw missingAttribute(orderModel, 'status');",
    "if (item.placedAt === undefined)\n    throw missingAttribute(orderModel, 'placedAt');",
    "const record: Record<string, unknown> = {\n    orderId: item.orderId,\n    status: item.status,\n    placedAt: storedDate('Order', 'placedAt', item.placedAt),\n    pk,\n    sk\n};",
    "if (item.flaggedAt !== undefined)\n    record['flaggedAt'] = storedDate('Order', 'flaggedAt', item.flaggedAt);",
    "if (indexMembership(orderModel, orderByStatusIndex, item)) {\n    record['gsi1pk'] = orderByStatusPk.build(item);\n    record['gsi1sk'] = orderByStatusSk.build(item);\n}",
    'return checkedSize(orderModel, record);',
  ]);
  t.is(item!.name, 'orderFromRecord');
  t.deepEqual(item!.statements, [
    "const item: Order = {\n    orderId: record['orderId'] as string,\n    status: record['status'] as 'OPEN' | 'SHIPPED',\n    placedAt: itemDate(record['placedAt']) as Date\n};",
    "if (record['flaggedAt'] !== undefined)\n    item.flaggedAt = itemDate(record['flaggedAt']) as Date;",
    'return item;',
  ]);
});

test('record conversion: a passthrough entity keeps the generic conversion', (t) => {
  const open = defineTable({ name: 'Open', entities: { Doc: entity({ passthrough: true, attributes: { id: types.string() }, key: { pk: 'D#<id>', sk: 'DOC' } }) } });
  t.deepEqual(emitRecordConversion(entityScope(open.entities['Doc']!, createContext(open))), []);
  // its model names the runtime's generic conversions, so only a bundle holding such a model keeps them
  const [model] = emitEntityModel(entityScope(open.entities['Doc']!, createContext(open))) as Array<{ declarations: Array<{ initializer: string }> }>;
  t.true(model!.declarations[0]!.initializer.includes('toRecord: item => genericRecord(docModel, item)'));
  t.true(model!.declarations[0]!.initializer.includes('toItem: record => genericItem(docModel, record)'));
});

test('record conversion: its function names never take a runtime helper\'s name (an entity Tag beside collections\' tagRecord)', (t) => {
  const tags = defineTable({
    name: 'Tags',
    entities: { Tag: entity({ attributes: { name: types.string() }, key: { pk: 'Tag#<name>', sk: 'TAG' } }), Item: entity({ attributes: { id: types.string() }, key: { pk: 'Tag#<id>', sk: 'ITEM' } }) },
  });
  t.deepEqual(nameProblems(tags), []);
  t.deepEqual(named(emitRecordConversion(entityScope(tags.entities['Tag']!, createContext(tags)))), ['tagToRecord', 'tagFromRecord']);
});

test('queries on a sharded partition key gather through gather.ts (queryShards, getAllItems, sumItems); others stay on repository.ts, so only sharded schemas import the gather', (t) => {
  const sharded = defineTable({
    name: 'Votes',
    entities: {
      Vote: entity({ attributes: { poll: types.string(), voter: types.string() }, key: { pk: 'Poll#<poll>#<shard>', sk: 'Vote#<voter>', shard: { count: 4, by: 'voter' } } }),
      Ballot: entity({ attributes: { poll: types.string(), voter: types.string() }, key: { pk: 'Poll#<poll>#<shard>', sk: 'Ballot#<voter>', shard: { count: 4, by: 'voter' } } }),
      Total: entity({ attributes: { poll: types.string(), votes: types.number({ integer: true }) }, key: { pk: 'Total#<poll>#<shard>', sk: 'TOTAL', shard: { count: 4, random: true } } }),
      Tally: entity({ attributes: { poll: types.string(), at: types.timestamp() }, key: { pk: 'Poll#<poll>', sk: '<at>' } }),
    },
  });
  const shardedCtx = createContext(sharded);
  const modulesOf = (name: string, emit: (scope: ReturnType<typeof entityScope>) => unknown) => {
    const entityScopeOf = entityScope(sharded.entities[name]!, shardedCtx);
    emit(entityScopeOf);
    return Object.fromEntries(entityScopeOf.imports.declarations().map((d) => [d.moduleSpecifier, (d.namedImports as Array<string | { name: string }>).map((n) => (typeof n === 'string' ? n : n.name))]));
  };
  const vote = modulesOf('Vote', (s) => t.is(print(emitIndexQueries(s)[0]!.shape!.make), "/* @__PURE__ */ queryOperation(voteModel, 'query', undefined, voteFromRecord, queryShards)"));
  t.deepEqual(vote['./runtime/gather.js'], ['queryShards']);
  t.false(Object.values(vote).flat().includes('queryPage'));
  const total = modulesOf('Total', (s) => [emitCrud(s), emitCounters(s)]);
  t.deepEqual(total['./runtime/gather.js'], ['getAllItems', 'sumItems']);
  const tally = modulesOf('Tally', (s) => t.is(print(emitIndexQueries(s)[0]!.shape!.make), "/* @__PURE__ */ queryOperation(tallyModel, 'query', undefined, tallyFromRecord)"));
  t.is(tally['./runtime/gather.js'], undefined);
  // a collection on a sharded partition key (Vote and Ballot) gathers too
  const tableClass = emitTableClass(sharded, shardedCtx);
  t.true(tableClass.imports.some((i) => i.moduleSpecifier === './runtime/gather.js' && JSON.stringify(i.namedImports) === '["queryShards"]'));
  const owner = tableClass.statements.find((s) => (s as { name?: string }).name === 'VotesTable') as { methods: Array<{ name: string; statements: string[] }> };
  t.regex(owner.methods.find((m) => m.name === 'voteCollection')!.statements.at(-1)!, /^return queryShards\(this\.context, request, options/);
});
