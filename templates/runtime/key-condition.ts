// Sort-key conditions over composite keys. A condition names a left-to-right prefix of the sort
// key's values; a partial prefix stands for the group of keys that begin with it (and its trailing
// delimiter), so `gt: { day }` skips the whole day and `lte: { day }` includes all of it. When the
// sort key starts with literal text (its collection, e.g. `Article.`), every range is bounded to
// that collection so other entities in the partition are never read. Comparisons follow DynamoDB's
// UTF-8 byte order of the encoded key: exact for numbers, timestamps and booleans. Strict operators
// become inclusive bounds just beside the key (keys never contain U+0000, see escapeSegment), since
// DynamoDB allows one key condition per attribute and no key attribute in a filter.

import { compareUtf8, isWellFormed, keyAttributes, keyLeadingText, keyPrefix, keySortsAsText, keyTextOf, utf8ByteLength, type KeyCodec } from './codec.js';
import { ExpressionAliases } from './expression.js';
import { KeyValueError } from './errors.js';

export type SortOperator = 'eq' | 'beginsWith' | 'between' | 'gt' | 'gte' | 'lt' | 'lte';

/**
 * Every sort-key operator but one, absent. Generated code spells an access path's sort condition
 * out as `(OnlyGte & { readonly gte: Prefix }) | …`, which means `SortCondition<Prefix>` with nothing
 * for the type checker to instantiate, per entity or once.
 */
export interface OnlyEq {
  readonly beginsWith?: never;
  readonly between?: never;
  readonly gt?: never;
  readonly gte?: never;
  readonly lt?: never;
  readonly lte?: never;
}
export interface OnlyBeginsWith {
  readonly eq?: never;
  readonly between?: never;
  readonly gt?: never;
  readonly gte?: never;
  readonly lt?: never;
  readonly lte?: never;
}
export interface OnlyBetween {
  readonly eq?: never;
  readonly beginsWith?: never;
  readonly gt?: never;
  readonly gte?: never;
  readonly lt?: never;
  readonly lte?: never;
}
export interface OnlyGt {
  readonly eq?: never;
  readonly beginsWith?: never;
  readonly between?: never;
  readonly gte?: never;
  readonly lt?: never;
  readonly lte?: never;
}
export interface OnlyGte {
  readonly eq?: never;
  readonly beginsWith?: never;
  readonly between?: never;
  readonly gt?: never;
  readonly lt?: never;
  readonly lte?: never;
}
export interface OnlyLt {
  readonly eq?: never;
  readonly beginsWith?: never;
  readonly between?: never;
  readonly gt?: never;
  readonly gte?: never;
  readonly lte?: never;
}
export interface OnlyLte {
  readonly eq?: never;
  readonly beginsWith?: never;
  readonly between?: never;
  readonly gt?: never;
  readonly gte?: never;
  readonly lt?: never;
}

/**
 * A sort-key condition as generated methods accept it: exactly one operator, on a left-to-right
 * prefix of the sort key's parts. `eq` matches whole parts: a prefix stands for every key with
 * exactly those leading parts (`{ userId: '1' }` never matches `'12'`). `beginsWith` is a text
 * prefix on its last part, which must be a string part (`{ name: 'z' }` matches `'zoo'`): exactly
 * DynamoDB's `begins_with` on the encoded text.
 */
export type SortCondition<Prefix, TextPrefix = never> =
  | (OnlyEq & { readonly eq: Prefix })
  | (OnlyBeginsWith & { readonly beginsWith: TextPrefix })
  | (OnlyBetween & { readonly between: readonly [Prefix, Prefix] })
  | (OnlyGt & { readonly gt: Prefix })
  | (OnlyGte & { readonly gte: Prefix })
  | (OnlyLt & { readonly lt: Prefix })
  | (OnlyLte & { readonly lte: Prefix });

/** A key condition in structured form: what DynamoDB evaluates, before aliasing. */
export type SortKeyTest =
  | { readonly op: '=' | '<' | '<=' | '>' | '>=' | 'begins_with'; readonly value: string }
  | { readonly op: 'between'; readonly low: string; readonly high: string };

/** What to send; undefined when the whole partition is read. */
export type PlannedSortCondition = SortKeyTest | undefined;

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

/** Splits off the last code point. */
function lastCodePoint(key: string): [string, number] {
  const code = key.codePointAt(key.length - 1)!;
  const isLow = code >= 0xdc00 && code <= 0xdfff && key.length > 1;
  const full = isLow ? key.codePointAt(key.length - 2)! : code;
  return [key.slice(0, key.length - (full > 0xffff ? 2 : 1)), full];
}

/**
 * The least string greater than `key` that a key can be: `key` + U+0001 (no key contains U+0000),
 * or, when that would exceed `maxBytes`, `key` with its last code point incremented.
 */
export function keyAfter(key: string, maxBytes: number): string {
  if (utf8ByteLength(key) < maxBytes) return key + '\u0001';
  let [rest, code] = lastCodePoint(key);
  while (code === 0x10ffff && rest !== '') [rest, code] = lastCodePoint(rest);
  const next = code + 1 === 0xd800 ? 0xe000 : code + 1;
  return rest + String.fromCodePoint(next);
}

/** The greatest string below `key` (within `maxBytes`), or undefined when nothing is below it. */
export function keyBefore(key: string, maxBytes: number): string | undefined {
  if (key === '') return undefined;
  const [rest, code] = lastCodePoint(key);
  // No key contains U+0000, so nothing lies between `rest` and `rest` + U+0001.
  if (code <= 1) return rest;
  const previous = code - 1 === 0xdfff ? 0xd7ff : code - 1;
  return groupEnd(rest + String.fromCodePoint(previous), maxBytes);
}

function operatorOf(condition: object): SortOperator {
  const keys = Object.keys(condition);
  if (keys.length !== 1) throw new TypeError(`a sort-key condition has exactly one operator, got ${keys.join(', ') || 'none'}`);
  const op = keys[0] as SortOperator;
  if (!['eq', 'beginsWith', 'between', 'gt', 'gte', 'lt', 'lte'].includes(op)) throw new TypeError(`unknown sort-key operator "${op}"`);
  return op;
}

/** Plans the sort-key part of a Query. `condition` undefined means the whole collection. */
export function planSortCondition(template: KeyCodec, condition: object | undefined): PlannedSortCondition {
  const { maxBytes } = template.def;
  const collection = keyLeadingText(template); // '' when the sort key starts with a value
  const bounded = collection !== '';
  const whole: PlannedSortCondition = bounded ? { op: 'begins_with', value: collection } : undefined;
  if (condition === undefined) return whole;
  const op = operatorOf(condition);
  const arg = (condition as Record<string, unknown>)[op];
  /** Keys from `low` to `high` inclusive, each defaulting to the collection's edge. */
  const range = (low: string | undefined, high: string | undefined): PlannedSortCondition => {
    const lo = low ?? (bounded ? collection : undefined);
    const hi = high ?? (bounded ? groupEnd(collection, maxBytes) : undefined);
    if (lo !== undefined && hi !== undefined) return { op: 'between', low: lo, high: hi };
    if (lo !== undefined) return { op: '>=', value: lo };
    return hi !== undefined ? { op: '<=', value: hi } : undefined;
  };
  if (op === 'beginsWith') return textPrefix(template, (arg ?? {}) as Record<string, unknown>) ?? whole;
  if (op === 'between') {
    if (!Array.isArray(arg) || arg.length !== 2) throw new TypeError('between takes [low, high]');
    const low = givenPrefix(template, op, arg[0]);
    const high = givenPrefix(template, op, arg[1]);
    return { op: 'between', low: low.key, high: high.complete ? high.key : groupEnd(high.key, maxBytes) };
  }
  const p = givenPrefix(template, op, arg);
  if (op === 'eq') return p.complete ? { op: '=', value: p.key } : { op: 'begins_with', value: p.key };
  switch (op) {
    case 'gte':
      return range(p.key, undefined);
    case 'gt':
      if (!bounded) return p.complete ? { op: '>', value: p.key } : { op: '>=', value: afterGroup(p.key) };
      return range(p.complete ? keyAfter(p.key, maxBytes) : afterGroup(p.key), undefined);
    case 'lte':
      return range(undefined, p.complete ? p.key : groupEnd(p.key, maxBytes));
    case 'lt':
      // A partial key ends with the delimiter, so it is no item's key: an inclusive bound is exact.
      if (!bounded) return { op: '<', value: p.key };
      return range(undefined, p.complete ? keyBefore(p.key, maxBytes) : p.key);
  }
}

/**
 * `beginsWith`: the leading parts before the last one given match whole, the last one given must
 * be a string part and matches as text — its escaped value with no delimiter after it, so
 * `{ name: 'z' }` matches `z`, `zoo` and `z.a` (stored `z\\.a`). Undefined when that selects the
 * whole sort key (an empty text on its first part).
 */
function textPrefix(template: KeyCodec, values: Readonly<Record<string, unknown>>): PlannedSortCondition {
  const { entity, target } = template.def;
  const attributes = keyAttributes(template);
  const given = attributes.findIndex((name) => values[name] === undefined);
  const count = given === -1 ? attributes.length : given;
  if (count === 0) {
    throw new KeyValueError('KEY_PART_MISSING', { entity, target, ...(attributes[0] ? { attribute: attributes[0] } : {}), message: `beginsWith needs at least "${attributes[0]}", the first sort-key part` });
  }
  const last = attributes[count - 1]!;
  const segment = template.def.segments.find((s) => s.kind !== 'literal' && s.attr === last)!;
  const text = values[last];
  if (segment.kind !== 'string') {
    throw new KeyValueError('KEY_PART_TYPE', { entity, target, attribute: last, message: `beginsWith matches text at the start of a string part, and "${last}" is ${segment.kind === 'integer' ? 'an integer' : `a ${segment.kind}`}: use eq to match whole parts` });
  }
  if (typeof text !== 'string' || !isWellFormed(text)) {
    throw new KeyValueError('KEY_PART_TYPE', { entity, target, attribute: last, message: `beginsWith on "${last}" takes a well-formed string, got ${typeof text}` });
  }
  const { [last]: _, ...before } = values;
  const value = keyPrefix(template, before).key + keyTextOf(template, last, text);
  return value === '' ? undefined : { op: 'begins_with', value };
}

/** The prefix for a range operator or eq, which need at least the first sort-key value; a range refuses parts that sort as text. */
function givenPrefix(template: KeyCodec, op: SortOperator, values: unknown) {
  const given = (values ?? {}) as Record<string, unknown>;
  if (op !== 'eq') {
    const text = keyAttributes(template).find((name) => given[name] !== undefined && keySortsAsText(template, name));
    if (text !== undefined) {
      throw new KeyValueError('KEY_PART_TYPE', {
        entity: template.def.entity,
        target: template.def.target,
        attribute: text,
        message: `${op} compares keys in order, and "${text}" is an integer written without padding (keyFormat 'plain', the table's or the attribute's), which sorts as text (10 before 9): use eq, or filter the items yourself`,
      });
    }
  }
  const p = keyPrefix(template, given);
  if (p.given === 0 && keyAttributes(template).length > 0) {
    throw new KeyValueError('KEY_PART_MISSING', {
      entity: template.def.entity,
      target: template.def.target,
      attribute: keyAttributes(template)[0]!,
      message: `${op} needs at least "${keyAttributes(template)[0]}", the first sort-key part`,
    });
  }
  return p;
}

/** Whether a sort-key value meets a planned condition, in DynamoDB's order (UTF-8 bytes). */
export function meetsSortCondition(test: PlannedSortCondition, value: string): boolean {
  if (!test) return true;
  if (test.op === 'between') return compareUtf8(value, test.low) >= 0 && compareUtf8(value, test.high) <= 0;
  if (test.op === 'begins_with') return value.startsWith(test.value);
  const c = compareUtf8(value, test.value);
  return test.op === '=' ? c === 0 : test.op === '<' ? c < 0 : test.op === '<=' ? c <= 0 : test.op === '>' ? c > 0 : c >= 0;
}

/** Renders a planned condition to key-condition text, aliasing the attribute and every value. */
export function renderSortCondition(attribute: string, test: PlannedSortCondition, aliases: ExpressionAliases): string | undefined {
  if (!test) return undefined;
  const n = aliases.name(attribute);
  if (test.op === 'between') return `${n} BETWEEN ${aliases.value(test.low)} AND ${aliases.value(test.high)}`;
  if (test.op === 'begins_with') return `begins_with(${n}, ${aliases.value(test.value)})`;
  return `${n} ${test.op} ${aliases.value(test.value)}`;
}
