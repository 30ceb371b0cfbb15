// Emits the table definition: a function returning the CreateTable input for a physical name.
// The input is built as data here and printed as a literal (ast.ts); only the table name is a
// parameter. With ttl or point-in-time recovery, a second function returns the inputs of the calls
// that apply them.

import { StructureKind } from '../../ts-morph.js';
import type { StatementStructures } from 'ts-morph';
import type { OnDemandMaximum, Projection, TableDef, Throughput } from '../../../dsl/ir.js';
import { indexProjection } from '../../model/access-paths.js';
import { nativeKeyTypes, type ScalarType } from '../../model/native-keys.js';
import { camelCase, quote, type EmitContext } from '../context.js';
import type { EmittedModule } from '../context.js';
import { STREAM_VIEW_TYPES } from '../integrations/stream.js';
import { id, Imports, jsDoc, keyword, literal, obj, objectType, print, returns, str, typeRef } from '../ast.js';
import { param } from '../operations/repository-crud.js';

function projection(p: Projection) {
  if (p === 'all') return { ProjectionType: 'ALL' };
  if (p === 'keys-only') return { ProjectionType: 'KEYS_ONLY' };
  return { ProjectionType: 'INCLUDE', NonKeyAttributes: [...p] };
}

const warm = (t: Throughput) => ({ ReadUnitsPerSecond: t.read, WriteUnitsPerSecond: t.write });

/** The CreateTable input of a table, without TableName. */
export function createTableInput(table: TableDef): Record<string, unknown> {
  // every key attribute with its type: synthetic keys are strings; a native key's attributes are stored as the entities declare them
  const keyNames = new Map<string, ScalarType>([[table.key.pk, 'S'], ...(table.key.sk === undefined ? [] : [[table.key.sk, 'S'] as const])]);
  const keySchema = (pk: string, sk: string | undefined) => [{ AttributeName: pk, KeyType: 'HASH' }, ...(sk === undefined ? [] : [{ AttributeName: sk, KeyType: 'RANGE' }])];
  const provisioned = table.capacity.mode === 'provisioned' ? { ReadCapacityUnits: table.capacity.read, WriteCapacityUnits: table.capacity.write } : undefined;
  const indexes = Object.values(table.indexes);
  const gsis = indexes.flatMap((index) => {
    if (index.kind === 'lsi') return [];
    let schema: Array<{ AttributeName: string; KeyType: string }>;
    if (index.kind === 'native-gsi') {
      const types = nativeKeyTypes(table, index);
      for (const key of [...index.pk, ...index.sk]) keyNames.set(key, types[key]!);
      schema = [...index.pk.map((key) => ({ AttributeName: key, KeyType: 'HASH' })), ...index.sk.map((key) => ({ AttributeName: key, KeyType: 'RANGE' }))];
    } else {
      keyNames.set(index.pk, 'S');
      if (index.sk !== undefined) keyNames.set(index.sk, 'S');
      schema = keySchema(index.pk, index.sk);
    }
    const own = index.capacity ? { ReadCapacityUnits: index.capacity.read, WriteCapacityUnits: index.capacity.write } : provisioned;
    return [{
      IndexName: index.indexName ?? index.name,
      KeySchema: schema,
      Projection: projection(indexProjection(table, index)),
      ...(provisioned ? { ProvisionedThroughput: own } : {}),
      ...(index.warmThroughput ? { WarmThroughput: warm(index.warmThroughput) } : {}),
    }];
  });
  const lsis = indexes.flatMap((index) => {
    if (index.kind !== 'lsi') return [];
    keyNames.set(index.sk, 'S');
    return [{ IndexName: index.indexName ?? index.name, KeySchema: keySchema(table.key.pk, index.sk), Projection: projection(indexProjection(table, index)) }];
  });
  return {
    AttributeDefinitions: [...keyNames].map(([name, type]) => ({ AttributeName: name, AttributeType: type })),
    KeySchema: keySchema(table.key.pk, table.key.sk),
    ...(provisioned ? { BillingMode: 'PROVISIONED', ProvisionedThroughput: provisioned } : { BillingMode: 'PAY_PER_REQUEST' }),
    ...(table.capacity.warmThroughput ? { WarmThroughput: warm(table.capacity.warmThroughput) } : {}),
    ...(table.onDemandMax ? { OnDemandThroughput: onDemandThroughput(table.onDemandMax) } : {}),
    ...(gsis.length ? { GlobalSecondaryIndexes: gsis } : {}),
    ...(lsis.length ? { LocalSecondaryIndexes: lsis } : {}),
    ...(table.stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPES[table.stream] } } : {}),
    ...(table.deletionProtection === undefined ? {} : { DeletionProtectionEnabled: table.deletionProtection }),
    ...(table.tags && Object.keys(table.tags).length ? { Tags: Object.entries(table.tags).map(([Key, Value]) => ({ Key, Value })) } : {}),
  };
}

const onDemandThroughput = (max: OnDemandMaximum) => ({
  ...(max.readRequestUnits === undefined ? {} : { MaxReadRequestUnits: max.readRequestUnits }),
  ...(max.writeRequestUnits === undefined ? {} : { MaxWriteRequestUnits: max.writeRequestUnits }),
});

/**
 * The settings CreateTable does not take, as the inputs of the calls that apply them once the table
 * is ACTIVE: UpdateTimeToLive (the ttl attribute) and UpdateContinuousBackups (point-in-time
 * recovery). CloudFormation and CDK set them on the resource itself.
 */
export function tableSettingsInput(table: TableDef): { TimeToLiveSpecification?: { AttributeName: string; Enabled: true }; PointInTimeRecoverySpecification?: { PointInTimeRecoveryEnabled: true; RecoveryPeriodInDays: number } } {
  return {
    ...(table.ttl === undefined ? {} : { TimeToLiveSpecification: { AttributeName: table.ttl, Enabled: true as const } }),
    ...(table.pointInTimeRecovery === undefined ? {} : { PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true as const, RecoveryPeriodInDays: table.pointInTimeRecovery.days } }),
  };
}

export const tableDefinitionName = (table: TableDef) => `${camelCase(table.name)}TableDefinition`;
export const tableSettingsName = (table: TableDef) => `${camelCase(table.name)}TableSettings`;
/** Whether the table has settings applied after CreateTable (and so a `<table>TableSettings` function). */
export const hasTableSettings = (table: TableDef) => Object.keys(tableSettingsInput(table)).length > 0;

export function emitTableDefinition(table: TableDef, _ctx: EmitContext): EmittedModule {
  const imports = new Imports();
  const sdkInput = (name: string) => typeRef(imports.type('@aws-sdk/client-dynamodb', name));
  const tableName = param('tableName', keyword.string(), { initializer: print(str(table.name)) });
  const tableNameDoc = `tableName the physical table name (default ${quote(table.name)})`;
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.Function,
      name: tableDefinitionName(table),
      isExported: true,
      docs: jsDoc(`The CreateTable input for the ${table.name} table, with its indexes.`, [{ name: 'param', text: tableNameDoc }]),
      parameters: [tableName],
      returnType: print(sdkInput('CreateTableCommandInput')),
      statements: returns(literal({ TableName: id('tableName'), ...createTableInput(table) })),
    },
  ];
  const { TimeToLiveSpecification, PointInTimeRecoverySpecification } = tableSettingsInput(table);
  // each setting: the member of the function's result, the SDK input type, and what the doc says of it
  const settings = [
    ...(TimeToLiveSpecification
      ? [{ name: 'timeToLive', type: 'UpdateTimeToLiveCommandInput', input: { TimeToLiveSpecification }, doc: `timeToLive (UpdateTimeToLiveCommand: items expire at their ${table.ttl})` }]
      : []),
    ...(PointInTimeRecoverySpecification
      ? [{ name: 'continuousBackups', type: 'UpdateContinuousBackupsCommandInput', input: { PointInTimeRecoverySpecification }, doc: `continuousBackups (UpdateContinuousBackupsCommand: point-in-time recovery over ${PointInTimeRecoverySpecification.RecoveryPeriodInDays} days)` }]
      : []),
  ];
  if (settings.length) {
    statements.push({
      kind: StructureKind.Function,
      name: tableSettingsName(table),
      isExported: true,
      docs: jsDoc(`The settings CreateTable does not take, as the inputs of the calls that apply them once the ${table.name} table is ACTIVE: ${settings.map((s) => s.doc).join(', ')}.`, [
        { name: 'param', text: tableNameDoc },
      ]),
      parameters: [tableName],
      returnType: print(objectType(settings.map((s) => ({ name: s.name, type: sdkInput(s.type) })))),
      statements: returns(obj(settings.map((s) => [s.name, literal({ TableName: id('tableName'), ...s.input })]))),
    });
  }
  return { imports: imports.declarations(), statements };
}
