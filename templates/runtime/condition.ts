// Typed write conditions, rendered with every name and value aliased. A condition is an object of
// attribute comparisons, combined with `$and`, `$or` and `$not`:
//   { status: { eq: 'ACTIVE' }, views: { lt: 100 }, $or: [{ bio: { exists: false } }, { bio: { beginsWith: 'x' } }] }

import { ValidationError } from './errors.js';
import { ExpressionAliases } from './expression.js';
import { toStored, type AttributeCodecs } from './item.js';

export interface Comparison<T> {
  readonly eq?: T;
  readonly ne?: T;
  readonly lt?: T;
  readonly lte?: T;
  readonly gt?: T;
  readonly gte?: T;
  readonly between?: readonly [T, T];
  /** At most 100 values (DynamoDB's limit for IN). */
  readonly in?: readonly T[];
  /** true: attribute_exists; false: attribute_not_exists. */
  readonly exists?: boolean;
  readonly beginsWith?: T extends string ? string : never;
  readonly contains?: T extends string ? string : T extends ReadonlySet<infer E> ? E : T extends readonly (infer E)[] ? E : never;
}

export type Condition<Item> = { readonly [K in keyof Item]?: Comparison<Exclude<Item[K], undefined>> } & {
  readonly $and?: readonly Condition<Item>[];
  readonly $or?: readonly Condition<Item>[];
  readonly $not?: Condition<Item>;
};

const SYMBOL: Record<string, string> = { eq: '=', ne: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' };

/** A rendered condition and its top operator, so it is parenthesised only where precedence needs it (DynamoDB rejects redundant parentheses). */
export interface RenderedCondition {
  readonly text: string;
  readonly kind: 'atom' | 'and' | 'or' | 'not';
}

/** Joins conditions with AND, parenthesising OR groups. */
export function andAll(parts: readonly RenderedCondition[]): RenderedCondition {
  if (parts.length === 1) return parts[0]!;
  return { text: parts.map((p) => (p.kind === 'or' ? `(${p.text})` : p.text)).join(' AND '), kind: 'and' };
}

/**
 * Renders a condition; throws ValidationError for an empty comparison, an unknown comparison or
 * more than 100 IN values. `check` vets each attribute name the condition compares.
 */
export function renderCondition(
  entity: string,
  codecs: AttributeCodecs,
  condition: Condition<Record<string, unknown>>,
  aliases: ExpressionAliases,
  check: (attribute: string) => void = () => {},
): RenderedCondition {
  const stored = (attribute: string, value: unknown) => toStored(entity, codecs, { [attribute]: value })[attribute];
  const parts: RenderedCondition[] = [];
  const atom = (text: string) => parts.push({ text, kind: 'atom' });
  for (const [key, spec] of Object.entries(condition)) {
    if (spec === undefined) continue;
    if (key === '$and' || key === '$or') {
      const list = (spec as Condition<Record<string, unknown>>[]).map((c) => renderCondition(entity, codecs, c, aliases, check));
      if (list.length === 0) throw new ValidationError(entity, key, 'needs at least one condition');
      if (key === '$and') parts.push(andAll(list));
      else parts.push(list.length === 1 ? list[0]! : { text: list.map((p) => p.text).join(' OR '), kind: 'or' });
      continue;
    }
    if (key === '$not') {
      const inner = renderCondition(entity, codecs, spec as Condition<Record<string, unknown>>, aliases, check);
      parts.push({ text: `NOT ${inner.kind === 'atom' ? inner.text : `(${inner.text})`}`, kind: 'not' });
      continue;
    }
    check(key);
    const n = aliases.name(key);
    const comparisons = Object.entries(spec as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (comparisons.length === 0) throw new ValidationError(entity, key, 'the condition compares nothing');
    for (const [op, value] of comparisons) {
      if (Object.prototype.hasOwnProperty.call(SYMBOL, op)) atom(`${n} ${SYMBOL[op]} ${aliases.value(stored(key, value))}`);
      else if (op === 'between') {
        const [low, high] = value as [unknown, unknown];
        atom(`${n} BETWEEN ${aliases.value(stored(key, low))} AND ${aliases.value(stored(key, high))}`);
      } else if (op === 'in') {
        const values = value as unknown[];
        if (values.length === 0 || values.length > 100) throw new ValidationError(entity, key, `IN takes 1 to 100 values, got ${values.length}`);
        atom(`${n} IN (${values.map((v) => aliases.value(stored(key, v))).join(', ')})`);
      } else if (op === 'exists') atom(value ? `attribute_exists(${n})` : `attribute_not_exists(${n})`);
      else if (op === 'beginsWith') atom(`begins_with(${n}, ${aliases.value(value)})`);
      else if (op === 'contains') atom(`contains(${n}, ${aliases.value(value)})`);
      else throw new ValidationError(entity, key, `unknown comparison "${op}"`);
    }
  }
  if (parts.length === 0) throw new ValidationError(entity, '(condition)', 'the condition is empty');
  return andAll(parts);
}
