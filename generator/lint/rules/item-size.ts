// HK011: items above 400 KB cannot be written; above 100 KB every read and write pays dozens of
// units. Two sizes, each for what it decides: the declared itemBytes is the average, which sets the
// cost; the largest the attribute declarations allow (strings with maxBytes, lists with maxItems; an
// attribute without a bound counted as empty, which the finding states) sets whether an item can be
// written at all, whatever the average. The fix moves the largest attribute into a child entity.
import type { AttributeDef, EntityDef } from '../../../dsl/ir.js';
import { ITEM_MAX_BYTES, ITEM_WARN_BYTES, units } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { Finding, LintRule } from '../rule.js';

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
      const largest = fromAttributes.largest;
      const list = largest !== undefined && entity.attributes[largest]?.kind === 'list';
      const fix =
        largest !== undefined
          ? `move "${largest}" into a child entity under the same partition key (one item per ${list ? 'element' : 'part'}, e.g. sk "${entity.name}${table.delimiter}${largest}${table.delimiter}<n>"), read with one query; or keep blobs in S3 and store their keys`
          : 'split large items into a child entity under the same partition key (a sort key per part), read with one query; or keep blobs in S3 and store their keys';
      const finding = (bytes: number, source: string, path: readonly string[]): Finding => {
        const over = bytes > ITEM_MAX_BYTES;
        return {
          severity: over ? 'error' : 'warn',
          entity: entity.name,
          path,
          ...lintMessages.HK011(
            entity.name,
            `${units(bytes / 1024)} KB`,
            over ? 'above the 400 KB DynamoDB allows per item' : `above 100 KB: each write costs ${Math.ceil(bytes / 1024)} WCU and each strong read ${Math.ceil(bytes / 4096)} RCU`,
            source,
            fix,
          ),
        };
      };
      const attributesPath = ['entities', entity.name, 'attributes', ...(largest ? [largest] : [])];
      // the declared average decides cost; the largest the declarations allow decides whether an item can be written at all
      if (declared === undefined) return fromAttributes.bytes > ITEM_WARN_BYTES ? [finding(fromAttributes.bytes, sizeSource(fromAttributes.unbounded), attributesPath)] : [];
      const findings: Finding[] = [];
      if (fromAttributes.bytes > ITEM_MAX_BYTES && fromAttributes.bytes > declared) {
        findings.push(finding(fromAttributes.bytes, `the ${sizeSource(fromAttributes.unbounded)}; the declared itemBytes, ${declared.toLocaleString('en-US')} B, is the average, which decides what items cost, not whether the largest can be written`, attributesPath));
      }
      if (declared > ITEM_WARN_BYTES) findings.push(finding(declared, 'declared itemBytes', ['entities', entity.name, 'traffic', 'itemBytes']));
      return findings;
    }),
};
