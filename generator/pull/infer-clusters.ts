// How `ddbgen pull` groups a sample's items into would-be entities: which key attributes hold
// built (synthetic) keys and which are native, the discriminator the items carry, clusters of items
// by key shape split on their literals, and each cluster's key templates resolved slot by slot
// (outliers listed with the reason). Part of inferring a schema (infer-schema.ts).

import { pullWarnings, type PullWarning } from '../diagnostics/messages.js';
import { dominant } from './infer-attributes.js';
import { bindingId, type Binding, type Casing, type Token } from './infer-keys.js';
import type { PulledIndex, PulledTable } from './table-description.js';
import { type Item, type UnmatchedItem } from './inferred-schema.js';
import { count, pascalCase } from './infer-names.js';

/** Discriminators peers write, most specific first. */
const KNOWN_DISCRIMINATORS: ReadonlyArray<readonly string[]> = [['__edb_e__', '__edb_v__'], ['_et'], ['_type'], ['__typename'], ['entityType'], ['type']];

const SYNTHETIC_NAME = /(pk|sk|key|hash|range)\d*$/i;

/** The key attributes that hold built (synthetic) keys, and the GSIs keyed natively by the items' attributes. */
export function keyKinds(table: PulledTable, items: readonly Item[]): { synthetic: Set<string>; native: PulledIndex[]; leftOut: string[]; warnings: PullWarning[] } {
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
export function discriminatorOf(items: readonly Item[], named: string | undefined): string[] {
  if (named !== undefined) return named === '__edb_e__' && items.some((i) => typeof i['__edb_v__'] === 'string') ? ['__edb_e__', '__edb_v__'] : [named];
  for (const attrs of KNOWN_DISCRIMINATORS) {
    const carrying = items.filter((i) => typeof i[attrs[0]!] === 'string').length;
    if (carrying * 2 >= items.length && carrying > 0) return attrs.filter((a) => items.some((i) => typeof i[a] === 'string'));
  }
  return [];
}

export interface Slot {
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
export function resolveTemplate(perItem: ReadonlyArray<readonly Token[]>, items: readonly Item[], which: string): { slots: Slot[]; outliers: Map<number, string> } | { problem: string } | { split: number[] } {
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
export function templateSource(slots: readonly Slot[], delimiter: string): string {
  return slots
    .map((s) => (s.literal !== undefined ? s.literal : `${s.binding!.prefix}<${s.binding!.attr}${s.binding!.form.kind === 'truncate' ? `:${s.binding!.form.unit}` : ''}>${s.binding!.suffix}`))
    .join(delimiter);
}

export interface Cluster {
  readonly group: string;
  readonly items: Item[];
  readonly pk: Token[][];
  readonly sk: Token[][];
}

export interface ResolvedCluster {
  readonly cluster: Cluster;
  readonly pk: Slot[];
  readonly sk?: Slot[];
}

/**
 * A cluster split wherever its items have different literal text at one position (`ORDER#…` and
 * `ITEM#…`): each part has one text there. Positions where every item holds a slot stay together.
 */
export function splitByLiterals(cluster: Cluster): Cluster[] {
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
export function resolveCluster(table: PulledTable, cluster: Cluster, unmatched: UnmatchedItem[]): ResolvedCluster[] {
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

export function keyOf(table: PulledTable, item: Item): Record<string, unknown> {
  return { [table.pk.name]: item[table.pk.name], ...(table.sk ? { [table.sk.name]: item[table.sk.name] } : {}) };
}

/** Sort-key words that name no kind of item of their own: the item the partition key names. */
export const SELF_WORDS = /^(Profile|Metadata|Meta|Details?|Info|Root|Main|Data|Item|Record|Entity|Self|Summary|A|V\d*)$/;

/** An entity's name from the first word of its sort key, if it has one. */
export function sortKeyWord(sk: readonly Slot[]): string | undefined {
  const text = sk.map((s) => s.literal ?? s.binding?.prefix ?? '').find((t) => /[A-Za-z]/.test(t));
  return text === undefined ? undefined : pascalCase(text.replace(/^\$/, ''));
}

/** The name an entity takes from its keys: the sort key's first word when the sort key varies, else the partition key's. */
export function nameFromKeys(pk: readonly Slot[], sk: readonly Slot[] | undefined): string {
  const word = (slots: readonly Slot[]) => slots.map((s) => s.literal ?? s.binding?.prefix ?? '').find((text) => /[A-Za-z]/.test(text));
  const skVaries = sk?.some((s) => s.binding) ?? false;
  const text = (skVaries ? word(sk!) : undefined) ?? word(pk) ?? (sk ? word(sk) : undefined) ?? 'Item';
  return pascalCase(text.replace(/^\$/, ''));
}
