// The layers of ddbgen, checked by `npm test` (test/architecture.test.ts runs dependency-cruiser
// with this file; docs/guide/contributing.md explains them). A module imports its own layer or a
// lower one, never a higher one, and no import circle stands anywhere.

/** From the bottom. Each entry: its name and the paths (regular expressions from the root) it holds. */
const LAYERS = [
  ['foundation', ['^dsl/', '^templates/runtime/[^/]+$', '^generator/(package-root|project-root|ts-morph|command-io)\\.ts$']],
  ['in-memory and migration engines', ['^templates/runtime/(in-memory|migration)/']],
  ['model', ['^generator/model/', '^generator/diagnostics/']],
  ['validate', ['^generator/validate/']],
  ['lint', ['^generator/lint/']],
  ['plan, iam, emit', ['^generator/(plan|iam|emit)/']],
  ['load', ['^generator/load/']],
  ['diff, pull, report, local', ['^generator/(diff|pull|report|local)/']],
  ['cli, editor', ['^generator/(cli|editor)/']],
];

const upward = LAYERS.slice(0, -1).map(([name, paths], i) => ({
  name: `no-upward-import-from-${name.replace(/\W+/g, '-')}`,
  severity: 'error',
  comment: `The ${name} layer imports a layer above it. Move what it needs down (or pass it in from above).`,
  from: { path: paths },
  to: { path: LAYERS.slice(i + 1).flatMap(([, above]) => above) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: its modules cannot be understood, tested or loaded one without the others. Move what they share into a module of its own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-engine-to-engine-import',
      severity: 'error',
      comment: 'The in-memory engine and the migration engine ship apart (every output with the one, migration programs alone with the other): neither imports the other. What both need belongs in the app runtime.',
      from: { path: '^templates/runtime/(in-memory|migration)/' },
      to: { path: '^templates/runtime/(in-memory|migration)/', pathNot: '^templates/runtime/$1/' },
    },
    {
      name: 'no-unlayered-module',
      severity: 'error',
      comment: 'A generator or runtime module outside every layer: add its folder to LAYERS in .dependency-cruiser.cjs.',
      from: { path: '^(generator|templates/runtime)/', pathNot: LAYERS.flatMap(([, paths]) => paths) },
      to: {},
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|out)/|\\.test\\.ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
