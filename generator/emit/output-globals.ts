// The names generated code must not shadow: the JavaScript globals it uses (from TypeScript's own
// ES library declarations) and the runtime helpers it imports. The emitters avoid them
// (record-conversion.ts) and validation of a schema's generated names rejects them
// (generated-names.ts).

import { writeFileSync } from 'node:fs';
import { getLibFiles, ts } from '../ts-morph.js';
import { GLOBALS_FILE, IMPORTED_RUNTIME, builtJavascriptGlobals, exportedNames, tsMorphCommonVersion } from '../validate/name-rules.js';
import { runtimeModules } from './runtime/runtime-modules.js';

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

/** Every name the runtime modules generated code imports export (IMPORTED_RUNTIME); generated modules import them by these names. */
export function runtimeExports(): ReadonlySet<string> {
  runtimeNames ??= new Set([...runtimeModules().values()].filter(({ name }) => IMPORTED_RUNTIME.includes(name)).flatMap(({ declarations }) => exportedNames(declarations)));
  return runtimeNames;
}
