// Writes the migration of each table whose stored items move (rewritten keys, index backfills,
// re-keyed edges): both schema versions' generated code (old/ and new/, so each item is parsed with
// the old codec and built with the new), the migration runtime beside the new code, plan.ts (the
// entities and edges that move, the declared types, the migration's identity and default write
// cap), the command line migrate-<table>.ts, a Lambda entry, a Dockerfile and CloudFormation
// running N coordinated workers.

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AttributeDef, TableDef } from '../../dsl/ir.js';
import { writeOutput } from '../emit/output/write-output.js';
import { BANNER, camelCase, entityFile, quote, tableFolder } from '../emit/context.js';
import { generateTable } from '../emit/generate.js';
import { planTable } from '../plan/capacity-plan.js';
import { KEY_CODEC_VERSION } from '../../templates/runtime/codec.js';
import type { KeyCodecVersion } from './compare-tables.js';
import type { LocatedChange, TablePair } from './located-change.js';

/** 80 % of one partition's 1,000 WCU/s: a rewrite that lands on one partition still cannot throttle it. */
const PARTITION_CAP = 800;

/**
 * The default write cap of a migration, in WCU/s: the spare write capacity of the table (provisioned
 * units, or on-demand's 4,000 WRU warm start, less the declared write load) halved, and never more
 * than 80 % of one partition.
 */
export function defaultMaxWcu(table: TableDef): number {
  const declared = planTable(table).totals.writeUnits;
  const capacity = table.capacity.mode === 'provisioned' ? table.capacity.write : 4000;
  return Math.max(1, Math.min(PARTITION_CAP, Math.floor((capacity - declared) / 2)));
}

/**
 * The migration's identity: its table, both versions' IR, the old key codec and the edges it moves
 * (a program that moves edges does not resume from one that left them alone). A checkpoint of
 * another migration has another id.
 */
export function migrationId(before: TableDef, after: TableDef, oldCodec: KeyCodecVersion = KEY_CODEC_VERSION, edges: readonly string[] = []): string {
  const inputs = [before, after, ...(oldCodec === KEY_CODEC_VERSION ? [] : [{ keyCodec: oldCodec }]), ...(edges.length ? [{ edges }] : [])];
  return `${tableFolder(after)}-${createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 12)}`;
}

/** An attribute declaration as the runtime's DeclaredType: kind, optional and the bounds a stored value is checked against. */
function declaredType(def: AttributeDef): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: def.kind };
  if (def.optional) out.optional = true;
  if (def.kind === 'string' && def.maxBytes !== undefined) out.maxBytes = def.maxBytes;
  if (def.kind === 'number') for (const f of ['min', 'max', 'integer'] as const) if (def[f] !== undefined) out[f] = def[f];
  if (def.kind === 'enum') out.values = def.values;
  if (def.kind === 'list') Object.assign(out, { of: declaredType(def.of) }, def.maxItems === undefined ? {} : { maxItems: def.maxItems });
  if (def.kind === 'map') out.fields = Object.fromEntries(Object.entries(def.fields).map(([name, field]) => [name, declaredType(field)]));
  return out;
}

/** Plain data as a TypeScript literal: `{ kind: 'enum', values: ['A', 'B'] }`. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).map(([key, v]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key)}: ${literal(v)}`);
    return fields.length ? `{ ${fields.join(', ')} }` : '{}';
  }
  return typeof value === 'string' ? quote(value) : String(value);
}

/** A plan entry, one field a line; `declared` holds the new schema's attribute declarations. */
function entry(fields: ReadonlyArray<[string, string]>, attributes: Readonly<Record<string, AttributeDef>>): string {
  const types = Object.entries(attributes).map(([name, def]) => [name, declaredType(def)] as const);
  const declared = types.length ? `{\n${types.map(([name, type]) => `        ${/^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name)}: ${literal(type)},`).join('\n')}\n      }` : '{}';
  return `    {\n${[...fields, ['declared', declared]].map(([k, v]) => `      ${k}: ${v},`).join('\n')}\n    },`;
}

type Moved = ReadonlyArray<{ name: string; kind: 'rewrite' | 'backfill' | 'edge'; reasons: string[] }>;

/** plan.ts: the migration's entities and edges (old and new models), its identity and default cap. */
function planModule(before: TableDef, after: TableDef, moved: Moved, oldCodec: KeyCodecVersion): string {
  const folder = tableFolder(after);
  const entities = moved.filter((m) => m.kind !== 'edge');
  const edges = moved.filter((m) => m.kind === 'edge');
  const edgeModel = (name: string) => `${camelCase(name)}EdgeModel`;
  const migrated = new Set(entities.map((e) => e.name));
  const unchanged = Object.values(before.entities).filter((e) => !migrated.has(e.name) && after.entities[e.name]);
  const imports = [
    `import type { MigrationPlan } from './new/${folder}/runtime/migration/plan.js';`,
    `import { fromStored } from './old/${folder}/runtime/item.js';`,
    ...entities.flatMap((e) => {
      const module = entityFile(after.entities[e.name]!).replace(/\.ts$/, '.js');
      return [`import { ${camelCase(e.name)}Model as old${e.name} } from './old/${folder}/${module}';`, `import { ${camelCase(e.name)}Model as new${e.name} } from './new/${folder}/${module}';`];
    }),
    ...unchanged.map((e) => `import { ${camelCase(e.name)}Model as old${e.name} } from './old/${folder}/${entityFile(e).replace(/\.ts$/, '.js')}';`),
    ...(edges.length
      ? [
          `import { ${edges.map((e) => `${edgeModel(e.name)} as old${e.name}Edge`).join(', ')} } from './old/${folder}/edges.js';`,
          `import { ${edges.map((e) => `${edgeModel(e.name)} as new${e.name}Edge`).join(', ')} } from './new/${folder}/edges.js';`,
        ]
      : []),
  ];
  const movedEdges = new Set(edges.map((e) => e.name));
  return `${BANNER}

// What the migration of table ${after.name} moves:
${moved.map((e) => `//   ${e.name}: ${e.kind === 'rewrite' ? 'rewrites keys' : e.kind === 'edge' ? 'moves both halves of every edge' : 'backfills index attributes'} (${e.reasons.join('; ')})`).join('\n')}
${oldCodec === KEY_CODEC_VERSION ? '' : `// The stored keys were written by key codec v${oldCodec}: old/ reads them as v${oldCodec}, new/ writes v${KEY_CODEC_VERSION}.\n`}
${imports.join('\n')}

export const plan: MigrationPlan = {
  id: ${quote(migrationId(before, after, oldCodec, edges.map((e) => e.name)))},
  tableName: ${quote(after.name)},
  entities: [
${entities.map((e) => entry([['name', quote(e.name)], ['kind', quote(e.kind)], ['from', `old${e.name}`], ['to', `new${e.name}`]], after.entities[e.name]!.attributes)).join('\n')}
  ],
  unchanged: [${unchanged.map((e) => `old${e.name}`).join(', ')}],
  edges: [${edges.map((e) => `\n${entry([['name', quote(e.name)], ['from', `old${e.name}Edge`], ['to', `new${e.name}Edge`]], after.edges[e.name]!.attributes)}`).join('')}${edges.length ? '\n  ' : ''}],
  edgePrefixes: [${Object.values(before.edges).filter((e) => !movedEdges.has(e.name)).flatMap((e) => [e.forward, ...(e.inverse === undefined ? [] : [e.inverse])]).map((label) => quote(label + before.delimiter)).join(', ')}],
  decode: fromStored,
  maxWcu: ${defaultMaxWcu(after)},
};
`;
}

/** migrate-<table>.ts: the command line (one process, a coordinated worker, status or cleanup). */
function cliModule(after: TableDef): string {
  const folder = tableFolder(after);
  const program = `migrate-${folder}.ts`;
  return `${BANNER}

// Migrates the stored items of table ${after.name} (what moves: plan.ts). In one process, every
// segment here or each in its own process (same --segments), with checkpoints in a folder:
//   npx tsx ${program} [--segments 8] [--segment 3] [--table NAME] [--checkpoints DIR] [--max-wcu N] [--page-size N] [--endpoint URL] [--region R]
// Or as any number of coordinated workers sharing one run and one cap through a lease table
// (start more at any time; a dead worker's segments are taken over from their checkpoints):
//   npx tsx ${program} --coordinate [--segments 16] [--table NAME] [--lease-table NAME] [--lease-seconds 20] [--max-wcu N] [--page-size N] [--endpoint URL] [--region R]
//   npx tsx ${program} status [--format json]      progress, workers, items/s and ETA
//   npx tsx ${program} cleanup                     remove the run from the lease table (no worker alive); a new run sweeps again
// A stopped run resumes where it stopped; re-running a finished one changes nothing. --help lists every option.

import { migrationMain } from './new/${folder}/runtime/migration/cli.js';
import { plan } from './plan.js';

process.exitCode = await migrationMain(plan, process.argv.slice(2), ${quote(program)});
`;
}

/** lambda-<table>.ts: one coordinated worker per invocation (settings from the environment). */
function lambdaModule(after: TableDef): string {
  const folder = tableFolder(after);
  return `${BANNER}

// A Lambda handler running one coordinated worker of the migration of table ${after.name}: it
// works until the run is done or its invocation has a minute left, then hands its segments back.
// Invoke it N times at once (e.g. an EventBridge schedule with N targets) for N workers. Environment:
// MIGRATION_TABLE, MIGRATION_LEASE_TABLE, MIGRATION_SEGMENTS, MIGRATION_MAX_WCU (the whole run's cap).
// Deploy it as an ES module (bundled, e.g. esbuild --bundle --format=esm --platform=node, or this
// folder with "type": "module"), with a role allowed the calls migration-workers.json grants.

import { migrationHandler } from './new/${folder}/runtime/migration/cli.js';
import { plan } from './plan.js';

export const handler = migrationHandler(plan);
`;
}

/** A container image of the program: its entry point is the command line, run with --coordinate by default. */
function dockerfile(after: TableDef): string {
  return `# The migration of table ${after.name} as a container: each container is one coordinated worker.
#   docker build -t ${tableFolder(after)}-migration . && docker run ${tableFolder(after)}-migration --coordinate --table NAME
FROM public.ecr.aws/docker/library/node:20-slim
WORKDIR /migration
COPY . .
RUN npm init -y >/dev/null && npm pkg set type=module && npm install --no-audit --no-fund tsx@4 @aws-sdk/client-dynamodb@3 @aws-sdk/lib-dynamodb@3
ENTRYPOINT ["npx", "tsx", "migrate-${tableFolder(after)}.ts"]
CMD ["--coordinate"]
`;
}

/**
 * CloudFormation running N coordinated workers as an ECS Fargate service of the container above,
 * with a task role allowed exactly the calls a worker makes on the table and the lease table.
 */
export function workersTemplate(after: TableDef): Record<string, unknown> {
  const folder = tableFolder(after);
  const table = { 'Fn::Sub': 'arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${TableName}' };
  const leaseTable = { 'Fn::Sub': 'arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${TableName}-migration' };
  const tasks = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ecs-tasks.amazonaws.com' }, Action: 'sts:AssumeRole' }] };
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Description: `N coordinated workers of the ddbgen migration of table ${after.name} (migrate-${folder}.ts --coordinate)`,
    Parameters: {
      ImageUri: { Type: 'String', Description: 'The image built from this folder\'s Dockerfile' },
      Workers: { Type: 'Number', Default: 4, MinValue: 1, Description: 'Worker containers; change it at any time, the run rebalances' },
      TableName: { Type: 'String', Default: after.name },
      Segments: { Type: 'Number', Default: 16, Description: 'Scan segments of the run (fixed by its first worker)' },
      MaxWcu: { Type: 'Number', Default: defaultMaxWcu(after), Description: 'Write cap of the whole run, in consumed WCU/s' },
      Subnets: { Type: 'List<AWS::EC2::Subnet::Id>', Description: 'Subnets with a route to DynamoDB and the image registry' },
    },
    Resources: {
      Logs: { Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 14 } },
      Cluster: { Type: 'AWS::ECS::Cluster' },
      ExecutionRole: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: tasks, ManagedPolicyArns: [{ 'Fn::Sub': 'arn:${AWS::Partition}:iam::aws:policy/service-role/AmazonECSTaskExecutionRolePolicy' }] } },
      TaskRole: {
        Type: 'AWS::IAM::Role',
        Properties: {
          AssumeRolePolicyDocument: tasks,
          Policies: [
            {
              PolicyName: 'migrate',
              PolicyDocument: {
                Version: '2012-10-17',
                Statement: [
                  { Effect: 'Allow', Action: ['dynamodb:DescribeTable', 'dynamodb:Scan', 'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'], Resource: table },
                  { Effect: 'Allow', Action: ['dynamodb:CreateTable', 'dynamodb:DescribeTable', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Query', 'dynamodb:BatchWriteItem'], Resource: leaseTable },
                ],
              },
            },
          ],
        },
      },
      Task: {
        Type: 'AWS::ECS::TaskDefinition',
        Properties: {
          RequiresCompatibilities: ['FARGATE'],
          NetworkMode: 'awsvpc',
          Cpu: '1024',
          Memory: '2048',
          ExecutionRoleArn: { 'Fn::GetAtt': ['ExecutionRole', 'Arn'] },
          TaskRoleArn: { 'Fn::GetAtt': ['TaskRole', 'Arn'] },
          ContainerDefinitions: [
            {
              Name: 'worker',
              Image: { Ref: 'ImageUri' },
              Command: ['--coordinate', '--table', { Ref: 'TableName' }, '--segments', { Ref: 'Segments' }, '--max-wcu', { Ref: 'MaxWcu' }],
              LogConfiguration: { LogDriver: 'awslogs', Options: { 'awslogs-group': { Ref: 'Logs' }, 'awslogs-region': { Ref: 'AWS::Region' }, 'awslogs-stream-prefix': 'migration' } },
            },
          ],
        },
      },
      Workers: {
        Type: 'AWS::ECS::Service',
        Properties: {
          Cluster: { Ref: 'Cluster' },
          LaunchType: 'FARGATE',
          DesiredCount: { Ref: 'Workers' },
          TaskDefinition: { Ref: 'Task' },
          NetworkConfiguration: { AwsvpcConfiguration: { Subnets: { Ref: 'Subnets' }, AssignPublicIp: 'ENABLED' } },
        },
      },
    },
  };
}

/**
 * Writes one migration folder per table with items to move; returns the program files written.
 * With `oldCodec` 1 the old schema's copy reads (and builds) keys as key codec v1 wrote them.
 */
export function emitMigrations(pairs: readonly TablePair[], changes: readonly LocatedChange[], dir: string, oldCodec: KeyCodecVersion = KEY_CODEC_VERSION): string[] {
  const written: string[] = [];
  for (const { before, after } of pairs) {
    if (!before || !after) continue;
    const moves = changes.filter((c) => c.table === after.table.name && c.migrate);
    if (!moves.length) continue;
    // one entry per entity (a key rewrite also writes its index attributes) and per edge
    const moved = new Map<string, { name: string; kind: 'rewrite' | 'backfill' | 'edge'; reasons: string[] }>();
    for (const { migrate, change } of moves) {
      const name = 'edge' in migrate! ? migrate.edge : migrate!.entity;
      const id = `${migrate!.kind === 'edge' ? 'edge' : 'entity'} ${name}`;
      const entry = moved.get(id) ?? { name, kind: migrate!.kind, reasons: [] };
      if (migrate!.kind === 'rewrite') entry.kind = 'rewrite';
      entry.reasons.push(change);
      moved.set(id, entry);
    }
    const folder = tableFolder(after.table);
    const root = path.join(dir, folder);
    // the program reads items with the old code's fromStored and runs the new code's migration engine
    writeOutput(path.join(root, 'old'), [generateTable(before.table, path.join(root, 'old'), { runtime: ['item'], keepCache: false, ...(oldCodec === 1 ? { keyCodec: 1 as const } : {}) }).files]);
    writeOutput(path.join(root, 'new'), [generateTable(after.table, path.join(root, 'new'), { runtime: ['migration/cli'], keepCache: false }).files]);
    writeFileSync(path.join(root, 'plan.ts'), planModule(before.table, after.table, [...moved.values()], oldCodec));
    writeFileSync(path.join(root, `lambda-${folder}.ts`), lambdaModule(after.table));
    writeFileSync(path.join(root, 'Dockerfile'), dockerfile(after.table));
    writeFileSync(path.join(root, 'migration-workers.json'), `${JSON.stringify(workersTemplate(after.table), null, 2)}\n`);
    const file = path.join(root, `migrate-${folder}.ts`);
    writeFileSync(file, cliModule(after.table));
    written.push(file);
  }
  return written;
}
