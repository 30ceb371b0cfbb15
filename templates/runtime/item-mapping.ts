// An entity's item and its stored record: the conversions both ways (generic, or the generated
// ones an entity names), its table and index keys, its native-index attributes, the key changes an
// update implies, and the checks a written item passes before anything is sent.

import { SHARD_SEGMENT } from './codec.js';
import { ItemTooLargeError, ValidationError } from './errors.js';
import { itemSize, itemSizeBound, MAX_ITEM_BYTES } from './item-size.js';
import { checkAttributeNames, checkValue, checkValueNames, fromStored, propertyNamed, toStored, withRequiredSets } from './item.js';
import type { EntityModel, IndexModel, NativeKeyAttribute } from './table-context.js';

const hasOwn = (record: object, name: string) => Object.prototype.hasOwnProperty.call(record, name);

/** Index key attributes an entity writes as copies of its own attributes of other names. */
function copies(model: EntityModel): NativeKeyAttribute[] {
  return (model.nativeIndexes ?? []).flatMap((index) => [...index.partition, ...index.sort].filter(([attribute, source]) => attribute !== source));
}

/**
 * The native-index attributes of a stored record: renamed copies added; a key value DynamoDB
 * would refuse (an empty string) is an error before any request.
 */
export function nativeIndexAttributes(model: EntityModel, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const index of model.nativeIndexes ?? []) {
    for (const [attribute, source] of [...index.partition, ...index.sort]) {
      if (record[source] === '') throw new ValidationError(model.name, source, `is a key attribute of index "${index.name}", and DynamoDB refuses an empty string there: give a value, or leave it out to keep the item out of the index`);
      if (attribute !== source && record[source] !== undefined) out[attribute] = record[source];
    }
  }
  return out;
}

/** What an update must also set or remove so renamed copies follow their attributes. */
export function nativeIndexChanges(model: EntityModel, set: Readonly<Record<string, unknown>>, remove: readonly string[]): { set: Record<string, unknown>; remove: string[] } {
  const stored = toStored(model.name, model.codecs, set);
  const out = { set: nativeIndexAttributes(model, stored), remove: [] as string[] };
  for (const [attribute, source] of copies(model)) if (remove.includes(source)) out.remove.push(attribute);
  return out;
}

/** Whether an attribute is copied under another name: such attributes change only through `set`. */
export function isCopied(model: EntityModel, name: string): boolean {
  return copies(model).some(([, source]) => source === name);
}

/** The attributes of an entity's table key. */
export const tableKeyAttributes = (model: EntityModel) => [model.pk.attribute, ...(model.sk ? [model.sk.attribute] : [])];

/**
 * `check` by the checks of every kind, and `toRecord` and `toItem` by the generic conversions, as methods of the model they are spread into
 * (`{ ...genericConversions, name, … }`, a copy `{ ...model, passthrough: true }` converting as the
 * copy): for models made at run time; generated models name their conversions.
 */
export const genericConversions = {
  check: checkValue,
  toRecord(this: EntityModel, item: object): Record<string, unknown> {
    return genericRecord(this, item);
  },
  toItem(this: EntityModel, record: Readonly<Record<string, unknown>>): object {
    return genericItem<object>(this, record);
  },
};

/** The item form of a whole stored record: the entity's `toItem`. */
export function itemOf<T>(model: EntityModel, stored: Readonly<Record<string, unknown>>): T {
  return model.toItem(stored) as T;
}

/**
 * The item form of a stored record by the generic conversion: declared attributes only (all but
 * keys for a passthrough entity). What `toItem` is for an entity without a generated one, and what
 * reads a `partial` record (an index projection, the changed attributes an update returns), which
 * leaves out what the record does not hold.
 */
export function genericItem<T>(model: EntityModel, stored: Readonly<Record<string, unknown>>, partial = false): T {
  const item = fromStored<Record<string, unknown>>(model.name, model.codecs, propertyNamed(model, stored), model.keyAttributes, model.passthrough ? undefined : model.attributes);
  // a required set is stored as nothing when empty: a whole item reads it back as an empty set
  if (!partial) withRequiredSets(item, model.types, model.required);
  return item as T;
}

/** A record keyed by property names with the renamed attributes under their stored names (`storedNames`), plus the discriminator. */
export function storedNamed(model: EntityModel, record: Record<string, unknown>): Record<string, unknown> {
  const names = model.storedNames;
  if (names !== undefined) {
    for (const property of Object.keys(names)) {
      if (!hasOwn(record, property)) continue;
      const value = record[property];
      delete record[property];
      record[names[property]!] = value;
    }
  }
  return model.discriminator === undefined ? record : Object.assign(record, model.discriminator);
}

/** The table key of an item, from the attributes its key templates name. */
export function primaryKey(model: EntityModel, values: Readonly<Record<string, unknown>>): Record<string, string> {
  const key: Record<string, string> = { [model.pk.attribute]: model.pk.template.build(values) };
  if (model.sk) key[model.sk.attribute] = model.sk.template.build(values);
  return key;
}

/** Whether the item belongs in a sparse index: all optional inputs present (true), none (false), some (error). */
export function indexMembership(model: EntityModel, index: IndexModel, item: object): boolean {
  const values = item as Readonly<Record<string, unknown>>;
  const missing = index.optional.filter((name) => values[name] === undefined || values[name] === null);
  if (missing.length === 0) return true;
  if (missing.length === index.optional.length) return false;
  const present = index.optional.filter((name) => !missing.includes(name));
  throw new ValidationError(model.name, missing[0]!, `index "${index.name}" needs ${index.optional.join(', ')} together: ${present.join(', ')} given without ${missing.join(', ')}`);
}

function indexKey(index: IndexModel, values: Readonly<Record<string, unknown>>): Record<string, string> {
  const keys: Record<string, string> = {};
  if (index.kind === 'gsi') keys[index.pk.attribute] = index.pk.template.build(values);
  if (index.sk) keys[index.sk.attribute] = index.sk.template.build(values);
  return keys;
}

/**
 * The index keys of an item. A mapping that reads optional attributes is sparse: its keys are
 * written when all of them are present and left out when none is; some but not all is an error.
 */
export function indexKeys(model: EntityModel, item: Readonly<Record<string, unknown>>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const index of model.indexes) if (indexMembership(model, index, item)) Object.assign(keys, indexKey(index, item));
  return keys;
}

/** The full stored record of an item: its converted attributes plus its table and index keys (the entity's `toRecord`). */
export function storedItem(model: EntityModel, item: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return model.toRecord(item);
}

/** The generic `toRecord`, for an entity without a generated one: the item checked, its attributes converted, its table and index keys built. */
export function genericRecord(model: EntityModel, given: object): Record<string, unknown> {
  const item = given as Readonly<Record<string, unknown>>;
  checkWritten(model, item);
  const keys = indexKeys(model, item);
  Object.assign(keys, primaryKey(model, item));
  checkRequired(model, item);
  const stored = toStored(model.name, model.codecs, item);
  return checkedSize(model, storedNamed(model, Object.assign(stored, nativeIndexAttributes(model, stored), keys)));
}

/**
 * Checks the names and values of an item to write, before anything is built from it: no key
 * attribute, no shard suffix, no forbidden name at any depth, no undeclared attribute (unless
 * passthrough). One pass over the item's names; the first undeclared one checks them all.
 */
export function checkWritten(model: EntityModel, written: object): void {
  const item = written as Readonly<Record<string, unknown>>;
  if (SHARD_SEGMENT in item) throw new ValidationError(model.name, SHARD_SEGMENT, 'is not an attribute: the shard suffix is calculated from the key (or drawn per write), never given');
  const proto = Object.getPrototypeOf(item) as unknown;
  if (proto !== Object.prototype && proto !== null) checkInherited(model, item);
  const types = model.types;
  let undeclared = false;
  for (const name in item) {
    if (!hasOwn(item, name)) continue;
    // a declared attribute is never a key attribute (DDB022) nor a forbidden name (DDB160)
    const declared = model.attributes.includes(name);
    if (!undeclared && !declared) {
      checkUndeclared(model, item);
      undeclared = true;
    }
    const value = item[name];
    // primary-key parts are checked by their key templates (a KeyValueError naming the key)
    if (declared && types !== undefined && value !== undefined && !model.primaryParts.includes(name)) model.check(model.name, name, types[name]!, value);
    else if (typeof value === 'object' && value !== null) checkValueNames(model.name, name, value);
  }
}

/** Only own properties are an item's: a declared attribute an object inherits (from a class or `Object.create`) is refused, never read. */
function checkInherited(model: EntityModel, item: Readonly<Record<string, unknown>>): void {
  for (const name of model.attributes) {
    if (!hasOwn(item, name) && name in item) throw new ValidationError(model.name, name, 'is inherited, not an own property of the item, so it was not written: copy the values onto a plain object ({ ...item } copies only own ones)', 'ATTRIBUTE_INHERITED');
  }
}

/** An item naming an undeclared attribute: a key attribute or the shard is refused first, then forbidden or (unless passthrough) undeclared names. */
function checkUndeclared(model: EntityModel, item: Readonly<Record<string, unknown>>): void {
  for (const name of model.keyAttributes) {
    if (Object.prototype.hasOwnProperty.call(item, name)) throw new ValidationError(model.name, name, 'is a key attribute of the table; ddbgen writes it from the key templates');
  }
  checkAttributeNames(model, Object.keys(item));
}

/** Throws ValidationError naming the first required attribute the item lacks (checked once its keys are built, so a missing key part is a KeyValueError). */
export function checkRequired(model: EntityModel, written: object): void {
  const item = written as Readonly<Record<string, unknown>>;
  for (const name of model.required) if (!hasOwn(item, name) || item[name] === undefined) throw missingAttribute(model, name);
}

/** The error for a required attribute an item to write lacks. */
export function missingAttribute(model: EntityModel, name: string): ValidationError {
  return new ValidationError(model.name, name, `is required; give ${model.name}.${name} a value`, 'ATTRIBUTE_REQUIRED');
}

/** The record, if it fits DynamoDB's 400 KB; else ItemTooLargeError (measured only when a cheap bound is over). */
export function checkedSize(model: EntityModel, record: Record<string, unknown>): Record<string, unknown> {
  if ((itemSizeBound(record) ?? Infinity) > MAX_ITEM_BYTES) {
    const bytes = itemSize(record);
    if (bytes > MAX_ITEM_BYTES) throw new ItemTooLargeError(model.name, bytes, MAX_ITEM_BYTES);
  }
  return record;
}

/**
 * The index keys an update must set or remove. Changing an attribute that feeds an index key needs
 * the key's other inputs (from the item's key or `set`), so the derived key never drifts; removing
 * a sparse index's optional inputs (all of them) takes the item out of the index.
 */
export function indexKeyChanges(model: EntityModel, key: Readonly<Record<string, unknown>>, set: Readonly<Record<string, unknown>>, remove: readonly string[]): { set: Record<string, unknown>; remove: string[] } {
  const out = nativeIndexChanges(model, set, remove);
  const values = { ...key, ...set };
  for (const index of model.indexes) {
    const setInputs = index.inputs.filter((name) => name in set && set[name] !== undefined);
    const removedInputs = index.inputs.filter((name) => remove.includes(name));
    if (setInputs.length === 0 && removedInputs.length === 0) continue;
    const keyAttributes = [...(index.kind === 'gsi' ? [index.pk.attribute] : []), ...(index.sk ? [index.sk.attribute] : [])];
    if (removedInputs.length > 0) {
      const kept = index.optional.filter((name) => !removedInputs.includes(name));
      if (setInputs.length > 0 || kept.length > 0) {
        throw new ValidationError(model.name, removedInputs[0]!, `removing it takes the item out of index "${index.name}", so remove ${index.optional.join(', ')} together and set none of ${index.inputs.join(', ')}`);
      }
      out.remove.push(...keyAttributes);
      continue;
    }
    const missing = index.inputs.filter((name) => values[name] === undefined);
    if (missing.length > 0) {
      throw new ValidationError(model.name, setInputs[0]!, `changes a key of index "${index.name}"; set ${missing.join(', ')} too, so the index key can be rebuilt`);
    }
    Object.assign(out.set, indexKey(index, values));
  }
  return out;
}
