// How the migration sends its writes: each under the write cap (capacity-bucket.ts) and the
// segment's fence, charged by its estimate and corrected by the capacity DynamoDB reports; and the
// retiring of old items whose replacements a newer write already holds, which item moves and edge
// moves share.

import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { writeUnits, type CapacityBucket } from './capacity-bucket.js';
import { itemSize } from '../item-size.js';
import type { TableContext } from '../repository.js';

const units = (consumed: unknown): number =>
  (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce((sum: number, c: { CapacityUnits?: number }) => sum + (c.CapacityUnits ?? 0), 0);

export const isConditionFailure = (error: unknown) => {
  const e = error as { name?: string; CancellationReasons?: Array<{ Code?: string }> };
  return e.name === 'ConditionalCheckFailedException' || (e.name === 'TransactionCanceledException' && (e.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed'));
};

/** Where a segment's writes go: the table, the cap, and the check that the segment is still this process's to write. */
export interface WriteContext extends TableContext {
  readonly bucket: CapacityBucket;
  /** Awaited just before each write is sent (after the cap let it go): throws when the segment is no longer this process's. */
  readonly fence?: (() => Promise<void>) | undefined;
}

/**
 * Sends one write under the cap: charged before it goes by its estimate (`recordUnits`), corrected
 * by the consumed capacity DynamoDB reports (none for a cancelled transaction or a failed
 * condition: the estimate stands).
 */
export async function capped<T extends { ConsumedCapacity?: unknown }>(ctx: WriteContext, estimate: number, command: { input: unknown }): Promise<T> {
  const charge = await ctx.bucket.take(estimate);
  try {
    await ctx.fence?.();
  } catch (error) {
    ctx.bucket.settle(charge, 0); // not sent
    throw error;
  }
  try {
    const result = (await ctx.client.send(command as never)) as unknown as T;
    ctx.bucket.settle(charge, result.ConsumedCapacity === undefined ? undefined : units(result.ConsumedCapacity));
    return result;
  } catch (error) {
    ctx.bucket.settle(charge, undefined);
    throw error;
  }
}

/** An item whose replacement is written and deleted again by other writers while it moves is tried this many times, then reported. */
export const SUPERSEDE_ATTEMPTS = 3;

/**
 * Deletes old items whose replacements a newer write already holds, in one transaction that checks
 * every replacement is there: nothing is deleted unless its replacement is in the table. False when
 * a replacement was gone (deleted meanwhile): nothing was deleted.
 */
export async function retire(ctx: WriteContext, pk: string, pairs: ReadonlyArray<{ readonly old: Readonly<Record<string, unknown>>; readonly replacement: Readonly<Record<string, unknown>> }>, oldSizes: readonly number[]): Promise<boolean> {
  const names = { ExpressionAttributeNames: { '#pk': pk } };
  try {
    await capped(ctx, writeUnits([...pairs.map((p) => itemSize(p.replacement)), ...oldSizes], true), new TransactWriteCommand({
      TransactItems: pairs.flatMap((p) => [
        { ConditionCheck: { TableName: ctx.tableName, Key: p.replacement, ConditionExpression: 'attribute_exists(#pk)', ...names } },
        { Delete: { TableName: ctx.tableName, Key: p.old } },
      ]),
      ReturnConsumedCapacity: 'TOTAL',
    }));
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}
