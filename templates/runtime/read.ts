// Reads: items by their table key (one get, or a batch of them in the order of their keys), and
// queries with their pages — the request of a query on the table or an index (its key condition,
// planned from a `where` or a declared pattern), one page of it read and mapped, its cursors bound
// to it, every page as an iterator, index records projected or fetched in full, and a collection's
// records told apart by their members.

import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGetRecords, keyId, type BatchRead } from './batch.js';
import { parseExactKey, type KeyCodec } from './codec.js';
import { decodeCursor, encodeCursor, isKey, type CursorScope, type PositionCheck } from './cursor.js';
import { ValidationError } from './errors.js';
import { ExpressionAliases } from './expression.js';
import { isExpired, nowOf, unexpired, type ExpiryOptions } from './expiry.js';
import { hasDiscriminator, projectsDiscriminator } from './item.js';
import { genericItem, itemOf, primaryKey, tableKeyAttributes } from './item-mapping.js';
import { meetsSortCondition, planSortCondition, renderSortCondition, type PlannedSortCondition, type SortOperator } from './key-condition.js';
import type { EntityModel, IndexModel, KeyAttributeModel, TableContext } from './table-context.js';

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

/** Reads many items by key; the result is in the order of `keys`, undefined where there is none. */
export async function batchGetItems(ctx: TableContext, model: EntityModel, keys: readonly Readonly<Record<string, unknown>>[], options: ReadOptions = {}): Promise<unknown[]> {
  return readInOrder<unknown, Readonly<Record<string, unknown>>>(ctx, model, keys.map((source) => ({ key: primaryKey(model, source), source })), options);
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
