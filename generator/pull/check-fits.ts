// Holds a pulled schema to what its comments claim: "fits N of M" counts the sampled items whose
// stored keys ddbgen's codec, built from the schema as written (loaded back through the DSL), writes
// again byte for byte from the items' own attributes. An item whose key the codec writes otherwise
// is an outlier of its entity with both texts (DDB307 names the first); a template the codec writes
// for too few of its items is left out: an index mapping (DDB304), or the entity (DDB306).

import type { AttributeDef, EntityDef, TableDef, TemplateDef } from '../../dsl/ir.js';
import { KeyTemplate } from '../../templates/runtime/codec.js';
import { fromStoredTimestamp } from '../../templates/runtime/item.js';
import { pullWarnings, type PullWarning } from '../diagnostics/messages.js';
import { identityTemplates, keySegments, storedKeyFormat } from '../model/key-segments.js';
import { dominant } from './infer-attributes.js';
import type { InferredEntity, InferredSchema, InferredTemplate, Item, SampledItem, UnmatchedItem } from './inferred-schema.js';

/** What `dropEntity` (pull-command.ts) does, passed in so this module stays below the command. */
export type DropEntity = (schema: InferredSchema, entity: InferredEntity, why: string) => InferredSchema;

/** One template to hold to its stored keys: where it is, its codec, and the physical attribute holding its keys. */
interface Checked {
  readonly where: string;
  readonly source: string;
  readonly template: KeyTemplate;
  readonly attribute: string;
  /** The index the template maps (physical name), for an index template. */
  readonly index?: string;
  readonly part: 'pk' | 'sk';
}

/** An item's value as the generated code holds it: a stored timestamp as a Date, anything else as stored. */
function itemValue(def: AttributeDef, stored: unknown): unknown {
  if (def.kind !== 'timestamp' || stored === undefined) return stored;
  return def.format === undefined || def.format === 'iso' ? new Date(String(stored)) : fromStoredTimestamp(stored, def.format);
}

/** The key parts of a stored item, under their property names. */
function keyValues(entity: EntityDef, item: Item): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(entity.attributes)) {
    const stored = item[def.storedAs ?? name];
    if (stored !== undefined) values[name] = itemValue(def, stored);
  }
  return values;
}

/** The templates of an entity with the physical attributes their keys are stored in. */
function checkedTemplates(table: TableDef, entity: EntityDef): Checked[] {
  const out: Checked[] = [];
  const add = (where: string, template: TemplateDef | undefined, attribute: string | undefined, maxBytes: number, part: 'pk' | 'sk', index?: string, shard = entity.key.shard, identity = identityTemplates(entity)) => {
    if (!template || attribute === undefined) return;
    const segments = keySegments(entity, template, shard, identity);
    if (!segments) return;
    const def = { entity: entity.name, target: `${entity.name}.${where}`, delimiter: table.delimiter, maxBytes, segments, ...storedKeyFormat(entity) };
    out.push({ where, source: template.source, template: new KeyTemplate(def), attribute, part, ...(index === undefined ? {} : { index }) });
  };
  add('key.pk', entity.key.pk, table.key.pk, 2048, 'pk');
  add('key.sk', entity.key.sk, table.key.sk, 1024, 'sk');
  for (const [name, mapping] of Object.entries(entity.indexes)) {
    const index = table.indexes[name];
    if (!index || index.kind === 'native-gsi') continue;
    const physical = index.indexName ?? index.name;
    if (index.kind === 'gsi') add(`indexes.${name}.pk`, mapping.pk, index.pk, 2048, 'pk', physical, mapping.shard, identityTemplates(entity, mapping));
    add(`indexes.${name}.sk`, mapping.sk, index.sk, 1024, 'sk', physical);
  }
  return out;
}

/** What the codec writes for an item's key, or why it cannot. */
function written(template: KeyTemplate, values: Record<string, unknown>): string {
  try {
    return `"${template.build(values)}"`;
  } catch (error) {
    return `nothing (${(error as Error).message})`;
  }
}

/**
 * The schema with every template's `fits` counted by the codec; the items it does not re-encode
 * as outliers (or, where they are too many, the mapping or entity left out). `loaded` is the table
 * the schema's text loads to.
 */
export function checkFits(schema: InferredSchema, loaded: TableDef, sample: readonly SampledItem[], drop: DropEntity): InferredSchema {
  const { pk, sk } = schema.table;
  const keyOf = (item: Item) => JSON.stringify([item[pk.name], sk ? item[sk.name] : null]);
  const byKey = new Map(sample.map(({ item }) => [keyOf(item), item] as const));
  let result = schema;
  for (const inferred of schema.entities) {
    const entity = loaded.entities[inferred.name];
    if (!entity) continue;
    const items = inferred.itemKeys.map((key) => byKey.get(JSON.stringify([key[pk.name], sk ? key[sk.name] : null]))).filter((i): i is Item => i !== undefined);
    // an item inference already listed (its key or a value disagrees) is not listed again, though it counts as not fitting
    const listed = new Set(inferred.outliers.map((o) => JSON.stringify(o.key)));
    const fits = new Map<string, number>();
    const misses: Array<{ checked: Checked; item: Item; reason: string }> = [];
    const templates = checkedTemplates(loaded, entity);
    for (const checked of templates) {
      let n = 0;
      for (const item of items) {
        const stored = item[checked.attribute];
        if (typeof stored !== 'string') continue; // not in this index: judged where the mapping was inferred
        const built = written(checked.template, keyValues(entity, item));
        if (built === `"${stored}"`) n++;
        else if (!listed.has(describe(schema, item))) misses.push({ checked, item, reason: `its ${checked.attribute} is "${stored}", where the schema's ${checked.where} "${checked.source}" writes ${built}` });
      }
      fits.set(checked.where, n);
    }
    if (misses.length === 0 && templates.every((c) => sameFits(inferred, c, fits.get(c.where)!))) continue;
    // too few re-encoded: the table key's template takes the entity with it; an index's, its mapping
    const of = (c: Checked) => items.filter((i) => typeof i[c.attribute] === 'string').length;
    const failed = templates.filter((c) => misses.some((m) => m.checked === c) && fits.get(c.where)! < of(c) && !dominant(fits.get(c.where)!, of(c)));
    const example = (c: Checked) => misses.find((m) => m.checked === c)!;
    const tableKey = failed.find((c) => c.index === undefined);
    if (tableKey) {
      const m = example(tableKey);
      result = drop(result, result.entities.find((e) => e.name === inferred.name)!, `ddbgen's codec writes the stored ${tableKey.where} of only ${fits.get(tableKey.where)} of ${of(tableKey)} items as they are (${describe(schema, m.item)}: ${m.reason})`);
      continue;
    }
    const leftOut = new Set(failed.map((c) => c.index!));
    const added: PullWarning[] = [];
    for (const index of leftOut) {
      const c = failed.find((x) => x.index === index)!;
      added.push(pullWarnings.indexLeftOut(index, inferred.name, `ddbgen's codec writes its stored keys as they are for only ${fits.get(c.where)} of ${of(c)} items (${describe(schema, example(c).item)}: ${example(c).reason})`));
    }
    // the rest: each item the codec does not re-encode is an outlier, once, with every key it misses
    const kept = misses.filter((m) => !leftOut.has(m.checked.index ?? ''));
    const reasons = new Map<string, string[]>();
    for (const m of kept) reasons.set(describe(schema, m.item), [...(reasons.get(describe(schema, m.item)) ?? []), m.reason]);
    const outliers: UnmatchedItem[] = [...inferred.outliers, ...[...reasons].map(([key, why]) => ({ key: JSON.parse(key) as Record<string, unknown>, reason: why.join('; ') }))];
    if (reasons.size) {
      const [key, why] = [...reasons][0]!;
      added.push(pullWarnings.keysNotWritten(inferred.name, reasons.size, items.length, `${key}: ${why[0]}`));
    }
    const count = (where: string, template: InferredTemplate): InferredTemplate => ({ ...template, fits: fits.get(where) ?? template.fits });
    const updated: InferredEntity = {
      ...inferred,
      key: { pk: count('key.pk', inferred.key.pk), ...(inferred.key.sk ? { sk: count('key.sk', inferred.key.sk) } : {}) },
      indexes: inferred.indexes
        .filter((m) => !leftOut.has(m.index))
        .map((m) => {
          const name = Object.entries(loaded.indexes).find(([, i]) => (i.indexName ?? i.name) === m.index)?.[0];
          return { ...m, ...(m.pk ? { pk: count(`indexes.${name}.pk`, m.pk) } : {}), ...(m.sk ? { sk: count(`indexes.${name}.sk`, m.sk) } : {}) };
        }),
      warnings: [...inferred.warnings, ...added],
      outliers,
    };
    result = { ...result, entities: result.entities.map((e) => (e.name === inferred.name ? updated : e)), warnings: [...result.warnings, ...added] };
  }
  return result;
}

/** Whether an inferred template already claims the count the codec gave. */
function sameFits(inferred: InferredEntity, checked: Checked, fits: number): boolean {
  if (checked.index === undefined) return (checked.part === 'pk' ? inferred.key.pk : inferred.key.sk)?.fits === fits;
  const mapping = inferred.indexes.find((m) => m.index === checked.index);
  return (checked.part === 'pk' ? mapping?.pk : mapping?.sk)?.fits === fits;
}

/** An item by its table key, as the report lists items. */
function describe(schema: InferredSchema, item: Item): string {
  const { pk, sk } = schema.table;
  return JSON.stringify({ [pk.name]: item[pk.name], ...(sk ? { [sk.name]: item[sk.name] } : {}) });
}
