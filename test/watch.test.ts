// generate --watch, as a real process: regenerates once per change of the schema's own import graph
// (not of the app's files), stamps each run with the time, keeps the last good output
// through a broken save, leaves unchanged files alone, and stops cleanly on Ctrl-C (SIGINT).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { main } from '../generator/cli/cli.js';
import { importGraph } from '../generator/cli/watch.js';

const root = path.resolve(import.meta.dirname, '..');

test('watch: regenerate, survive a broken save, stop on SIGINT', async (t) => {
  t.timeout(600_000); // generous: each step waits up to 2 minutes on a busy machine
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-watch-'));
  await main(['init'], { cwd: dir, stdout: () => undefined, stderr: () => undefined });
  const schema = path.join(dir, 'schema.ts');
  const original = readFileSync(schema, 'utf8');
  const child = spawn(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'generate', '--watch'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const until = async (test: () => boolean, what: string) => {
    for (const deadline = Date.now() + 120_000; Date.now() < deadline && !test(); ) await new Promise((r) => setTimeout(r, 100));
    if (!test()) throw new Error(`timed out waiting for ${what}\nstdout: ${stdout}\nstderr: ${stderr}`);
  };
  try {
    await until(() => stderr.includes('watching'), 'the watcher');
    const user = path.join(dir, 'out/app/user.ts');
    const order = path.join(dir, 'out/app/order.ts');
    const orderTime = statSync(order).mtimeMs;
    const runs = () => stdout.split('\n').filter((l) => l.startsWith('ddbgen: out/app')).length;
    t.is(runs(), 1);

    writeFileSync(schema, original.replace('createdAt: t.timestamp(),', 'createdAt: t.timestamp(),\n        nickname: t.string().optional(),'));
    await until(() => readFileSync(user, 'utf8').includes('nickname?: string;'), 'the regenerated user.ts');
    await new Promise((r) => setTimeout(r, 500));
    t.is(runs(), 2, 'one change, one regeneration');
    t.is(statSync(order).mtimeMs, orderTime, 'an unchanged file is not rewritten');
    t.regex(stderr, /^\[\d\d:\d\d:\d\d\] ddbgen: schema\.ts changed, regenerating$/m, 'each run is stamped with the time');

    writeFileSync(path.join(dir, 'app.ts'), "import { AppTable } from './out/app/index.js';\nexport const table = AppTable;\n");
    writeFileSync(path.join(dir, 'notes.ts'), 'export const unrelated = 1;\n');
    await new Promise((r) => setTimeout(r, 1000));
    t.is(runs(), 2, 'the app\'s own files are not in the schema\'s import graph: no regeneration');

    writeFileSync(schema, original.replace("pk: 'USER#<id>'", "pk: 'USER#<idd>'"));
    await until(() => stderr.includes('error DDB030'), 'the error report');
    t.true(readFileSync(user, 'utf8').includes('nickname?: string;'), 'the last good output is kept');

    writeFileSync(schema, original);
    await until(() => !readFileSync(user, 'utf8').includes('nickname'), 'the fixed output');
  } finally {
    child.kill('SIGINT');
  }
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  t.is(code, 0, 'Ctrl-C exits cleanly');
});

test('the import graph a watch follows: the schema and its local imports, transitively; not packages, not other files', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-graph-'));
  mkdirSync(path.join(dir, 'parts'));
  writeFileSync(path.join(dir, 'schema.ts'), "import { defineTable } from 'ddbgen';\nimport { user } from './user.js';\nimport { order } from './parts';\nexport default defineTable({ name: 'A', entities: { user, order } });\n");
  writeFileSync(path.join(dir, 'user.ts'), "import type { Shared } from './shared.mjs';\nexport const user = {} as Shared;\n");
  writeFileSync(path.join(dir, 'shared.mts'), 'export type Shared = object;\n');
  writeFileSync(path.join(dir, 'parts', 'index.ts'), 'export const order = {};\n');
  writeFileSync(path.join(dir, 'app.ts'), "import './schema.js';\n");
  const graph = [...importGraph([path.join(dir, 'schema.ts')])].map((f) => path.relative(dir, f)).sort();
  t.deepEqual(graph, ['parts/index.ts', 'schema.ts', 'shared.mts', 'user.ts']);
});
