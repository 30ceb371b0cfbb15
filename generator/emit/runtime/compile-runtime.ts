// Build step (`npm run build` runs it after tsc): compiles templates/runtime to dist/runtime —
// `esm/` (ES modules and their declarations) and `cjs/` (the same modules as CommonJS) — and writes
// the manifest runtime-modules.ts reads. A module that does not compile fails the build with the
// compiler's diagnostics. The runtime is checked against ES2022 alone, without Node's types, so it
// runs wherever the SDK runs; NODE_ONLY modules are checked with Node's. When the manifest's build
// key (the sources, this compiler and the code that compiles them) is that of the tree, and every
// module's output is there, nothing is compiled again: `npm test` builds right after `npm ci` did.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { writeJavascriptGlobals } from '../output-globals.js';
import { GLOBALS_FILE } from '../../validate/name-rules.js';
import { compiledRuntimeDir, runtimeImports, runtimeSourceDir, sourceFiles, sourceHash, type Manifest, type ModuleFormat } from './runtime-modules.js';

/** Runtime modules that use Node's own modules, written only when asked for (ddbgen diff --emit-migration). */
const NODE_ONLY = ['migration/engine', 'migration/file-checkpoints', 'migration/lease', 'migration/cli'];

/** The options the generated code is checked with (type-check.ts), emitting one module format. */
const compilerOptions = (format: ModuleFormat, node: boolean): ts.CompilerOptions => ({
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts'],
  types: node ? ['node'] : [],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  erasableSyntaxOnly: true,
  skipLibCheck: true,
  declaration: format === 'esm',
  outDir: path.join(compiledRuntimeDir, format),
  rootDir: runtimeSourceDir,
  ...(format === 'esm'
    ? { module: ts.ModuleKind.ES2022, moduleResolution: ts.ModuleResolutionKind.Bundler }
    : { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, ignoreDeprecations: '6.0' }),
});

/** What the compiled runtime depends on besides its sources: this TypeScript, Node's types, and the build code itself. */
function buildKey(sourceHash: string): string {
  const require = createRequire(import.meta.url);
  const hash = createHash('sha256').update(`${sourceHash}\0${ts.version}\0`);
  for (const file of ['@types/node/package.json', '@ts-morph/common/package.json']) hash.update(`${readFileSync(require.resolve(file), 'utf8')}\0`);
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const file of [fileURLToPath(import.meta.url), path.join(here, 'runtime-modules.js'), path.join(here, '../output-globals.js'), path.join(here, '../../validate/name-rules.js')]) hash.update(`${readFileSync(file, 'utf8')}\0`);
  return hash.digest('hex');
}

/** True when dist/runtime was compiled with this build key and holds every module's output. */
function upToDate(sources: ReadonlyMap<string, string>, key: string): boolean {
  const manifestFile = path.join(compiledRuntimeDir, 'manifest.json');
  if (!existsSync(manifestFile) || !existsSync(GLOBALS_FILE)) return false;
  if ((JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest).buildKey !== key) return false;
  return [...sources.keys()].every((name) => ['esm/%.js', 'esm/%.d.ts', 'cjs/%.js'].every((f) => existsSync(path.join(compiledRuntimeDir, f.replace('%', name)))));
}

export function compileRuntime(): void {
  const sources = sourceFiles();
  const hash = sourceHash(sources);
  const key = buildKey(hash);
  if (upToDate(sources, key)) return;
  rmSync(compiledRuntimeDir, { recursive: true, force: true });
  const imports: Record<string, string[]> = {};
  for (const format of ['esm', 'cjs'] as const) {
    for (const node of [false, true]) {
      const roots = [...sources].filter(([name]) => NODE_ONLY.includes(name) === node).map(([, file]) => file);
      const program = ts.createProgram(roots, compilerOptions(format, node));
      // the sources are the same in both formats: checked once
      const problems = format === 'esm' ? ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error) : [];
      if (problems.length) {
        throw new Error(`the runtime does not compile:\n${ts.formatDiagnostics(problems, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => runtimeSourceDir, getNewLine: () => '\n' })}`);
      }
      for (const root of roots) {
        const result = program.emit(program.getSourceFile(root), (file, text) => {
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, text);
          const name = path.relative(path.join(compiledRuntimeDir, format), file).split(path.sep).join('/').replace(/\.(d\.ts|js)$/, '');
          if (format === 'esm') imports[name] = [...new Set([...(imports[name] ?? []), ...runtimeImports(text, './', name)])].sort();
        });
        if (result.emitSkipped) throw new Error(`the runtime module ${root} was not emitted`);
      }
    }
  }
  const manifest: Manifest = { sourceHash: hash, buildKey: key, imports };
  writeFileSync(path.join(compiledRuntimeDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeJavascriptGlobals();
}

compileRuntime();
