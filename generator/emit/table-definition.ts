// Emits the table definition: a function returning the CreateTable input for a physical name.
// The input is built as data here and printed as a literal; only the table name is a parameter.

import { StructureKind, type StatementStructures } from 'ts-morph';
import type { Projection, TableDef, Throughput } from '../../dsl/ir.js';
import { camelCase, printLiteral, quote, raw, type EmitContext } from './context.js';
import type { EmittedModule } from './entity.js';
import { jsDoc } from './ast.js';

function projection(p: Projection) {
  if (p === 'all') return { ProjectionType: 'ALL' };
  if (p === 'keys-only') return { ProjectionType: 'KEYS_ONLY' };
  return { ProjectionType: 'INCLUDE', NonKeyAttributes: [...p] };
}

const warm = (t: Throughput) => ({ ReadUnitsPerSecond: t.read, WriteUnitsPerSecond: t.write });

/** The CreateTable input of a table, without TableName. */
export function createTableInput(table: TableDef): Record<string, unknown> {
  const keyNames = new Set<string>([table.key.pk, ...(table.key.sk === undefined ? [] : [table.key.sk])]);
  const keySchema = (pk: string, sk: string | undefined) => [{ AttributeName: pk, KeyType: 'HASH' }, ...(sk === undefined ? [] : [{ AttributeName: sk, KeyType: 'RANGE' }])];
  const provisioned = table.capacity.mode === 'provisioned' ? { ReadCapacityUnits: table.capacity.read, WriteCapacityUnits: table.capacity.write } : undefined;
  const indexes = Object.values(table.indexes);
  const gsis = indexes.flatMap((index) => {
    if (index.kind !== 'gsi') return [];
    keyNames.add(index.pk);
    if (index.sk !== undefined) keyNames.add(index.sk);
    const own = index.capacity ? { ReadCapacityUnits: index.capacity.read, WriteCapacityUnits: index.capacity.write } : provisioned;
    return [{
      IndexName: index.name,
      KeySchema: keySchema(index.pk, index.sk),
      Projection: projection(index.projection),
      ...(provisioned ? { ProvisionedThroughput: own } : {}),
      ...(index.warmThroughput ? { WarmThroughput: warm(index.warmThroughput) } : {}),
    }];
  });
  const lsis = indexes.flatMap((index) => {
    if (index.kind !== 'lsi') return [];
    keyNames.add(index.sk);
    return [{ IndexName: index.name, KeySchema: keySchema(table.key.pk, index.sk), Projection: projection(index.projection) }];
  });
  return {
    AttributeDefinitions: [...keyNames].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: keySchema(table.key.pk, table.key.sk),
    ...(provisioned ? { BillingMode: 'PROVISIONED', ProvisionedThroughput: provisioned } : { BillingMode: 'PAY_PER_REQUEST' }),
    ...(table.capacity.warmThroughput ? { WarmThroughput: warm(table.capacity.warmThroughput) } : {}),
    ...(gsis.length ? { GlobalSecondaryIndexes: gsis } : {}),
    ...(lsis.length ? { LocalSecondaryIndexes: lsis } : {}),
  };
}

export const tableDefinitionName = (table: TableDef) => `${camelCase(table.name)}TableDefinition`;

export function emitTableDefinition(table: TableDef, _ctx: EmitContext): EmittedModule {
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.Function,
      name: tableDefinitionName(table),
      isExported: true,
      docs: jsDoc(`The CreateTable input for the ${table.name} table, with its indexes.\n\n@param tableName the physical table name (default ${quote(table.name)})`),
      parameters: [{ name: 'tableName', type: 'string', initializer: quote(table.name) }],
      returnType: 'CreateTableCommandInput',
      statements: `return ${printLiteral({ TableName: raw('tableName'), ...createTableInput(table) })};`,
    },
  ];
  return { imports: [{ moduleSpecifier: '@aws-sdk/client-dynamodb', isTypeOnly: true, namedImports: ['CreateTableCommandInput'] }], statements };
}
