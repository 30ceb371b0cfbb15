// What `ddbgen diff --emit-migration` writes beside the program: plan.ts (with the declared types),
// the command line, the Lambda entry, the Dockerfile and the CloudFormation running N workers.
// The programs themselves run against DynamoDB Local in test/connected/migration-*.test.ts.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { main } from '../generator/cli/cli.js';
import { librarySchema } from './support/library-design.js';

const root = path.resolve(import.meta.dirname, '..');

test('the migration folder: plan, command line, Lambda entry, Dockerfile and CloudFormation for N workers', async (t) => {
  const dir = mkdtempSync(path.join(root, 'out', '.migration-emit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'old.ts'), librarySchema());
  writeFileSync(path.join(dir, 'new.ts'), librarySchema({ member: 'PATRON' }));
  t.is(await main(['diff', 'old.ts', 'new.ts', '--emit-migration', 'migrations'], { cwd: dir, stdout: () => {}, stderr: () => {} }), 0);
  const folder = path.join(dir, 'migrations', 'library');
  t.deepEqual(readdirSync(folder).sort(), ['Dockerfile', 'lambda-library.ts', 'migrate-library.ts', 'migration-workers.json', 'new', 'old', 'plan.ts']);
  const plan = readFileSync(path.join(folder, 'plan.ts'), 'utf8');
  t.regex(plan, /      declared: \{\n        memberId: \{ kind: 'string' \},\n        name: \{ kind: 'string' \},\n      \},/);
  t.regex(readFileSync(path.join(folder, 'lambda-library.ts'), 'utf8'), /export const handler = migrationHandler\(plan\);/);
  const docker = readFileSync(path.join(folder, 'Dockerfile'), 'utf8');
  t.regex(docker, /npm pkg set type=module/, 'the generated code is ES modules');
  t.regex(docker, /ENTRYPOINT \["npx", "tsx", "migrate-library.ts"\]\nCMD \["--coordinate"\]/);

  const template = JSON.parse(readFileSync(path.join(folder, 'migration-workers.json'), 'utf8'));
  const resources = template.Resources;
  t.deepEqual(Object.fromEntries(Object.entries(resources as Record<string, { Type: string }>).map(([name, r]) => [name, r.Type])), {
    Logs: 'AWS::Logs::LogGroup',
    Cluster: 'AWS::ECS::Cluster',
    ExecutionRole: 'AWS::IAM::Role',
    TaskRole: 'AWS::IAM::Role',
    Task: 'AWS::ECS::TaskDefinition',
    Workers: 'AWS::ECS::Service',
  });
  t.deepEqual(resources.Workers.Properties.DesiredCount, { Ref: 'Workers' }, 'N workers, a parameter');
  t.like(template.Parameters, { Workers: { Type: 'Number', Default: 4 }, TableName: { Default: 'Library' }, MaxWcu: { Default: 800 } });
  t.deepEqual(resources.Task.Properties.ContainerDefinitions[0].Command, ['--coordinate', '--table', { Ref: 'TableName' }, '--segments', { Ref: 'Segments' }, '--max-wcu', { Ref: 'MaxWcu' }]);
  // every reference names a parameter or a resource of the template
  const refs = JSON.stringify(template).match(/"Ref":"[^"]+"/g)!.map((r) => r.slice(7, -1));
  for (const ref of refs) t.true(ref in template.Parameters || ref in resources || ref.startsWith('AWS::'), ref);
  const [table, lease] = resources.TaskRole.Properties.Policies[0].PolicyDocument.Statement;
  t.deepEqual(table.Resource, { 'Fn::Sub': 'arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${TableName}' });
  t.true(['dynamodb:Scan', 'dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem', 'dynamodb:BatchGetItem'].every((a) => table.Action.includes(a)));
  t.true(['dynamodb:CreateTable', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'].every((a) => lease.Action.includes(a)));
});
