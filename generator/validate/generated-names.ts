// Names a schema gives to the output: every identifier and file the emitters would declare for an
// entity, edge or table must compile and be its own. Rejected: reserved words, names that would
// shadow a JavaScript global the output uses (from TypeScript's own ES library declarations) or a
// runtime helper it imports, and two declarations (or two files) that come out the same, such as
// entities `User` and `user`, or `User` and `UserKey`.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getLibFiles } from '@ts-morph/common';
import { ts, type StatementStructures } from 'ts-morph';
import type { TableDef } from '../../dsl/ir.js';
import { camelCase, createContext, kebabCase, tableFolder } from '../emit/context.js';
import { emitEdges } from '../emit/edges.js';
import { entityModule } from '../emit/entity-module.js';
import { emitInMemory } from '../emit/in-memory.js';
import { emitStream } from '../emit/stream.js';
import { compiledRuntimeDir, runtimeModules } from '../emit/runtime-modules.js';
import { emitTableClass } from '../emit/table-class.js';
import { emitTableDefinition } from '../emit/table-definition.js';

/** ECMAScript reserved words, strict-mode ones, and TypeScript's predefined type names. */
export const RESERVED_WORDS = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null ' +
    'return super switch this throw true try typeof var void while with implements interface let package private protected public static yield await ' +
    'any boolean never number object string symbol bigint undefined unknown arguments eval as async from get of set type declare keyof readonly infer is module namespace require satisfies'
  ).split(' '),
);

let globalNames: Set<string> | undefined;

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

/**
 * The globals as the build wrote them (writeJavascriptGlobals), for the TypeScript whose libraries
 * they were read from: parsing the libraries would cost every run a tenth of a second or more.
 */
const GLOBALS_FILE = path.join(compiledRuntimeDir, 'javascript-globals.json');

/** Writes the globals of this TypeScript's libraries for later runs (a build step, compile-runtime.ts). */
export function writeJavascriptGlobals(): void {
  writeFileSync(GLOBALS_FILE, `${JSON.stringify({ typescript: ts.version, names: [...libraryGlobals()].sort() })}\n`);
}

/** Every global the ES library declarations of TypeScript name (Promise, Array, Record, …). */
export function javascriptGlobals(): ReadonlySet<string> {
  if (!globalNames) {
    let built: { typescript?: unknown; names?: unknown } | undefined;
    try {
      built = JSON.parse(readFileSync(GLOBALS_FILE, 'utf8')) as typeof built;
    } catch {
      built = undefined;
    }
    globalNames = built?.typescript === ts.version && Array.isArray(built.names) ? new Set(built.names as string[]) : libraryGlobals();
  }
  return globalNames;
}

let runtimeNames: Set<string> | undefined;

/** Every name the runtime helpers export; generated modules import them by these names. */
export function runtimeExports(): ReadonlySet<string> {
  runtimeNames ??= new Set([...runtimeModules().values()].flatMap(({ declarations }) => [...declarations.matchAll(/^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:class|interface|type|const|let|function\*?|enum)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!)));
  return runtimeNames;
}

/** What declares a name: `entities.User`, `edges.Fan` or the table. */
export interface NameOwner {
  readonly path: readonly string[];
  readonly what: string;
}

export interface NameProblem {
  readonly owner: NameOwner;
  readonly kind: 'reserved' | 'global' | 'runtime' | 'clash';
  readonly name: string;
  /** For a clash: who else declares it. */
  readonly other?: NameOwner;
}

function declaredNames(statements: readonly StatementStructures[] | string | undefined): string[] {
  if (!Array.isArray(statements)) return [];
  return statements.flatMap((s) => {
    const named = s as { name?: unknown; declarations?: ReadonlyArray<{ name: string }> };
    if (typeof named.name === 'string') return [named.name];
    return named.declarations?.map((d) => d.name) ?? [];
  });
}

/**
 * The problems of the names `table` gives its output. An entity or edge whose declarations cannot
 * be emitted (its templates are broken, reported elsewhere) is judged by its own name only.
 */
export function nameProblems(table: TableDef): NameProblem[] {
  const problems: NameProblem[] = [];
  const tableOwner: NameOwner = { path: ['name'], what: `table "${table.name}"` };
  const owners: Array<{ owner: NameOwner; name: string; declares: () => string[] }> = [
    ...Object.values(table.entities).map((entity) => ({
      owner: { path: ['entities', entity.name], what: `entity "${entity.name}"` },
      name: entity.name,
      declares: () => declaredNames(entityModule(table, entity).statements),
    })),
    ...Object.values(table.edges).map((edge) => ({
      owner: { path: ['edges', edge.name], what: `edge "${edge.name}"` },
      name: edge.name,
      declares: () => declaredNames(emitEdges({ ...table, edges: { [edge.name]: edge } }, createContext(table)).statements),
    })),
  ];
  const globals = javascriptGlobals();
  const runtime = runtimeExports();
  const declared = new Map<string, NameOwner>();
  const reported = new Set<NameOwner>();
  const clash = (owner: NameOwner, name: string, other: NameOwner) => {
    if (reported.has(owner)) return;
    reported.add(owner);
    problems.push({ owner, kind: 'clash', name, other });
  };
  const declare = (owner: NameOwner, name: string) => {
    const other = declared.get(name);
    if (other === undefined) declared.set(name, owner);
    else if (other !== owner) clash(owner, name, other);
  };
  const judge = (owner: NameOwner, name: string | undefined, names: readonly string[]) => {
    if (name !== undefined && RESERVED_WORDS.has(name)) return problems.push({ owner, kind: 'reserved', name });
    const shadowed = names.find((n) => globals.has(n));
    if (shadowed !== undefined) return problems.push({ owner, kind: 'global', name: shadowed });
    const taken = names.find((n) => runtime.has(n));
    if (taken !== undefined) return problems.push({ owner, kind: 'runtime', name: taken });
    for (const n of names) declare(owner, n);
    return 0;
  };
  const safely = (declares: () => string[]) => {
    try {
      return declares();
    } catch {
      return [];
    }
  };
  const tableNames = safely(() => {
    const ctx = createContext(table);
    return [
      ...declaredNames(emitTableClass(table, ctx).statements),
      ...declaredNames(emitTableDefinition(table, ctx).statements),
      ...(table.stream ? declaredNames(emitStream(table, ctx).statements) : []),
      ...declaredNames(emitInMemory(table, ctx).statements),
    ];
  });
  // files (kebab-case) and members of the table class (camelCase) first: two names that differ
  // only in case, or in _ and -, come out the same
  const tableFiles = ['index', ...(Object.keys(table.edges).length ? ['edges'] : []), ...(table.stream ? ['stream'] : []), 'table-definition', 'in-memory', `${tableFolder(table)}-table`, 'runtime'];
  const files = new Map<string, NameOwner>(tableFiles.map((stem) => [stem, tableOwner]));
  const members = new Map<string, NameOwner>(['constructor', 'tableName', 'context', 'transaction', 'scanSegments'].map((member) => [member, tableOwner]));
  for (const { owner, name } of owners) {
    const slots = [...(owner.path[0] === 'entities' ? [[files, kebabCase(name)] as const] : []), [members, camelCase(name)] as const];
    for (const [seen, key] of slots) {
      const other = seen.get(key);
      if (other === undefined) seen.set(key, owner);
      else clash(owner, seen === files ? `${key}.ts` : key, other);
    }
  }
  judge(tableOwner, undefined, tableNames); // the table's own name is never declared bare
  for (const { owner, name, declares } of owners) judge(owner, name, [...new Set([name, ...safely(declares)])]);
  return problems;
}
