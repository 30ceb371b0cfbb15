// The operations behind every generated repository. An entity's module declares its operations by
// the factories and shapes at the end of this module, over an `EntityModel` constant, so the
// behaviour lives here, tested once.

import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGetRecords, batchWriteRecords, keyId, type BatchRead } from './batch.js';
import { SHARD_SEGMENT, parseExactKey, type KeyCodec } from './codec.js';
import { decodeCursor, encodeCursor, isKey, type CursorScope, type PositionCheck } from './cursor.js';
import { ItemTooLargeError, ValidationError } from './errors.js';
import { ExpressionAliases } from './expression.js';
import { itemSize, itemSizeBound, MAX_ITEM_BYTES } from './item-size.js';
import { checkAttributeNames, checkValue, checkValueNames, fromStored, hasDiscriminator, isExpired, nowOf, projectsDiscriminator, propertyNamed, toStored, unexpired, withRequiredSets, type ExpiryOptions } from './item.js';
import { meetsSortCondition, planSortCondition, renderSortCondition, type PlannedSortCondition, type SortOperator } from './key-condition.js';
import type { EntityModel, IndexModel, KeyAttributeModel, NativeKeyAttribute, TableContext } from './table-context.js';

export type { EntityModel, IndexModel, KeyAttributeModel, NativeIndexModel, NativeKeyAttribute, RotationPeriod, TableContext } from './table-context.js';

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

const tableKeyAttributes = (model: EntityModel) => [model.pk.attribute, ...(model.sk ? [model.sk.attribute] : [])];

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


export { hasDiscriminator, projectsDiscriminator, propertyNamed };

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

export interface ReadOptions extends ExpiryOptions {
  /** Strongly consistent read (twice the read units). */
  readonly consistent?: boolean;
}

// The functions generated methods call return `unknown` where the result is an entity's item:
// each generated method states its item type once, as its return type, and asserts the call's
// result to it (`getItem(…) as Promise<Article | undefined>`). A type parameter here would be
// that same assertion, instantiated anew for every entity by the user's type checker.

export async function getItem(ctx: TableContext, model: EntityModel, key: Readonly<Record<string, unknown>>, options: ReadOptions = {}): Promise<unknown> {
  const result = await ctx.client.send(
    new GetCommand({ TableName: ctx.tableName, Key: primaryKey(model, key), ...(options.consistent ? { ConsistentRead: true } : {}) }),
  );
  return result.Item && unexpired(ctx, options)(result.Item) && hasDiscriminator(model, result.Item) ? itemOf<unknown>(model, result.Item) : undefined;
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

/** Reads many items by key; the result is in the order of `keys`, undefined where there is none. */
export async function batchGetItems(ctx: TableContext, model: EntityModel, keys: readonly Readonly<Record<string, unknown>>[], options: ReadOptions = {}): Promise<unknown[]> {
  return readInOrder<unknown, Readonly<Record<string, unknown>>>(ctx, model, keys.map((source) => ({ key: primaryKey(model, source), source })), options);
}

/** Writes many items (the last of two with one key wins). Every key is built before anything is sent. */
export async function batchPutItems(ctx: TableContext, model: EntityModel, items: readonly object[]): Promise<void> {
  const writes = items.map((source) => ({ request: { PutRequest: { Item: storedItem(model, source as Record<string, unknown>) } }, source }));
  await batchWriteRecords(ctx, { operation: 'batchPut', entity: model.name }, writes, tableKeyAttributes(model), ctx.retry);
}

/** Deletes many items by key. */
export async function batchDeleteItems(ctx: TableContext, model: EntityModel, keys: readonly Readonly<Record<string, unknown>>[]): Promise<void> {
  const writes = keys.map((source) => ({ request: { DeleteRequest: { Key: primaryKey(model, source) } }, source }));
  await batchWriteRecords(ctx, { operation: 'batchDelete', entity: model.name }, writes, tableKeyAttributes(model), ctx.retry);
}

/**
 * Reads items by table key in one batched call: one result per read, in the order of `reads`,
 * undefined where there is no item (or it has expired, unless `includeExpired`).
 */
export async function readInOrder<T, S>(ctx: TableContext, model: EntityModel, reads: readonly BatchRead<S>[], options: ReadOptions): Promise<Array<T | undefined>> {
  const attributes = tableKeyAttributes(model);
  const keep = unexpired(ctx, options);
  const decode = (stored: Record<string, unknown>) => (keep(stored) && hasDiscriminator(model, stored) ? itemOf<T>(model, stored) : undefined);
  const found = await batchGetRecords(ctx, { operation: 'batchGet', entity: model.name }, reads, attributes, decode, { ...(options.consistent ? { consistent: true } : {}), ...(ctx.retry ? { policy: ctx.retry } : {}) });
  return reads.map((read) => found.get(keyId(read.key, attributes)));
}

export const present = <T>(items: ReadonlyArray<T | undefined>): T[] => items.filter((item): item is T => item !== undefined);

export interface PageOptions extends ExpiryOptions {
  /** Items to evaluate per page (DynamoDB's Limit). */
  readonly limit?: number;
  /** The `cursor` of the previous page. */
  readonly cursor?: string;
}

export interface QueryOptions<Condition> extends PageOptions, ReadOptions {
  /** A condition on a left-to-right prefix of the sort key's parts. */
  readonly where?: Condition;
  /** `asc` (default) or `desc`, in DynamoDB's sort-key order. */
  readonly order?: 'asc' | 'desc';
}

/** Options of a query on a GSI: no consistent reads (DynamoDB does not offer them there). */
export interface IndexQueryOptions<Condition> extends PageOptions {
  readonly where?: Condition;
  readonly order?: 'asc' | 'desc';
}

export interface Page<T> {
  readonly items: T[];
  /** Present when there may be more items: pass it back as `cursor`. */
  readonly cursor?: string;
}

/** One access path: the table or an index, its partition and an optional planned sort condition. */
export interface QueryRequest {
  /** Binds cursors: `Article.query`, `Article.queryByName`, `Article.recentArticles`. */
  readonly scope: string;
  readonly indexName?: string;
  readonly pk: KeyAttributeModel;
  readonly partition: Readonly<Record<string, unknown>>;
  readonly sk?: { readonly attribute: string; readonly condition: PlannedSortCondition };
  /** Everything the caller chose that defines the result set, for cursor binding. */
  readonly params: unknown;
  /** The key attributes of an item in this key space (table key, plus the index key on an index): a gather's positions. */
  readonly keyAttributes: readonly string[];
  readonly order?: 'asc' | 'desc';
  readonly consistent?: boolean;
  /**
   * The entity asked for. Entities sharing a partition are told apart by their sort keys (as
   * collections do), so records another entity owns are skipped (a sequence's metadata item beside
   * its items, an order beside its lines); on an index, by their whole table key, as entities may
   * share an index partition (an overloaded GSI) or a table partition (an LSI).
   */
  readonly owner?: EntityModel;
  /** The index's records leave out the owner's discriminator (a keys-only or INCLUDE projection without it). */
  readonly withoutDiscriminator?: true;
}

/** Whether a stored record belongs to the request's entity: its sort key (and on an index, its partition key) parses by the entity's templates. */
export function ownsRecord(request: QueryRequest, stored: Readonly<Record<string, unknown>>): boolean {
  const owner = request.owner;
  if (owner === undefined) return true;
  if (!hasDiscriminator(owner, stored, request.withoutDiscriminator !== true)) return false;
  if (request.indexName !== undefined) {
    // an index partition may hold other entities' items: the table key (in every projection) says whose
    const pk = stored[owner.pk.attribute];
    if (typeof pk !== 'string' || !owner.pk.template.matches(pk)) return false;
  }
  const sk = owner.sk;
  if (!sk) return true;
  const value = stored[sk.attribute];
  return typeof value === 'string' && sk.template.matches(value);
}

/** The Query input for a request, without sending it; `start` is a decoded cursor position. */
export function queryInput(ctx: TableContext, request: QueryRequest, page: { readonly limit?: number } = {}, start?: Readonly<Record<string, unknown>>): QueryCommandInput {
  const aliases = new ExpressionAliases();
  let keyCondition = `${aliases.name(request.pk.attribute)} = ${aliases.value(request.pk.template.build(request.partition))}`;
  if (request.sk) {
    const sortCondition = renderSortCondition(request.sk.attribute, request.sk.condition, aliases);
    if (sortCondition) keyCondition += ` AND ${sortCondition}`;
  }
  if (page.limit !== undefined && (!Number.isInteger(page.limit) || page.limit < 1)) {
    throw new ValidationError(request.scope, '(limit)', `limit must be a positive integer, got ${page.limit}`);
  }
  // built member by member, in the order the examples print
  const input: QueryCommandInput = { TableName: ctx.tableName };
  if (request.indexName !== undefined) input.IndexName = request.indexName;
  input.KeyConditionExpression = keyCondition;
  input.ExpressionAttributeNames = aliases.names;
  input.ExpressionAttributeValues = aliases.values;
  if (request.order === 'desc') input.ScanIndexForward = false;
  if (page.limit !== undefined) input.Limit = page.limit;
  if (request.consistent) input.ConsistentRead = true;
  if (start !== undefined) input.ExclusiveStartKey = start as QueryCommandInput['ExclusiveStartKey'];
  return input;
}

/** What a request's cursors are bound to: the physical table, the index, the query and its parameters. */
export function cursorScope(ctx: TableContext, request: QueryRequest): CursorScope {
  return { table: ctx.tableName, ...(request.indexName !== undefined ? { index: request.indexName } : {}), query: request.scope, params: request.params };
}

/**
 * Checks a cursor position against a query on one partition: exactly the key attributes of its key
 * space, each a non-empty string, in the queried partition and inside the key condition. A cursor
 * that passes can only resume the same query somewhere in its own result set.
 */
export function positionCheck(request: QueryRequest, partition: Readonly<Record<string, unknown>> = request.partition): PositionCheck {
  const partitionKey = request.pk.template.build(partition);
  const wanted = [...new Set(request.keyAttributes)].sort();
  return (position) => {
    if (!isKey(position)) return 'its position is not a key';
    const names = Object.keys(position).sort();
    if (names.length !== wanted.length || names.some((n, i) => n !== wanted[i])) return `its position does not hold exactly this query's key attributes (${wanted.join(', ')})`;
    for (const name of names) if (typeof position[name] !== 'string' || position[name] === '') return `its position's ${name} is not a non-empty string`;
    if (position[request.pk.attribute] !== partitionKey) return 'its position is in another partition than this query reads';
    if (request.sk && !meetsSortCondition(request.sk.condition, position[request.sk.attribute] as string)) return "its position is outside this query's key condition";
    return undefined;
  };
}

/** Maps a stored record to the entity's item type. */
export function mapItem(model: EntityModel): (stored: Record<string, unknown>) => unknown {
  return (stored) => itemOf<unknown>(model, stored);
}

/** Runs one page of a Query on one partition and maps each stored record (a sharded partition key gathers instead: `queryShards`, gather.ts). */
export async function queryPage(ctx: TableContext, request: QueryRequest, page: PageOptions, map: (stored: Record<string, unknown>) => unknown): Promise<Page<unknown>> {
  // the cursor scope only when a cursor is read or written: most pages are the last
  const start = page.cursor === undefined ? undefined : await decodeCursor(page.cursor, cursorScope(ctx, request), ctx.cursor, positionCheck(request));
  const result = await ctx.client.send(new QueryCommand(queryInput(ctx, request, page, start)));
  // the expiry check without unexpired()'s closure: this loop runs once per item read
  const ttl = page.includeExpired === true ? undefined : ctx.ttl;
  const now = nowOf(ctx);
  const items: unknown[] = [];
  for (const stored of result.Items ?? []) {
    if (!ownsRecord(request, stored) || (ttl !== undefined && isExpired(stored, ttl, now))) continue;
    items.push(map(stored));
  }
  return result.LastEvaluatedKey ? { items, cursor: await encodeCursor(cursorScope(ctx, request), result.LastEvaluatedKey, ctx.cursor) } : { items };
}

/**
 * What an `…All` method returns: every item of every page, fetched as the caller iterates. `T` is
 * declared covariant (`out`), so the type checker relates `ItemIterator<unknown>` (what `allItems`
 * returns) to a method's `ItemIterator<Article>` by comparing the item types alone, never by
 * measuring AsyncGenerator's members.
 */
export interface ItemIterator<out T> extends AsyncGenerator<T, void, undefined> {}

/**
 * Every item of every page, fetched one page at a time as the caller iterates: `fetch` gets
 * `options` with the cursor of the page to read (`options.cursor` first, if given), so a generated
 * `…All` method hands its own query and options straight through.
 */
export async function* allItems(fetch: (page: PageOptions) => Promise<Page<unknown>>, options: PageOptions): ItemIterator<unknown> {
  let cursor = options.cursor;
  do {
    const page = await fetch(cursor === undefined ? options : { ...options, cursor });
    yield* page.items;
    cursor = page.cursor;
  } while (cursor !== undefined);
}

const keyAttributesCache = new WeakMap<EntityModel | IndexModel, readonly string[]>();

/** The attributes that make up an item's position in a key space: the table key, plus the index key (worked out once per model and index). */
export function keyAttributesOf(model: EntityModel, index: IndexModel | undefined): readonly string[] {
  let attributes = keyAttributesCache.get(index ?? model);
  if (attributes === undefined) {
    attributes = Object.freeze([...new Set([model.pk.attribute, ...(model.sk ? [model.sk.attribute] : []), ...(index ? [index.pk.attribute, ...(index.sk ? [index.sk.attribute] : [])] : [])])]);
    keyAttributesCache.set(index ?? model, attributes);
  }
  return attributes;
}

/** The request for a query on the table or one of the entity's indexes, with a `where` condition. */
export function entityQuery(model: EntityModel, method: string, indexName: string | undefined, partition: Readonly<Record<string, unknown>>, options: QueryOptions<object>): QueryRequest {
  const index = indexName === undefined ? undefined : model.indexes.find((i) => i.name === indexName)!;
  const sk = index ? index.sk : model.sk;
  const order = options.order ?? 'asc';
  // member by member, without the temporary objects of conditional spreads
  const request: { -readonly [K in keyof QueryRequest]: QueryRequest[K] } = {
    keyAttributes: keyAttributesOf(model, index),
    scope: `${model.name}.${method}`,
    pk: index ? index.pk : model.pk,
    partition,
    params: { partition, where: options.where, order },
    order,
    consistent: options.consistent === true,
  };
  if (indexName !== undefined) request.indexName = index?.indexName ?? indexName;
  if (sk) request.sk = { attribute: sk.attribute, condition: planSortCondition(sk.template, options.where) };
  request.owner = model;
  if (index && !projectsDiscriminator(model, index.projection)) request.withoutDiscriminator = true;
  return request;
}

/**
 * The sort condition of a declared pattern: `values` fixes the sort-key parts before `attribute`,
 * and `operand` is compared with `attribute` by `op` — with the meanings of `SortCondition`
 * (`beginsWith` on a string attribute is a text prefix, `eq` a whole-part match).
 */
export function patternCondition(template: KeyCodec, values: Readonly<Record<string, unknown>>, attribute: string | undefined, op: SortOperator, operand: unknown): PlannedSortCondition {
  if (attribute === undefined) return planSortCondition(template, undefined);
  if (op === 'between') {
    const [low, high] = operand as readonly [unknown, unknown];
    return planSortCondition(template, { between: [{ ...values, [attribute]: low }, { ...values, [attribute]: high }] });
  }
  return planSortCondition(template, { [op]: { ...values, [attribute]: operand } });
}

/**
 * The partition-key values of a pattern that compares an attribute its partition key also holds
 * (`Site#<site>#<at:hour>` with sort key `<at>#<viewId>`): the operand's own value finds the
 * partition; for `between`, the low end's, and the high end must fall in the same partition (one
 * query reads one partition). ValidationError before any request otherwise.
 */
export function patternPartition(pk: KeyAttributeModel, params: Readonly<Record<string, unknown>>, attribute: string, op: SortOperator): Readonly<Record<string, unknown>> {
  if (op !== 'between') return params;
  const operand = params[attribute];
  if (!Array.isArray(operand) || operand.length !== 2) throw new ValidationError(pk.template.def.entity, attribute, 'between takes [low, high]');
  const from = { ...params, [attribute]: operand[0] };
  if (pk.template.build(from) !== pk.template.build({ ...params, [attribute]: operand[1] })) {
    throw new ValidationError(pk.template.def.entity, attribute, `between must stay within one partition: the partition key ${pk.template.def.target} holds ${attribute} too, and the two ends fall in different partitions; query each partition separately`);
  }
  return from;
}

/** A stored record as an index projection holds it: projected attributes plus every exact key part. */
export function projectRecord(model: EntityModel, index: IndexModel, stored: Readonly<Record<string, unknown>>): unknown {
  const out = genericItem<Record<string, unknown>>(model, stored, true);
  const templates = [model.pk, ...(model.sk ? [model.sk] : []), ...(index.kind === 'gsi' ? [index.pk] : []), ...(index.sk ? [index.sk] : [])];
  for (const { attribute, template } of templates) {
    const raw = stored[attribute];
    if (typeof raw !== 'string') continue;
    for (const [name, value] of Object.entries(parseExactKey(template, raw))) if (!Object.prototype.hasOwnProperty.call(out, name)) out[name] = value;
  }
  return out;
}

/** Reads the full items behind a page of index records (by their table keys), in page order. */
export async function fetchItems(ctx: TableContext, model: EntityModel, page: Page<unknown>, options: ReadOptions = {}): Promise<Page<unknown>> {
  const attributes = tableKeyAttributes(model);
  const reads = (page.items as Array<Record<string, unknown>>).map((stored) => {
    const key = Object.fromEntries(attributes.map((a) => [a, stored[a]]));
    return { key, source: primaryKeyParts(model, key) };
  });
  const items = present(await readInOrder<unknown, Record<string, unknown>>(ctx, model, reads, options));
  return page.cursor === undefined ? { items } : { items, cursor: page.cursor };
}

/** The key parts (`{ userId, articleId }`) a stored table key encodes. */
function primaryKeyParts(model: EntityModel, stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const parts: Record<string, unknown> = {};
  for (const { attribute, template } of [model.pk, ...(model.sk ? [model.sk] : [])]) Object.assign(parts, parseExactKey(template, String(stored[attribute])));
  return parts;
}

/** One entity of a collection: a partition shared by several entities. */
export interface CollectionMember {
  readonly type: string;
  readonly model: EntityModel;
}

/** Tags a stored record with the member whose sort-key template parses its sort key. */
export function tagRecord(members: readonly CollectionMember[], stored: Record<string, unknown>): { type: string | undefined; item: Record<string, unknown> } {
  for (const { type, model } of members) {
    const sk = model.sk ? stored[model.sk.attribute] : undefined;
    const pk = stored[model.pk.attribute];
    if (model.sk && (typeof sk !== 'string' || !model.sk.template.matches(sk))) continue;
    if (typeof pk !== 'string' || !model.pk.template.matches(pk) || !hasDiscriminator(model, stored)) continue;
    return { type, item: itemOf(model, stored) };
  }
  return { type: undefined, item: stored };
}

// ---- Operations ------------------------------------------------------------------------------------
// An entity's module declares each operation once, as a function of the table context made here
// (`export const orderGet: GetFunction<Order, OrderKey> = getOperation(orderModel)`), typed by one of
// the shapes below; its repository class (`repositoryClass`) calls the same functions with its
// context. The shapes are shared by every entity, so the user's type checker reads each once.

/** Any operation's function form: the table context first. */
export type AnyOperation = (context: TableContext, ...args: never[]) => unknown;

/**
 * The function form of an operation: with telemetry in the context, the call is one operation it
 * reports (the function runs again inside it, with the operation's context, which has none);
 * without, `run` alone. An `…All` iterator reports the `pattern` of the query it iterates.
 */
export function operation<F extends AnyOperation>(model: EntityModel, method: string, run: F, pattern?: string): F {
  const traced = function (context: TableContext): unknown {
    if (context.telemetry) return context.telemetry.call(model, method, traced, arguments, pattern);
    return (run as unknown as (...args: unknown[]) => unknown).apply(undefined, arguments as unknown as unknown[]);
  };
  return traced as unknown as F;
}

/** `orderGet(context, key, options?)`: one item by its key, undefined when there is none. */
export type GetFunction<T, K> = (context: TableContext, key: K, options?: ReadOptions) => Promise<T | undefined>;
/** `db.order.get(key, options?)`: one item by its key, undefined when there is none. */
export type GetMethod<T, K> = (key: K, options?: ReadOptions) => Promise<T | undefined>;

/** `orderBatchGet(context, keys, options?)`: items by key, in the order of `keys`. */
export type BatchGetFunction<T, K> = (context: TableContext, keys: readonly K[], options?: ReadOptions) => Promise<Array<T | undefined>>;
/** `db.order.batchGet(keys, options?)`: items by key, in the order of `keys`. */
export type BatchGetMethod<T, K> = (keys: readonly K[], options?: ReadOptions) => Promise<Array<T | undefined>>;

/** `orderBatchPut(context, items)`. */
export type BatchPutFunction<T> = (context: TableContext, items: readonly T[]) => Promise<void>;
/** `db.order.batchPut(items)`. */
export type BatchPutMethod<T> = (items: readonly T[]) => Promise<void>;

/** `orderBatchDelete(context, keys)`. */
export type BatchDeleteFunction<K> = (context: TableContext, keys: readonly K[]) => Promise<void>;
/** `db.order.batchDelete(keys)`. */
export type BatchDeleteMethod<K> = (keys: readonly K[]) => Promise<void>;

/** `orderQuery(context, partition, options?)`: one page of a partition's items. */
export type QueryFunction<T, P, O> = (context: TableContext, partition: P, options?: O) => Promise<Page<T>>;
/** `db.order.query(partition, options?)`: one page of a partition's items. */
export type QueryMethod<T, P, O> = (partition: P, options?: O) => Promise<Page<T>>;

/** `orderQueryAll(context, partition, options?)`: every page's items, as the caller iterates. */
export type QueryAllFunction<T, P, O> = (context: TableContext, partition: P, options?: O) => ItemIterator<T>;
/** `db.order.queryAll(partition, options?)`: every page's items, as the caller iterates. */
export type QueryAllMethod<T, P, O> = (partition: P, options?: O) => ItemIterator<T>;

/** A query of an index that projects `I`: its records as projected, or with `fetch: true` the full items `T`. */
export interface FetchQueryFunction<T, I, P, O> {
  (context: TableContext, partition: P, options: O & { fetch: true }): Promise<Page<T>>;
  (context: TableContext, partition: P, options?: O & { fetch?: false }): Promise<Page<I>>;
}
/** The method of a query of an index that projects `I`: its records as projected, or with `fetch: true` the full items `T`. */
export interface FetchQueryMethod<T, I, P, O> {
  (partition: P, options: O & { fetch: true }): Promise<Page<T>>;
  (partition: P, options?: O & { fetch?: false }): Promise<Page<I>>;
}

/** How a page of a query is read: one partition (`queryPage`), or every shard of it gathered (`queryShards`, gather.ts). */
export type PageQuery = (ctx: TableContext, request: QueryRequest, page: PageOptions, map: (stored: Record<string, unknown>) => unknown) => Promise<Page<unknown>>;

export function getOperation<T, K>(model: EntityModel): GetFunction<T, K> {
  return operation(model, 'get', (context: TableContext, key: K, options?: ReadOptions) => getItem(context, model, key as Readonly<Record<string, unknown>>, options) as Promise<T | undefined>);
}

export function batchGetOperation<T, K>(model: EntityModel): BatchGetFunction<T, K> {
  return operation(model, 'batchGet', (context: TableContext, keys: readonly K[], options?: ReadOptions) => batchGetItems(context, model, keys as readonly Readonly<Record<string, unknown>>[], options) as Promise<Array<T | undefined>>);
}

export function batchPutOperation<T>(model: EntityModel): BatchPutFunction<T> {
  return operation(model, 'batchPut', (context: TableContext, items: readonly T[]) => batchPutItems(context, model, items as readonly object[]));
}

export function batchDeleteOperation<K>(model: EntityModel): BatchDeleteFunction<K> {
  return operation(model, 'batchDelete', (context: TableContext, keys: readonly K[]) => batchDeleteItems(context, model, keys as readonly Readonly<Record<string, unknown>>[]));
}

/** A query of the table (`indexName` undefined) or of an index, whose records `map` turns into items. */
export function queryOperation<T, P, O>(model: EntityModel, method: string, indexName: string | undefined, map: (stored: Record<string, unknown>) => unknown, page: PageQuery = queryPage): QueryFunction<T, P, O> {
  // async: a key error rejects the promise like a request error does
  return operation(model, method, async (context: TableContext, partition: P, options: O = {} as O) =>
    page(context, entityQuery(model, method, indexName, partition as Readonly<Record<string, unknown>>, options as QueryOptions<object>), options as PageOptions, map) as Promise<Page<T>>,
  );
}

/** A query of an index that projects its records (`map`), or reads the full items behind them with `fetch: true`. */
export function fetchQueryOperation<T, I, P, O>(model: EntityModel, method: string, indexName: string, map: (stored: Record<string, unknown>) => unknown, page: PageQuery = queryPage): FetchQueryFunction<T, I, P, O> {
  return operation(model, method, async (context: TableContext, partition: P, options: O & { fetch?: boolean } = {} as O & { fetch?: boolean }) => {
    const request = entityQuery(model, method, indexName, partition as Readonly<Record<string, unknown>>, options as QueryOptions<object>);
    if (!options.fetch) return page(context, request, options as PageOptions, map);
    return fetchItems(context, model, await page(context, request, options as PageOptions, (stored) => stored), options as ReadOptions);
  }) as FetchQueryFunction<T, I, P, O>;
}

/** Every item of `query` (the function form of the query named `method`), page after page. */
export function queryAllOperation<T, P, O>(model: EntityModel, method: string, query: (context: TableContext, partition: P, options: PageOptions) => Promise<Page<unknown>>): QueryAllFunction<T, P, O> {
  return operation(
    model,
    `${method}All`,
    (context: TableContext, partition: P, options: O = {} as O) => allItems((page) => query(context, partition, page), options as PageOptions) as ItemIterator<T>,
    method,
  );
}

/** A repository class: `new OrderRepository(context)`, whose members are the entity's operations, called with its context. */
export type RepositoryClass<R> = new (context: TableContext) => R;

/**
 * The class of an entity's repository: a method per operation, each calling the operation's function
 * form with `this.context` (which telemetry's instrumentation replaces for the call it reports, so a
 * call through the class is reported once).
 */
export function repositoryClass<R>(name: string, operations: Readonly<Record<string, AnyOperation>>): RepositoryClass<R> {
  class Repository {
    readonly context: TableContext;
    constructor(context: TableContext) {
      this.context = context;
    }
  }
  // named as the module names it (`OrderRepository`), for stack traces, the console and `constructor.name`
  Object.defineProperty(Repository, 'name', { value: name });
  for (const method of Object.keys(operations)) {
    const run = operations[method] as (context: TableContext, ...args: unknown[]) => unknown;
    Object.defineProperty(Repository.prototype, method, {
      value: function (this: Repository, ...args: unknown[]): unknown {
        return run(this.context, ...args);
      },
      writable: true,
      configurable: true,
    });
  }
  return Repository as unknown as RepositoryClass<R>;
}
