// The names ddbgen derives from the names a schema declares: a table's folder, an entity's member
// and type names. Validation judges them (validate/name-rules.ts) and the emitters write them.

import type { TableDef } from '../../dsl/ir.js';

/** `UserProfile` → `user-profile`. */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

/** `UserProfile` → `userProfile`. */
export function camelCase(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** `social` → `Social`. */
export function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export const tableFolder = (table: TableDef) => kebabCase(table.name);
