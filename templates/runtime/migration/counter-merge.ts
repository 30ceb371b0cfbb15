// A random-shard counter moves by merging: its counts are ADDed to its new key in one transaction
// with the delete of the old item, conditioned on the counts added, so each count is added exactly
// once however often the merge is tried.

import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { recordUnits } from './capacity-bucket.js';
import { capped, isConditionFailure, type WriteContext } from './capped-write.js';
import { ExpressionAliases } from '../expression.js';
import { nextRecord, readStored, tableKey } from './item-rebuild.js';
import type { DecodeStored, MigratedEntity } from './plan.js';
import type { Outcome } from './segment-state.js';

/** A counter item changed by another writer while it was being merged is read and merged again this many times. */
const MERGE_ATTEMPTS = 5;

/**
 * Merges a random-shard counter item into its new key in one transaction: the new item gets each
 * counter ADDed (created when absent, its other attributes set where missing) and the old item is
 * deleted on condition that it still holds the counts that were added. So a count is added exactly
 * once: a re-run finds the old item gone and adds nothing, and an old item another writer changed
 * meanwhile is read and merged again.
 */
export async function mergeCounter(ctx: WriteContext, decode: DecodeStored, entity: MigratedEntity, stored: Record<string, unknown>, next: Record<string, unknown>, attempt = 1): Promise<Outcome> {
  const oldKey = tableKey(entity.from, stored);
  const newKey = tableKey(entity.to, next);
  const update = new ExpressionAliases();
  const add: string[] = [];
  const set: string[] = [];
  for (const [name, value] of Object.entries(next)) {
    if (name in newKey) continue;
    if (typeof value === 'number' && !entity.to.keyAttributes.includes(name) && !entity.to.primaryParts.includes(name)) add.push(`${update.name(name)} ${update.value(value)}`);
    else set.push(`${update.name(name)} = if_not_exists(${update.name(name)}, ${update.value(value)})`);
  }
  // the old item as read: its counters unchanged (a count added meanwhile is merged on the next attempt)
  const held = new ExpressionAliases();
  const condition = [`attribute_exists(${held.name(Object.keys(oldKey)[0]!)})`];
  for (const [name, value] of Object.entries(stored)) if (typeof value === 'number' && !(name in oldKey)) condition.push(`${held.name(name)} = ${held.value(value)}`);
  try {
    await capped(ctx, recordUnits([next, stored], true),
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: ctx.tableName, Key: newKey, UpdateExpression: [set.length ? `SET ${set.join(', ')}` : '', add.length ? `ADD ${add.join(', ')}` : ''].filter(Boolean).join(' '), ...update.attributes() } },
          { Delete: { TableName: ctx.tableName, Key: oldKey, ConditionExpression: condition.join(' AND '), ...held.attributes() } },
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    return { kind: 'rewritten' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const now = await ctx.client.send(new GetCommand({ TableName: ctx.tableName, Key: oldKey, ConsistentRead: true }));
    if (now.Item === undefined) return { kind: 'current' }; // merged meanwhile (an earlier run, or another worker)
    if (attempt >= MERGE_ATTEMPTS) return { kind: 'skipped', skipped: { key: oldKey, reason: `${entity.name}: its counters kept changing while it was merged (${attempt} attempts); left in place` } };
    const read = readStored(entity, decode, now.Item);
    if ('skip' in read) return { kind: 'skipped', skipped: { key: oldKey, reason: read.skip } };
    return mergeCounter(ctx, decode, entity, now.Item, nextRecord(entity, read.item, read.shard), attempt + 1);
  }
}
