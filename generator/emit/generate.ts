// Assembles a table's output: one module per entity, the table definition, the table class and an
// index, and the compiled runtime modules those import (runtime-modules.ts). Every file is printed
// deterministically and the whole output is type-checked in memory, against the runtime's
// declarations, before anything is written; a previous run's cache (generation-cache.ts) spares
// re-rendering and re-checking what a change cannot affect.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { printStructure, StructureKind, ts } from '../ts-morph.js';
import type { ts as TS, StructureKind as Kind, StatementStructures } from 'ts-morph';
import type { TableDef } from '../../dsl/ir.js';
import { packageRoot } from '../package-root.js';
import { BANNER, commentText, contextFunctionName, createContext, fileHeader, type EmitKind, type Origin, entityFile, entityModuleSpecifier, tableClassName, tableFolder, tableItemTypeName, tableOptionsTypeName, transactionClassName } from './context.js';
import { emitEdges } from './table/edges.js';
import type { EmittedModule } from './context.js';
import { entityTable, takeEntityModule } from './entity/entity-module.js';
import { emitInMemory, inMemoryInput } from './integrations/in-memory.js';
import { emitStream } from './integrations/stream.js';
import { emitTableClass } from './table/table-class.js';
import { emitTableDefinition, hasTableSettings, tableDefinitionName, tableSettingsName } from './table/table-definition.js';
import { docComment, type Doc } from './output/doc-comment.js';
import { docCommentMarks, formatModule, printForLayout, startLayout, type Layout } from './output/format.js';
import { emptyCache, renderKey, sourcesHash, type GenerationCache } from './output/generation-cache.js';
import { moduleFormat, runtimeModules, usedRuntime } from './runtime/runtime-modules.js';
import { checkNatively, emitNatively, nativeCompiler, startNativeCheck, tsconfigOptions } from './output/native-check.js';
import { baseCompilerOptions, compileGenerated, type CompileResult } from './output/type-check.js';

/** Generated files of one table, keyed by path relative to the output root (`social/user.ts`). */
export type GeneratedFiles = Map<string, string>;

/**
 * What ddbgen writes: `ts` (default) the schema-shaped modules as TypeScript sources, which the
 * app's compiler checks with the rest of the app; `js` those modules compiled by ddbgen too, as
 * `.js` + `.d.ts` (in the module format the output folder's package.json implies, as the app's own
 * tsc would), so the app's type check only reads declarations. Either way the runtime modules are
 * written compiled, as `.js` + `.d.ts`.
 */
export { EMIT_KINDS, type EmitKind } from './context.js';

export class GeneratedCodeError extends Error {
  readonly diagnostics: string[];
  constructor(diagnostics: string[]) {
    super(`the generated code does not compile:\n${diagnostics.join('\n')}`);
    this.diagnostics = diagnostics;
  }
}

export class MissingSdkError extends Error {}

/** Printer settings of the output (format.ts lays the text out afterwards). */
const PRINT = { indentNumberOfSpaces: 2, useSingleQuote: true } as const;

/** Imports stay grouped, and re-exports: no blank line between two of a kind. */
const grouped = (previous: StatementStructures, current: StatementStructures) =>
  (previous.kind === StructureKind.ImportDeclaration && current.kind === StructureKind.ImportDeclaration) ||
  (previous.kind === StructureKind.ExportDeclaration && current.kind === StructureKind.ExportDeclaration);

/**
 * The statements printed one by one, with one blank line between top-level statements (imports
 * and re-exports stay grouped): the text is made without parsing it.
 */
function printStatements(statements: readonly StatementStructures[]): string {
  const parts: string[] = [];
  statements.forEach((statement, i) => {
    if (i > 0 && !grouped(statements[i - 1]!, statement)) parts.push('\n');
    parts.push(printStructure({ kind: StructureKind.SourceFile, statements: [statement] }, PRINT));
  });
  return parts.join('');
}

const escapeDoc = (doc: Doc): Doc =>
  typeof doc === 'string'
    ? commentText(doc)
    : {
        ...doc,
        ...(typeof doc.description === 'string' ? { description: commentText(doc.description) } : {}),
        // each text read once: an example's is made as it is read (doc-examples.ts)
        ...(doc.tags ? { tags: doc.tags.map(({ text, ...tag }) => ({ ...tag, text: typeof text === 'string' ? commentText(text) : text })) } : {}),
      };

/** A copy of the structures with the text of every doc comment escaped (commentText): no emitter prints schema text that ends a comment. Each copied list of docs is added to `lists`. */
function withEscapedDocs<T>(value: T, lists: Doc[][]): T {
  if (Array.isArray(value)) return value.map((v) => withEscapedDocs(v, lists)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (key !== 'docs' || !Array.isArray(v)) return [key, withEscapedDocs(v, lists)];
      const docs = (v as Doc[]).map(escapeDoc);
      lists.push(docs);
      return [key, docs];
    }),
  ) as T;
}

/**
 * One emitted module printed flat (imports, then statements with doc text escaped), before layout.
 * Printed for the layout worker (printForLayout), its doc comments go to the worker as text, each
 * a mark here, unless ts-morph would print one of them otherwise than docComment (then ts-morph
 * prints them all, as its writer's state runs on from one comment to the next).
 */
function printModule(module: EmittedModule): string {
  const imports = module.imports.map((declaration) => ({ kind: StructureKind.ImportDeclaration as Kind.ImportDeclaration, ...declaration }));
  const lists: Doc[][] = [];
  const statements = withEscapedDocs(module.statements, lists);
  const comments = lists.flat().map(docComment);
  const marks = comments.every((c) => c !== undefined) ? docCommentMarks(comments as string[]) : undefined;
  if (marks) {
    let next = 0;
    for (const docs of lists) docs.forEach((_, i) => (docs[i] = marks[next++]!));
  }
  return printStatements([...imports, ...statements]);
}

/** Prints one emitted module as a file: banner, imports, statements (doc text escaped), laid out by format.ts. */
export function renderModule(filePath: string, module: EmittedModule): string {
  return `${BANNER}\n\n${formatModule(filePath, printModule(module))}`;
}

function indexModule(table: TableDef): EmittedModule {
  const statements: StatementStructures[] = [];
  const imports: EmittedModule['imports'] = [];
  const exports = [
    {
      moduleSpecifier: `./${tableFolder(table)}-table.js`,
      namedExports: [
        tableClassName(table),
        transactionClassName(table),
        contextFunctionName(table),
        { name: tableItemTypeName(table), isTypeOnly: true },
        { name: tableOptionsTypeName(table), isTypeOnly: true },
      ],
    },
    { moduleSpecifier: './table-definition.js', namedExports: [tableDefinitionName(table), ...(hasTableSettings(table) ? [tableSettingsName(table)] : [])] },
    ...Object.values(table.entities).map((e) => ({ moduleSpecifier: entityModuleSpecifier(e), namedExports: ['*'] })),
    ...(Object.keys(table.edges).length ? [{ moduleSpecifier: './edges.js', namedExports: ['*'] }] : []),
    ...(Object.keys(table.edges).length ? [{ moduleSpecifier: './runtime/edge.js', namedExports: ['EdgeRepository', ...['AddOptions', 'EdgeNode', 'EdgePair', 'LinkOptions', 'ManyResult'].map((name) => ({ name, isTypeOnly: true }))] }] : []),
    ...(table.stream
      ? [
          { moduleSpecifier: './stream.js', namedExports: ['*'] },
          { moduleSpecifier: './runtime/stream.js', namedExports: ['StreamRecordError', ...['StreamBatchResponse', 'StreamHandlerOptions', 'StreamRecord'].map((name) => ({ name, isTypeOnly: true }))] },
        ]
      : []),
    { moduleSpecifier: './runtime/errors.js', namedExports: ['*'] },
    { moduleSpecifier: './runtime/batch.js', namedExports: [{ name: 'RetryPolicy', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/cursor.js', namedExports: ['protectCursors', { name: 'CursorOptions', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/condition.js', namedExports: [{ name: 'Comparison', isTypeOnly: true }, { name: 'Condition', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/transaction.js', namedExports: [{ name: 'CommitOptions', isTypeOnly: true }, { name: 'TransactionRetryPolicy', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/scan.js', namedExports: [{ name: 'ScanOptions', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/write.js', namedExports: ['Returned', 'UpdateResults', 'UpdateReturnValues', 'VersionedWriteOptions', 'WriteOptions'].map((name) => ({ name, isTypeOnly: true })) },
    { moduleSpecifier: './runtime/key-condition.js', namedExports: [{ name: 'SortCondition', isTypeOnly: true }] },
    ...(Object.values(table.indexes).some((i) => i.kind === 'native-gsi') ? [{ moduleSpecifier: './runtime/native-index.js', namedExports: [{ name: 'NativeRange', isTypeOnly: true }] }] : []),
    { moduleSpecifier: './runtime/telemetry.js', namedExports: ['telemetry', { name: 'TableTelemetry', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/telemetry-otel.js', namedExports: ['openTelemetry', 'openTelemetrySink', ...['OpenTelemetryApi', 'OpenTelemetryOptions'].map((name) => ({ name, isTypeOnly: true }))] },
    {
      moduleSpecifier: './runtime/telemetry-sink.js',
      namedExports: ['ConsumedUnits', 'OperationStart', 'OperationSummary', 'SinkOperation', 'TelemetrySink'].map((name) => ({ name, isTypeOnly: true })),
    },
    { moduleSpecifier: './runtime/telemetry-emf.js', namedExports: ['EmfWriter', { name: 'EmfOptions', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/read.js', namedExports: ['IndexQueryOptions', 'ItemIterator', 'Page', 'PageOptions', 'QueryOptions', 'ReadOptions'].map((name) => ({ name, isTypeOnly: true })) },
    { moduleSpecifier: './runtime/repository.js', namedExports: [{ name: 'TableContext', isTypeOnly: true }] },
  ];
  for (const e of exports) {
    const named = e.namedExports.filter((n) => n !== '*');
    statements.push({ kind: StructureKind.ExportDeclaration, moduleSpecifier: e.moduleSpecifier, ...(named.length ? { namedExports: named } : {}) });
  }
  return { imports, statements };
}

/** Where the `@aws-sdk/*` type declarations are for the in-memory check: the user's first, then ours. */
function sdkPaths(outDir: string): { paths: Record<string, string[]>; versions: string[] } {
  const paths: Record<string, string[]> = {};
  const versions: string[] = [];
  for (const pkg of ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb']) {
    let resolved: string | undefined;
    for (const from of [path.join(outDir, 'package.json'), path.join(packageRoot, 'package.json')]) {
      try {
        resolved = path.dirname(createRequire(from).resolve(`${pkg}/package.json`));
        break;
      } catch {
        // try the next place
      }
    }
    if (!resolved) throw new MissingSdkError(`cannot find ${pkg}: the generated code imports it; install it with npm install ${pkg}`);
    // the declarations entry itself: ES-module resolution does not load a folder
    const manifest = JSON.parse(readFileSync(path.join(resolved, 'package.json'), 'utf8')) as { types?: string; typings?: string; version?: string };
    const types = manifest.types ?? manifest.typings;
    paths[pkg] = [types ? path.join(resolved, types) : resolved];
    versions.push(`${pkg}@${manifest.version ?? '?'}`);
  }
  return { paths, versions };
}

/** One table's output, with what the next run may reuse and what this run did. */
export interface Generation {
  readonly files: GeneratedFiles;
  readonly cache: GenerationCache;
  /** Modules rendered by an emitter, modules taken from the cache, and generated files the compiler checked. */
  readonly stats: { readonly rendered: number; readonly reused: number; readonly checked: number };
}

export interface GenerateOptions {
  readonly emit?: EmitKind;
  /** The previous run's cache (see generation-cache.ts); without it everything is rendered and checked. */
  readonly cache?: GenerationCache;
  /**
   * Whether a next run will read the returned cache (default true). False (`--no-cache`, an output
   * outside any project) checks the output as a plain program: no compiler build state is made.
   */
  readonly keepCache?: boolean;
  /** Named in each file's header (the CLI gives it). */
  readonly origin?: Origin;
  /** Emit key templates that read and write key codec v1 (a migration's copy of an old schema). */
  readonly keyCodec?: 1;
  /** Told what is being done as it goes (`rendering 120 of 500 entities`), for a progress line. */
  readonly progress?: (text: string) => void;
  /** Runtime modules written whether or not the generated code imports them (`migration` for ddbgen diff --emit-migration). */
  readonly runtime?: readonly string[];
  /**
   * What type-checks the output (and for `emit: 'js'` compiles it): `native`, TypeScript 7's tsgo
   * when @typescript/native-preview is installed (the default then; native-check.ts), or
   * `typescript`, the compiler API, re-checking only what a change can affect.
   */
  readonly typeChecker?: 'native' | 'typescript';
  /**
   * A private folder where tsgo keeps this table's check between runs (checkStateDir in
   * generation-cache.ts; the CLI gives it unless `--no-cache`): tsgo then re-checks only the files
   * a change can affect. Without it, each check starts afresh in a temporary folder.
   */
  readonly checkState?: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Names the emitters print as identifiers (validation refuses others): the output never carries one that could be code. */
function assertIdentifiers(table: TableDef): void {
  const names = [table.name, ...[table.entities, table.indexes, table.patterns, table.edges].flatMap((group) => Object.keys(group))];
  const bad = names.find((name) => !IDENTIFIER.test(name));
  if (bad !== undefined) throw new Error(`internal: ${JSON.stringify(bad)} is not an identifier; validate the table before generating it`);
}

/**
 * Emits every file of one table and type-checks them together; with a previous run's cache, only
 * modules whose emitter input changed are rendered and only files a change can affect are checked.
 * Throws GeneratedCodeError when the output does not compile (a ddbgen bug, never the user's).
 */
export function generateTable(table: TableDef, outDir: string, options: GenerateOptions = {}): Generation {
  assertIdentifiers(table);
  const emit = options.emit ?? 'ts';
  // the cache is keyed by the IR alone: a v1 copy (keyCodec) renders everything afresh
  const previous = options.keyCodec === undefined ? (options.cache ?? emptyCache()) : emptyCache();
  const next = emptyCache();
  const folder = tableFolder(table);
  const files: GeneratedFiles = new Map();
  const stats = { rendered: 0, reused: 0, checked: 0 };
  // modules printed but not yet laid out (their render keys): a worker lays them out while the next
  // are made, and tsgo may check them meanwhile (below), from `files`, which holds them unlaid and
  // without the banner until then
  const unformatted = new Map<string, string>();
  let layout: Layout | undefined;
  /** Each module's render key, by its name in `files`: what its text is made from, laid out yet or not (a kept check's identities; not for a v1 copy, whose texts the key does not tell apart). */
  const identities = new Map<string, string>();
  const render = (name: string, input: TableDef, module: () => EmittedModule) => {
    const key = renderKey(name, input);
    identities.set(`${folder}/${name}`, key);
    const text = previous.renders.get(key);
    if (text === undefined) {
      const { text: flat, ...held } = printForLayout(() => printModule(module()));
      unformatted.set(name, key);
      (layout ??= startLayout()).add(name, flat, held);
      files.set(`${folder}/${name}`, flat);
      stats.rendered++;
      return;
    }
    stats.reused++;
    next.renders.set(key, text);
    files.set(`${folder}/${name}`, text);
  };

  const entities = Object.values(table.entities);
  for (const [i, entity] of entities.entries()) {
    options.progress?.(`rendering ${i + 1} of ${entities.length} entities`);
    render(entityFile(entity), entityTable(table, entity), () => takeEntityModule(table, entity, options.keyCodec));
  }
  const ctx = createContext(table, options.keyCodec);
  if (Object.keys(table.edges).length) render('edges.ts', table, () => emitEdges(table, ctx));
  if (table.stream) render('stream.ts', table, () => emitStream(table, ctx));
  render('table-definition.ts', table, () => emitTableDefinition(table, ctx));
  render(`${folder}-table.ts`, table, () => emitTableClass(table, ctx));
  render('in-memory.ts', inMemoryInput(table), () => emitInMemory(table, ctx));
  render('index.ts', table, () => indexModule(table));

  const root = path.resolve(outDir);
  // The runtime modules the generated code imports: checked against their declarations, written compiled.
  const runtime = runtimeModules();
  const used = usedRuntime(files.values(), options.runtime);
  const declarations = new Map(used.map((name) => [`${folder}/runtime/${name}.d.ts`, `${BANNER}\n\n${runtime.get(name)!.declarations}`]));
  /** By absolute path, as the compilers take them. */
  const absolute = <V>(entries: Iterable<[string, V]>) => new Map([...entries].map(([name, value]) => [path.join(root, name), value]));
  const sourcesOf = () => absolute([...files, ...declarations]);
  const sdk = sdkPaths(outDir);
  const checkOptions = { ...baseCompilerOptions, paths: sdk.paths };
  const compilerOptions = emit === 'js' ? { ...checkOptions, ...compileOptions } : checkOptions;
  const format = moduleFormat(path.join(root, folder));
  const native = options.typeChecker !== 'typescript' ? nativeCompiler() : undefined;
  const nativeOptions = native && tsconfigOptions(checkOptions, { target: ts.ScriptTarget, module: ts.ModuleKind, moduleResolution: ts.ModuleResolutionKind });
  // tsgo checks the new modules in a worker while this thread lays them out (layout moves lines, never types)
  const early = native && nativeOptions && unformatted.size ? startNativeCheck(native, sourcesOf(), nativeOptions, root, format, options.checkState === undefined ? undefined : { dir: options.checkState, ...(options.keyCodec === undefined ? { identities: absolute(identities) } : {}) }) : undefined;
  try {
    options.progress?.(`laying out ${unformatted.size} modules`);
    const laidOut = layout?.finish() ?? [];
    for (const [i, [name, key]] of [...unformatted].entries()) {
      const text = `${BANNER}\n\n${laidOut[i]!}`;
      next.renders.set(key, text);
      files.set(`${folder}/${name}`, text);
    }
    // the texts live on in `files` alone, each with its banner (a string made of the two, flattened
    // by the first read): this function's frame would keep the array, and a second copy of every
    // module with it, to its end (30 MB of a 500-entity run's live heap while tsgo checks it)
    laidOut.length = 0;
  } catch (error) {
    early?.cancel();
    throw error;
  }
  const sources = sourcesOf();
  /** Checks the sources (and with the compiler API, for `emit: 'js'`, compiles them); tsgo unless `withCompilerApi`. */
  const compile = (buildInfo: string | undefined, withCompilerApi = false): CompileResult => {
    const progress = options.progress;
    progress?.(`type-checking ${sources.size} files`);
    let errors = withCompilerApi ? undefined : early?.wait();
    // errors found in the unformatted text are named again at their lines in the files as written
    if (!withCompilerApi && native && nativeOptions && (errors === undefined || errors.length > 0)) errors = checkNatively(native, sources, nativeOptions, root, format);
    // tsgo keeps no build state: a run whose sources are unchanged is still known by their hash
    const result =
      errors === undefined
        ? compileGenerated({ files: sources, options: compilerOptions, incremental: options.keepCache ?? true, ...(buildInfo ? { buildInfo } : {}), ...(progress ? { checking: (n: number) => progress(`type-checking: ${n} of ${sources.size} files checked`) } : {}) }, root)
        : { errors, emitted: new Map<string, string>(), buildInfo: (options.keepCache ?? true) ? NATIVE_BUILD_STATE : undefined, checked: sources.size };
    if (result.errors.length) throw new GeneratedCodeError(result.errors);
    return result;
  };
  next.sourcesHash = sourcesHash(sources, { compilerOptions, format, sdk: sdk.versions, typescript: native && nativeOptions ? `native ${native.version}` : ts.version });
  // the very sources, SDK and compiler the build state was made from: nothing to check or compile again
  const unchanged = previous.sourcesHash === next.sourcesHash && previous.buildInfo !== undefined;
  if (unchanged) early?.cancel();
  let result = unchanged ? { errors: [], emitted: new Map<string, string>(), buildInfo: previous.buildInfo, checked: 0 } : compile(previous.buildInfo);
  if (emit === 'js') {
    const expected = [...files.keys()].flatMap((f) => [f.replace(/\.ts$/, '.js'), f.replace(/\.ts$/, '.d.ts')]);
    const take = (compiled: ReadonlyMap<string, string>, from: CompileResult) => {
      for (const [file, text] of from.emitted) next.compiled.set(path.relative(root, file).split(path.sep).join('/'), withBanner(text));
      for (const file of expected) if (!next.compiled.has(file) && compiled.has(file)) next.compiled.set(file, compiled.get(file)!);
    };
    if (native && nativeOptions && !unchanged) {
      // checked by tsgo, which keeps no build state: every module written again, each from its own text (none when tsgo cannot)
      take(new Map(), { ...result, emitted: emitNatively(native, sources, nativeOptions, root, format) ?? new Map() });
    } else take(previous.compiled, result);
    if (expected.some((f) => !next.compiled.has(f))) {
      // the build state and the compiled files of the cache disagree, or tsgo could not write them: the compiler API compiles everything afresh
      next.compiled.clear();
      result = compile(undefined, true);
      take(new Map(), result);
    }
    files.clear();
    for (const file of [...expected].sort()) files.set(file, next.compiled.get(file)!);
  }
  for (const name of used) files.set(`${folder}/runtime/${name}.js`, `${BANNER}\n\n${runtime.get(name)!.js[format]}`);
  for (const [file, text] of declarations) files.set(file, text);
  stats.checked = result.checked;
  if (result.buildInfo !== undefined) next.buildInfo = result.buildInfo;
  const header = fileHeader(options.origin);
  const checkedHeader = fileHeader(options.origin, true);
  for (const [file, text] of files) files.set(file, (file.endsWith('.ts') && !file.endsWith('.d.ts') ? checkedHeader : header) + text.slice(BANNER.length));
  return { files, cache: next, stats };
}

/** The cache's build state after a check by tsgo, which keeps none: it marks the sources (by their hash) as checked. */
const NATIVE_BUILD_STATE = '';

/** CommonJS output puts "use strict" first: the banner goes back on top. */
const withBanner = (text: string) => (text.startsWith(BANNER) ? text : `${BANNER}\n${text.replace(`${BANNER}\n`, '')}`);

/** Compiler options for `emit: 'js'`: declarations; the module format of each file follows its package.json scope, as in the app's own tsc (NodeNext). */
const compileOptions: TS.CompilerOptions = { noEmit: false, declaration: true };
