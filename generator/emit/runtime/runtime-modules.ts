// The runtime helpers as they go into an output: compiled and checked once, when ddbgen is built
// (compile-runtime.ts), to dist/runtime — ES modules with their declarations, and the
// same modules as CommonJS — with a manifest of which module imports which. A table's output gets
// only the modules its generated code imports, followed through the runtime's own imports, as
// `.js` in the module format of the output folder's package scope plus `.d.ts`, so the app's
// compiler reads declarations rather than the runtime's sources.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ts as TS } from 'ts-morph';
import { ts } from '../../ts-morph.js';
import { compiledRuntimeDir, packageRoot } from '../../package-root.js';

export { compiledRuntimeDir };
export const runtimeSourceDir = path.join(packageRoot, 'templates', 'runtime');

/** The module format of a `.js` file, as Node (and TypeScript's NodeNext) reads it from the package scope. */
export type ModuleFormat = 'esm' | 'cjs';

/** dist/runtime/manifest.json. */
export interface Manifest {
  /** Hash of the sources the modules were compiled from (sourceHash()). */
  readonly sourceHash: string;
  /** The sources' hash with what compiled them (compile-runtime.ts): a build with the same key compiles nothing again. */
  readonly buildKey?: string;
  /** Module name (`codec`) → the runtime modules its .js or .d.ts imports. */
  readonly imports: Readonly<Record<string, readonly string[]>>;
}

/** One compiled runtime module. */
export interface RuntimeModule {
  readonly name: string;
  readonly js: Readonly<Record<ModuleFormat, string>>;
  readonly declarations: string;
  /** Runtime modules this one imports (values or types). */
  readonly imports: readonly string[];
}

/**
 * The runtime's source files (tests excluded), by module name, sorted. A module's name is its path
 * in templates/runtime without `.ts`: `codec` (the app runtime), `in-memory/table` (the in-memory
 * engine), `migration/engine` (the migration engine); an output holds it at the same path under `runtime/`.
 */
export function sourceFiles(): Map<string, string> {
  const names = readdirSync(runtimeSourceDir, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();
  return new Map(names.map((f) => [f.replace(/\.ts$/, ''), path.join(runtimeSourceDir, f)]));
}

export function sourceHash(sources: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  for (const [name, file] of sources) hash.update(`${name}\0${readFileSync(file, 'utf8')}\0`);
  return hash.digest('hex');
}

/**
 * An import or re-export declaration of generated code, read from the line it opens: the emitters
 * print no template literal, so no line of a string opens with `import` or `export`, and a doc
 * comment's lines open with `*`. (A tenth of a second on a 500-entity output, where the compiler's
 * scanner of whole files, which the runtime's own modules still get, took two to three.)
 */
const GENERATED_IMPORT = /^(?:import\s+['"]([^'"]+)['"]|(?:import|export)\s[^;'"]*?\sfrom\s*['"]([^'"]+)['"])/gm;

/**
 * The runtime modules a module's text imports: `./runtime/x.js` and `./runtime/in-memory/x.js` from
 * generated code; from within the runtime (prefix `./`), its relative imports (`./x.js`, `../x.js`)
 * resolved from the folder of `from`, the importing module's name (`in-memory/table`).
 */
export function runtimeImports(text: string, prefix: './runtime/' | './', from = ''): string[] {
  if (prefix === './runtime/') {
    return [...text.matchAll(GENERATED_IMPORT)].map((m) => (m[1] ?? m[2])!).filter((f) => f.startsWith(prefix) && f.endsWith('.js')).map((f) => f.slice(prefix.length, -'.js'.length));
  }
  const found = ts.preProcessFile(text, true, false).importedFiles.map((f) => f.fileName).filter((f) => f.endsWith('.js'));
  return found.filter((f) => f.startsWith('./') || f.startsWith('../')).map((f) => path.posix.join(path.posix.dirname(from), f.slice(0, -'.js'.length)));
}

let loaded: Map<string, RuntimeModule> | undefined;

/**
 * Every compiled runtime module, by name. Running from a checkout whose runtime sources changed
 * since the last build is an error naming the fix, never a silently older runtime.
 */
export function runtimeModules(): ReadonlyMap<string, RuntimeModule> {
  if (loaded) return loaded;
  const manifestFile = path.join(compiledRuntimeDir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`ddbgen: the compiled runtime is missing (${manifestFile}): run npm run build`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  if (existsSync(runtimeSourceDir) && sourceHash(sourceFiles()) !== manifest.sourceHash) {
    throw new Error(`ddbgen: templates/runtime changed since the runtime in dist/runtime was compiled: run npm run build`);
  }
  const read = (format: ModuleFormat, name: string, extension: string) => readFileSync(path.join(compiledRuntimeDir, format, `${name}${extension}`), 'utf8');
  loaded = new Map(
    Object.entries(manifest.imports).map(([name, imports]) => [name, { name, js: { esm: read('esm', name, '.js'), cjs: read('cjs', name, '.js') }, declarations: read('esm', name, '.d.ts'), imports }]),
  );
  return loaded;
}

/** The runtime modules `texts` (generated modules) import, with everything those import in turn, plus `extra`; sorted. */
export function usedRuntime(texts: Iterable<string>, extra: readonly string[] = []): string[] {
  const modules = runtimeModules();
  const used = new Set<string>();
  const visit = (name: string) => {
    if (used.has(name)) return;
    const module = modules.get(name);
    if (!module) throw new Error(`internal: generated code imports ./runtime/${name}.js, which is no runtime module`);
    used.add(name);
    for (const next of module.imports) visit(next);
  };
  for (const text of texts) for (const name of runtimeImports(text, './runtime/')) visit(name);
  for (const name of extra) visit(name);
  return [...used].sort();
}

/** How Node reads a `.js` file in `folder`: by the `type` of the nearest package.json, as TypeScript's NodeNext does. */
export function moduleFormat(folder: string): ModuleFormat {
  const format = ts.getImpliedNodeFormatForFile(path.join(folder, 'index.ts') as TS.Path, undefined, ts.sys, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext });
  return format === ts.ModuleKind.ESNext ? 'esm' : 'cjs';
}
