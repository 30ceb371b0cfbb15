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

// --smoke in two runs of its sections, one after the other (each run writes bench/out/bench), so
// neither needs more than a few minutes on a busy machine: the runtime's sections (stubbed client,
// the real SDK, DynamoDB Local, gather, the in-memory table, ddbgen local, a handler's cold start), then the compilers' and
// bundlers' (type-check cost, generation, footprint). Together they are every section of --smoke.
const SMOKE = [
  { sections: '1,2,5,7,8,11,13', headings: ['## 1. Client-side overhead', '## 2. Through the real SDK', '## 5. End to end on DynamoDB Local', '## 7. Gather over 16 shards', '## 8. The in-memory table', '## 11. `ddbgen local` against DynamoDB Local', '## 13. Cold start of a Lambda-style handler'] },
  { sections: '3,4,6', headings: ['## 3. Type-check cost', '## 4. Generation', '## 6. Footprint'] },
];
for (const { sections, headings } of SMOKE) {
  test.serial(`bench/run.ts --smoke runs sections ${sections}`, async (t) => {
    t.timeout(600_000); // generous: a busy shared machine slows every process it starts
    const { stdout } = await exec(process.execPath, ['--import=tsx', 'bench/run.ts', '--smoke', '--only', sections], { cwd: root, maxBuffer: 1 << 26 });
    for (const heading of headings) t.true(stdout.includes(heading), heading);
    if (sections.split(',').includes('5')) t.regex(stdout, /With 30 % of every batch returned as UnprocessedItems: (\d+) of \1 items landed/);
  });
}

test('bench/instantiations.ts attributes every instantiation tsc counts, per-entity declarations summed', async (t) => {
  t.timeout(600_000);
  const { writeSynthetic } = await import('../bench/synthetic.js');
  const dir = path.join(root, 'bench/out/synthetic-attribution');
  writeSynthetic(dir, 3);
  await exec(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'generate', path.join(dir, 'schema.ts'), '--out', path.join(dir, 'out')], { cwd: root });
  const tsconfig = path.join(dir, 'tsconfig.ddbgen.json');
  const { stdout: counted } = await exec(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', tsconfig, '--extendedDiagnostics'], { cwd: root });
  const { stdout } = await exec(process.execPath, ['--import=tsx', 'bench/instantiations.ts', tsconfig, '--top', '1000'], { cwd: root });
  const total = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1]?.replace(/,/g, ''));
  t.is(total(stdout, /: ([\d,]+) instantiations and/), total(counted, /^Instantiations:\s+(\d+)/m));
  // as the app's compiler sees it: the generated bodies are not checked again (// @ts-nocheck), only the calls
  t.notRegex(stdout, /thingN\.ts FunctionDeclaration/);
  // --bodies, as ddbgen's own check sees them: the three entities' get operations (each declared once, typed by the shared shape), one row
  const { stdout: bodies } = await exec(process.execPath, ['--import=tsx', 'bench/instantiations.ts', tsconfig, '--top', '1000', '--bodies'], { cwd: root });
  t.regex(bodies, /\| 3 \| [\d.]+ \| [\d.]+ \| thingN\.ts VariableStatement thingNGet \|/);
  t.true(total(bodies, /: ([\d,]+) instantiations and/) > total(stdout, /: ([\d,]+) instantiations and/));
});
