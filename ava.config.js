// ava's settings for `npm test` (and plain `npx ava`). Test files run two at a time (one per core);
// the files that take longest start first, so none of them is left running alone at the end of the
// run while the other slot has nothing to do (the longest first, then the rest in name order).
// The hooks that take minutes (building the site, installing from the registry) set limits of their
// own (t.timeout), so ava's 5 minutes without a finished test cannot run out while both slots are in one.
import { readdirSync, readFileSync } from 'node:fs';

const FIRST = [
  'test/docs-browser.test.ts',
  'test/bench.test.ts',
  'test/package.test.ts',
  'test/connected/migration.test.ts',
  'test/generation-cache.test.ts',
  'test/lint.test.ts',
  'test/connected/migration-library.test.ts',
  'test/groups/migration-workers.test.ts',
];
// test/groups/*.test.ts each run several test files in one worker (see there): those files are
// left out of the list here, so that each runs once, in its group.
const root = new URL('./', import.meta.url);
const groups = new URL('./test/groups/', import.meta.url);
const GROUPED = readdirSync(groups).flatMap((group) =>
  [...readFileSync(new URL(group, groups), 'utf8').matchAll(/^import '(\.\.\/.+)\.js';$/gm)].map((m) => `!${new URL(`${m[1]}.ts`, groups).href.slice(root.href.length)}`),
);
const rank = (file) => {
  const at = FIRST.findIndex((first) => file.endsWith(`/${first}`) || file === first);
  return at === -1 ? FIRST.length : at;
};

export default {
  files: ['test/**/*.test.ts', 'templates/runtime/**/*.test.ts', 'examples/**/*.test.ts', ...GROUPED],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  timeout: '5m',
  workerThreads: false,
  sortTestFiles: (a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0),
};
