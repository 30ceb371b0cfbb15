// Incremental generation: with the previous run's cache, a one-entity change re-renders that
// module and the table-level ones, re-checks only what it can affect, and the output is byte for
// byte what a run without the cache makes; the CLI keeps the cache outside the output.

import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { defineTable, edge, entity, gsi, t as types } from '../dsl/index.js';
import { generateTable, type EmitKind, type Generation } from '../generator/emit/generate.js';
import { cacheFile, checkStateDir, emptyCache, readCache, writeCache } from '../generator/emit/output/generation-cache.js';
import { main } from '../generator/cli/cli.js';
import { BANNER } from '../generator/emit/context.js';

const root = path.resolve(import.meta.dirname, '..');

/** A small table in variants: `note` adds an attribute to Order, `index` adds a GSI mapping to Order, `rename` changes User's key. */
function shop(variant: { note?: boolean; index?: boolean; rename?: boolean } = {}) {
  return defineTable({
    name: 'Shop',
    indexes: { byStatus: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) },
    entities: {
      User: entity({ attributes: { id: types.string(), name: types.string() }, key: { pk: variant.rename ? 'Customer#<id>' : 'User#<id>', sk: 'PROFILE' } }),
      Order: entity({
        attributes: { userId: types.string(), orderId: types.string(), status: types.enum(['OPEN', 'SHIPPED']), placedAt: types.timestamp(), ...(variant.note ? { note: types.string().optional() } : {}) },
        key: { pk: 'User#<userId>', sk: 'Order#<orderId>' },
        ...(variant.index ? { indexes: { byStatus: { pk: 'Status#<status>#<userId>', sk: '<placedAt>' } } } : {}),
      }),
      Product: entity({ attributes: { sku: types.string(), price: types.number() }, key: { pk: 'Product#<sku>', sk: 'P' } }),
    },
    edges: { Likes: edge({ types: ['User', 'Product'], forward: 'LIKES', inverse: 'LIKED_BY' }) },
  });
}

const out = path.join(root, 'out', 'test-generation-cache');

/**
 * A run without a cache (cold) of a variant into `out`, made once per file: the tests compare their
 * cached runs against the same cold runs (generation is deterministic), and each costs a full check.
 * Tests that make the same cold run (the same variant, emit and checker) share it.
 */
const colds = new Map<string, Generation>();
function coldRun(variant: Parameters<typeof shop>[0], emit: EmitKind, typeChecker?: 'typescript'): Generation {
  const key = JSON.stringify([variant, emit, typeChecker]);
  let run = colds.get(key);
  if (!run) colds.set(key, (run = generateTable(shop(variant), out, { emit, ...(typeChecker ? { typeChecker } : {}) })));
  return run;
}

for (const emit of ['ts', 'js'] as EmitKind[]) {
  test(`emit ${emit}: a one-entity change re-renders one entity module, re-checks what it affects, and matches a cold run`, (t) => {
    // the compiler API's incremental check (tsgo, when installed, checks emit ts output whole)
    const typeChecker = 'typescript';
    const cold = coldRun({}, emit, typeChecker);
    const modules = 3 + 5; // entities, then edges, table definition, table class, in-memory table, index
    t.deepEqual({ rendered: cold.stats.rendered, reused: cold.stats.reused }, { rendered: modules, reused: 0 });
    t.true(cold.stats.checked >= 20, `a cold run checks every file (${cold.stats.checked})`);

    const again = generateTable(shop(), out, { emit, typeChecker, cache: cold.cache });
    t.deepEqual(again.files, cold.files);
    t.deepEqual(again.stats, { rendered: 0, reused: modules, checked: 0 }, 'nothing changed: nothing rendered or checked');

    let cache = cold.cache;
    for (const variant of [{ note: true }, { note: true, index: true }, { index: true, rename: true }, {}]) {
      const warm = generateTable(shop(variant), out, { emit, typeChecker, cache });
      t.deepEqual(warm.files, coldRun(variant, emit, typeChecker).files, `${JSON.stringify(variant)}: the cached run makes exactly the cold run's output`);
      t.true(warm.stats.rendered <= 6 && warm.stats.reused >= 1, `${JSON.stringify(variant)}: ${JSON.stringify(warm.stats)}`);
      t.true(warm.stats.checked < cold.stats.checked, `${JSON.stringify(variant)}: fewer files re-checked (${warm.stats.checked} of ${cold.stats.checked})`);
      cache = warm.cache;
    }
  });
}

test('tsgo (installed here) checks emit ts output whole: the output is the compiler API run\'s; with nothing changed nothing is checked', (t) => {
  const cold = coldRun({}, 'ts');
  t.is(cold.stats.checked, [...cold.files.keys()].filter((file) => !file.endsWith('.js')).length, 'every generated file and runtime declaration');
  t.deepEqual(cold.files, coldRun({}, 'ts', 'typescript').files);
  t.is(generateTable(shop(), out, { cache: cold.cache }).stats.checked, 0);
  t.is(generateTable(shop({ note: true }), out, { cache: cold.cache }).stats.checked, cold.stats.checked);
});

test('tsgo (installed here) checks and compiles emit js output: the files are the compiler API run\'s; with nothing changed they come from the cache', (t) => {
  const cold = coldRun({}, 'js');
  t.deepEqual(cold.files, coldRun({}, 'js', 'typescript').files);
  const again = generateTable(shop(), out, { emit: 'js', cache: cold.cache });
  t.is(again.stats.checked, 0);
  t.deepEqual(again.files, cold.files);
  const changed = generateTable(shop({ note: true }), out, { emit: 'js', cache: cold.cache });
  t.deepEqual(changed.files, coldRun({ note: true }, 'js', 'typescript').files);
});

test('emit js: a changed module format (the output folder\'s package.json "type") is a change: the cached run compiles again, as a cold run does', (t) => {
  const project = path.join(out, 'format');
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }');
  const esm = generateTable(shop(), project, { emit: 'js' });
  t.regex(esm.files.get('shop/order.js')!, /^import \{/m);
  writeFileSync(path.join(project, 'package.json'), '{ "type": "commonjs" }');
  const cjs = generateTable(shop(), project, { emit: 'js', cache: esm.cache });
  t.true(cjs.stats.checked > 0, 'checked again');
  t.regex(cjs.files.get('shop/order.js')!, /require\("\.\/runtime\/codec\.js"\)/);
  t.deepEqual(cjs.files, generateTable(shop(), project, { emit: 'js' }).files);
});

test('a run that keeps no cache (--no-cache) makes the same output, without the compiler build state', (t) => {
  for (const emit of ['ts', 'js'] as EmitKind[]) {
    const kept = coldRun({ note: true }, emit);
    const unkept = generateTable(shop({ note: true }), out, { emit, keepCache: false });
    t.deepEqual(unkept.files, kept.files, emit);
    t.is(unkept.stats.checked, kept.stats.checked, `${emit}: every file checked`);
    t.true(kept.cache.buildInfo !== undefined && unkept.cache.buildInfo === undefined, emit);
  }
});

test('another SDK version is a change: the output is checked again against it', (t) => {
  const project = mkdtempSync(path.join(tmpdir(), 'ddbgen-cache-sdk-'));
  writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }');
  /** node_modules/@aws-sdk/<pkg> in the project: declarations of a given version that re-export the real package's. */
  const installSdk = (version: string) => {
    for (const pkg of ['client-dynamodb', 'lib-dynamodb']) {
      const real = path.join(root, 'node_modules', '@aws-sdk', pkg);
      const dir = path.join(project, 'node_modules', '@aws-sdk', pkg);
      mkdirSync(dir, { recursive: true });
      const types = path.join(real, JSON.parse(readFileSync(path.join(real, 'package.json'), 'utf8')).types).replace(/\.d\.ts$/, '.js');
      writeFileSync(path.join(dir, 'index.d.ts'), `// ${version}\nexport * from ${JSON.stringify(path.relative(dir, types))};\n`);
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `@aws-sdk/${pkg}`, version, types: 'index.d.ts' }));
    }
  };
  const projectOut = path.join(project, 'out');
  installSdk('3.1000.0');
  const first = generateTable(shop(), projectOut);
  t.is(generateTable(shop(), projectOut, { cache: first.cache }).stats.checked, 0, 'same sources, same SDK: nothing to check');
  installSdk('3.1001.0');
  t.true(generateTable(shop(), projectOut, { cache: first.cache }).stats.checked > 0, 'same sources, another SDK: checked again');
});

test('a cache whose build state and compiled files disagree is not trusted: everything is compiled afresh', (t) => {
  const cold = coldRun({}, 'js');
  const broken = { ...cold.cache, renders: cold.cache.renders, compiled: new Map([...cold.cache.compiled].filter(([file]) => !file.endsWith('order.js'))) };
  const warm = generateTable(shop({ note: true }), out, { emit: 'js', cache: broken });
  t.deepEqual(warm.files, coldRun({ note: true }, 'js').files);
});

test('readCache ignores a missing, corrupt, altered, foreign or shared cache file; writeCache round-trips, private to this user', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-cache-'));
  const file = path.join(dir, 'c.json');
  t.deepEqual(readCache(file), emptyCache());
  writeFileSync(file, '{ not json');
  t.deepEqual(readCache(file), emptyCache());
  const signed = (body: unknown) => {
    const text = JSON.stringify(body);
    return `${createHash('sha256').update(text).digest('hex')}\n${text}`;
  };
  writeFileSync(file, signed({ format: 2, fingerprint: 'another ddbgen', renders: { k: `${BANNER}\nstale` }, compiled: {} }));
  t.deepEqual(readCache(file), emptyCache(), 'a cache from another ddbgen build is dropped whole');
  const cache = { renders: new Map([['k', `${BANNER}\n\nexport const a = 1;\n`]]), compiled: new Map([['a/b.js', `${BANNER}\nexport const a = 1;\n`]]), buildInfo: '{}', sourcesHash: 'h' };
  writeCache(file, cache);
  t.deepEqual(readCache(file), cache);
  t.is(statSync(file).mode & 0o777, 0o600, 'only this user reads and writes it');

  const written = readFileSync(file, 'utf8');
  writeFileSync(file, written.replace('export const a = 1;', 'export const a = 2;'));
  t.deepEqual(readCache(file), emptyCache(), 'content that does not match its digest is dropped whole');
  const body = JSON.parse(written.slice(written.indexOf('\n') + 1));
  writeFileSync(file, signed({ ...body, renders: { k: 'require("child_process").exec("…")' } }));
  t.deepEqual(readCache(file), emptyCache(), 'a module that is not ddbgen output is dropped whole');
  writeFileSync(file, written);
  chmodSync(file, 0o666);
  t.deepEqual(readCache(file), emptyCache(), 'a file other accounts may write is not read');
  chmodSync(file, 0o600);
  const link = path.join(dir, 'link.json');
  symlinkSync(file, link);
  t.deepEqual(readCache(link), emptyCache(), 'a symbolic link is not followed');
  t.deepEqual(readCache(file), cache);
});

test('without a package.json above the output there is no cache: nothing is written to the system temp folder', (t) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'ddbgen-cache-none-'));
  t.is(cacheFile(path.join(folder, 'out'), 'mini', 'ts'), undefined);
  writeFileSync(path.join(folder, 'package.json'), '{}');
  t.is(cacheFile(path.join(folder, 'out'), 'mini', 'ts')!.startsWith(path.join(folder, 'node_modules', '.cache', 'ddbgen') + path.sep), true);
  t.is(statSync(path.join(folder, 'node_modules', '.cache', 'ddbgen')).mode & 0o777, 0o700);
});

test('a cache folder other accounts may write is not used', (t) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'ddbgen-cache-shared-'));
  writeFileSync(path.join(folder, 'package.json'), '{}');
  mkdirSync(path.join(folder, 'node_modules', '.cache', 'ddbgen'), { recursive: true });
  chmodSync(path.join(folder, 'node_modules', '.cache', 'ddbgen'), 0o777);
  t.is(cacheFile(path.join(folder, 'out'), 'mini', 'ts'), undefined);
});

test('the CLI keeps its cache in node_modules/.cache/ddbgen beside the nearest package.json; --no-cache neither reads nor writes it', async (t) => {
  const project = mkdtempSync(path.join(tmpdir(), 'ddbgen-cache-project-'));
  writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }');
  mkdirSync(path.join(project, 'src'));
  writeFileSync(
    path.join(project, 'src', 'schema.ts'),
    "import { defineTable, entity, t } from 'ddbgen';\nexport default defineTable({ name: 'Mini', entities: { Thing: entity({ attributes: { id: t.string() }, key: { pk: 'Thing#<id>', sk: 'T' } }) } });\n",
  );
  let stderr = '';
  const run = (...args: string[]) => main(['generate', 'src/schema.ts', '--out', 'src/generated', ...args], { cwd: project, stdout: () => {}, stderr: (s) => (stderr += s) });
  t.is(await run('--no-cache'), 0, stderr);
  t.false(existsSync(path.join(project, 'node_modules')), '--no-cache writes no cache, the loader\'s included');
  t.is(await run(), 0);
  t.true(readdirSync(path.join(project, 'node_modules', '.cache', 'ddbgen', 'transpile')).length > 0, 'the schema loader caches its transpiled modules there too');
  const file = cacheFile(path.join(project, 'src', 'generated'), 'mini', 'ts')!;
  t.is(path.dirname(file), path.join(project, 'node_modules', '.cache', 'ddbgen'));
  t.true(existsSync(file));
  t.true(readCache(file).renders.size > 0);
  const kept = checkStateDir(path.join(project, 'src', 'generated'), 'mini', 'ts')!;
  t.is(path.dirname(kept), path.join(project, 'node_modules', '.cache', 'ddbgen', 'check'));
  t.deepEqual(readdirSync(kept).filter((f) => !statSync(path.join(kept, f)).isDirectory()).sort(), ['check-esm.tsbuildinfo', 'files.json', 'package.json', 'tsconfig.json'], 'tsgo\'s check kept for the next run, no lock left');
  t.deepEqual(readdirSync(path.join(project, 'src', 'generated', 'mini')).filter((f) => !f.endsWith('.ts') && f !== 'runtime'), [], 'nothing but the output in the output folder');
});
