// Table settings in every export: the CreateTable input (what CreateTable takes), the calls that
// finish the table (UpdateTimeToLive, UpdateContinuousBackups), CloudFormation (schema-checked, and
// cfn-lint when it is installed) and the CDK snippet; a table without settings exports none.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { Ajv } from 'ajv';
import { snippetProblems } from './support/snippet-check.js';
import { defineTable, entity, gsi, t as types } from '../dsl/index.js';
import { cdkSnippet, cloudFormation } from '../generator/emit/integrations/infrastructure.js';
import { createTableInput, hasTableSettings, tableSettingsInput } from '../generator/emit/table/table-definition.js';
import sessions from '../fixtures/sessions.js';
import social from '../fixtures/social.js';

const root = path.resolve(import.meta.dirname, '..');

test('CreateTable takes warm throughput, the on-demand maximum, deletion protection and tags', (t) => {
  const input = createTableInput(sessions);
  t.like(input, {
    BillingMode: 'PAY_PER_REQUEST',
    WarmThroughput: { ReadUnitsPerSecond: 15000, WriteUnitsPerSecond: 5000 },
    OnDemandThroughput: { MaxReadRequestUnits: 20000, MaxWriteRequestUnits: 6000 },
    DeletionProtectionEnabled: true,
    Tags: [{ Key: 'team', Value: 'identity' }, { Key: 'cost-center', Value: 'cc-42' }],
  });
  t.false('TimeToLiveSpecification' in input, 'CreateTable takes no TTL');
  t.false('PointInTimeRecoverySpecification' in input, 'CreateTable takes no point-in-time recovery');
});

test('the calls after CreateTable: UpdateTimeToLive and UpdateContinuousBackups', (t) => {
  t.deepEqual(tableSettingsInput(sessions), {
    TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 7 },
  });
  const generated = readFileSync(path.join(root, 'out/sessions/table-definition.ts'), 'utf8');
  t.true(generated.includes(
    [
      'export function sessionsTableSettings(',
      "  tableName: string = 'Sessions',",
      '): {',
      '  timeToLive: UpdateTimeToLiveCommandInput;',
      '  continuousBackups: UpdateContinuousBackupsCommandInput;',
      '} {',
      '  return {',
      '    timeToLive: {',
      '      TableName: tableName,',
      "      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },",
      '    },',
      '    continuousBackups: {',
      '      TableName: tableName,',
      '      PointInTimeRecoverySpecification: {',
      '        PointInTimeRecoveryEnabled: true,',
      '        RecoveryPeriodInDays: 7,',
      '      },',
      '    },',
      '  };',
      '}',
    ].join('\n'),
  ));
  const onlyTtl = defineTable({ name: 'Ttl', ttl: 'expiresAt', entities: { A: entity({ attributes: { id: types.string(), expiresAt: types.timestamp() }, key: { pk: 'A#<id>', sk: 'A' } }) } });
  t.deepEqual(tableSettingsInput(onlyTtl), { TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true } });
  t.false(hasTableSettings(social), 'no settings, no function');
  t.false(readFileSync(path.join(root, 'out/social/table-definition.ts'), 'utf8').includes('TableSettings'));
});

test('CloudFormation carries every setting under AWS::DynamoDB::Table property names', async (t) => {
  const template = cloudFormation([sessions]) as { Resources: { SessionsTable: { Properties: Record<string, unknown> } } };
  const { TableName, AttributeDefinitions, KeySchema, GlobalSecondaryIndexes, ...settings } = template.Resources.SessionsTable.Properties;
  t.deepEqual(settings, {
    BillingMode: 'PAY_PER_REQUEST',
    WarmThroughput: { ReadUnitsPerSecond: 15000, WriteUnitsPerSecond: 5000 },
    OnDemandThroughput: { MaxReadRequestUnits: 20000, MaxWriteRequestUnits: 6000 },
    DeletionProtectionEnabled: true,
    Tags: [{ Key: 'team', Value: 'identity' }, { Key: 'cost-center', Value: 'cc-42' }],
    TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 7 },
  });
  t.truthy(TableName && AttributeDefinitions && KeySchema && GlobalSecondaryIndexes);
  const ajv = new Ajv({ allErrors: true });
  const schema = JSON.parse(readFileSync(path.join(root, 'test/support/cloudformation-dynamodb-table.schema.json'), 'utf8'));
  t.true(ajv.validate(schema, template), ajv.errorsText());
  // cfn-lint checks the template against AWS's own resource specification, when it is installed.
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-cfn-'));
  const file = path.join(dir, 'template.json');
  writeFileSync(file, JSON.stringify(template));
  const linted = await promisify(execFile)('cfn-lint', [file]).then(() => 'clean', (error: NodeJS.ErrnoException & { stdout?: string }) => (error.code === 'ENOENT' ? 'absent' : `findings:\n${error.stdout}`));
  if (linted === 'absent') t.log('cfn-lint is not installed: checked against the JSON schema only');
  else t.is(linted, 'clean');
});

test('CDK: the Table construct gets every setting, tags through Tags.of', (t) => {
  const cdk = cdkSnippet([sessions]);
  t.true(cdk.includes("import { RemovalPolicy, Tags } from 'aws-cdk-lib';"));
  t.true(cdk.includes(
    [
      "    billingMode: BillingMode.PAY_PER_REQUEST,",
      '    warmThroughput: { readUnitsPerSecond: 15000, writeUnitsPerSecond: 5000 },',
      '    maxReadRequestUnits: 20000,',
      '    maxWriteRequestUnits: 6000,',
      "    timeToLiveAttribute: 'expiresAt',",
      '    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 7 },',
      '    deletionProtection: true,',
      '    removalPolicy: RemovalPolicy.RETAIN,',
    ].join('\n'),
  ), cdk);
  t.true(cdk.includes("  Tags.of(table).add('team', 'identity');\n  Tags.of(table).add('cost-center', 'cc-42');\n  return table;"));
  const warmIndex = cdkSnippet([defineTable({ name: 'W', indexes: { byX: gsi({ pk: 'gsi1pk', warmThroughput: { read: 13000, write: 4500 } }) }, entities: { A: entity({ attributes: { id: types.string(), x: types.string() }, key: { pk: 'A#<id>', sk: 'A' }, indexes: { byX: { pk: 'X#<x>' } } }) } })]);
  t.true(warmIndex.includes('warmThroughput: { readUnitsPerSecond: 13000, writeUnitsPerSecond: 4500 },'), warmIndex);
  t.true(warmIndex.includes("import { RemovalPolicy } from 'aws-cdk-lib';"), 'no Tags import without tags');
  for (const text of [cdk, warmIndex]) {
    t.deepEqual(snippetProblems(text), []);
  }
});

test('the physical table name is per stage: a CloudFormation parameter (default the schema name) and a CDK option; ARNs are outputs', (t) => {
  const streamed = defineTable({ name: 'Feed', stream: 'new-image', entities: { A: entity({ attributes: { id: types.string() }, key: { pk: 'A#<id>', sk: 'A' } }) } });
  const template = cloudFormation([streamed]) as { Parameters: Record<string, { Default: string; AllowedPattern: string }>; Resources: { FeedTable: { Properties: { TableName: unknown } } }; Outputs: Record<string, { Value: unknown }> };
  t.like(template.Parameters['FeedTableName'], { Default: 'Feed', AllowedPattern: '[a-zA-Z0-9_.-]{3,255}' });
  t.deepEqual(template.Resources.FeedTable.Properties.TableName, { Ref: 'FeedTableName' });
  t.deepEqual(Object.fromEntries(Object.entries(template.Outputs).map(([k, v]) => [k, v.Value])), {
    FeedTableArn: { 'Fn::GetAtt': ['FeedTable', 'Arn'] },
    FeedTableStreamArn: { 'Fn::GetAtt': ['FeedTable', 'StreamArn'] },
  });
  const cdk = cdkSnippet([streamed]);
  t.regex(cdk, /export function feedTable\(scope: Construct, options: \{ readonly tableName\?: string; \} = \{\}\): Table \{/);
  t.regex(cdk, /tableName: options\.tableName \?\? 'Feed',/);
});
