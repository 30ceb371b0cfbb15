// One entity's module as its emitter makes it, made once for the two stages that need it: the
// check of generated names (validation reads the module's declarations) and generation (which
// renders it, then lets it go). The IR is frozen, so a table object and an entity name name one
// module.

import type { EntityDef, TableDef } from '../../../dsl/ir.js';
import { createContext } from '../context.js';
import type { EmittedModule } from '../context.js';
import { emitEntity } from './entity.js';

/** What an entity's emitter may read: the table without the other entities, their patterns, or the edges. */
export function entityTable(table: TableDef, entity: EntityDef): TableDef {
  return { ...table, entities: { [entity.name]: entity }, edges: {}, patterns: Object.fromEntries(Object.entries(table.patterns).filter(([, p]) => p.entity === entity.name)) };
}

/** Modules emitted for validation and not yet rendered, by table and entity. */
const made = new WeakMap<TableDef, Map<EntityDef, EmittedModule>>();

/** The entity's module (key codec v2), kept until generation takes it. */
export function entityModule(table: TableDef, entity: EntityDef): EmittedModule {
  let modules = made.get(table);
  if (!modules) made.set(table, (modules = new Map()));
  let module = modules.get(entity);
  if (!module) modules.set(entity, (module = emitEntity(entity, createContext(entityTable(table, entity)))));
  return module;
}

/** The entity's module for rendering: the one validation made, no longer kept, or a new one (key codec v1 always). */
export function takeEntityModule(table: TableDef, entity: EntityDef, keyCodec?: 1): EmittedModule {
  if (keyCodec !== undefined) return emitEntity(entity, createContext(entityTable(table, entity), keyCodec));
  const module = made.get(table)?.get(entity);
  made.get(table)?.delete(entity);
  return module ?? emitEntity(entity, createContext(entityTable(table, entity)));
}
