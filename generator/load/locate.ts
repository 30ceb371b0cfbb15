// Maps schema paths (`entities.Article.key.sk`) back to file:line:column by walking the schema
// module's syntax tree with ts-morph: from the default export through object literals, factory
// calls (entity({…}), gsi({…})) and same-file constants.

import { Node, Project, type SourceFile } from 'ts-morph';

export interface SourceLocation {
  readonly line: number;
  readonly column: number;
}

/** The expression a node stands for: through parentheses, `as`, `satisfies`, factory calls (their first argument), same-file constants and property assignments. */
export function unwrap(node: Node | undefined): Node | undefined {
  let current = node;
  for (let i = 0; current && i < 20; i++) {
    if (Node.isParenthesizedExpression(current) || Node.isAsExpression(current) || Node.isSatisfiesExpression(current)) current = current.getExpression();
    else if (Node.isCallExpression(current)) current = current.getArguments()[0];
    else if (Node.isIdentifier(current)) {
      const declaration = current.getSymbol()?.getDeclarations()[0];
      current = declaration && Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
    } else if (Node.isExportAssignment(current)) current = current.getExpression();
    else if (Node.isPropertyAssignment(current)) current = current.getInitializer();
    else if (Node.isShorthandPropertyAssignment(current)) current = current.getNameNode();
    else return current;
  }
  return current;
}

function propertyName(node: Node): string | undefined {
  if (Node.isPropertyAssignment(node) || Node.isShorthandPropertyAssignment(node) || Node.isMethodDeclaration(node)) {
    const nameNode = node.getNameNode();
    if (Node.isStringLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode)) return nameNode.getLiteralValue();
    return nameNode.getText();
  }
  return undefined;
}

/** Whether a declaration written as this expression certainly has no key entity() takes: an object literal without `key`, or whose `key` is no object with `pk`, and no spread. */
function lacksKey(declaration: Node | undefined): boolean {
  const hasSpread = (object: Node) => Node.isObjectLiteralExpression(object) && object.getProperties().some((p) => Node.isSpreadAssignment(p));
  const object = declaration && unwrapLiteral(declaration);
  if (!object || !Node.isObjectLiteralExpression(object) || hasSpread(object)) return false;
  const key = object.getProperties().find((p) => propertyName(p) === 'key');
  if (!key) return true;
  if (!Node.isPropertyAssignment(key)) return false;
  const value = unwrapLiteral(key.getInitializer()!);
  if (Node.isLiteralExpression(value) || Node.isNullLiteral(value) || Node.isTrueLiteral(value) || Node.isFalseLiteral(value)) return true;
  if (!Node.isObjectLiteralExpression(value) || hasSpread(value)) return false;
  return !value.getProperties().some((p) => propertyName(p) === 'pk');
}

/** The expression through parentheses, `as` and `satisfies` (not through names or calls, which unwrap follows). */
function unwrapLiteral(node: Node): Node {
  let current = node;
  while (Node.isParenthesizedExpression(current) || Node.isAsExpression(current) || Node.isSatisfiesExpression(current)) current = current.getExpression();
  return current;
}

/** Locates paths inside one schema file. Parsing happens once per file. */
export class SchemaLocator {
  private readonly source: SourceFile;

  /** `text`, when given, is the module's unsaved text (an editor's), parsed instead of the file on disk. */
  constructor(file: string, project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: true } }), text?: string) {
    this.source = text === undefined ? project.addSourceFileAtPath(file) : project.createSourceFile(file, text, { overwrite: true });
  }

  /** The declaration of the table at `tableIndex` of the default export (-1: the export is one table). */
  private tableNode(tableIndex: number): Node | undefined {
    if (!this.tables.has(tableIndex)) this.tables.set(tableIndex, this.findTableNode(tableIndex));
    return this.tables.get(tableIndex);
  }

  private readonly tables = new Map<number, Node | undefined>();

  private findTableNode(tableIndex: number): Node | undefined {
    const exported = this.source.getExportAssignment((e) => !e.isExportEquals());
    let node = unwrap(exported);
    if (node && Node.isArrayLiteralExpression(node)) node = unwrap(node.getElements()[Math.max(tableIndex, 0)]);
    return node;
  }

  /** Each object literal's properties by name (the last one wins, as in JavaScript), built once. */
  private readonly properties = new Map<Node, Map<string, Node>>();

  private property(objectNode: Node | undefined, name: string): Node | undefined {
    const object = unwrap(objectNode);
    if (!object || !Node.isObjectLiteralExpression(object)) return undefined;
    let byName = this.properties.get(object);
    if (!byName) {
      byName = new Map();
      for (const p of object.getProperties()) {
        const key = propertyName(p);
        if (key !== undefined) byName.set(key, p);
      }
      this.properties.set(object, byName);
    }
    return byName.get(name);
  }

  /** Location of the deepest node found along `path`; `offset` moves into a string literal. */
  locate(tableIndex: number, path: readonly string[], offset?: number): SourceLocation {
    let node = this.tableNode(tableIndex) ?? this.source.getExportAssignment(() => true) ?? this.source;
    let complete = true;
    for (const name of path) {
      const next = this.property(node, name);
      if (!next) {
        complete = false;
        break;
      }
      node = next;
    }
    let position = node.getStart();
    if (complete && Node.isPropertyAssignment(node)) {
      const value = node.getInitializer();
      if (value && (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)) && offset !== undefined) {
        position = value.getStart() + 1 + offset;
      } else if (value && (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value))) position = value.getStart();
    }
    return this.source.getLineAndColumnAtPos(position);
  }

  /** The node at `path` from the table's declaration (a property assignment; the declaration itself for []), when every step is in the source. */
  nodeAt(tableIndex: number, path: readonly string[]): Node | undefined {
    let node: Node | undefined = this.tableNode(tableIndex);
    for (const name of path) {
      node = this.property(node, name);
      if (!node) return undefined;
    }
    return node;
  }

  /** Names declared more than once in the object literal at `path` (`{ User: …, User: … }`). */
  duplicateKeys(tableIndex: number, path: readonly string[]): Array<{ name: string; location: SourceLocation }> {
    let node: Node | undefined = this.tableNode(tableIndex);
    for (const name of path) node = this.property(node, name);
    const object = node && Node.isPropertyAssignment(node) ? unwrap(node.getInitializer()) : unwrap(node);
    if (!object || !Node.isObjectLiteralExpression(object)) return [];
    const seen = new Set<string>();
    const duplicates: Array<{ name: string; location: SourceLocation }> = [];
    for (const property of object.getProperties()) {
      const name = propertyName(property);
      if (name === undefined) continue;
      if (seen.has(name)) duplicates.push({ name, location: this.source.getLineAndColumnAtPos(property.getStart()) });
      seen.add(name);
    }
    return duplicates;
  }

  /**
   * Where entity() refuses a declaration for want of a key (DDB103): the first `entity({…})` call
   * whose object certainly has none (no `key`, or a `key` that is no object with a `pk`, and no
   * spread that could bring one), the one on `line` (a stack frame's) if several are in doubt. A
   * stack frame alone is not enough: its column is the transpiled code's, and a transpiler need not
   * keep lines (the editor's does not).
   */
  entityWithoutKey(line?: number): SourceLocation | undefined {
    const calls = this.source.getDescendants().filter((node) => {
      if (!Node.isCallExpression(node)) return false;
      const callee = node.getExpression();
      const named = Node.isIdentifier(callee) ? callee.getText() : Node.isPropertyAccessExpression(callee) ? callee.getName() : undefined;
      return named === 'entity' && lacksKey(node.getArguments()[0]);
    });
    const at = calls.map((call) => this.source.getLineAndColumnAtPos(call.getStart()));
    return at.find((location) => location.line === line) ?? at[0];
  }

  /** Location of the default export, for problems with the module as a whole. */
  exportLocation(): SourceLocation {
    const exported = this.source.getExportAssignment(() => true);
    return this.source.getLineAndColumnAtPos(exported ? exported.getStart() : 0);
  }
}

