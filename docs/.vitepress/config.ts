// The documentation site: VitePress over docs/ (the guide, the recipes, the per-code pages that
// `npm run docs` writes from generator/diagnostics/messages.ts, and the API reference that
// `npm run docs:api` writes from the DSL's and the runtime's declarations). `npm run docs:dev`
// serves it, `npm run docs:build` writes the static site to docs/.vitepress/dist.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type DefaultTheme } from 'vitepress';

const docs = path.resolve(import.meta.dirname, '..');

/** The pages of a generated folder (docs/codes, docs/rules, docs/api/…) as sidebar links, by file name. */
function pagesOf(folder: string): DefaultTheme.SidebarItem[] {
  let files: string[];
  try {
    files = readdirSync(path.join(docs, folder)).filter((f) => f.endsWith('.md') && f !== 'index.md');
  } catch {
    return [];
  }
  return files.sort().map((f) => ({ text: f.replace(/\.md$/, ''), link: `/${folder}/${f.replace(/\.md$/, '')}` }));
}

const guide: DefaultTheme.SidebarItem[] = [
  {
    text: 'Getting started',
    items: [
      { text: 'Install and first query', link: '/guide/getting-started' },
      { text: 'In your project', link: '/guide/project' },
      { text: 'The command line', link: '/guide/cli' },
      { text: 'In your editor', link: '/guide/editor' },
    ],
  },
  {
    text: 'Concepts',
    items: [
      { text: 'Entities and writes', link: '/guide/entities' },
      { text: 'Keys and the codec', link: '/guide/keys' },
      { text: 'Indexes', link: '/guide/indexes' },
      { text: 'Queries, patterns and cursors', link: '/guide/queries' },
      { text: 'Collections', link: '/guide/collections' },
      { text: 'Edges', link: '/guide/edges' },
      { text: 'Sharding and time series', link: '/guide/sharding' },
      { text: 'TTL and table settings', link: '/guide/ttl' },
      { text: 'Streams', link: '/guide/streams' },
      { text: 'The lint and the planner', link: '/guide/lint' },
      { text: 'Telemetry', link: '/guide/telemetry' },
      { text: 'Schema evolution', link: '/guide/schema-evolution' },
      { text: 'Migrations', link: '/guide/migrations' },
      { text: 'Security', link: '/guide/security' },
      { text: 'IAM policies', link: '/guide/iam' },
      { text: 'Existing tables', link: '/guide/existing-tables' },
      { text: 'Testing', link: '/guide/testing' },
      { text: 'Generated code', link: '/guide/generated-code' },
      { text: 'Performance', link: '/guide/performance' },
    ],
  },
];

const recipes: DefaultTheme.SidebarItem[] = [
  {
    text: 'Recipes',
    items: [
      { text: 'Overview', link: '/recipes/' },
      { text: 'The election counter', link: '/recipes/election-counter' },
      { text: 'The fan graph', link: '/recipes/fan-graph' },
      { text: 'The click stream', link: '/recipes/click-stream' },
      { text: 'The sequence table', link: '/recipes/sequence-table' },
      { text: 'Weather stations', link: '/recipes/weather-stations' },
    ],
  },
];

export default defineConfig({
  title: 'ddbgen',
  description: 'DynamoDB single-table designs in a TypeScript DSL: safe composite keys, typed repositories and a hot-key lint.',
  // DOCS_BASE=/ddbgen/ when the site is served from a sub-path (GitHub Pages of a project)
  base: process.env.DOCS_BASE ?? '/',
  lang: 'en',
  lastUpdated: false,
  markdown: {
    config(md) {
      // The per-code pages are also printed by `ddbgen explain`, so their prose writes key
      // templates as they are (`the <Name>Table class`): there, angle brackets are text, not HTML.
      md.core.ruler.after('inline', 'ddbgen-literal-angles', (state) => {
        if (!/^(codes|rules)\//.test(String(state.env.relativePath ?? ''))) return;
        for (const token of state.tokens) for (const child of token.children ?? []) if (child.type === 'html_inline' && !child.content.startsWith('<!--')) child.type = 'text';
      });
    },
  },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started', activeMatch: '^/guide/' },
      { text: 'Recipes', link: '/recipes/', activeMatch: '^/recipes/' },
      { text: 'Diagnostics', link: '/codes/', activeMatch: '^/(codes|rules)/' },
      { text: 'API', link: '/api/', activeMatch: '^/api/' },
    ],
    sidebar: {
      '/guide/': [...guide, ...recipes],
      '/recipes/': [...recipes, ...guide],
      '/codes/': [
        { text: 'Diagnostics', items: [{ text: 'Validation codes', link: '/codes/' }, { text: 'Lint rules', link: '/rules/' }] },
        { text: 'Validation codes', collapsed: true, items: pagesOf('codes') },
      ],
      '/rules/': [
        { text: 'Diagnostics', items: [{ text: 'Validation codes', link: '/codes/' }, { text: 'Lint rules', link: '/rules/' }] },
        { text: 'Lint rules', items: pagesOf('rules') },
      ],
      '/api/': [
        { text: 'API reference', items: [{ text: 'Overview', link: '/api/' }] },
        { text: 'DSL', items: [{ text: "ddbgen (what a schema imports)", link: '/api/ddbgen' }] },
        { text: 'Runtime (generated output)', collapsed: false, items: pagesOf('api/runtime') },
      ],
    },
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
});
