// Sort-key conditions over composite keys. A condition names a left-to-right prefix of the sort
// key's values; a partial prefix stands for the group of keys that begin with it (and its trailing
// delimiter), so `gt: { day }` skips the whole day and `lte: { day }` includes all of it. When the
// sort key starts with literal text (its collection, e.g. `Article.`), every range is bounded to
// that collection so other entities in the partition are never read. Comparisons follow DynamoDB's
// UTF-8 byte order of the encoded key: exact for numbers, timestamps and booleans.

import { KeyTemplate, utf8ByteLength } from './codec.js';
import { ExpressionAliases } from './expression.js';
import { KeyValueError } from './errors.js';

export type SortOperator = 'eq' | 'beginsWith' | 'between' | 'gt' | 'gte' | 'lt' | 'lte';

/** A sort-key condition as generated methods accept it; values are prefixes of the sort key. */
export type SortCondition<Full, Prefix> =
  | { readonly eq: Full }
  | { readonly beginsWith: Prefix }
  | { readonly between: readonly [Prefix, Prefix] }
  | { readonly gt: Prefix }
  | { readonly gte: Prefix }
  | { readonly lt: Prefix }
  | { readonly lte: Prefix };

/** A key condition in structured form: what DynamoDB evaluates, before aliasing. */
export type SortKeyTest =
  | { readonly op: '=' | '<' | '<=' | '>' | '>=' | 'begins_with'; readonly value: string }
  | { readonly op: 'between'; readonly low: string; readonly high: string };

export interface PlannedSortCondition {
  readonly test: SortKeyTest | undefined;
  /** Set when the key condition is inclusive but the operator is strict: exclude this exact key. */
  readonly exclude: string | undefined;
}

const MAX_CHAR = '\u{10FFFF}';
const MAX_BY_BYTES = ['', '\u007F', '\u07FF', '\uFFFF'] as const;

/**
 * The greatest valid string of at most `maxBytes` UTF-8 bytes that starts with `prefix`: every key
 * in the group `prefix…` sorts at or before it.
 */
export function groupEnd(prefix: string, maxBytes: number): string {
  const room = maxBytes - utf8ByteLength(prefix);
  if (room <= 0) return prefix;
  return prefix + MAX_CHAR.repeat(Math.floor(room / 4)) + MAX_BY_BYTES[room % 4];
}

/** The first string after every string that starts with `prefix` (prefix ends with the delimiter). */
function afterGroup(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

function operatorOf(condition: object): SortOperator {
  const keys = Object.keys(condition);
  if (keys.length !== 1) throw new TypeError(`a sort-key condition has exactly one operator, got ${keys.join(', ') || 'none'}`);
  const op = keys[0] as SortOperator;
  if (!['eq', 'beginsWith', 'between', 'gt', 'gte', 'lt', 'lte'].includes(op)) throw new TypeError(`unknown sort-key operator "${op}"`);
  return op;
}

/** Plans the sort-key part of a Query. `condition` undefined means the whole collection. */
export function planSortCondition(template: KeyTemplate, condition: object | undefined): PlannedSortCondition {
  const { maxBytes } = template.def;
  const collection = template.prefix({}).key; // '' when the sort key starts with a value
  const bounded = collection !== '';
  const whole: PlannedSortCondition = { test: bounded ? { op: 'begins_with', value: collection } : undefined, exclude: undefined };
  if (condition === undefined) return whole;
  const op = operatorOf(condition);
  const arg = (condition as Record<string, unknown>)[op];
  const prefixOf = (values: unknown) => template.prefix((values ?? {}) as Record<string, unknown>);
  const range = (low: string | undefined, high: string | undefined, exclude?: string): PlannedSortCondition => {
    const lo = low ?? (bounded ? collection : undefined);
    const hi = high ?? (bounded ? groupEnd(collection, maxBytes) : undefined);
    const test: SortKeyTest | undefined =
      lo !== undefined && hi !== undefined
        ? { op: 'between', low: lo, high: hi }
        : lo !== undefined
          ? { op: exclude === undefined ? '>=' : '>', value: lo }
          : hi !== undefined
            ? { op: exclude === undefined ? '<=' : '<', value: hi }
            : undefined;
    // Unbounded strict comparisons need no exclusion: the operator itself is strict.
    return { test, exclude: test?.op === 'between' ? exclude : undefined };
  };
  if (op === 'beginsWith') {
    const p = prefixOf(arg);
    if (p.complete) return { test: { op: '=', value: p.key }, exclude: undefined };
    return p.key === '' || p.key === collection ? whole : { test: { op: 'begins_with', value: p.key }, exclude: undefined };
  }
  if (op === 'between') {
    if (!Array.isArray(arg) || arg.length !== 2) throw new TypeError('between takes [low, high]');
    const low = givenPrefix(template, op, arg[0]);
    const high = givenPrefix(template, op, arg[1]);
    return { test: { op: 'between', low: low.key, high: high.complete ? high.key : groupEnd(high.key, maxBytes) }, exclude: undefined };
  }
  const p = op === 'eq' ? prefixOf(arg) : givenPrefix(template, op, arg);
  switch (op) {
    case 'eq':
      if (!p.complete) {
        throw new KeyValueError('KEY_PART_MISSING', { entity: template.def.entity, target: template.def.target, message: `eq needs every sort-key part: ${template.attributes.join(', ')}` });
      }
      return { test: { op: '=', value: p.key }, exclude: undefined };
    case 'gte':
      return range(p.key, undefined);
    case 'gt':
      return p.complete ? range(p.key, undefined, p.key) : range(afterGroup(p.key), undefined);
    case 'lte':
      return range(undefined, p.complete ? p.key : groupEnd(p.key, maxBytes));
    case 'lt':
      if (p.complete) return range(undefined, p.key, p.key);
      // The partial key ends with the delimiter, so it is no item's key: an inclusive bound is exact.
      return bounded ? range(undefined, p.key) : { test: { op: '<', value: p.key }, exclude: undefined };
  }
}

/** The prefix for a range operator, which needs at least the first sort-key value. */
function givenPrefix(template: KeyTemplate, op: SortOperator, values: unknown) {
  const p = template.prefix((values ?? {}) as Record<string, unknown>);
  if (p.given === 0 && template.attributes.length > 0) {
    throw new KeyValueError('KEY_PART_MISSING', {
      entity: template.def.entity,
      target: template.def.target,
      attribute: template.attributes[0]!,
      message: `${op} needs at least "${template.attributes[0]}", the first sort-key part`,
    });
  }
  return p;
}

/** Renders a planned condition to expression text, aliasing the attribute and every value. */
export function renderSortCondition(
  attribute: string,
  planned: PlannedSortCondition,
  aliases: ExpressionAliases,
): { keyCondition: string | undefined; filter: string | undefined } {
  const { test, exclude } = planned;
  let keyCondition: string | undefined;
  if (test) {
    const n = aliases.name(attribute);
    if (test.op === 'between') keyCondition = `${n} BETWEEN ${aliases.value(test.low)} AND ${aliases.value(test.high)}`;
    else if (test.op === 'begins_with') keyCondition = `begins_with(${n}, ${aliases.value(test.value)})`;
    else keyCondition = `${n} ${test.op} ${aliases.value(test.value)}`;
  }
  const filter = exclude === undefined ? undefined : `${aliases.name(attribute)} <> ${aliases.value(exclude)}`;
  return { keyCondition, filter };
}
