// Emits `<Table>Table`: one object that wires every entity's repository to a DocumentClient and
// a physical table name.

import { StructureKind, type StatementStructures } from 'ts-morph';
import type { TableDef } from '../../dsl/ir.js';
import { camelCase, entityFile, propertyKey, quote, tableClassName, type EmitContext } from './context.js';
import type { EmittedModule } from './entity.js';

export function emitTableClass(table: TableDef, _ctx: EmitContext): EmittedModule {
  const entities = Object.values(table.entities);
  const className = tableClassName(table);
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.Interface,
      name: `${className}Options`,
      isExported: true,
      properties: [
        {
          name: 'tableName',
          type: 'string',
          hasQuestionToken: true,
          docs: [{ kind: StructureKind.JSDoc, description: `The physical table name. Default ${quote(table.name)}.` }],
        },
      ],
    },
    {
      kind: StructureKind.Class,
      name: className,
      isExported: true,
      docs: [
        {
          kind: StructureKind.JSDoc,
          description:
            `The ${table.name} table: one repository per entity.\n\n@example\n` +
            `const db = new ${className}(DynamoDBDocumentClient.from(new DynamoDBClient({})));\n` +
            (entities[0] ? `await db.${camelCase(entities[0].name)}.get({ … });` : ''),
        },
      ],
      properties: [
        { name: 'tableName', type: 'string', isReadonly: true, docs: [{ kind: StructureKind.JSDoc, description: 'The physical table name in use.' }] },
        ...entities.map((e) => ({ name: propertyKey(camelCase(e.name)), type: `${e.name}Repository`, isReadonly: true })),
      ],
      ctors: [
        {
          parameters: [
            { name: 'client', type: 'DynamoDBDocumentClient' },
            { name: 'options', type: `${className}Options`, initializer: '{}' },
          ],
          statements: [
            `this.tableName = options.tableName ?? ${quote(table.name)};`,
            'const context: TableContext = { client, tableName: this.tableName };',
            ...entities.map((e) => `this.${camelCase(e.name)} = new ${e.name}Repository(context);`),
          ],
        },
      ],
    },
  ];
  return {
    imports: [
      { moduleSpecifier: '@aws-sdk/lib-dynamodb', isTypeOnly: true, namedImports: ['DynamoDBDocumentClient'] },
      { moduleSpecifier: './runtime/repository.js', isTypeOnly: true, namedImports: ['TableContext'] },
      ...entities.map((e) => ({ moduleSpecifier: `./${entityFile(e).replace(/\.ts$/, '.js')}`, namedImports: [`${e.name}Repository`] })),
    ],
    statements,
  };
}
