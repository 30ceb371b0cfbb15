// Emits in-memory.ts: `create<Table>InMemory(options?)`, the table in memory for the app's tests,
// built from the table definition (and TTL setting) the output already holds, so a test needs no
// configuration. A module of its own, which index.ts does not re-export: production code that
// imports the output never loads the in-memory table. Pure: (table, ctx) → structures.

import { StructureKind } from '../../ts-morph.js';
import type { StatementStructures } from 'ts-morph';
import type { TableDef } from '../../../dsl/ir.js';
import { pascalCase, quote, tableClassName, type EmitContext } from '../context.js';
import type { EmittedModule } from '../context.js';
import { call, construct, id, Imports, jsDoc, keyword, path, print, prop, returns, typeRef } from '../ast.js';
import { param } from '../operations/repository-crud.js';
import { hasTableSettings, tableDefinitionName, tableSettingsName } from '../table/table-definition.js';

const RUNTIME = './runtime/in-memory/table.js';

const inMemoryNames = (table: TableDef) => ({ create: `create${pascalCase(table.name)}InMemory`, options: `${pascalCase(table.name)}InMemoryOptions` });

/** What the module is made from (its cache key): the table's own settings, none of its entities, edges, indexes or patterns. */
export const inMemoryInput = (table: TableDef): TableDef => ({ ...table, entities: {}, edges: {}, patterns: {}, indexes: {} });

export function emitInMemory(table: TableDef, _ctx: EmitContext): EmittedModule {
  const imports = new Imports();
  const names = inMemoryNames(table);
  const client = imports.value(RUNTIME, 'InMemoryDynamoDB');
  const tableName = path('options.tableName');
  // new InMemoryDynamoDB(options).createTable(definition(options.tableName), settings(options.tableName))
  const createTable = call(prop(construct(client, [id('options')]), 'createTable'), [
    call(imports.value('./table-definition.js', tableDefinitionName(table)), [tableName]),
    ...(hasTableSettings(table) ? [call(imports.value('./table-definition.js', tableSettingsName(table)), [tableName])] : []),
  ]);
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.Interface,
      name: names.options,
      isExported: true,
      extends: [imports.type(RUNTIME, 'InMemoryOptions')],
      properties: [{ name: 'tableName', type: print(keyword.string()), hasQuestionToken: true, docs: jsDoc(`The physical table name, as given to ${tableClassName(table)}. Default ${quote(table.name)}.`) }],
    },
    {
      kind: StructureKind.Function,
      name: names.create,
      isExported: true,
      docs: jsDoc(
        `The ${table.name} table in memory, for tests: a DynamoDBDocumentClient that answers what ${tableClassName(table)} sends as DynamoDB does (keys, indexes, conditions, transactions, limits${table.ttl === undefined ? '' : ', Time to Live'}${table.stream === undefined ? '' : ', the stream'}), with faults on demand.`,
        [
          {
            name: 'example',
            text: `\n${[
              `const memory = ${names.create}();`,
              `const db = new ${tableClassName(table)}(memory);`,
              `memory.injectFault({ fault: { kind: 'throttle' }, operations: ['PutItem'], times: 3 });`,
            ].join('\n')}`,
          },
        ],
      ),
      parameters: [param('options', typeRef(names.options), { initializer: '{}' })],
      returnType: print(typeRef(client)),
      statements: returns(createTable),
    },
  ];
  return { imports: imports.declarations(), statements };
}
