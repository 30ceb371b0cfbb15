// A page per diagnostic code, from the one catalogue: every code has an explanation, docs/ holds
// exactly the rendered pages (regenerate with `npm run docs`), `ddbgen explain` prints them, and
// SARIF rules point at them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { main } from '../generator/cli/cli.js';
import { ALL_CODES, renderPages } from '../generator/diagnostics/pages.js';
import { lintSarif } from '../generator/lint/output.js';

const root = path.resolve(import.meta.dirname, '..');

test('every code in the catalogue has an explanation', (t) => {
  t.deepEqual(renderPages().missing, [], 'add these codes to explanations in generator/diagnostics/explanations.ts, then npm run docs');
});

test('docs/codes and docs/rules are exactly the rendered pages (npm run docs regenerates them)', (t) => {
  const { pages } = renderPages();
  const stale = [...pages].filter(([file, text]) => !existsSync(path.join(root, file)) || readFileSync(path.join(root, file), 'utf8') !== text).map(([file]) => file);
  t.deepEqual(stale, [], 'missing or stale pages: run npm run docs');
  const extra = ['docs/codes', 'docs/rules'].flatMap((folder) => readdirSync(path.join(root, folder)).map((name) => `${folder}/${name}`)).filter((file) => !pages.has(file));
  t.deepEqual(extra, [], 'pages of codes that no longer exist: run npm run docs');
});

test('ddbgen explain prints the page; an unknown code is a usage error with a suggestion', async (t) => {
  const run = async (args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await main(args, { cwd: root, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
    return { code, stdout, stderr };
  };
  t.deepEqual(await run(['explain', 'HK003']), { code: 0, stdout: readFileSync(path.join(root, 'docs/rules/HK003.md'), 'utf8'), stderr: '' });
  t.is((await run(['explain', 'ddb030'])).stdout, readFileSync(path.join(root, 'docs/codes/DDB030.md'), 'utf8'));
  t.deepEqual(await run(['explain', 'HK03']), { code: 2, stdout: '', stderr: 'ddbgen: no code "HK03"\n  did you mean HK003?\n  run ddbgen help explain for the usage\n' });
});

test('SARIF rules carry a full description, help and a helpUri to the page', (t) => {
  const rules = lintSarif([], '1.2.3').runs[0]!.tool.driver.rules;
  t.is(rules.length, ALL_CODES.filter((c) => c.startsWith('HK')).length);
  t.like(rules.find((r) => r.id === 'HK003'), {
    shortDescription: { text: 'HK003: time-bucket partition key without a shard' },
    helpUri: 'https://unpkg.com/ddbgen@1.2.3/docs/rules/HK003.md',
  });
  t.true(rules.every((r) => 'fullDescription' in r && 'help' in r && 'helpUri' in r));
});
