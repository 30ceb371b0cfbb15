// Build step (`npm run build` runs it after tsc): compiles templates/runtime to dist/runtime —
// `esm/` (ES modules and their declarations) and `cjs/` (the same modules as CommonJS) — and writes
// the manifest runtime-modules.ts reads. A module that does not compile fails the build with the
// compiler's diagnostics. The runtime is checked against ES2022 alone, without Node's types, so it
// runs wherever the SDK runs; NODE_ONLY modules are checked with Node's.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { writeJavascriptGlobals } from '../validate/generated-names.js';
import { compiledRuntimeDir, runtimeImports, runtimeSourceDir, sourceFiles, sourceHash, type Manifest, type ModuleFormat } from './runtime-modules.js';

/** Runtime modules that use Node's own modules, written only when asked for (ddbgen diff --emit-migration). */
const NODE_ONLY = ['migration', 'migration-lease', 'migration-cli'];

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

export function compileRuntime(): void {
  const sources = sourceFiles();
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
          const name = path.basename(file).replace(/\.(d\.ts|js)$/, '');
          if (format === 'esm') imports[name] = [...new Set([...(imports[name] ?? []), ...runtimeImports(text, './')])].sort();
        });
        if (result.emitSkipped) throw new Error(`the runtime module ${root} was not emitted`);
      }
    }
  }
  const manifest: Manifest = { sourceHash: sourceHash(sources), imports };
  writeFileSync(path.join(compiledRuntimeDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeJavascriptGlobals();
}

compileRuntime();
