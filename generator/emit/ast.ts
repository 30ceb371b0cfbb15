// Small builders for the TypeScript the emitters print: types (object types, unions, references,
// literals), expressions (literals, property access, calls, object literals) and doc comments, as
// `ts.factory` nodes printed by the compiler's printer. Emitters pass names (identifiers) and data;
// quoting, escaping and layout happen here and in format.ts, never in an emitter.

import { StructureKind, ts } from '../ts-morph.js';
import type { ts as TS, ImportDeclarationStructure, JSDocStructure, JSDocTagStructure, OptionalKind } from 'ts-morph';
import { commentText, quote } from './context.js';

const f = ts.factory;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export type TypeNode = TS.TypeNode;
export type Expression = TS.Expression;

const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed, removeComments: false });
const scratch = ts.createSourceFile('print.ts', '', ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);

/** One node as source text (single quotes; layout is left to the formatter). */
export function print(node: TS.Node): string {
  return printer.printNode(ts.EmitHint.Unspecified, node, scratch);
}

/** A property name: bare when it is an identifier, a string literal otherwise. */
function propertyName(name: string): TS.PropertyName {
  return IDENTIFIER.test(name) ? f.createIdentifier(name) : str(name);
}

// ---- types

/** `Name` or `Name<A, B>`. */
export function typeRef(name: string, ...args: TypeNode[]): TypeNode {
  return f.createTypeReferenceNode(name, args.length ? args : undefined);
}

export const keyword = {
  string: () => f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
  number: () => f.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword),
  boolean: () => f.createKeywordTypeNode(ts.SyntaxKind.BooleanKeyword),
  never: () => f.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword),
  undefined: () => f.createKeywordTypeNode(ts.SyntaxKind.UndefinedKeyword),
  void: () => f.createKeywordTypeNode(ts.SyntaxKind.VoidKeyword),
  unknown: () => f.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword),
};

export interface Member {
  readonly name: string;
  readonly type: TypeNode;
  readonly optional?: boolean;
  readonly readonly?: boolean;
}

/** `{ a: A; b?: B }`; with no members, `Record<string, never>` (an object that takes nothing). */
export function objectType(members: readonly Member[]): TypeNode {
  if (!members.length) return typeRef('Record', keyword.string(), keyword.never());
  return singleLine(f.createTypeLiteralNode(
    members.map((m) =>
      f.createPropertySignature(
        m.readonly ? [f.createModifier(ts.SyntaxKind.ReadonlyKeyword)] : undefined,
        propertyName(m.name),
        m.optional ? f.createToken(ts.SyntaxKind.QuestionToken) : undefined,
        m.type,
      ),
    ),
  ));
}

/** Printed on one line; format.ts breaks it where it is too long. */
function singleLine<T extends TS.Node>(node: T): T {
  return ts.setEmitFlags(node, ts.EmitFlags.SingleLine);
}

/** `A | B`; one member stands alone, none is `never`. */
export function union(types: readonly TypeNode[]): TypeNode {
  if (types.length === 0) return keyword.never();
  return types.length === 1 ? types[0]! : f.createUnionTypeNode(types);
}

/**
 * A union as the text of a type alias: on one line when it is short, otherwise one member per line
 * after a leading `|` (as a formatter lays out a union that does not fit).
 */
export function unionText(types: readonly TypeNode[]): string {
  const flat = print(union(types));
  return flat.length <= BREAK_AT ? flat : types.map((type) => `\n  | ${print(type)}`).join('');
}

/** `A & B`. */
export function intersection(types: readonly TypeNode[]): TypeNode {
  return types.length === 1 ? types[0]! : f.createIntersectionTypeNode(types);
}

/** The type of one literal value: `'A'`, `3`, `true`. */
export function literalType(value: string | number | boolean): TypeNode {
  if (typeof value === 'boolean') return f.createLiteralTypeNode(value ? f.createTrue() : f.createFalse());
  return f.createLiteralTypeNode(typeof value === 'string' ? str(value) : (num(value) as TS.LiteralExpression));
}

/** `T[]`. */
export function arrayOf(type: TypeNode): TypeNode {
  return f.createArrayTypeNode(type);
}

/** `T[K]`. */
export function indexedAccess(object: TypeNode, index: TypeNode): TypeNode {
  return f.createIndexedAccessTypeNode(object, index);
}

/** `readonly T[]`. */
export function readonlyArray(type: TypeNode): TypeNode {
  return f.createTypeOperatorNode(ts.SyntaxKind.ReadonlyKeyword, f.createArrayTypeNode(type));
}

/** `readonly [A, B]`. */
export function readonlyTuple(types: readonly TypeNode[]): TypeNode {
  return f.createTypeOperatorNode(ts.SyntaxKind.ReadonlyKeyword, singleLine(f.createTupleTypeNode(types)));
}

// ---- expressions

export function id(name: string): TS.Identifier {
  if (!IDENTIFIER.test(name)) throw new Error(`internal: ${JSON.stringify(name)} is not an identifier`);
  return f.createIdentifier(name);
}

/**
 * A single-quoted string literal spelled as `quote` spells it (printable text as it is, the rest
 * escaped); the printer writes the node's text verbatim.
 */
export function str(text: string): TS.StringLiteral {
  return f.createIdentifier(quote(text)) as unknown as TS.StringLiteral;
}

export function num(value: number): Expression {
  if (!Number.isFinite(value)) throw new Error(`cannot print ${value}`);
  const literal = f.createNumericLiteral(Math.abs(value));
  return value < 0 ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, literal) : literal;
}

/** `object.name`, or `object['odd-name']` when the name is not an identifier. */
export function prop(object: Expression | string, name: string): Expression {
  const target = typeof object === 'string' ? path(object) : object;
  return IDENTIFIER.test(name) ? f.createPropertyAccessExpression(target, name) : f.createElementAccessExpression(target, str(name));
}

/** `object['name']`: a member of a record with an index signature (read as such under noPropertyAccessFromIndexSignature). */
export function element(object: Expression | string, name: string): Expression {
  return f.createElementAccessExpression(typeof object === 'string' ? path(object) : object, str(name));
}

/** `a.b.c` from a dotted path of identifiers (`this` included). */
export function path(dotted: string): Expression {
  const [first, ...rest] = dotted.split('.');
  const head: Expression = first === 'this' ? f.createThis() : id(first!);
  return rest.reduce<Expression>((object, name) => prop(object, name), head);
}

/** `callee<T>(args)`. */
export function call(callee: Expression | string, args: readonly Expression[], typeArgs?: readonly TypeNode[]): Expression {
  return f.createCallExpression(typeof callee === 'string' ? path(callee) : callee, typeArgs?.length ? typeArgs : undefined, args);
}

/**
 * `/* @__PURE__ *\/ call(…)`: a call without side effects, which a bundler drops when its result is
 * unused.
 */
export function pure(expression: Expression): Expression {
  return ts.addSyntheticLeadingComment(expression, ts.SyntaxKind.MultiLineCommentTrivia, ' @__PURE__ ', false);
}

/** `new Name<T>(args)`. */
export function construct(name: string, args: readonly Expression[], typeArgs?: readonly TypeNode[]): Expression {
  return f.createNewExpression(id(name), typeArgs?.length ? typeArgs : undefined, args);
}

/** `...expr`, a member of an object literal (`obj`). */
export function spread(expression: Expression): TS.SpreadAssignment {
  return f.createSpreadAssignment(expression);
}

export type ObjectEntry = readonly [string, Expression | undefined] | TS.ObjectLiteralElementLike;

/**
 * An object literal from entries in order: `[name, value]` (left out when the value is undefined;
 * `name: name` prints as shorthand) or a member built here (`objectMethod`).
 */
export function obj(entries: readonly ObjectEntry[]): Expression {
  const props = entries.flatMap((entry): TS.ObjectLiteralElementLike[] => {
    if (!Array.isArray(entry)) return [entry as TS.ObjectLiteralElementLike];
    const [name, value] = entry as readonly [string, Expression | undefined];
    if (value === undefined) return [];
    if (ts.isIdentifier(value) && value.text === name) return [f.createShorthandPropertyAssignment(name)];
    return [f.createPropertyAssignment(propertyName(name), value)];
  });
  const flat = f.createObjectLiteralExpression(props, false);
  return props.some((p) => ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p)) || tooLong(flat) ? f.createObjectLiteralExpression(props, true) : flat;
}

/** `get name() { return value; }`, a member of an object literal (`obj`): read when asked for, not when the object is made. */
export function getter(name: string, value: Expression): TS.GetAccessorDeclaration {
  return f.createGetAccessorDeclaration(undefined, propertyName(name), [], undefined, f.createBlock([f.createReturnStatement(value)], false));
}

/** Flat text this long reads better one member per line (as a formatter would break it). */
export const BREAK_AT = 72;
const tooLong = (node: TS.Node) => print(node).length > BREAK_AT;

export interface Parameter {
  readonly name: string;
  readonly type: TypeNode;
}

/** A method of an object literal, with a doc comment. */
export function objectMethod(name: string, parameters: readonly Parameter[], returnType: TypeNode, body: readonly TS.Statement[], doc: string): TS.MethodDeclaration {
  const method = f.createMethodDeclaration(
    undefined,
    undefined,
    name,
    undefined,
    undefined,
    parameters.map((p) => f.createParameterDeclaration(undefined, undefined, p.name, undefined, p.type)),
    returnType,
    f.createBlock([...body], true),
  );
  const lines = wrapText(commentText(doc)).split('\n');
  const text = lines.length === 1 ? `* ${lines[0]} ` : `*\n${lines.map((line) => ` * ${line}`).join('\n')}\n `;
  return ts.addSyntheticLeadingComment(method, ts.SyntaxKind.MultiLineCommentTrivia, text, true);
}

/** `return expr;` as a statement node. */
export function ret(expression: Expression): TS.Statement {
  return f.createReturnStatement(expression);
}

/** `{ ...expr }` members and plain ones mixed: a spread is given as `['...', expr]`. */
export function objWithSpreads(entries: ReadonlyArray<readonly [string, Expression]>): Expression {
  return f.createObjectLiteralExpression(
    entries.map(([name, value]) => (name === '...' ? f.createSpreadAssignment(value) : f.createPropertyAssignment(propertyName(name), value))),
    false,
  );
}

export function arr(items: readonly Expression[]): Expression {
  const flat = f.createArrayLiteralExpression(items, false);
  return tooLong(flat) ? f.createArrayLiteralExpression(items, true) : flat;
}

/** Plain data (strings, numbers, booleans, arrays, objects; `undefined` members left out) as a literal; a ts node stays as it is. */
export function literal(value: unknown): Expression {
  if (value !== null && typeof value === 'object' && 'kind' in value && typeof (value as TS.Node).kind === 'number' && 'flags' in value) return value as Expression;
  if (typeof value === 'string') return str(value);
  if (typeof value === 'number') return num(Object.is(value, -0) ? 0 : value);
  if (typeof value === 'boolean') return value ? f.createTrue() : f.createFalse();
  if (value === undefined) return id('undefined');
  if (Array.isArray(value)) return arr(value.map(literal));
  if (value !== null && typeof value === 'object') {
    return obj(Object.entries(value).map(([k, v]) => [k, v === undefined ? undefined : literal(v)] as const));
  }
  throw new Error(`cannot print ${String(value)}`);
}

/** A regular expression literal: `/^a\.b$/` (its source as RegExp escapes it). */
export function regex(pattern: RegExp): Expression {
  return f.createRegularExpressionLiteral(pattern.toString());
}

/** `(a, b) => body`. */
export function arrow(params: readonly string[], body: Expression): Expression {
  return f.createArrowFunction(undefined, undefined, params.map((p) => f.createParameterDeclaration(undefined, undefined, p)), undefined, f.createToken(ts.SyntaxKind.EqualsGreaterThanToken), body);
}

/** `left === right` and friends. */
export function binary(left: Expression, operator: '===' | '!==' | '??' | '&&' | '||' | '+' | '>', right: Expression): Expression {
  const kinds = {
    '+': ts.SyntaxKind.PlusToken,
    '>': ts.SyntaxKind.GreaterThanToken,
    '===': ts.SyntaxKind.EqualsEqualsEqualsToken,
    '!==': ts.SyntaxKind.ExclamationEqualsEqualsToken,
    '??': ts.SyntaxKind.QuestionQuestionToken,
    '&&': ts.SyntaxKind.AmpersandAmpersandToken,
    '||': ts.SyntaxKind.BarBarToken,
  } as const;
  return f.createBinaryExpression(left, kinds[operator], right);
}

/** `(expr)`. */
export function parenthesized(expression: Expression): Expression {
  return f.createParenthesizedExpression(expression);
}

/** `expr!`. */
export function nonNull(expression: Expression): Expression {
  return f.createNonNullExpression(expression);
}

/** `cond ? a : b`. */
export function conditional(condition: Expression, whenTrue: Expression, whenFalse: Expression): Expression {
  return f.createConditionalExpression(condition, f.createToken(ts.SyntaxKind.QuestionToken), whenTrue, f.createToken(ts.SyntaxKind.ColonToken), whenFalse);
}

/** `expr as Type`. */
export function as(expression: Expression, type: TypeNode): Expression {
  return f.createAsExpression(expression, type);
}

/** `await expr`. */
export function awaitExpr(expression: Expression): Expression {
  return f.createAwaitExpression(expression);
}

// ---- statements (as text for ts-morph structures)

/** `return expr;` */
export function returns(expression: Expression): string {
  return print(f.createReturnStatement(expression));
}

/** `const name = expr;` */
export function constant(name: string, expression: Expression, type?: TypeNode): string {
  return print(f.createVariableStatement(undefined, f.createVariableDeclarationList([f.createVariableDeclaration(name, undefined, type, expression)], ts.NodeFlags.Const)));
}

/** `if (condition) throw error;` */
export function throwsIf(condition: Expression, error: Expression): string {
  return print(f.createIfStatement(condition, f.createThrowStatement(error)));
}

/** `for await (const name of iterable) body;` */
export function forAwait(name: string, iterable: Expression, body: Expression): string {
  const binding = f.createVariableDeclarationList([f.createVariableDeclaration(name)], ts.NodeFlags.Const);
  return print(f.createForOfStatement(f.createToken(ts.SyntaxKind.AwaitKeyword), binding, iterable, f.createExpressionStatement(body)));
}

/** `expr;` */
export function statement(expression: Expression): string {
  return print(f.createExpressionStatement(expression));
}

const assignment = (target: Expression, value: Expression) => f.createExpressionStatement(f.createBinaryExpression(target, ts.SyntaxKind.EqualsToken, value));

/** `target = value;` */
export function assigns(target: Expression, value: Expression): string {
  return print(assignment(target, value));
}

/** `if (condition) target = value;`, or a block of such assignments. */
export function assignsIf(condition: Expression, assignments: ReadonlyArray<readonly [Expression, Expression]>): string {
  const body = assignments.map(([target, value]) => assignment(target, value));
  return print(f.createIfStatement(condition, body.length === 1 ? body[0]! : f.createBlock(body, true)));
}

// ---- doc comments

/** Doc text width: a member's comment (indent, ` * `) then stays within the output's 100 columns. */
const DOC_WIDTH = 92;

/** Words of `text` in lines of at most `width` characters (a longer word stands alone); blank lines and code lines are kept. */
export function wrapText(text: string, width = DOC_WIDTH): string {
  let fenced = false;
  let example = false;
  return text
    .split('\n')
    .flatMap((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      if (line.startsWith('@example')) example = true;
      if (fenced || example || line.startsWith('```') || line.length <= width) return [line];
      const lines: string[] = [];
      let current = '';
      for (const word of line.split(' ')) {
        if (current && current.length + 1 + word.length > width) {
          lines.push(current);
          current = word;
        } else current = current ? `${current} ${word}` : word;
      }
      return [...lines, current];
    })
    .join('\n');
}

export interface DocTag {
  readonly name: 'example' | 'throws' | 'param' | 'returns' | 'see';
  readonly text: string;
}

/** A doc comment: its description wrapped to the output's width, then its tags. */
export function jsDoc(description: string, tags: readonly DocTag[] = []): OptionalKind<JSDocStructure>[] {
  return [{ kind: StructureKind.JSDoc, description: wrapText(description), ...(tags.length ? { tags: tags.map(docTagStructure) } : {}) }];
}

/** A tag as ts-morph prints it; an example's text is read when printed, not before (see doc-examples.ts's exampleTag). */
export function docTagStructure(tag: DocTag): OptionalKind<JSDocTagStructure> {
  if (tag.name !== 'example') return { tagName: tag.name, text: wrapText(tag.text, DOC_WIDTH - tag.name.length - 2) };
  return {
    tagName: tag.name,
    get text() {
      return tag.text;
    },
  };
}

// ---- imports

/**
 * The names a module imports, collected as the emitters use them: `use` returns the name, so a
 * module imports exactly what its code mentions, values and types apart.
 */
export class Imports {
  private readonly modules = new Map<string, Map<string, boolean>>();

  /** Uses a value export of `module` (and its type); returns the name to print. */
  value(module: string, name: string): string {
    this.entry(module).set(name, false);
    return name;
  }

  /** Uses a type export of `module`; returns the name to print. */
  type(module: string, name: string): string {
    const names = this.entry(module);
    if (!names.has(name)) names.set(name, true);
    return name;
  }

  private entry(module: string): Map<string, boolean> {
    let names = this.modules.get(module);
    if (!names) this.modules.set(module, (names = new Map()));
    return names;
  }

  /** Import declarations in a stable order: external packages, then relative modules, names sorted. */
  declarations(): OptionalKind<ImportDeclarationStructure>[] {
    const order = (m: string) => (m.startsWith('.') ? `1${m}` : `0${m}`);
    return [...this.modules]
      .sort(([a], [b]) => (order(a) < order(b) ? -1 : 1))
      .map(([moduleSpecifier, names]) => {
        const sorted = [...names].sort(([a], [b]) => a.localeCompare(b, 'en'));
        const typeOnly = sorted.every(([, isType]) => isType);
        return {
          moduleSpecifier,
          ...(typeOnly ? { isTypeOnly: true } : {}),
          namedImports: sorted.map(([name, isType]) => (isType && !typeOnly ? { name, isTypeOnly: true } : name)),
        };
      });
  }
}
