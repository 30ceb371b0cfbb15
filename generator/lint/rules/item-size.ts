// HK011: items above 400 KB cannot be written; above 100 KB every read and write pays dozens of
// units. The size is the declared itemBytes, or the largest the attribute declarations allow
// (strings with maxBytes, lists with maxItems; an attribute without a bound counted as empty, which
// the finding states); the fix moves the largest attribute into a child entity.
import type { AttributeDef, EntityDef } from '../../../dsl/ir.js';
import { ITEM_MAX_BYTES, ITEM_WARN_BYTES, units } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

/** The most bytes a value of this type takes, or undefined when unbounded. */
function valueBytes(def: AttributeDef): number | undefined {
  switch (def.kind) {
    case 'string':
      return def.maxBytes;
    case 'enum':
      return Math.max(...def.values.map((v) => Buffer.byteLength(v)));
    case 'timestamp':
      return 24;
    case 'number':
      return 21;
    case 'boolean':
      return 1;
    case 'list': {
      const inner = valueBytes(def.of);
      // Each element costs its value and one byte of overhead.
      return def.maxItems === undefined || inner === undefined ? undefined : 3 + def.maxItems * (inner + 1);
    }
    case 'map': {
      let total = 3;
      for (const [name, field] of Object.entries(def.fields)) {
        const bytes = valueBytes(field);
        if (bytes === undefined) return undefined;
        total += Buffer.byteLength(name) + bytes + 1;
      }
      return total;
    }
    default:
      return undefined;
  }
}

/**
 * The largest an item can be from its declarations, counting every attribute with a known bound
 * (strings with maxBytes, lists with maxItems, fixed-size types), with its largest attribute;
 * `unbounded` names the attributes that have no declared bound and are not counted, so the size is
 * then a lower bound of the largest item.
 */
export function declaredMaxBytes(entity: EntityDef): { bytes: number; largest?: string; unbounded: string[] } {
  let total = 2 * 1024; // the table's and indexes' key attributes
  let largest: { name: string; bytes: number } | undefined;
  const unbounded: string[] = [];
  for (const [name, def] of Object.entries(entity.attributes)) {
    const bytes = valueBytes(def);
    if (bytes === undefined) {
      unbounded.push(name);
      continue;
    }
    total += Buffer.byteLength(name) + bytes;
    if (!largest || bytes > largest.bytes) largest = { name, bytes };
  }
  return { bytes: total, ...(largest ? { largest: largest.name } : {}), unbounded };
}

/** How the finding names its source, and what it assumes of attributes without a bound. */
function sizeSource(unbounded: readonly string[]): string {
  if (!unbounded.length) return 'largest size the attribute declarations allow';
  const names = unbounded.map((n) => `"${n}"`).join(', ');
  return `largest size the bounded attributes allow; ${names} ${unbounded.length === 1 ? 'has' : 'have'} no declared bound and ${unbounded.length === 1 ? 'is' : 'are'} counted as empty, so items can be larger still`;
}

export const itemSize: LintRule = {
  id: 'HK011',
  name: 'item-size',
  check: ({ table }) =>
    Object.values(table.entities).flatMap((entity) => {
      const declared = entity.traffic?.itemBytes;
      const fromAttributes = declaredMaxBytes(entity);
      // a known bound is used even when some other attribute has none: their size is a lower bound then
      const bytes = declared ?? fromAttributes.bytes;
      if (bytes <= ITEM_WARN_BYTES) return [];
      const source = declared !== undefined ? 'declared itemBytes' : sizeSource(fromAttributes.unbounded);
      const over = bytes > ITEM_MAX_BYTES;
      const largest = fromAttributes.largest;
      const list = largest !== undefined && entity.attributes[largest]?.kind === 'list';
      const fix =
        largest !== undefined
          ? `move "${largest}" into a child entity under the same partition key (one item per ${list ? 'element' : 'part'}, e.g. sk "${entity.name}${table.delimiter}${largest}${table.delimiter}<n>"), read with one query; or keep blobs in S3 and store their keys`
          : 'split large items into a child entity under the same partition key (a sort key per part), read with one query; or keep blobs in S3 and store their keys';
      return [{
        severity: over ? 'error' : 'warn',
        entity: entity.name,
        path: declared !== undefined ? ['entities', entity.name, 'traffic', 'itemBytes'] : ['entities', entity.name, 'attributes', ...(largest ? [largest] : [])],
        ...lintMessages.HK011(
          entity.name,
          `${units(bytes / 1024)} KB`,
          over ? 'above the 400 KB DynamoDB allows per item' : `above 100 KB: each write costs ${Math.ceil(bytes / 1024)} WCU and each strong read ${Math.ceil(bytes / 4096)} RCU`,
          source,
          fix,
        ),
      }];
    }),
};
