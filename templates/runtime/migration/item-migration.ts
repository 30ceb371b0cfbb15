// Migrates one entity item: a rewritten key as one transaction (the new item put unless its key is
// taken, the old one deleted), a newer write on the new key winning (the old item is retired), a
// random-shard counter merged (counter-merge.ts), and a backfill as an update conditioned on the
// values its index attributes were computed from.

import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { recordUnits, writeUnits } from './capacity-bucket.js';
import { capped, isConditionFailure, retire, SUPERSEDE_ATTEMPTS, type WriteContext } from './capped-write.js';
import { keyAttributes, keyShard } from '../codec.js';
import { mergeCounter } from './counter-merge.js';
import { itemSize } from '../item-size.js';
import { indexChanges, nextRecord, readStored, tableKey } from './item-rebuild.js';
import type { EntityModel } from '../repository.js';
import type { DecodeStored, MigratedEntity } from './plan.js';
import type { Outcome } from './segment-state.js';

/** Whether an entity's items are summed counters spread over random shards: one item per shard of a partition (its sort key is constant). */
const isShardedCounter = (model: EntityModel) => keyShard(model.pk.template)?.random === true && (model.sk === undefined || keyAttributes(model.sk.template).length === 0);

export async function migrateItem(ctx: WriteContext, decode: DecodeStored, entity: MigratedEntity, stored: Record<string, unknown>): Promise<Outcome> {
  const oldKey = tableKey(entity.from, stored);
  const read = readStored(entity, decode, stored);
  let next: Record<string, unknown>;
  try {
    if ('skip' in read) throw new Error(read.skip);
    next = nextRecord(entity, read.item, read.shard);
  } catch (error) {
    const reason = (error as Error).message;
    return { kind: 'skipped', skipped: { key: oldKey, reason: reason.startsWith(`${entity.name}: `) ? reason : `${entity.name}: ${reason}` } };
  }
  const newKey = tableKey(entity.to, next);
  if (JSON.stringify(newKey) !== JSON.stringify(oldKey)) {
    if (isShardedCounter(entity.to)) return mergeCounter(ctx, decode, entity, stored, next);
    const pk = { '#pk': entity.to.pk.attribute };
    for (let attempt = 1; ; attempt++) {
      try {
        await capped(ctx, recordUnits([next, stored], true), new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: ctx.tableName, Item: next, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: pk } },
            { Delete: { TableName: ctx.tableName, Key: oldKey } },
          ],
          ReturnConsumedCapacity: 'TOTAL',
        }));
        return { kind: 'rewritten' };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      if (keyShard(entity.to.pk.template)?.random) {
        // two old items of a random-shard entity land on one new key: neither is dropped
        return { kind: 'skipped', skipped: { key: oldKey, reason: `${entity.name}: its new key ${JSON.stringify(newKey)} already holds another item (random shards folded together); left in place` } };
      }
      // a newer write holds the new key: it wins, and the old item goes away in a transaction that checks it is there
      if (await retire(ctx, entity.to.pk.attribute, [{ old: oldKey, replacement: newKey }], [itemSize(stored)])) {
        return { kind: 'superseded' };
      }
      if (attempt >= SUPERSEDE_ATTEMPTS) {
        return { kind: 'skipped', skipped: { key: oldKey, reason: `${entity.name}: its new key ${JSON.stringify(newKey)} was written and deleted again while it moved (${attempt} attempts); left in place` } };
      }
    }
  }
  const { set, remove } = indexChanges(entity, stored, next);
  if (Object.keys(set).length === 0 && remove.length === 0) {
    return { kind: 'current' };
  }
  // conditioned on what the index keys were computed from: a concurrent write wins
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions: string[] = [];
  const inputs = new Set(entity.to.indexes.flatMap((i) => i.inputs));
  let n = 0;
  const alias = (name: string) => {
    const key = `#n${n++}`;
    names[key] = name;
    return key;
  };
  for (const name of [...inputs, ...Object.keys(set), ...remove]) {
    const a = alias(name);
    if (stored[name] === undefined) conditions.push(`attribute_not_exists(${a})`);
    else {
      values[`:c${n}`] = stored[name];
      conditions.push(`${a} = :c${n}`);
    }
  }
  const assignments = Object.entries(set).map(([name, value], i) => {
    values[`:s${i}`] = value;
    return `${alias(name)} = :s${i}`;
  });
  const removals = remove.map(alias);
  try {
    await capped(ctx, writeUnits([Math.max(itemSize(stored), itemSize(next))]),
      new UpdateCommand({
        TableName: ctx.tableName,
        Key: oldKey,
        UpdateExpression: [assignments.length ? `SET ${assignments.join(', ')}` : '', removals.length ? `REMOVE ${removals.join(', ')}` : ''].filter(Boolean).join(' '),
        ConditionExpression: [`attribute_exists(${alias(entity.to.pk.attribute)})`, ...conditions].join(' AND '),
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    return { kind: 'backfilled' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { kind: 'superseded' }; // a concurrent write changed the item: it wins
  }
}
