// Attributes the type checker's instantiations to declarations: `tsx bench/instantiations.ts
// <tsconfig.json> [--top N] [--by-file]`. Each top-level statement of each checked source file (and
// each member of a class, separately; with --deep, each statement of a method's body too) is checked on its own, in the order tsc checks them, and the
// instantiations it causes (and the types it creates, and its share of checking time: --by-types,
// --by-time sort by those) are counted; declarations that differ only by an entity number
// (Thing0…Thing99) are summed under one name, so a synthetic schema's per-entity cost reads off
// directly. `--checkers 4` counts as TypeScript 7 does by default: it has no JS API yet, and checks
// the program's files round-robin with 4 checkers that each resolve the types their files need, so
// a type every file uses is instantiated up to 4 times; this script does the same with 4 TypeScript 6
// checkers (compare its total with TypeScript 7's `tsc --extendedDiagnostics`). An app's compiler
// skips the generated modules' bodies (`// @ts-nocheck`: ddbgen checked them); `--bodies` checks
// them too, as ddbgen's own check does, to see what each generated declaration costs to check.

import path from 'node:path';
import ts from 'typescript';

/** The checker's internals this script reads: the instantiation counter and per-node checking. */
interface CountingChecker extends ts.TypeChecker {
  getInstantiationCount(): number;
  getTypeCount(): number;
  getDiagnostics(file: ts.SourceFile, token: undefined, nodes?: readonly ts.Node[]): readonly ts.Diagnostic[];
  getGlobalDiagnostics(): readonly ts.Diagnostic[];
}

/** Parsed files by name, with the text each was parsed from: kept across calls of attribute() in one process. */
export type SourceFileCache = Map<string, { text: string; file: ts.SourceFile }>;

/**
 * The attribution of `args` (as on the command line: the tsconfig, then the options), as the command
 * prints it. `sourceFiles`: files parsed by earlier calls, reused where read with the same text.
 */
export function attribute(args: readonly string[], sourceFiles?: SourceFileCache): string {
  const project = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
  if (!project) throw new Error(USAGE);
  const lines: string[] = [];
  const topArg = args.indexOf('--top');
  const top = topArg === -1 ? 40 : Number(args[topArg + 1]);
  const byFile = args.includes('--by-file');
  const deep = args.includes('--deep');
  const checkersArg = args.indexOf('--checkers');
  const checkerCount = checkersArg === -1 ? 1 : Number(args[checkersArg + 1]);

  const config = ts.getParsedCommandLineOfConfigFile(path.resolve(project), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => console.error(d.messageText) });
  if (!config) throw new Error(`${project}: no project read`);
  // --bodies: the generated modules read without their `// @ts-nocheck`, so their bodies are checked
  // as ddbgen's own check before writing them does (an app's compiler skips them)
  const host = ts.createCompilerHost(config.options);
  if (args.includes('--bodies')) {
    const read = host.readFile.bind(host);
    host.readFile = (file) => read(file)?.replace(/^\/\/ @ts-nocheck.*\n/m, '');
  }
  if (sourceFiles) {
    // a file read with the same text as by an earlier call is not parsed and bound again (the project's
    // hundreds of declaration files, the SDK's, are most of a small project's time); as the compiler
    // host's own getSourceFile, but for the cache
    host.getSourceFile = (fileName, languageVersionOrOptions) => {
      const text = host.readFile(fileName);
      if (text === undefined) return undefined;
      const kept = sourceFiles.get(fileName);
      if (kept?.text === text) return kept.file;
      const file = ts.createSourceFile(fileName, text, languageVersionOrOptions);
      sourceFiles.set(fileName, { text, file });
      return file;
    };
  }
  const program = ts.createProgram(config.fileNames, config.options, host);
  // Programs over the same parsed files, one checker each.
  const checkers = [program, ...Array.from({ length: checkerCount - 1 }, () => ts.createProgram(config.fileNames, config.options, host, program))].map(
    (p) => p.getTypeChecker() as CountingChecker,
  );
  let checker = checkers[0]!;
  const count = () => checkers.reduce((sum, c) => sum + c.getInstantiationCount(), 0);
  const typeCount = () => checkers.reduce((sum, c) => sum + c.getTypeCount(), 0);

  /** Entity numbers folded away, so Thing0Repository.get and Thing7Repository.get add up. */
  const fold = (text: string) => text.replace(/([Tt]hing)\d+/g, '$1N');
  const nameOf = (node: ts.Node): string => {
    const named = node as ts.Node & { name?: ts.Node };
    if (named.name && (ts.isIdentifier(named.name) || ts.isStringLiteral(named.name) || ts.isPrivateIdentifier(named.name))) return named.name.text;
    if (ts.isVariableStatement(node)) return node.declarationList.declarations.map((d) => d.name.getText()).join(', ');
    if (ts.isConstructorDeclaration(node)) return 'constructor';
    if (ts.isImportDeclaration(node)) return `import ${node.moduleSpecifier.getText()}`;
    return node.getText().slice(0, 40).replace(/\s+/g, ' ');
  };
  /** A node's kind by name (a variable statement's own: SyntaxKind's reverse map names it by the alias FirstStatement). */
  const kindOf = (node: ts.Node) => (ts.isVariableStatement(node) ? 'VariableStatement' : ts.SyntaxKind[node.kind]);
  const label = (file: ts.SourceFile, node: ts.Node, owner?: string) => `${path.basename(file.fileName)} ${kindOf(node)} ${owner ? `${owner}.` : ''}${nameOf(node)}`;

  interface Tally {
    instantiations: number;
    types: number;
    /** Checking time: noisy on a busy machine; compare shares, not absolute values. */
    ms: number;
    declarations: number;
  }
  const totals = new Map<string, Tally>();
  /** Runs `check` and adds what it cost (instantiations, types created) under `key`. */
  const measure = (key: string, check: () => void) => {
    const [instantiations, types, started] = [count(), typeCount(), performance.now()];
    check();
    const entry = totals.get(key) ?? { instantiations: 0, types: 0, ms: 0, declarations: 0 };
    entry.ms += performance.now() - started;
    entry.instantiations += count() - instantiations;
    entry.types += typeCount() - types;
    entry.declarations += 1;
    totals.set(key, entry);
  };

  const [start, startTypes] = [count(), typeCount()];
  // What tsc does before checking any file (global types, lib setup) happens on the first call.
  measure('(global setup)', () => checker.getGlobalDiagnostics());
  for (const [index, file] of program.getSourceFiles().entries()) {
    checker = checkers[index % checkerCount]!;
    if (file.isDeclarationFile && (config.options.skipLibCheck || config.options.skipDefaultLibCheck)) continue;
    if (program.isSourceFileDefaultLibrary(file) || program.isSourceFileFromExternalLibrary(file)) continue;
    const fileKey = (key: string) => (byFile ? fold(path.basename(file.fileName)) : fold(key));
    const checkNode = (node: ts.Node) => () => checker.getDiagnostics(file, undefined, [node]);
    for (const statement of file.statements) {
      if (ts.isClassDeclaration(statement)) {
        const owner = nameOf(statement);
        for (const member of statement.members) {
          // --deep: a method's (or function's) body statements first, each on its own; then the rest (its signature)
          const body = deep && (ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member)) ? (member.body?.statements ?? []) : [];
          for (const inner of body) measure(fileKey(`${label(file, member, owner)} › ${fold(inner.getText()).replace(/\s+/g, ' ').slice(0, 60)}`), checkNode(inner));
          measure(fileKey(label(file, member, owner)), checkNode(member));
        }
      }
      if (deep && ts.isFunctionDeclaration(statement)) {
        for (const inner of statement.body?.statements ?? []) measure(fileKey(`${label(file, statement)} › ${fold(inner.getText()).replace(/\s+/g, ' ').slice(0, 60)}`), checkNode(inner));
      }
      measure(fileKey(label(file, statement)), checkNode(statement));
    }
    // The rest of the file's check (deferred nodes, unused identifiers, export checks).
    measure(fileKey(`${path.basename(file.fileName)} (rest of file)`), () => checker.getDiagnostics(file, undefined));
  }

  const total = count() - start;
  const totalTypes = typeCount() - startTypes;
  const sortBy = args.includes('--by-types') ? 'types' : args.includes('--by-time') ? 'ms' : 'instantiations';
  const totalMs = [...totals.values()].reduce((sum, v) => sum + v.ms, 0);
  const rows = [...totals].filter(([, v]) => v[sortBy] > 0).sort((a, b) => b[1][sortBy] - a[1][sortBy]);
  lines.push(`${project}: ${total.toLocaleString('en-US')} instantiations and ${totalTypes.toLocaleString('en-US')} types attributed (tsc --extendedDiagnostics counts a whole check the same way)\n`);
  lines.push('| instantiations | share | types | share | check time | declarations | instantiations each | types each | declaration |\n|---|---|---|---|---|---|---|---|---|');
  const share = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
  for (const [key, v] of rows.slice(0, top)) {
    lines.push(
      `| ${v.instantiations.toLocaleString('en-US')} | ${share(v.instantiations, total)} | ${v.types.toLocaleString('en-US')} | ${share(v.types, totalTypes)} | ${share(v.ms, totalMs)} | ${v.declarations} | ${(v.instantiations / v.declarations).toFixed(1)} | ${(v.types / v.declarations).toFixed(1)} | ${key} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const USAGE = 'usage: tsx bench/instantiations.ts <tsconfig.json> [--top N] [--by-file] [--by-types | --by-time] [--deep] [--checkers N] [--bodies]';

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const args = process.argv.slice(2);
  if (!args.some((a) => !a.startsWith('--') && !/^\d+$/.test(a))) {
    console.error(USAGE);
    process.exit(2);
  }
  process.stdout.write(attribute(args));
}
