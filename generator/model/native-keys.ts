// Native multi-attribute GSI keys: which entity attribute holds each key attribute of a native GSI,
// the DynamoDB type each key attribute is stored as, and the key as a template of placeholders (so
// the load model and the lint count its partitions as they count a synthetic key's).

import type { AttributeDef, EntityDef, NativeGsiDef, NativeIndexMappingDef, TableDef, TemplateDef } from '../../dsl/ir.js';

/** DynamoDB's limit: a GSI's partition key and its sort key are each at most 4 attributes. */
export const NATIVE_KEY_ATTRIBUTES = 4;

export type ScalarType = 'S' | 'N' | 'B';

/** How an attribute is stored, when DynamoDB can key on it: strings, enums and timestamps as S, numbers as N, binary as B. */
export function scalarType(def: AttributeDef, ttl = false): ScalarType | undefined {
  // the table's TTL attribute is stored as epoch seconds, a number
  if (ttl && def.kind === 'timestamp') return 'N';
  switch (def.kind) {
    case 'string':
    case 'enum':
    case 'timestamp':
      return 'S';
    case 'number':
      return 'N';
    case 'binary':
      return 'B';
    default:
      return undefined;
  }
}

export interface NativeMapping {
  readonly entity: EntityDef;
  readonly mapping: NativeIndexMappingDef;
}

/** The native GSIs of a table, in declaration order. */
export function nativeIndexes(table: TableDef): NativeGsiDef[] {
  return Object.values(table.indexes).filter((index): index is NativeGsiDef => index.kind === 'native-gsi');
}

/** Every entity's mapping into one native GSI. */
export function nativeMappings(table: TableDef, index: string): NativeMapping[] {
  return Object.values(table.entities).flatMap((entity) => {
    const mapping = entity.nativeIndexes?.[index];
    return mapping ? [{ entity, mapping }] : [];
  });
}

/** The stored type of each key attribute of a native GSI, from the entities mapped into it (S when none says otherwise). */
export function nativeKeyTypes(table: TableDef, index: NativeGsiDef): Record<string, ScalarType> {
  const mappings = nativeMappings(table, index.name);
  return Object.fromEntries(
    [...index.pk, ...index.sk].map((key) => {
      for (const { entity, mapping } of mappings) {
        const source = mapping.attributes[key] ?? key;
        const def = entity.attributes[source];
        const type = def && scalarType(def, source === table.ttl);
        if (type) return [key, type];
      }
      return [key, 'S'];
    }),
  );
}

/** The entity attributes behind one part of a native key, in key order. */
export function nativeParts(index: NativeGsiDef, mapping: NativeIndexMappingDef, part: 'pk' | 'sk'): string[] {
  return index[part].map((key) => mapping.attributes[key] ?? key);
}

/**
 * A native key part as a template of placeholders (`<tenantId>#<region>`): what the key
 * distinguishes, for cardinality; never built into a stored string.
 */
export function nativeTemplate(index: NativeGsiDef, mapping: NativeIndexMappingDef, part: 'pk' | 'sk', delimiter: string): TemplateDef {
  const names = nativeParts(index, mapping, part);
  return {
    kind: 'template',
    source: names.map((n) => `<${n}>`).join(delimiter),
    segments: names.map((name) => ({ kind: 'placeholder', name, source: `<${name}>` })),
  };
}

/** Index key attributes an entity writes as copies of its own attributes of other names (physical → entity attribute). */
export function renamedCopies(mapping: NativeIndexMappingDef): Record<string, string> {
  return Object.fromEntries(Object.entries(mapping.attributes).filter(([key, source]) => key !== source));
}
