// Batch reads and writes that lose nothing. Requests are deduplicated, chunked (100 keys per
// BatchGetItem, 25 writes per BatchWriteItem), sent with bounded concurrency, and whatever DynamoDB
// leaves unprocessed (UnprocessedKeys / UnprocessedItems, or a throttle with nothing processed) is
// retried with capped exponential backoff and full jitter under an attempt and time budget. Results
// accumulate across attempts; when the budget runs out, UnprocessedItemsError carries exactly what
// is left.

import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { DdbgenError, hideProperty } from './errors.js';
import type { TableContext } from './repository.js';

export interface RetryPolicy {
  /** Attempts per chunk, the first included. Default 10. */
  readonly maxAttempts?: number;
  /** First backoff ceiling in ms. Default 25. */
  readonly baseDelayMs?: number;
  /** Largest backoff ceiling in ms. Default 2000. */
  readonly maxDelayMs?: number;
  /** Total time a batch may spend, retries included, in ms. Default 30000. */
  readonly budgetMs?: number;
  /** Chunks in flight at once. Default 4. */
  readonly concurrency?: number;
  /** Injectable for tests: uniform in [0, 1). */
  readonly random?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

type Key = Record<string, unknown>;
type WriteRequest = { readonly PutRequest: { readonly Item: Record<string, unknown> } } | { readonly DeleteRequest: { readonly Key: Key } };

/**
 * A batch gave up with items left: `unprocessed` holds exactly those (keys for reads, requests for
 * writes); it is not enumerable, so logging the error does not print stored data.
 */
export class UnprocessedItemsError extends DdbgenError {
  declare readonly unprocessed: readonly unknown[];
  readonly attempts: number;
  constructor(operation: string, unprocessed: readonly unknown[], attempts: number, cause?: unknown) {
    super('UNPROCESSED_ITEMS', `${operation}: ${unprocessed.length} item(s) still unprocessed after ${attempts} attempt(s); they are in error.unprocessed`, { cause });
    hideProperty(this, 'unprocessed', unprocessed);
    this.attempts = attempts;
  }
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
const timers = globalThis as unknown as { setTimeout(callback: () => void, ms: number): unknown };
/** Waits `ms` milliseconds. */
export const defaultSleep = (ms: number) => new Promise<void>((resolve) => timers.setTimeout(resolve, ms));

/** Sends `pending` until nothing is left, retrying what each response leaves unprocessed. */
async function untilDone<T>(
  operation: string,
  first: T[],
  send: (pending: T[]) => Promise<T[]>,
  policy: RetryPolicy,
  started: number,
): Promise<void> {
  const sleep = policy.sleep ?? defaultSleep;
  const now = policy.now ?? Date.now;
  const maxAttempts = policy.maxAttempts ?? 10;
  let pending = first;
  for (let attempt = 0; ; attempt++) {
    let failure: unknown;
    try {
      pending = await send(pending);
    } catch (error) {
      if (!isThrottle(error)) throw error;
      failure = error;
    }
    if (pending.length === 0) return;
    const delay = backoffDelay(attempt, policy);
    if (attempt + 1 >= maxAttempts || now() + delay - started > (policy.budgetMs ?? 30_000)) {
      throw new UnprocessedItemsError(operation, pending, attempt + 1, failure);
    }
    await sleep(delay);
  }
}

/**
 * Reads keys from one table. Returns the stored records found, by key id (see `keyId`); keys with
 * no item are absent from the map.
 */
export async function batchGetRecords(ctx: TableContext, keys: readonly Key[], keyAttributes: readonly string[], options: { consistent?: boolean; policy?: RetryPolicy } = {}): Promise<Map<string, Record<string, unknown>>> {
  const policy = options.policy ?? {};
  const unique = [...new Map(keys.map((k) => [keyId(k, keyAttributes), k])).values()];
  const found = new Map<string, Record<string, unknown>>();
  const started = (policy.now ?? Date.now)();
  const failures: UnprocessedItemsError[] = [];
  await mapConcurrent(chunk(unique, 100), policy.concurrency ?? 4, async (part) => {
    try {
      await untilDone('batchGet', part, async (pending) => {
        const result = await ctx.client.send(
          new BatchGetCommand({ RequestItems: { [ctx.tableName]: { Keys: pending, ...(options.consistent ? { ConsistentRead: true } : {}) } } }),
        );
        for (const item of result.Responses?.[ctx.tableName] ?? []) found.set(keyId(item, keyAttributes), item);
        return (result.UnprocessedKeys?.[ctx.tableName]?.Keys ?? []) as Key[];
      }, policy, started);
    } catch (error) {
      if (!(error instanceof UnprocessedItemsError)) throw error;
      failures.push(error);
    }
  });
  if (failures.length) throw new UnprocessedItemsError('batchGet', failures.flatMap((f) => f.unprocessed), Math.max(...failures.map((f) => f.attempts)), failures[0]!.cause);
  return found;
}

/**
 * Writes puts and deletes to one table. Two requests for the same key would be rejected by
 * DynamoDB, so the last request for each key wins, as if they were sent in order.
 */
export async function batchWriteRecords(ctx: TableContext, requests: readonly WriteRequest[], keyAttributes: readonly string[], policy: RetryPolicy = {}): Promise<void> {
  const byKey = new Map<string, WriteRequest>();
  for (const request of requests) {
    const key = 'PutRequest' in request ? request.PutRequest.Item : request.DeleteRequest.Key;
    const id = keyId(key, keyAttributes);
    byKey.delete(id);
    byKey.set(id, request);
  }
  const started = (policy.now ?? Date.now)();
  const failures: UnprocessedItemsError[] = [];
  await mapConcurrent(chunk([...byKey.values()], 25), policy.concurrency ?? 4, async (part) => {
    try {
      await untilDone('batchWrite', part, async (pending) => {
        const result = await ctx.client.send(new BatchWriteCommand({ RequestItems: { [ctx.tableName]: pending as WriteRequest[] } }));
        return (result.UnprocessedItems?.[ctx.tableName] ?? []) as WriteRequest[];
      }, policy, started);
    } catch (error) {
      if (!(error instanceof UnprocessedItemsError)) throw error;
      failures.push(error);
    }
  });
  if (failures.length) throw new UnprocessedItemsError('batchWrite', failures.flatMap((f) => f.unprocessed), Math.max(...failures.map((f) => f.attempts)), failures[0]!.cause);
}
