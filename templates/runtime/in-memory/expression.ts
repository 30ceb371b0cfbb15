// DynamoDB's expression language for the in-memory table (table.ts): parsing (key
// conditions, condition and filter expressions, update expressions, projections) and evaluation
// against an item, with DynamoDB's semantics and messages: comparisons of different types are
// false (`<>` true), a missing attribute fails every test but `<>` and attribute_not_exists,
// functions and operators refuse operands of the wrong type, update operands are read from the item
// as it was, `ADD` and `DELETE` work on numbers and sets, overlapping paths are refused.

import {
  addDecimal,
  compareScalars,
  copyMap,
  copyValue,
  equalValues,
  formatDecimal,
  givenText,
  negateDecimal,
  parseDecimal,
  sortedSet,
  typeOf,
  validation,
  type AttributeMap,
  type AttributeValue,
  type ValueType,
} from './value.js';

export type ExpressionKind = 'KeyConditionExpression' | 'ConditionExpression' | 'FilterExpression' | 'UpdateExpression' | 'ProjectionExpression';

/** A document path: names and list indexes. Names are aliases (`#n0`) or plain until resolved. */
export type PathPart = string | number;
export interface Path {
  readonly kind: 'path';
  readonly parts: readonly PathPart[];
}
export type Operand =
  | Path
  | { readonly kind: 'value'; readonly alias: string }
  | { readonly kind: 'size'; readonly path: Operand }
  | { readonly kind: 'if_not_exists'; readonly path: Path; readonly fallback: Operand }
  | { readonly kind: 'list_append'; readonly first: Operand; readonly second: Operand }
  | { readonly kind: 'arithmetic'; readonly op: '+' | '-'; readonly left: Operand; readonly right: Operand };
export type Comparator = '=' | '<>' | '<' | '<=' | '>' | '>=';
export type Condition =
  | { readonly kind: 'and' | 'or'; readonly left: Condition; readonly right: Condition }
  | { readonly kind: 'not'; readonly inner: Condition }
  | { readonly kind: 'compare'; readonly op: Comparator; readonly left: Operand; readonly right: Operand }
  | { readonly kind: 'between'; readonly operand: Operand; readonly low: Operand; readonly high: Operand }
  | { readonly kind: 'in'; readonly operand: Operand; readonly list: readonly Operand[] }
  | { readonly kind: 'function'; readonly name: 'attribute_exists' | 'attribute_not_exists' | 'attribute_type' | 'begins_with' | 'contains'; readonly args: readonly Operand[] };
export interface UpdateAction {
  readonly clause: 'SET' | 'REMOVE' | 'ADD' | 'DELETE';
  readonly path: Path;
  readonly value?: Operand;
}

/** The aliases a request defines, and which of them its expressions used. */
export class Aliases {
  readonly names: Readonly<Record<string, string>>;
  readonly values: Readonly<Record<string, AttributeValue>>;
  readonly usedNames = new Set<string>();
  readonly usedValues = new Set<string>();
  constructor(names: Readonly<Record<string, string>> | undefined, values: Readonly<Record<string, AttributeValue>> | undefined) {
    this.names = names ?? {};
    this.values = values ?? {};
  }

  /** Throws DynamoDB's error for an alias defined but not used by any expression of the request. */
  checkAllUsed(): void {
    const unusedValues = Object.keys(this.values).filter((alias) => !this.usedValues.has(alias));
    if (unusedValues.length) throw validation(`Value provided in ExpressionAttributeValues unused in expressions: keys: {${unusedValues.join(', ')}}`);
    const unusedNames = Object.keys(this.names).filter((alias) => !this.usedNames.has(alias));
    if (unusedNames.length) throw validation(`Value provided in ExpressionAttributeNames unused in expressions: keys: {${unusedNames.join(', ')}}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Tokens and parsing.

interface Token {
  readonly type: 'name' | 'alias' | 'value' | 'number' | 'op' | 'end' | 'bad';
  readonly text: string;
  readonly at: number;
}

const TOKEN = /\s*(?:(#[A-Za-z0-9_]+)|(:[A-Za-z0-9_]+)|([A-Za-z_][A-Za-z0-9_]*)|(\d+)|(<>|<=|>=|[=<>(),.[\]+-]))/y;

function tokenize(text: string, kind: ExpressionKind): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (!m) {
      // a character no token starts with is a token of its own, as DynamoDB's lexer reads it
      const start = at + (text.slice(at).length - text.slice(at).trimStart().length);
      tokens.push({ type: 'bad', text: text[start]!, at: start });
      at = start + 1;
      continue;
    }
    const start = m.index + m[0].length - (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').length;
    if (m[1] !== undefined) tokens.push({ type: 'alias', text: m[1], at: start });
    else if (m[2] !== undefined) tokens.push({ type: 'value', text: m[2], at: start });
    else if (m[3] !== undefined) tokens.push({ type: 'name', text: m[3], at: start });
    else if (m[4] !== undefined) tokens.push({ type: 'number', text: m[4], at: start });
    else tokens.push({ type: 'op', text: m[5]!, at: start });
    at = TOKEN.lastIndex;
  }
  tokens.push({ type: 'end', text: '<EOF>', at: text.length });
  const bad = tokens.find((t) => t.type === 'bad');
  if (bad) throw syntaxError(text, kind, tokens, bad);
  return tokens;
}

/** DynamoDB's syntax error: the token, and the text from the token before it to the one after it. */
function syntaxError(text: string, kind: ExpressionKind, tokens: readonly Token[], token: Token): Error {
  const at = tokens.indexOf(token);
  const before = tokens[Math.max(0, at - 1)]!;
  const after = tokens[Math.min(tokens.length - 1, at + 1)]!;
  const near = text.slice(before.at, after.type === 'end' ? text.length : after.at + after.text.length).trim();
  return validation(`Invalid ${kind}: Syntax error; token: "${token.text}", near: "${near}"`);
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'BETWEEN', 'IN']);
const CONDITION_FUNCTIONS = new Set(['attribute_exists', 'attribute_not_exists', 'attribute_type', 'begins_with', 'contains', 'size']);
const UPDATE_FUNCTIONS = new Set(['if_not_exists', 'list_append']);

class Parser {
  private i = 0;
  private readonly tokens: Token[];
  private readonly text: string;
  private readonly kind: ExpressionKind;
  constructor(text: string, kind: ExpressionKind) {
    this.text = text;
    this.kind = kind;
    this.tokens = tokenize(text, kind);
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)]!;
  }
  private next(): Token {
    return this.tokens[this.i++] ?? this.tokens[this.tokens.length - 1]!;
  }
  private isKeyword(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === 'name' && t.text.toUpperCase() === word;
  }
  private isOp(op: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === 'op' && t.text === op;
  }
  syntaxError(token: Token = this.peek()): Error {
    return syntaxError(this.text, this.kind, this.tokens, token);
  }
  private expectOp(op: string): void {
    if (!this.isOp(op)) throw this.syntaxError();
    this.i++;
  }
  done(): void {
    if (this.peek().type !== 'end') throw this.syntaxError();
  }

  path(): Path {
    const parts: PathPart[] = [];
    const first = this.next();
    if (first.type === 'alias') parts.push(first.text);
    else if (first.type === 'name' && !KEYWORDS.has(first.text.toUpperCase())) parts.push(first.text);
    else throw this.syntaxError(first);
    for (;;) {
      if (this.isOp('.')) {
        this.i++;
        const t = this.next();
        if (t.type !== 'alias' && t.type !== 'name') throw this.syntaxError(t);
        parts.push(t.text);
      } else if (this.isOp('[')) {
        this.i++;
        const t = this.next();
        if (t.type !== 'number') throw this.syntaxError(t);
        parts.push(Number(t.text));
        this.expectOp(']');
      } else return { kind: 'path', parts };
    }
  }

  /** A function call's name and arguments (the name checked by the caller). */
  private call(): { name: string; args: Operand[] } {
    const name = this.next().text;
    this.expectOp('(');
    const args: Operand[] = [];
    if (!this.isOp(')')) {
      do args.push(this.operand());
      while (this.isOp(',') && (this.i++, true));
    }
    this.expectOp(')');
    return { name, args };
  }

  /** An operand: a path, a value, or size() (conditions); if_not_exists / list_append / + and - (updates). */
  operand(): Operand {
    const t = this.peek();
    if (t.type === 'value') {
      this.i++;
      return { kind: 'value', alias: t.text };
    }
    if (t.type === 'name' && this.isOp('(', 1)) {
      const isUpdate = this.kind === 'UpdateExpression';
      if (!(isUpdate ? UPDATE_FUNCTIONS : new Set(['size'])).has(t.text)) {
        if (CONDITION_FUNCTIONS.has(t.text) || UPDATE_FUNCTIONS.has(t.text)) throw validation(`Invalid ${this.kind}: The function is not allowed to be used this way in an expression; function: ${t.text}`);
        throw validation(`Invalid ${this.kind}: Invalid function name; function: ${t.text}`);
      }
      const { name, args } = this.call();
      if (name === 'size') {
        if (args.length !== 1) throw validation(`Invalid ${this.kind}: Incorrect number of operands for operator or function; operator or function: size, number of operands: ${args.length}`);
        return { kind: 'size', path: args[0]! };
      }
      if (args.length !== 2) throw validation(`Invalid ${this.kind}: Incorrect number of operands for operator or function; operator or function: ${name}, number of operands: ${args.length}`);
      if (name === 'if_not_exists') {
        if (args[0]!.kind !== 'path') throw validation(`Invalid ${this.kind}: Operator or function requires a document path; operator or function: if_not_exists`);
        return { kind: 'if_not_exists', path: args[0] as Path, fallback: args[1]! };
      }
      return { kind: 'list_append', first: args[0]!, second: args[1]! };
    }
    return this.path();
  }

  /** The right side of SET: an operand, or two joined by + or −. */
  setValue(): Operand {
    const left = this.operand();
    if (this.isOp('+') || this.isOp('-')) {
      const op = this.next().text as '+' | '-';
      return { kind: 'arithmetic', op, left, right: this.operand() };
    }
    return left;
  }

  condition(): Condition {
    let left = this.conjunction();
    while (this.isKeyword('OR')) {
      this.i++;
      left = { kind: 'or', left, right: this.conjunction() };
    }
    return left;
  }
  private conjunction(): Condition {
    let left = this.negation();
    while (this.isKeyword('AND')) {
      this.i++;
      left = { kind: 'and', left, right: this.negation() };
    }
    return left;
  }
  private negation(): Condition {
    if (this.isKeyword('NOT')) {
      this.i++;
      return { kind: 'not', inner: this.negation() };
    }
    return this.primary();
  }
  private primary(): Condition {
    if (this.isOp('(')) {
      this.i++;
      if (this.isOp('(') && this.closesAt(this.i) === this.closesAt(this.i - 1) - 1) throw validation(`Invalid ${this.kind}: The expression has redundant parentheses;`);
      const inner = this.condition();
      if (!this.isOp(')')) throw this.syntaxError();
      this.i++;
      return inner;
    }
    const t = this.peek();
    if (t.type === 'name' && this.isOp('(', 1) && t.text !== 'size') {
      if (!CONDITION_FUNCTIONS.has(t.text) || this.kind === 'UpdateExpression') {
        if (UPDATE_FUNCTIONS.has(t.text)) throw validation(`Invalid ${this.kind}: The function is not allowed to be used this way in an expression; function: ${t.text}`);
        throw validation(`Invalid ${this.kind}: Invalid function name; function: ${t.text}`);
      }
      const { name, args } = this.call();
      const arity = name === 'attribute_exists' || name === 'attribute_not_exists' ? 1 : 2;
      if (args.length !== arity) throw validation(`Invalid ${this.kind}: Incorrect number of operands for operator or function; operator or function: ${name}, number of operands: ${args.length}`);
      if ((name === 'attribute_exists' || name === 'attribute_not_exists' || name === 'attribute_type') && args[0]!.kind !== 'path') {
        throw validation(`Invalid ${this.kind}: Operator or function requires a document path; operator or function: ${name}`);
      }
      return { kind: 'function', name: name as 'contains', args };
    }
    const operand = this.operand();
    if (this.isKeyword('BETWEEN')) {
      this.i++;
      const low = this.operand();
      if (!this.isKeyword('AND')) throw this.syntaxError();
      this.i++;
      return { kind: 'between', operand, low, high: this.operand() };
    }
    if (this.isKeyword('IN')) {
      this.i++;
      this.expectOp('(');
      const list: Operand[] = [];
      do list.push(this.operand());
      while (this.isOp(',') && (this.i++, true));
      this.expectOp(')');
      if (list.length > 100) throw validation(`Invalid ${this.kind}: The IN operator is provided with too many operands; number of operands: ${list.length}`);
      return { kind: 'in', operand, list };
    }
    const op = this.peek();
    if (op.type === 'op' && ['=', '<>', '<', '<=', '>', '>='].includes(op.text)) {
      this.i++;
      return { kind: 'compare', op: op.text as Comparator, left: operand, right: this.operand() };
    }
    throw this.syntaxError(op);
  }

  /** The index of the `)` that closes the `(` at `open`. */
  private closesAt(open: number): number {
    let depth = 0;
    for (let j = open; j < this.tokens.length; j++) {
      const t = this.tokens[j]!;
      if (t.type !== 'op') continue;
      if (t.text === '(') depth++;
      else if (t.text === ')' && --depth === 0) return j;
    }
    return -1;
  }

  update(): UpdateAction[] {
    const actions: UpdateAction[] = [];
    const seen = new Set<string>();
    while (this.peek().type !== 'end') {
      const t = this.next();
      const clause = t.type === 'name' ? t.text.toUpperCase() : '';
      if (clause !== 'SET' && clause !== 'REMOVE' && clause !== 'ADD' && clause !== 'DELETE') throw this.syntaxError(t);
      if (seen.has(clause)) throw validation(`Invalid UpdateExpression: The "${clause}" section can only be used once in an update expression;`);
      seen.add(clause);
      do {
        const path = this.path();
        if (clause === 'SET') {
          this.expectOp('=');
          actions.push({ clause, path, value: this.setValue() });
        } else if (clause === 'REMOVE') actions.push({ clause, path });
        else actions.push({ clause, path, value: this.operand() });
      } while (this.isOp(',') && (this.i++, true));
    }
    if (actions.length === 0) throw this.syntaxError();
    return actions;
  }

  projection(): Path[] {
    const paths: Path[] = [];
    do paths.push(this.path());
    while (this.isOp(',') && (this.i++, true));
    return paths;
  }
}

/** Parsed expressions by text: generated code sends the same few texts with different values. */
const parsed = new Map<string, unknown>();

function cached<T>(kind: ExpressionKind, text: string, parse: (p: Parser) => T): T {
  const key = `${kind}\u0000${text}`;
  let result = parsed.get(key) as T | undefined;
  if (result === undefined) {
    if (text.trim() === '') throw validation(`Invalid ${kind}: The expression can not be empty;`);
    const parser = new Parser(text, kind);
    result = parse(parser);
    parser.done();
    if (parsed.size > 5000) parsed.clear();
    parsed.set(key, result);
  }
  return result;
}

export const parseCondition = (kind: ExpressionKind, text: string) => cached(kind, text, (p) => p.condition());
export const parseUpdate = (text: string) => cached('UpdateExpression', text, (p) => p.update());
export const parseProjection = (text: string) => cached('ProjectionExpression', text, (p) => p.projection());

// ---------------------------------------------------------------------------------------------
// Resolving aliases.

/** A path with its aliases replaced by the names they stand for. */
export function resolvePath(path: Path, aliases: Aliases, kind: ExpressionKind): string[] | PathPart[] {
  return path.parts.map((part) => {
    if (typeof part === 'number' || !part.startsWith('#')) return part;
    const name = aliases.names[part];
    if (name === undefined) throw validation(`Invalid ${kind}: An expression attribute name used in the document path is not defined; attribute name: ${part}`);
    aliases.usedNames.add(part);
    return name;
  });
}

function resolveValue(alias: string, aliases: Aliases, kind: ExpressionKind): AttributeValue {
  const value = aliases.values[alias];
  if (value === undefined) throw validation(`Invalid ${kind}: An expression attribute value used in expression is not defined; attribute value: ${alias}`);
  aliases.usedValues.add(alias);
  return value;
}

/** An operand with its aliases resolved. */
export type Resolved =
  | { readonly kind: 'path'; readonly parts: readonly PathPart[] }
  | { readonly kind: 'value'; readonly value: AttributeValue }
  | { readonly kind: 'size'; readonly path: Resolved }
  | { readonly kind: 'if_not_exists'; readonly parts: readonly PathPart[]; readonly fallback: Resolved }
  | { readonly kind: 'list_append'; readonly first: Resolved; readonly second: Resolved }
  | { readonly kind: 'arithmetic'; readonly op: '+' | '-'; readonly left: Resolved; readonly right: Resolved };

export type ResolvedCondition =
  | { readonly kind: 'and' | 'or'; readonly left: ResolvedCondition; readonly right: ResolvedCondition }
  | { readonly kind: 'not'; readonly inner: ResolvedCondition }
  | { readonly kind: 'compare'; readonly op: Comparator; readonly left: Resolved; readonly right: Resolved }
  | { readonly kind: 'between'; readonly operand: Resolved; readonly low: Resolved; readonly high: Resolved }
  | { readonly kind: 'in'; readonly operand: Resolved; readonly list: readonly Resolved[] }
  | { readonly kind: 'function'; readonly name: string; readonly args: readonly Resolved[] };

const TYPE_NAMES: Record<ValueType, string> = { S: 'STRING', N: 'NUMBER', B: 'BINARY', BOOL: 'BOOLEAN', NULL: 'NULL', SS: 'SS', NS: 'NS', BS: 'BS', L: 'LIST', M: 'MAP' };

export function resolveOperand(operand: Operand, aliases: Aliases, kind: ExpressionKind): Resolved {
  switch (operand.kind) {
    case 'path':
      return { kind: 'path', parts: resolvePath(operand, aliases, kind) };
    case 'value':
      return { kind: 'value', value: resolveValue(operand.alias, aliases, kind) };
    case 'size':
      return { kind: 'size', path: resolveOperand(operand.path, aliases, kind) };
    case 'if_not_exists':
      return { kind: 'if_not_exists', parts: resolvePath(operand.path, aliases, kind), fallback: resolveOperand(operand.fallback, aliases, kind) };
    case 'list_append': {
      const first = resolveOperand(operand.first, aliases, kind);
      const second = resolveOperand(operand.second, aliases, kind);
      for (const side of [first, second]) if (side.kind === 'value' && typeOf(side.value) !== 'L') throw operandType(kind, 'list_append', typeOf(side.value));
      return { kind: 'list_append', first, second };
    }
    case 'arithmetic': {
      const left = resolveOperand(operand.left, aliases, kind);
      const right = resolveOperand(operand.right, aliases, kind);
      for (const side of [left, right]) if (side.kind === 'value' && typeOf(side.value) !== 'N') throw operandType(kind, operand.op, typeOf(side.value));
      return { kind: 'arithmetic', op: operand.op, left, right };
    }
  }
}

const operandType = (kind: ExpressionKind, fn: string, type: ValueType) => validation(`Invalid ${kind}: Incorrect operand type for operator or function; operator or function: ${fn}, operand type: ${type}`);

const ATTRIBUTE_TYPES = ['S', 'SS', 'N', 'NS', 'B', 'BS', 'BOOL', 'NULL', 'L', 'M'];

/** A condition with its aliases resolved, and the checks DynamoDB makes before reading the item (operand types of values, BETWEEN bounds). */
export function resolveCondition(condition: Condition, aliases: Aliases, kind: ExpressionKind): ResolvedCondition {
  const operand = (o: Operand) => resolveOperand(o, aliases, kind);
  switch (condition.kind) {
    case 'and':
    case 'or':
      return { kind: condition.kind, left: resolveCondition(condition.left, aliases, kind), right: resolveCondition(condition.right, aliases, kind) };
    case 'not':
      return { kind: 'not', inner: resolveCondition(condition.inner, aliases, kind) };
    case 'compare': {
      const left = operand(condition.left);
      const right = operand(condition.right);
      if (condition.op !== '=' && condition.op !== '<>') {
        for (const side of [left, right]) {
          if (side.kind === 'value' && !['S', 'N', 'B'].includes(typeOf(side.value))) throw operandType(kind, condition.op, typeOf(side.value));
        }
      }
      return { kind: 'compare', op: condition.op, left, right };
    }
    case 'between': {
      const [target, low, high] = [operand(condition.operand), operand(condition.low), operand(condition.high)];
      for (const side of [target, low, high]) {
        if (side.kind === 'value' && !['S', 'N', 'B'].includes(typeOf(side.value))) throw operandType(kind, 'BETWEEN', typeOf(side.value));
      }
      if (low.kind === 'value' && high.kind === 'value') {
        const lowType = typeOf(low.value);
        if (lowType !== typeOf(high.value)) {
          throw validation(`Invalid ${kind}: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: ${describeValue(low.value)}, upper bound operand: AttributeValue: ${describeValue(high.value)}`);
        }
        if (compareScalars(low.value, high.value) > 0) {
          throw validation(`Invalid ${kind}: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: ${describeValue(low.value)}, upper bound operand: AttributeValue: ${describeValue(high.value)}`);
        }
      }
      return { kind: 'between', operand: target, low, high };
    }
    case 'in':
      return { kind: 'in', operand: operand(condition.operand), list: condition.list.map(operand) };
    case 'function': {
      const args = condition.args.map(operand);
      const second = args[1];
      if (condition.name === 'begins_with') {
        for (const side of args) if (side.kind === 'value' && !['S', 'B'].includes(typeOf(side.value))) throw operandType(kind, 'begins_with', typeOf(side.value));
      }
      if (condition.name === 'attribute_type' && second) {
        if (second.kind !== 'value' || typeOf(second.value) !== 'S') throw operandType(kind, 'attribute_type', second.kind === 'value' ? typeOf(second.value) : 'S');
        const type = (second.value as { S: string }).S;
        if (!ATTRIBUTE_TYPES.includes(type)) throw validation(`Invalid ${kind}: Invalid attribute type name found; type: ${type}, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}`);
      }
      return { kind: 'function', name: condition.name, args };
    }
  }
}

/** A value as DynamoDB's messages print it: `{N:9}`, `{S:abc}`. */
export function describeValue(value: AttributeValue): string {
  const type = typeOf(value);
  const inner = givenText(value) ?? (value as Record<string, unknown>)[type];
  return `{${type}:${typeof inner === 'string' || typeof inner === 'boolean' ? String(inner) : JSON.stringify(inner)}}`;
}

// ---------------------------------------------------------------------------------------------
// Evaluation.

/** The value at a path of an item, or undefined. */
export function valueAt(item: Readonly<AttributeMap>, parts: readonly PathPart[]): AttributeValue | undefined {
  let current: AttributeValue | undefined = item[parts[0] as string];
  for (let i = 1; i < parts.length && current !== undefined; i++) {
    const part = parts[i]!;
    if (typeof part === 'number') current = (current as { L?: AttributeValue[] }).L?.[part];
    else {
      const map = (current as { M?: AttributeMap }).M;
      current = map && Object.prototype.hasOwnProperty.call(map, part) ? map[part] : undefined;
    }
  }
  return current;
}

function sizeOf(value: AttributeValue): number | undefined {
  const v = value as Record<string, unknown>;
  if (typeof v.S === 'string') return [...(v.S as string)].length;
  if (v.B !== undefined) return (v.B as Uint8Array).length;
  for (const key of ['SS', 'NS', 'BS', 'L'] as const) if (v[key] !== undefined) return (v[key] as unknown[]).length;
  if (v.M !== undefined) return Object.keys(v.M as object).length;
  return undefined;
}

/** An operand's value against an item (undefined: absent). */
export function evaluateOperand(operand: Resolved, item: Readonly<AttributeMap>): AttributeValue | undefined {
  switch (operand.kind) {
    case 'path':
      return valueAt(item, operand.parts);
    case 'value':
      return operand.value;
    case 'size': {
      const value = evaluateOperand(operand.path, item);
      const size = value === undefined ? undefined : sizeOf(value);
      return size === undefined ? undefined : { N: String(size) };
    }
    case 'if_not_exists':
      return valueAt(item, operand.parts) ?? evaluateOperand(operand.fallback, item);
    case 'list_append': {
      const first = existing(operand.first, item);
      const second = existing(operand.second, item);
      if (typeOf(first) !== 'L' || typeOf(second) !== 'L') throw validation('An operand in the update expression has an incorrect data type');
      return { L: [...(first as { L: AttributeValue[] }).L, ...(second as { L: AttributeValue[] }).L].map(copyValue) };
    }
    case 'arithmetic': {
      const left = existing(operand.left, item);
      const right = existing(operand.right, item);
      if (typeOf(left) !== 'N' || typeOf(right) !== 'N') throw validation('An operand in the update expression has an incorrect data type');
      const b = parseDecimal((right as { N: string }).N);
      return { N: formatDecimal(addDecimal(parseDecimal((left as { N: string }).N), operand.op === '+' ? b : negateDecimal(b))) };
    }
  }
}

function existing(operand: Resolved, item: Readonly<AttributeMap>): AttributeValue {
  const value = evaluateOperand(operand, item);
  if (value === undefined) throw validation('The provided expression refers to an attribute that does not exist in the item');
  return value;
}

const isScalar = (type: ValueType) => type === 'S' || type === 'N' || type === 'B';

function compare(op: Comparator, a: AttributeValue | undefined, b: AttributeValue | undefined): boolean {
  if (a === undefined || b === undefined) return op === '<>';
  if (op === '=') return equalValues(a, b);
  if (op === '<>') return !equalValues(a, b);
  const type = typeOf(a);
  if (type !== typeOf(b) || !isScalar(type)) return false;
  const c = compareScalars(a, b);
  return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
}

function beginsWith(value: AttributeValue | undefined, prefix: AttributeValue | undefined): boolean {
  if (value === undefined || prefix === undefined) return false;
  const v = value as Record<string, unknown>;
  const p = prefix as Record<string, unknown>;
  if (typeof v.S === 'string' && typeof p.S === 'string') return (v.S as string).startsWith(p.S as string);
  if (v.B instanceof Uint8Array && p.B instanceof Uint8Array) {
    const bytes = v.B as Uint8Array;
    const start = p.B as Uint8Array;
    return start.length <= bytes.length && start.every((byte, i) => bytes[i] === byte);
  }
  return false;
}

function contains(value: AttributeValue | undefined, operand: AttributeValue | undefined): boolean {
  if (value === undefined || operand === undefined) return false;
  const v = value as Record<string, unknown>;
  const o = operand as Record<string, unknown>;
  if (typeof v.S === 'string') return typeof o.S === 'string' && (v.S as string).includes(o.S as string);
  if (v.SS !== undefined) return typeof o.S === 'string' && (v.SS as string[]).includes(o.S as string);
  if (v.NS !== undefined) return typeof o.N === 'string' && (v.NS as string[]).some((n) => equalValues({ N: n }, operand));
  if (v.BS !== undefined) return o.B !== undefined && (v.BS as Uint8Array[]).some((b) => equalValues({ B: b }, operand));
  if (v.L !== undefined) return (v.L as AttributeValue[]).some((element) => equalValues(element, operand));
  if (v.B !== undefined && o.B !== undefined) {
    const hay = v.B as Uint8Array;
    const needle = o.B as Uint8Array;
    for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((byte, j) => hay[i + j] === byte)) return true;
  }
  return false;
}

/** Whether a condition holds for an item (an absent item is an empty one). */
export function evaluateCondition(condition: ResolvedCondition, item: Readonly<AttributeMap>): boolean {
  switch (condition.kind) {
    case 'and':
      return evaluateCondition(condition.left, item) && evaluateCondition(condition.right, item);
    case 'or':
      return evaluateCondition(condition.left, item) || evaluateCondition(condition.right, item);
    case 'not':
      return !evaluateCondition(condition.inner, item);
    case 'compare':
      return compare(condition.op, evaluateOperand(condition.left, item), evaluateOperand(condition.right, item));
    case 'between': {
      const value = evaluateOperand(condition.operand, item);
      return compare('>=', value, evaluateOperand(condition.low, item)) && compare('<=', value, evaluateOperand(condition.high, item));
    }
    case 'in': {
      const value = evaluateOperand(condition.operand, item);
      return value !== undefined && condition.list.some((candidate) => compare('=', value, evaluateOperand(candidate, item)));
    }
    case 'function': {
      const [first, second] = condition.args;
      switch (condition.name) {
        case 'attribute_exists':
          return evaluateOperand(first!, item) !== undefined;
        case 'attribute_not_exists':
          return evaluateOperand(first!, item) === undefined;
        case 'attribute_type': {
          const value = evaluateOperand(first!, item);
          return value !== undefined && typeOf(value) === (evaluateOperand(second!, item) as { S: string }).S;
        }
        case 'begins_with':
          return beginsWith(evaluateOperand(first!, item), evaluateOperand(second!, item));
        default:
          return contains(evaluateOperand(first!, item), evaluateOperand(second!, item));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Updates.

/** A resolved update action. */
export interface ResolvedAction {
  readonly clause: UpdateAction['clause'];
  readonly parts: readonly PathPart[];
  readonly value?: Resolved;
}

const printPath = (parts: readonly PathPart[]) => `[${parts.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join(', ')}]`;

/** Resolves an update expression and makes DynamoDB's checks that need no item: operand types, key attributes, overlapping paths. */
export function resolveUpdate(actions: readonly UpdateAction[], aliases: Aliases, keyAttributes: readonly string[]): ResolvedAction[] {
  const resolved = actions.map((action): ResolvedAction => {
    const parts = resolvePath(action.path, aliases, 'UpdateExpression');
    const value = action.value === undefined ? undefined : resolveOperand(action.value, aliases, 'UpdateExpression');
    if ((action.clause === 'ADD' || action.clause === 'DELETE') && value?.kind === 'value') {
      const type = typeOf(value.value);
      const allowed = action.clause === 'ADD' ? ['N', 'SS', 'NS', 'BS'] : ['SS', 'NS', 'BS'];
      if (!allowed.includes(type)) throw validation(`Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ${action.clause}, operand type: ${TYPE_NAMES[type]}, typeSet: ALLOWED_FOR_${action.clause}_OPERAND`);
    }
    return value === undefined ? { clause: action.clause, parts } : { clause: action.clause, parts, value };
  });
  for (const action of resolved) {
    const top = action.parts[0] as string;
    if (keyAttributes.includes(top)) throw validation(`One or more parameter values were invalid: Cannot update attribute ${top}. This attribute is part of the key`);
  }
  checkOverlap('UpdateExpression', resolved.map((action) => action.parts));
  return resolved;
}

const invalidPath = () => validation('The document path provided in the update expression is invalid for update');

/** Sets the value at a path (creating nothing but the last step); a list index past the end appends. */
function setAt(item: AttributeMap, parts: readonly PathPart[], value: AttributeValue): void {
  if (parts.length === 1) {
    item[parts[0] as string] = value;
    return;
  }
  const parent = valueAt(item, parts.slice(0, -1));
  const last = parts[parts.length - 1]!;
  if (typeof last === 'number') {
    const list = (parent as { L?: AttributeValue[] } | undefined)?.L;
    if (!list) throw invalidPath();
    if (last < list.length) list[last] = value;
    else list.push(value);
  } else {
    const map = (parent as { M?: AttributeMap } | undefined)?.M;
    if (!map) throw invalidPath();
    map[last] = value;
  }
}

function removeAt(item: AttributeMap, parts: readonly PathPart[]): void {
  if (parts.length === 1) {
    delete item[parts[0] as string];
    return;
  }
  // the element may be missing, its list or map may not
  const parent = valueAt(item, parts.slice(0, -1));
  const last = parts[parts.length - 1]!;
  if (typeof last === 'number') {
    const list = (parent as { L?: AttributeValue[] } | undefined)?.L;
    if (!list) throw invalidPath();
    if (last < list.length) list.splice(last, 1);
  } else {
    const map = (parent as { M?: AttributeMap } | undefined)?.M;
    if (!map) throw invalidPath();
    delete map[last];
  }
}

const incorrectType = () => validation('An operand in the update expression has an incorrect data type');

function setUnion(current: AttributeValue, added: AttributeValue, remove: boolean): AttributeValue | undefined {
  const type = typeOf(current);
  if (type !== typeOf(added)) throw incorrectType();
  const key = type as 'SS' | 'NS' | 'BS';
  const have = [...((current as unknown as Record<string, unknown[]>)[key] ?? [])];
  const given = (added as unknown as Record<string, unknown[]>)[key] ?? [];
  const same = (x: unknown, y: unknown) => equalValues({ [key.slice(0, 1)]: x } as AttributeValue, { [key.slice(0, 1)]: y } as AttributeValue);
  if (remove) {
    const left = have.filter((x) => !given.some((y) => same(x, y)));
    return left.length ? ({ [key]: left } as unknown as AttributeValue) : undefined;
  }
  for (const y of given) if (!have.some((x) => same(x, y))) have.push(y);
  return sortedSet({ [key]: have } as unknown as AttributeValue);
}

/**
 * Applies an update to a copy of `old` (an absent item starts from its key) and returns the new
 * item. Every operand is read from the item as it was before the update.
 */
export function applyUpdate(actions: readonly ResolvedAction[], old: Readonly<AttributeMap>): AttributeMap {
  const item = copyMap(old);
  // as DynamoDB Local orders its checks: computed operands (arithmetic, functions) first, then
  // every path (its list or map must be there), then the plain operands as each action applies
  const computed = (value: Resolved | undefined) => value !== undefined && value.kind !== 'path' && value.kind !== 'value';
  const values = actions.map((action) => (computed(action.value) ? evaluateOperand(action.value!, old) : undefined));
  for (const action of actions) {
    if (action.parts.length < 2) continue;
    const parent = valueAt(old, action.parts.slice(0, -1));
    const last = action.parts[action.parts.length - 1];
    if (!(typeof last === 'number' ? (parent as { L?: unknown } | undefined)?.L : (parent as { M?: unknown } | undefined)?.M)) throw invalidPath();
  }
  actions.forEach((action, i) => {
    if (action.value !== undefined && !computed(action.value)) values[i] = evaluateOperand(action.value, old);
  });
  // list elements are removed from the highest index down, so earlier removals do not shift later ones
  const removals = actions.map((action, i) => ({ action, i })).filter(({ action }) => action.clause === 'REMOVE');
  removals.sort((a, b) => {
    const x = a.action.parts[a.action.parts.length - 1];
    const y = b.action.parts[b.action.parts.length - 1];
    return typeof x === 'number' && typeof y === 'number' ? y - x : 0;
  });
  actions.forEach((action, i) => {
    const value = values[i];
    switch (action.clause) {
      case 'SET':
        if (value === undefined) throw validation('The provided expression refers to an attribute that does not exist in the item');
        setAt(item, action.parts, copyValue(value));
        break;
      case 'ADD': {
        const current = valueAt(item, action.parts);
        if (current === undefined) setAt(item, action.parts, copyValue(value!));
        else if (typeOf(value!) === 'N') {
          if (typeOf(current) !== 'N') throw incorrectType();
          setAt(item, action.parts, { N: formatDecimal(addDecimal(parseDecimal((current as { N: string }).N), parseDecimal((value as { N: string }).N))) });
        } else setAt(item, action.parts, setUnion(current, value!, false)!);
        break;
      }
      case 'DELETE': {
        const current = valueAt(item, action.parts);
        if (current === undefined) break;
        if (!['SS', 'NS', 'BS'].includes(typeOf(current))) throw incorrectType();
        const left = setUnion(current, value!, true);
        if (left === undefined) removeAt(item, action.parts);
        else setAt(item, action.parts, left);
        break;
      }
      default:
        break;
    }
  });
  for (const { action } of removals) removeAt(item, action.parts);
  return item;
}

/**
 * What UPDATED_OLD / UPDATED_NEW return, as DynamoDB Local returns it: the whole top-level
 * attribute of each path the update names, when that path holds a value in `item` (the item
 * before the update, or after it).
 */
export function updatedValues(actions: readonly ResolvedAction[], item: Readonly<AttributeMap> | undefined): AttributeMap | undefined {
  if (!item) return undefined;
  const out: AttributeMap = {};
  for (const { parts } of actions) {
    const top = parts[0] as string;
    if (valueAt(item, parts) !== undefined) out[top] = copyValue(item[top]!);
  }
  return Object.keys(out).length ? out : undefined;
}

// ---------------------------------------------------------------------------------------------
// Projections.

/** Throws DynamoDB's error when two paths of one expression overlap (one is the other or inside it). */
export function checkOverlap(kind: ExpressionKind, paths: readonly (readonly PathPart[])[]): void {
  for (let i = 0; i < paths.length; i++) {
    for (let j = 0; j < i; j++) {
      const [a, b] = [paths[j]!, paths[i]!];
      const n = Math.min(a.length, b.length);
      if (a.slice(0, n).every((part, k) => part === b[k])) {
        throw validation(`Invalid ${kind}: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: ${printPath(a)}, path two: ${printPath(b)}`);
      }
    }
  }
}

interface Selection {
  whole: boolean;
  readonly children: Map<PathPart, Selection>;
}

function pick(source: AttributeValue, selection: Selection): AttributeValue {
  if (selection.whole) return copyValue(source);
  const map = (source as { M?: AttributeMap }).M;
  if (map) {
    const out: AttributeMap = {};
    for (const [name, child] of selection.children) out[name as string] = pick(map[name as string]!, child);
    return { M: out };
  }
  const list = (source as { L: AttributeValue[] }).L;
  return { L: [...selection.children.keys()].sort((a, b) => (a as number) - (b as number)).map((index) => pick(list[index as number]!, selection.children.get(index)!)) };
}

/** The parts of an item a projection names, nested as in the item; list elements kept in index order. */
export function project(item: Readonly<AttributeMap>, paths: readonly (readonly PathPart[])[]): AttributeMap {
  const root: Selection = { whole: false, children: new Map() };
  for (const parts of paths) {
    if (valueAt(item, parts) === undefined) continue;
    let node = root;
    for (const part of parts) {
      let child = node.children.get(part);
      if (!child) node.children.set(part, (child = { whole: false, children: new Map() }));
      node = child;
    }
    node.whole = true;
  }
  return (pick({ M: item as AttributeMap }, root) as { M: AttributeMap }).M;
}
