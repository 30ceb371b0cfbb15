// ddbgen's public DSL. A schema module imports these and default-exports one table or an array.
export { t, type Attribute } from './attribute.js';
export { defineTable, edge, entity, gsi, lsi, type EntityDeclaration, type IndexMapping, type PatternDeclaration, type Shard, type TableDeclaration, type Traffic } from './define-table.js';
export type { KeyTemplate } from './template.js';
export type * from './ir.js';
export { defineConfig, type DdbgenConfig } from './config.js';
