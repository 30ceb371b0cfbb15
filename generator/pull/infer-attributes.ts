// Attribute inference for `ddbgen pull`: each attribute's type from the values the sample holds
// (strings, ISO timestamps in their stored form, integers, epoch timestamps, booleans, sets, lists,
// maps), whether every item has it, and how many do. What no DSL type describes (mixed types, nulls,
// maps keyed by data) is left to `passthrough`, with the reason.

/** An inferred attribute type, as the DSL declares it (`t.…` source) and as pull reasons about it. */
export type InferredType =
  | { readonly kind: 'string' }
  | { readonly kind: 'number'; readonly integer: boolean; readonly min?: number; readonly max?: number; readonly keyFormat?: 'padded' | 'plain' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'timestamp'; readonly format?: 'iso-seconds' | 'date' | 'epoch-seconds' | 'epoch-milliseconds' }
  | { readonly kind: 'stringSet' }
  | { readonly kind: 'numberSet' }
  | { readonly kind: 'binary' }
  | { readonly kind: 'list'; readonly of: InferredType }
  | { readonly kind: 'map'; readonly fields: Readonly<Record<string, InferredField>> };

export interface InferredField {
  readonly type: InferredType;
  readonly optional: boolean;
}

/** An attribute that no DSL type describes, and why. */
export interface Undescribed {
  readonly reason: string;
}

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ISO_S = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const DATE = /^\d{4}-\d\d-\d\d$/;
/** Names timestamps go by: an epoch number under such a name is read as an instant. */
const TIME_NAME = /(at|time|date|ts|created|updated|modified|expires?|ttl|_ct|_md|timestamp|since|until|born|when)$/i;
const EPOCH_SECONDS = { min: 1e9, max: 1e10 - 1 };
const EPOCH_MILLISECONDS = { min: 1e12, max: 1e13 - 1 };
/** A map with more keys than this across the sample is a dictionary keyed by data, not a record. */
const MAX_MAP_FIELDS = 40;

const validDate = (text: string) => !Number.isNaN(new Date(text.length === 10 ? `${text}T00:00:00Z` : text).getTime());

/** The type of the values one attribute (or field, or list element) holds; undefined values are skipped. */
export function inferType(name: string, values: readonly unknown[], ttl = false): InferredType | Undescribed {
  const present = values.filter((v) => v !== undefined);
  if (present.some((v) => v === null)) return { reason: 'it holds null, which no DSL type stores' };
  if (present.length === 0) return { reason: 'no value to infer a type from' };
  const kinds = new Set(present.map((v) => (v instanceof Set ? 'set' : v instanceof Uint8Array ? 'binary' : Array.isArray(v) ? 'list' : typeof v)));
  if (kinds.size > 1) return { reason: `it holds values of several types (${[...kinds].join(', ')})` };
  const kind = [...kinds][0]!;
  switch (kind) {
    case 'string': {
      const texts = present as string[];
      if (texts.every((t) => ISO_MS.test(t) && validDate(t))) return { kind: 'timestamp' };
      if (texts.every((t) => ISO_S.test(t) && validDate(t))) return { kind: 'timestamp', format: 'iso-seconds' };
      if (texts.every((t) => DATE.test(t) && validDate(t))) return { kind: 'timestamp', format: 'date' };
      return { kind: 'string' };
    }
    case 'number': {
      const numbers = present as number[];
      const integer = numbers.every((n) => Number.isSafeInteger(n));
      const within = (range: { min: number; max: number }) => numbers.every((n) => n >= range.min && n <= range.max);
      if (ttl && integer) return { kind: 'timestamp' };
      if (integer && TIME_NAME.test(name) && within(EPOCH_SECONDS)) return { kind: 'timestamp', format: 'epoch-seconds' };
      if (integer && TIME_NAME.test(name) && within(EPOCH_MILLISECONDS)) return { kind: 'timestamp', format: 'epoch-milliseconds' };
      return { kind: 'number', integer };
    }
    case 'boolean':
      return { kind: 'boolean' };
    case 'binary':
      return { kind: 'binary' };
    case 'set': {
      const members = (present as Array<Set<unknown>>).flatMap((s) => [...s]);
      if (members.every((m) => typeof m === 'string')) return { kind: 'stringSet' };
      if (members.every((m) => typeof m === 'number')) return { kind: 'numberSet' };
      return { reason: 'it is a set of binary values, which no DSL type stores' };
    }
    case 'list': {
      const elements = (present as unknown[][]).flat();
      if (elements.length === 0) return { reason: 'its lists are all empty, so their element type is unknown' };
      const of = inferType(name, elements);
      return 'reason' in of ? { reason: `its list elements: ${of.reason}` } : { kind: 'list', of };
    }
    case 'object': {
      const maps = present as Array<Record<string, unknown>>;
      const fields = [...new Set(maps.flatMap((m) => Object.keys(m)))];
      if (fields.length > MAX_MAP_FIELDS) return { reason: `its maps have ${fields.length} different keys: a dictionary keyed by data, not a record` };
      if (fields.some((f) => !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(f) || ['__proto__', 'constructor', 'prototype'].includes(f))) return { reason: 'its maps have keys that are not identifiers' };
      const out: Record<string, InferredField> = {};
      for (const field of fields) {
        const type = inferType(field, maps.map((m) => m[field]));
        if ('reason' in type) return { reason: `field ${field}: ${type.reason}` };
        out[field] = { type, optional: maps.some((m) => m[field] === undefined) };
      }
      return { kind: 'map', fields: out };
    }
    default:
      return { reason: `it holds ${kind} values` };
  }
}

/** How clear a majority must be before the others are outliers: at least this share of the values. */
export const DOMINANT_SHARE = 0.8;
/** Whether `count` of `of` values is a clear majority (never a tie, never below two thirds of a tiny sample). */
export const dominant = (count: number, of: number) => of > 0 && count < of && count >= 2 && count >= DOMINANT_SHARE * of;

/** What one value is, for the majority vote: its JavaScript kind, and for strings the stored timestamp form. */
function valueClass(v: unknown): string {
  if (v === null) return 'null';
  if (v instanceof Set) return 'set';
  if (v instanceof Uint8Array) return 'binary';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'map' : typeof v;
}

const describeValue = (v: unknown): string => {
  const kind = valueClass(v);
  if (kind === 'string' || kind === 'number' || kind === 'boolean') {
    const text = JSON.stringify(v);
    return `a ${kind} (${text.length > 40 ? `${text.slice(0, 37)}…` : text})`;
  }
  return kind === 'null' ? 'null' : `a ${kind}`;
};

const STRING_FORMS: ReadonlyArray<{ readonly test: (t: string) => boolean; readonly type: InferredType; readonly what: string }> = [
  { test: (t) => ISO_MS.test(t) && validDate(t), type: { kind: 'timestamp' }, what: 'an ISO timestamp with milliseconds' },
  { test: (t) => ISO_S.test(t) && validDate(t), type: { kind: 'timestamp', format: 'iso-seconds' }, what: 'an ISO timestamp' },
  { test: (t) => DATE.test(t) && validDate(t), type: { kind: 'timestamp', format: 'date' }, what: 'a date' },
];

/** An outlier of a type inferred by majority: the value's position and why it does not fit. */
export interface TypeOutlier {
  readonly index: number;
  readonly reason: string;
}

/**
 * The type of one attribute over a sample, tolerant of a few odd values: when one kind of value (or
 * one stored timestamp form) holds a clear majority, the type is that kind's, and the other values are
 * outliers, each with the reason. Without a clear majority it is what inferType says.
 */
export function inferTypeByMajority(name: string, values: readonly unknown[], ttl = false, owner = 'items'): { type: InferredType; outliers: TypeOutlier[] } | Undescribed {
  const strict = inferType(name, values, ttl);
  const presentAt = values.flatMap((v, i) => (v === undefined ? [] : [i]));
  const n = presentAt.length;
  const byKind = new Map<string, number[]>();
  for (const i of presentAt) byKind.set(valueClass(values[i]), [...(byKind.get(valueClass(values[i])) ?? []), i]);
  const [topKind, topAt] = [...byKind].sort((a, b) => b[1].length - a[1].length)[0] ?? ['', []];
  if ('reason' in strict) {
    if (!dominant(topAt.length, n)) return strict;
    const top = new Set(topAt);
    const majority = values.map((v, i) => (top.has(i) ? v : undefined));
    const type = inferTypeByMajority(name, majority, ttl, owner);
    if ('reason' in type) return strict;
    const outliers = presentAt.filter((i) => !top.has(i)).map((i) => ({ index: i, reason: `${name} is ${describeValue(values[i])}, where ${count(topAt.length)} of ${count(n)} ${owner} hold ${topKind === 'null' ? 'null' : `a ${topKind}`}` }));
    return { type: type.type, outliers: [...type.outliers, ...outliers] };
  }
  // strings mostly in one timestamp form: a timestamp, the others outliers
  if (strict.kind === 'string') {
    for (const form of STRING_FORMS) {
      const fits = new Set(presentAt.filter((i) => form.test(values[i] as string)));
      if (dominant(fits.size, n)) {
        return { type: form.type, outliers: presentAt.filter((i) => !fits.has(i)).map((i) => ({ index: i, reason: `${name} is ${describeValue(values[i])}, where ${count(fits.size)} of ${count(n)} ${owner} hold ${form.what}` })) };
      }
    }
  }
  return { type: strict, outliers: [] };
}

const count = (n: number) => n.toLocaleString('en-US');

/** A type on one line, for reports: `t.list(t.map({ sku: t.string(), qty: t.number({ integer: true }) }))`. */
export function typeText(type: InferredType): string {
  if (type.kind === 'list') return `t.list(${typeText(type.of)})`;
  if (type.kind === 'map') return Object.keys(type.fields).length === 0 ? 't.map({})' : `t.map({ ${Object.entries(type.fields).map(([name, f]) => `${name}: ${typeText(f.type)}${f.optional ? '.optional()' : ''}`).join(', ')} })`;
  return typeSource(type);
}

/** The DSL source of a type: `t.string()`, `t.timestamp({ format: 'date' })`, `t.map({ … })`. */
export function typeSource(type: InferredType, indent = ''): string {
  switch (type.kind) {
    case 'string':
    case 'boolean':
    case 'stringSet':
    case 'numberSet':
    case 'binary':
      return `t.${type.kind}()`;
    case 'number': {
      const options = [type.integer ? 'integer: true' : '', type.min !== undefined ? `min: ${type.min}` : '', type.max !== undefined ? `max: ${type.max}` : '', type.keyFormat !== undefined ? `keyFormat: '${type.keyFormat}'` : ''].filter(Boolean);
      return options.length ? `t.number({ ${options.join(', ')} })` : 't.number()';
    }
    case 'timestamp':
      return type.format ? `t.timestamp({ format: '${type.format}' })` : 't.timestamp()';
    case 'list':
      return `t.list(${typeSource(type.of, indent)})`;
    case 'map': {
      const inner = `${indent}  `;
      const fields = Object.entries(type.fields).map(([name, f]) => `${inner}${name}: ${typeSource(f.type, inner)}${f.optional ? '.optional()' : ''},`);
      return `t.map({\n${fields.join('\n')}\n${indent}})`;
    }
  }
}
