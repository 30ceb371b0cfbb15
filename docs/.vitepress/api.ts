// `npm run docs:api`: the API reference, written by TypeDoc (typedoc-plugin-markdown) into
// docs/api/ from the declarations of the DSL (what `import … from 'ddbgen'` gives a schema) and of
// the runtime as the generated code exports it. Which runtime names are public is read from the
// generated index modules under out/ (what `out/<table>/index.ts` re-exports from `./runtime/`), so
// the reference lists exactly what an app can import. Needs `npm run build && npm run generate`.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { Application } from 'typedoc';

const root = path.resolve(import.meta.dirname, '../..');
const outRoot = path.join(root, 'out');
const entries = path.join(outRoot, '.docs-api');
const target = path.join(root, 'docs/api');

/** What the generated index modules re-export from each runtime module: `*`, or names (type-only or not). */
function runtimeExports(): Map<string, Map<string, boolean> | '*'> {
  const modules = new Map<string, Map<string, boolean> | '*'>();
  const tables = existsSync(outRoot) ? readdirSync(outRoot).filter((d) => existsSync(path.join(outRoot, d, 'index.ts'))) : [];
  if (!tables.length) throw new Error('docs:api: no generated output under out/; run npm run build && npm run generate first');
  for (const table of tables) {
    const file = path.join(outRoot, table, 'index.ts');
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const match = /^\.\/runtime\/([\w-]+)\.js$/.exec(statement.moduleSpecifier.text);
      if (!match) continue;
      const name = match[1]!;
      if (!statement.exportClause) {
        modules.set(name, '*');
        continue;
      }
      const names = modules.get(name);
      if (names === '*' || !ts.isNamedExports(statement.exportClause)) continue;
      const known = names ?? new Map<string, boolean>();
      for (const element of statement.exportClause.elements) known.set(element.name.text, statement.isTypeOnly || element.isTypeOnly);
      modules.set(name, known);
    }
  }
  return modules;
}

rmSync(entries, { recursive: true, force: true });
mkdirSync(entries, { recursive: true });
const dsl = path.join(entries, 'ddbgen.ts');
writeFileSync(dsl, `/**\n * What a schema module imports: \`import { defineTable, entity, t } from 'ddbgen'\`.\n * @module ddbgen\n */\nexport * from '../../dsl/index.js';\n`);
const entryPoints = [dsl];
for (const [module, names] of [...runtimeExports()].sort(([a], [b]) => a.localeCompare(b))) {
  const from = `../../templates/runtime/${module}.js`;
  const body = names === '*' ? `export * from '${from}';` : `export { ${[...names].sort(([a], [b]) => a.localeCompare(b)).map(([n, typeOnly]) => (typeOnly ? `type ${n}` : n)).join(', ')} } from '${from}';`;
  const file = path.join(entries, `${module}.ts`);
  writeFileSync(file, `/**\n * The runtime's ${module} module, as \`out/<table>/index.ts\` re-exports it.\n * @module runtime/${module}\n */\n${body}\n`);
  entryPoints.push(file);
}
writeFileSync(
  path.join(entries, 'tsconfig.json'),
  JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { rootDir: '../..' }, include: [...entryPoints.map((f) => path.relative(entries, f)), '../../dsl', '../../templates/runtime'], exclude: ['../../templates/runtime/**/*.test.ts'] }),
);

rmSync(target, { recursive: true, force: true });
const app = await Application.bootstrapWithPlugins({
  entryPoints,
  tsconfig: path.join(entries, 'tsconfig.json'),
  plugin: ['typedoc-plugin-markdown'],
  out: target,
  readme: 'none',
  excludePrivate: true,
  excludeInternal: true,
  disableSources: true,
  hideGenerator: true,
  githubPages: false,
  // one page per module (the DSL, each runtime module), every member a heading of it
  outputFileStrategy: 'modules',
  entryFileName: 'index',
  hidePageHeader: true,
  useCodeBlocks: true,
  parametersFormat: 'table',
  sanitizeComments: true,
  logLevel: 'Warn',
  // TypeDoc's own type check of the program is skipped: the same declarations are type-checked by
  // `tsc --noEmit -p .` (and `npm test`'s typecheck), and the pages it writes are the same byte for
  // byte with or without it, for about a quarter less of the CPU its run takes.
  skipErrorChecking: true,
} as Parameters<typeof Application.bootstrapWithPlugins>[0]);
const project = await app.convert();
if (!project) throw new Error('docs:api: TypeDoc could not convert the declarations');
await app.generateOutputs(project);
fixAnchors();
introduce();
process.stdout.write(`ddbgen docs:api: ${readdirSync(target, { recursive: true }).filter((f) => String(f).endsWith('.md')).length} pages in docs/api\n`);

/** How VitePress names a heading's anchor (its slugify; duplicates get -1, -2, …). */
function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(/[\u0000-\u001f]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/**
 * TypeDoc numbers the anchors of headings it thinks repeat by its own rule; VitePress numbers them
 * by its own. Each link whose anchor the target page does not have, but whose unnumbered form it
 * has, is pointed at that (the browser test checks every anchor of the site).
 */
function fixAnchors(): void {
  const files = (readdirSync(target, { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).map((f) => path.join(target, f));
  const anchors = new Map<string, Set<string>>();
  for (const file of files) {
    const found = new Set<string>();
    let fence = false;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.startsWith('```')) fence = !fence;
      const heading = fence ? null : /^#{1,6} (.*)$/.exec(line);
      if (heading) {
        const slug = slugify(heading[1]!.replace(/\\(.)/g, '$1').replace(/`/g, ''));
        let unique = slug;
        for (let i = 1; found.has(unique); i++) unique = `${slug}-${i}`;
        found.add(unique);
      }
      for (const id of line.matchAll(/<a id="([^"]+)"/g)) found.add(id[1]!);
    }
    anchors.set(file, found);
  }
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const fixed = text.replace(/\]\(([^)#\s]*)#([^)\s]+)\)/g, (link, page: string, anchor: string) => {
      const have = anchors.get(page ? path.resolve(path.dirname(file), page) : file);
      if (!have || have.has(anchor)) return link;
      const base = anchor.replace(/-\d+$/, '');
      return have.has(base) ? `](${page}#${base})` : link;
    });
    if (fixed !== text) writeFileSync(file, fixed);
  }
}

/** The reference's first page: what each part documents, then TypeDoc's list of modules. */
function introduce(): void {
  const file = path.join(target, 'index.md');
  const modules = readFileSync(file, 'utf8').replace(/^# .*\n/, '').replace(/^## Modules\n/m, '## Modules\n');
  writeFileSync(
    file,
    `# API reference

Generated by TypeDoc from the declarations.

- **[ddbgen](ddbgen.md)**: what a schema module imports — \`defineTable\`, \`entity\`, \`gsi\`, \`lsi\`,
  \`edge\`, the attribute types \`t\`, \`defineConfig\` — and the types of the schema it describes.
- **runtime/…**: what the generated \`out/<table>/index.ts\` exports besides the table's own classes:
  the errors, the options of reads, writes, batches, transactions and cursors, the edge repository
  and the stream decoder's types. The table's own classes, items and keys (\`SocialTable\`,
  \`Article\`, \`ArticleKeys\`, …) are generated per schema, each method documented with the request
  it sends ([Generated code](../guide/generated-code.md)).
${modules}`,
  );
}
