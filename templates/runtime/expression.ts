// Expression building with every attribute name and value aliased (#n0, :v0): no user value or
// attribute name is ever concatenated into an expression string, so reserved words and injection
// are not a concern.

import { ValueError } from './errors.js';

export class ExpressionAliases {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly nameIds = new Map<string, string>();
  private valueCount = 0;

  /** The alias of an attribute name; the same name always gets the same alias. */
  name(attribute: string): string {
    let alias = this.nameIds.get(attribute);
    if (alias === undefined) {
      alias = `#n${this.nameIds.size}`;
      this.nameIds.set(attribute, alias);
      this.names[alias] = attribute;
    }
    return alias;
  }

  /** A fresh alias for a value. */
  value(value: unknown): string {
    const alias = `:v${this.valueCount++}`;
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
  readonly add?: Readonly<Record<string, unknown>>;
  readonly append?: Readonly<Record<string, readonly unknown[]>>;
}

/** Renders an UpdateExpression. Throws `ValueError` when there is nothing to change. */
export function updateExpression(entity: string, changes: UpdateChanges, aliases: ExpressionAliases): string {
  const sets: string[] = [];
  for (const [attribute, value] of Object.entries(changes.set ?? {})) {
    if (value === undefined) continue;
    sets.push(`${aliases.name(attribute)} = ${aliases.value(value)}`);
  }
  for (const [attribute, items] of Object.entries(changes.append ?? {})) {
    const n = aliases.name(attribute);
    sets.push(`${n} = list_append(if_not_exists(${n}, ${aliases.value([])}), ${aliases.value(items)})`);
  }
  const removes = (changes.remove ?? []).map((attribute) => aliases.name(attribute));
  const adds: string[] = [];
  for (const [attribute, value] of Object.entries(changes.add ?? {})) {
    if (value === undefined) continue;
    adds.push(`${aliases.name(attribute)} ${aliases.value(value)}`);
  }
  const clauses: string[] = [];
  if (sets.length) clauses.push(`SET ${sets.join(', ')}`);
  if (removes.length) clauses.push(`REMOVE ${removes.join(', ')}`);
  if (adds.length) clauses.push(`ADD ${adds.join(', ')}`);
  if (clauses.length === 0) throw new ValueError(entity, '(update)', 'nothing to update: give at least one of set, remove, add, append');
  const touched = new Set<string>();
  for (const attribute of [
    ...Object.keys(changes.set ?? {}),
    ...Object.keys(changes.append ?? {}),
    ...(changes.remove ?? []),
    ...Object.keys(changes.add ?? {}),
  ]) {
    if (touched.has(attribute)) throw new ValueError(entity, attribute, 'an attribute may appear in only one of set, remove, add, append');
    touched.add(attribute);
  }
  return clauses.join(' ');
}
