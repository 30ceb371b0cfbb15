// The project boundary: ddbgen.config.ts is searched for up to the nearest package.json or
// version-control root and no further; the schema loader's transpile cache lives in the project's
// node_modules/.cache/ddbgen/transpile (a config's in .../jiti), or nowhere; a schema is evaluated afresh by each load, the DSL once.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { findConfig } from '../generator/cli/config.js';
import { loadSchemas, schemaImporter } from '../generator/load/load-schema.js';
import { packageRoot } from '../generator/package-root.js';

const CONFIG = "import { defineConfig } from 'ddbgen';\nexport default defineConfig({ schemas: ['schema.ts'] });\n";

/** outer/ddbgen.config.ts above outer/app/src, with `marker` (a file or folder) in outer/app. */
function layout(marker?: 'package.json' | '.git' | '.hg'): { outer: string; app: string; src: string } {
  const outer = mkdtempSync(path.join(tmpdir(), 'ddbgen-root-'));
  const app = path.join(outer, 'app');
  const src = path.join(app, 'src');
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(outer, 'ddbgen.config.ts'), CONFIG);
  if (marker === 'package.json') writeFileSync(path.join(app, 'package.json'), '{}');
  else if (marker) mkdirSync(path.join(app, marker));
  return { outer, app, src };
}

const discovery: Array<[string, 'package.json' | '.git' | '.hg' | undefined, 'outer' | 'none']> = [
  ['no project marker between: the search goes on upward', undefined, 'outer'],
  ['a package.json ends the search at its folder', 'package.json', 'none'],
  ['a .git folder ends the search at its folder', '.git', 'none'],
  ['a .hg folder ends the search at its folder', '.hg', 'none'],
];
for (const [name, marker, want] of discovery) {
  test(`config discovery: ${name}`, (t) => {
    const { outer, src } = layout(marker);
    t.is(findConfig(src), want === 'outer' ? path.join(outer, 'ddbgen.config.ts') : undefined);
  });
}

test('config discovery: a config at the project root itself is found', (t) => {
  const { app, src } = layout('package.json');
  writeFileSync(path.join(app, 'ddbgen.config.ts'), CONFIG);
  t.is(findConfig(src), path.join(app, 'ddbgen.config.ts'));
});

const SCHEMA = "import { defineTable, entity, t } from 'ddbgen';\nexport default defineTable({ name: 'Mini', entities: { Thing: entity({ attributes: { id: t.string() }, key: { pk: 'Thing#<id>', sk: 'T' } }) } });\n";

test('the loader caches transpiled schemas in the project, and nowhere without a project or with cache off', async (t) => {
  const { app, src, outer } = layout('package.json');
  const schema = path.join(src, 'schema.ts');
  writeFileSync(schema, SCHEMA);
  // ddbgen.config.ts through jiti's cache; schemas through the loader's own (schema-transpile.ts)
  t.is(schemaImporter(schema).options.fsCache, path.join(app, 'node_modules', '.cache', 'ddbgen', 'jiti'));
  t.is(schemaImporter(schema, false).options.fsCache, false);
  const cacheDir = path.join(app, 'node_modules', '.cache', 'ddbgen', 'transpile');
  const loaded = await loadSchemas([schema], app);
  t.deepEqual(loaded.diagnostics, []);
  t.true(readdirSync(cacheDir).some((f) => f.endsWith('.json')), 'the transpiled schema is cached in the project');
  t.deepEqual(readdirSync(cacheDir).map((f) => [f, (statSync(path.join(cacheDir, f)).mode & 0o777).toString(8)]), readdirSync(cacheDir).map((f) => [f, '600']), 'each cache file only this user reads and writes');

  const loose = path.join(outer, 'loose.ts');
  writeFileSync(loose, SCHEMA);
  t.is(schemaImporter(loose).options.fsCache, false, 'no package.json above: no transpile cache (never the system temp folder)');
  t.deepEqual((await loadSchemas([loose], outer)).diagnostics, []);
});

test('each load evaluates the schema and the modules it imports afresh, the DSL once per process, and loads at once take turns', async (t) => {
  const { src } = layout('package.json');
  const schema = path.join(src, 'schema.ts');
  const named = (name: string) => `export const name = '${name}';\n`;
  writeFileSync(path.join(src, 'name.ts'), named('One'));
  writeFileSync(schema, SCHEMA.replace("name: 'Mini'", 'name').replace("import {", "import { name } from './name.js';\nimport {"));
  const tableName = async () => (await loadSchemas([schema], src)).tables.map((loaded) => loaded.table.name);
  t.deepEqual(await tableName(), ['One']);
  const dsl = createRequire(import.meta.url).cache[path.join(packageRoot, 'dsl', 'index.ts')];
  t.truthy(dsl, 'the DSL stays loaded');
  writeFileSync(path.join(src, 'name.ts'), named('Two'));
  t.deepEqual(await tableName(), ['Two'], 'an imported module changed on disk is read again');
  t.deepEqual(await Promise.all([tableName(), loadSchemas([schema], src, { sources: new Map([[schema, readFileSync(schema, 'utf8').replace('name,', "name: 'Three',")]]) }).then((r) => r.tables.map((loaded) => loaded.table.name))]), [['Two'], ['Three']]);
  t.is(createRequire(import.meta.url).cache[path.join(packageRoot, 'dsl', 'index.ts')], dsl, 'the DSL was not evaluated again');
  t.false(Object.keys(createRequire(import.meta.url).cache).some((file) => file.startsWith(src)), 'nothing of the schema stays loaded');
});
