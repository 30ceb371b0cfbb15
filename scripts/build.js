// `npm run build` (also `prepare`, so `npm ci` builds): the ES modules and declarations
// (tsconfig.build.json → dist/) and the CommonJS DSL (tsconfig.cjs.json → dist/cjs/) compiled by
// two tsc processes side by side, then the runtime helpers (compile-runtime.ts → dist/runtime/).
// Both tsc runs are incremental, their build info kept in dist/.tsbuildinfo/ (so removing dist/
// removes it too): a build over an unchanged tree, as `npm test`'s right after `npm ci`, checks
// what changed instead of compiling everything again. tsc does not notice an output removed by
// hand, so a build whose outputs are not all there starts from scratch.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const buildInfo = path.join(dist, '.tsbuildinfo');
const tsc = require.resolve('typescript/bin/tsc');

/** The TypeScript sources under `dir` that tsc compiles (tests and declarations excluded), relative to the root. */
function sources(dir) {
  return readdirSync(path.join(root, dir), { recursive: true })
    .map((f) => path.join(dir, f))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.test.ts'));
}

/** Runs tsc on `project` incrementally; resolves to its exit code and output. */
function compile(project, name, outDir, dirs) {
  const info = path.join(buildInfo, `${name}.tsbuildinfo`);
  const complete = dirs.flatMap(sources).every((f) => ['.js', '.d.ts'].every((ext) => existsSync(path.join(outDir, f.replace(/\.ts$/, ext)))));
  if (!complete) rmSync(info, { force: true });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--incremental', '--tsBuildInfoFile', info], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

mkdirSync(buildInfo, { recursive: true });
const results = await Promise.all([compile('tsconfig.build.json', 'build', dist, ['dsl', 'generator']), compile('tsconfig.cjs.json', 'cjs', path.join(dist, 'cjs'), ['dsl'])]);
for (const { output } of results) process.stdout.write(output);
const failed = results.find(({ code }) => code !== 0);
if (failed) process.exit(failed.code);
writeFileSync(path.join(dist, 'cjs/package.json'), JSON.stringify({ type: 'commonjs' }));
const runtime = spawn(process.execPath, [path.join(dist, 'generator/emit/runtime/compile-runtime.js')], { cwd: root, stdio: 'inherit' });
runtime.on('close', (code) => process.exit(code ?? 1));
