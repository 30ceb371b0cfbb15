// What `ddbgen diff` compares and finds, shared by the diff (schema-diff.ts) and the migration it
// writes for what it found (emit-migration.ts).

import type { SchemaTable } from '../load/load-schema.js';
import type { SchemaChange } from './compare-tables.js';

/** One classified change, placed in the schema that has it. */
export interface LocatedChange extends SchemaChange {
  readonly table: string;
  /** `Social.entities.User.key.pk` */
  readonly target: string;
  readonly acknowledged: boolean;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

export interface TablePair {
  readonly before?: SchemaTable;
  readonly after?: SchemaTable;
}
