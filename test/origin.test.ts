// The "regenerate with" command in generated headers: canonical per table (given/want), and the CLI
// proof that output generated several schemas at a time passes `--check` of each schema alone, from
// any folder of the project, with absolute or relative paths.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { main } from '../generator/cli/cli.js';
import { projectPath, regenerateCommand, type CommandInputs } from '../generator/cli/origin.js';
import { packageVersion } from '../generator/package-root.js';

const p = (...parts: string[]) => path.join('/p', ...parts);
const defaults = { root: p(), out: p('out'), defaultOut: p('out'), emit: 'ts', defaultEmit: 'ts' } as const;

const commands: Array<[string, Partial<CommandInputs> & Pick<CommandInputs, 'source'>, string]> = [
  ['a schema in the project, default output', { source: { schema: p('fixtures/social.ts') } }, 'npx ddbgen generate fixtures/social.ts'],
  ['a schema outside the project is absolute', { source: { schema: '/elsewhere/s.ts' } }, 'npx ddbgen generate /elsewhere/s.ts'],
  ['a folder whose name starts with two dots is inside', { source: { schema: p('..x/s.ts') } }, 'npx ddbgen generate ..x/s.ts'],
  ['--out only when it is not the default', { source: { schema: p('s.ts') }, out: p('src/gen') }, 'npx ddbgen generate s.ts --out src/gen'],
  ['--out outside the project', { source: { schema: p('s.ts') }, out: '/tmp/gen' }, 'npx ddbgen generate s.ts --out /tmp/gen'],
  ['--emit only when it is not the default', { source: { schema: p('s.ts') }, emit: 'js' }, 'npx ddbgen generate s.ts --emit js'],
  ['a config found from the project root', { source: { config: undefined } }, 'npx ddbgen generate'],
  ['a config elsewhere is named', { source: { config: p('infra/ddbgen.config.mts') } }, 'npx ddbgen generate -c infra/ddbgen.config.mts'],
  ["the config's own out and emit are defaults", { source: { config: undefined }, out: p('gen'), defaultOut: p('gen'), emit: 'js', defaultEmit: 'js' }, 'npx ddbgen generate'],
  ["overriding the config's emit", { source: { config: undefined }, emit: 'ts', defaultEmit: 'js' }, 'npx ddbgen generate --emit ts'],
  ['words quoted for a POSIX shell', { source: { schema: p("my schemas/it's.ts") } }, "npx ddbgen generate 'my schemas/it'\\''s.ts'"],
];
for (const [name, given, want] of commands) {
  test(`regenerateCommand: ${name}`, (t) => {
    t.is(regenerateCommand({ ...defaults, ...given }), want);
  });
}

test('projectPath: relative with / inside the root, absolute outside', (t) => {
  t.is(projectPath(p(), p('a', 'b.ts')), 'a/b.ts');
  t.is(projectPath(p(), p()), '.');
  t.is(projectPath(p('sub'), p('b.ts')), p('b.ts'));
});

async function run(args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { cwd, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

const schema = (name: string) => `import { defineTable, entity, t } from 'ddbgen';
export default defineTable({
  name: '${name}',
  entities: { Item: entity({ attributes: { id: t.string() }, key: { pk: 'ITEM#<id>', sk: 'ITEM' } }) },
});
`;

test('CLI: output generated from several schemas at once is fresh for --check of each schema alone, from any folder, relative or absolute', async (t) => {
  const project = mkdtempSync(path.join(tmpdir(), 'ddbgen-origin-'));
  mkdirSync(path.join(project, 'schemas'));
  writeFileSync(path.join(project, 'package.json'), '{ "private": true }\n');
  for (const name of ['One', 'Two', 'Three']) writeFileSync(path.join(project, 'schemas', `${name.toLowerCase()}.ts`), schema(name));
  const schemas = path.join(project, 'schemas');

  const all = await run(['generate', 'schemas/two.ts', 'schemas/one.ts', path.join(schemas, 'three.ts')], project);
  t.is(all.code, 0, all.stderr);
  t.is(
    readFileSync(path.join(project, 'out/two/index.ts'), 'utf8').split('\n')[1],
    `// ddbgen ${packageVersion()} from schemas/two.ts; regenerate with: npx ddbgen generate schemas/two.ts`,
  );
  const fresh = { code: 0, stdout: 'ddbgen: out is up to date (1 table)\n', stderr: '' };
  t.deepEqual(await run(['generate', 'schemas/one.ts', '--check'], project), fresh);
  t.deepEqual(await run(['generate', path.join(schemas, 'two.ts'), '--check'], project), fresh);
  t.deepEqual(await run(['generate', 'three.ts', '--out', '../out', '--check'], schemas), { ...fresh, stdout: 'ddbgen: ../out is up to date (1 table)\n' });

  // a non-default output root, named from a subfolder, is named from the project root
  t.is((await run(['generate', 'one.ts', 'two.ts', '--out', 'gen'], schemas)).code, 0);
  t.regex(readFileSync(path.join(schemas, 'gen/one/index.ts'), 'utf8'), /regenerate with: npx ddbgen generate schemas\/one\.ts --out schemas\/gen\n/);
  t.is((await run(['generate', 'schemas/one.ts', '--out', 'schemas/gen', '--check'], project)).code, 0);

  // output made from a config names the config's command: a schema alone is another command
  writeFileSync(path.join(project, 'ddbgen.config.ts'), "import { defineConfig } from 'ddbgen';\nexport default defineConfig({ schemas: ['schemas/*.ts'] });\n");
  t.is((await run(['generate'], schemas)).code, 0);
  t.is((await run(['generate', '-c', '../ddbgen.config.ts', '--check'], schemas)).code, 0);
  t.is((await run(['generate', '--check'], project)).code, 0);
  t.regex(readFileSync(path.join(project, 'out/one/index.ts'), 'utf8'), /regenerate with: npx ddbgen generate\n/);
  const other = await run(['generate', 'schemas/one.ts', '--check'], project);
  t.is(other.code, 1);
  const files = readdirSync(path.join(project, 'out/one'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
  t.is(other.stderr, `stale: out/one/ (${files} files whose header names another command)\nddbgen: the output in out is stale; run ddbgen generate\n`);
});
