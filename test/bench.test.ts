// Smoke test: the benchmark suite still runs end to end at its smallest size (--smoke), with its
// correctness gates (every contender returns the same items; no batch item is lost under injected
// UnprocessedItems). No number is asserted: speed goals live in BENCHMARKS.md (`npm run bench`).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

// the bench's own dependencies (the peers, esbuild), installed once before either test runs: an
// install while the other test reads bench/node_modules would pull them from under it
test.before(async (t) => {
  t.timeout(600_000); // an install from the registry in a fresh clone
  if (!existsSync(path.join(root, 'bench/node_modules/.package-lock.json'))) await exec('npm', ['--prefix', 'bench', 'ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root });
});

// --smoke, every section in one process: each process pays tsx, loading the peers and the SDK, and
// generating the bench's schema again (about 7 CPU-seconds), and the sections share one DynamoDB
// Local (the run's, when npm test hands one over). Section 9 (the test suite itself) is no part of --smoke.
const HEADINGS = [
  '## 1. Client-side overhead',
  '## 2. Through the real SDK',
  '## 3. Type-check cost',
  '## 4. Generation',
  '## 5. End to end on DynamoDB Local',
  '## 6. Footprint',
  '## 7. Gather over 16 shards',
  '## 8. The in-memory table',
  '## 11. `ddbgen local` against DynamoDB Local',
  '## 13. Cold start of a Lambda-style handler',
];
test.serial('bench/run.ts --smoke runs every section', async (t) => {
  t.timeout(900_000); // generous: a busy shared machine slows every process it starts
  const { stdout } = await exec(process.execPath, ['--import=tsx', 'bench/run.ts', '--smoke'], { cwd: root, maxBuffer: 1 << 26 });
  for (const heading of HEADINGS) t.true(stdout.includes(heading), heading);
  t.regex(stdout, /With 30 % of every batch returned as UnprocessedItems: (\d+) of \1 items landed/);
});

test('bench/instantiations.ts attributes every instantiation tsc counts, per-entity declarations summed', async (t) => {
  t.timeout(600_000);
  const { writeSynthetic } = await import('../bench/synthetic.js');
  const dir = path.join(root, 'bench/out/synthetic-attribution');
  writeSynthetic(dir, 3);
  await exec(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'generate', path.join(dir, 'schema.ts'), '--out', path.join(dir, 'out')], { cwd: root });
  const tsconfig = path.join(dir, 'tsconfig.ddbgen.json');
  const { stdout: counted } = await exec(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', tsconfig, '--extendedDiagnostics'], { cwd: root });
  // in this process, both attributions over one parse of the project's files (600 declaration files,
  // most of the time; the checks themselves take a fraction of a second)
  const { attribute } = await import('../bench/instantiations.js');
  const sourceFiles = new Map();
  const stdout = attribute([tsconfig, '--top', '1000'], sourceFiles);
  const total = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1]?.replace(/,/g, ''));
  t.is(total(stdout, /: ([\d,]+) instantiations and/), total(counted, /^Instantiations:\s+(\d+)/m));
  // as the app's compiler sees it: the generated bodies are not checked again (// @ts-nocheck), only the calls
  t.notRegex(stdout, /thingN\.ts FunctionDeclaration/);
  // --bodies, as ddbgen's own check sees them: the three entities' get operations (each declared once, typed by the shared shape), one row
  const bodies = attribute([tsconfig, '--top', '1000', '--bodies'], sourceFiles);
  t.regex(bodies, /\| 3 \| [\d.]+ \| [\d.]+ \| thingN\.ts VariableStatement thingNGet \|/);
  t.true(total(bodies, /: ([\d,]+) instantiations and/) > total(stdout, /: ([\d,]+) instantiations and/));
});
