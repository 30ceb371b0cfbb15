// How schema modules are transpiled for jiti: where the compiler is loaded anyway (generate, the
// editor), by the compiler (ts.transpileModule to CommonJS, as jiti runs it), a fraction of jiti's
// own babel transform's time (a 500-entity schema: 0.25–0.55 s against 0.8–1.4 s, and babel's
// own loading besides), with babel kept for what the compiler's CommonJS output cannot run
// (top-level await, import.meta) and for text that does not parse (babel's error names the place). The
// compiler's output moves lines, so each transpiled module's source map is kept, and errorLocation
// reads a stack frame back to the schema's own line and column. Transpiled modules are cached on
// disk with their maps (a project's node_modules/.cache/ddbgen/transpile, files 0600), keyed by
// their text and how they were transpiled.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire, SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import type { TransformOptions, TransformResult } from 'jiti';
import { writeCacheFile } from '../project-root.js';

/** Changes whenever the way modules are transpiled does: a cached module of another version is not read. */
const TRANSPILER = 'ddbgen-transpile-1';

/** The source map of every module this process transpiled with the compiler, by file name. */
const maps = new Map<string, SourceMapPayload>();

const require = createRequire(import.meta.url);

/** True when the compiler's CommonJS output can run `source` as jiti would run babel's. */
function compilerCanRun(source: string, filename: string): boolean {
  return /\.[cm]?[jt]sx?$/.test(filename) && !/(^|[^\w$.])await\b/.test(source) && !/\bimport\s*\.\s*meta\b/.test(source);
}

interface Transpiled {
  readonly code: string;
  /** Absent when babel transpiled the module (its output keeps the lines). */
  readonly map?: SourceMapPayload;
}

/** The compiler's output, or undefined where it reports a syntax error and `unparsable` is 'babel'. */
function compile(source: string, filename: string, unparsable: 'babel' | 'compiler'): Transpiled | undefined {
  // the compiler ts-morph carries (loaded here only when a module is not in the cache; generate loads it anyway)
  const { ts } = require('@ts-morph/common') as typeof import('@ts-morph/common');
  const { outputText, sourceMapText, diagnostics } = ts.transpileModule(source, {
    fileName: filename,
    reportDiagnostics: true,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      sourceMap: true,
      inlineSourceMap: false,
      jsx: ts.JsxEmit.React,
      verbatimModuleSyntax: false,
    },
  });
  // a module that does not parse goes to babel, whose error names the place as before
  if ((unparsable === 'babel' && diagnostics?.length) || sourceMapText === undefined) return undefined;
  // the output ends with a sourceMappingURL comment naming a file that is not written
  return { code: outputText.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'), map: JSON.parse(sourceMapText) as SourceMapPayload };
}

export interface TransformChoice {
  /**
   * Transpile with the compiler (default true). A command that does not load the compiler anyway
   * (lint, plan) keeps babel: loading the compiler costs more than babel on a small schema.
   */
  readonly compiler?: boolean;
  /**
   * A module with a syntax error goes to babel, whose error names the place (the default), or with
   * 'compiler' (an editor's unsaved text, whose syntax errors the editor shows itself) to the
   * compiler, which transpiles what it can.
   */
  readonly unparsable?: 'babel' | 'compiler';
}

/** A jiti transform: the compiler where its output runs, `babel` (jiti's own transform) elsewhere, each result cached in `cacheDir` when one is given. */
export function schemaTransform(babel: (options: TransformOptions) => string, cacheDir: string | false, { compiler = true, unparsable = 'babel' }: TransformChoice = {}): (options: TransformOptions) => TransformResult {
  return (options) => {
    const filename = options.filename ?? '';
    const key = cacheDir && createHash('sha256').update(`${TRANSPILER}\0${compiler ? unparsable : 'babel'}\0${filename}\0${options.async ? 'async' : 'sync'}\0${options.source}`).digest('hex');
    const cached = key ? readCached(path.join(cacheDir, `${key}.json`)) : undefined;
    const transpiled = cached ?? (compiler && compilerCanRun(options.source, filename) ? compile(options.source, filename, unparsable) : undefined) ?? { code: babel(options) };
    if (transpiled.map) maps.set(filename, transpiled.map);
    else maps.delete(filename);
    if (key && !cached) writeCacheFile(path.join(cacheDir, `${key}.json`), JSON.stringify(transpiled));
    return { code: transpiled.code };
  };
}

function readCached(file: string): Transpiled | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Transpiled;
    return typeof value.code === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** file:line:column (1-based) of the first stack frame inside `file`, read back through its source map when the compiler transpiled it. */
export function errorLocation(error: unknown, file: string): { line: number; column: number } | undefined {
  const text = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(text);
  if (!match) return undefined;
  const [line, column] = [Number(match[1]), Number(match[2])];
  const map = maps.get(file);
  if (!map) return { line, column };
  const entry = new SourceMap(map).findEntry(line - 1, column - 1) as { originalLine?: number; originalColumn?: number };
  return entry.originalLine === undefined ? undefined : { line: entry.originalLine + 1, column: entry.originalColumn! + 1 };
}
