// What an output weighs in an application's bundle, and why: the table class of a generated output
// bundled as an app would bundle it (esbuild, ESM, minified, the SDK external), with the bytes each
// input module keeps after tree-shaking, the modules that import it, and the bytes of each
// top-level declaration that survives. `npx tsx bench/footprint.ts [--declarations N]` prints the
// social fixture and a one-entity table; bench/sections/footprint.ts (section 6 of bench/run.ts) reports the same figures.
// Apps per feature set (APPS: a Lambda handler that gets and puts, one that also queries, the same
// through the table class) are bundled the same way, with the runtime modules whose code each keeps,
// and timed from a new Node process to its first request (`appTiming`).

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, transformSync, type Metafile } from 'esbuild';
import ts from 'typescript';
import { STARTER_SCHEMA } from '../generator/cli/init.js';
import { median } from './stats.js';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '..');

/** A schema to measure: its file and the table class its output exports. */
export interface Subject {
  readonly label: string;
  readonly schema: string;
  readonly folder: string;
  readonly className: string;
}

/** The schema `ddbgen init` writes (User and Order), as bench/out/readme/schema.ts: the app the README teaches. */
function starterSchema(): string {
  const file = path.join(here, 'out', 'readme', 'schema.ts');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, STARTER_SCHEMA);
  return file;
}

export const SUBJECTS: readonly Subject[] = [
  { label: 'social fixture', schema: path.join(root, 'fixtures/social.ts'), folder: 'social', className: 'SocialTable' },
  { label: 'one entity', schema: path.join(here, 'one-entity.ts'), folder: 'shop', className: 'ShopTable' },
  { label: 'README app', schema: starterSchema(), folder: 'app', className: 'AppTable' },
];

export interface ModuleBytes {
  /** `runtime/codec.js`, `article.ts`. */
  readonly file: string;
  readonly bytes: number;
  /** The modules of the bundle that import this one. */
  readonly importedBy: readonly string[];
}

export interface DeclarationBytes {
  readonly file: string;
  readonly name: string;
  /** Minified on its own (names as in the bundle, not mangled across it): a close estimate, not the bundle's exact share. */
  readonly bytes: number;
}

export interface Footprint {
  readonly subject: Subject;
  readonly minified: number;
  readonly gzipped: number;
  readonly modules: readonly ModuleBytes[];
  readonly declarations: readonly DeclarationBytes[];
}

/** `…/bench/out/social/runtime/codec.js` → `runtime/codec.js`. */
const shortName = (file: string) => {
  const parts = file.split('/');
  return parts.at(-2) === 'runtime' ? `runtime/${parts.at(-1)}` : parts.at(-1)!;
};

const generated = new Set<string>();

/** Generates the subject's output into `<base>/out` (once per process). */
export function generateSubject(subject: Subject, base = here): void {
  generate(subject, base);
}

function generate(subject: Subject, base = here): void {
  const out = path.join(base, 'out');
  if (generated.has(`${subject.schema}\0${out}`)) return;
  execFileSync(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'generate', subject.schema, '--out', out, '--quiet'], { stdio: 'inherit' });
  generated.add(`${subject.schema}\0${out}`);
}

/** `contents` (a module of `base`, bench/ by default) bundled as an app's bundler would: ESM, the SDK external. */
const bundleOptions = (contents: string, base = here) => ({
  stdin: { contents, resolveDir: base, loader: 'ts' as const },
  bundle: true,
  write: false as const,
  metafile: true as const,
  format: 'esm' as const,
  platform: 'node' as const,
  external: ['@aws-sdk/*', '@smithy/*'],
});

/** Generates the subject's output into bench/out and measures its bundle. */
export async function footprint(subject: Subject): Promise<Footprint> {
  generate(subject);
  return measure(subject, `export { ${subject.className} } from './out/${subject.folder}/index.js';`);
}

async function measure(subject: Subject, contents: string, base = here): Promise<Footprint> {
  const options = bundleOptions(contents, base);
  const minified = await build({ ...options, minify: true });
  const bytes = minified.outputFiles[0]!.contents;
  const metafile = minified.metafile;
  const kept = Object.entries(Object.values(metafile.outputs)[0]!.inputs);
  const modules = kept
    .filter(([file]) => file !== '<stdin>')
    .map(([file, input]) => ({ file: shortName(file), bytes: input.bytesInOutput, importedBy: importers(metafile, file) }))
    .sort((a, b) => b.bytes - a.bytes);
  // The same bundle unminified keeps a `// path` comment before each module's code: each top-level
  // statement after it is minified alone to weigh it.
  const plain = await build({ ...options, minify: false });
  return { subject, minified: bytes.length, gzipped: gzipSync(bytes).length, modules, declarations: declarations(plain.outputFiles[0]!.text) };
}

/** A Lambda-sized app: a handler using some operations of a generated output, as a user writes it. */
export interface App {
  /** `get/put`, `get/put/query`, `the table class`. */
  readonly features: string;
  readonly subject: Subject;
  /** The handler module: `handler(client, event)` sends its requests through `client`. */
  readonly source: string;
}

/** An event the handlers of a subject take (JavaScript source): an item to put and the key to get, valid, so the first request is sent. */
const EVENTS: Readonly<Record<string, string>> = {
  shop: `{ item: { userId: 'u1', orderId: 'o1', placedAt: new Date(0), total: 1 }, key: { userId: 'u1', placedAt: new Date(0), orderId: 'o1' } }`,
  social: `{ item: { id: 'u1', email: 'u1@example.com', status: 'ACTIVE', joinedAt: new Date(0) }, key: { id: 'u1' } }`,
  app: `{ item: { userId: 'u1', orderId: 'o1', placedAt: new Date(0), total: 1 }, key: { userId: 'u1', placedAt: new Date(0), orderId: 'o1' } }`,
};

const [social, oneEntity, readme] = SUBJECTS as [Subject, Subject, Subject];
const from = (subject: Subject) => `./out/${subject.folder}/index.js`;

/**
 * The feature sets measured: the function forms of the operations, and the table class (`db.order.get`) for the same work.
 * The README app is the starter's Order written as the README and the getting-started page write it (the function forms over
 * `createAppContext`), and the same through the table class.
 */
export const APPS: readonly App[] = [
  {
    features: 'get/put/query',
    subject: readme,
    source: `import { createAppContext, orderGet, orderPut, orderQuery } from '${from(readme)}';
export async function handler(client, event) { const db = createAppContext(client); await orderPut(db, event.item); return [await orderGet(db, event.key), await orderQuery(db, event.key)]; }`,
  },
  {
    features: 'get/put/query through the table class',
    subject: readme,
    source: `import { AppTable } from '${from(readme)}';
export async function handler(client, event) { const db = new AppTable(client); await db.order.put(event.item); return [await db.order.get(event.key), await db.order.query(event.key)]; }`,
  },
  {
    features: 'get/put',
    subject: oneEntity,
    source: `import { createShopContext, orderGet, orderPut } from '${from(oneEntity)}';
export async function handler(client, event) { const db = createShopContext(client); await orderPut(db, event.item); return orderGet(db, event.key); }`,
  },
  {
    features: 'get/put/query',
    subject: oneEntity,
    source: `import { createShopContext, orderGet, orderPut, orderQuery } from '${from(oneEntity)}';
export async function handler(client, event) { const db = createShopContext(client); await orderPut(db, event.item); return [await orderGet(db, event.key), await orderQuery(db, event.key)]; }`,
  },
  {
    features: 'get/put/query through the table class',
    subject: oneEntity,
    source: `import { ShopTable } from '${from(oneEntity)}';
export async function handler(client, event) { const db = new ShopTable(client); await db.order.put(event.item); return [await db.order.get(event.key), await db.order.query(event.key)]; }`,
  },
  {
    features: 'get/put',
    subject: social,
    source: `import { createSocialContext, userGet, userPut } from '${from(social)}';
export async function handler(client, event) { const db = createSocialContext(client); await userPut(db, event.item); return userGet(db, event.key); }`,
  },
  {
    features: 'get/put/query',
    subject: social,
    source: `import { createSocialContext, userGet, userPut, articleQuery } from '${from(social)}';
export async function handler(client, event) { const db = createSocialContext(client); await userPut(db, event.item); return [await userGet(db, event.key), await articleQuery(db, event.key)]; }`,
  },
  {
    features: 'get/put/query through the table class',
    subject: social,
    source: `import { SocialTable } from '${from(social)}';
export async function handler(client, event) { const db = new SocialTable(client); await db.user.put(event.item); return [await db.user.get(event.key), await db.article.query(event.key)]; }`,
  },
];

export interface AppFootprint extends Footprint {
  readonly app: App;
  /** The runtime modules that keep at least one declaration in the bundle (an import statement alone is not code). */
  readonly runtime: readonly string[];
  /** The bundle, unminified, to look into. */
  readonly text: string;
}

/** Generates the app's output into `<base>/out` (bench/out by default) and measures its bundle. */
export async function appFootprint(app: App, base = here): Promise<AppFootprint> {
  generate(app.subject, base);
  const result = await measure(app.subject, app.source, base);
  const text = (await build({ ...bundleOptions(app.source, base), minify: false })).outputFiles[0]!.text;
  const runtime = [...new Set(result.declarations.map((d) => d.file).filter((f) => f.startsWith('runtime/')))].sort();
  return { ...result, app, runtime, text };
}

/**
 * Milliseconds from starting a new Node process to the app's first request: the bundle imported
 * (and the SDK it imports), the handler run until it hands its first command to the client (a
 * stub that answers at once). The median of `rounds`.
 */
export async function appTiming(app: App, rounds: number): Promise<number> {
  const bundle = await appBundle(app);
  return median(Array.from({ length: rounds }, () => firstRequest(bundle)));
}

/** The same get and put written by hand against lib-dynamodb: what the times above compare with. */
const BASELINE = `import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
export async function handler(client, event) {
  await client.send(new PutCommand({ TableName: 'Shop', Item: { ...event.item, placedAt: event.item.placedAt.toISOString(), pk: 'User#' + event.item.userId, sk: 'Order#' + event.item.placedAt.toISOString() + '#' + event.item.orderId } }));
  return (await client.send(new GetCommand({ TableName: 'Shop', Key: { pk: 'User#' + event.key.userId, sk: 'Order#' + event.key.placedAt.toISOString() + '#' + event.key.orderId } }))).Item;
}`;

/** A minified bundle written to bench/out/bundles, with the event its handler is called with. */
interface Bundle {
  readonly file: string;
  readonly event: string;
}

async function writeBundle(name: string, source: string, event: string): Promise<Bundle> {
  const file = path.join(here, 'out', 'bundles', `${name}.mjs`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, (await build({ ...bundleOptions(source), minify: true })).outputFiles[0]!.contents);
  return { file, event };
}

async function appBundle(app: App): Promise<Bundle> {
  generate(app.subject);
  return writeBundle(`${app.subject.folder}-${app.features.replace(/\W+/g, '-')}`, app.source, EVENTS[app.subject.folder]!);
}

/** Milliseconds from a new Node process's start to the bundle's first request (performance.now() counts from the start). */
function firstRequest(bundle: Bundle): number {
  const script = `const { handler } = await import(${JSON.stringify(bundle.file)});
const client = { send: async () => { process.stdout.write(String(performance.now())); process.exit(0); } };
await handler(client, ${bundle.event});
throw new Error('the handler sent no request');`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }));
}


/** The inputs of the bundle that import `file`, by short name. */
function importers(metafile: Metafile, file: string): string[] {
  return Object.entries(metafile.inputs)
    .filter(([, input]) => input.imports.some((i) => i.path === file))
    .map(([importer]) => (importer === '<stdin>' ? '(entry)' : shortName(importer)))
    .sort();
}

function declarations(text: string): DeclarationBytes[] {
  const source = ts.createSourceFile('bundle.js', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const out: DeclarationBytes[] = [];
  let file = '(entry)';
  for (const statement of source.statements) {
    const comment = /\/\/ (\S+)\s*$/.exec(text.slice(statement.getFullStart(), statement.getStart(source)).trimEnd());
    if (comment) file = shortName(comment[1]!);
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) continue;
    const bytes = transformSync(statement.getText(source), { minify: true, loader: 'js' }).code.trimEnd().length;
    out.push({ file, name: declarationName(statement, source), bytes });
  }
  return out.sort((a, b) => b.bytes - a.bytes);
}

function declarationName(statement: ts.Statement, source: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) return statement.name.text;
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((d) => d.name.getText(source)).join(', ');
  return statement.getText(source).slice(0, 40).replace(/\s+/g, ' ');
}

/**
 * Code the calls of an app can reach only through one family of options, e.g. a put's condition and
 * version handling: a family is named by the functions it starts from (`planPut`), and costs the
 * top-level declarations of the bundle reachable from the app only through them (by the identifiers
 * each declaration names). Reported as what the app would weigh without them (minified, gzipped).
 */
export interface OptionFamily {
  readonly label: string;
  /** Declarations the family starts from, by their names in the bundle. */
  readonly roots: readonly string[];
}

/** The families of options a get/put/query app carries whether it passes them or not. */
export const OPTION_FAMILIES: readonly OptionFamily[] = [
  { label: "a put's condition, version and create/replace handling", roots: ['planPut'] },
  { label: 'reading a cursor (a page after the first)', roots: ['decodeCursor'] },
  { label: 'making a cursor (a page with more to read)', roots: ['encodeCursor'] },
  { label: "a query's `where` sort-key conditions", roots: ['planSortCondition'] },
];

/** The gzipped bytes of an app's bundle without each family's code, and without all of them together. */
export function optionCosts(app: AppFootprint, families: readonly OptionFamily[] = OPTION_FAMILIES): Array<{ label: string; gzipped: number; removed: number }> {
  const source = ts.createSourceFile('bundle.js', app.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const statements = source.statements.filter((s) => !ts.isImportDeclaration(s));
  const declared = new Map<string, number>();
  const uses = statements.map((statement, at) => {
    const names = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node)) names.add(node.text);
      node.forEachChild(visit);
    };
    visit(statement);
    for (const name of declaredNames(statement)) declared.set(name, at);
    return names;
  });
  // what the app starts from: statements that declare nothing (its handler's export, top-level calls) and the handler
  const roots = statements.flatMap((statement, at) => (declaredNames(statement).length === 0 || declaredNames(statement).includes('handler') ? [at] : []));
  const reachable = (cut: ReadonlySet<number>): Set<number> => {
    const seen = new Set<number>();
    const stack = roots.filter((at) => !cut.has(at));
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      for (const name of uses[at]!) {
        const target = declared.get(name);
        if (target !== undefined && !cut.has(target) && !seen.has(target)) stack.push(target);
      }
    }
    return seen;
  };
  const weigh = (kept: ReadonlySet<number>) => {
    const text = statements.filter((_, at) => kept.has(at)).map((s) => s.getText(source)).join('\n');
    return gzipSync(transformSync(text, { minify: true, treeShaking: false, loader: 'js' }).code).length;
  };
  const all = reachable(new Set());
  const whole = weigh(all);
  const cutOf = (family: OptionFamily) => new Set(family.roots.map((name) => declared.get(name)).filter((at): at is number => at !== undefined));
  const rows = families.map((family) => ({ label: family.label, cut: cutOf(family) }));
  rows.push({ label: 'all of these', cut: new Set(rows.flatMap((row) => [...row.cut])) });
  return [{ label: 'the app as it is', gzipped: whole, removed: 0 }, ...rows.map((row) => {
    const kept = reachable(row.cut);
    return { label: row.label, gzipped: weigh(kept), removed: all.size - kept.size };
  })];
}

function declaredNames(statement: ts.Statement): string[] {
  if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) return [statement.name.text];
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  return [];
}

/** The apps per feature set as a Markdown table: bytes, the runtime modules kept, and (`rounds` > 0) the time to the first request. */
export async function appTable(rounds: number): Promise<string> {
  return (await appSizes(rounds)).text;
}

/** The apps per feature set (`apps`, every one of APPS by default): the Markdown table, and each app's gzipped bytes (for the goals). */
export async function appSizes(rounds: number, apps: readonly App[] = APPS): Promise<{ text: string; apps: Array<{ subject: string; features: string; gzipped: number }> }> {
  const rows: Array<{ label: string; min: number; gz: number; runtime: string; bundle: Bundle; times: number[] }> = [];
  if (rounds > 0) {
    const bytes = (await build({ ...bundleOptions(BASELINE), minify: true })).outputFiles[0]!.contents;
    rows.push({ label: '| one entity | get/put, hand-written lib-dynamodb (baseline)', min: bytes.length, gz: gzipSync(bytes).length, runtime: '–', bundle: await writeBundle('baseline-get-put', BASELINE, EVENTS['shop']!), times: [] });
  }
  for (const app of apps) {
    const result = await appFootprint(app);
    const runtime = result.runtime.map((m) => m.replace(/^runtime\/|\.js$/g, '')).join(', ');
    rows.push({ label: `| ${app.subject.label} | ${app.features}`, min: result.minified, gz: result.gzipped, runtime, bundle: await appBundle(app), times: [] });
  }
  // every bundle once per round, in rotating order, so a busy moment slows them alike
  for (let round = 0; round < rounds; round++) for (let i = 0; i < rows.length; i++) {
    const row = rows[(i + round) % rows.length]!;
    row.times.push(firstRequest(row.bundle));
  }
  const base = rows[0]!.times;
  const lines = rows.map((row) => {
    const time = rounds > 0 ? `${median(row.times).toFixed(0)} ms (${median(row.times.map((t, i) => t / base[i]!)).toFixed(2)}×)` : '–';
    return `${row.label} | ${kB(row.min)} | ${kB(row.gz)} | ${time} | ${row.runtime} |`;
  });
  return {
    text: ['| schema | app uses | minified | gzipped | node start to first request (ratio to baseline) | runtime modules kept |', '|---|---|---|---|---|---|', ...lines].join('\n'),
    apps: apps.map((app) => ({ subject: app.subject.label, features: app.features, gzipped: rows.find((row) => row.label === `| ${app.subject.label} | ${app.features}`)!.gz })),
  };
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** A footprint as text: totals, every module with its importers, and the `top` heaviest declarations. */
export function describe(result: Footprint, top = 25): string {
  const runtime = result.modules.filter((m) => m.file.startsWith('runtime/')).reduce((sum, m) => sum + m.bytes, 0);
  const lines = [
    `${result.subject.label} (${result.subject.className}): ${kB(result.minified)} minified (runtime ${kB(runtime)}, generated ${kB(result.minified - runtime)}), ${kB(result.gzipped)} gzipped`,
    '',
    '  module                        bytes  imported by',
    ...result.modules.map((m) => `  ${m.file.padEnd(28)} ${String(m.bytes).padStart(6)}  ${m.importedBy.join(', ')}`),
    '',
    `  heaviest declarations (each minified alone)`,
    ...result.declarations.slice(0, top).map((d) => `  ${`${d.file} ${d.name}`.padEnd(60)} ${String(d.bytes).padStart(6)}`),
  ];
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const at = process.argv.indexOf('--declarations');
  const top = at === -1 ? 25 : Number(process.argv[at + 1]);
  for (const subject of SUBJECTS) process.stdout.write(`${describe(await footprint(subject), top)}\n\n`);
  process.stdout.write(`${await appTable(process.argv.includes('--timing') ? 9 : 0)}\n`);
  for (const app of APPS.filter((a) => a.features === 'get/put/query')) {
    process.stdout.write(`\n${app.subject.label} (get/put/query) without the code of one family of options:\n`);
    for (const row of optionCosts(await appFootprint(app))) process.stdout.write(`  ${row.label.padEnd(60)} ${kB(row.gzipped).padStart(8)} gzipped (${row.removed} declarations fewer)\n`);
  }
}
