// Parallel scan for background sweeps: `segments` Scan streams (Segment/TotalSegments) read with
// bounded concurrency and a page size limit, each record tagged with the entity that owns it. With
// `segment`, only that one of the `segments` is read: N workers (processes or machines) each run
// segment k of N on their own, as the seed's sweepers do.

import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { unexpired, type ExpiryOptions } from './expiry.js';
import type { CollectionMember } from './read.js';
import type { TableContext } from './repository.js';
import { tagRecord } from './read.js';

/** Segments a scan reads unless told otherwise. */
export const DEFAULT_SEGMENTS = 4;

export interface ScanOptions extends ExpiryOptions {
  /** Parallel segments (DynamoDB's TotalSegments). Default 4. */
  readonly segments?: number;
  /** Read only this segment (0..segments-1), for one worker of a scan split across processes. Default: every segment. */
  readonly segment?: number;
  /** Segments read at once. Default: all of them. */
  readonly concurrency?: number;
  /** Items per Scan request (DynamoDB's Limit). Default 100. */
  readonly pageSize?: number;
  readonly consistent?: boolean;
}

/** The Scan input of one page of `segment` (of `segments`), from `start` when given. */
export function scanInput(tableName: string, segment: number, segments: number, options: ScanOptions, start?: Record<string, unknown>) {
  return {
    TableName: tableName,
    Segment: segment,
    TotalSegments: segments,
    Limit: options.pageSize ?? 100,
    ...(options.consistent ? { ConsistentRead: true } : {}),
    ...(start ? { ExclusiveStartKey: start } : {}),
  };
}

/** Every item of the table, segment by segment in parallel, tagged `{ type, item }`; order is not defined. */
export async function* scanSegments<Tagged>(ctx: TableContext, members: readonly CollectionMember[], options: ScanOptions = {}): AsyncGenerator<Tagged, void, undefined> {
  const segments = options.segments ?? DEFAULT_SEGMENTS;
  if (!Number.isInteger(segments) || segments < 1 || segments > 1_000_000) throw new RangeError(`segments must be an integer from 1 to 1,000,000, got ${segments}`);
  const only = options.segment;
  if (only !== undefined && (!Number.isInteger(only) || only < 0 || only >= segments)) throw new RangeError(`segment must be an integer from 0 to ${segments - 1} (segments - 1), got ${only}`);
  const last = only === undefined ? segments : only + 1;
  const keep = unexpired(ctx, options);
  const concurrency = only === undefined ? Math.max(1, Math.min(options.concurrency ?? segments, segments)) : 1;
  const queue: Tagged[] = [];
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  let failure: unknown;
  let active = 0;
  let nextSegment = only ?? 0;
  const run = async (): Promise<void> => {
    while (nextSegment < last && failure === undefined) {
      const segment = nextSegment++;
      let start: Record<string, unknown> | undefined;
      do {
        const result = await ctx.client.send(new ScanCommand(scanInput(ctx.tableName, segment, segments, options, start)));
        for (const record of result.Items ?? []) if (keep(record)) queue.push(tagRecord(members, record) as Tagged);
        wake();
        start = result.LastEvaluatedKey;
      } while (start);
    }
  };
  const workers = Array.from({ length: concurrency }, () => {
    active++;
    return run()
      .catch((error) => {
        failure = error;
      })
      .finally(() => {
        active--;
        wake();
      });
  });
  while (true) {
    while (queue.length) yield queue.shift()!;
    if (failure !== undefined) throw failure;
    if (active === 0) break;
    await new Promise<void>((resolve) => waiters.push(resolve));
  }
  await Promise.all(workers);
}
