// Access paths: the ways an entity's items can be queried (its table key, each index it maps into,
// each declared pattern), resolved once from the IR for the emitters and the validator.

import type { EntityDef, IndexDef, PatternDef, PatternOperator, Projection, TableDef, TemplateDef } from '../../dsl/ir.js';
import { exactKeyParts, templateAttributes } from './key-segments.js';

export interface AccessPath {
  /** Undefined for the table itself. */
  readonly index?: IndexDef;
  /** Partition-key template (for an LSI, the entity's table pk). */
  readonly pk: TemplateDef;
  readonly sk?: TemplateDef;
  readonly partition: readonly string[];
  readonly sort: readonly string[];
  readonly projection: Projection;
  /** Schema path of the mapping, for messages. */
  readonly target: string;
}

export function tableAccess(entity: EntityDef): AccessPath {
  return {
    pk: entity.key.pk,
    ...(entity.key.sk ? { sk: entity.key.sk } : {}),
    partition: templateAttributes(entity.key.pk),
    sort: entity.key.sk ? templateAttributes(entity.key.sk) : [],
    projection: 'all',
    target: `${entity.name}.key`,
  };
}

/**
 * What an index projects: as declared, plus the table's TTL attribute where it projects less than
 * every attribute (keys-only becomes INCLUDE of it), so that a query of the index can hide expired
 * items as every other read does; reads hide them by that attribute, client-side.
 */
export function indexProjection(table: TableDef, index: IndexDef): Projection {
  if (index.projection === 'all' || table.ttl === undefined) return index.projection;
  const included = index.projection === 'keys-only' ? [] : index.projection;
  return included.includes(table.ttl) ? index.projection : [...included, table.ttl];
}

/** Whether the path's partition key has a `<shard>` segment: a query on it gathers every shard. */
export const shardedPartition = (path: AccessPath): boolean => path.pk.segments.some((segment) => segment.kind === 'placeholder' && segment.name === 'shard');

/** The access path through an index the entity maps into, or undefined if it does not. */
export function indexAccess(table: TableDef, entity: EntityDef, indexName: string): AccessPath | undefined {
  const index = table.indexes[indexName];
  const mapping = entity.indexes[indexName];
  if (!index || !mapping) return undefined;
  const pk = index.kind === 'lsi' ? entity.key.pk : mapping.pk;
  if (!pk) return undefined;
  const sk = index.sk === undefined ? undefined : mapping.sk;
  return {
    index,
    pk,
    ...(sk ? { sk } : {}),
    partition: templateAttributes(pk),
    sort: sk ? templateAttributes(sk) : [],
    projection: indexProjection(table, index),
    target: `${entity.name}.indexes.${indexName}`,
  };
}

/** Attributes a projection holds for an entity: every attribute for `all`, else exact key parts plus includes. */
export function projectedAttributes(table: TableDef, entity: EntityDef, path: AccessPath): string[] {
  const names = Object.keys(entity.attributes);
  if (path.projection === 'all') return names;
  const exact = exactKeyParts(entity, [entity.key.pk, entity.key.sk, path.index?.kind === 'gsi' ? path.pk : undefined, path.sk]);
  const included = path.projection === 'keys-only' ? [] : path.projection;
  return names.filter((n) => exact.has(n) || included.includes(n));
}

export interface ResolvedPattern {
  readonly pattern: PatternDef;
  readonly entity: EntityDef;
  readonly path: AccessPath;
  readonly op: PatternOperator;
  /** Sort-key attributes fixed before `pattern.sk`. */
  readonly before: readonly string[];
}

/** A pattern with its access path, or a reason it cannot be resolved (reported by validation). */
export function resolvePattern(table: TableDef, pattern: PatternDef): ResolvedPattern | 'entity' | 'index' | 'op-without-sk' | 'sk' {
  const entity = table.entities[pattern.entity];
  if (!entity) return 'entity';
  const path = pattern.index === undefined ? tableAccess(entity) : indexAccess(table, entity, pattern.index);
  if (!path) return 'index';
  const op = pattern.op ?? 'eq';
  if (pattern.sk === undefined) return pattern.op === undefined ? { pattern, entity, path, op, before: [] } : 'op-without-sk';
  const position = path.sort.indexOf(pattern.sk);
  if (position < 0) return 'sk';
  return { pattern, entity, path, op, before: path.sort.slice(0, position) };
}
