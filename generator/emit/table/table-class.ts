// Emits `<Table>Table`: one object that wires every entity's repository to a DocumentClient, a
// physical table name and the cursor and retry settings, plus a query per item collection (a
// partition-key shape shared by several entities) returning their items tagged by entity, and
// `<Table>Transaction`, which writes to several entities at once.

import { StructureKind } from '../../ts-morph.js';
import type { StructureKind as Kind, ClassDeclarationStructure, MethodDeclarationStructure, OptionalKind, PropertyDeclarationStructure, StatementStructures } from 'ts-morph';
import type { EntityDef, TableDef } from '../../../dsl/ir.js';
import { shardedPartition, tableAccess } from '../../model/access-paths.js';
import { keySegments } from '../../model/key-segments.js';
import {
  arr,
  arrayOf,
  arrow,
  as,
  assigns,
  binary,
  call,
  conditional,
  constant,
  construct,
  id,
  Imports,
  intersection,
  jsDoc,
  keyword,
  literal,
  literalType,
  obj,
  objectType,
  parenthesized,
  path,
  print,
  prop,
  returns,
  spread,
  statement,
  str,
  typeRef,
  union,
  unionText,
  type Expression,
  type TypeNode,
} from '../ast.js';
import { camelCase, contextFunctionName, entityModuleSpecifier, entityNames, operationName, pascalCase, quote, tableClassName, tableItemTypeName, tableOptionsTypeName, transactionClassName, type EmitContext } from '../context.js';
import { edgeTypeNames } from './edges.js';
import type { EmittedModule } from '../context.js';
import { entityScope, type EntityScope } from '../entity/entity-scope.js';
import { examplesOf, scanExample, transactionExample } from '../examples/doc-examples.js';
import { updateType } from '../entity/item-types.js';
import { example, param } from '../operations/repository-crud.js';

const ROTATION_SUFFIX = { day: 'YYYY-MM-DD', week: 'YYYY-Www (ISO week)', month: 'YYYY-MM', year: 'YYYY' } as const;

export interface Collection {
  /** Method and type stem, from the first member: `user` → `userCollection`. */
  readonly name: string;
  readonly members: readonly EntityDef[];
}

/** Entities grouped by the shape of their partition-key template (same literals, same value encodings). */
export function collections(table: TableDef): Collection[] {
  if (table.key.sk === undefined) return [];
  const groups = new Map<string, EntityDef[]>();
  for (const entity of Object.values(table.entities)) {
    const segments = keySegments(entity, entity.key.pk, entity.key.shard);
    if (!segments || !entity.key.sk) continue;
    const shape = JSON.stringify(segments.map((s) => (s.kind === 'literal' ? s : { ...s, attr: '' })));
    groups.set(shape, [...(groups.get(shape) ?? []), entity]);
  }
  return [...groups.values()].filter((members) => members.length > 1).map((members) => ({ name: camelCase(members[0]!.name), members }));
}

/** Whether a collection's partition key is sharded: its query gathers every shard (`queryShards`, gather.ts). */
const gathers = (group: Collection) => shardedPartition(tableAccess(group.members[0]!));

/** `SocialUserCollectionItem`: the tagged items of one collection. */
export const collectionItemType = (table: TableDef, group: Collection) => `${pascalCase(table.name)}${pascalCase(group.name)}CollectionItem`;
/** The method reading one collection's partition (`userCollection`). */
export const collectionMethod = (group: Collection) => `${group.name}Collection`;

type Method = OptionalKind<MethodDeclarationStructure>;
// no `kind`: a member of an interface or of a class alike
type Property = Omit<PropertyDeclarationStructure, 'kind'>;

const RUNTIME = {
  batch: './runtime/batch.js',
  cursor: './runtime/cursor.js',
  edge: './runtime/edge.js',
  expiry: './runtime/expiry.js',
  gather: './runtime/gather.js',
  piiFingerprint: './runtime/pii-fingerprint.js',
  read: './runtime/read.js',
  repository: './runtime/repository.js',
  rotation: './runtime/rotation.js',
  scan: './runtime/scan.js',
  transaction: './runtime/transaction.js',
  telemetry: './runtime/telemetry.js',
} as const;

/** `options = {}`: an options parameter that may be left out. */
const NO_OPTIONS = { initializer: print(obj([])) };

/** What the table class's emitters share: the table, its entities' names, and the module's imports. */
interface TableScope {
  readonly table: TableDef;
  readonly imports: Imports;
  readonly entities: readonly EntityDef[];
  readonly className: string;
  readonly optionsType: string;
  /** The entity's scope (its names, paths and examples), made once. */
  readonly scopeOf: (entity: EntityDef) => EntityScope;
  /** `import { name }` from an entity's module; returns the name. */
  readonly fromEntity: (entity: EntityDef, name: string, kind: 'value' | 'type') => string;
  readonly runtimeType: (module: keyof typeof RUNTIME, name: string, ...args: TypeNode[]) => TypeNode;
  readonly runtimeValue: (module: keyof typeof RUNTIME, name: string) => string;
}

function tableScope(table: TableDef, ctx: EmitContext): TableScope {
  const imports = new Imports();
  const scopes = new Map<EntityDef, EntityScope>();
  return {
    table,
    imports,
    entities: Object.values(table.entities),
    className: tableClassName(table),
    optionsType: tableOptionsTypeName(table),
    scopeOf: (entity) => scopes.get(entity) ?? scopes.set(entity, entityScope(entity, ctx)).get(entity)!,
    fromEntity: (entity, name, kind) => imports[kind](entityModuleSpecifier(entity), name),
    runtimeType: (module, name, ...args) => typeRef(imports.type(RUNTIME[module], name), ...args),
    runtimeValue: (module, name) => imports.value(RUNTIME[module], name),
  };
}

const property = (name: string, type: TypeNode, options: { optional?: boolean; readonly?: boolean; private?: boolean; declare?: boolean; doc?: string } = {}): Property => ({
  name,
  type: print(type),
  ...(options.declare ? { hasDeclareKeyword: true } : {}),
  ...(options.optional ? { hasQuestionToken: true } : {}),
  ...(options.readonly ? { isReadonly: true } : {}),
  ...(options.private ? { scope: 'private' as never } : {}),
  ...(options.doc === undefined ? {} : { docs: jsDoc(options.doc) }),
});

/** `<Table>TableOptions`. */
function emitOptions(s: TableScope): StatementStructures {
  const { table } = s;
  return {
    kind: StructureKind.Interface,
    name: s.optionsType,
    isExported: true,
    properties: [
      property('tableName', keyword.string(), { optional: true, doc: `The physical table name. Default ${quote(table.name)}.` }),
      property('cursor', s.runtimeType('cursor', 'CursorOptions'), {
        optional: true,
        doc: 'How pagination cursors are protected: signed (HMAC-SHA-256) or encrypted (AES-GCM) under a secret, and when they expire (default one day).',
      }),
      property('retry', s.runtimeType('batch', 'RetryPolicy'), { optional: true, doc: 'Backoff and budget for retrying unprocessed batch items and throttled batch requests.' }),
      property('transactionRetry', s.runtimeType('transaction', 'TransactionRetryPolicy'), {
        optional: true,
        doc: 'Backoff and attempts for retrying transactions cancelled by TransactionConflict. Default 5 attempts.',
      }),
      property('gatherConcurrency', keyword.number(), { optional: true, doc: 'Shard queries in flight at once when a query gathers over a sharded key. Default 8.' }),
      property('piiSecret', keyword.string(), {
        optional: true,
        doc: 'Keys the fingerprints errors print for key parts marked pii (HMAC-SHA-256, at least 32 bytes), so they match across processes. Default: a random key per process.',
      }),
      property('telemetry', s.runtimeType('telemetry', 'TableTelemetry'), {
        optional: true,
        doc: 'Telemetry per access pattern (OpenTelemetry spans and metrics, CloudWatch EMF): `openTelemetry(api)` or `telemetry(...sinks)`, exported by the output index. Off by default, and then it costs nothing.',
      }),
      ...(table.rotation
        ? [property('rotationBase', keyword.string(), { optional: true, doc: 'The base name of the rotated tables, for reads across them. Default `tableName` (forTime sets it).' })]
        : []),
    ],
  };
}

/** `{ readonly type: 'User'; readonly item: User }` per entity, and the untagged rest. */
function taggedItems(s: TableScope, entities: readonly EntityDef[]): string {
  const tagged = (type: TypeNode, item: TypeNode) => objectType([{ name: 'type', type, readonly: true }, { name: 'item', type: item, readonly: true }]);
  return unionText([
    ...entities.map((e) => tagged(literalType(e.name), typeRef(s.fromEntity(e, entityNames(e).item, 'type')))),
    tagged(keyword.undefined(), typeRef('Record', keyword.string(), keyword.unknown())),
  ]);
}

/** `[{ type: 'User', model: userModel }, …]`: the entities a record may belong to, for tagging. */
const members = (s: TableScope, entities: readonly EntityDef[]): Expression =>
  arr(entities.map((e) => obj([['type', str(e.name)], ['model', id(s.fromEntity(e, entityNames(e).model, 'value'))]])));

/** `<Table>Item` and `<Table><Collection>CollectionItem`. */
function emitItemUnions(s: TableScope, groups: readonly Collection[]): StatementStructures[] {
  const { table } = s;
  return [
    {
      kind: StructureKind.TypeAlias,
      name: tableItemTypeName(table),
      isExported: true,
      docs: jsDoc(`Any item of the ${table.name} table, tagged with its entity; \`type: undefined\` for an item no entity owns (edges, foreign data).`),
      type: taggedItems(s, s.entities),
    },
    ...groups.map((group) => ({
      kind: StructureKind.TypeAlias as Kind.TypeAlias,
      name: collectionItemType(table, group),
      isExported: true,
      docs: jsDoc(`An item of the ${group.name} collection (${group.members.map((e) => e.name).join(', ')}); \`type: undefined\` for an item none of them owns.`),
      type: taggedItems(s, group.members),
    })),
  ];
}

/** Items under a random shard suffix have no key a transaction could address. */
const transactional = (s: TableScope) => s.entities.filter((e) => e.key.shard?.random !== true);

/** `<Table>Transaction`: one `EntityTransaction` per entity a transaction can address; `commit` is TableTransaction's. */
function emitTransaction(s: TableScope): ClassDeclarationStructure {
  const { table } = s;
  const className = transactionClassName(table);
  const entities = transactional(s);
  const entityTransaction = (e: EntityDef): TypeNode[] => {
    const names = entityNames(e);
    const type = (name: string) => typeRef(s.fromEntity(e, name, 'type'));
    const updatable = updateType(s.scopeOf(e)) !== undefined;
    return [typeRef(className), type(e.version === undefined ? names.item : names.input), type(names.key), updatable ? type(names.update) : objectType([]), type(names.item), literalType(e.version !== undefined)];
  };
  // The runtime's TableTransaction makes each entity's writes from its model; the properties are
  // declared here with their types, so nothing generic is instantiated per entity to check them.
  // Examples on `transaction()` only: one per entity here costs a large table seconds of generation.
  return {
    kind: StructureKind.Class,
    name: className,
    isExported: true,
    extends: s.runtimeValue('transaction', 'TableTransaction'),
    docs: jsDoc(`Writes to several ${table.name} items that happen together or not at all (one TransactWriteItems, up to 100 writes and 4 MB). Started by \`db.transaction()\`, whose documentation shows an example.`),
    properties: entities.map((e) => property(entityNames(e).member, s.runtimeType('transaction', 'EntityTransaction', ...entityTransaction(e)), { readonly: true, declare: true })),
    ctors: [
      {
        parameters: [param('context', s.runtimeType('repository', 'TableContext'))],
        statements: [statement(call('super', [id('context'), obj(entities.map((e) => [entityNames(e).member, id(s.fromEntity(e, entityNames(e).model, 'value'))]))]))],
      },
    ],
  };
}

/** `<name>Collection(partition, options)`: one query over a partition several entities share. */
function collectionQuery(s: TableScope, group: Collection): Method {
  const { table } = s;
  const first = group.members[0]!;
  const model = id(s.fromEntity(first, entityNames(first).model, 'value'));
  const page = typeRef('Promise', s.runtimeType('read', 'Page', typeRef(collectionItemType(table, group))));
  const order = objectType([{ name: 'order', type: union([literalType('asc'), literalType('desc')]), optional: true }]);
  const request = obj([
    ['scope', str(`${table.name}.${collectionMethod(group)}`)],
    ['pk', prop(model, 'pk')],
    ['partition', id('partition')],
    ['params', obj([['partition', id('partition')], ['order', id('order')]])],
    ['keyAttributes', literal([table.key.pk, table.key.sk!])],
    ['order', id('order')],
    ['consistent', binary(path('options.consistent'), '===', literal(true))],
  ]);
  const tag = arrow(['stored'], call(s.runtimeValue('read', 'tagRecord'), [id('members'), id('stored')]));
  return {
    name: collectionMethod(group),
    docs: jsDoc(`Reads one partition of ${first.key.pk.source} with all its entities (${group.members.map((e) => e.name).join(', ')}) in one query, each item tagged with its entity.`, [
      ...example(examplesOf(s.scopeOf(first)).collection(collectionMethod(group), [table.key.pk, table.key.sk!])),
      { name: 'throws', text: 'KeyValueError before any request if a partition part is missing or invalid; CursorError if `cursor` is not one this query returned' },
    ]),
    parameters: [
      param('partition', typeRef(s.fromEntity(first, entityNames(first).partition, 'type'))),
      param('options', intersection([s.runtimeType('read', 'PageOptions'), s.runtimeType('read', 'ReadOptions'), order]), NO_OPTIONS),
    ],
    returnType: print(page),
    statements: [
      constant('members', members(s, group.members), arrayOf(s.runtimeType('read', 'CollectionMember'))),
      constant('order', binary(path('options.order'), '??', str('asc'))),
      constant('request', request),
      returns(as(call(gathers(group) ? s.runtimeValue('gather', 'queryShards') : s.runtimeValue('read', 'queryPage'), [path('this.context'), id('request'), id('options'), tag]), page)),
    ],
    isAsync: true,
  };
}

/** `tableNameFor`, `tablesBetween` and `forTime` of a table rotated per period. */
function rotationMethods(s: TableScope): Method[] {
  const { table, className } = s;
  if (!table.rotation) return [];
  const every = str(table.rotation);
  const base = param('base', keyword.string(), { initializer: print(str(table.name)) });
  const date = typeRef('Date');
  const rotatedTableName = (at: string) => call(s.runtimeValue('rotation', 'rotatedTableName'), [id('base'), id(at), every]);
  return [
    {
      name: 'tableNameFor',
      isStatic: true,
      docs: jsDoc(`The physical table holding \`at\`: one table per ${table.rotation} (\`${table.name}_${ROTATION_SUFFIX[table.rotation]}\`).`),
      parameters: [param('at', date), base],
      returnType: print(keyword.string()),
      statements: returns(rotatedTableName('at')),
    },
    {
      name: 'tablesBetween',
      isStatic: true,
      docs: jsDoc('Every physical table a time range touches, oldest first.'),
      parameters: [param('from', date), param('to', date), base],
      returnType: print(arrayOf(keyword.string())),
      statements: returns(call(s.runtimeValue('rotation', 'rotatedTablesBetween'), [id('base'), id('from'), id('to'), every])),
    },
    {
      name: 'forTime',
      isStatic: true,
      docs: jsDoc(`The ${table.name} table of the period holding \`at\` (\`options.tableName\` is the base name).`),
      parameters: [param('client', typeRef(s.imports.type('@aws-sdk/lib-dynamodb', 'DynamoDBDocumentClient'))), param('at', date), param('options', typeRef(s.optionsType), NO_OPTIONS)],
      returnType: className,
      statements: [
        constant('base', binary(binary(path('options.rotationBase'), '??', path('options.tableName')), '??', str(table.name))),
        returns(construct(className, [id('client'), obj([spread(id('options')), ['rotationBase', id('base')], ['tableName', rotatedTableName('at')]])])),
      ],
    },
  ];
}

/** `...(options.name ? { name: value } : {})`: a context member only when its option is set. */
const ifOption = (name: string, value: Expression = path(`options.${name}`)) => spread(parenthesized(conditional(path(`options.${name}`), obj([[name, value]]), obj([]))));

/**
 * `create<Table>Context(client, options)`: the context every operation runs with (client, table name,
 * cursor, retry and PII settings), what the function forms of the operations take where the table
 * class would be `db`. The table class builds its own with it.
 */
function emitContextFunction(s: TableScope): StatementStructures {
  const { table } = s;
  const context = obj([
    ['client', id('client')],
    ['tableName', id('tableName')],
    // options with a secret must have been through protectCursors (the class does it): the signing and encryption code comes in with it
    ifOption('cursor', call(s.runtimeValue('cursor', 'checkContextCursor'), [path('options.cursor')])),
    ifOption('retry'),
    ifOption('transactionRetry'),
    ifOption('gatherConcurrency'),
    ifOption('telemetry'),
    // checked here (an empty secret is refused, not ignored) and kept as text: the models of entities with pii
    // attributes key their fingerprints with it, so the hash comes into a bundle with those entities only
    spread(parenthesized(conditional(binary(path('options.piiSecret'), '!==', id('undefined')), obj([['piiSecret', call(s.runtimeValue('piiFingerprint', 'checkPiiSecret'), [path('options.piiSecret')])]]), obj([])))),
    ['rotation', table.rotation ? obj([['base', binary(path('options.rotationBase'), '??', id('tableName'))], ['every', str(table.rotation)]]) : undefined],
    ['ttl', table.ttl === undefined ? undefined : str(table.ttl)],
    // the clock reads hide expired items by: the client's own (the in-memory table's), else the system's
    ...(table.ttl === undefined ? [] : [spread(call(s.runtimeValue('expiry', 'clientClock'), [id('client')]))]),
  ]);
  const first = s.entities[0];
  return {
    kind: StructureKind.Function,
    name: contextFunctionName(table),
    isExported: true,
    docs: jsDoc(
      `The context the ${table.name} operations run with: what their function forms take in place of the table class` +
        (first ? ` (\`${operationName(first.name, 'put')}(context, item)\` does what \`db.${entityNames(first).member}.put(item)\` does)` : '') +
        ', so that a bundle keeps only the operations it imports. Build it once, as the table class. Cursor options with a secret go through `protectCursors` first (`{ cursor: protectCursors({ secret }) }`), which brings the signing and encryption code; `telemetry` makes each function form\'s call an operation it reports, as the table class\'s methods.',
    ),
    parameters: [param('client', typeRef(s.imports.type('@aws-sdk/lib-dynamodb', 'DynamoDBDocumentClient'))), param('options', typeRef(s.optionsType), NO_OPTIONS)],
    returnType: print(s.runtimeType('repository', 'TableContext')),
    statements: [
      constant('tableName', binary(path('options.tableName'), '??', str(table.name))),
      returns(context),
    ],
  };
}


/** `<Table>Table`: the context, a repository per entity and per edge, transactions, collections, scans, rotation. */
function emitTable(s: TableScope, groups: readonly Collection[]): StatementStructures {
  const { table, className, entities } = s;
  const edges = Object.values(table.edges);
  const itemType = typeRef(tableItemTypeName(table));
  const edgeRepository = (e: (typeof edges)[number]) => {
    const names = edgeTypeNames(e);
    return s.runtimeType('edge', 'EdgeRepository', typeRef(s.imports.type('./edges.js', names.node)), typeRef(s.imports.type('./edges.js', names.attributes)));
  };
  // the example: constructing the table, then the first entity's `get` as its repository documents it
  const construction = constant('db', construct(className, [call('DynamoDBDocumentClient.from', [construct('DynamoDBClient', [obj([])])])]));
  const get = entities[0] && examplesOf(s.scopeOf(entities[0])).get();
  const client = typeRef(s.imports.type('@aws-sdk/lib-dynamodb', 'DynamoDBDocumentClient'));
  const tableContext = s.runtimeType('repository', 'TableContext');
  const transaction = transactionClassName(table);
  return {
    kind: StructureKind.Class,
    name: className,
    isExported: true,
    docs: jsDoc(`The ${table.name} table: one repository per entity.`, [{ name: 'example', text: `\n${construction}${get?.text ?? ''}` }]),
    properties: [
      property('tableName', keyword.string(), { readonly: true, doc: 'The physical table name in use.' }),
      property('context', tableContext, { readonly: true, private: true }),
      ...entities.map((e) => property(entityNames(e).member, typeRef(s.fromEntity(e, entityNames(e).repository, 'value')), { readonly: true })),
      ...edges.map((e) => property(camelCase(e.name), edgeRepository(e), { readonly: true, doc: `Edge ${e.name}: ${e.forward}${e.inverse ? ` / ${e.inverse}` : ''} between ${e.types.join(', ')}.` })),
    ],
    ctors: [
      {
        parameters: [param('client', client), param('options', typeRef(s.optionsType), NO_OPTIONS)],
        statements: [
          // the class signs or encrypts cursors as its options say: it carries every operation, and the code for that too
          `if (options.cursor !== undefined) ${statement(call(s.runtimeValue('cursor', 'protectCursors'), [path('options.cursor')]))}`,
          assigns(path('this.context'), call(contextFunctionName(table), [id('client'), id('options')])),
          assigns(path('this.tableName'), path('this.context.tableName')),
          ...entities.map((e) => assigns(path(`this.${entityNames(e).member}`), construct(entityNames(e).repository, [path('this.context')]))),
          ...edges.map((e) =>
            assigns(path(`this.${camelCase(e.name)}`), construct(s.runtimeValue('edge', 'EdgeRepository'), [path('this.context'), id(s.imports.value('./edges.js', edgeTypeNames(e).model))])),
          ),
          // telemetry wraps the members just made; without it, nothing else runs
          `if (options.telemetry !== undefined) ${statement(
            call(path('options.telemetry.instrument'), [
              id('this'),
              path('this.context'),
              obj([
                ['table', str(table.name)],
                [
                  'members',
                  obj([
                    ...entities.map((e): [string, Expression] => [entityNames(e).member, id(s.fromEntity(e, entityNames(e).model, 'value'))]),
                    ...edges.map((e): [string, Expression] => [camelCase(e.name), id(s.imports.value('./edges.js', edgeTypeNames(e).model))]),
                  ]),
                ],
                ...(groups.length
                  ? [['collections', obj(groups.map((group): [string, Expression] => [collectionMethod(group), id(s.fromEntity(group.members[0]!, entityNames(group.members[0]!).model, 'value'))]))] as [string, Expression]]
                  : []),
              ]),
            ]),
          )}`,
        ],
      },
    ],
    methods: [
      {
        name: 'transaction',
        // the example: a create and a delete on the first entities a transaction can address, committed
        docs: jsDoc('Starts a transaction: add writes per entity, then `commit()`.', example(transactionExample(table.name, transactional(s).map(s.scopeOf)))),
        returnType: transaction,
        statements: returns(construct(transaction, [path('this.context')])),
      },
      ...groups.map((group) => collectionQuery(s, group)),
      {
        name: 'scanSegments',
        docs: jsDoc('Reads the whole table in parallel segments (for background sweeps), each item tagged with its entity; the order is not defined.', example(scanExample(table.name))),
        parameters: [param('options', s.runtimeType('scan', 'ScanOptions'), NO_OPTIONS)],
        returnType: print(typeRef('AsyncGenerator', itemType, keyword.void(), keyword.undefined())),
        statements: returns(call(s.runtimeValue('scan', 'scanSegments'), [path('this.context'), members(s, entities), id('options')], [itemType])),
      },
      ...rotationMethods(s),
    ],
  };
}

export function emitTableClass(table: TableDef, ctx: EmitContext): EmittedModule {
  const s = tableScope(table, ctx);
  const groups = collections(table);
  const statements = [emitOptions(s), ...emitItemUnions(s, groups), emitContextFunction(s), emitTransaction(s), emitTable(s, groups)];
  return { imports: s.imports.declarations(), statements };
}
