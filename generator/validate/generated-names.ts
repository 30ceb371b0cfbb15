// Names a schema gives to the output: every identifier and file the emitters would declare for an
// entity, edge or table must compile and be its own. Rejected: reserved words, names that would
// shadow a JavaScript global the output uses (from TypeScript's own ES library declarations) or a
// runtime helper it imports, and two declarations (or two files) that come out the same, such as
// entities `User` and `user`, or `User` and `UserKey`.

import { writeFileSync } from 'node:fs';
import { getLibFiles, StructureKind, ts } from '../ts-morph.js';
import type { StatementStructures } from 'ts-morph';
import type { EmittedModule } from '../emit/entity.js';
import type { TableDef } from '../../dsl/ir.js';
import { createContext } from '../emit/context.js';
import { emitEdges } from '../emit/edges.js';
import { entityModule } from '../emit/entity-module.js';
import { emitInMemory } from '../emit/in-memory.js';
import { emitStream } from '../emit/stream.js';
import { runtimeModules } from '../emit/runtime-modules.js';
import { emitTableClass } from '../emit/table-class.js';
import { emitTableDefinition } from '../emit/table-definition.js';
import { GLOBALS_FILE, builtJavascriptGlobals, exportedNames, judgeNames, screenNames, tsMorphCommonVersion, type DeclaredNames, type NameProblem, type OperationNames } from './name-rules.js';

export { RESERVED_WORDS, type NameOwner, type NameProblem } from './name-rules.js';

let globalNames: ReadonlySet<string> | undefined;

/** Every global the ES library declarations of TypeScript name (Promise, Array, Record, …), read from the libraries. */
function libraryGlobals(): Set<string> {
  const names = new Set<string>();
  for (const lib of getLibFiles()) {
    if (!/^lib\.(es5|es20\d\d(\.[a-z.]+)?|decorators(\.legacy)?)\.d\.ts$/.test(lib.fileName) || lib.fileName.includes('.full.')) continue;
    for (const statement of ts.createSourceFile(lib.fileName, lib.text, ts.ScriptTarget.ES2022).statements) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
      } else if ((ts.isFunctionDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isModuleDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name && ts.isIdentifier(statement.name)) {
        names.add(statement.name.text);
      }
    }
  }
  return names;
}

/** Writes the globals of this TypeScript's libraries for later runs (a build step, compile-runtime.ts): parsing the libraries would cost every run a tenth of a second or more. */
export function writeJavascriptGlobals(): void {
  writeFileSync(GLOBALS_FILE, `${JSON.stringify({ tsMorphCommon: tsMorphCommonVersion(), typescript: ts.version, names: [...libraryGlobals()].sort() })}\n`);
}

/** Every global the ES library declarations of TypeScript name (Promise, Array, Record, …). */
export function javascriptGlobals(): ReadonlySet<string> {
  globalNames ??= builtJavascriptGlobals() ?? libraryGlobals();
  return globalNames;
}

let runtimeNames: Set<string> | undefined;

/** Every name the runtime helpers export; generated modules import them by these names. */
export function runtimeExports(): ReadonlySet<string> {
  runtimeNames ??= new Set([...runtimeModules().values()].flatMap(({ declarations }) => exportedNames(declarations)));
  return runtimeNames;
}

function declaredNames(statements: readonly StatementStructures[] | string | undefined): string[] {
  if (!Array.isArray(statements)) return [];
  return statements.flatMap((s) => {
    const named = s as { name?: unknown; declarations?: ReadonlyArray<{ name: string }> };
    if (typeof named.name === 'string') return [named.name];
    return named.declarations?.map((d) => d.name) ?? [];
  });
}

/** A name one module declares twice in one declaration space (two values, or two types: a type and a function may share a name). */
function declaredTwice(statements: readonly StatementStructures[]): string | undefined {
  const spaces = { value: new Set<string>(), type: new Set<string>() };
  for (const s of statements) {
    const named = s as { name?: unknown; declarations?: ReadonlyArray<{ name: string }> };
    const names = typeof named.name === 'string' ? [named.name] : (named.declarations?.map((d) => d.name) ?? []);
    const inValues = s.kind === StructureKind.Function || s.kind === StructureKind.VariableStatement || s.kind === StructureKind.Class || s.kind === StructureKind.Enum;
    const inTypes = s.kind === StructureKind.TypeAlias || s.kind === StructureKind.Interface || s.kind === StructureKind.Class || s.kind === StructureKind.Enum;
    for (const name of names) {
      if ((inValues && spaces.value.has(name)) || (inTypes && spaces.type.has(name))) return name;
      if (inValues) spaces.value.add(name);
      if (inTypes) spaces.type.add(name);
    }
  }
  return undefined;
}

/** The exported functions of an entity's module (the function forms of its operations), the names the module imports, and a name it declares twice. */
function operationNames(module: EmittedModule): OperationNames {
  const names = module.statements.filter((s) => s.kind === StructureKind.Function && s.isExported).map((s) => (s as { name: string }).name);
  const imported = module.imports.flatMap((i) => (Array.isArray(i.namedImports) ? i.namedImports.map((n) => (typeof n === 'string' ? n : (n as { name: string }).name)) : []));
  const twice = declaredTwice(module.statements);
  return { names: new Set(names), imported: new Set(imported), ...(twice === undefined ? {} : { twice }) };
}

/** What each owner's output declares, as the emitters make it. */
export function emittedNames(table: TableDef): DeclaredNames {
  return {
    table: () => {
      const ctx = createContext(table);
      return [
        ...declaredNames(emitTableClass(table, ctx).statements),
        ...declaredNames(emitTableDefinition(table, ctx).statements),
        ...(table.stream ? declaredNames(emitStream(table, ctx).statements) : []),
        ...declaredNames(emitInMemory(table, ctx).statements),
      ];
    },
    entity: (name) => declaredNames(entityModule(table, table.entities[name]!).statements),
    operations: (name) => operationNames(entityModule(table, table.entities[name]!)),
    edge: (name) => declaredNames(emitEdges({ ...table, edges: { [name]: table.edges[name]! } }, createContext(table)).statements),
  };
}

/**
 * The problems of the names `table` gives its output: decided from the owners' names when the
 * screen can (name-rules.ts), else from the declarations the emitters make.
 */
export function nameProblems(table: TableDef): NameProblem[] {
  return screenNames(table) ?? judgeNames(table, emittedNames(table), javascriptGlobals(), runtimeExports());
}
