// A page per diagnostic code, rendered from the one catalogue (messages.ts: explanations) for
// docs/codes/DDBnnn.md and docs/rules/HKnnn.md, `ddbgen explain CODE` and SARIF's help. `npm run
// docs` rewrites docs/ from here; test/docs.test.ts fails when a code has no page or a page is stale.

import { explanations, lintMessages, messages, type Explanation } from './messages.js';

/** Every code in the catalogue: validation codes, then lint rules. */
export const ALL_CODES: readonly string[] = [...Object.keys(messages), ...Object.keys(lintMessages)];

/** The page's path under the repository: docs/codes/DDB030.md or docs/rules/HK003.md. */
export const pagePath = (code: string) => `docs/${code.startsWith('HK') ? 'rules' : 'codes'}/${code}.md`;

/** Where a published version's page is read (the package ships docs/). */
export const pageUri = (code: string, version: string) => `https://unpkg.com/ddbgen@${version}/${pagePath(code)}`;

export function explanation(code: string): Explanation | undefined {
  return (explanations as Record<string, Explanation | undefined>)[code.toUpperCase()];
}

export function renderPage(given: string): string | undefined {
  const code = given.toUpperCase();
  const page = explanation(code);
  if (!page) return undefined;
  const kind = /^HK1\d\d$/.test(code)
    ? 'hot-key lint rule of `ddbgen lint --observed` (observed traffic against the declared)'
    : code.startsWith('HK')
      ? 'hot-key lint rule'
      : /^DDB30[0-3]$/.test(code)
        ? '`ddbgen pull` error'
        : /^DDB30[4-6]$/.test(code)
          ? '`ddbgen pull` warning'
          : /^DDB31[01]$/.test(code)
            ? '`ddbgen lint --observed` error'
            : code === 'DDB312'
              ? '`ddbgen lint --observed` warning'
              : 'schema validation error';
  return [
    `# ${code}: ${page.title}`,
    '',
    `<!-- generated from generator/diagnostics/messages.ts by npm run docs; do not edit -->`,
    '',
    `A ${kind}. ${page.why}`,
    '',
    '## Example',
    '',
    '```ts',
    page.example,
    '```',
    '',
    '## Fix',
    '',
    page.fix,
    '',
  ].join('\n');
}

/** The index of one folder (docs/codes/index.md, docs/rules/index.md): every code with its title, linked to its page. */
function renderIndex(rules: boolean): string {
  const codes = ALL_CODES.filter((code) => code.startsWith('HK') === rules).sort();
  return [
    rules ? '# Lint rules' : '# Validation codes',
    '',
    `<!-- generated from generator/diagnostics/messages.ts by npm run docs; do not edit -->`,
    '',
    rules
      ? 'The hot-key lint runs on every `ddbgen generate` and `ddbgen lint`; each rule has a page with an example and the fix (`ddbgen explain HK003` prints it). Severities are set per rule with `lint: { HK003: \'off\' }`. See also the [validation codes](../codes/).'
      : 'The codes of schema validation (a schema with an error generates nothing), generation and `ddbgen diff`. Each is printed with its file:line:column, the schema path and a fix, and has a page with an example (`ddbgen explain DDB030` prints it). See also the [lint rules](../rules/).',
    '',
    '| code | what |',
    '|---|---|',
    ...codes.map((code) => `| [${code}](./${code}.md) | ${explanation(code)?.title ?? ''} |`),
    '',
  ].join('\n');
}

/** Every page by path (each code's, and each folder's index), and the codes that have none. */
export function renderPages(): { pages: Map<string, string>; missing: string[] } {
  const pages = new Map<string, string>();
  const missing: string[] = [];
  for (const code of ALL_CODES) {
    const text = renderPage(code);
    if (text === undefined) missing.push(code);
    else pages.set(pagePath(code), text);
  }
  pages.set('docs/codes/index.md', renderIndex(false));
  pages.set('docs/rules/index.md', renderIndex(true));
  return { pages, missing };
}
