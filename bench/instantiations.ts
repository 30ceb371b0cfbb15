// Attributes the type checker's instantiations to declarations: `tsx bench/instantiations.ts
// <tsconfig.json> [--top N] [--by-file]`. Each top-level statement of each checked source file (and
// each member of a class, separately; with --deep, each statement of a method's body too) is checked on its own, in the order tsc checks them, and the
// instantiations it causes are counted; declarations that differ only by an entity number
// (Thing0…Thing99) are summed under one name, so a synthetic schema's per-entity cost reads off
// directly. `--checkers 4` counts as TypeScript 7 does by default: it has no JS API yet, and checks
// the program's files round-robin with 4 checkers that each resolve the types their files need, so
// a type every file uses is instantiated up to 4 times; this script does the same with 4 TypeScript 6
// checkers (compare its total with TypeScript 7's `tsc --extendedDiagnostics`).

import path from 'node:path';
import ts from 'typescript';

/** The checker's internals this script reads: the instantiation counter and per-node checking. */
interface CountingChecker extends ts.TypeChecker {
  getInstantiationCount(): number;
  getDiagnostics(file: ts.SourceFile, token: undefined, nodes?: readonly ts.Node[]): readonly ts.Diagnostic[];
}

const args = process.argv.slice(2);
const project = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
if (!project) {
  console.error('usage: tsx bench/instantiations.ts <tsconfig.json> [--top N] [--by-file] [--deep] [--checkers N]');
  process.exit(2);
}
const topArg = args.indexOf('--top');
const top = topArg === -1 ? 40 : Number(args[topArg + 1]);
const byFile = args.includes('--by-file');
const deep = args.includes('--deep');
const checkersArg = args.indexOf('--checkers');
const checkerCount = checkersArg === -1 ? 1 : Number(args[checkersArg + 1]);

const config = ts.getParsedCommandLineOfConfigFile(path.resolve(project), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => console.error(d.messageText) });
if (!config) process.exit(2);
const program = ts.createProgram(config.fileNames, config.options);
// Programs over the same parsed files, one checker each.
const checkers = [program, ...Array.from({ length: checkerCount - 1 }, () => ts.createProgram(config.fileNames, config.options, undefined, program))].map(
  (p) => p.getTypeChecker() as CountingChecker,
);
let checker = checkers[0]!;
const count = () => checkers.reduce((sum, c) => sum + c.getInstantiationCount(), 0);

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
const label = (file: ts.SourceFile, node: ts.Node, owner?: string) =>
  `${path.basename(file.fileName)} ${ts.SyntaxKind[node.kind]} ${owner ? `${owner}.` : ''}${nameOf(node)}`;

const totals = new Map<string, { instantiations: number; declarations: number }>();
const add = (key: string, n: number) => {
  const entry = totals.get(key) ?? { instantiations: 0, declarations: 0 };
  entry.instantiations += n;
  entry.declarations += 1;
  totals.set(key, entry);
};

const start = count();
// What tsc does before checking any file (global types, lib setup) happens on the first call.
checker.getGlobalDiagnostics?.();
add('(global setup)', count() - start);
for (const [index, file] of program.getSourceFiles().entries()) {
  checker = checkers[index % checkerCount]!;
  if (file.isDeclarationFile && (config.options.skipLibCheck || config.options.skipDefaultLibCheck)) continue;
  if (program.isSourceFileDefaultLibrary(file) || program.isSourceFileFromExternalLibrary(file)) continue;
  const fileKey = (key: string) => (byFile ? fold(path.basename(file.fileName)) : fold(key));
  for (const statement of file.statements) {
    if (ts.isClassDeclaration(statement)) {
      const owner = nameOf(statement);
      for (const member of statement.members) {
        // --deep: a method's body statements first, each on its own; then the rest (its signature)
        const body = deep && (ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member)) ? (member.body?.statements ?? []) : [];
        for (const [i, inner] of body.entries()) {
          const before = count();
          checker.getDiagnostics(file, undefined, [inner]);
          add(fileKey(`${label(file, member, owner)} › statement ${i + 1}: ${inner.getText().slice(0, 60).replace(/\s+/g, ' ')}`), count() - before);
        }
        const before = count();
        checker.getDiagnostics(file, undefined, [member]);
        add(fileKey(label(file, member, owner)), count() - before);
      }
    }
    const before = count();
    checker.getDiagnostics(file, undefined, [statement]);
    add(fileKey(label(file, statement)), count() - before);
  }
  // The rest of the file's check (deferred nodes, unused identifiers, export checks).
  const before = count();
  checker.getDiagnostics(file, undefined);
  add(fileKey(`${path.basename(file.fileName)} (rest of file)`), count() - before);
}

const total = count() - start;
const rows = [...totals].filter(([, v]) => v.instantiations > 0).sort((a, b) => b[1].instantiations - a[1].instantiations);
console.log(`${project}: ${total.toLocaleString('en-US')} instantiations attributed (tsc --extendedDiagnostics counts a whole check the same way)\n`);
console.log('| instantiations | share | declarations | each | declaration |\n|---|---|---|---|---|');
for (const [key, v] of rows.slice(0, top)) {
  console.log(`| ${v.instantiations.toLocaleString('en-US')} | ${((100 * v.instantiations) / total).toFixed(1)}% | ${v.declarations} | ${(v.instantiations / v.declarations).toFixed(1)} | ${key} |`);
}
