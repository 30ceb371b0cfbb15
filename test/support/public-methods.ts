// The public methods of a generated class, read from its declaration (an entity's repository: its interface): the generated module
// (`out/<table>/*.ts`) or a runtime module's declarations (`out/<table>/runtime/*.d.ts`), with the
// methods it inherits. Read syntactically (no type checker): `private`, `protected` and `static`
// members (a class's static helpers are not methods of its objects) and `#names` are left out,
// overloads count once.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';

export interface ClassMethods {
  /** The file that declares the class (its doc examples are there). */
  readonly file: string;
  readonly methods: readonly string[];
}

const parsed = new Map<string, ts.SourceFile>();

function sources(folder: string): ts.SourceFile[] {
  const files = [
    ...readdirSync(folder).filter((f) => f.endsWith('.ts')).map((f) => path.join(folder, f)),
    ...readdirSync(path.join(folder, 'runtime'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts')).map((f) => path.join(folder, 'runtime', f)),
  ];
  return files.map((file) => {
    let source = parsed.get(file);
    if (!source) parsed.set(file, (source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true)));
    return source;
  });
}

const HIDDEN = [ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword, ts.SyntaxKind.StaticKeyword];
const hidden = (member: ts.ClassElement) =>
  (ts.canHaveModifiers(member) && ts.getModifiers(member)?.some((m) => HIDDEN.includes(m.kind))) || (member.name !== undefined && ts.isPrivateIdentifier(member.name));

/** The public instance methods of class `name` declared in the table folder `folder`, inherited ones included. */
export function publicMethods(folder: string, name: string): ClassMethods {
  for (const source of sources(folder)) {
    // an entity's repository: an interface of its members (methods, or properties typed by the runtime's shapes), its class made by the runtime
    const members = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
    if (members) return { file: source.fileName, methods: [...new Set(members.members.filter((m) => ts.isMethodSignature(m) || ts.isPropertySignature(m)).map((m) => m.name!.getText(source)))] };
    const declaration = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === name);
    if (!declaration) continue;
    const own = declaration.members.filter((m) => ts.isMethodDeclaration(m) && !hidden(m)).map((m) => m.name!.getText(source));
    const base = declaration.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression.getText(source);
    const inherited = base === undefined ? [] : publicMethods(folder, base).methods;
    return { file: source.fileName, methods: [...new Set([...own, ...inherited])] };
  }
  throw new Error(`no class ${name} in ${folder}`);
}
