// The project boundary: ddbgen.config.ts is searched for up to the nearest package.json or
// version-control root and no further; the schema loader's transpile cache lives in the project's
// node_modules/.cache/ddbgen/jiti, or nowhere.

import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { findConfig } from '../generator/cli/config.js';
import { loadSchemas, schemaImporter } from '../generator/load/load-schema.js';

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
  const cacheDir = path.join(app, 'node_modules', '.cache', 'ddbgen', 'jiti');
  t.is(schemaImporter(schema).options.fsCache, cacheDir);
  t.is(schemaImporter(schema, false).options.fsCache, false);
  const loaded = await loadSchemas([schema], app);
  t.deepEqual(loaded.diagnostics, []);
  t.true(readdirSync(cacheDir).some((f) => f.includes('schema')), 'the transpiled schema is cached in the project');
  t.deepEqual(readdirSync(cacheDir).map((f) => [f, (statSync(path.join(cacheDir, f)).mode & 0o777).toString(8)]), readdirSync(cacheDir).map((f) => [f, '600']), 'each cache file only this user reads and writes');

  const loose = path.join(outer, 'loose.ts');
  writeFileSync(loose, SCHEMA);
  t.is(schemaImporter(loose).options.fsCache, false, 'no package.json above: no transpile cache (never the system temp folder)');
  t.deepEqual((await loadSchemas([loose], outer)).diagnostics, []);
});
