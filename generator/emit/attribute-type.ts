// The TypeScript type of an attribute in generated items, and the runtime conversion it needs.

import type { AttributeDef } from '../../dsl/ir.js';
import type { AttributeCodec } from '../../templates/runtime/item.js';
import { propertyKey, quote } from './context.js';

/** `t.enum(['A', 'B'])` → `'A' | 'B'`; `t.map({ at: t.timestamp() })` → `{ at: Date }`. */
export function attributeType(def: AttributeDef): string {
  switch (def.kind) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return def.values.map(quote).join(' | ');
    case 'timestamp':
      return 'Date';
    case 'list':
      return `Array<${attributeType(def.of)}>`;
    case 'map': {
      const fields = Object.entries(def.fields).map(([name, field]) => `${propertyKey(name)}${field.optional ? '?' : ''}: ${attributeType(field)}`);
      return fields.length ? `{ ${fields.join('; ')} }` : 'Record<string, never>';
    }
    case 'stringSet':
      return 'Set<string>';
    case 'numberSet':
      return 'Set<number>';
    case 'binary':
      return 'Uint8Array';
  }
}

/**
 * How an attribute converts between item and table, or undefined when it is stored as-is. `ttl`:
 * the attribute is the table's TTL attribute (a timestamp stored as epoch seconds).
 */
export function attributeCodec(def: AttributeDef, ttl = false): AttributeCodec | undefined {
  switch (def.kind) {
    case 'timestamp':
      if (ttl) return { epochSeconds: def.unit ?? 'second' };
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
      return fields.length ? { map: Object.fromEntries(fields) } : undefined;
    }
    default:
      return undefined;
  }
}
