// What a command loads: `ddbgen lint` of a clean schema (the built CLI, in a new process) loads
// neither the compiler (ts-morph, typescript), the formatter nor the emitters; with findings it
// loads what places them and places them as before; the screen that stands in for the parse when
// looking for an entity declared twice never misses one. V8's code cache of the large CommonJS
// modules (code-cache.ts) is written private to the user, used by the next run, which makes the
// same output, and is not written when turned off.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Module from 'node:module';
import path from 'node:path';
import test from 'ava';
import { mayRepeatKeys } from '../generator/load/load-schema.js';

const root = path.resolve(import.meta.dirname, '..');

const SCHEMA = `import { defineTable, entity, t } from 'ddbgen';

export default defineTable({
  name: 'App',
  entities: {
    User: entity({
      attributes: { id: t.string(), email: t.string({ pii: true }), createdAt: t.timestamp() },
      key: { pk: 'USER#<id>', sk: 'PROFILE' },
    }),
    Order: entity({
      attributes: { userId: t.string(), orderId: t.string(), placedAt: t.timestamp(), total: t.number({ min: 0, max: 1e9 }) },
      key: { pk: 'USER#<userId>', sk: 'ORDER#<placedAt>#<orderId>' },
    }),
  },
});
`;

/** Runs the built CLI in a new process; returns its stdout and every module URL it resolved. */
function traced(args: string[], cwd: string): { stdout: string; stderr: string; modules: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-startup-'));
  const log = path.join(dir, 'modules.log');
  writeFileSync(path.join(dir, 'hooks.mjs'), `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');\n  return result;\n}\n`);
  writeFileSync(path.join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(new URL('hooks.mjs', `file://${dir}/`).href)});\n`);
  writeFileSync(log, '');
  const { stdout, stderr } = spawnSync(process.execPath, ['--import', path.join(dir, 'register.mjs'), path.join(root, 'bin', 'ddbgen.js'), ...args], { cwd, encoding: 'utf8' });
  return { stdout, stderr, modules: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

/** Modules a lint must not load: the compiler, the formatter and the emitters (the shared names of context.ts, the cache's paths and the output writer aside). */
const notEmitter = /\/emit\/(context|output\/generation-cache|output\/write-output)\.js$/;
const heavy = (url: string) => /\/node_modules\/(ts-morph|@ts-morph|typescript|@dprint)\//.test(url) || (/\/generator\/emit\//.test(url) && !notEmitter.test(url));

test('ddbgen lint (and plan) of a clean schema loads neither the compiler, the formatter nor the emitters', (t) => {
  const project = mkdtempSync(path.join(tmpdir(), 'ddbgen-startup-project-'));
  writeFileSync(path.join(project, 'package.json'), '{ "private": true }\n');
  writeFileSync(path.join(project, 'schema.ts'), SCHEMA);
  const { stdout, modules } = traced(['lint', 'schema.ts'], project);
  t.is(stdout, 'ddbgen lint: 0 errors, 0 warnings, 0 info\n');
  t.true(modules.some((url) => url.endsWith('/lint/run-lint.js')), 'the lint ran from the built CLI');
  t.deepEqual(modules.filter(heavy), []);
  const plan = traced(['plan', 'schema.ts'], project);
  t.regex(plan.stdout, /^App \(on-demand\)\n/);
  t.deepEqual(plan.modules.filter(heavy), [], 'nor does plan');
});

test('ddbgen lint with findings loads what places them, and places them in the schema', (t) => {
  const { stdout, stderr, modules } = traced(['lint', 'fixtures/lint/hk001-constant-partition-key.ts'], root);
  t.is(stdout, 'ddbgen lint: 2 errors, 0 warnings, 1 info\n');
  t.regex(stderr, /^fixtures\/lint\/hk001-constant-partition-key\.ts:9:89 - error HK001: LogLine \(table\): partition key "OPS_LOG" has no placeholder/m);
  t.true(modules.some((url) => url.endsWith('/load/locate.js')));
  t.deepEqual(modules.filter((url) => /\/generator\/emit\//.test(url) && !notEmitter.test(url)), [], 'still no emitter');
});

test('an entity declared twice is never screened out; one named once is', (t) => {
  const twice = [
    "entities: { A: e, A: e }",
    "entities: { 'A': e, A: e }",
    "entities: { A, A: e }",
    "entities: { A /* first */ : e, \"A\"\n: e }",
    "entities: { A() {}, A: e }",
    "entities: { '\\u0041': e, A: e }",
  ];
  for (const source of twice) t.true(mayRepeatKeys(source, ['A']), source);
  t.false(mayRepeatKeys(SCHEMA, ['User', 'Order']));
  t.false(mayRepeatKeys("entities: { User: e }, edges: { Fan: edge({ types: ['User', 'Actor'] }) }, patterns: { p: { entity: 'User' } }", ['User']), 'names in lists and values are no keys');
  t.true(mayRepeatKeys("entities: { User: e }, x: cond ? 'User' : 'Other'", ['User']), 'a string before a colon might be a key: the parse decides');
});

test('the code cache: written private to the user at the first run, read by the next, the output the same; DDBGEN_CODE_CACHE=0 turns it off', (t) => {
  const project = mkdtempSync(path.join(tmpdir(), 'ddbgen-code-cache-'));
  writeFileSync(path.join(project, 'package.json'), '{ "private": true }\n');
  writeFileSync(path.join(project, 'schema.ts'), SCHEMA);
  const generate = (out: string, env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [path.join(root, 'bin', 'ddbgen.js'), 'generate', 'schema.ts', '--out', out, '--no-cache', '--quiet'], { cwd: project, encoding: 'utf8', env: { ...process.env, ...env } });
  const cache = path.join(project, 'node_modules', '.cache', 'ddbgen', 'v8');
  t.is(generate('off', { DDBGEN_CODE_CACHE: '0' }).status, 0);
  t.false(existsSync(cache), 'turned off: no cache folder');
  t.is(generate('first').status, 0);
  t.is(statSync(cache).mode & 0o077, 0, 'the folder is private to the user');
  // Node 22.1+ keeps its own compile cache there (module.enableCompileCache); older Node, ddbgen's files
  const native = 'enableCompileCache' in Module;
  const files = readdirSync(cache);
  if (!native) {
    t.true(files.length >= 2 && files.every((f) => f.endsWith('.v8')), files.join(', '));
    t.true(files.every((f) => (statSync(path.join(cache, f)).mode & 0o077) === 0), 'every file private to the user');
  }
  const written = Object.fromEntries(files.map((f) => [f, statSync(path.join(cache, f)).mtimeMs]));
  t.is(generate('second').status, 0);
  if (!native) t.deepEqual(Object.fromEntries(readdirSync(cache).map((f) => [f, statSync(path.join(cache, f)).mtimeMs])), written, 'the second run read the cache and rewrote none of it');
  const tree = (dir: string): Record<string, string> =>
    Object.fromEntries(readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => [path.relative(dir, path.join(e.parentPath, e.name)), readFileSync(path.join(e.parentPath, e.name), 'utf8').replace(/--out (off|first|second)/g, '--out X')]));
  t.deepEqual(tree(path.join(project, 'second')), tree(path.join(project, 'first')));
  t.deepEqual(tree(path.join(project, 'first')), tree(path.join(project, 'off')));
});
