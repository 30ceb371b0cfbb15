// Partition keys as languages, for IAM: the keys a template's codec writes (literals raw, values
// escaped — `\` before a delimiter, `\` or U+0000 — fixed-width numbers, timestamps and shard
// suffixes), and the keys an IAM `StringLike` pattern built from the template matches (`*` runs
// over anything, delimiters and escapes included). Both are small automata over the characters
// that matter, so the policy model can ask whether a LeadingKeys pattern reaches partitions it
// was not meant for (another entity's, another tenant's), which exclusion patterns take them out,
// and what those exclusions also refuse — each answer with a shortest example key.

import { encodeTimestamp, encodeTimestampAs, EPOCH_KEY_RANGE, escapeSegment, ESCAPE, integerForm, negativeSign, shardWidth, type SegmentDef } from '../../templates/runtime/codec.js';

/** A set of characters: these, or every character of the alphabet but these. */
type CharSet = { readonly only: ReadonlySet<string> } | { readonly except: ReadonlySet<string> };

/** A regular expression over characters. */
type Re = { readonly k: 'set'; readonly set: CharSet } | { readonly k: 'seq'; readonly items: readonly Re[] } | { readonly k: 'alt'; readonly items: readonly Re[] } | { readonly k: 'star'; readonly item: Re };

const only = (...chars: string[]): Re => ({ k: 'set', set: { only: new Set(chars) } });
const except = (...chars: string[]): Re => ({ k: 'set', set: { except: new Set(chars) } });
const seq = (...items: Re[]): Re => ({ k: 'seq', items });
const alt = (...items: Re[]): Re => ({ k: 'alt', items });
const star = (item: Re): Re => ({ k: 'star', item });
const plus = (item: Re): Re => seq(item, star(item));
const text = (value: string): Re => seq(...[...value].map((c) => only(c)));
const repeat = (item: Re, count: number): Re => seq(...Array.from({ length: count }, () => item));
const DIGIT = only(...'0123456789');
const HEX = only(...'0123456789abcdef');

/**
 * Stands for the caller's tenant: the principal tag's value, a plain value (IAM tag values hold no
 * `\`, `*` or `?`). A private-use character no key literal holds, so "this tenant" and "another
 * tenant" are told apart exactly.
 */
export const TENANT = '\uE000';

/** One part of an IAM string pattern built from a key template. */
export type GlobToken =
  | { readonly kind: 'text'; readonly text: string }
  /** `*`: any run of characters. */
  | { readonly kind: 'any' }
  /** `?` repeated: exactly that many characters. */
  | { readonly kind: 'one'; readonly count: number }
  /** `${aws:PrincipalTag/…}`: the caller's tenant. */
  | { readonly kind: 'tenant' };

/** Where a placeholder holds the tenant: the caller's own (`own`), any other (`other`), or any at all (undefined). */
export type TenantMode = 'own' | 'other' | undefined;

/** A partition-key template as the codec writes it: its runtime segments, with the tenant placeholder named when a tenant scope applies. */
export interface KeyForm {
  readonly segments: readonly SegmentDef[];
  readonly delimiter: string;
  /** The attribute of the tenant placeholder, if the template holds it. */
  readonly tenant?: string;
}

/** A value's characters: plain ones, or an escape (`\` and the delimiter, `\` or `0`). */
function valueUnit(delimiter: string, plainExcept: readonly string[] = []): Re {
  return alt(except(delimiter, ESCAPE, ...plainExcept), seq(only(ESCAPE), only(delimiter, ESCAPE, '0')));
}

/** The text of one segment as the codec writes it: its value's text between its affixes (`tripno_<tripNo>`). */
function segmentRe(segment: SegmentDef, delimiter: string, tenant: TenantMode): Re {
  const value = valueRe(segment, delimiter, tenant);
  if (segment.kind === 'literal' || segment.kind === 'shard' || (segment.prefix === undefined && segment.suffix === undefined)) return value;
  return seq(text(segment.prefix ?? ''), value, text(segment.suffix ?? ''));
}

/** The text of one segment's value as the codec writes it. */
function valueRe(segment: SegmentDef, delimiter: string, tenant: TenantMode): Re {
  const escaped = (value: string) => text(escapeSegment(value, delimiter));
  if (tenant === 'own') return only(TENANT);
  switch (segment.kind) {
    case 'literal':
      return text(segment.text);
    case 'string':
      // another tenant: any value but the caller's (one or more units, and not the caller's alone)
      return tenant === 'other' ? alt(valueUnit(delimiter, [TENANT]), seq(valueUnit(delimiter), plus(valueUnit(delimiter)))) : plus(valueUnit(delimiter));
    case 'enum':
      return alt(...segment.values.filter((v) => v !== '').map(escaped));
    case 'boolean':
      return alt(text('true'), text('false'));
    case 'integer': {
      // plain: the decimal digits as they are, a sign before negatives
      if (segment.plain) return alt(plus(DIGIT), seq(only('-'), plus(DIGIT)));
      const form = integerForm(segment.min, segment.max);
      const positive = repeat(DIGIT, form.width);
      return form.negativeWidth === 0 ? positive : alt(positive, seq(escaped(negativeSign(delimiter)), repeat(DIGIT, form.negativeWidth)));
    }
    case 'float':
      return repeat(HEX, 16);
    case 'timestamp':
      // each digit of the fixed-width form is any digit; its other characters are written escaped
      return seq(...[...(segment.format === undefined ? encodeTimestamp(new Date(0), segment.unit) : encodeTimestampAs(new Date(EPOCH_KEY_RANGE.earliest), segment.unit, segment.format))].map((c) => (/\d/.test(c) ? DIGIT : escaped(c))));
    case 'shard':
      return repeat(DIGIT, shardWidth(segment));
  }
}

const isTenant = (form: KeyForm, segment: SegmentDef) => form.tenant !== undefined && segment.kind !== 'literal' && segment.kind !== 'shard' && segment.attr === form.tenant;

/** The keys a template writes; `tenant` says which tenant its tenant placeholder holds. */
export function keyLanguage(form: KeyForm, tenant?: TenantMode): Re {
  const parts = form.segments.map((s) => segmentRe(s, form.delimiter, isTenant(form, s) ? tenant : undefined));
  return seq(...parts.flatMap((part, i) => (i === 0 ? [part] : [only(form.delimiter), part])));
}

/** The IAM pattern of a template: literals and affixes as written, the tenant as the caller's tag, a shard as one `?` per digit, any other value `*`. */
export function globOf(form: KeyForm): GlobToken[] {
  const tokens: GlobToken[] = [];
  form.segments.forEach((segment, i) => {
    if (i > 0) tokens.push({ kind: 'text', text: form.delimiter });
    if (segment.kind === 'literal') tokens.push({ kind: 'text', text: segment.text });
    else if (isTenant(form, segment)) tokens.push({ kind: 'tenant' });
    else if (segment.kind === 'shard') tokens.push({ kind: 'one', count: shardWidth(segment) });
    else {
      // text glued to the value (`country_*`) is written as it is
      if (segment.prefix) tokens.push({ kind: 'text', text: segment.prefix });
      tokens.push({ kind: 'any' });
      if (segment.suffix) tokens.push({ kind: 'text', text: segment.suffix });
    }
  });
  return tokens;
}

/**
 * The pattern with a `\` before one delimiter that follows a `*`: the keys where that delimiter is
 * a value's escaped one, not a separator — keys of a shorter template, or another tenant's. One
 * variant per such delimiter.
 */
export function escapedVariants(glob: readonly GlobToken[], delimiter: string): GlobToken[][] {
  const variants: GlobToken[][] = [];
  glob.forEach((token, i) => {
    if (token.kind === 'text' && token.text === delimiter && glob[i - 1]?.kind === 'any') variants.push([...glob.slice(0, i), { kind: 'text', text: ESCAPE }, ...glob.slice(i)]);
  });
  return variants;
}

/** The keys an IAM pattern matches, for a caller of tenant TENANT. */
export function globLanguage(glob: readonly GlobToken[]): Re {
  return seq(
    ...glob.map((token) => {
      switch (token.kind) {
        case 'text':
          return text(token.text);
        case 'any':
          return star(except());
        case 'one':
          return repeat(except(), token.count);
        case 'tenant':
          return only(TENANT);
      }
    }),
  );
}

/** Literal key text as an IAM string pattern: `*`, `?` and `$` are written `${*}`, `${?}`, `${$}`. */
export function iamLiteral(value: string): string {
  return value.replace(/[*?$]/g, (c) => `\${${c}}`);
}

/** The pattern as IAM policy text. */
export function globText(glob: readonly GlobToken[], tag: string | undefined): string {
  return glob.map((t) => (t.kind === 'text' ? iamLiteral(t.text) : t.kind === 'any' ? '*' : t.kind === 'one' ? '?'.repeat(t.count) : `\${aws:PrincipalTag/${tag}}`)).join('');
}

// ---- automata --------------------------------------------------------------------------------

interface Nfa {
  readonly start: number;
  readonly accept: number;
  readonly epsilon: number[][];
  readonly edges: Array<Array<readonly [CharSet, number]>>;
}

function compile(re: Re): Nfa {
  const epsilon: number[][] = [];
  const edges: Array<Array<readonly [CharSet, number]>> = [];
  const state = () => (epsilon.push([]), edges.push([]), epsilon.length - 1);
  const build = (node: Re): [number, number] => {
    const start = state();
    const end = state();
    switch (node.k) {
      case 'set':
        edges[start]!.push([node.set, end]);
        break;
      case 'seq': {
        let at = start;
        for (const item of node.items) {
          const [s, e] = build(item);
          epsilon[at]!.push(s);
          at = e;
        }
        epsilon[at]!.push(end);
        break;
      }
      case 'alt':
        for (const item of node.items) {
          const [s, e] = build(item);
          epsilon[start]!.push(s);
          epsilon[e]!.push(end);
        }
        break;
      case 'star': {
        const [s, e] = build(node.item);
        epsilon[start]!.push(s, end);
        epsilon[e]!.push(s, end);
        break;
      }
    }
    return [start, end];
  };
  const [start, accept] = build(re);
  return { start, accept, epsilon, edges };
}

const inSet = (set: CharSet, c: string) => ('only' in set ? set.only.has(c) : !set.except.has(c));

function closure(nfa: Nfa, states: Iterable<number>): number[] {
  const seen = new Set<number>();
  const stack = [...states];
  while (stack.length) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    stack.push(...nfa.epsilon[s]!);
  }
  return [...seen].sort((a, b) => a - b);
}

function step(nfa: Nfa, states: readonly number[], c: string): number[] {
  const next: number[] = [];
  for (const s of states) for (const [set, to] of nfa.edges[s]!) if (inSet(set, c)) next.push(to);
  return closure(nfa, next);
}

/** Languages over one alphabet: every character any of them names, plus one that stands for all others. */
export class KeyLanguages {
  readonly #alphabet: string[];
  readonly #other: string;
  readonly #compiled = new WeakMap<Re, Nfa>();

  constructor(languages: readonly Re[]) {
    const named = new Set<string>([TENANT]);
    const collect = (re: Re): void => {
      if (re.k === 'set') for (const c of 'only' in re.set ? re.set.only : re.set.except) named.add(c);
      else if (re.k === 'star') collect(re.item);
      else re.items.forEach(collect);
    };
    languages.forEach(collect);
    // a readable stand-in for "any other character", so example keys read naturally
    this.#other = [...'xyzqjkwvXYZQ'].find((c) => !named.has(c)) ?? '\uE001';
    this.#alphabet = [this.#other, ...[...named].sort()];
  }

  #nfa(re: Re): Nfa {
    let nfa = this.#compiled.get(re);
    if (!nfa) this.#compiled.set(re, (nfa = compile(re)));
    return nfa;
  }

  /** Whether `key` is in the language. */
  accepts(re: Re, key: string): boolean {
    const nfa = this.#nfa(re);
    let states = closure(nfa, [nfa.start]);
    for (const c of key) {
      states = step(nfa, states, c);
      if (states.length === 0) return false;
    }
    return states.includes(nfa.accept);
  }

  /**
   * A shortest key in every language of `all` and in none of `none`, or undefined when there is
   * none (breadth-first over the product of their subset automata).
   */
  witness(all: readonly Re[], none: readonly Re[] = []): string | undefined {
    const machines = [...all, ...none].map((re) => this.#nfa(re));
    const accepts = (sets: readonly number[][]) => sets.every((set, i) => set.includes(machines[i]!.accept) === i < all.length);
    const start = machines.map((m) => closure(m, [m.start]));
    const seen = new Set([JSON.stringify(start)]);
    let frontier: Array<{ sets: number[][]; key: string }> = [{ sets: start, key: '' }];
    while (frontier.length) {
      const next: typeof frontier = [];
      for (const { sets, key } of frontier) {
        if (accepts(sets)) return key;
        for (const c of this.#alphabet) {
          const stepped = sets.map((set, i) => step(machines[i]!, set, c));
          if (stepped.slice(0, all.length).some((set) => set.length === 0)) continue;
          const id = JSON.stringify(stepped);
          if (seen.has(id)) continue;
          if (seen.size > 200_000) throw new Error('internal: key languages too large to compare');
          seen.add(id);
          next.push({ sets: stepped, key: key + c });
        }
      }
      frontier = next;
    }
    return undefined;
  }
}

/** A key for messages: the caller's tenant written `acme`. */
export const showKey = (key: string) => key.replaceAll(TENANT, 'acme');

export const union = (items: readonly Re[]): Re => alt(...items);
export type { Re as KeyLanguage };
