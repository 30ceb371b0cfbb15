// Expression building with every attribute name and value aliased (#n0, :v0): no user value or
// attribute name is ever concatenated into an expression string, so reserved words and injection
// are not a concern.

import { utf8ByteLength } from './codec.js';
import { ValidationError } from './errors.js';

/** `#n0`…`#n15` and `:v0`…`:v15`, built once: most expressions need no more. */
const NAME_ALIASES = Array.from({ length: 16 }, (_, i) => `#n${i}`);
const VALUE_ALIASES = Array.from({ length: 16 }, (_, i) => `:v${i}`);

export class ExpressionAliases {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly nameIds = new Map<string, string>();
  private valueCount = 0;
  /** Attributes the table holds under other names (`EntityModel.storedNames`): an alias stands for the stored name. */
  private readonly stored: Readonly<Record<string, string>> | undefined;

  constructor(stored?: Readonly<Record<string, string>>) {
    this.stored = stored;
  }

  /** The alias of an attribute name (standing for its stored name); the same name always gets the same alias. */
  name(attribute: string): string {
    let alias = this.nameIds.get(attribute);
    if (alias === undefined) {
      const n = this.nameIds.size;
      alias = NAME_ALIASES[n] ?? `#n${n}`;
      this.nameIds.set(attribute, alias);
      this.names[alias] = this.stored !== undefined && Object.prototype.hasOwnProperty.call(this.stored, attribute) ? this.stored[attribute]! : attribute;
    }
    return alias;
  }

  /** A fresh alias for a value. */
  value(value: unknown): string {
    const n = this.valueCount++;
    const alias = VALUE_ALIASES[n] ?? `:v${n}`;
    this.values[alias] = value;
    return alias;
  }

  /** `ExpressionAttributeNames` / `ExpressionAttributeValues`, omitting empty maps (DynamoDB rejects them). */
  attributes(): { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> } {
    const out: { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> } = {};
    if (this.nameIds.size > 0) out.ExpressionAttributeNames = this.names;
    if (this.valueCount > 0) out.ExpressionAttributeValues = this.values;
    return out;
  }
}

/** The typed changes accepted by a generated `update`. Values are already in stored form. */
export interface UpdateChanges {
  readonly set?: Readonly<Record<string, unknown>>;
  readonly remove?: readonly string[];
  /** Numbers are added to (a missing number counts as 0); sets gain the elements. */
  readonly add?: Readonly<Record<string, unknown>>;
  /** Sets lose the elements. */
  readonly delete?: Readonly<Record<string, unknown>>;
  readonly append?: Readonly<Record<string, readonly unknown[]>>;
  readonly prepend?: Readonly<Record<string, readonly unknown[]>>;
  /** Set only where the attribute is absent. */
  readonly setIfNotExists?: Readonly<Record<string, unknown>>;
}

/** Every attribute an update names, in any clause (an attribute may appear in only one). */
export function changedAttributes(changes: UpdateChanges): string[] {
  const named = (record: object | undefined) => Object.keys(record ?? {});
  return [...named(changes.set), ...named(changes.setIfNotExists), ...named(changes.append), ...named(changes.prepend), ...(changes.remove ?? []), ...named(changes.add), ...named(changes.delete)];
}

/** Renders an UpdateExpression. Throws `ValidationError` when there is nothing to change. */
export function updateExpression(entity: string, changes: UpdateChanges, aliases: ExpressionAliases): string {
  const sets: string[] = [];
  for (const [attribute, value] of Object.entries(changes.set ?? {})) {
    if (value === undefined) continue;
    sets.push(`${aliases.name(attribute)} = ${aliases.value(value)}`);
  }
  for (const [attribute, value] of Object.entries(changes.setIfNotExists ?? {})) {
    if (value === undefined) continue;
    const n = aliases.name(attribute);
    sets.push(`${n} = if_not_exists(${n}, ${aliases.value(value)})`);
  }
  for (const [attribute, items] of Object.entries(changes.append ?? {})) {
    const n = aliases.name(attribute);
    sets.push(`${n} = list_append(if_not_exists(${n}, ${aliases.value([])}), ${aliases.value(items)})`);
  }
  for (const [attribute, items] of Object.entries(changes.prepend ?? {})) {
    const n = aliases.name(attribute);
    sets.push(`${n} = list_append(${aliases.value(items)}, if_not_exists(${n}, ${aliases.value([])}))`);
  }
  const removes = (changes.remove ?? []).map((attribute) => aliases.name(attribute));
  const adds: string[] = [];
  for (const [attribute, value] of Object.entries(changes.add ?? {})) {
    if (value === undefined) continue;
    adds.push(`${aliases.name(attribute)} ${aliases.value(value)}`);
  }
  const deletes: string[] = [];
  for (const [attribute, value] of Object.entries(changes.delete ?? {})) {
    if (value === undefined) continue;
    deletes.push(`${aliases.name(attribute)} ${aliases.value(value)}`);
  }
  const clauses: string[] = [];
  if (sets.length) clauses.push(`SET ${sets.join(', ')}`);
  if (removes.length) clauses.push(`REMOVE ${removes.join(', ')}`);
  if (adds.length) clauses.push(`ADD ${adds.join(', ')}`);
  if (deletes.length) clauses.push(`DELETE ${deletes.join(', ')}`);
  if (clauses.length === 0) throw new ValidationError(entity, '(update)', 'nothing to update: give at least one of set, remove, add, delete, append, prepend, setIfNotExists');
  const touched = new Set<string>();
  for (const attribute of changedAttributes(changes)) {
    if (touched.has(attribute)) throw new ValidationError(entity, attribute, 'an attribute may appear in only one of set, remove, add, delete, append, prepend, setIfNotExists');
    touched.add(attribute);
  }
  return clauses.join(' ');
}

/** DynamoDB's limits on one expression: 4 KB of text and 300 operators or functions. */
export const EXPRESSION_LIMITS = { bytes: 4096, operators: 300 } as const;

const OPERATOR = /\b(?:AND|OR|NOT|BETWEEN|IN)\b|<>|<=|>=|[=<>]|\b[a-z_]+\(|\+|-(?=\s)/g;

/** Throws ValidationError when an expression is over DynamoDB's limits, before it is sent. */
export function checkExpression(entity: string, kind: string, expression: string): string {
  const bytes = utf8ByteLength(expression);
  if (bytes > EXPRESSION_LIMITS.bytes) throw new ValidationError(entity, `(${kind})`, `the expression is ${bytes} bytes, above DynamoDB's ${EXPRESSION_LIMITS.bytes}`, 'EXPRESSION_TOO_LARGE');
  const operators = expression.match(OPERATOR)?.length ?? 0;
  if (operators > EXPRESSION_LIMITS.operators) {
    throw new ValidationError(entity, `(${kind})`, `the expression has ${operators} operators or functions, above DynamoDB's ${EXPRESSION_LIMITS.operators}`, 'EXPRESSION_TOO_LARGE');
  }
  return expression;
}
