// How schema modules are transpiled (generator/load/schema-transpile.ts): by the compiler where its
// CommonJS output runs, by babel for top-level await, import.meta and text that does not parse; an
// error thrown by the module placed at the schema's own line and column through the source map,
// from a fresh transpile and from the cache alike; cache files whole and 0600.
import test from 'ava';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { babelTransform, loadSchemas, schemaImporter } from '../generator/load/load-schema.js';
import { errorLocation, schemaTransform } from '../generator/load/schema-transpile.js';

const temp = () => mkdtempSync(path.join(tmpdir(), 'ddbgen-transpile-'));

/** A transform that counts babel's calls. */
function counted(cacheDir: string | false, unparsable?: 'babel' | 'compiler') {
  const calls = { babel: 0 };
  const transform = schemaTransform((options) => (calls.babel++, babelTransform(options)), cacheDir, { unparsable });
  return { calls, transform };
}

const THROWS = [
  "import type { Readable } from 'node:stream';",
  'interface Shape {',
  '  readonly id: string;',
  '}',
  'enum Kind { A = 1 }',
  'const shape: Shape = { id: String(Kind.A) };',
  '',
  '/** a long comment',
  ' * of several lines */',
  'export function fail(reason: string): never {',
  '  throw new Error(`no ${reason} for ${shape.id}`);',
  '}',
  "export const stream: Readable | undefined = undefined;",
  "fail('x');",
].join('\n');

const cases: Array<{ name: string; source: string; babel: number; want: RegExp | { line: number; column: number } }> = [
  { name: 'types, an interface, an enum and a comment before the throw (the compiler)', source: THROWS, babel: 0, want: { line: 11, column: 9 } },
  { name: 'top-level await (babel)', source: `${THROWS.replace("fail('x');", '')}await Promise.resolve();\nfail('y');`, babel: 1, want: { line: 11, column: 9 } },
  { name: 'import.meta (babel)', source: `const here = import.meta.url;\n${THROWS}`, babel: 1, want: { line: 12, column: 9 } },
];

for (const { name, source, babel, want } of cases) {
  test(`a module that throws: ${name} is placed at the schema's line and column, fresh and from the cache`, async (t) => {
    const dir = temp();
    const file = path.join(dir, 'schema.ts');
    writeFileSync(file, source);
    const cacheDir = path.join(dir, 'cache');
    for (const round of ['fresh', 'cached']) {
      const { calls, transform } = counted(cacheDir);
      const importer = schemaImporter(undefined, false, { transform });
      const error = await importer.import(file).then(() => undefined, (e: unknown) => e);
      t.truthy(error, `${round}: the module throws`);
      t.deepEqual(errorLocation(error, file), want, round);
      t.is(calls.babel, round === 'fresh' ? babel : 0, `${round}: babel's calls`);
    }
    const files = readdirSync(cacheDir);
    t.is(files.length, 1, 'one cache file, no temporary left');
    t.is((statSync(path.join(cacheDir, files[0]!)).mode & 0o777).toString(8), '600');
  });
}

test('text that does not parse: babel names the place (the CLI), or the compiler transpiles what it can (an editor)', async (t) => {
  const dir = temp();
  const file = path.join(dir, 'broken.ts');
  writeFileSync(file, 'export const a = 1;\nexport const b = {{;\n');
  const strict = counted(false);
  const error = (await schemaImporter(undefined, false, { transform: strict.transform }).import(file).then(() => undefined, (e: unknown) => e)) as Error;
  t.regex(String(error?.message), /ParseError|Unexpected token/);
  t.is(strict.calls.babel, 1);
  const lenient = counted(false, 'compiler');
  lenient.transform({ source: 'export const a = 1;\nexport const b = {{;\n', filename: file });
  t.is(lenient.calls.babel, 0, 'the compiler transpiled it');
});

test('loadSchemas places DDB001 of a throwing schema at its own line and column, again from the transpile cache', async (t) => {
  const dir = temp();
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
  const file = path.join(dir, 'schema.ts');
  writeFileSync(file, "import { t } from 'ddbgen';\ninterface Unused { a: string }\ntype Also = number;\nconst x = t.string();\n\nthrow new Error('boom');\n");
  for (const round of ['fresh', 'cached']) {
    const { diagnostics } = await loadSchemas([file], dir, { compiler: true });
    t.deepEqual(
      diagnostics.map((d) => [d.code, d.line, d.column]),
      [['DDB001', 6, 7]],
      round,
    );
  }
  t.true(readdirSync(path.join(dir, 'node_modules', '.cache', 'ddbgen', 'transpile')).some((f) => f.endsWith('.json')), 'the transpiled schema is cached in the project');
});
