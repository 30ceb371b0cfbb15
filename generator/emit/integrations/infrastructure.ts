// The table definition for infrastructure tools, from the same CreateTable input: a CloudFormation
// resource (JSON or YAML) and a CDK snippet (TypeScript, printed from data and formatted). Both are
// the same resource, AWS::DynamoDB::Table (CDK's `Table` construct, not `TableV2`, which makes an
// AWS::DynamoDB::GlobalTable: switching a deployed table between the two replaces it), and both keep
// the table and its data when the stack deletes or replaces it (Retain).

import { Project, ts } from 'ts-morph';
import { stringify } from 'yaml';
import type { TableDef, Throughput } from '../../../dsl/ir.js';
import { fileHeader, printLiteral, raw } from '../context.js';
import { STREAM_VIEW_TYPES } from './stream.js';
import { createTableInput, tableSettingsInput } from '../table/table-definition.js';

type KeyElement = { AttributeName: string; KeyType: 'HASH' | 'RANGE' };
type Projection = { ProjectionType: string; NonKeyAttributes?: string[] };
type IndexInput = { IndexName: string; KeySchema: KeyElement[]; Projection: Projection };

const warm = (t: Throughput) => ({ readUnitsPerSecond: t.read, writeUnitsPerSecond: t.write });

/**
 * `{ Parameters, Resources: { SocialTable: { Type: 'AWS::DynamoDB::Table', DeletionPolicy: 'Retain', …, Properties } }, Outputs }`
 * for the tables. Each table's physical name is a parameter (`SocialTableName`, defaulting to the
 * schema's name), so one template deploys a table per stage (`--parameter-overrides
 * SocialTableName=social-prod`); the outputs give its ARN (and its stream's) to other stacks.
 */
export function cloudFormation(tables: readonly TableDef[]): Record<string, unknown> {
  const properties = (t: TableDef) => {
    const input: Record<string, unknown> = { ...createTableInput(t), ...tableSettingsInput(t) };
    // CloudFormation's StreamSpecification has no StreamEnabled: declaring it turns the stream on
    if (t.stream) input['StreamSpecification'] = { StreamViewType: STREAM_VIEW_TYPES[t.stream] };
    return input;
  };
  const resource = (t: TableDef) => ({ Type: 'AWS::DynamoDB::Table', DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain', Properties: { TableName: { Ref: `${t.name}TableName` }, ...properties(t) } });
  const parameter = (t: TableDef) => ({
    Type: 'String',
    Default: t.name,
    AllowedPattern: '[a-zA-Z0-9_.-]{3,255}',
    Description: `The physical name of the ${t.name} table: one per stage (e.g. ${t.name.toLowerCase()}-prod), given to the generated ${t.name}Table as tableName`,
  });
  const outputs = (t: TableDef) => [
    [`${t.name}TableArn`, { Description: `The ARN of the ${t.name} table`, Value: { 'Fn::GetAtt': [`${t.name}Table`, 'Arn'] } }],
    ...(t.stream ? [[`${t.name}TableStreamArn`, { Description: `The ARN of the ${t.name} table's stream`, Value: { 'Fn::GetAtt': [`${t.name}Table`, 'StreamArn'] } }]] : []),
  ];
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Parameters: Object.fromEntries(tables.map((t) => [`${t.name}TableName`, parameter(t)])),
    Resources: Object.fromEntries(tables.map((t) => [`${t.name}Table`, resource(t)])),
    Outputs: Object.fromEntries(tables.flatMap(outputs)),
  };
}

/** A CloudFormation template (`cloudFormation`'s, possibly with more in it) as YAML. */
export function cloudFormationYaml(template: Record<string, unknown>): string {
  // Quoted, or YAML 1.1 parsers read the version as a date.
  return stringify(template, { lineWidth: 0 }).replace(/^AWSTemplateFormatVersion: 2010-09-09$/m, "AWSTemplateFormatVersion: '2010-09-09'");
}

/** A function per table that adds a CDK (aws-cdk-lib) `Table` construct to a scope, as a TypeScript snippet importing only what it uses. */
export function cdkSnippet(tables: readonly TableDef[]): string {
  const used = new Set<string>(['Table', 'AttributeType']);
  const TYPES: Record<string, string> = { S: 'STRING', N: 'NUMBER', B: 'BINARY' };
  let types: Record<string, string> = {};
  const key = (element: KeyElement | undefined) => (element ? { name: element.AttributeName, type: raw(`AttributeType.${TYPES[types[element.AttributeName] ?? 'S']}`) } : undefined);
  // a native multi-attribute GSI key: every HASH element in partitionKeys, every RANGE element in sortKeys
  const gsiKeys = (schema: KeyElement[]) =>
    schema.filter((k) => k.KeyType === 'HASH').length > 1 || schema.filter((k) => k.KeyType === 'RANGE').length > 1
      ? { partitionKeys: schema.filter((k) => k.KeyType === 'HASH').map(key), ...(range(schema) ? { sortKeys: schema.filter((k) => k.KeyType === 'RANGE').map(key) } : {}) }
      : { partitionKey: key(schema[0]), sortKey: key(range(schema)) };
  const projection = (p: Projection) => {
    used.add('ProjectionType');
    return {
      projectionType: raw(`ProjectionType.${p.ProjectionType === 'ALL' ? 'ALL' : p.ProjectionType === 'KEYS_ONLY' ? 'KEYS_ONLY' : 'INCLUDE'}`),
      ...(p.NonKeyAttributes ? { nonKeyAttributes: p.NonKeyAttributes } : {}),
    };
  };
  const range = (schema: KeyElement[]) => schema.find((k) => k.KeyType === 'RANGE');
  const constructs = tables.map((table) => {
    const input = createTableInput(table) as { AttributeDefinitions: Array<{ AttributeName: string; AttributeType: string }>; KeySchema: KeyElement[]; GlobalSecondaryIndexes?: IndexInput[]; LocalSecondaryIndexes?: IndexInput[] };
    types = Object.fromEntries(input.AttributeDefinitions.map((d) => [d.AttributeName, d.AttributeType]));
    used.add('BillingMode');
    const capacity = table.capacity.mode === 'provisioned' ? { billingMode: raw('BillingMode.PROVISIONED'), readCapacity: table.capacity.read, writeCapacity: table.capacity.write } : { billingMode: raw('BillingMode.PAY_PER_REQUEST') };
    const settings = {
      ...(table.capacity.warmThroughput ? { warmThroughput: warm(table.capacity.warmThroughput) } : {}),
      ...(table.onDemandMax?.readRequestUnits === undefined ? {} : { maxReadRequestUnits: table.onDemandMax.readRequestUnits }),
      ...(table.onDemandMax?.writeRequestUnits === undefined ? {} : { maxWriteRequestUnits: table.onDemandMax.writeRequestUnits }),
      ...(table.ttl === undefined ? {} : { timeToLiveAttribute: table.ttl }),
      ...(table.pointInTimeRecovery === undefined ? {} : { pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: table.pointInTimeRecovery.days } }),
      ...(table.deletionProtection === undefined ? {} : { deletionProtection: table.deletionProtection }),
    };
    if (table.stream) used.add('StreamViewType');
    const stream = table.stream ? { stream: raw(`StreamViewType.${STREAM_VIEW_TYPES[table.stream]}`) } : {};
    const props = { tableName: raw(`options.tableName ?? ${printLiteral(table.name)}`), partitionKey: key(input.KeySchema[0]), sortKey: key(range(input.KeySchema)), ...capacity, ...settings, ...stream, removalPolicy: raw('RemovalPolicy.RETAIN') };
    const provisioned = (g: IndexInput & { ProvisionedThroughput?: { ReadCapacityUnits: number; WriteCapacityUnits: number } }) =>
      g.ProvisionedThroughput ? { readCapacity: g.ProvisionedThroughput.ReadCapacityUnits, writeCapacity: g.ProvisionedThroughput.WriteCapacityUnits } : {};
    const gsiWarm = (name: string) => {
      const index = table.indexes[name];
      return index !== undefined && index.kind !== 'lsi' && index.warmThroughput ? { warmThroughput: warm(index.warmThroughput) } : {};
    };
    const tags = Object.entries(table.tags ?? {});
    if (tags.length) used.add('Tags');
    const indexes = [
      ...(input.GlobalSecondaryIndexes ?? []).map((g) => `table.addGlobalSecondaryIndex(${printLiteral({ indexName: g.IndexName, ...gsiKeys(g.KeySchema), ...projection(g.Projection), ...provisioned(g), ...gsiWarm(g.IndexName) })});`),
      ...(input.LocalSecondaryIndexes ?? []).map((l) => `table.addLocalSecondaryIndex(${printLiteral({ indexName: l.IndexName, sortKey: key(range(l.KeySchema)), ...projection(l.Projection) })});`),
      ...tags.map(([k, v]) => `Tags.of(table).add(${printLiteral(k)}, ${printLiteral(v)});`),
    ];
    const name = `${table.name.charAt(0).toLowerCase()}${table.name.slice(1)}Table`;
    return [
      `/** The ${table.name} table (AWS::DynamoDB::Table), kept with its data when the stack deletes or replaces it; \`tableName\` names it per stage (default ${printLiteral(table.name)}). */`,
      `export function ${name}(scope: Construct, options: { readonly tableName?: string } = {}): Table {`,
      `const table = new Table(scope, ${printLiteral(`${table.name}Table`)}, ${printLiteral(props)});`,
      ...indexes,
      'return table;',
      '}',
    ].join('\n');
  });
  const text = [
    `import { ${['RemovalPolicy', 'Tags'].filter((n) => n === 'RemovalPolicy' || used.has(n)).join(', ')} } from 'aws-cdk-lib';`,
    `import { ${['AttributeType', 'BillingMode', 'ProjectionType', 'StreamViewType', 'Table'].filter((n) => used.has(n)).join(', ')} } from 'aws-cdk-lib/aws-dynamodb';`,
    "import type { Construct } from 'constructs';",
    '',
    constructs.join('\n\n'),
  ].join('\n');
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile('table.ts', text);
  file.formatText({ indentSize: 2, convertTabsToSpaces: true, semicolons: ts.SemicolonPreference.Insert });
  return `${fileHeader()}\n\n${file.getFullText()}`;
}
