// Golden output of the fixtures (reviewed as diffs in test/snapshots/golden.test.ts.md; update with
// `npx ava test/golden.test.ts -u`), determinism, and the output on disk being what generate makes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { loadSchemas } from '../generator/load/load-schema.js';
import { generateTable } from '../generator/emit/generate.js';
import { moduleFormat, runtimeModules } from '../generator/emit/runtime/runtime-modules.js';
import { fileHeader, tableFolder } from '../generator/emit/context.js';
import { packageVersion } from '../generator/package-root.js';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'out');

for (const fixture of ['social.ts', 'time-series.ts', 'fans.ts']) {
  test(`golden: fixtures/${fixture}`, async (t) => {
    const { tables, diagnostics } = await loadSchemas([path.join(root, 'fixtures', fixture)], root);
    t.deepEqual(diagnostics, []);
    for (const { table } of tables) {
      const files = generateTable(table, out).files;
      const schemaShaped = Object.fromEntries([...files].filter(([name]) => !name.includes('/runtime/')));
      t.snapshot(schemaShaped, `${table.name}: every file whose shape depends on the schema`);
      const format = moduleFormat(path.join(out, tableFolder(table)));
      for (const name of [...files.keys()].filter((f) => f.includes('/runtime/') && f.endsWith('.js')).map((f) => f.slice(f.indexOf('/runtime/') + '/runtime/'.length, -'.js'.length))) {
        const module = runtimeModules().get(name)!;
        t.is(files.get(`${tableFolder(table)}/runtime/${name}.js`), `${fileHeader()}\n\n${module.js[format]}`, `runtime/${name}.js is the compiled module`);
        t.is(files.get(`${tableFolder(table)}/runtime/${name}.d.ts`), `${fileHeader()}\n\n${module.declarations}`, `runtime/${name}.d.ts is its declarations`);
      }
      t.deepEqual(generateTable(table, out).files, files, 'the same input gives byte-identical output');
    }
  });
}

test('out/social on disk (written by npm test\'s generate step) is exactly what the generator makes', async (t) => {
  const { tables } = await loadSchemas([path.join(root, 'fixtures/social.ts')], root);
  // canonical per table: the command names this table's schema alone, whichever schemas npm run generate gave together
  const origin = { version: packageVersion(), schema: 'fixtures/social.ts', command: 'npx ddbgen generate fixtures/social.ts' };
  for (const [name, text] of generateTable(tables[0]!.table, out, { origin }).files) {
    t.is(readFileSync(path.join(out, name), 'utf8'), text, name);
  }
});
