// Key-shape inference for `ddbgen pull`: the delimiter a table's keys use, and each key value split
// into segments, every segment either literal text or a slot bound to the item attribute whose value
// it holds (glued to text such as `user_`, folded to a case, an integer padded or not, a timestamp
// truncated), or a typed value no attribute holds (uuid, ulid, integer, ISO date or timestamp, epoch).

import { splitKey } from '../../templates/runtime/codec.js';

/** Delimiters in order of preference: the ones keys are usually built with first. */
export const DELIMITERS = ['#', '|', '~', ':', '/', '.', '_', '-', '!', '@', '$', '^', '+', '=', ',', ';', '&', '*', '%'] as const;

/** Values that hold punctuation of their own, masked before counting delimiters. */
const OWN_PUNCTUATION = [
  /\d{4}-\d\d-\d\d(?:T\d\d(?::\d\d(?::\d\d(?:\.\d+)?)?)?Z?)?/g,
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi,
  /[^\s@#|]+@[^\s@#|]+\.[A-Za-z]{2,}/g,
  /\d+\.\d+/g,
];

/**
 * The delimiter of a table's key values: among the characters keys hold (outside dates, uuids,
 * e-mail addresses and decimals), the most preferred one found in at least half as many values as
 * the most frequent; a character that mostly starts its values (ElectroDB's `$`) is a prefix, not a
 * delimiter. `#` when no value has any.
 */
export function inferDelimiter(values: readonly string[]): string {
  const counts = new Map<string, number>();
  const leading = new Map<string, number>();
  for (const value of values) {
    const masked = OWN_PUNCTUATION.reduce((text, re) => text.replace(re, 'x'), value);
    for (const d of DELIMITERS) {
      if (!masked.includes(d)) continue;
      counts.set(d, (counts.get(d) ?? 0) + 1);
      if (masked.startsWith(d)) leading.set(d, (leading.get(d) ?? 0) + 1);
    }
  }
  const usable = DELIMITERS.filter((d) => (counts.get(d) ?? 0) > 0 && (leading.get(d) ?? 0) * 2 < counts.get(d)!);
  const most = Math.max(0, ...usable.map((d) => counts.get(d)!));
  return usable.find((d) => counts.get(d)! * 2 >= most) ?? '#';
}

export type Casing = 'preserve' | 'lower' | 'upper';
export const TRUNCATIONS = ['minute', 'hour', 'day', 'month'] as const;
export type Truncation = (typeof TRUNCATIONS)[number];

/** How a slot's text comes from its attribute's value. */
export type Form =
  | { readonly kind: 'text' }
  | { readonly kind: 'integer'; readonly padded?: number }
  | { readonly kind: 'truncate'; readonly unit: Truncation };

/** A slot bound to an attribute: `prefix` + the value's text in `form`, folded to one of `casings`, + `suffix`. */
export interface Binding {
  readonly attr: string;
  readonly prefix: string;
  readonly suffix: string;
  readonly form: Form;
  readonly casings: ReadonlySet<Casing>;
}

export type Token =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'slot'; readonly text: string; readonly bindings: readonly Binding[]; readonly typed?: string };

/** What a value no attribute holds looks like, for the report. */
export function typedToken(text: string): string | undefined {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) return 'uuid';
  if (/^[0-9A-HJKMNP-TV-Z]{26}$/.test(text)) return 'ulid';
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(text)) return 'ISO timestamp';
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(text)) return 'ISO timestamp without milliseconds';
  if (/^\d{4}-\d\d-\d\d$/.test(text)) return 'date';
  if (/^1\d{9}$/.test(text)) return 'epoch seconds';
  if (/^1\d{12}$/.test(text)) return 'epoch milliseconds';
  if (/^-?\d+$/.test(text)) return 'integer';
  return undefined;
}

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const TRUNCATED_WIDTH: Record<Truncation, number> = { month: 7, day: 10, hour: 13, minute: 16 };
const alnum = /[A-Za-z0-9]/;

/** The texts a scalar value can take in a key, with their form. */
function forms(value: unknown): Array<{ text: string; form: Form }> {
  if (typeof value === 'string') {
    const out: Array<{ text: string; form: Form }> = [{ text: value, form: { kind: 'text' } }];
    if (ISO_MS.test(value)) for (const unit of TRUNCATIONS) out.push({ text: value.slice(0, TRUNCATED_WIDTH[unit]), form: { kind: 'truncate', unit } });
    return out;
  }
  // an integer as its digits, or padded to their width (`102` among `025` and `007`)
  if (typeof value === 'number' && Number.isSafeInteger(value)) return [{ text: String(value), form: { kind: 'integer' } }, ...(value >= 0 ? [{ text: String(value), form: { kind: 'integer', padded: String(value).length } } as const] : [])];
  if (typeof value === 'boolean') return [{ text: String(value), form: { kind: 'text' } }];
  return [];
}

/** The casings under which `written` is `text` folded: exact text fits every casing that leaves it unchanged. */
function casingsOf(written: string, text: string): Set<Casing> {
  const out = new Set<Casing>();
  if (written === text) out.add('preserve');
  if (written === text.toLowerCase()) out.add('lower');
  if (written === text.toUpperCase()) out.add('upper');
  return out;
}

/** Whether text glued before and after a value leaves it a whole word: nothing alphanumeric touches it. */
const clean = (prefix: string, suffix: string) => (prefix === '' || !alnum.test(prefix.at(-1)!)) && (suffix === '' || !alnum.test(suffix[0]!));

/** Every way `segment` holds the value of one of `attributes` (those not excluded). */
export function bindingsOf(segment: string, item: Readonly<Record<string, unknown>>, exclude: ReadonlySet<string>): Binding[] {
  const out: Binding[] = [];
  if (segment === '') return out;
  for (const [attr, value] of Object.entries(item)) {
    if (exclude.has(attr)) continue;
    for (const { text, form } of forms(value)) {
      if (text === '') continue;
      for (const folded of new Set([text, text.toLowerCase(), text.toUpperCase()])) {
        let at = segment.indexOf(folded);
        while (at !== -1) {
          const prefix = segment.slice(0, at);
          const suffix = segment.slice(at + folded.length);
          // a one-character value only as a whole segment or at its end (`n_5`): elsewhere it is noise;
          // a truncated timestamp ends its segment (`2024-01` is no month inside `2024-01-05`)
          if (clean(prefix, suffix) && (folded.length > 1 || suffix === '') && (form.kind !== 'truncate' || suffix === '')) {
            const casings = casingsOf(folded, text);
            if (casings.size) out.push({ attr, prefix, suffix, form, casings });
          }
          at = segment.indexOf(folded, at + 1);
        }
      }
      // an integer zero-padded to a fixed width: `007` for 7
      if (form.kind === 'integer' && typeof value === 'number' && value >= 0) {
        const padded = /^(.*?)(0\d+)(\D.*)?$/.exec(segment);
        if (padded && Number(padded[2]) === value && clean(padded[1]!, padded[3] ?? '')) {
          out.push({ attr, prefix: padded[1]!, suffix: padded[3] ?? '', form: { kind: 'integer', padded: padded[2]!.length }, casings: new Set(['preserve', 'lower', 'upper']) });
        }
      }
    }
  }
  // the same binding found through two foldings counts once
  const seen = new Map<string, Binding>();
  for (const b of out) {
    const id = bindingId(b);
    const known = seen.get(id);
    seen.set(id, known ? { ...known, casings: new Set([...known.casings, ...b.casings]) } : b);
  }
  return [...seen.values()];
}

/** A binding's identity across items (its casings aside). */
export const bindingId = (b: Binding) => JSON.stringify([b.attr, b.prefix, b.suffix, b.form]);

/** A key value as tokens: segments split by the delimiter (escapes read when the table's keys escape). */
export function tokenize(value: string, delimiter: string, escaped: boolean, item: Readonly<Record<string, unknown>>, exclude: ReadonlySet<string>): Token[] | undefined {
  const segments = escaped ? splitKey(value, delimiter) : value.split(delimiter);
  if (!segments) return undefined;
  return segments.map((text): Token => {
    const bindings = bindingsOf(text, item, exclude);
    const typed = typedToken(text);
    if (bindings.length) return { kind: 'slot', text, bindings };
    if (typed) return { kind: 'slot', text, bindings, typed };
    return { kind: 'literal', text };
  });
}
