// DynamoDB's PartiQL statements (ExecuteStatement, BatchExecuteStatement, ExecuteTransaction) for
// `ddbgen local`, compiled to the requests the engine answers: SELECT to a Query when the WHERE
// clause fixes the partition key (and at most one sort-key condition), else to a Scan; INSERT to a
// PutItem that fails on an existing key (DuplicateItemException); UPDATE and DELETE to UpdateItem /
// DeleteItem on the key the WHERE clause names, its other conditions as the write's condition.
// Values are PartiQL literals ('text', numbers, TRUE/FALSE, NULL, <<sets>>, {maps}, [lists]) or
// `?` parameters, taken in order from the request's Parameters.

import { RequestError, validation } from '../../templates/runtime/in-memory/value.js';

type Input = Record<string, unknown>;

/** What a statement needs to know of a table: its key attributes. */
export interface PartiqlTable {
  readonly hash: string;
  readonly range: string | undefined;
}

type Token = { readonly kind: 'word' | 'name' | 'string' | 'number' | 'punct'; readonly text: string };

type Operand = { kind: 'path'; parts: Array<string | number> } | { kind: 'value'; value: unknown } | { kind: 'math'; op: '+' | '-'; left: Operand; right: Operand };

type Condition =
  | { kind: 'and' | 'or'; left: Condition; right: Condition }
  | { kind: 'not'; operand: Condition }
  | { kind: 'compare'; op: string; left: Operand; right: Operand }
  | { kind: 'between'; operand: Operand; low: Operand; high: Operand }
  | { kind: 'in'; operand: Operand; list: Operand[] }
  | { kind: 'function'; name: string; args: Operand[] }
  | { kind: 'missing'; operand: Operand; negated: boolean };

/** A statement parsed: what it does, to which table (and index), with what. */
export type Statement =
  | { kind: 'select'; table: string; index: string | undefined; projection: Array<Array<string | number>> | undefined; where: Condition | undefined }
  | { kind: 'insert'; table: string; item: Record<string, unknown> }
  | { kind: 'update'; table: string; set: Array<{ path: Array<string | number>; value: Operand }>; remove: Array<Array<string | number>>; where: Condition | undefined }
  | { kind: 'delete'; table: string; where: Condition | undefined };

const malformed = (detail: string) => validation(`Statement wasn't well formed, can't be processed: ${detail}`);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (/\s/.test(char)) {
      at++;
    } else if (char === "'" || char === '"') {
      let value = '';
      at++;
      for (;;) {
        if (at >= text.length) throw malformed(`unterminated ${char === "'" ? 'string' : 'quoted name'}`);
        if (text[at] === char && text[at + 1] === char) {
          value += char;
          at += 2;
        } else if (text[at] === char) {
          at++;
          break;
        } else value += text[at++];
      }
      tokens.push({ kind: char === "'" ? 'string' : 'name', text: value });
    } else if (/[0-9]/.test(char) || (char === '-' && /[0-9]/.test(text[at + 1] ?? '') && !/^(name|word|number|string)$/.test(tokens.at(-1)?.kind ?? ''))) {
      const match = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at))!;
      tokens.push({ kind: 'number', text: match[0] });
      at += match[0].length;
    } else if (/[A-Za-z_]/.test(char)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(at))!;
      tokens.push({ kind: 'word', text: match[0] });
      at += match[0].length;
    } else {
      const two = text.slice(at, at + 2);
      const punct = ['<<', '>>', '<>', '!=', '<=', '>='].includes(two) ? two : char;
      if (!'=<>!()[]{},.:?*+-'.includes(punct[0]!) || punct === '!') throw malformed(`unexpected character '${char}'`);
      tokens.push({ kind: 'punct', text: punct });
      at += punct.length;
    }
  }
  return tokens;
}

class Parser {
  private at = 0;
  private parameter = 0;
  private readonly tokens: Token[];
  private readonly parameters: readonly unknown[];

  constructor(text: string, parameters: readonly unknown[]) {
    this.tokens = tokenize(text);
    this.parameters = parameters;
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private isWord(word: string): boolean {
    const token = this.peek();
    return token?.kind === 'word' && token.text.toUpperCase() === word;
  }

  private isPunct(punct: string): boolean {
    const token = this.peek();
    return token?.kind === 'punct' && token.text === punct;
  }

  private expectWord(word: string): void {
    if (!this.isWord(word)) throw malformed(`expected ${word}${this.peek() ? ` at '${this.peek()!.text}'` : ' at the end'}`);
    this.at++;
  }

  private expectPunct(punct: string): void {
    if (!this.isPunct(punct)) throw malformed(`expected '${punct}'${this.peek() ? ` at '${this.peek()!.text}'` : ' at the end'}`);
    this.at++;
  }

  private name(): string {
    const token = this.peek();
    if (token?.kind !== 'word' && token?.kind !== 'name') throw malformed(`expected a name${token ? ` at '${token.text}'` : ' at the end'}`);
    this.at++;
    return token.text;
  }

  /** A table, and an index when the name is followed by ."index". */
  private target(): { table: string; index: string | undefined } {
    const table = this.name();
    if (this.isPunct('.')) {
      this.at++;
      return { table, index: this.name() };
    }
    return { table, index: undefined };
  }

  statement(): Statement {
    let statement: Statement;
    if (this.isWord('SELECT')) {
      this.at++;
      let projection: Array<Array<string | number>> | undefined;
      if (this.isPunct('*')) this.at++;
      else {
        projection = [this.path()];
        while (this.isPunct(',')) {
          this.at++;
          projection.push(this.path());
        }
      }
      this.expectWord('FROM');
      const { table, index } = this.target();
      statement = { kind: 'select', table, index, projection, where: this.where() };
    } else if (this.isWord('INSERT')) {
      this.at++;
      this.expectWord('INTO');
      const table = this.name();
      this.expectWord('VALUE');
      const item = this.literal();
      if (typeof item !== 'object' || item === null || !('M' in item)) throw malformed('INSERT takes one item, a {map}');
      statement = { kind: 'insert', table, item: (item as { M: Record<string, unknown> }).M };
    } else if (this.isWord('UPDATE')) {
      this.at++;
      const table = this.name();
      const set: Array<{ path: Array<string | number>; value: Operand }> = [];
      const remove: Array<Array<string | number>> = [];
      while (this.isWord('SET') || this.isWord('REMOVE')) {
        const setting = this.isWord('SET');
        this.at++;
        do {
          if (set.length + remove.length > 0 && this.isPunct(',')) this.at++;
          const path = this.path();
          if (setting) {
            this.expectPunct('=');
            set.push({ path, value: this.operand() });
          } else remove.push(path);
        } while (this.isPunct(','));
      }
      if (set.length + remove.length === 0) throw malformed('UPDATE takes SET or REMOVE');
      statement = { kind: 'update', table, set, remove, where: this.where() };
    } else if (this.isWord('DELETE')) {
      this.at++;
      this.expectWord('FROM');
      statement = { kind: 'delete', table: this.name(), where: this.where() };
    } else throw malformed(`unexpected ${this.peek() ? `'${this.peek()!.text}'` : 'end'}: a statement starts with SELECT, INSERT, UPDATE or DELETE`);
    if (this.at < this.tokens.length) throw malformed(`unexpected '${this.peek()!.text}'`);
    if (this.parameter !== this.parameters.length) throw validation(`Number of parameters in request and statement don't match.`);
    return statement;
  }

  private where(): Condition | undefined {
    if (!this.isWord('WHERE')) return undefined;
    this.at++;
    return this.or();
  }

  private or(): Condition {
    let left = this.and();
    while (this.isWord('OR')) {
      this.at++;
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): Condition {
    let left = this.not();
    while (this.isWord('AND')) {
      this.at++;
      left = { kind: 'and', left, right: this.not() };
    }
    return left;
  }

  private not(): Condition {
    if (this.isWord('NOT')) {
      this.at++;
      return { kind: 'not', operand: this.not() };
    }
    return this.atom();
  }

  private atom(): Condition {
    if (this.isPunct('(')) {
      this.at++;
      const inner = this.or();
      this.expectPunct(')');
      return inner;
    }
    const token = this.peek();
    if (token?.kind === 'word' && this.tokens[this.at + 1]?.text === '(' && ['BEGINS_WITH', 'CONTAINS', 'ATTRIBUTE_TYPE', 'EXISTS'].includes(token.text.toUpperCase())) {
      this.at += 2;
      const args = [this.operand()];
      while (this.isPunct(',')) {
        this.at++;
        args.push(this.operand());
      }
      this.expectPunct(')');
      return { kind: 'function', name: token.text.toLowerCase(), args };
    }
    const left = this.operand();
    if (this.isWord('IS')) {
      this.at++;
      const negated = this.isWord('NOT');
      if (negated) this.at++;
      this.expectWord('MISSING');
      return { kind: 'missing', operand: left, negated };
    }
    if (this.isWord('BETWEEN')) {
      this.at++;
      const low = this.operand();
      this.expectWord('AND');
      return { kind: 'between', operand: left, low, high: this.operand() };
    }
    if (this.isWord('IN')) {
      this.at++;
      const close = this.isPunct('[') ? ']' : ')';
      this.expectPunct(close === ']' ? '[' : '(');
      const list = [this.operand()];
      while (this.isPunct(',')) {
        this.at++;
        list.push(this.operand());
      }
      this.expectPunct(close);
      return { kind: 'in', operand: left, list };
    }
    const op = this.peek();
    if (op?.kind !== 'punct' || !['=', '<>', '!=', '<', '<=', '>', '>='].includes(op.text)) throw malformed(`expected a comparison${op ? ` at '${op.text}'` : ' at the end'}`);
    this.at++;
    return { kind: 'compare', op: op.text === '!=' ? '<>' : op.text, left, right: this.operand() };
  }

  private operand(): Operand {
    const left = this.term();
    if (this.isPunct('+') || this.isPunct('-')) {
      const op = this.peek()!.text as '+' | '-';
      this.at++;
      return { kind: 'math', op, left, right: this.term() };
    }
    return left;
  }

  private term(): Operand {
    const token = this.peek();
    if (token?.kind === 'word' && !['TRUE', 'FALSE', 'NULL'].includes(token.text.toUpperCase())) return { kind: 'path', parts: this.path() };
    if (token?.kind === 'name') return { kind: 'path', parts: this.path() };
    return { kind: 'value', value: this.literal() };
  }

  private path(): Array<string | number> {
    const parts: Array<string | number> = [this.name()];
    for (;;) {
      if (this.isPunct('.')) {
        this.at++;
        parts.push(this.name());
      } else if (this.isPunct('[')) {
        this.at++;
        const token = this.peek();
        if (token?.kind !== 'number') throw malformed('a list index is a number');
        this.at++;
        parts.push(Number(token.text));
        this.expectPunct(']');
      } else return parts;
    }
  }

  /** A literal value (or `?`) as an attribute value of the low-level API. */
  private literal(): unknown {
    const token = this.peek();
    if (!token) throw malformed('expected a value at the end');
    this.at++;
    if (token.kind === 'string') return { S: token.text };
    if (token.kind === 'number') return { N: token.text };
    if (token.kind === 'word') {
      const word = token.text.toUpperCase();
      if (word === 'TRUE' || word === 'FALSE') return { BOOL: word === 'TRUE' };
      if (word === 'NULL') return { NULL: true };
    }
    if (token.kind === 'punct' && token.text === '?') {
      if (this.parameter >= this.parameters.length) throw validation(`Number of parameters in request and statement don't match.`);
      return this.parameters[this.parameter++];
    }
    if (token.kind === 'punct' && token.text === '{') {
      const map: Record<string, unknown> = {};
      while (!this.isPunct('}')) {
        const key = this.peek();
        if (key?.kind !== 'string') throw malformed("a map's keys are 'quoted'");
        this.at++;
        this.expectPunct(':');
        map[key.text] = this.literal();
        if (!this.isPunct('}')) this.expectPunct(',');
      }
      this.at++;
      return { M: map };
    }
    if (token.kind === 'punct' && token.text === '[') {
      const list: unknown[] = [];
      while (!this.isPunct(']')) {
        list.push(this.literal());
        if (!this.isPunct(']')) this.expectPunct(',');
      }
      this.at++;
      return { L: list };
    }
    if (token.kind === 'punct' && token.text === '<<') {
      const members: Array<{ S?: string; N?: string; B?: unknown }> = [];
      while (!this.isPunct('>>')) {
        members.push(this.literal() as { S?: string; N?: string });
        if (!this.isPunct('>>')) this.expectPunct(',');
      }
      this.at++;
      if (members.every((m) => m.S !== undefined)) return { SS: members.map((m) => m.S) };
      if (members.every((m) => m.N !== undefined)) return { NS: members.map((m) => m.N) };
      if (members.every((m) => m.B !== undefined)) return { BS: members.map((m) => m.B) };
      throw malformed('a set holds strings, numbers or binary values, one kind');
    }
    throw malformed(`unexpected '${token.text}'`);
  }
}

/** Parses a statement with its parameters (attribute values of the low-level API). */
export function parseStatement(text: unknown, parameters: unknown): Statement {
  if (typeof text !== 'string' || text.length === 0) throw validation("1 validation error detected: Value null at 'statement' failed to satisfy constraint: Member must not be null");
  return new Parser(text, Array.isArray(parameters) ? parameters : []).statement();
}

/** Names and values of the expressions a statement compiles to. */
class Aliases {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private count = 0;

  path(parts: ReadonlyArray<string | number>): string {
    return parts.map((part) => (typeof part === 'number' ? `[${part}]` : this.name(part))).join('.').replace(/\.\[/g, '[');
  }

  private name(name: string): string {
    const alias = Object.entries(this.names).find(([, n]) => n === name)?.[0] ?? `#p${Object.keys(this.names).length}`;
    this.names[alias] = name;
    return alias;
  }

  operand(operand: Operand): string {
    if (operand.kind === 'path') return this.path(operand.parts);
    if (operand.kind === 'math') return `${this.operand(operand.left)} ${operand.op} ${this.operand(operand.right)}`;
    const alias = `:p${this.count++}`;
    this.values[alias] = operand.value;
    return alias;
  }

  condition(c: Condition): string {
    switch (c.kind) {
      case 'and':
      case 'or':
        return `(${this.condition(c.left)}) ${c.kind.toUpperCase()} (${this.condition(c.right)})`;
      case 'not':
        return `NOT (${this.condition(c.operand)})`;
      case 'compare':
        return `${this.operand(c.left)} ${c.op} ${this.operand(c.right)}`;
      case 'between':
        return `${this.operand(c.operand)} BETWEEN ${this.operand(c.low)} AND ${this.operand(c.high)}`;
      case 'in':
        return `${this.operand(c.operand)} IN (${c.list.map((o) => this.operand(o)).join(', ')})`;
      case 'function':
        if (c.name === 'exists') throw validation('EXISTS is answered in ExecuteTransaction only');
        return `${c.name}(${c.args.map((o) => this.operand(o)).join(', ')})`;
      case 'missing':
        return `${c.negated ? 'attribute_exists' : 'attribute_not_exists'}(${this.operand(c.operand)})`;
    }
  }

  expressions(): Input {
    return { ...(Object.keys(this.names).length ? { ExpressionAttributeNames: this.names } : {}), ...(Object.keys(this.values).length ? { ExpressionAttributeValues: this.values } : {}) };
  }
}

function atoms(where: Condition | undefined): Condition[] {
  if (!where) return [];
  return where.kind === 'and' ? [...atoms(where.left), ...atoms(where.right)] : [where];
}

/** The key attribute an atom tests (a comparison, BETWEEN or begins_with on a top-level name), if any. */
function keyOf(atom: Condition): { name: string; equal: unknown } | undefined {
  const top = (o: Operand | undefined) => (o?.kind === 'path' && o.parts.length === 1 && typeof o.parts[0] === 'string' ? o.parts[0] : undefined);
  if (atom.kind === 'compare' && atom.op !== '<>') {
    const name = top(atom.left);
    if (name !== undefined && atom.right.kind === 'value') return { name, equal: atom.op === '=' ? atom.right.value : undefined };
  }
  if (atom.kind === 'between' && top(atom.operand) !== undefined) return { name: top(atom.operand)!, equal: undefined };
  if (atom.kind === 'function' && atom.name === 'begins_with' && top(atom.args[0]) !== undefined) return { name: top(atom.args[0])!, equal: undefined };
  return undefined;
}

const joined = (list: readonly Condition[]): Condition | undefined => list.reduce<Condition | undefined>((all, c) => (all ? { kind: 'and', left: all, right: c } : c), undefined);

/** A SELECT as a Query (when its WHERE fixes the partition key) or a Scan: the operation and its input. */
export function compileSelect(statement: Extract<Statement, { kind: 'select' }>, key: PartiqlTable, consistent: unknown): { operation: 'Query' | 'Scan'; input: Input } {
  const aliases = new Aliases();
  const base: Input = { TableName: statement.table, ...(statement.index ? { IndexName: statement.index } : {}), ...(consistent === true ? { ConsistentRead: true } : {}) };
  const projection = statement.projection?.map((parts) => aliases.path(parts)).join(', ');
  const list = atoms(statement.where);
  const hash = list.find((atom) => keyOf(atom)?.name === key.hash && keyOf(atom)!.equal !== undefined);
  const range = key.range === undefined ? undefined : list.find((atom) => keyOf(atom)?.name === key.range);
  const rest = list.filter((atom) => atom !== hash && atom !== range);
  const restNamesKeys = rest.some((atom) => JSON.stringify(atom).includes(`"parts":[${JSON.stringify(key.hash)}`) || (key.range !== undefined && JSON.stringify(atom).includes(`"parts":[${JSON.stringify(key.range)}`)));
  if (hash && !restNamesKeys) {
    const keyCondition = aliases.condition(joined([hash, ...(range ? [range] : [])])!);
    const filter = joined(rest);
    return {
      operation: 'Query',
      input: { ...base, KeyConditionExpression: keyCondition, ...(filter ? { FilterExpression: aliases.condition(filter) } : {}), ...(projection ? { ProjectionExpression: projection } : {}), ...aliases.expressions() },
    };
  }
  return { operation: 'Scan', input: { ...base, ...(statement.where ? { FilterExpression: aliases.condition(statement.where) } : {}), ...(projection ? { ProjectionExpression: projection } : {}), ...aliases.expressions() } };
}

/** A SELECT's items as PartiQL answers them: a projected path under its last name. */
export function projectSelected(statement: Extract<Statement, { kind: 'select' }>, item: Record<string, unknown>): Record<string, unknown> {
  if (!statement.projection) return item;
  const out: Record<string, unknown> = {};
  for (const parts of statement.projection) {
    let value: unknown = item[parts[0] as string];
    for (const part of parts.slice(1)) value = typeof part === 'number' ? (value as { L?: unknown[] } | undefined)?.L?.[part] : (value as { M?: Record<string, unknown> } | undefined)?.M?.[part];
    const last = [...parts].reverse().find((p): p is string => typeof p === 'string')!;
    if (value !== undefined) out[last] = value;
  }
  return out;
}

/** The Key an UPDATE or DELETE names (equality on every key attribute), and its other conditions. */
export function keyAndCondition(where: Condition | undefined, key: PartiqlTable): { Key: Record<string, unknown>; rest: Condition[] } {
  const list = atoms(where);
  const Key: Record<string, unknown> = {};
  const used = new Set<Condition>();
  for (const name of [key.hash, ...(key.range === undefined ? [] : [key.range])]) {
    const atom = list.find((a) => keyOf(a)?.name === name && keyOf(a)!.equal !== undefined);
    if (!atom) throw validation('Where clause does not contain a mandatory equality on all key attributes');
    Key[name] = keyOf(atom)!.equal;
    used.add(atom);
  }
  return { Key, rest: list.filter((a) => !used.has(a)) };
}

/** INSERT, UPDATE or DELETE as the write request the engine answers (the shape of a TransactWriteItems action). */
export function compileWrite(statement: Exclude<Statement, { kind: 'select' }>, key: PartiqlTable): { kind: 'Put' | 'Update' | 'Delete'; input: Input } {
  const aliases = new Aliases();
  if (statement.kind === 'insert') {
    return { kind: 'Put', input: { TableName: statement.table, Item: statement.item, ConditionExpression: `attribute_not_exists(${aliases.path([key.hash])})`, ...aliases.expressions() } };
  }
  const { Key, rest } = keyAndCondition(statement.where, key);
  if (statement.kind === 'delete') {
    const condition = joined(rest);
    return { kind: 'Delete', input: { TableName: statement.table, Key, ...(condition ? { ConditionExpression: aliases.condition(condition) } : {}), ...aliases.expressions() } };
  }
  const sections = [
    ...(statement.set.length ? [`SET ${statement.set.map(({ path, value }) => `${aliases.path(path)} = ${aliases.operand(value)}`).join(', ')}`] : []),
    ...(statement.remove.length ? [`REMOVE ${statement.remove.map((path) => aliases.path(path)).join(', ')}`] : []),
  ];
  const condition = [`attribute_exists(${aliases.path([key.hash])})`, ...rest.map((c) => `(${aliases.condition(c)})`)].join(' AND ');
  return { kind: 'Update', input: { TableName: statement.table, Key, UpdateExpression: sections.join(' '), ConditionExpression: condition, ...aliases.expressions() } };
}

/** An INSERT's failed condition is a duplicate key, as PartiQL names it. */
export function duplicateItem(): RequestError {
  return new RequestError('DuplicateItemException', 'Duplicate primary key exists in table');
}
