// Shared by the connected migration tests: runs an emitted migration program as a real process
// (optionally killed by pid once it has checkpointed some pages), type-checks it as a user's strict
// compiler would, and gives each test DynamoDB Local and a scratch folder under out/.
//
// The program is run as one file that esbuild (the transformer tsx uses) bundled from it, its
// generated modules and the SDK: the same code in a real process, without tsx's loader thread and
// the module-by-module resolution of about 200 files, which cost about 1.2 CPU-seconds a run. A run
// with `loader: 'tsx'` runs it as its header tells a user (`npx tsx migrate-….ts`).

import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ExecutionContext, TestFn } from 'ava';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { buildSync } from 'esbuild';
import { main } from '../../generator/cli/cli.js';
import { nativeCompiler } from '../../generator/emit/output/native-check.js';
import { useDynamoDbLocal, type LocalDynamo } from './dynamodb-local.js';

export const root = path.resolve(import.meta.dirname, '../..');

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Items scanned as the checkpoint files in `dir` count them (a file being replaced is read as 0). */
function checkpointed(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .reduce((sum, f) => {
      try {
        return sum + (JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { counts: { scanned: number } }).counts.scanned;
      } catch {
        return sum;
      }
    }, 0);
}

/** How a program is run: as one bundled file (the default), or by tsx as its header says. */
export interface RunOptions {
  readonly loader?: 'bundle' | 'tsx';
}

const bundles = new Map<string, string>();

/** The program bundled into one ES module beside it (once per program file), as esbuild bundles a Lambda. */
function bundled(program: string): string {
  const key = `${program} ${statSync(program).mtimeMs}`;
  let file = bundles.get(key);
  if (!file) {
    file = path.join(path.dirname(program), `.${path.basename(program, '.ts')}.bundle.mjs`);
    buildSync({
      entryPoints: [program],
      outfile: file,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node.split('.')[0]}`,
      logLevel: 'error',
      // the SDK's CommonJS modules ask for Node's built-ins by require, which an ES module lacks
      banner: { js: "import { createRequire as ddbgenCreateRequire } from 'node:module'; const require = ddbgenCreateRequire(import.meta.url);" },
    });
    bundles.set(key, file);
  }
  return file;
}

/** Starts the emitted program and returns at once: its pid, its stderr so far, and its end. */
export function startProgram(program: string, args: string[], endpoint: string, options: RunOptions = {}): { readonly pid: number; readonly stderr: () => string; readonly done: Promise<Run> } {
  const entry = options.loader === 'tsx' ? ['--import=tsx', program] : [bundled(program)];
  const child = spawn(process.execPath, [...entry, '--endpoint', endpoint, '--region', 'local', ...args], {
    cwd: path.dirname(program),
    env: { ...process.env, AWS_ACCESS_KEY_ID: 'ddbgen', AWS_SECRET_ACCESS_KEY: 'local' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { pid: child.pid!, stderr: () => stderr, done };
}

/** Runs the emitted program; `kill` ends it by pid once its checkpoints count `scanned` items. */
export async function runProgram(program: string, args: string[], endpoint: string, kill?: { checkpoints: string; scanned: number }, options: RunOptions = {}): Promise<Run> {
  const { pid, done } = startProgram(program, args, endpoint, options);
  const timer = kill
    ? setInterval(() => {
        if (checkpointed(kill.checkpoints) < kill.scanned) return;
        clearInterval(timer); // once: the process may take longer than a tick to be gone
        process.kill(pid, 'SIGKILL');
      }, 20)
    : undefined;
  try {
    return await done;
  } finally {
    clearInterval(timer);
  }
}

/**
 * Type-checks an emitted program as a user's strict compiler sees it: the compiler's output, empty
 * when it compiles. The compiler is tsgo when installed, as `ddbgen generate` checks with it (about
 * 1.2 CPU-seconds against tsc's 4.2): the point is that the program compiles under a user's strict
 * options, nothing particular to TypeScript 6; without tsgo (or with DDBGEN_TYPE_CHECKER=typescript)
 * it is tsc.
 */
export function typeCheckProgram(dir: string, ...files: string[]): Promise<string> {
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: true, noEmit: true, types: ['node'] }, files }),
  );
  const native = nativeCompiler();
  const [command, args] = native ? [native.exe, ['-p', dir, '--pretty', 'false']] : [process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir]];
  return promisify(execFile)(command, args).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
}

let started: Promise<LocalDynamo> | undefined;

/**
 * One DynamoDB Local for the test files of a worker (one file, or a group's) whose tests each use
 * tables of their own: started by the first test that asks, stopped after the last.
 */
export function sharedDynamoDbLocal(test: TestFn): () => Promise<LocalDynamo> {
  test.after.always(async () => {
    const local = started;
    started = undefined;
    if (local) await (await local).stop();
  });
  return () => (started ??= useDynamoDbLocal());
}

/** DynamoDB Local (`shared`, or one of its own) and a scratch folder under out/, both gone when the test ends (a shared one stays). */
export async function workspace(t: ExecutionContext, shared?: LocalDynamo): Promise<{ local: LocalDynamo; dir: string }> {
  const local = shared ?? (await useDynamoDbLocal());
  const dir = path.join(root, 'out', `.migration-${randomUUID()}`);
  t.teardown(async () => {
    if (!shared) await local.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  mkdirSync(dir, { recursive: true });
  return { local, dir };
}

/** Runs `ddbgen diff old new --emit-migration migrations` in `dir`: the exit code, stdout and stderr. */
export async function emitMigration(dir: string, args: readonly string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(['diff', ...args, '--emit-migration', 'migrations'], { cwd: dir, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

/** emitLibraryMigration's emissions by their schema pair. */
const emitted = new Map<string, Promise<{ run: Run; folder: string }>>();

/**
 * `ddbgen diff old.ts new.ts --emit-migration migrations` of two schema texts, run once per pair in
 * a process, in a folder of its own under out/ (removed when the process exits): the run and the
 * migration's folder (migrations/library). An emission costs about 2 CPU-seconds (two tables
 * generated and checked), and the tests of a file mostly share one change; the emitted modules
 * hold no state, and each test makes a table of its own.
 */
export function emitLibraryMigration(old: string, next: string): Promise<{ run: Run; folder: string }> {
  const key = JSON.stringify([old, next]);
  let emission = emitted.get(key);
  if (!emission) {
    const dir = path.join(root, 'out', `.migration-${randomUUID()}`);
    mkdirSync(dir, { recursive: true });
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, 'old.ts'), old);
    writeFileSync(path.join(dir, 'new.ts'), next);
    emission = emitMigration(dir, ['old.ts', 'new.ts']).then((run) => ({ run, folder: path.join(dir, 'migrations', 'library') }));
    emitted.set(key, emission);
  }
  return emission;
}

/**
 * The library migration from `old` to `next` (schema texts; emitLibraryMigration), with a fresh
 * table created in the new shape: the plan, the coordinated runtime (the worker, status and cleanup
 * of runtime/migration/lease.js, run-status.js and run-cleanup.js, as one object),
 * the new output's index module, the table's name and the migration's folder.
 */
export async function libraryMigration(t: ExecutionContext, local: LocalDynamo, old: string, next: string): Promise<{ plan: any; lease: any; after: any; tableName: string; folder: string }> {
  const { run, folder } = await emitLibraryMigration(old, next);
  t.is(run.code, 0, run.stderr);
  const { plan } = await import(path.join(folder, 'plan.ts'));
  const runtime = path.join(folder, 'new', 'library', 'runtime', 'migration');
  const lease = { ...(await import(path.join(runtime, 'lease.js'))), ...(await import(path.join(runtime, 'run-status.js'))), ...(await import(path.join(runtime, 'run-cleanup.js'))) };
  const after = await import(path.join(folder, 'new', 'library', 'index.js'));
  const tableName = `library-${randomUUID()}`;
  await local.createTable(after.libraryTableDefinition(tableName));
  return { plan, lease, after, tableName, folder };
}

/** Writes raw records (as another writer would), 25 per batch, until none is left unprocessed. */
export async function putRaw(documents: DynamoDBDocumentClient, tableName: string, records: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  for (let i = 0; i < records.length; i += 25) {
    let requests: unknown[] = records.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (requests.length) {
      const result = await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests as never } }));
      requests = result.UnprocessedItems?.[tableName] ?? [];
    }
  }
}
