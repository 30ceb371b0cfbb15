// The runtime in an output: only the modules the generated code imports (followed through the
// runtime's own imports), written as the .js + .d.ts ddbgen compiled when it was built, in the
// module format of the output folder's package scope — in the default mode beside readable .ts.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { ts } from 'ts-morph';
import { defineTable, edge, entity, t as types } from '../dsl/index.js';
import { generateTable } from '../generator/emit/generate.js';
import { moduleFormat, runtimeImports, runtimeModules, usedRuntime } from '../generator/emit/runtime/runtime-modules.js';
import { writeOutput } from '../generator/emit/output/write-output.js';
import { IMPORTED_RUNTIME } from '../generator/validate/name-rules.js';

const root = path.resolve(import.meta.dirname, '..');
const exec = promisify(execFile);

type Variant = { edge?: boolean; shard?: boolean; rotation?: boolean; timeBucket?: boolean };

/** One entity with a query, plus (per variant) an edge, a sharded entity, table rotation or a time-bucketed partition key. */
function table(variant: Variant = {}) {
  return defineTable({
    name: 'Shop',
    ...(variant.rotation ? { rotation: 'month' as const } : {}),
    entities: {
      User: entity({ attributes: { id: types.string(), name: types.string() }, key: { pk: 'User#<id>', sk: 'PROFILE' } }),
      Order: entity({ attributes: { userId: types.string(), at: types.timestamp(), id: types.string() }, key: { pk: 'Orders#<userId>', sk: '<at>#<id>' } }),
      ...(variant.shard ? { Click: entity({ attributes: { page: types.string(), id: types.string() }, key: { pk: 'Page#<page>#<shard>', sk: '<id>', shard: { count: 4, by: 'id' } } }) } : {}),
      ...(variant.timeBucket ? { View: entity({ attributes: { site: types.string(), at: types.timestamp(), id: types.string() }, key: { pk: 'Site#<site>#<at:hour>', sk: '<at>#<id>' } }) } : {}),
    },
    ...(variant.edge ? { edges: { Follows: edge({ types: ['User'], forward: 'FOLLOWS', inverse: 'FOLLOWED_BY' }) } } : {}),
  });
}

/** A folder inside the repository (so the output resolves the SDK) with its own package.json scope. */
function scope(name: string, type: 'module' | 'commonjs'): string {
  const dir = path.join(root, 'out', 'test-runtime-modules', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type }));
  return dir;
}

test('runtimeImports reads the runtime modules a text imports, values and types, and nothing else', (t) => {
  const cases: Array<[string, './runtime/' | './', string[]]> = [
    ["import { KeyTemplate } from './runtime/codec.js';\nimport type { Page } from './runtime/repository.js';", './runtime/', ['codec', 'repository']],
    ["export { type RetryPolicy } from './runtime/batch.js';\nimport { UserKeys } from './user.js';", './runtime/', ['batch']],
    ["import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nimport { x } from '../runtime/codec.js';", './runtime/', []],
    ["import { ValidationError } from './errors.js';\nexport * from './codec.js';", './', ['errors', 'codec']],
    ["import { InMemoryDynamoDB } from './runtime/in-memory/table.js';", './runtime/', ['in-memory/table']],
    // generated code as the emitters print it: declarations over several lines, a side-effect import; a doc comment's example and a string are not imports
    ["import {\n  ConditionFailedError,\n  type Page,\n} from './runtime/errors.js';\nimport './runtime/telemetry.js';", './runtime/', ['errors', 'telemetry']],
    ["/**\n * @example\n * import { x } from './runtime/codec.js';\n */\nexport const path = \"from './runtime/batch.js'\";", './runtime/', []],
  ];
  for (const [text, prefix, want] of cases) t.deepEqual(runtimeImports(text, prefix), want, text);
  // within the runtime, from a module in a folder: its neighbours and the app runtime above it
  t.deepEqual(runtimeImports("import { compareUtf8 } from '../codec.js';\nimport { Aliases } from './expression.js';\nimport '@aws-sdk/client-dynamodb';", './', 'in-memory/engine'), ['codec', 'in-memory/expression']);
});

test('IMPORTED_RUNTIME (whose exports no generated name may take) names every runtime module the emitters import, and only runtime modules', (t) => {
  const modules = runtimeModules();
  for (const name of IMPORTED_RUNTIME) t.true(modules.has(name), `${name} is no runtime module`);
  // every runtime module an emitter's source names, and every one a generated output of the fixtures imports
  const emitters = [...readdirSync(path.join(root, 'generator/emit'), { recursive: true, encoding: 'utf8' }).map((f) => path.join(root, 'generator/emit', f)), path.join(root, 'generator/diff/emit-migration.ts')].filter((f) => f.endsWith('.ts'));
  const named = new Set(emitters.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/runtime\/([a-z-]+(?:\/[a-z-]+)?)\.js/g)].map((m) => m[1]!)));
  const outputs = readdirSync(path.join(root, 'out'), { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(path.join(root, 'out', d.name, 'index.ts')));
  t.true(outputs.length >= 5, 'npm run generate wrote the fixtures\' outputs');
  for (const dir of outputs) {
    for (const file of readdirSync(path.join(root, 'out', dir.name)).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(path.join(root, 'out', dir.name, file), 'utf8');
      const imported = runtimeImports(text, './runtime/');
      // read from the lines that open declarations, as the compiler's scanner of the whole text reads them
      const scanned = ts.preProcessFile(text, true, false).importedFiles.map((f) => f.fileName).filter((f) => f.startsWith('./runtime/') && f.endsWith('.js'));
      t.deepEqual(imported, scanned.map((f) => f.slice('./runtime/'.length, -'.js'.length)), `${dir.name}/${file}`);
      for (const name of imported) named.add(name);
    }
  }
  t.true(named.has('repository') && named.has('migration/cli'));
  t.deepEqual([...named].filter((name) => modules.has(name) && !IMPORTED_RUNTIME.includes(name)).sort(), []);
});

test('usedRuntime closes over the runtime\'s own imports', (t) => {
  const modules = runtimeModules();
  for (const name of modules.keys()) {
    const used = usedRuntime([`import { x } from './runtime/${name}.js';`]);
    t.true(used.includes(name));
    for (const module of used) for (const next of modules.get(module)!.imports) t.true(used.includes(next), `${name}: ${module} imports ${next}`);
  }
  t.deepEqual(usedRuntime([]), []);
  t.throws(() => usedRuntime(["import { x } from './runtime/nope.js';"]), { message: /\.\/runtime\/nope\.js, which is no runtime module/ });
});

test('only the runtime modules a schema uses are written: edges, gathering and rotation only for schemas that have them', (t) => {
  const out = path.join(root, 'out', 'test-runtime-modules', 'selection');
  const runtimeOf = (variant: Variant) =>
    new Set([...generateTable(table(variant), out).files.keys()].filter((f) => f.startsWith('shop/runtime/') && f.endsWith('.js')).map((f) => f.slice('shop/runtime/'.length, -'.js'.length)));
  // a table with queries, batches, conditions and transactions, and none of the features below
  const plain = runtimeOf({});
  t.deepEqual([...plain].sort(), ['batch', 'codec', 'condition', 'cursor', 'errors', 'expiry', 'expression', 'hmac', 'in-memory/capacity', 'in-memory/engine', 'in-memory/engine-context', 'in-memory/expression', 'in-memory/expression-parser', 'in-memory/expression-updates', 'in-memory/faults', 'in-memory/key-space', 'in-memory/options', 'in-memory/read-checks', 'in-memory/reads', 'in-memory/request', 'in-memory/stored-table', 'in-memory/stream-records', 'in-memory/table', 'in-memory/value', 'in-memory/writes', 'item', 'item-mapping', 'item-size', 'key-condition', 'key-definition', 'key-escape', 'key-reader', 'key-writer', 'pii-fingerprint', 'read', 'repository', 'scan', 'shard-hash', 'sortable-number', 'sortable-timestamp', 'table-context', 'telemetry', 'telemetry-command', 'telemetry-emf', 'telemetry-key-space', 'telemetry-operation', 'telemetry-otel', 'telemetry-sink', 'transaction', 'utf8', 'write']);
  const cases: Array<[Variant, string[], string[]]> = [
    [{ edge: true }, ['edge'], ['gather', 'rotation']],
    [{ shard: true }, ['gather'], ['edge', 'rotation']],
    [{ timeBucket: true }, ['gather'], ['edge', 'rotation']],
    [{ rotation: true }, ['rotation', 'gather'], ['edge']],
  ];
  for (const [variant, present, absent] of cases) {
    const modules = runtimeOf(variant);
    for (const name of present) t.true(modules.has(name), `${JSON.stringify(variant)}: ${name}`);
    for (const name of absent) t.false(modules.has(name), `${JSON.stringify(variant)}: no ${name}`);
    for (const name of plain) t.true(modules.has(name), `${JSON.stringify(variant)}: ${name}`);
  }
  t.false(runtimeOf({ edge: true, shard: true, rotation: true, timeBucket: true }).has('migration/engine'), 'the migration engine only for migration programs');
  const all = generateTable(table({ edge: true }), out).files;
  for (const name of runtimeOf({ edge: true })) t.true(all.has(`shop/runtime/${name}.d.ts`), `${name}.d.ts beside ${name}.js`);
  t.false([...all.keys()].some((f) => f.startsWith('shop/runtime/') && f.endsWith('.ts') && !f.endsWith('.d.ts')), 'no runtime source');
  t.deepEqual(
    [...all.keys()].filter((f) => !f.includes('/runtime/')),
    ['shop/user.ts', 'shop/order.ts', 'shop/edges.ts', 'shop/table-definition.ts', 'shop/shop-table.ts', 'shop/in-memory.ts', 'shop/index.ts'],
    'the schema-shaped modules stay TypeScript',
  );
});

test('the module format of the runtime follows the output folder\'s package scope', (t) => {
  t.is(moduleFormat(scope('format-esm', 'module')), 'esm');
  t.is(moduleFormat(scope('format-cjs', 'commonjs')), 'cjs');
});

test('default mode in a CommonJS scope: the .ts modules run (through tsx) on the CommonJS runtime', async (t) => {
  const dir = scope('cjs', 'commonjs');
  const out = path.join(dir, 'out');
  const files = generateTable(table({ edge: true }), out).files;
  t.regex(files.get('shop/runtime/codec.js')!, /^"use strict";$/m);
  t.notRegex(files.get('shop/runtime/codec.js')!, /^export /m);
  writeOutput(out, [files]);
  writeFileSync(
    path.join(dir, 'put.ts'),
    "import { ShopTable } from './out/shop/index.js';\n" +
      'const sent: unknown[] = [];\n' +
      "const db = new ShopTable({ send: async (command: { input: unknown }) => (sent.push(command.input), {}) } as never, { tableName: 'Shop' });\n" +
      "void db.user.put({ id: 'u1', name: 'Ann' }).then(() => console.log(JSON.stringify(sent[0])));\n",
  );
  const { stdout } = await exec(process.execPath, ['--import=tsx', path.join(dir, 'put.ts')], { cwd: dir });
  t.like(JSON.parse(stdout), { TableName: 'Shop', Item: { pk: 'User#u1', sk: 'PROFILE', id: 'u1', name: 'Ann' } });
});

test('default mode in an ES module scope writes ES modules', (t) => {
  const files = generateTable(table(), path.join(scope('esm', 'module'), 'out')).files;
  t.regex(files.get('shop/runtime/errors.js')!, /^export class DdbgenError /m);
});

test('an older output on disk (runtime .ts sources beside the new declarations) neither shadows the check nor survives', (t) => {
  const out = path.join(scope('upgrade', 'module'), 'out');
  mkdirSync(path.join(out, 'shop', 'runtime'), { recursive: true });
  const stale = path.join(out, 'shop', 'runtime', 'repository.ts');
  writeFileSync(stale, '// generated by ddbgen — do not edit\n\nexport interface EntityModel { readonly old: true }\nexport type TableContext = never;\n');
  const files = generateTable(table(), out).files;
  writeOutput(out, [files]);
  t.false(existsSync(stale));
  t.true(existsSync(path.join(out, 'shop', 'runtime', 'repository.d.ts')));
});
