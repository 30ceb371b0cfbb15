// The writes that move an edge: both halves in one transaction (each new item put unless its key
// is taken, each old one deleted only while it is there), so an edge is always whole in one form or
// the other; an inverse half whose forward half moves it is only checked.

import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { defaultSleep } from '../batch.js';
import { writeUnits } from './capacity-bucket.js';
import { capped, isConditionFailure, retire, SUPERSEDE_ATTEMPTS, type WriteContext } from './capped-write.js';
import type { EdgeMove } from './edge-classification.js';
import { itemSize } from '../item-size.js';
import type { Outcome } from './segment-state.js';

/** Transactions cancelled by a concurrent transaction on the same items (another segment moving the other half) are tried again this many times. */
const CONFLICT_ATTEMPTS = 8;

/**
 * An inverse half whose forward half moves it (`EdgeMove.follows`): already done as far as this
 * scan goes (counted as current) while its forward half is in the table or once both have moved;
 * reported when its forward half is missing, and left in place.
 */
export async function followEdge(ctx: WriteContext, move: EdgeMove): Promise<Outcome> {
  const [own, forward] = move.halves;
  const there = async (key: Readonly<Record<string, unknown>>) => (await ctx.client.send(new GetCommand({ TableName: ctx.tableName, Key: key, ConsistentRead: true }))).Item !== undefined;
  // the two halves move in one transaction: the forward half gone while this one is there means it is missing
  if ((await there(forward!.old)) || !(await there(own!.old))) return { kind: 'current' };
  return { kind: 'skipped', skipped: { key: own!.old, reason: `edge ${move.edge}: its other half ${JSON.stringify(forward!.old)} is not in the table (an edge is stored as two items); nothing was written` } };
}

/**
 * Moves an edge item and its other half in one transaction: each new item put unless its key
 * exists, each old one deleted only if it is still there. When a condition fails: a newer write
 * holding a new key wins (the old halves are only deleted); an item already gone was moved with
 * its other half; a missing other half is reported and nothing is written.
 */
export async function moveEdge(ctx: WriteContext, move: EdgeMove, stored: Readonly<Record<string, unknown>>): Promise<Outcome> {
  // the table's key attribute names are the same in both schemas (renaming them recreates the table)
  const pk = Object.keys(move.halves[0]!.old)[0]!;
  const names = { ExpressionAttributeNames: { '#pk': pk } };
  const items = move.halves.flatMap((h) => [
    { Put: { TableName: ctx.tableName, Item: h.next, ConditionExpression: 'attribute_not_exists(#pk)', ...names } },
    { Delete: { TableName: ctx.tableName, Key: h.old, ConditionExpression: 'attribute_exists(#pk)', ...names } },
  ]);
  // both halves carry the same attributes: the one read stands for the other's size
  const oldSizes = move.halves.map(() => itemSize(stored));
  const estimate = writeUnits([...move.halves.map((h) => itemSize(h.next)), ...oldSizes], true);
  for (let attempt = 1; ; attempt++) {
    let reasons: ReadonlyArray<{ Code?: string }> = [];
    try {
      await capped(ctx, estimate, new TransactWriteCommand({ TransactItems: items, ReturnConsumedCapacity: 'TOTAL' }));
      return { kind: 'rewritten', items: move.halves.length };
    } catch (error) {
      reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
      const conflict = reasons.some((r) => r.Code === 'TransactionConflict') && !isConditionFailure(error);
      if (conflict && attempt < CONFLICT_ATTEMPTS) {
        await defaultSleep(20 * 2 ** attempt * Math.random());
        continue;
      }
      if (!isConditionFailure(error)) throw error;
    }
    const failed = reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
    const [own, other] = move.halves;
    if (failed.includes(1)) {
      return { kind: 'current' }; // moved with its other half meanwhile
    }
    if (other && failed.length === 1 && failed[0] === 3) {
      return { kind: 'skipped', skipped: { key: own!.old, reason: `edge ${move.edge}: its other half ${JSON.stringify(other.old)} is not in the table (an edge is stored as two items); nothing was written` } };
    }
    // the new code added the edge meanwhile: it wins, and the old halves go away once its halves are checked
    const key = (record: Readonly<Record<string, unknown>>) => Object.fromEntries(Object.keys(own!.old).map((a) => [a, record[a]]));
    if (await retire(ctx, pk, move.halves.map((h) => ({ old: h.old, replacement: key(h.next) })), oldSizes)) {
      return { kind: 'superseded' };
    }
    if (attempt >= SUPERSEDE_ATTEMPTS) {
      return { kind: 'skipped', skipped: { key: own!.old, reason: `edge ${move.edge}: its new halves were written and removed again while it moved (${attempt} attempts); left in place` } };
    }
  }
}
