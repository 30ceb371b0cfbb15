// Names a schema gives to the output: every identifier and file the emitters would declare for an
// entity, edge or table must compile and be its own. Rejected: reserved words, names that would
// shadow a JavaScript global the output uses (from TypeScript's own ES library declarations) or a
// runtime helper it imports, and two declarations (or two files) that come out the same, such as
// entities `User` and `user`, or `User` and `UserKey`.

import { StructureKind } from '../ts-morph.js';
import type { StatementStructures } from 'ts-morph';
import type { EmittedModule } from './context.js';
import type { TableDef } from '../../dsl/ir.js';
import { createContext } from './context.js';
import { emitEdges } from './table/edges.js';
import { entityModule } from './entity/entity-module.js';
import { emitInMemory } from './integrations/in-memory.js';
import { emitStream } from './integrations/stream.js';
import { javascriptGlobals, runtimeExports } from './output-globals.js';
import { emitTableClass } from './table/table-class.js';
import { emitTableDefinition } from './table/table-definition.js';
import { judgeNames, screenNames, type DeclaredNames, type NameProblem, type OperationNames } from '../validate/name-rules.js';

export { RESERVED_WORDS, type NameOwner, type NameProblem } from '../validate/name-rules.js';
export { javascriptGlobals, runtimeExports, writeJavascriptGlobals } from './output-globals.js';

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

/** The function forms of an entity module's operations, the names the module imports, and a name it declares twice. */
function operationNames(module: EmittedModule): OperationNames {
  const names = new Set(module.operations);
  const imported = module.imports.flatMap((i) => (Array.isArray(i.namedImports) ? i.namedImports.map((n) => (typeof n === 'string' ? n : (n as { name: string }).name)) : []));
  const twice = declaredTwice(module.statements);
  return { names, imported: new Set(imported), ...(twice === undefined ? {} : { twice }) };
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
