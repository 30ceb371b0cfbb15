// HK011: items above 400 KB cannot be written; above 100 KB every read and write pays dozens of units.
import type { AttributeDef, EntityDef } from '../../../dsl/ir.js';
import { units } from '../analysis.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

/** The largest an item can be from its declarations, or undefined when some attribute is unbounded. */
export function declaredMaxBytes(entity: EntityDef): number | undefined {
  const size = (name: string, def: AttributeDef): number | undefined => {
    const named = Buffer.byteLength(name);
    switch (def.kind) {
      case 'string':
        return def.maxBytes === undefined ? undefined : named + def.maxBytes;
      case 'enum':
        return named + Math.max(...def.values.map((v) => Buffer.byteLength(v)));
      case 'timestamp':
        return named + 24;
      case 'number':
        return named + 21;
      case 'boolean':
        return named + 1;
      default:
        return undefined;
    }
  };
  let total = 0;
  for (const [name, def] of Object.entries(entity.attributes)) {
    const s = size(name, def);
    if (s === undefined) return undefined;
    total += s;
  }
  return total + 2 * 1024; // the table's and indexes' key attributes, at most ~2 KB + 1 KB each in practice
}

export const itemSize: LintRule = {
  id: 'HK011',
  name: 'item-size',
  check: ({ table }) =>
    Object.values(table.entities).flatMap((entity) => {
      const declared = entity.traffic?.itemBytes;
      const bytes = declared ?? declaredMaxBytes(entity);
      if (bytes === undefined || bytes <= 100 * 1024) return [];
      const source = declared !== undefined ? 'declared itemBytes' : 'largest size the attribute declarations allow';
      const over = bytes > 400 * 1024;
      return [{
        severity: over ? 'error' : 'warn',
        entity: entity.name,
        path: declared !== undefined ? ['entities', entity.name, 'traffic', 'itemBytes'] : ['entities', entity.name, 'attributes'],
        ...lintMessages.HK011(entity.name, `${units(bytes / 1024)} KB`, over ? 'above the 400 KB DynamoDB allows per item' : `above 100 KB: each write costs ${Math.ceil(bytes / 1024)} WCU and each strong read ${Math.ceil(bytes / 4096)} RCU`, source),
      }];
    }),
};
