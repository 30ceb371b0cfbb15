// The rules for the names a schema gives its output (generated-names.ts explains them), without the
// emitters or the compiler: `judgeNames` applies them to the names each owner declares, and
// `screenNames` decides them from the owners' own names alone when it can. Every name an entity or
// edge module declares is one of the owner's prefixes, or a prefix followed by a capital letter
// (`User`, `UserKey`, `userModel`), and every table-level one likewise with the table's
// (`SocialTable`, `createSocialInMemory`); so when no JavaScript global, runtime export or other
// owner's prefix is an owner's prefix or extends it with a capital letter, no declared name can be
// a global, a runtime export or another owner's (`Thing1` and `Thing10` never meet: `Thing1Key`,
// `Thing1Model`… all continue with a capital), and the emitters need not run. ddbgen lint
// and every command that only validates stay clear of the compiler that way; generated-names.ts
// makes the full check when the screen cannot decide.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { TableDef } from '../../dsl/ir.js';
import { camelCase, kebabCase, pascalCase, tableFolder } from '../model/names.js';
import { compiledRuntimeDir, packageRoot } from '../package-root.js';

/** ECMAScript reserved words, strict-mode ones, and TypeScript's predefined type names. */
export const RESERVED_WORDS = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null ' +
    'return super switch this throw true try typeof var void while with implements interface let package private protected public static yield await ' +
    'any boolean never number object string symbol bigint undefined unknown arguments eval as async from get of set type declare keyof readonly infer is module namespace require satisfies'
  ).split(' '),
);

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

/** dist/runtime/javascript-globals.json: the globals of the ES libraries of the TypeScript ts-morph carries, written at build time. */
export const GLOBALS_FILE = path.join(compiledRuntimeDir, 'javascript-globals.json');

/** The version of @ts-morph/common (whose TypeScript's libraries the globals were read from), without loading it. */
export function tsMorphCommonVersion(): string | undefined {
  try {
    const manifest = createRequire(path.join(packageRoot, 'package.json')).resolve('@ts-morph/common/package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

let builtGlobals: ReadonlySet<string> | null | undefined;

/** The globals as the build wrote them, or undefined when the file is missing or from another @ts-morph/common. */
export function builtJavascriptGlobals(): ReadonlySet<string> | undefined {
  if (builtGlobals === undefined) {
    try {
      const built = JSON.parse(readFileSync(GLOBALS_FILE, 'utf8')) as { tsMorphCommon?: unknown; names?: unknown };
      builtGlobals = built.tsMorphCommon === tsMorphCommonVersion() && Array.isArray(built.names) ? new Set(built.names as string[]) : null;
    } catch {
      builtGlobals = null;
    }
  }
  return builtGlobals ?? undefined;
}

/**
 * The runtime modules generated code imports by name (every other runtime module is imported only by
 * these, or by ddbgen itself, never beside a generated declaration): the names they export, their
 * re-exports included, are the runtime's names a generated declaration may not take.
 * runtime-modules.test.ts holds this list to every runtime import the emitters write.
 */
export const IMPORTED_RUNTIME: readonly string[] = [
  'batch',
  'codec',
  'condition',
  'cursor',
  'edge',
  'errors',
  'expiry',
  'gather',
  'in-memory/table',
  'item',
  'item-mapping',
  'key-condition',
  'migration/cli',
  'migration/plan',
  'native-index',
  'pii-fingerprint',
  'read',
  'repository',
  'rotation',
  'scan',
  'stream',
  'table-context',
  'telemetry',
  'telemetry-emf',
  'telemetry-otel',
  'telemetry-sink',
  'transaction',
  'write',
];

/** The names a runtime module's declarations export: its exported declarations and its export lists (`export { a, b as c }`, re-exports included). */
export const exportedNames = (declarations: string): string[] => [
  ...[...declarations.matchAll(/^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:class|interface|type|const|let|function\*?|enum)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!),
  ...[...declarations.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((part) => part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).at(-1)!)
      .filter((name) => /^[A-Za-z_$][\w$]*$/.test(name)),
  ),
];

let builtRuntime: ReadonlySet<string> | null | undefined;

/** Every name the compiled runtime modules generated code imports export, read from dist/runtime; undefined when it is missing. */
export function builtRuntimeExports(): ReadonlySet<string> | undefined {
  if (builtRuntime === undefined) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(compiledRuntimeDir, 'manifest.json'), 'utf8')) as { imports: Record<string, unknown> };
      builtRuntime = new Set(Object.keys(manifest.imports).filter((name) => IMPORTED_RUNTIME.includes(name)).flatMap((name) => exportedNames(readFileSync(path.join(compiledRuntimeDir, 'esm', `${name}.d.ts`), 'utf8'))));
    } catch {
      builtRuntime = null;
    }
  }
  return builtRuntime ?? undefined;
}

/** What each owner declares: the table's own declarations, and an entity's or edge's (by name). */
export interface DeclaredNames {
  readonly table: () => readonly string[];
  readonly entity: (name: string) => readonly string[];
  readonly edge: (name: string) => readonly string[];
  /** An entity module's exported functions (the function forms of its operations) and its imports. */
  readonly operations?: (name: string) => OperationNames;
}

/** The function forms an entity module exports (`orderGet`, `planPut`) and the names it imports. */
export interface OperationNames {
  readonly names: ReadonlySet<string>;
  readonly imported: ReadonlySet<string>;
  /** A name the module declares twice in one declaration space (two values or two types). */
  readonly twice?: string;
}

/** The owners of names in a table, in the order they are judged. */
export function nameOwners(table: TableDef): { table: NameOwner; owners: Array<{ owner: NameOwner; name: string; kind: 'entity' | 'edge' }> } {
  return {
    table: { path: ['name'], what: `table "${table.name}"` },
    owners: [
      ...Object.values(table.entities).map((entity) => ({ owner: { path: ['entities', entity.name], what: `entity "${entity.name}"` }, name: entity.name, kind: 'entity' as const })),
      ...Object.values(table.edges).map((edge) => ({ owner: { path: ['edges', edge.name], what: `edge "${edge.name}"` }, name: edge.name, kind: 'edge' as const })),
    ],
  };
}

/**
 * The problems of the names `table` gives its output, given what each owner declares and the
 * globals and runtime exports. An owner whose declarations cannot be listed (its templates are
 * broken, reported elsewhere) is judged by its own name only.
 */
export function judgeNames(table: TableDef, declared: DeclaredNames, globals: ReadonlySet<string>, runtime: ReadonlySet<string>): NameProblem[] {
  const problems: NameProblem[] = [];
  const { table: tableOwner, owners } = nameOwners(table);
  const declaredBy = new Map<string, NameOwner>();
  const reported = new Set<NameOwner>();
  const clash = (owner: NameOwner, name: string, other: NameOwner) => {
    if (reported.has(owner)) return;
    reported.add(owner);
    problems.push({ owner, kind: 'clash', name, other });
  };
  const declare = (owner: NameOwner, name: string) => {
    const other = declaredBy.get(name);
    if (other === undefined) declaredBy.set(name, owner);
    else if (other !== owner) clash(owner, name, other);
  };
  const judge = (owner: NameOwner, name: string | undefined, names: readonly string[], operations?: OperationNames) => {
    if (name !== undefined && RESERVED_WORDS.has(name)) return problems.push({ owner, kind: 'reserved', name });
    const shadowed = names.find((n) => globals.has(n));
    if (shadowed !== undefined) return problems.push({ owner, kind: 'global', name: shadowed });
    // the function form of an operation (`planPut`, of entity Plan) may take a runtime helper's name
    // where its module does not import that helper: nothing else of the output imports it beside the runtime
    const taken = names.find((n) => runtime.has(n) && (!operations?.names.has(n) || operations.imported.has(n)));
    if (taken !== undefined) return problems.push({ owner, kind: 'runtime', name: taken });
    for (const n of names) declare(owner, n);
    return 0;
  };
  const safely = (declares: () => readonly string[]) => {
    try {
      return declares();
    } catch {
      return [];
    }
  };
  const tableNames = safely(declared.table);
  // files (kebab-case) and members of the table class (camelCase) first: two names that differ
  // only in case, or in _ and -, come out the same
  const tableFiles = ['index', ...(Object.keys(table.edges).length ? ['edges'] : []), ...(table.stream ? ['stream'] : []), 'table-definition', 'in-memory', `${tableFolder(table)}-table`, 'runtime'];
  const files = new Map<string, NameOwner>(tableFiles.map((stem) => [stem, tableOwner]));
  const members = new Map<string, NameOwner>(['constructor', 'tableName', 'context', 'transaction', 'scanSegments'].map((member) => [member, tableOwner]));
  for (const { owner, name, kind } of owners) {
    const slots = [...(kind === 'entity' ? [[files, kebabCase(name)] as const] : []), [members, camelCase(name)] as const];
    for (const [seen, key] of slots) {
      const other = seen.get(key);
      if (other === undefined) seen.set(key, owner);
      else clash(owner, seen === files ? `${key}.ts` : key, other);
    }
  }
  judge(tableOwner, undefined, tableNames); // the table's own name is never declared bare
  for (const { owner, name, kind } of owners) {
    const names = safely(() => (kind === 'entity' ? declared.entity(name) : declared.edge(name)));
    let operations: OperationNames | undefined;
    try {
      operations = kind === 'entity' ? declared.operations?.(name) : undefined;
    } catch {
      operations = undefined;
    }
    // one module declaring a value (or a type) twice: a pattern named `model` makes `orderModel`,
    // the function form of its method, beside the entity's model constant
    if (operations?.twice !== undefined) {
      problems.push({ owner, kind: 'clash', name: operations.twice, other: { path: owner.path, what: 'another of its generated declarations' } });
      continue;
    }
    judge(owner, name, [...new Set([name, ...names])], operations);
  }
  return problems;
}

/** What every name an owner's output declares is, or starts with followed by a capital letter. */
export function namePrefixes(table: TableDef): Array<{ owner: string; prefixes: string[] }> {
  const stem = pascalCase(table.name);
  return [
    {
      owner: 'table',
      prefixes: [
        stem, `${camelCase(table.name)}Table`, `${camelCase(table.name)}Stream`, `create${stem}`, `decode${stem}`, `handle${stem}`,
        // a stream's event type per entity and edge (`UserStreamEvent`): under the owners' own prefixes, so the screen leaves such tables to the emitters
        ...(table.stream ? [...Object.keys(table.entities), ...Object.keys(table.edges)].map((name) => `${name}StreamEvent`) : []),
      ],
    },
    ...Object.values(table.entities).map((entity) => ({ owner: `entities.${entity.name}`, prefixes: [entity.name, camelCase(entity.name)] })),
    ...Object.values(table.edges).map((edge) => ({ owner: `edges.${edge.name}`, prefixes: [edge.name, camelCase(edge.name)] })),
  ];
}

/** True when a name made of `prefix` (and a suffix starting with a capital letter, or none) could be `text`. */
export function couldExtend(prefix: string, text: string): boolean {
  return text.startsWith(prefix) && (text.length === prefix.length || /[A-Z]/.test(text[prefix.length]!));
}

/** The first index of `sorted` whose string is not below `text`. */
function lowerBound(sorted: readonly string[], text: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < text) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The problems of the names `table` gives its output, decided from the owners' names alone, or
 * undefined when that cannot decide them (a global, runtime export or another owner's prefix starts
 * with an owner's prefix; or dist/runtime is missing): then the emitters must list the
 * declarations (generated-names.ts).
 */
export function screenNames(table: TableDef): NameProblem[] | undefined {
  const globals = builtJavascriptGlobals();
  const runtime = builtRuntimeExports();
  if (!globals || !runtime) return undefined;
  const taken = [...new Set([...globals, ...runtime])].sort();
  // a pattern is a method with a function form `<entity><Pattern>`, which may meet the module's own
  // declarations (a pattern named `model` or `delete`: `orderModel`, `orderDelete`); the owners'
  // prefixes cannot tell, so the emitters decide for tables with patterns
  if (Object.keys(table.patterns ?? {}).length > 0) return undefined;
  const prefixes = namePrefixes(table).flatMap(({ owner, prefixes: list }) => [...new Set(list)].map((prefix) => ({ owner, prefix })));
  for (const { prefix } of prefixes) {
    if (prefix === '') return undefined;
    for (let i = lowerBound(taken, prefix); i < taken.length && taken[i]!.startsWith(prefix); i++) if (couldExtend(prefix, taken[i]!)) return undefined;
  }
  const sorted = [...prefixes].sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0));
  const texts = sorted.map((p) => p.prefix);
  for (const { owner, prefix } of prefixes) {
    for (let i = lowerBound(texts, prefix); i < sorted.length && texts[i]!.startsWith(prefix); i++) if (sorted[i]!.owner !== owner && couldExtend(prefix, texts[i]!)) return undefined;
  }
  // no declared name beyond an owner's own can be a global, a runtime export or another owner's
  const none = () => [];
  return judgeNames(table, { table: none, entity: none, edge: none }, globals, runtime);
}
