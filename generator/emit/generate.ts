// Assembles a table's output: runtime helpers copied from templates/runtime, one module per entity,
// the table definition, the table class and an index. Every file is printed deterministically and
// the whole output is type-checked in memory before anything is written.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { IndentationText, Node, Project, QuoteKind, StructureKind, ts, type SourceFile, type StatementStructures } from 'ts-morph';
import type { TableDef } from '../../dsl/ir.js';
import { packageRoot } from '../package-root.js';
import { BANNER, createContext, entityFile, tableClassName, tableFolder, tableItemTypeName, transactionClassName } from './context.js';
import { emitEdges } from './edges.js';
import { emitEntity, type EmittedModule } from './entity.js';
import { emitTableClass } from './table-class.js';
import { emitTableDefinition, tableDefinitionName } from './table-definition.js';

/** Generated files of one table, keyed by path relative to the output root (`social/user.ts`). */
export type GeneratedFiles = Map<string, string>;

/**
 * What ddbgen writes: `ts` (default) the TypeScript sources, which the app's compiler checks with
 * the rest of the app; `js` the same modules compiled by ddbgen, as `.js` + `.d.ts` (in the module
 * format the output folder's package.json implies, as the app's own tsc would), so the app's type
 * check only reads the declarations.
 */
export type EmitKind = 'ts' | 'js';
export const EMIT_KINDS: readonly EmitKind[] = ['ts', 'js'];

export class GeneratedCodeError extends Error {
  readonly diagnostics: string[];
  constructor(diagnostics: string[]) {
    super(`the generated code does not compile:\n${diagnostics.join('\n')}`);
    this.diagnostics = diagnostics;
  }
}

export class MissingSdkError extends Error {}

export const runtimeDir = path.join(packageRoot, 'templates', 'runtime');

/** The runtime helper sources copied into every output (tests excluded), sorted by name. */
export function runtimeSources(): Array<{ name: string; text: string }> {
  return readdirSync(runtimeDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(runtimeDir, name), 'utf8') }));
}

const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts'],
  types: [],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  skipLibCheck: true,
  noEmit: true,
};

function newProject(): Project {
  return new Project({
    compilerOptions,
    skipAddingFilesFromTsConfig: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Single, useTrailingCommas: true },
  });
}

/** The file's text with one blank line between top-level statements (imports and re-exports stay grouped). */
function separateStatements(file: SourceFile): string {
  let text = file.getFullText();
  const statements = file.getStatements();
  for (let i = statements.length - 1; i > 0; i--) {
    const previous = statements[i - 1]!;
    const current = statements[i]!;
    const grouped = (Node.isImportDeclaration(previous) && Node.isImportDeclaration(current)) || (Node.isExportDeclaration(previous) && Node.isExportDeclaration(current));
    if (grouped || text.slice(previous.getEnd(), current.getStart(true)).includes('\n\n')) continue;
    text = `${text.slice(0, previous.getEnd())}\n${text.slice(previous.getEnd())}`;
  }
  return text;
}

/** Prints one emitted module as a file: banner, imports, statements, formatted. */
export function renderModule(filePath: string, module: EmittedModule, project: Project = newProject()): string {
  const file = project.createSourceFile(filePath, '', { overwrite: true });
  file.addImportDeclarations(module.imports);
  file.addStatements(module.statements);
  file.formatText({ indentSize: 2, convertTabsToSpaces: true, semicolons: ts.SemicolonPreference.Insert });
  return `${BANNER}\n\n${separateStatements(file)}`;
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
        { name: tableItemTypeName(table), isTypeOnly: true },
        { name: `${tableClassName(table)}Options`, isTypeOnly: true },
      ],
    },
    { moduleSpecifier: './table-definition.js', namedExports: [tableDefinitionName(table)] },
    ...Object.values(table.entities).map((e) => ({ moduleSpecifier: `./${entityFile(e).replace(/\.ts$/, '.js')}`, namedExports: ['*'] })),
    ...(Object.keys(table.edges).length ? [{ moduleSpecifier: './edges.js', namedExports: ['*'] }] : []),
    ...(Object.keys(table.edges).length ? [{ moduleSpecifier: './runtime/edge.js', namedExports: ['EdgeRepository', ...['LinkOptions', 'ManyResult', 'Node'].map((name) => ({ name, isTypeOnly: true }))] }] : []),
    { moduleSpecifier: './runtime/errors.js', namedExports: ['*'] },
    { moduleSpecifier: './runtime/batch.js', namedExports: ['UnprocessedItemsError', { name: 'RetryPolicy', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/cursor.js', namedExports: [{ name: 'CursorOptions', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/condition.js', namedExports: [{ name: 'Comparison', isTypeOnly: true }, { name: 'Condition', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/transaction.js', namedExports: [{ name: 'CommitOptions', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/scan.js', namedExports: [{ name: 'ScanOptions', isTypeOnly: true }] },
    { moduleSpecifier: './runtime/write.js', namedExports: ['Returned', 'UpdateReturnValues', 'VersionedWriteOptions', 'WriteOptions'].map((name) => ({ name, isTypeOnly: true })) },
    { moduleSpecifier: './runtime/key-condition.js', namedExports: [{ name: 'SortCondition', isTypeOnly: true }] },
    {
      moduleSpecifier: './runtime/repository.js',
      namedExports: ['IndexQueryOptions', 'Page', 'PageOptions', 'QueryOptions', 'ReadOptions'].map((name) => ({ name, isTypeOnly: true })),
    },
  ];
  for (const e of exports) {
    const named = e.namedExports.filter((n) => n !== '*');
    statements.push({ kind: StructureKind.ExportDeclaration, moduleSpecifier: e.moduleSpecifier, ...(named.length ? { namedExports: named } : {}) });
  }
  return { imports, statements };
}

/** Module path of `@aws-sdk/*` type declarations for the in-memory check: the user's first, then ours. */
function sdkPaths(outDir: string): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
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
    paths[pkg] = [resolved];
  }
  return paths;
}

/**
 * Emits every file of one table and type-checks them together. Throws GeneratedCodeError when the
 * output does not compile (a ddbgen bug, never the user's).
 */
export function generateTable(table: TableDef, outDir: string, emit: EmitKind = 'ts'): GeneratedFiles {
  const ctx = createContext(table);
  const folder = tableFolder(table);
  const project = newProject();
  project.compilerOptions.set({ paths: sdkPaths(outDir), ...(emit === 'js' ? compileOptions(path.join(outDir, folder)) : {}) });
  const root = path.resolve(outDir, folder);
  const files: GeneratedFiles = new Map();
  const add = (name: string, text: string) => {
    files.set(`${folder}/${name}`, text);
    project.createSourceFile(path.join(root, name), text, { overwrite: true });
  };

  for (const { name, text } of runtimeSources()) add(`runtime/${name}`, `${BANNER}\n\n${text}`);
  const scratch = newProject();
  for (const entity of Object.values(table.entities)) {
    add(entityFile(entity), renderModule(entityFile(entity), emitEntity(entity, ctx), scratch));
  }
  if (Object.keys(table.edges).length) add('edges.ts', renderModule('edges.ts', emitEdges(table, ctx), scratch));
  add('table-definition.ts', renderModule('table-definition.ts', emitTableDefinition(table, ctx), scratch));
  add(`${folder}-table.ts`, renderModule(`${folder}-table.ts`, emitTableClass(table, ctx), scratch));
  add('index.ts', renderModule('index.ts', indexModule(table), scratch));

  const diagnostics = project.getPreEmitDiagnostics().filter((d) => d.getCategory() === ts.DiagnosticCategory.Error);
  if (diagnostics.length) {
    throw new GeneratedCodeError(
      diagnostics.map((d) => {
        const file = d.getSourceFile();
        const where = file ? `${path.relative(outDir, file.getFilePath())}:${d.getLineNumber() ?? 0}` : '';
        return `${where} ${ts.flattenDiagnosticMessageText(d.getMessageText() as string | ts.DiagnosticMessageChain, '\n')}`;
      }),
    );
  }
  return emit === 'js' ? compiled(project, outDir) : files;
}

/** Node's rule: a folder's modules are ES modules when the nearest package.json says `"type": "module"`. */
export function isEsmScope(dir: string): boolean {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const manifest = path.join(at, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type === 'module';
      } catch {
        return false;
      }
    }
    if (path.dirname(at) === at) return false;
  }
}

/** Compiler options for `emit: 'js'`: declarations, and the module format the output folder's scope implies. */
function compileOptions(dir: string): ts.CompilerOptions {
  const format = isEsmScope(dir)
    ? { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }
    : { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Bundler };
  return { ...format, noEmit: false, declaration: true };
}

/** The checked project compiled to `.js` + `.d.ts`, each file under ddbgen's banner. */
function compiled(project: Project, outDir: string): GeneratedFiles {
  const files: GeneratedFiles = new Map();
  const result = project.emitToMemory();
  const skipped = result.getDiagnostics().map((d) => ts.flattenDiagnosticMessageText(d.getMessageText() as string | ts.DiagnosticMessageChain, '\n'));
  if (result.getEmitSkipped() || skipped.length) throw new GeneratedCodeError(skipped.length ? skipped : ['the compiler emitted nothing']);
  for (const file of result.getFiles()) {
    const name = path.relative(outDir, file.filePath).split(path.sep).join('/');
    files.set(name, file.text.startsWith(BANNER) ? file.text : `${BANNER}\n${file.text.replace(`${BANNER}\n`, '')}`); // CommonJS puts "use strict" first
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
