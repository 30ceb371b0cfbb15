// The operations behind every generated repository. An entity's module declares its operations by
// the factories and shapes of this module, over an `EntityModel` constant, so the behaviour lives
// in the runtime, tested once: reads by key and by query (read.ts), an item's mapping to its
// stored record (item-mapping.ts), and here the batch writes behind batchPut and batchDelete.

import { batchWriteRecords } from './batch.js';
import { primaryKey, storedItem, tableKeyAttributes } from './item-mapping.js';
import { allItems, batchGetItems, entityQuery, fetchItems, getItem, queryPage, type ItemIterator, type Page, type PageOptions, type QueryOptions, type QueryRequest, type ReadOptions } from './read.js';
import type { EntityModel, TableContext } from './table-context.js';

export type { EntityModel, IndexModel, KeyAttributeModel, NativeIndexModel, NativeKeyAttribute, RotationPeriod, TableContext } from './table-context.js';

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
