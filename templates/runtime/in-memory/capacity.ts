// The capacity units a request of the in-memory engine consumes, per table and index, as DynamoDB
// counts them (ReturnConsumedCapacity TOTAL or INDEXES).

import type { Change, Table } from './stored-table.js';
import type { IndexShape } from './key-space.js';
import { equalMaps, itemBytes, type AttributeMap } from './value.js';

export type Capacity = { read: number; write: number; indexes: Map<string, number> };

export const readUnits = (bytes: number, consistent: boolean) => Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);
export const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

export function capacity(): Capacity {
  return { read: 0, write: 0, indexes: new Map() };
}

const indexKeyText = (index: IndexShape, entry: Readonly<AttributeMap>) => JSON.stringify([...index.key.hash, ...index.key.range].map((name) => entry[name]));

/** Write units of a change to the table and each index it touches. */
export function chargeWrite(table: Table, change: Change, used: Capacity, factor = 1): void {
  used.write += writeUnits(Math.max(change.old ? itemBytes(change.old) : 0, change.item ? itemBytes(change.item) : 0)) * factor;
  for (const index of table.indexes) {
    const before = table.indexItem(index, change.old);
    const after = table.indexItem(index, change.item);
    if ((!before && !after) || (before && after && equalMaps(before, after))) continue; // the index entry does not change: no write to the index
    // an entry whose index key changes is a delete and a put in the index; one that keeps it, a put
    const removed = before && (!after || indexKeyText(index, before) !== indexKeyText(index, after));
    const units = (removed ? writeUnits(itemBytes(before)) : 0) + (after ? writeUnits(itemBytes(after)) : 0);
    used.indexes.set(index.name, (used.indexes.get(index.name) ?? 0) + units * factor);
  }
}

export function consumed(table: Table, used: Capacity, mode: string | undefined): Record<string, unknown> | undefined {
  if (mode !== 'TOTAL' && mode !== 'INDEXES') return undefined;
  const own = used.read + used.write;
  let total = own;
  for (const units of used.indexes.values()) total += units;
  if (mode === 'TOTAL') return { TableName: table.name, CapacityUnits: total };
  const gsis: Record<string, { CapacityUnits: number }> = {};
  const lsis: Record<string, { CapacityUnits: number }> = {};
  for (const [name, units] of used.indexes) (table.indexes.find((i) => i.name === name)!.kind === 'gsi' ? gsis : lsis)[name] = { CapacityUnits: units };
  return {
    TableName: table.name,
    CapacityUnits: total,
    Table: { CapacityUnits: own },
    ...(Object.keys(gsis).length ? { GlobalSecondaryIndexes: gsis } : {}),
    ...(Object.keys(lsis).length ? { LocalSecondaryIndexes: lsis } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
