// Resource-based policies (`ddbgen iam --format resource-policy`, `ddbgen table --format
// cloudformation --resource-policy`): given/want for fixtures/fans.ts (a table with a stream), and,
// for every generated method of every fixture, each request allowed by the table's policy alone to
// the roles meant to send it, and denied to any other principal of the account — an administrator
// whose identity policy allows everything included — and to the same role name in another
// account. The stream's records are allowed to the stream consumer only, who reads nothing else.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { defineTable, entity, t as types } from '../dsl/index.js';
import fans from '../fixtures/fans.js';
import { main } from '../generator/cli/cli.js';
import type { TableDef } from '../dsl/ir.js';
import { iamJson, physicalName } from '../generator/iam/iam-formats.js';
import { iamPolicies } from '../generator/iam/policy-model.js';
import { accountPrincipals, RESOURCE_POLICY_MAX_BYTES, resourcePolicies, resourcePolicyJson, policyBytes } from '../generator/iam/resource-policy.js';
import { evaluate, type IamRequest, type PolicyDocument } from './support/iam-evaluator.js';
import { FIXTURES, meant, READS, run, show } from './support/generated-methods.js';

const root = path.resolve(import.meta.dirname, '..');
const ACCOUNT = '123456789012';
const OTHER_ACCOUNT = '210987654321';
/** Resources in ACCOUNT, any region (the generated-method runs send to eu-west-1 of it: generated-methods.ts arnOf). */
const arn = (table: TableDef, suffix: string) => `arn:aws:dynamodb:*:${ACCOUNT}:table/${physicalName(table, table.name)}${suffix}`;
const role = (name: string, account = ACCOUNT) => `arn:aws:iam::${account}:role/${name}`;
const caller = (request: IamRequest, principalArn: string, account = ACCOUNT): IamRequest => ({ ...request, context: { ...request.context, 'aws:PrincipalArn': principalArn, 'aws:PrincipalAccount': account, 'aws:PrincipalIsAWSService': 'false' } });
const ADMIN: PolicyDocument = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'dynamodb:*', Resource: '*' }] };

test('given fixtures/fans.ts, want: the table\'s policy (its indexes\' statements in it) and the stream\'s, each statement for the roles that have it, and a Deny of everyone else', (t) => {
  const { policies, notes } = resourcePolicies(iamPolicies([fans]), arn, accountPrincipals(ACCOUNT));
  t.deepEqual(notes, []);
  t.deepEqual(policies.map((p) => [p.table.name, p.resource, p.roles.join(' ')]), [
    ['Fans', 'table', 'FansReadOnly FansWriter FansUser FansActor FansSeries FansFan'],
    ['Fans', 'stream', 'FansStreamConsumer'],
  ]);
  t.deepEqual(policies[1]!.document, {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'FansStreamConsumerStreamRecords',
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` },
        Action: ['dynamodb:DescribeStream', 'dynamodb:GetShardIterator', 'dynamodb:GetRecords'],
        Resource: arn(fans, '/stream/*'),
        Condition: { ArnEquals: { 'aws:PrincipalArn': role('FansStreamConsumer') } },
      },
      {
        Sid: 'DenyOtherPrincipals',
        Effect: 'Deny',
        Principal: '*',
        Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
        Resource: arn(fans, '/stream/*'),
        Condition: { ArnNotLike: { 'aws:PrincipalArn': [role('FansStreamConsumer'), role('aws-service-role/*')] }, Bool: { 'aws:PrincipalIsAWSService': 'false' } },
      },
    ],
  });
  const table = policies[0]!.document.Statement as Array<{ Sid: string; Effect: string; Resource: unknown; Condition: Record<string, Record<string, unknown>> }>;
  t.deepEqual(table.at(-1)!.Resource, [arn(fans, ''), arn(fans, '/index/*')]);
  // ReadOnly's reads are Writer's too: one statement names both roles
  t.deepEqual(table[0]!.Condition['ArnEquals'], { 'aws:PrincipalArn': [role('FansReadOnly'), role('FansWriter')] });
  t.true(policyBytes(policies[0]!) <= RESOURCE_POLICY_MAX_BYTES);
});

test('the stream consumer reads the stream\'s records and nothing else; no other role reads the stream', (t) => {
  const { policies } = resourcePolicies(iamPolicies([fans]), arn, accountPrincipals(ACCOUNT));
  const documents = policies.map((p) => p.document as PolicyDocument);
  const records = (action: string): IamRequest => ({ action: `dynamodb:${action}`, resource: `arn:aws:dynamodb:eu-west-1:${ACCOUNT}:table/Fans/stream/2024-01-15T09:30:00.000`, context: {} });
  for (const action of ['DescribeStream', 'GetShardIterator', 'GetRecords']) {
    t.is(evaluate(documents, caller(records(action), role('FansStreamConsumer'))), 'allow', action);
    t.is(evaluate([ADMIN, ...documents], caller(records(action), role('FansWriter'))), 'deny', `${action} by the writer, whatever its identity policy`);
  }
  const get: IamRequest = { action: 'dynamodb:GetItem', resource: `arn:aws:dynamodb:eu-west-1:${ACCOUNT}:table/Fans`, context: { 'dynamodb:LeadingKeys': ['User.0000000001'] } };
  // its identity policy says the same
  const identity = iamJson(iamPolicies([fans])).policies.find((p) => p.name === 'FansStreamConsumer')!.document as PolicyDocument;
  t.deepEqual(['GetRecords', 'GetShardIterator', 'DescribeStream'].map((action) => evaluate([identity], records(action))), ['allow', 'allow', 'allow']);
  t.is(evaluate([identity], get), 'deny');
  t.is(evaluate([identity], { ...records('GetRecords'), resource: `arn:aws:dynamodb:eu-west-1:${ACCOUNT}:table/Other/stream/2024-01-15T09:30:00.000` }), 'deny', 'another table\'s stream');
  t.is(evaluate([ADMIN, ...documents], caller(get, role('FansStreamConsumer'))), 'deny', 'the consumer reads no item');
  t.is(evaluate(documents, { ...caller(records('GetRecords'), 'arn:aws:iam::123456789012:role/aws-service-role/replication.dynamodb.amazonaws.com/AWSServiceRoleForDynamoDBReplication') }), 'deny', 'a service-linked role is not denied, nor allowed: its own policies decide');
  t.is(evaluate([ADMIN, ...documents], caller(records('GetRecords'), 'arn:aws:iam::123456789012:role/aws-service-role/replication.dynamodb.amazonaws.com/AWSServiceRoleForDynamoDBReplication')), 'allow');
});

for (const fixture of FIXTURES) {
  test(`${fixture.folder}: the table's resource policy alone allows each generated method's requests to the roles meant to send them, and denies every other principal`, async (t) => {
    const plan = iamPolicies([fixture.table]);
    const { policies } = resourcePolicies(plan, arn, accountPrincipals(ACCOUNT));
    const documents = policies.map((p) => p.document as PolicyDocument);
    const { ran, failures } = await run(fixture);
    for (const { unit, requests } of ran) {
      const roles = meant(fixture, plan, unit, requests.every((r) => READS.has(r.action)));
      for (const request of requests) {
        for (const name of roles) if (evaluate(documents, caller(request, role(name))) !== 'allow') failures.push(`${unit.id}: ${name} is refused ${show(request)}`);
        if (evaluate([ADMIN, ...documents], caller(request, role('Admin'))) !== 'deny') failures.push(`${unit.id}: an administrator is let through ${show(request)}`);
        if (evaluate([ADMIN, ...documents], caller(request, role(roles[0]!, OTHER_ACCOUNT), OTHER_ACCOUNT)) !== 'deny') failures.push(`${unit.id}: ${roles[0]} of another account is let through ${show(request)}`);
      }
    }
    t.deepEqual(failures, []);
  });
}

test('a policy above DynamoDB\'s 20 KB keeps only its Deny, and says so', (t) => {
  const entities = Object.fromEntries(
    Array.from({ length: 60 }, (_, i) => [`Thing${i}`, entity({ attributes: { id: types.string(), at: types.timestamp() }, key: { pk: `Thing${i}#<id>` as never, sk: 'AT#<at>' as never } })]),
  );
  const big = defineTable({ name: 'Big', entities });
  const { policies, notes } = resourcePolicies(iamPolicies([big]), arn, accountPrincipals(ACCOUNT));
  t.deepEqual(policies[0]!.document.Statement.map((s) => (s as { Sid: string }).Sid), ['DenyOtherPrincipals']);
  t.regex(notes[0]!, /^Big: the table's resource policy would be \d+ bytes, above DynamoDB's 20480: it keeps only its Deny of other principals, and the roles' access comes from their identity policies$/);
});

test('the CLI: iam --format resource-policy needs --account; table --resource-policy puts the policies in the CloudFormation template, which the resource schema accepts', async (t) => {
  let stdout = '';
  let stderr = '';
  const cli = (...args: string[]) => {
    stdout = '';
    stderr = '';
    return main(args, { cwd: root, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  };
  t.is(await cli('iam', 'fixtures/fans.ts', '--format', 'resource-policy'), 2);
  t.regex(stderr, /^ddbgen: --format resource-policy names the roles allowed in the table's account: give --account with its 12-digit id\n/);
  t.is(await cli('iam', 'fixtures/fans.ts', '--format', 'resource-policy', '--account', '1234'), 2);
  t.regex(stderr, /^ddbgen: --account: "1234" is not an AWS account id \(12 digits\)\n/);
  t.is(await cli('iam', 'fixtures/fans.ts', '--account', ACCOUNT), 2);
  t.is(await cli('iam', 'fixtures/fans.ts', '--format', 'resource-policy', '--account', ACCOUNT), 0, stderr);
  t.deepEqual(JSON.parse(stdout), JSON.parse(resourcePolicyJson(iamPolicies([fans]), ACCOUNT).text));

  t.is(await cli('table', 'fixtures/fans.ts', '--resource-policy'), 2);
  t.regex(stderr, /^ddbgen: --resource-policy puts the resource-based policies in a CloudFormation template/);
  t.is(await cli('table', 'fixtures/fans.ts', '--format', 'cloudformation', '--resource-policy'), 0, stderr);
  const template = JSON.parse(stdout);
  const ajv = new Ajv({ allErrors: true });
  t.true(ajv.validate(JSON.parse(readFileSync(path.join(root, 'test/support/cloudformation-dynamodb-table.schema.json'), 'utf8')), template), ajv.errorsText());
  const properties = template.Resources.FansTable.Properties;
  t.is(properties.ResourcePolicy.PolicyDocument.Statement.at(-1).Sid, 'DenyOtherPrincipals');
  t.deepEqual(properties.StreamSpecification.ResourcePolicy.PolicyDocument.Statement[0].Resource, { 'Fn::Sub': 'arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/Fans/stream/*' });
  t.deepEqual(properties.StreamSpecification.ResourcePolicy.PolicyDocument.Statement[0].Condition.ArnEquals, { 'aws:PrincipalArn': { 'Fn::Sub': 'arn:${AWS::Partition}:iam::${AWS::AccountId}:role/FansStreamConsumer' } });
  t.is(await cli('table', 'fixtures/fans.ts', '--format', 'cloudformation-yaml', '--resource-policy'), 0, stderr);
  t.deepEqual(parseYaml(stdout), template, 'the YAML says the same');
  t.is(await cli('table', 'fixtures/fans.ts', '--format', 'cloudformation'), 0);
  t.is(JSON.parse(stdout).Resources.FansTable.Properties.ResourcePolicy, undefined, 'only when asked');
});
