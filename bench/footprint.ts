// What an output weighs in an application's bundle, and why: the table class of a generated output
// bundled as an app would bundle it (esbuild, ESM, minified, the SDK external), with the bytes each
// input module keeps after tree-shaking, the modules that import it, and the bytes of each
// top-level declaration that survives. `npx tsx bench/footprint.ts [--declarations N]` prints the
// social fixture and a one-entity table; bench/run.ts (section 6) reports the same figures.

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, transformSync, type Metafile } from 'esbuild';
import ts from 'typescript';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '..');

/** A schema to measure: its file and the table class its output exports. */
export interface Subject {
  readonly label: string;
  readonly schema: string;
  readonly folder: string;
  readonly className: string;
}

export const SUBJECTS: readonly Subject[] = [
  { label: 'social fixture', schema: path.join(root, 'fixtures/social.ts'), folder: 'social', className: 'SocialTable' },
  { label: 'one entity', schema: path.join(here, 'one-entity.ts'), folder: 'shop', className: 'ShopTable' },
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

/** Generates the subject's output into bench/out and measures its bundle. */
export async function footprint(subject: Subject): Promise<Footprint> {
  const out = path.join(here, 'out');
  execFileSync(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'generate', subject.schema, '--out', out, '--quiet'], { stdio: 'inherit' });
  const options = {
    stdin: { contents: `export { ${subject.className} } from './out/${subject.folder}/index.js';`, resolveDir: here, loader: 'ts' as const },
    bundle: true,
    write: false as const,
    metafile: true as const,
    format: 'esm' as const,
    platform: 'node' as const,
    external: ['@aws-sdk/*', '@smithy/*'],
  };
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
}
