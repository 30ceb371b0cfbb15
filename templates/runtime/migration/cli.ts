// The command line of a program emitted by `ddbgen diff --emit-migration`, and its Lambda entry.
// One process migrates the segments it is given with checkpoints in a folder; with --coordinate,
// any number of processes share the run through a lease table (lease.ts); `status` prints a
// coordinated run's progress (run-status.ts) and `cleanup` removes it from the lease table
// (run-cleanup.ts). A mistyped option is a usage line (exit 2), never a stack.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { runMigration } from './engine.js';
import { runWorker, type WorkerReport } from './lease.js';
import type { MigrationPlan } from './plan.js';
import { cleanupRun } from './run-cleanup.js';
import { migrationStatus, statusText } from './run-status.js';

/** The options, as `--help` prints them. */
export function migrationUsage(program: string, plan: MigrationPlan): string {
  return `usage: npx tsx ${program} [options]             migrate in this process (checkpoints in a folder)
       npx tsx ${program} --coordinate [options]   one worker of a run shared through a lease table
       npx tsx ${program} status [options]          progress and ETA of a coordinated run
       npx tsx ${program} cleanup [options]         remove a coordinated run (no worker alive) from the lease table, and the table once empty

  --table NAME         physical table (default ${plan.tableName})
  --segments N         parallel scan segments of the run (default 4; with --coordinate 16, the first worker's count is the run's)
  --segment I          only this segment (repeatable; without --coordinate)
  --checkpoints DIR    checkpoint folder (default .ddbgen-checkpoints/${plan.id})
  --max-wcu N          write cap in consumed WCU/s: this process's, or with --coordinate the whole run's (the first worker's),
                       shared out by the segments each worker holds (default ${plan.maxWcu})
  --page-size N        items per Scan page (default 100)
  --coordinate         share the run with other workers through the lease table
  --lease-table NAME   lease table, created when missing (default <table>-migration)
  --lease-seconds S    a worker silent this long loses its segments to the others (default 20; the first worker's is the run's,
                       kept in the lease table, so status and cleanup judge liveness by it and need no --lease-seconds)
  --format text|json   how status prints (default text)
  --endpoint URL       DynamoDB endpoint (DynamoDB Local: http://localhost:8000)
  --region R           AWS region (default: the SDK's)
  -h, --help           this text
`;
}

class UsageError extends Error {}

function positiveInteger(name: string, value: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1 || n > max) throw new UsageError(`--${name} must be a whole number from 1 to ${max.toLocaleString('en-US')}, got "${value}"`);
  return n;
}

function client(values: { endpoint?: string; region?: string }): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient({ ...(values.endpoint ? { endpoint: values.endpoint } : {}), ...(values.region ? { region: values.region } : {}) }), { marshallOptions: { removeUndefinedValues: true } });
}

/**
 * Runs the command line: progress on stderr, the final report (JSON) or the status on stdout.
 * Exit 0 done, 1 failure (a foreign checkpoint, DynamoDB refusing), 2 usage error.
 */
export async function migrationMain(plan: MigrationPlan, argv: readonly string[], program = `migrate-${plan.tableName}.ts`): Promise<number> {
  const out = (text: string) => process.stdout.write(text);
  const err = (text: string) => process.stderr.write(text);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        segments: { type: 'string' },
        segment: { type: 'string', multiple: true },
        table: { type: 'string' },
        checkpoints: { type: 'string' },
        'max-wcu': { type: 'string' },
        'page-size': { type: 'string' },
        coordinate: { type: 'boolean' },
        'lease-table': { type: 'string' },
        'lease-seconds': { type: 'string' },
        format: { type: 'string' },
        endpoint: { type: 'string' },
        region: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    err(`${program}: ${(error as Error).message}\nrun npx tsx ${program} --help for the options\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(migrationUsage(program, plan));
    return 0;
  }
  let run: (db: DynamoDBDocumentClient) => Promise<void>;
  try {
    const command = positionals[0];
    if (positionals.length > 1 || (command !== undefined && command !== 'status' && command !== 'cleanup')) throw new UsageError(`unknown command "${positionals.join(' ')}": the commands are status and cleanup`);
    if (values.format !== undefined && !['text', 'json'].includes(values.format)) throw new UsageError(`unknown --format "${values.format}": use text or json`);
    const coordinated = values.coordinate === true || command !== undefined;
    if (coordinated && (values.segment || values.checkpoints)) throw new UsageError(`--segment and --checkpoints are for a run in one process; coordinated workers share segments and checkpoints through the lease table`);
    if (!coordinated && (values['lease-table'] || values['lease-seconds'])) throw new UsageError('--lease-table and --lease-seconds need --coordinate (or the status or cleanup command)');
    const tableName = values.table ?? plan.tableName;
    const leaseTable = values['lease-table'] ?? `${tableName}-migration`;
    const leaseMs = (positiveInteger('lease-seconds', values['lease-seconds'], 3600) ?? 20) * 1000;
    const maxWcu = positiveInteger('max-wcu', values['max-wcu'], 1_000_000) ?? plan.maxWcu;
    const pageSize = positiveInteger('page-size', values['page-size'], 1000);
    const segments = positiveInteger('segments', values.segments, 1_000_000) ?? (coordinated ? 16 : 4);
    const only = values.segment?.map((s: string) => {
      if (!/^\d+$/.test(s) || Number(s) >= segments) throw new UsageError(`--segment ${s} is not in 0..${segments - 1}`);
      return Number(s);
    });
    const log = (line: string) => err(`${line}\n`);
    if (command === 'cleanup') {
      run = async (db) => {
        const report = await cleanupRun(plan, { client: db, leaseTable });
        if (!report) throw new Error(`no coordinated run of migration ${plan.id} in lease table ${leaseTable}`);
        out(`removed migration ${plan.id} from lease table ${leaseTable} (${report.removed} items); ${report.tableDeleted ? 'deleted the lease table (no other run in it)' : 'kept the lease table (other runs are in it)'}\n`);
      };
    } else if (command === 'status') {
      run = async (db) => {
        const status = await migrationStatus(plan, { client: db, leaseTable, leaseMs });
        if (!status) throw new Error(`no coordinated run of migration ${plan.id} in lease table ${leaseTable}`);
        out(values.format === 'json' ? `${JSON.stringify(status)}\n` : `${statusText(status)}\n`);
      };
    } else if (coordinated) {
      run = async (db) => {
        const report = await runWorker(plan, { client: db, tableName, segments, leaseTable, leaseMs, maxWcu, log, ...(pageSize ? { pageSize } : {}) });
        out(`${JSON.stringify(report)}\n`);
      };
    } else {
      run = async (db) => {
        const report = await runMigration(plan, {
          client: db,
          tableName,
          segments,
          ...(only ? { only } : {}),
          checkpoints: path.resolve(values.checkpoints ?? path.join('.ddbgen-checkpoints', plan.id)),
          maxWcu,
          ...(pageSize ? { pageSize } : {}),
          log,
        });
        for (const s of report.skipped) err(`skipped ${JSON.stringify(s.key)}: ${s.reason}\n`);
        out(`${JSON.stringify(report)}\n`);
      };
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`${program}: ${error.message}\nrun npx tsx ${program} --help for the options\n`);
    return 2;
  }
  // the client only once the options are right (the SDK may print warnings when it is made)
  const db = client(values);
  try {
    await run(db);
    return 0;
  } catch (error) {
    err(`migration ${plan.id}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    db.destroy();
  }
}

/** What a Lambda invocation of a coordinated worker is told: its settings come from the environment. */
export interface LambdaContext {
  getRemainingTimeInMillis(): number;
}

/**
 * A Lambda handler running one coordinated worker until the run is done or the invocation is
 * about to time out (it hands its segments back a minute before). Settings from the environment:
 * MIGRATION_TABLE, MIGRATION_LEASE_TABLE, MIGRATION_SEGMENTS, MIGRATION_MAX_WCU (the run's cap).
 * Invoke it N times at once (a schedule, or N asynchronous invocations) for N workers.
 */
export function migrationHandler(plan: MigrationPlan): (event: unknown, context: LambdaContext) => Promise<WorkerReport> {
  return async (_event, context) => {
    const env = process.env;
    const tableName = env.MIGRATION_TABLE ?? plan.tableName;
    const db = client({});
    try {
      return await runWorker(plan, {
        client: db,
        tableName,
        leaseTable: env.MIGRATION_LEASE_TABLE ?? `${tableName}-migration`,
        segments: Number(env.MIGRATION_SEGMENTS ?? 16),
        maxWcu: Number(env.MIGRATION_MAX_WCU ?? plan.maxWcu),
        deadline: Date.now() + context.getRemainingTimeInMillis() - 60_000,
        log: (line) => console.log(line),
      });
    } finally {
      db.destroy();
    }
  };
}
