// DynamoDB's expression language for the in-memory table, read: the syntax trees of key
// conditions, conditions, filters, updates and projections, the tokenizer and the parser (with
// DynamoDB's syntax errors), and a cache of parsed texts. Resolving and evaluating them is
// expression.ts; updates, expression-updates.ts.

import { validation } from './value.js';

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

/** A condition over operands of type O (as parsed, or resolved against the request's names and values), naming functions F. */
export type ConditionOf<O, F extends string = string> =
  | { readonly kind: 'and' | 'or'; readonly left: ConditionOf<O, F>; readonly right: ConditionOf<O, F> }
  | { readonly kind: 'not'; readonly inner: ConditionOf<O, F> }
  | { readonly kind: 'compare'; readonly op: Comparator; readonly left: O; readonly right: O }
  | { readonly kind: 'between'; readonly operand: O; readonly low: O; readonly high: O }
  | { readonly kind: 'in'; readonly operand: O; readonly list: readonly O[] }
  | { readonly kind: 'function'; readonly name: F; readonly args: readonly O[] };

export type Condition = ConditionOf<Operand, 'attribute_exists' | 'attribute_not_exists' | 'attribute_type' | 'begins_with' | 'contains'>;

export interface UpdateAction {
  readonly clause: 'SET' | 'REMOVE' | 'ADD' | 'DELETE';
  readonly path: Path;
  readonly value?: Operand;
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
