// Infers a schema from a table's description and a sample of its items (`ddbgen pull`): entities
// told apart by a discriminator attribute when the items carry one (ElectroDB's __edb_e__ and
// __edb_v__, DynamoDB-Toolbox's _et, OneTable's _type, a NoSQL Workbench facet, or one named with
// --discriminator), else by the shape of their keys; each entity's key templates with the slots bound
// to the attributes they hold; the table's stored key format; index mappings; attribute types. Every
// inference carries the number of sampled items it covers, and items that fit nothing are listed
// with the reason.

import { messages, pullWarnings, type PullWarning } from '../diagnostics/messages.js';
import { dominant, inferTypeByMajority, typeText, type InferredType, type Undescribed } from './infer-attributes.js';
import { bindingId, inferDelimiter, tokenize, type Binding, type Casing, type Token } from './infer-keys.js';
import type { PulledIndex, PulledTable } from './table-description.js';

export type Item = Readonly<Record<string, unknown>>;

/** A sampled item, with the group a NoSQL Workbench facet put it in. */
export interface SampledItem {
  readonly item: Item;
  readonly facet?: string;
}

export interface InferredTemplate {
  readonly source: string;
  /** Sampled items whose key this template builds exactly. */
  readonly fits: number;
  readonly of: number;
}

export interface InferredAttribute {
  readonly property: string;
  readonly storedAs?: string;
  readonly type: InferredType;
  readonly optional: boolean;
  readonly seen: number;
  /** Items whose value is of another type than the majority's (listed as the entity's outliers). */
  readonly odd?: number;
}

export interface InferredEntity {
  readonly name: string;
  readonly items: number;
  readonly discriminator?: Readonly<Record<string, string>>;
  readonly facet?: string;
  readonly key: { readonly pk: InferredTemplate; readonly sk?: InferredTemplate };
  readonly indexes: ReadonlyArray<{ readonly index: string; readonly pk?: InferredTemplate; readonly sk?: InferredTemplate; readonly native?: true }>;
  readonly attributes: readonly InferredAttribute[];
  /** Attributes no DSL type describes: kept as they are by `passthrough: true`. */
  readonly undescribed: ReadonlyArray<{ readonly name: string; readonly reason: string; readonly seen: number }>;
  readonly notes: readonly string[];
  /** What the schema leaves out that the table has (an index): shown as warnings in the summary. */
  readonly warnings: readonly PullWarning[];
  /** The entity's items that differ from the others (a value of another type, missing from an index), by key and reason. */
  readonly outliers: readonly UnmatchedItem[];
  /** The keys of the entity's items, to list them should the entity be dropped. */
  readonly itemKeys: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

export interface UnmatchedItem {
  readonly key: Readonly<Record<string, unknown>>;
  readonly reason: string;
}

export interface InferredSchema {
  readonly table: PulledTable;
  /** The logical name: the output folder and the class. */
  readonly name: string;
  readonly delimiter: string;
  readonly keyFormat?: { readonly escape: boolean; readonly integers: 'padded' | 'plain'; readonly casing: Casing };
  /** Index names mapped natively (keyed by the items' own attributes). */
  readonly native: readonly string[];
  readonly entities: readonly InferredEntity[];
  readonly unmatched: readonly UnmatchedItem[];
  readonly sampled: number;
  /** Discriminator attributes entities were told apart by. */
  readonly discriminator: readonly string[];
  readonly notes: readonly string[];
  /** What the schema leaves out that the table has, or entities dropped: the summary shows them first. */
  readonly warnings: readonly PullWarning[];
  /** Indexes of the table the schema does not declare (an LSI keyed by the items' own attribute). */
  readonly leftOut: readonly string[];
}

/** A problem that stops inference: what was found so far, and what to do. */
export class PullError extends Error {
  readonly inferred: string;
  readonly fix: string;
  /** Its code in the catalogue (generator/diagnostics/messages.ts): DDB300 the table or model cannot be read, DDB301 nothing to infer from, DDB302 no entity fits, DDB303 the schema does not validate. */
  readonly code: PullCode;
  constructor(message: string, inferred: string, fix: string, code: PullCode = 'DDB300') {
    super(message);
    this.inferred = inferred;
    this.fix = fix;
    this.code = code;
  }
}

export type PullCode = 'DDB300' | 'DDB301' | 'DDB302' | 'DDB303';

/** Discriminators peers write, most specific first. */
const KNOWN_DISCRIMINATORS: ReadonlyArray<readonly string[]> = [['__edb_e__', '__edb_v__'], ['_et'], ['_type'], ['__typename'], ['entityType'], ['type']];
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const SYNTHETIC_NAME = /(pk|sk|key|hash|range)\d*$/i;
const RESERVED = new Set(['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty']);

/** `USER`, `account-name`, `$employee_1` → `User`, `AccountName`, `Employee`. */
export function pascalCase(text: string): string {
  const words = text.replace(/_\d+$/, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => (w === w.toUpperCase() || w === w.toLowerCase() ? w.charAt(0).toUpperCase() + w.slice(1).toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  return /^[A-Za-z]/.test(name) ? name : `E${name}`;
}

/** A property name for a stored attribute name: itself when it is an identifier, else a camelCase one. */
function propertyName(stored: string): string {
  if (IDENTIFIER.test(stored) && !RESERVED.has(stored)) return stored;
  const pascal = pascalCase(stored);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1) + (RESERVED.has(stored) ? 'Value' : '');
}

/** A key shape becomes an entity of its own when this many sampled items have it, or this share of the sample. */
export const MIN_ENTITY_ITEMS = 3;
export const MIN_ENTITY_SHARE = 0.1;
const count = (n: number) => n.toLocaleString('en-US');

const percent = (n: number, of: number) => (of === 0 ? '0%' : `${((100 * n) / of).toFixed(n === of ? 0 : 1)}%`);

/** The key attributes that hold built (synthetic) keys, and the GSIs keyed natively by the items' attributes. */
function keyKinds(table: PulledTable, items: readonly Item[]): { synthetic: Set<string>; native: PulledIndex[]; leftOut: string[]; warnings: PullWarning[] } {
  const synthetic = new Set([table.pk.name, ...(table.sk ? [table.sk.name] : [])]);
  const native: PulledIndex[] = [];
  const leftOut: string[] = [];
  const warnings: PullWarning[] = [];
  for (const index of table.indexes) {
    const attrs = [...(index.kind === 'gsi' ? index.pk : []), ...index.sk];
    const builtKey = (a: { name: string; type: string }) => {
      if (a.type !== 'S') return false;
      if (SYNTHETIC_NAME.test(a.name)) return true;
      const values = items.map((i) => i[a.name]).filter((v): v is string => typeof v === 'string');
      return values.length > 0 && values.filter((v) => /[#|~]/.test(v)).length * 2 >= values.length;
    };
    if (index.pk.length <= 1 && index.sk.length <= 1 && attrs.every(builtKey)) attrs.forEach((a) => synthetic.add(a.name));
    else if (index.kind === 'gsi') native.push(index);
    else {
      leftOut.push(index.name);
      warnings.push(pullWarnings.lsiLeftOut(index.name, index.sk[0]?.name ?? ''));
    }
  }
  return { synthetic, native, leftOut, warnings };
}

/** The discriminator attributes: the one named, else one a peer writes on most items. */
function discriminatorOf(items: readonly Item[], named: string | undefined): string[] {
  if (named !== undefined) return named === '__edb_e__' && items.some((i) => typeof i['__edb_v__'] === 'string') ? ['__edb_e__', '__edb_v__'] : [named];
  for (const attrs of KNOWN_DISCRIMINATORS) {
    const carrying = items.filter((i) => typeof i[attrs[0]!] === 'string').length;
    if (carrying * 2 >= items.length && carrying > 0) return attrs.filter((a) => items.some((i) => typeof i[a] === 'string'));
  }
  return [];
}

interface Slot {
  readonly binding?: Binding;
  readonly literal?: string;
  readonly casings?: ReadonlySet<Casing>;
}

/**
 * One key's template over a cluster of items: each position a literal or the binding most items
 * share. Items whose segment holds no such value are outliers when the others are a clear majority
 * (`USER#1003` on an item whose userId is 1099); without one, the cluster splits at that position
 * (`split`: the items that share the leading binding, to resolve apart from the rest).
 */
function resolveTemplate(perItem: ReadonlyArray<readonly Token[]>, items: readonly Item[], which: string): { slots: Slot[]; outliers: Map<number, string> } | { problem: string } | { split: number[] } {
  const width = perItem[0]!.length;
  const n = perItem.length;
  const slots: Slot[] = [];
  const outliers = new Map<number, string>();
  // the items still fitting the template: an outlier at one segment is not read at the next
  let active = perItem.map((_, i) => i);
  for (let p = 0; p < width; p++) {
    let deferred: { items: number[]; of: number } | undefined;
    // literal text in most items, or values in most: the few others are outliers
    const kinds = new Map<string, number[]>();
    for (const i of active) {
      const token = perItem[i]![p]!;
      const kind = token.kind === 'literal' ? `literal ${token.text}` : 'slot';
      kinds.set(kind, [...(kinds.get(kind) ?? []), i]);
    }
    const seen = new Set(active.map((i) => perItem[i]![p]!.text));
    if (kinds.size > 1 && seen.size > 1) {
      const texts = seen;
      const [top, at] = [...kinds].sort((a, b) => b[1].length - a[1].length)[0]!;
      if (!dominant(at.length, active.length)) return { problem: `segment ${p + 1} holds different text in different items (${[...texts].slice(0, 3).map((t) => `"${t}"`).join(', ')})` };
      const held = new Set(at);
      // text where most hold a value: said once the value's attribute is known
      if (top === 'slot') deferred = { items: active.filter((i) => !held.has(i)), of: active.length };
      else for (const i of active) if (!held.has(i)) outliers.set(i, `its ${which} segment ${p + 1} is "${perItem[i]![p]!.text}", where ${count(at.length)} of ${count(active.length)} items keyed alike hold "${top.slice('literal '.length)}"`);
      active = at;
    }
    const tokens = active.map((i) => perItem[i]![p]!);
    const texts = new Set(tokens.map((t) => t.text));
    if (tokens[0]!.kind === 'literal') {
      slots.push({ literal: tokens[0]!.text });
      continue;
    }
    // each binding with the items that support it (their casings in common)
    const support = new Map<string, { binding: Binding; casings: Set<Casing>; items: number[] }>();
    tokens.forEach((token, k) => {
      const i = active[k]!;
      if (token.kind !== 'slot') return;
      for (const b of token.bindings) {
        const id = bindingId(b);
        const entry = support.get(id);
        if (!entry) support.set(id, { binding: b, casings: new Set(b.casings), items: [i] });
        else {
          entry.items.push(i);
          for (const c of [...entry.casings]) if (!b.casings.has(c)) entry.casings.delete(c);
        }
      }
    });
    let options = [...support.values()].filter((e) => e.casings.size > 0);
    // One text in every item may be a value all of them share, or literal text an attribute happens
    // to equal: a slot only when the key names its attribute (`project_<project>`, `TRAINER#<trainerId>`).
    // A word leading a key seen once is literal too (`user#…`: a type name, even when an attribute says "user").
    if (texts.size === 1) {
      const previous = p > 0 ? perItem[0]![p - 1]!.text.toLowerCase().replace(/[^a-z0-9]/g, '') : '';
      const named = (b: Binding) => `${b.prefix}${b.suffix}`.toLowerCase().includes(b.attr.toLowerCase()) || (previous.length >= 2 && b.attr.toLowerCase().startsWith(previous));
      const leadingWord = p === 0 && /^[A-Za-z$_-]+$/.test(tokens[0]!.text);
      if (tokens.length >= 2 || leadingWord) options = options.filter((o) => named(o.binding));
      if (options.length === 0) {
        slots.push({ literal: tokens[0]!.text });
        continue;
      }
    }
    if (options.length === 0) {
      const typed = tokens.find((t) => t.kind === 'slot' && t.typed !== undefined);
      return {
        problem:
          typed && typed.kind === 'slot' && typed.bindings.length === 0
            ? `segment ${p + 1} ("${typed.text}", ${typed.typed}) is a value no attribute of the item holds, and ddbgen builds every key part from an attribute`
            : `segment ${p + 1} holds the values of different attributes in different items`,
      };
    }
    // the binding most items share; then the attribute the glued text names (ElectroDB's `employee_<employee>`),
    // no glued text, the name, and an integer's own digits over a padding every value happens to fill
    const score = ({ binding: b, casings }: { binding: Binding; casings: ReadonlySet<Casing> }) =>
      (`${b.prefix}${b.suffix}`.toLowerCase().includes(b.attr.toLowerCase()) ? 0 : 8) + (casings.has('preserve') ? 0 : 4) + (b.prefix || b.suffix ? 2 : 0) + (b.form.kind === 'integer' && b.form.padded !== undefined ? 1 : 0);
    options.sort((a, b) => b.items.length - a.items.length || score(a) - score(b) || a.binding.attr.localeCompare(b.binding.attr));
    const best = options[0]!;
    const notHolding = (i: number, of: number, holding: number) => {
      const value = items[i]![best.binding.attr];
      outliers.set(i, `its ${which} segment ${p + 1} ("${perItem[i]![p]!.text}") is not its ${best.binding.attr} (${value === undefined ? 'absent' : JSON.stringify(value)}), as in ${count(holding)} of ${count(of)} items keyed alike`);
    };
    if (deferred && dominant(best.items.length, deferred.of)) for (const i of deferred.items) notHolding(i, deferred.of, best.items.length);
    else if (deferred) return { split: best.items };
    if (best.items.length < active.length) {
      const held = new Set(best.items);
      const others = active.filter((i) => !held.has(i));
      if (!dominant(best.items.length, active.length)) return { split: best.items };
      for (const i of others) notHolding(i, deferred?.of ?? active.length, best.items.length);
      active = best.items;
    }
    slots.push({ binding: best.binding, casings: best.casings });
  }
  return { slots, outliers };
}

/** A template's DSL source from its slots. */
function templateSource(slots: readonly Slot[], delimiter: string): string {
  return slots
    .map((s) => (s.literal !== undefined ? s.literal : `${s.binding!.prefix}<${s.binding!.attr}${s.binding!.form.kind === 'truncate' ? `:${s.binding!.form.unit}` : ''}>${s.binding!.suffix}`))
    .join(delimiter);
}

interface Cluster {
  readonly group: string;
  readonly items: Item[];
  readonly pk: Token[][];
  readonly sk: Token[][];
}

interface ResolvedCluster {
  readonly cluster: Cluster;
  readonly pk: Slot[];
  readonly sk?: Slot[];
}

/**
 * A cluster split wherever its items have different literal text at one position (`ORDER#…` and
 * `ITEM#…`): each part has one text there. Positions where every item holds a slot stay together.
 */
function splitByLiterals(cluster: Cluster): Cluster[] {
  for (const which of ['pk', 'sk'] as const) {
    const width = cluster[which][0]?.length ?? 0;
    for (let p = 0; p < width; p++) {
      const tokens = cluster[which].map((t) => t[p]!);
      if (new Set(tokens.map((t) => t.text)).size === 1 || !tokens.some((t) => t.kind === 'literal')) continue;
      // literal text splits by the text; the items holding a value there stay together
      const parts = new Map<string, Cluster>();
      cluster.items.forEach((item, i) => {
        const token = tokens[i]!;
        const part = token.kind === 'literal' ? `literal ${token.text}` : 'slot';
        let into = parts.get(part);
        if (!into) parts.set(part, (into = { group: cluster.group, items: [], pk: [], sk: [] }));
        into.items.push(item);
        into.pk.push(cluster.pk[i]!);
        into.sk.push(cluster.sk[i]!);
      });
      return [...parts.values()].flatMap(splitByLiterals);
    }
  }
  return [cluster];
}

/** The part of a cluster made of the items at `indexes`. */
const pick = (cluster: Cluster, indexes: readonly number[]): Cluster => ({ group: cluster.group, items: indexes.map((i) => cluster.items[i]!), pk: indexes.map((i) => cluster.pk[i]!), sk: indexes.map((i) => cluster.sk[i]!) });

/** A cluster's templates: split where its items hold different attributes, with the items whose key disagrees with the rest left out (and why). */
function resolveCluster(table: PulledTable, cluster: Cluster, unmatched: UnmatchedItem[]): ResolvedCluster[] {
  const all = cluster.items.map((_, i) => i);
  const pk = resolveTemplate(cluster.pk, cluster.items, 'partition key');
  const sk = table.sk ? resolveTemplate(cluster.sk, cluster.items, 'sort key') : undefined;
  for (const r of [pk, sk]) {
    if (r && 'split' in r) {
      const held = new Set(r.split);
      return [...resolveCluster(table, pick(cluster, r.split), unmatched), ...resolveCluster(table, pick(cluster, all.filter((i) => !held.has(i))), unmatched)];
    }
  }
  const problem = 'problem' in pk ? `partition key: ${pk.problem}` : sk && 'problem' in sk ? `sort key: ${sk.problem}` : undefined;
  if (problem) {
    for (const item of cluster.items) unmatched.push({ key: keyOf(table, item), reason: problem });
    return [];
  }
  const pkSlots = pk as { slots: Slot[]; outliers: Map<number, string> };
  const skSlots = sk as { slots: Slot[]; outliers: Map<number, string> } | undefined;
  const outliers = new Map([...(skSlots?.outliers ?? []), ...pkSlots.outliers]);
  for (const [i, reason] of outliers) unmatched.push({ key: keyOf(table, cluster.items[i]!), reason });
  const kept = outliers.size ? pick(cluster, all.filter((i) => !outliers.has(i))) : cluster;
  return [{ cluster: kept, pk: pkSlots.slots, ...(skSlots ? { sk: skSlots.slots } : {}) }];
}

function keyOf(table: PulledTable, item: Item): Record<string, unknown> {
  return { [table.pk.name]: item[table.pk.name], ...(table.sk ? { [table.sk.name]: item[table.sk.name] } : {}) };
}

/** Sort-key words that name no kind of item of their own: the item the partition key names. */
const SELF_WORDS = /^(Profile|Metadata|Meta|Details?|Info|Root|Main|Data|Item|Record|Entity|Self|Summary|A|V\d*)$/;

/** An entity's name from the first word of its sort key, if it has one. */
function sortKeyWord(sk: readonly Slot[]): string | undefined {
  const text = sk.map((s) => s.literal ?? s.binding?.prefix ?? '').find((t) => /[A-Za-z]/.test(t));
  return text === undefined ? undefined : pascalCase(text.replace(/^\$/, ''));
}

/** The name an entity takes from its keys: the sort key's first word when the sort key varies, else the partition key's. */
function nameFromKeys(pk: readonly Slot[], sk: readonly Slot[] | undefined): string {
  const word = (slots: readonly Slot[]) => slots.map((s) => s.literal ?? s.binding?.prefix ?? '').find((text) => /[A-Za-z]/.test(text));
  const skVaries = sk?.some((s) => s.binding) ?? false;
  const text = (skVaries ? word(sk!) : undefined) ?? word(pk) ?? (sk ? word(sk) : undefined) ?? 'Item';
  return pascalCase(text.replace(/^\$/, ''));
}

export interface InferOptions {
  /** The attribute that names each item's entity (`--discriminator`). */
  readonly discriminator?: string;
}

/** Infers the schema; throws PullError when the table cannot be described at all. */
export function inferSchema(table: PulledTable, sample: readonly SampledItem[], options: InferOptions = {}): InferredSchema {
  const described = `table ${table.name}: key ${table.pk.name} (${table.pk.type})${table.sk ? ` / ${table.sk.name} (${table.sk.type})` : ''}, ${table.indexes.length} index(es), ${sample.length} item(s) sampled`;
  for (const key of [table.pk, ...(table.sk ? [table.sk] : [])]) {
    if (key.type !== 'S') throw new PullError(`the table's key attribute ${key.name} is a ${key.type === 'N' ? 'number' : 'binary'} (${key.type}); ddbgen builds keys as strings`, described, 'describe this table by hand with attributes of its own, or copy its items to a table keyed by strings', 'DDB301');
  }
  if (sample.length === 0) throw new PullError(`table ${table.name} has no items, so there is nothing to infer entities from`, described, 'pull again once the table holds items, or write the entities by hand (ddbgen init writes a starter schema)', 'DDB301');
  const items = sample.map((s) => s.item);
  const notes: string[] = [];
  const { synthetic, native, leftOut, warnings: keyWarnings } = keyKinds(table, items);
  const discriminator = sample.some((s) => s.facet !== undefined) ? [] : discriminatorOf(items, options.discriminator);
  if (options.discriminator !== undefined && !items.some((i) => typeof i[options.discriminator!] === 'string')) {
    throw new PullError(`no sampled item has a string attribute "${options.discriminator}" to tell entities apart by`, described, 'name an attribute the items carry with --discriminator, or leave it out to infer entities from the shape of their keys', 'DDB301');
  }
  const exclude = new Set([...synthetic, ...discriminator]);
  const keyValues = items.flatMap((i) => [...synthetic].map((a) => i[a]).filter((v): v is string => typeof v === 'string'));
  const delimiter = inferDelimiter(keyValues);
  const escaped = keyValues.some((v) => v.includes(`\\${delimiter}`) || v.includes('\\\\'));
  const unmatched: UnmatchedItem[] = [];

  // clusters: the discriminator's values (or the facet), then the coarse shape of both keys
  const clusters = new Map<string, Cluster>();
  for (const { item, facet } of sample) {
    const pkValue = item[table.pk.name];
    const skValue = table.sk ? item[table.sk.name] : undefined;
    if (typeof pkValue !== 'string' || (table.sk && typeof skValue !== 'string')) {
      unmatched.push({ key: keyOf(table, item), reason: 'its key is not a string' });
      continue;
    }
    const group = facet ?? (discriminator.length ? JSON.stringify(discriminator.map((a) => item[a])) : '');
    if (discriminator.length && typeof item[discriminator[0]!] !== 'string') {
      unmatched.push({ key: keyOf(table, item), reason: `it has no ${discriminator[0]} (the discriminator the other items carry)` });
      continue;
    }
    const pk = tokenize(pkValue, delimiter, escaped, item, exclude);
    const sk = typeof skValue === 'string' ? tokenize(skValue, delimiter, escaped, item, exclude) : [];
    if (!pk || !sk) {
      unmatched.push({ key: keyOf(table, item), reason: 'its key has a malformed escape' });
      continue;
    }
    const id = JSON.stringify([group, pk.length, table.sk ? sk.length : null]);
    let cluster = clusters.get(id);
    if (!cluster) clusters.set(id, (cluster = { group, items: [], pk: [], sk: [] }));
    cluster.items.push(item);
    cluster.pk.push(pk);
    cluster.sk.push(sk);
  }

  // each cluster's templates; per group, the largest cluster is the entity and the others do not fit it
  const resolved: ResolvedCluster[] = [...clusters.values()].flatMap(splitByLiterals).flatMap((c) => resolveCluster(table, c, unmatched));
  const byGroup = new Map<string, ResolvedCluster[]>();
  for (const r of resolved) byGroup.set(r.cluster.group, [...(byGroup.get(r.cluster.group) ?? []), r]);
  let kept: ResolvedCluster[] = [];
  for (const [group, members] of byGroup) {
    if (group === '') {
      kept.push(...members);
      continue;
    }
    members.sort((a, b) => b.cluster.items.length - a.cluster.items.length);
    kept.push(members[0]!);
    const main = members[0]!;
    const mainName = pascalCase(discriminator.length ? String(main.cluster.items[0]![discriminator[0]!]) : group);
    for (const other of members.slice(1)) {
      for (const item of other.cluster.items) unmatched.push({ key: keyOf(table, item), reason: `its ${discriminator.length ? discriminator.join(' / ') : 'facet'} is that of ${mainName} items, but its key is shaped "${templateSource(other.pk, delimiter)}${other.sk ? ` / ${templateSource(other.sk, delimiter)}` : ''}"` });
    }
  }

  // a key shape is an entity of its own only when enough items have it; fewer are listed, not guessed at
  const shapeOf = (r: ResolvedCluster) => `${templateSource(r.pk, delimiter)}${r.sk ? ` / ${templateSource(r.sk, delimiter)}` : ''}`;
  const shapeCount = new Map<string, number>();
  for (const r of kept) if (r.cluster.group === '') shapeCount.set(shapeOf(r), (shapeCount.get(shapeOf(r)) ?? 0) + r.cluster.items.length);
  const enough = (n: number) => n >= MIN_ENTITY_ITEMS || n >= MIN_ENTITY_SHARE * sample.length;
  kept = kept.filter((r) => {
    if (r.cluster.group !== '') return true;
    const n = shapeCount.get(shapeOf(r))!;
    if (enough(n)) return true;
    // the shape it is closest to: an entity's with the same partition key and the same first sort-key segment
    const near = [...shapeCount].filter(([shape, m]) => enough(m) && shape.split(' / ')[0] === shapeOf(r).split(' / ')[0] && (r.sk === undefined || shape.split(' / ')[1]?.split(delimiter)[0] === shapeOf(r).split(' / ')[1]?.split(delimiter)[0])).sort((a, b) => b[1] - a[1])[0];
    const reason = `only ${count(n)} sampled item${n === 1 ? ' has' : 's have'} keys shaped "${shapeOf(r)}" (an entity of its own needs ${MIN_ENTITY_ITEMS} items, or ${100 * MIN_ENTITY_SHARE}% of the sample)${near ? `; ${count(near[1])} items are keyed "${near[0]}"` : ''}`;
    for (const item of r.cluster.items) unmatched.push({ key: keyOf(table, item), reason });
    return false;
  });

  // the table's key format: one casing and one integer form for every entity
  const slotsOf = (r: ResolvedCluster) => [...r.pk, ...(r.sk ?? [])].filter((s) => s.binding);
  const casingVotes = new Map<Casing, number>();
  for (const r of kept) for (const s of slotsOf(r)) for (const c of s.casings ?? []) casingVotes.set(c, (casingVotes.get(c) ?? 0) + 1);
  // a tie (values whose case the table keys cannot tell, `vehicleid_v1`) is broken by the index keys' values (`depot_north`)
  const indexVotes = new Map<Casing, number>();
  const indexKeys = [...synthetic].filter((a) => a !== table.pk.name && a !== table.sk?.name);
  for (const r of kept) {
    for (const item of r.cluster.items) {
      for (const attr of indexKeys) {
        const value = item[attr];
        const tokens = typeof value === 'string' ? tokenize(value, delimiter, escaped, item, exclude) : undefined;
        for (const token of tokens ?? []) if (token.kind === 'slot') for (const c of new Set(token.bindings.flatMap((b) => [...b.casings]))) indexVotes.set(c, (indexVotes.get(c) ?? 0) + 1);
      }
    }
  }
  const votes = (c: Casing) => (casingVotes.get(c) ?? 0) * (sample.length * indexKeys.length + 1) + (indexVotes.get(c) ?? 0);
  const casing = (['preserve', 'lower', 'upper'] as const).reduce((best, c) => (votes(c) > votes(best) ? c : best), 'preserve' as Casing);
  // the table's integer form: padded when any key pads one (ddbgen's own form), else plain; an
  // attribute written the other way declares its own (t.number({ keyFormat })), so a table may mix them
  const integerSlots = kept.flatMap((r) => slotsOf(r).filter((s) => s.binding!.form.kind === 'integer'));
  const padded = integerSlots.some((s) => (s.binding!.form as { padded?: number }).padded !== undefined);
  const integers: 'padded' | 'plain' = padded || integerSlots.length === 0 ? 'padded' : 'plain';
  kept = kept.filter((r) => {
    const misfit = slotsOf(r).find((s) => !s.casings!.has(casing)) ? `its keys are folded to another case than the table's other keys (${casing})` : undefined;
    if (misfit) for (const item of r.cluster.items) unmatched.push({ key: keyOf(table, item), reason: misfit });
    return !misfit;
  });

  // entities: named, with attributes and index mappings
  const names = new Set<string>();
  const entities: InferredEntity[] = [];
  const merged = new Map<string, ResolvedCluster[]>();
  for (const r of kept) {
    const id = JSON.stringify([r.cluster.group, templateSource(r.pk, delimiter), r.sk ? templateSource(r.sk, delimiter) : null]);
    merged.set(id, [...(merged.get(id) ?? []), r]);
  }
  const ordered = [...merged.values()].sort((a, b) => sum(b) - sum(a));
  // shapes named alike by their partition key (`USER#<userId> / PROFILE`, `USER#<userId> / CART#current`):
  // the one whose sort key names no kind of item of its own (PROFILE, METADATA) keeps the name, else the largest
  const keyed = ordered.filter((g) => g[0]!.cluster.group === '');
  const keeper = new Map<string, ResolvedCluster[]>();
  for (const g of keyed) {
    const base = nameFromKeys(g[0]!.pk, g[0]!.sk);
    const held = keeper.get(base);
    const own = (x: ResolvedCluster[]) => x[0]!.sk === undefined || sortKeyWord(x[0]!.sk) === undefined || SELF_WORDS.test(sortKeyWord(x[0]!.sk)!) || sortKeyWord(x[0]!.sk) === base;
    if (!held || (own(g) && !own(held))) keeper.set(base, g);
  }
  for (const group of ordered) {
    const first = group[0]!;
    const entityItems = group.flatMap((r) => r.cluster.items);
    const facet = sample.find((s) => s.item === entityItems[0])?.facet;
    const discriminated = discriminator.length ? Object.fromEntries(discriminator.map((a) => [a, entityItems[0]![a] as string]).filter(([, v]) => typeof v === 'string')) : undefined;
    let name = facet !== undefined ? pascalCase(facet) : discriminated ? pascalCase(String(entityItems[0]![discriminator[0]!])) : nameFromKeys(first.pk, first.sk);
    // a partition shared with another entity: named by its own sort key (`USER#<userId> / CART#current` is a Cart)
    if ((names.has(name) || (keeper.has(name) && keeper.get(name) !== group)) && facet === undefined && !discriminated && first.sk) {
      const own = sortKeyWord(first.sk);
      if (own !== undefined && !names.has(own)) name = own;
    }
    for (let n = 2; names.has(name); n++) name = `${name.replace(/\d+$/, '')}${n}`;
    names.add(name);
    const entity = buildEntity(table, name, entityItems, first, delimiter, escaped, exclude, native, integers, casing, discriminated, facet);
    if ('problem' in entity) {
      names.delete(name);
      for (const item of entityItems) unmatched.push({ key: keyOf(table, item), reason: entity.problem });
    } else entities.push(entity);
  }
  if (entities.length === 0) {
    const { message, fix } = messages.DDB302(sample.length, summariseReasons(unmatched));
    throw new PullError(message, described, fix, 'DDB302');
  }
  // glued text and empty segments, as ddbgen's own codec never writes them
  const glued = kept.some((r) => [...r.pk, ...(r.sk ?? [])].some((s) => s.literal === '' || (s.binding && (s.binding.prefix || s.binding.suffix))));
  const needsFormat = !escaped || casing !== 'preserve' || integers === 'plain' || glued;
  return {
    table,
    name: pascalCase(table.name),
    delimiter,
    ...(needsFormat ? { keyFormat: { escape: escaped, integers, casing } } : {}),
    native: native.map((i) => i.name),
    entities,
    unmatched,
    sampled: sample.length,
    discriminator,
    notes,
    leftOut,
    warnings: [...keyWarnings, ...entities.flatMap((e) => e.warnings)],
  };
}

const sum = (group: readonly ResolvedCluster[]) => group.reduce((n, r) => n + r.cluster.items.length, 0);

function summariseReasons(unmatched: readonly UnmatchedItem[]): string {
  const counts = new Map<string, number>();
  for (const u of unmatched) counts.set(u.reason, (counts.get(u.reason) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([reason, n]) => `${n} item(s): ${reason}`).join('; ');
}

function buildEntity(
  table: PulledTable,
  name: string,
  items: readonly Item[],
  shape: ResolvedCluster,
  delimiter: string,
  escaped: boolean,
  exclude: ReadonlySet<string>,
  native: readonly PulledIndex[],
  integers: 'padded' | 'plain',
  casing: Casing,
  discriminator: Record<string, string> | undefined,
  facet: string | undefined,
): InferredEntity | { problem: string } {
  const notes: string[] = [];
  const warnings: PullWarning[] = [];
  const outliers = new Map<number, string[]>();
  const outlier = (i: number, reason: string) => outliers.set(i, [...(outliers.get(i) ?? []), reason]);
  const n = items.length;
  const keyTemplate = (slots: readonly Slot[]): InferredTemplate => ({ source: templateSource(slots, delimiter), fits: n, of: n });
  // bound attributes in template order (the table key's, then the indexes')
  const bound = new Map<string, Binding>();
  for (const s of [...shape.pk, ...(shape.sk ?? [])]) if (s.binding && !bound.has(s.binding.attr)) bound.set(s.binding.attr, s.binding);

  // index mappings: each synthetic index whose keys the entity's items carry, and native GSIs keyed by its attributes
  const indexes: Array<{ index: string; pk?: InferredTemplate; sk?: InferredTemplate; native?: true }> = [];
  for (const index of table.indexes) {
    if (native.includes(index)) {
      const attrs = [...index.pk, ...index.sk].map((a) => a.name);
      if (items.some((i) => attrs.every((a) => i[a] !== undefined))) indexes.push({ index: index.name, native: true });
      continue;
    }
    const pkAttr = index.kind === 'gsi' ? index.pk[0]?.name : undefined;
    const skAttr = index.sk[0]?.name;
    const keyAttrs = [pkAttr, skAttr].filter((a): a is string => a !== undefined);
    let holdingAt = items.flatMap((i, at) => (keyAttrs.every((a) => typeof i[a] === 'string') ? [at] : []));
    if (holdingAt.length === 0) continue;
    // each key's template over the items in the index; items whose index key has another shape are outliers
    let pk: ReturnType<typeof resolveTemplate> | undefined;
    let sk: ReturnType<typeof resolveTemplate> | undefined;
    let problem: string | undefined;
    for (const attr of keyAttrs) {
      const tokens = holdingAt.map((at) => tokenize(items[at]![attr] as string, delimiter, escaped, items[at]!, exclude));
      const widths = new Map<number, number[]>();
      tokens.forEach((t, k) => widths.set(t?.length ?? -1, [...(widths.get(t?.length ?? -1) ?? []), k]));
      const [width, at] = [...widths].sort((a, b) => b[1].length - a[1].length)[0]!;
      if (widths.size > 1) {
        if (width === -1 || !dominant(at.length, holdingAt.length)) {
          problem = `its ${attr} values have different numbers of segments`;
          break;
        }
        for (const [w, ks] of widths) if (w !== width) for (const k of ks) outlier(holdingAt[k]!, `its ${attr} ("${String(items[holdingAt[k]!]![attr])}") has ${w === -1 ? 'a malformed escape' : `${w} segments`}, where ${count(at.length)} of ${count(holdingAt.length)} items in index ${index.name} have ${width}: it is not read as in the index`);
        holdingAt = at.map((k) => holdingAt[k]!);
      }
    }
    if (!problem) {
      const resolve = (attr: string | undefined) => (attr === undefined ? undefined : resolveTemplate(holdingAt.map((at) => tokenize(items[at]![attr] as string, delimiter, escaped, items[at]!, exclude)!), holdingAt.map((at) => items[at]!), `${attr}`));
      pk = resolve(pkAttr);
      sk = resolve(skAttr);
      problem = (pk && 'problem' in pk ? pk.problem : pk && 'split' in pk ? `its ${pkAttr} values hold different attributes in different items` : undefined) ?? (sk && 'problem' in sk ? sk.problem : sk && 'split' in sk ? `its ${skAttr} values hold different attributes in different items` : undefined);
    }
    if (problem) {
      warnings.push(pullWarnings.indexLeftOut(index.name, name, problem));
      continue;
    }
    // items whose index key disagrees with their attributes: outliers, and not counted as fitting the mapping
    const misfit = new Set<number>();
    for (const r of [pk, sk]) if (r && 'outliers' in r) for (const [k, reason] of r.outliers) {
      outlier(holdingAt[k]!, `in index ${index.name}, ${reason}`);
      misfit.add(holdingAt[k]!);
    }
    holdingAt = holdingAt.filter((at) => !misfit.has(at));
    const holding = holdingAt.map((at) => items[at]!);
    const slots = [...(pk && 'slots' in pk ? pk.slots : []), ...(sk && 'slots' in sk ? sk.slots : [])];
    if (slots.some((s) => s.binding && !s.casings!.has(casing))) {
      warnings.push(pullWarnings.indexLeftOut(index.name, name, 'its keys are folded to another case than the table keys'));
      continue;
    }
    // one attribute, one written form: an index that writes it otherwise than the keys before it cannot share its codec
    const otherForm = slots.find((s) => s.binding && bound.has(s.binding.attr) && integerFormText(bound.get(s.binding.attr)!) !== integerFormText(s.binding));
    if (otherForm) {
      const b = otherForm.binding!;
      warnings.push(pullWarnings.indexLeftOut(index.name, name, `its keys write ${b.attr} ${integerFormText(b)}, and the keys before it write it ${integerFormText(bound.get(b.attr)!)}; ddbgen writes one attribute one way (items ${holding.slice(0, 3).map((i) => JSON.stringify(keyOf(table, i))).join(', ')}${holding.length > 3 ? ', …' : ''})`));
      continue;
    }
    for (const s of slots) if (s.binding && !bound.has(s.binding.attr)) bound.set(s.binding.attr, s.binding);
    const template = (r: typeof pk) => (r && 'slots' in r ? { source: templateSource(r.slots, delimiter), fits: holding.length, of: n } : undefined);
    const mapping = { index: index.name, ...(template(pk) ? { pk: template(pk)! } : {}), ...(template(sk) ? { sk: template(sk)! } : {}) };
    if (holding.length < n) {
      // a sparse index: written only for items holding every optional attribute its templates read
      const inputs = slots.filter((s) => s.binding).map((s) => s.binding!.attr);
      const optional = inputs.filter((a) => items.some((i) => i[a] === undefined));
      if (optional.length === 0) {
        // most items in it: the index is the entity's, and the few outside it are outliers
        if (!dominant(holding.length, n)) {
          warnings.push(pullWarnings.indexLeftOut(index.name, name, `only ${count(holding.length)} of ${count(n)} items are in it, and its keys read no attribute the others lack (ddbgen writes an index for every item holding its attributes)`));
          continue;
        }
        const inIndex = new Set(holdingAt);
        items.forEach((item, at) => {
          if (inIndex.has(at) || outliers.has(at)) return;
          const lacking = keyAttrs.filter((a) => typeof item[a] !== 'string');
          outlier(at, `it is not in index ${index.name} (no ${lacking.join(' / ')}), where ${count(holding.length)} of ${count(n)} ${name} items are; ddbgen's code writes it there when it puts the item`);
        });
      }
    }
    indexes.push(mapping);
  }

  // attributes: every attribute but the built keys and the discriminator
  const attributes: InferredAttribute[] = [];
  const undescribed: Array<{ name: string; reason: string; seen: number }> = [];
  // the attributes the keys hold, in key order, then the others by name (DynamoDB keeps no attribute order)
  const others = [...new Set(items.flatMap((i) => Object.keys(i)))].filter((a) => !exclude.has(a) && !bound.has(a)).sort();
  const stored = [...bound.keys(), ...others];
  const properties = new Set<string>();
  for (const attr of stored) {
    const values = items.map((i) => i[attr]);
    const seen = values.filter((v) => v !== undefined).length;
    const byMajority = inferTypeByMajority(attr, values, attr === table.ttl, `${name} items`);
    let type: InferredType | Undescribed = 'reason' in byMajority ? byMajority : byMajority.type;
    if (!('reason' in byMajority)) for (const o of byMajority.outliers) outlier(o.index, `${o.reason}; the schema declares it ${typeText(byMajority.type)}, which this value is not`);
    const binding = bound.get(attr);
    if (binding && !('reason' in type)) type = fitToBinding(type, binding, values, integers);
    if ('reason' in type) {
      if (binding) notes.push(`${attr} is in a key, but ${type.reason}`);
      undescribed.push({ name: attr, reason: type.reason, seen });
      continue;
    }
    let property = propertyName(attr);
    for (let k = 2; properties.has(property); k++) property = `${propertyName(attr)}${k}`;
    properties.add(property);
    const odd = 'reason' in byMajority ? 0 : byMajority.outliers.length;
    attributes.push({ property, ...(property === attr ? {} : { storedAs: attr }), type, optional: seen < n, seen, ...(odd ? { odd } : {}) });
  }
  const missing = [...bound.keys()].find((a) => !attributes.some((x) => (x.storedAs ?? x.property) === a));
  if (missing) return { problem: `its key holds ${missing}, and ${undescribed.find((u) => u.name === missing)?.reason ?? 'no type describes it'}` };
  // a key slot names the property, not the stored attribute
  const rename = (t: InferredTemplate | undefined) => (t ? { ...t, source: t.source.replace(/<([^<>:]+)(:[a-z]+)?>/g, (_, a: string, u = '') => `<${attributes.find((x) => (x.storedAs ?? x.property) === a)?.property ?? a}${u}>`) } : undefined);
  return {
    name,
    items: n,
    ...(discriminator ? { discriminator } : {}),
    ...(facet !== undefined ? { facet } : {}),
    key: { pk: rename(keyTemplate(shape.pk))!, ...(shape.sk ? { sk: rename(keyTemplate(shape.sk))! } : {}) },
    indexes: indexes.map((m) => ({ ...m, ...(m.pk ? { pk: rename(m.pk)! } : {}), ...(m.sk ? { sk: rename(m.sk)! } : {}) })),
    attributes,
    undescribed,
    notes,
    warnings,
    outliers: [...outliers].sort((a, b) => a[0] - b[0]).map(([at, reasons]) => ({ key: keyOf(table, items[at]!), reason: reasons.join('; ') })),
    itemKeys: items.map((i) => keyOf(table, i)),
  };
}

/** How a binding writes an integer, for messages and to compare two bindings of one attribute: `padded to 5 digits`, `without padding`; '' for other forms. */
function integerFormText(binding: Binding): string {
  const form = binding.form;
  return form.kind !== 'integer' ? '' : form.padded !== undefined ? `padded to ${form.padded} digits` : 'without padding';
}

/** An attribute's type as its key slot needs it: integers get the range their padding implies (or are plain), each as the table's keyFormat or its own; a truncated slot needs a timestamp. */
function fitToBinding(type: InferredType, binding: Binding, values: readonly unknown[], integers: 'padded' | 'plain'): InferredType | Undescribed {
  const form = binding.form;
  if (form.kind === 'truncate') return type.kind === 'timestamp' && type.format === undefined ? type : { reason: 'its key slot truncates it, and it is not stored as an ISO timestamp with milliseconds' };
  if (form.kind === 'integer') {
    if (type.kind === 'timestamp' && (type.format === 'epoch-seconds' || type.format === 'epoch-milliseconds')) return type;
    if (type.kind !== 'number' || !type.integer) return { reason: 'its key slot holds an integer, and its values are not all integers' };
    // padded: the range its width implies; plain: its digits. Where the table's keyFormat says otherwise, the attribute says so itself
    if (form.padded !== undefined) return { kind: 'number', integer: true, min: 0, max: 10 ** form.padded - 1, ...(integers === 'padded' ? {} : { keyFormat: 'padded' as const }) };
    return integers === 'plain' ? type : { ...type, keyFormat: 'plain' };
  }
  return type;
}
