// The TypeScript type of an attribute in generated items, and the runtime conversion it needs.

import type { AttributeDef } from '../../dsl/ir.js';
import type { AttributeCodec, AttributeType } from '../../templates/runtime/item.js';
import { keyword, literalType, objectType, print, typeRef, union, type TypeNode } from './ast.js';

/** `t.enum(['A', 'B'])` → `'A' | 'B'`; `t.map({ at: t.timestamp() })` → `{ at: Date }`. */
export function attributeTypeNode(def: AttributeDef): TypeNode {
  switch (def.kind) {
    case 'string':
      return keyword.string();
    case 'number':
      return keyword.number();
    case 'boolean':
      return keyword.boolean();
    case 'enum':
      return union(def.values.map(literalType));
    case 'timestamp':
      return typeRef('Date');
    case 'list':
      return typeRef('Array', attributeTypeNode(def.of));
    case 'map':
      return objectType(Object.entries(def.fields).map(([name, field]) => ({ name, type: attributeTypeNode(field), optional: field.optional })));
    case 'stringSet':
      return typeRef('Set', keyword.string());
    case 'numberSet':
      return typeRef('Set', keyword.number());
    case 'binary':
      return typeRef('Uint8Array');
  }
}

/** The attribute's type as source text. */
export function attributeType(def: AttributeDef): string {
  return print(attributeTypeNode(def));
}

/**
 * How an attribute converts between item and table, or undefined when it is stored as-is. `ttl`:
 * the attribute is the table's TTL attribute (a timestamp stored as epoch seconds).
 */
export function attributeCodec(def: AttributeDef, ttl = false): AttributeCodec | undefined {
  switch (def.kind) {
    case 'timestamp':
      if (ttl) return { epochSeconds: def.unit ?? 'second' };
      if (def.format !== undefined && def.format !== 'iso') return { format: def.format, ...(def.unit === undefined ? {} : { unit: def.unit }) };
      return def.unit === undefined ? 'timestamp' : { timestamp: def.unit };
    case 'stringSet':
    case 'numberSet':
      return 'set';
    case 'list': {
      const inner = attributeCodec(def.of);
      return inner === undefined ? undefined : { list: inner };
    }
    case 'map': {
      const fields = Object.entries(def.fields).flatMap(([name, field]) => {
        const codec = attributeCodec(field);
        return codec === undefined ? [] : [[name, codec] as const];
      });
      // a required set field is stored as nothing when empty, and read back as an empty set
      const requiredSets = Object.entries(def.fields).filter(([, field]) => !field.optional && (field.kind === 'stringSet' || field.kind === 'numberSet')).map(([name]) => name);
      return fields.length ? { map: Object.fromEntries(fields), ...(requiredSets.length ? { requiredSets } : {}) } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The runtime's description of an attribute's type (`EntityModel.types`), which writes check values
 * against: the kind and its declared bounds; `field` marks a map field, whose optionality it carries.
 */
export function runtimeAttributeType(def: AttributeDef, field = false): AttributeType {
  const optional = field && def.optional ? { optional: true as const } : {};
  switch (def.kind) {
    case 'string':
      return { kind: 'string', ...(def.maxBytes === undefined ? {} : { maxBytes: def.maxBytes }), ...optional };
    case 'number':
      return { kind: 'number', ...(def.min === undefined ? {} : { min: def.min }), ...(def.max === undefined ? {} : { max: def.max }), ...(def.integer ? { integer: true as const } : {}), ...optional };
    case 'enum':
      return { kind: 'enum', values: [...def.values], ...optional };
    case 'timestamp':
      return { kind: 'timestamp', ...(def.format === undefined || def.format === 'iso' ? {} : { format: def.format }), ...optional };
    case 'list':
      return { kind: 'list', of: runtimeAttributeType(def.of), ...(def.maxItems === undefined ? {} : { maxItems: def.maxItems }), ...optional };
    case 'map':
      return { kind: 'map', fields: Object.fromEntries(Object.entries(def.fields).map(([name, f]) => [name, runtimeAttributeType(f, true)])), ...optional };
    default:
      return { kind: def.kind, ...optional };
  }
}
