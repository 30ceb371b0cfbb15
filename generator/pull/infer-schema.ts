// Infers a schema from a table's description and a sample of its items (`ddbgen pull`): entities
// told apart by a discriminator attribute when the items carry one (ElectroDB's __edb_e__ and
// __edb_v__, DynamoDB-Toolbox's _et, OneTable's _type, a NoSQL Workbench facet, or one named with
// --discriminator), else by the shape of their keys; each entity's key templates with the slots bound
// to the attributes they hold; the table's stored key format; index mappings; attribute types. Every
// inference carries the number of sampled items it covers, and items that fit nothing are listed
// with the reason.

import { messages, pullWarnings, type PullWarning } from '../diagnostics/messages.js';
import { dominant, inferTypeByMajority, typeText, type InferredType, type Undescribed } from './infer-attributes.js';
import { inferDelimiter, tokenize, type Binding, type Casing } from './infer-keys.js';
import type { PulledIndex, PulledTable } from './table-description.js';
import { type InferredAttribute, type InferredEntity, type InferredSchema, type InferredTemplate, type Item, PullError, type SampledItem, type UnmatchedItem } from './inferred-schema.js';
import { count, pascalCase, propertyName } from './infer-names.js';
import { type Cluster, type ResolvedCluster, SELF_WORDS, type Slot, discriminatorOf, keyKinds, keyOf, nameFromKeys, resolveCluster, resolveTemplate, sortKeyWord, splitByLiterals, templateSource } from './infer-clusters.js';

/** A key shape becomes an entity of its own when this many sampled items have it, or this share of the sample. */
export const MIN_ENTITY_ITEMS = 3;
export const MIN_ENTITY_SHARE = 0.1;

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
