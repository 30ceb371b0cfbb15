// What the reads and writes of the in-memory engine (reads.ts, writes.ts) take from the engine
// that answers them (engine.ts): its tables, its clock, the items transactions in flight hold,
// applying a change (the table, its indexes, the stream), the seeded draw of faults and the
// idempotency tokens of transactions.

import type { Change, Table } from './stored-table.js';
import type { AttributeMap } from './value.js';

export interface EngineContext {
  /** The named table, its lagging indexes caught up to now; ResourceNotFoundException when there is none. */
  table(name: string | undefined): Table;
  /** The engine's clock, in milliseconds since the epoch. */
  now(): number;
  /** Whether a transaction in flight holds the item. */
  held(table: Table, key: Readonly<AttributeMap>): boolean;
  /** Writes a change to the table and its indexes, and records it on the table's stream. */
  apply(table: Table, change: Change): void;
  /** The seeded draw faults are picked with. */
  random(): number;
  /** Transactions' client request tokens: the request's fingerprint and when it was done. */
  readonly tokens: Map<string, { readonly input: string; readonly at: number }>;
}
