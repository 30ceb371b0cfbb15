// An old entity item read by the old schema and built again by the new one: its stored key, its
// item form (decoded and checked against the new declarations), its new record (a random shard
// kept or folded, never drawn again) and the index attributes that change. Item classification,
// item migration, counter merges and the segment's write plan all read items this way.

import { KeyTemplate, SHARD, keyShard, keyTemplate } from '../codec.js';
import { itemTypeProblem } from '../declared-type.js';
import { propertyNamed } from '../item.js';
import { storedItem } from '../item-mapping.js';
import type { EntityModel } from '../repository.js';
import type { DecodeStored, MigratedEntity, OldEntityModel } from './plan.js';

/** A record's table key: the values of the model's partition and sort key attributes. */
export const tableKey = (model: OldEntityModel, record: Readonly<Record<string, unknown>>) =>
  Object.fromEntries([model.pk.attribute, ...(model.sk ? [model.sk.attribute] : [])].map((a) => [a, record[a]]));

/** An old entity's table-key templates, rebuilt by this runtime from their definitions (the old codec version comes along, and a shard can be given). */
interface OldKeys {
  readonly pk: KeyTemplate;
  readonly sk: KeyTemplate | undefined;
}

const oldKeys = new WeakMap<OldEntityModel, OldKeys>();

export function keysOf(model: OldEntityModel): OldKeys {
  let found = oldKeys.get(model);
  if (!found) oldKeys.set(model, (found = { pk: new KeyTemplate(model.pk.template.def), sk: model.sk && new KeyTemplate(model.sk.template.def) }));
  return found;
}

/**
 * The shard a moved item takes under `next` (undefined when that key has no `<shard>`): a random
 * suffix keeps its position when the count is the same (only the encoding changed), and folds onto
 * the new count when it changed (old shard s of n → s mod m), so a re-run picks the same key.
 */
export function movedShard(old: { readonly shards: number | undefined; readonly shardStart: number } | undefined, shard: number | undefined, next: { readonly shards: number | undefined; readonly shardStart: number }): number | undefined {
  if (next.shards === undefined) return undefined;
  const position = old?.shards === undefined || shard === undefined ? 0 : shard - old.shardStart;
  return next.shardStart + (position % next.shards);
}

/** Why an item cannot be moved as it is stored, or its item form and the shard its key holds. */
export function readStored(entity: MigratedEntity, decode: DecodeStored, stored: Readonly<Record<string, unknown>>): { item: Record<string, unknown>; shard: number | undefined } | { skip: string } {
  const keys = keysOf(entity.from);
  let item: Record<string, unknown>;
  let shard: number | undefined;
  try {
    item = decode(entity.name, entity.from.codecs, propertyNamed(entity.from, stored), entity.from.keyAttributes);
    shard = keys.pk.shardIn(stored[entity.from.pk.attribute] as string);
  } catch (error) {
    return { skip: `${entity.name}: ${(error as Error).message}` };
  }
  const problem = itemTypeProblem(entity.declared, item);
  if (problem) return { skip: `${entity.name}: ${problem}` };
  // the item moves from its stored key: attributes that build another key are someone else's write, not this item
  for (const [attribute, template] of [[entity.from.pk.attribute, keys.pk], ...(entity.from.sk ? [[entity.from.sk.attribute, keys.sk!] as const] : [])] as const) {
    let built: string;
    try {
      built = template.build({ ...item, [SHARD]: shard });
    } catch (error) {
      return { skip: `${entity.name}: its attributes do not build its stored ${attribute} (${(error as Error).message})` };
    }
    if (built !== stored[attribute]) return { skip: `${entity.name}: its stored ${attribute} ${JSON.stringify(stored[attribute])} disagrees with its attributes, which build ${JSON.stringify(built)}` };
  }
  return { item, shard };
}

/** The new stored record of an item: built by the new schema, a random shard kept (or folded) rather than drawn again. */
export function nextRecord(entity: MigratedEntity, item: Record<string, unknown>, shard: number | undefined): Record<string, unknown> {
  const next = storedItem(entity.to, item);
  const keys = keysOf(entity.from);
  for (const [part, old] of [[entity.to.pk, keys.pk], [entity.to.sk, keys.sk]] as const) {
    if (part && keyShard(part.template)?.random) next[part.attribute] = part.template.build({ ...item, [SHARD]: movedShard(old, shard, keyTemplate(part.template)) });
  }
  return next;
}

/** The changed index attributes of a record: SET these, REMOVE those, when the stored ones differ. */
export function indexChanges(entity: MigratedEntity, stored: Readonly<Record<string, unknown>>, next: Readonly<Record<string, unknown>>): { set: Record<string, unknown>; remove: string[] } {
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  const primary = new Set(Object.keys(tableKey(entity.to, next)));
  for (const name of new Set([...entity.to.keyAttributes, ...entity.from.keyAttributes])) {
    if (primary.has(name) || stored[name] === next[name]) continue;
    if (next[name] === undefined) remove.push(name);
    else set[name] = next[name];
  }
  // attributes the new schema stores under another name or in another timestamp format: rewritten
  const { from, to } = entity;
  const storedName = (model: Pick<EntityModel, 'storedNames'>, name: string) => model.storedNames?.[name] ?? name;
  for (const name of to.attributes) {
    const [old, now] = [storedName(from, name), storedName(to, name)];
    if (old === now && JSON.stringify(from.codecs[name]) === JSON.stringify(to.codecs[name])) continue;
    if (JSON.stringify(stored[now]) !== JSON.stringify(next[now])) {
      if (next[now] === undefined) remove.push(now);
      else set[now] = next[now];
    }
    if (old !== now && stored[old] !== undefined) remove.push(old);
  }
  return { set, remove };
}
