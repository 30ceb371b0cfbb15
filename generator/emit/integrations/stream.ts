// Emits stream.ts for a table with a stream: one event type per entity and edge, their union with
// the unknown branch, `decode<Table>StreamRecord` and `handle<Table>Stream`, typed by the table's
// stream view type. The decoding itself lives in runtime/stream.ts. Pure: (table, ctx) → structures.

import { StructureKind, VariableDeclarationKind } from '../../ts-morph.js';
import type { StructureKind as Kind, StatementStructures } from 'ts-morph';
import type { StreamViewType, TableDef } from '../../../dsl/ir.js';
import { camelCase, entityModuleSpecifier, pascalCase, printLiteral, quote, raw, type EmitContext } from '../context.js';
import { edgeTypeNames } from '../table/edges.js';
import type { EmittedModule } from '../context.js';

/** The StreamViewType DynamoDB names for each of the DSL's view types. */
export const STREAM_VIEW_TYPES: Readonly<Record<StreamViewType, string>> = {
  'new-and-old-images': 'NEW_AND_OLD_IMAGES',
  'new-image': 'NEW_IMAGE',
  'old-image': 'OLD_IMAGE',
  'keys-only': 'KEYS_ONLY',
};

export const streamNames = (table: TableDef) => {
  const stem = pascalCase(table.name);
  return { event: `${stem}StreamEvent`, handlers: `${stem}StreamHandlers`, model: `${camelCase(table.name)}StreamModel`, decode: `decode${stem}StreamRecord`, handle: `handle${stem}Stream` };
};

/** `UserStreamEvent`: the events of one entity or edge. */
export const streamEventType = (name: string) => `${name}StreamEvent`;

const doc = (description: string) => [{ kind: StructureKind.JSDoc as Kind.JSDoc, description }];

export function emitStream(table: TableDef, _ctx: EmitContext): EmittedModule {
  const view = table.stream!;
  const names = streamNames(table);
  const entities = Object.values(table.entities);
  const edges = Object.values(table.edges);
  const carries = { 'new-and-old-images': 'the item before and after each change', 'new-image': 'the item after each change', 'old-image': 'the item before each change', 'keys-only': 'only the key of each changed item' }[view];
  const statements: StatementStructures[] = [];
  for (const entity of entities) {
    statements.push({
      kind: StructureKind.TypeAlias,
      name: streamEventType(entity.name),
      isExported: true,
      docs: doc(`A change to an item of ${entity.name}, as the ${table.name} stream (${STREAM_VIEW_TYPES[view]}) carries it.`),
      type: `StreamEvent<${quote(entity.name)}, ${entity.name}Key, ${entity.name}, ${quote(view)}>`,
    });
  }
  for (const edge of edges) {
    const types = edgeTypeNames(edge);
    statements.push({
      kind: StructureKind.TypeAlias,
      name: streamEventType(edge.name),
      isExported: true,
      docs: doc(`A change to an item of edge ${edge.name} (\`side\`: its ${edge.forward} item or its ${edge.inverse ?? 'inverse'} item), as the ${table.name} stream carries it.`),
      type: `EdgeStreamEvent<${quote(edge.name)}, ${types.node}, ${types.attributes}, ${quote(view)}>`,
    });
  }
  statements.push(
    {
      kind: StructureKind.TypeAlias,
      name: names.event,
      isExported: true,
      docs: doc(`Any change the ${table.name} stream carries, told apart by \`entity\` (\`undefined\`: keys no entity or edge of the schema builds).`),
      type: [...[...entities, ...edges].map((e) => streamEventType(e.name)), `UnknownStreamEvent<${quote(view)}>`].join(' | '),
    },
    {
      kind: StructureKind.TypeAlias,
      name: names.handlers,
      isExported: true,
      docs: doc(`A handler for every entity and edge of ${table.name}, and \`unknown\`: a function, \`'ignore'\`, or \`{ insert, modify, remove }\`.`),
      type: `StreamHandlers<${names.event}>`,
    },
    {
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      declarations: [
        {
          name: names.model,
          type: 'StreamModel',
          initializer: printLiteral({
            table: table.name,
            view,
            pk: table.key.pk,
            sk: table.key.sk,
            entities: entities.map((e) => ({ type: e.name, model: raw(`${camelCase(e.name)}Model`) })),
            edges: edges.map((e) => raw(edgeTypeNames(e).model)),
          }),
        },
      ],
    },
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc(
        `Decodes one record of the ${table.name} table's stream (${STREAM_VIEW_TYPES[view]}: ${carries}) — a GetRecords \`Record\` of ` +
          `@aws-sdk/client-dynamodb-streams or a Lambda DynamoDB event record — into a typed event: the entity (or edge) whose key ` +
          `templates parse its keys, its key parts and items. Throws StreamRecordError, saying why, for a record it cannot decode.\n\n@example\n` +
          `const change = ${names.decode}(record);\n` +
          (entities[0] ? `if (change.entity === ${quote(entities[0].name)} && change.event === 'insert') console.log(change.key);` : ''),
      ),
      declarations: [{ name: names.decode, type: `(record: StreamRecord) => ${names.event}`, initializer: `streamDecoder<${names.event}>(${names.model})` }],
    },
    {
      kind: StructureKind.Function,
      name: names.handle,
      isExported: true,
      docs: doc(
        `A Lambda handler for the ${table.name} stream: decodes each record and runs its handler, in record order. At the first ` +
          'record that fails it stops and returns `{ batchItemFailures }` naming it, so with ReportBatchItemFailures Lambda retries ' +
          'from that record.\n\n@example\n' +
          `export const handler = ${names.handle}({\n` +
          [...entities, ...edges].map((e, i) => `  ${e.name}: ${i === 0 ? '{ insert: async (change) => {}, modify: \'ignore\', remove: \'ignore\' }' : "'ignore'"},`).join('\n') +
          `\n  unknown: 'ignore',\n});`,
      ),
      parameters: [
        { name: 'handlers', type: names.handlers },
        { name: 'options', type: 'StreamHandlerOptions', hasQuestionToken: true },
      ],
      returnType: '(batch: { readonly Records?: readonly StreamRecord[] | undefined }) => Promise<StreamBatchResponse>',
      statements: `return streamHandler(${names.decode}, handlers, options);`,
    },
  );
  return {
    imports: [
      {
        moduleSpecifier: './runtime/stream.js',
        namedImports: [
          'streamDecoder',
          'streamHandler',
          ...['StreamBatchResponse', 'StreamHandlerOptions', 'StreamHandlers', 'StreamModel', 'StreamRecord', 'UnknownStreamEvent', ...(entities.length ? ['StreamEvent'] : []), ...(edges.length ? ['EdgeStreamEvent'] : [])]
            .sort()
            .map((name) => ({ name, isTypeOnly: true })),
        ],
      },
      ...entities.map((e) => ({
        moduleSpecifier: entityModuleSpecifier(e),
        namedImports: [`${camelCase(e.name)}Model`, { name: e.name, isTypeOnly: true }, { name: `${e.name}Key`, isTypeOnly: true }],
      })),
      ...(edges.length
        ? [{ moduleSpecifier: './edges.js', namedImports: edges.flatMap((e) => [edgeTypeNames(e).model, { name: edgeTypeNames(e).node, isTypeOnly: true }, { name: edgeTypeNames(e).attributes, isTypeOnly: true }]) }]
        : []),
    ],
    statements,
  };
}
