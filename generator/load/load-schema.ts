// Loads schema modules (TypeScript, no build step: jiti runs them, transpiled as schema-transpile.ts
// says), checks that they export tables, validates each table and places every diagnostic at
// file:line:column. Placing parses the schema with the compiler (locate.ts, ts-morph): with
// `locate: 'lazy'` that happens only when something is to be placed (a clean schema is never
// parsed), and a caller with diagnostics of its own to place awaits locatorLoaded() first.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createJiti, type JitiOptions, type TransformOptions } from 'jiti';
import type { TableDef } from '../../dsl/ir.js';
import type { Diagnostic, PendingDiagnostic } from '../diagnostics/diagnostic.js';
import { messages } from '../diagnostics/messages.js';
import { packageRoot, runningFromSource } from '../package-root.js';
import { keepFilesPrivate, projectCacheDir } from '../project-root.js';
import { checkTable } from '../validate/check-table.js';
import { screenNames } from '../validate/name-rules.js';
import type { SchemaLocator } from './locate.js';
import { errorLocation, schemaTransform } from './schema-transpile.js';

export interface SchemaTable {
  readonly table: TableDef;
  /** Absolute path of the schema module. */
  readonly file: string;
  /** Position in the default-exported array, or -1 when the export is a single table. */
  readonly tableIndex: number;
  /** Gives a diagnostic about this table its file:line:column. */
  readonly place: (diagnostic: PendingDiagnostic) => Diagnostic;
  /** The parsed schema module `place` uses (once the locator is loaded), for callers that find other places in it (the editor's quick fixes). */
  readonly locator?: () => SchemaLocator;
}

export interface LoadResult {
  readonly tables: SchemaTable[];
  readonly diagnostics: Diagnostic[];
}

/** The DSL of this very ddbgen, so a schema always builds IR this generator understands. */
const dslEntry = runningFromSource ? path.join(packageRoot, 'dsl', 'index.ts') : path.join(packageRoot, 'dist', 'dsl', 'index.js');

/**
 * Loads TypeScript modules that import 'ddbgen': ddbgen.config.ts with jiti's own transform
 * (babel), whose transpile cache lives in node_modules/.cache/ddbgen/jiti of the project holding
 * `file`, and nowhere when there is no project, no `file` is named or `cache` is false (the files
 * jiti writes there are made 0600 after each import: jiti takes no file mode); schemas with the
 * `transform` of schema-transpile.ts (evaluateSchema). Without `moduleCache` in `options`, every
 * import evaluates afresh.
 */
export function schemaImporter(file?: string, cache = true, options: Pick<JitiOptions, 'moduleCache' | 'transform'> = {}) {
  const fsCache = (file !== undefined && cache && projectCacheDir(path.dirname(file), 'jiti')) || false;
  const jiti = createJiti(import.meta.url, { moduleCache: false, ...options, fsCache, alias: { ddbgen: dslEntry } });
  if (!fsCache) return jiti;
  const load = jiti.import.bind(jiti);
  const privateImport = async (...args: Parameters<typeof load>) => {
    try {
      return await load(...args);
    } finally {
      keepFilesPrivate(fsCache);
    }
  };
  return Object.assign(jiti, { import: privateImport as typeof jiti.import });
}

/** Where the DSL lives (this package's dist, dsl and templates) and packages: kept loaded across evaluations. */
const KEPT = [path.join(packageRoot, 'dist') + path.sep, path.join(packageRoot, 'dsl') + path.sep, path.join(packageRoot, 'templates') + path.sep];
const kept = (file: string) => file.includes(`${path.sep}node_modules${path.sep}`) || KEPT.some((dir) => file.startsWith(dir));

/** Node's module cache (one per process), where importers with `moduleCache` keep what they load. */
const requireCache = createRequire(import.meta.url).cache as Record<string, unknown>;

/** The evaluation in progress in this process: each one reads and prunes Node's module cache, so they take turns. */
let evaluations: Promise<unknown> = Promise.resolve();

/**
 * Runs `evaluate` (an import through an importer with `moduleCache`) when no other evaluation of
 * this process runs, then drops from Node's module cache every module it loaded except the DSL and
 * packages, telling `dropped` of each: a schema and the modules it imports are read afresh by the
 * next evaluation (a watch, an editor), while the DSL is evaluated once per process.
 */
export function freshEvaluation<T>(evaluate: () => Promise<T>, dropped: (file: string) => void = () => {}): Promise<T> {
  const turn = evaluations.then(async () => {
    const before = new Set(Object.keys(requireCache));
    try {
      return await evaluate();
    } finally {
      for (const key of Object.keys(requireCache)) {
        if (before.has(key) || kept(key)) continue;
        dropped(key);
        delete requireCache[key];
      }
    }
  });
  evaluations = turn.catch(() => undefined);
  return turn;
}

/** One importer per transpile cache (a project's, or none) and transpiler, keeping the DSL loaded. */
const importers = new Map<string, ReturnType<typeof schemaImporter>>();

export interface LoadOptions {
  /** Keep the loader's transpile cache (default true; `--no-cache` turns it off). */
  readonly cache?: boolean;
  /**
   * `eager` (the default): every table's `place` works at once. `lazy`: the compiler that places
   * diagnostics is loaded only when the loader has diagnostics of its own; a caller placing others
   * awaits locatorLoaded() first.
   */
  readonly locate?: 'eager' | 'lazy';
  /**
   * Unsaved text of schema modules by absolute path (an editor's buffers): such a module is
   * evaluated and placed from this text, not read from disk (the modules it imports still are).
   */
  readonly sources?: ReadonlyMap<string, string>;
  /**
   * Transpile schema modules with the compiler (schema-transpile.ts) where babel is the default:
   * for a command that loads the compiler anyway (generate), where it costs less than babel.
   */
  readonly compiler?: boolean;
  /** Evaluates a schema module (default: evaluateSchema, as generate does); `text` is its unsaved text when `sources` has it. */
  readonly evaluate?: (file: string, text: string | undefined) => Promise<unknown>;
}

/** jiti's own transform (babel), for what the compiler's output cannot run (schema-transpile.ts). */
let babel: ReturnType<typeof schemaImporter> | undefined;
export const babelTransform = (options: TransformOptions) => (babel ??= schemaImporter(undefined, false)).transform(options);

/**
 * Evaluates a schema module afresh: from disk, or from `text` (its unsaved text) resolved as if it
 * were the file. Modules are transpiled by babel, or with `compiler` by the compiler where its
 * output runs (schema-transpile.ts), and cached in node_modules/.cache/ddbgen/transpile of the
 * project holding `file`.
 */
export function evaluateSchema(file: string, text: string | undefined, cache = true, compiler = false): Promise<unknown> {
  const cacheDir = (cache && projectCacheDir(path.dirname(file), 'transpile')) || false;
  const key = `${cacheDir}\0${compiler}`;
  const importer = importers.get(key) ?? schemaImporter(file, false, { moduleCache: true, transform: schemaTransform(babelTransform, cacheDir, { compiler }) });
  importers.set(key, importer);
  return freshEvaluation(async () => (text === undefined ? importer.import(file) : importer.evalModule(text, { filename: file, id: file, async: true })));
}

let locateModule: typeof import('./locate.js') | undefined;

/** Loads what places diagnostics in schema files (the compiler): `place` of every loaded table works once this resolves. */
export async function locatorLoaded(): Promise<void> {
  locateModule ??= await import('./locate.js');
}

/**
 * False when no object literal of `source` can hold one of `names` twice as a key: each name
 * occurs at most once where a key could be (a bare word, or a quoted string not followed by
 * `,` `]` `}` or `)`, where no key stands), and no escape sequence could spell one. Only then is
 * the check for duplicate entity keys (which needs the parse) skipped.
 */
export function mayRepeatKeys(source: string, names: readonly string[]): boolean {
  if (/\\[ux]/.test(source)) return true;
  return names.some((name) => {
    const word = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const occurrences = source.match(new RegExp(`(?<![\\w$])${word}(?![\\w$])`, 'g'))?.length ?? 0;
    const notKeys = source.match(new RegExp(`(['"\`])${word}\\1\\s*[,\\]})]`, 'g'))?.length ?? 0;
    return occurrences - notKeys > 1;
  });
}

function isTable(value: unknown): value is TableDef {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'table';
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing (the module has no default export)';
  if (value === null) return 'null, not a table';
  if (Array.isArray(value)) return 'an empty array: it lists no tables';
  return typeof value === 'object' ? 'an object that was not made by defineTable' : `a ${typeof value}, not a table`;
}

export async function loadSchemas(files: readonly string[], cwd = process.cwd(), options: LoadOptions = {}): Promise<LoadResult> {
  const tables: SchemaTable[] = [];
  const diagnostics: Diagnostic[] = [];
  const display = (file: string) => path.relative(cwd, file) || file;

  for (const input of files) {
    const file = path.resolve(cwd, input);
    const fail = (message: { message: string; fix: string }, code: string, location?: { line: number; column: number }) =>
      diagnostics.push({ code, severity: 'error', ...message, target: display(file), file: display(file), line: location?.line ?? 1, column: location?.column ?? 1 });
    const text = options.sources?.get(file);
    if (text === undefined && !existsSync(file)) {
      fail(messages.DDB001(display(file), 'no such file'), 'DDB001');
      continue;
    }
    let parsed: SchemaLocator | undefined;
    const locator = () => {
      if (!locateModule) throw new Error('internal: diagnostics placed before the schema locator was loaded (await locatorLoaded())');
      return (parsed ??= new locateModule.SchemaLocator(file, undefined, text));
    };
    let exported: unknown;
    try {
      const module = (await (options.evaluate ?? ((f, t) => evaluateSchema(f, t, options.cache, options.compiler)))(file, text)) as Record<string, unknown> | undefined;
      exported = module && 'default' in module ? module['default'] : undefined;
    } catch (error) {
      if ((error as { ddbgenCode?: unknown }).ddbgenCode === 'DDB103') {
        // at the entity() call the source shows without a key: the stack frame's line and column are the transpiled code's
        await locatorLoaded();
        const frame = errorLocation(error, file);
        fail(messages.DDB103(), 'DDB103', locator().entityWithoutKey(frame?.line) ?? frame);
        continue;
      }
      const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      fail(messages.DDB001(display(file), reason), 'DDB001', errorLocation(error, file));
      continue;
    }
    const list = Array.isArray(exported) ? exported : [exported];
    if (list.length === 0 || !list.every(isTable)) {
      await locatorLoaded();
      fail(messages.DDB002(describe(list.length === 0 ? [] : list.find((t) => !isTable(t)))), 'DDB002', locator().exportLocation());
      continue;
    }
    for (const [i, table] of list.entries()) {
      const tableIndex = Array.isArray(exported) ? i : -1;
      const place = (p: PendingDiagnostic): Diagnostic => {
        const { path: at, offset, ...rest } = p;
        return { ...rest, file: display(file), ...locator().locate(tableIndex, at, offset) };
      };
      const repeats = mayRepeatKeys(text ?? readFileSync(file, 'utf8'), Object.keys(table.entities));
      if (repeats) await locatorLoaded();
      for (const duplicate of repeats ? locator().duplicateKeys(tableIndex, ['entities']) : []) {
        diagnostics.push({ code: 'DDB021', severity: 'error', ...messages.DDB021(duplicate.name), target: `${table.name}.entities.${duplicate.name}`, file: display(file), ...duplicate.location });
      }
      // the names the output declares: from the owners' names when the screen decides, else the emitters list them
      const names = screenNames(table) ?? (await import('../emit/generated-names.js')).nameProblems(table);
      const problems = checkTable(table, () => names);
      if (problems.length) await locatorLoaded();
      diagnostics.push(...problems.map(place));
      const other = tables.find((t) => t.table.name.toLowerCase() === table.name.toLowerCase());
      if (other) await locatorLoaded();
      if (other) diagnostics.push(place({ code: 'DDB012', severity: 'error', ...messages.DDB012(table.name, display(other.file)), target: `${table.name}.name`, path: ['name'] }));
      tables.push({ table, file, tableIndex, place, locator });
    }
  }
  if (options.locate !== 'lazy') await locatorLoaded();
  return { tables, diagnostics };
}
