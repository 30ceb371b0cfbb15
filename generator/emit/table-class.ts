// Emits `<Table>Table`: one object that wires every entity's repository to a DocumentClient, a
// physical table name and the cursor and retry settings, plus a query per item collection (a
// partition-key shape shared by several entities) returning their items tagged by entity.

import { StructureKind, type MethodDeclarationStructure, type OptionalKind, type StatementStructures } from 'ts-morph';
import type { EntityDef, TableDef } from '../../dsl/ir.js';
import { keySegments } from '../model/key-segments.js';
import { camelCase, entityFile, pascalCase, printLiteral, propertyKey, quote, tableClassName, tableItemTypeName, transactionClassName, type EmitContext } from './context.js';
import { edgeTypeNames } from './edges.js';
import type { EmittedModule } from './entity.js';
import { jsDoc } from './ast.js';
import { entityScope } from './entity-scope.js';
import { updateType } from './item-types.js';

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

/** `SocialUserCollectionItem`: the tagged items of one collection. */
const collectionItemType = (table: TableDef, group: Collection) => `${pascalCase(table.name)}${pascalCase(group.name)}CollectionItem`;

export function emitTableClass(table: TableDef, ctx: EmitContext): EmittedModule {
  /** Whether an entity has an `<Entity>Update` type (something an update can change). */
  const updatable = (e: EntityDef) => updateType(entityScope(e, ctx)) !== undefined;
  const entities = Object.values(table.entities);
  const edges = Object.values(table.edges);
  const className = tableClassName(table);
  const groups = collections(table);
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.Interface,
      name: `${className}Options`,
      isExported: true,
      properties: [
        { name: 'tableName', type: 'string', hasQuestionToken: true, docs: jsDoc(`The physical table name. Default ${quote(table.name)}.`) },
        { name: 'cursor', type: 'CursorOptions', hasQuestionToken: true, docs: jsDoc('How pagination cursors are protected: signed (HMAC-SHA-256) or encrypted (AES-GCM) under a secret, and when they expire (default one day).') },
        { name: 'retry', type: 'RetryPolicy', hasQuestionToken: true, docs: jsDoc('Backoff and budget for retrying unprocessed batch items and throttled batch requests.') },
        { name: 'transactionRetry', type: 'TransactionRetryPolicy', hasQuestionToken: true, docs: jsDoc('Backoff and attempts for retrying transactions cancelled by TransactionConflict. Default 5 attempts.') },
        { name: 'gatherConcurrency', type: 'number', hasQuestionToken: true, docs: jsDoc('Shard queries in flight at once when a query gathers over a sharded key. Default 8.') },
        ...(table.rotation
          ? [{ name: 'rotationBase', type: 'string', hasQuestionToken: true, docs: jsDoc(`The base name of the rotated tables, for reads across them. Default \`tableName\` (forTime sets it).`) }]
          : []),
      ],
    },
  ];
  for (const group of groups) {
    const union = group.members.map((e) => `{ readonly type: ${quote(e.name)}; readonly item: ${e.name} }`);
    statements.push({
      kind: StructureKind.TypeAlias,
      name: collectionItemType(table, group),
      isExported: true,
      docs: jsDoc(`An item of the ${group.name} collection (${group.members.map((e) => e.name).join(', ')}); \`type: undefined\` for an item none of them owns.`),
      type: [...union, '{ readonly type: undefined; readonly item: Record<string, unknown> }'].join(' | '),
    });
  }
  const methods: OptionalKind<MethodDeclarationStructure>[] = groups.map((group) => {
    const first = group.members[0]!;
    const itemType = collectionItemType(table, group);
    const members = group.members.map((e) => `{ type: ${quote(e.name)}, model: ${camelCase(e.name)}Model }`).join(', ');
    return {
      name: `${group.name}Collection`,
      docs: jsDoc(`Reads one partition of ${first.key.pk.source} with all its entities (${group.members.map((e) => e.name).join(', ')}) in one query, each item tagged with its entity.`),
      parameters: [
        { name: 'partition', type: `${first.name}Partition` },
        { name: 'options', type: 'PageOptions & ReadOptions & { order?: \'asc\' | \'desc\' }', initializer: '{}' },
      ],
      returnType: `Promise<Page<${itemType}>>`,
      statements: [
        `const members: CollectionMember[] = [${members}];`,
        `const order = options.order ?? 'asc';`,
        `const request = { scope: ${quote(`${table.name}.${group.name}Collection`)}, pk: ${camelCase(first.name)}Model.pk, partition, params: { partition, order }, keyAttributes: ${printLiteral([table.key.pk, table.key.sk!])}, order, consistent: options.consistent === true };`,
        `return queryPage(this.context, request, options, (stored) => tagRecord(members, stored)) as Promise<Page<${itemType}>>;`,
      ],
      isAsync: true,
    };
  });
  const transactionClass = transactionClassName(table);
  const entityTransaction = (e: EntityDef) =>
    `EntityTransaction<${transactionClass}, ${e.version === undefined ? e.name : `${e.name}Input`}, ${e.name}Key, ${updatable(e) ? `${e.name}Update` : 'Record<string, never>'}, ${e.name}, ${e.version === undefined ? 'false' : 'true'}>`;
  // Items under a random shard suffix have no key a transaction could address.
  const transactional = entities.filter((e) => e.key.shard?.random !== true);
  // The runtime's TableTransaction creates each entity's writes from its model; the properties are
  // declared here with their types, so nothing generic is instantiated per entity to check them.
  statements.push({
    kind: StructureKind.Class,
    name: transactionClass,
    isExported: true,
    extends: 'TableTransaction',
    docs: jsDoc(`Writes to several ${table.name} items that happen together or not at all (one TransactWriteItems, up to 100 writes and 4 MB).\n\n@example\n` +
          (transactional[0] ? `await db.transaction().${camelCase(transactional[0].name)}.create(a).${camelCase(transactional[0].name)}.delete(b).commit();` : '')),
    properties: transactional.map((e) => ({
      name: propertyKey(camelCase(e.name)),
      hasDeclareKeyword: true,
      isReadonly: true,
      type: entityTransaction(e),
    })),
    ctors: [
      {
        parameters: [{ name: 'context', type: 'TableContext' }],
        statements: `super(context, ${transactional.length ? `{ ${transactional.map((e) => `${propertyKey(camelCase(e.name))}: ${camelCase(e.name)}Model`).join(', ')} }` : '{}'});`,
      },
    ],
  });
  const itemType = tableItemTypeName(table);
  statements.splice(1, 0, {
    kind: StructureKind.TypeAlias,
    name: itemType,
    isExported: true,
    docs: jsDoc(`Any item of the ${table.name} table, tagged with its entity; \`type: undefined\` for an item no entity owns (edges, foreign data).`),
    type: [...entities.map((e) => `{ readonly type: ${quote(e.name)}; readonly item: ${e.name} }`), '{ readonly type: undefined; readonly item: Record<string, unknown> }'].join(' | '),
  });
  methods.push({
    name: 'scanSegments',
    docs: jsDoc('Reads the whole table in parallel segments (for background sweeps), each item tagged with its entity; the order is not defined.'),
    parameters: [{ name: 'options', type: 'ScanOptions', initializer: '{}' }],
    returnType: `AsyncGenerator<${itemType}, void, undefined>`,
    statements: `return scanSegments<${itemType}>(this.context, [${entities.map((e) => `{ type: ${quote(e.name)}, model: ${camelCase(e.name)}Model }`).join(', ')}], options);`,
  });
  if (table.rotation) {
    const every = quote(table.rotation);
    methods.push(
      {
        name: 'tableNameFor',
        isStatic: true,
        docs: jsDoc(`The physical table holding \`at\`: one table per ${table.rotation} (\`${table.name}_${ROTATION_SUFFIX[table.rotation]}\`).`),
        parameters: [{ name: 'at', type: 'Date' }, { name: 'base', type: 'string', initializer: quote(table.name) }],
        returnType: 'string',
        statements: `return rotatedTableName(base, at, ${every});`,
      },
      {
        name: 'tablesBetween',
        isStatic: true,
        docs: jsDoc('Every physical table a time range touches, oldest first.'),
        parameters: [{ name: 'from', type: 'Date' }, { name: 'to', type: 'Date' }, { name: 'base', type: 'string', initializer: quote(table.name) }],
        returnType: 'string[]',
        statements: `return rotatedTablesBetween(base, from, to, ${every});`,
      },
      {
        name: 'forTime',
        isStatic: true,
        docs: jsDoc(`The ${table.name} table of the period holding \`at\` (\`options.tableName\` is the base name).`),
        parameters: [{ name: 'client', type: 'DynamoDBDocumentClient' }, { name: 'at', type: 'Date' }, { name: 'options', type: `${className}Options`, initializer: '{}' }],
        returnType: className,
        statements: [
          `const base = options.rotationBase ?? options.tableName ?? ${quote(table.name)};`,
          `return new ${className}(client, { ...options, rotationBase: base, tableName: rotatedTableName(base, at, ${every}) });`,
        ],
      },
    );
  }
  methods.unshift({
    name: 'transaction',
    docs: jsDoc('Starts a transaction: add writes per entity, then `commit()`.'),
    returnType: transactionClass,
    statements: `return new ${transactionClass}(this.context);`,
  });
  statements.push({
    kind: StructureKind.Class,
    name: className,
    isExported: true,
    docs: jsDoc(`The ${table.name} table: one repository per entity.\n\n@example\n` +
          `const db = new ${className}(DynamoDBDocumentClient.from(new DynamoDBClient({})));\n` +
          (entities[0] ? `await db.${camelCase(entities[0].name)}.get({ … });` : '')),
    properties: [
      { name: 'tableName', type: 'string', isReadonly: true, docs: jsDoc('The physical table name in use.') },
      { name: 'context', type: 'TableContext', isReadonly: true, scope: 'private' as never },
      ...entities.map((e) => ({ name: propertyKey(camelCase(e.name)), type: `${e.name}Repository`, isReadonly: true })),
      ...edges.map((e) => ({
        name: propertyKey(camelCase(e.name)),
        type: `EdgeRepository<${edgeTypeNames(e).node}, ${edgeTypeNames(e).attributes}>`,
        isReadonly: true,
        docs: jsDoc(`Edge ${e.name}: ${e.forward}${e.inverse ? ` / ${e.inverse}` : ''} between ${e.types.join(', ')}.`),
      })),
    ],
    ctors: [
      {
        parameters: [
          { name: 'client', type: 'DynamoDBDocumentClient' },
          { name: 'options', type: `${className}Options`, initializer: '{}' },
        ],
        statements: [
          `this.tableName = options.tableName ?? ${quote(table.name)};`,
          'this.context = { client, tableName: this.tableName, ...(options.cursor ? { cursor: checkCursorOptions(options.cursor) } : {}), ...(options.retry ? { retry: options.retry } : {}), ...(options.transactionRetry ? { transactionRetry: options.transactionRetry } : {}), ...(options.gatherConcurrency ? { gatherConcurrency: options.gatherConcurrency } : {})' +
            (table.rotation ? `, rotation: { base: options.rotationBase ?? this.tableName, every: ${quote(table.rotation)} }` : '') +
            (table.ttl === undefined ? '' : `, ttl: ${quote(table.ttl)}`) +
            ' };',
          ...entities.map((e) => `this.${camelCase(e.name)} = new ${e.name}Repository(this.context);`),
          ...edges.map((e) => `this.${camelCase(e.name)} = new EdgeRepository(this.context, ${edgeTypeNames(e).model});`),
        ],
      },
    ],
    methods,
  });
  const usesCollections = groups.length > 0;
  return {
    imports: [
      { moduleSpecifier: '@aws-sdk/lib-dynamodb', isTypeOnly: true, namedImports: ['DynamoDBDocumentClient'] },
      { moduleSpecifier: './runtime/batch.js', isTypeOnly: true, namedImports: ['RetryPolicy'] },
      { moduleSpecifier: './runtime/cursor.js', namedImports: ['checkCursorOptions', { name: 'CursorOptions', isTypeOnly: true }] },
      ...(edges.length
        ? [
            { moduleSpecifier: './runtime/edge.js', namedImports: ['EdgeRepository'] },
            { moduleSpecifier: './edges.js', namedImports: edges.flatMap((e) => [edgeTypeNames(e).model, { name: edgeTypeNames(e).node, isTypeOnly: true }, { name: edgeTypeNames(e).attributes, isTypeOnly: true }]) },
          ]
        : []),
      ...(table.rotation ? [{ moduleSpecifier: './runtime/rotation.js', namedImports: ['rotatedTableName', 'rotatedTablesBetween'] }] : []),
      { moduleSpecifier: './runtime/scan.js', namedImports: ['scanSegments', { name: 'ScanOptions', isTypeOnly: true }] },
      { moduleSpecifier: './runtime/transaction.js', namedImports: [...(transactional.length ? [{ name: 'EntityTransaction', isTypeOnly: true }] : []), 'TableTransaction', { name: 'TransactionRetryPolicy', isTypeOnly: true }] },
      {
        moduleSpecifier: './runtime/repository.js',
        namedImports: [
          ...(usesCollections ? ['queryPage', 'tagRecord'] : []),
          ...(usesCollections ? ['CollectionMember', 'Page', 'PageOptions', 'ReadOptions'] : []).map((name) => ({ name, isTypeOnly: true })),
          { name: 'TableContext', isTypeOnly: true },
        ],
      },
      ...entities.map((e) => ({
        moduleSpecifier: `./${entityFile(e).replace(/\.ts$/, '.js')}`,
        namedImports: [
          `${e.name}Repository`,
          `${camelCase(e.name)}Model`,
          { name: e.name, isTypeOnly: true },
          ...(transactional.includes(e)
            ? [
                ...(e.version === undefined ? [] : [{ name: `${e.name}Input`, isTypeOnly: true }]),
                { name: `${e.name}Key`, isTypeOnly: true },
                ...(updatable(e) ? [{ name: `${e.name}Update`, isTypeOnly: true }] : []),
              ]
            : []),
          ...(groups.some((g) => g.members[0] === e) ? [{ name: `${e.name}Partition`, isTypeOnly: true }] : []),
        ],
      })),
    ],
    statements,
  };
}
