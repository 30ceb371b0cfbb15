// Batch reads and writes that lose nothing. Requests are deduplicated, chunked (100 keys per
// BatchGetItem, 25 writes per BatchWriteItem) and sent with bounded concurrency. Whatever DynamoDB
// leaves unprocessed (UnprocessedKeys / UnprocessedItems, or a throttle) is retried with capped
// exponential backoff and full jitter; the attempt count starts again whenever a response makes
// progress, so a slow but moving batch finishes, and one that stops moving gives up after
// `maxAttempts` attempts or `budgetMs` without progress. An error that is not retried stops the
// batch: nothing new is sent, requests in flight settle, and a BatchError lists the caller's own
// items and keys that landed and that did not.

import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { BatchError, UnprocessedItemsError, type BatchOperation } from './errors.js';
import type { RetryPolicy, TableContext } from './table-context.js';

export type { RetryPolicy } from './table-context.js';


type Key = Record<string, unknown>;
export type WriteRequest = { readonly PutRequest: { readonly Item: Record<string, unknown> } } | { readonly DeleteRequest: { readonly Key: Key } };

/** One write of a batch and the caller's value it came from (an item for a put, a key for a delete). */
export interface BatchWrite<S> {
  readonly request: WriteRequest;
  readonly source: S;
}

/** One key of a batch read and the caller's key it came from. */
export interface BatchRead<S> {
  readonly key: Key;
  readonly source: S;
}

/** What a batch is, for its errors: `batchPut Article`. */
export interface BatchLabel {
  readonly operation: BatchOperation;
  readonly entity: string;
}

const THROTTLES = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

function isThrottle(error: unknown): boolean {
  return typeof error === 'object' && error !== null && THROTTLES.has((error as { name?: string }).name ?? '');
}

/** Full-jitter backoff: uniform in [0, min(max, base × 2^attempt)). */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs ?? 2000, (policy.baseDelayMs ?? 25) * 2 ** attempt);
  return Math.floor((policy.random ?? Math.random)() * ceiling);
}

/** Stable identity of a key, for deduplication and matching responses to requests. */
export function keyId(key: Readonly<Key>, attributes: readonly string[]): string {
  return JSON.stringify(attributes.map((a) => key[a]));
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `run` over `items` with at most `limit` in flight. */
export async function mapConcurrent<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await run(items[next++]!);
  });
  await Promise.all(workers);
}

/** setTimeout exists in every JavaScript runtime, but not in the ES library types the output compiles with. */
/** Waits `ms` milliseconds. */
// globalThis is read when a batch sleeps, not when the module loads: a module whose top level reads
// nothing is one a bundler drops whole when the app uses none of it
export const defaultSleep = (ms: number) => new Promise<void>((resolve) => (globalThis as unknown as { setTimeout(callback: () => void, ms: number): unknown }).setTimeout(resolve, ms));

/** Why a batch stopped early. */
type Stop = { readonly error: unknown; readonly gaveUp: false } | { readonly error: unknown; readonly gaveUp: true; readonly attempts: number; readonly reason: string };

/**
 * Sends `chunks` with bounded concurrency; `send` returns what a request left unprocessed (and
 * records what it processed). Returns what is left when the batch stopped early, and why.
 */
async function runBatch<E>(chunks: readonly E[][], send: (pending: E[]) => Promise<E[]>, policy: RetryPolicy): Promise<{ left: E[]; stop?: Stop }> {
  const sleep = policy.sleep ?? defaultSleep;
  const now = policy.now ?? Date.now;
  const maxAttempts = policy.maxAttempts ?? 16;
  const budgetMs = policy.budgetMs ?? 30_000;
  const left: E[] = [];
  let stop: Stop | undefined;
  let lastProgress = now();
  let next = 0;
  const worker = async () => {
    while (next < chunks.length && !stop) {
      let pending = chunks[next++]!;
      for (let idle = 0; pending.length > 0 && !stop; ) {
        let failure: unknown;
        try {
          const before = pending.length;
          pending = await send(pending);
          if (pending.length < before) {
            idle = 0;
            lastProgress = now();
          } else idle++;
        } catch (error) {
          if (!isThrottle(error)) {
            stop ??= { error, gaveUp: false };
            break;
          }
          failure = error;
          idle++;
        }
        if (pending.length === 0 || stop) break;
        const delay = backoffDelay(idle, policy);
        if (idle >= maxAttempts) {
          stop = { error: failure, gaveUp: true, attempts: idle, reason: `${idle} attempt(s) in a row processed nothing` };
        } else if (now() + delay - lastProgress > budgetMs) {
          stop = { error: failure, gaveUp: true, attempts: idle, reason: `nothing was processed for ${budgetMs} ms` };
        } else await sleep(delay);
      }
      left.push(...pending);
    }
  };
  await Promise.all(Array.from({ length: Math.min(policy.concurrency ?? 4, chunks.length) }, worker));
  left.push(...chunks.slice(next).flat());
  return stop ? { left, stop } : { left };
}

function batchError<Done, Left>(label: BatchLabel, stop: Stop, done: readonly Done[], unprocessed: readonly Left[]): BatchError<Done, Left> {
  const outcome = { done, unprocessed, ...(stop.error === undefined ? {} : { cause: stop.error }) };
  return stop.gaveUp
    ? new UnprocessedItemsError<Done, Left>(label.operation, label.entity, { ...outcome, reason: stop.reason }, stop.attempts)
    : new BatchError<Done, Left>(label.operation, label.entity, outcome);
}

/**
 * Reads keys from one table, decoding each stored record with `decode`. Returns the items found, by
 * key id (see `keyId`); keys with no item are absent from the map. Throws BatchError (or
 * UnprocessedItemsError) with the items read and the caller's keys not read.
 */
export async function batchGetRecords<S, T>(
  ctx: TableContext,
  label: BatchLabel,
  reads: readonly BatchRead<S>[],
  keyAttributes: readonly string[],
  decode: (stored: Record<string, unknown>) => T | undefined,
  options: { consistent?: boolean; policy?: RetryPolicy } = {},
): Promise<Map<string, T>> {
  const unique = new Map<string, BatchRead<S>>();
  for (const read of reads) unique.set(keyId(read.key, keyAttributes), read);
  const found = new Map<string, T>();
  const { left, stop } = await runBatch(chunk([...unique.values()], 100), async (pending) => {
    const result = await ctx.client.send(
      new BatchGetCommand({ RequestItems: { [ctx.tableName]: { Keys: pending.map((read) => read.key), ...(options.consistent ? { ConsistentRead: true } : {}) } } }),
    );
    for (const item of result.Responses?.[ctx.tableName] ?? []) {
      const value = decode(item); // undefined: a record the read drops (an expired item), as if not found
      if (value !== undefined) found.set(keyId(item, keyAttributes), value);
    }
    const unprocessed = new Set(((result.UnprocessedKeys?.[ctx.tableName]?.Keys ?? []) as Key[]).map((key) => keyId(key, keyAttributes)));
    return pending.filter((read) => unprocessed.has(keyId(read.key, keyAttributes)));
  }, options.policy ?? {});
  if (stop) {
    const leftIds = new Set(left.map((read) => keyId(read.key, keyAttributes)));
    const items = [...unique.keys()].flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
    const unprocessed = [...unique.entries()].filter(([id]) => leftIds.has(id)).map(([, read]) => read.source);
    throw batchError(label, stop, items, unprocessed);
  }
  return found;
}

/**
 * Writes puts and deletes to one table. Two requests for the same key would be rejected by
 * DynamoDB, so the last request for each key wins, as if they were sent in order. Throws BatchError
 * (or UnprocessedItemsError) with the caller's values written and not written.
 */
export async function batchWriteRecords<S>(ctx: TableContext, label: BatchLabel, writes: readonly BatchWrite<S>[], keyAttributes: readonly string[], policy: RetryPolicy = {}): Promise<void> {
  const id = (request: WriteRequest) => keyId('PutRequest' in request ? request.PutRequest.Item : request.DeleteRequest.Key, keyAttributes);
  const byKey = new Map<string, BatchWrite<S>>();
  for (const write of writes) {
    const key = id(write.request);
    byKey.delete(key);
    byKey.set(key, write);
  }
  const done = new Set<BatchWrite<S>>();
  const { left, stop } = await runBatch(chunk([...byKey.values()], 25), async (pending) => {
    const result = await ctx.client.send(new BatchWriteCommand({ RequestItems: { [ctx.tableName]: pending.map((write) => write.request) as WriteRequest[] } }));
    const unprocessed = new Set(((result.UnprocessedItems?.[ctx.tableName] ?? []) as WriteRequest[]).map(id));
    return pending.filter((write) => (unprocessed.has(id(write.request)) ? true : (done.add(write), false)));
  }, policy);
  if (stop) {
    const order = [...byKey.values()];
    const notDone = new Set(left);
    throw batchError(label, stop, order.filter((write) => done.has(write)).map((write) => write.source), order.filter((write) => notDone.has(write)).map((write) => write.source));
  }
}
