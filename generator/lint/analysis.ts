// The lint's model of a design: every entity's items in every index with partitions of their own
// (the table and each GSI), the number of distinct partition-key values, and the load declared (or
// assumed, and then said so) on the hottest key. Formulas follow research/reliability.md §3.2.

import type { EntityDef, GsiDef, ShardDef, TableDef, TemplateDef } from '../../dsl/ir.js';

/** DynamoDB's per-partition (and per-item) ceilings, in units per second. */
export const PARTITION_WRITE_UNITS = 1000;
export const PARTITION_READ_UNITS = 3000;
/** Headroom kept when suggesting shard counts: plan for 80 % of a partition. */
export const HEADROOM = 0.8;
export const LOW_CARDINALITY = 100;
export const ASSUMED_ITEM_BYTES = 1024;

export interface Cardinality {
  /** Distinct partition-key values live at one time; Infinity when unbounded or undeclared. */
  readonly value: number;
  /** No placeholder at all: one key. */
  readonly constant: boolean;
  /** `<attr:unit>` segments: all writes of a period share them. */
  readonly timeBuckets: readonly string[];
  /** Shard suffix count, if the key has `<shard>`. */
  readonly shards: number | undefined;
  /** How the number was reached, for messages: "2 values of game". */
  readonly explain: string;
}

/** One entity's items in one index with its own partitions (the table, or a GSI). */
export interface KeySpace {
  readonly entity: EntityDef;
  /** `table`, or the GSI's name. */
  readonly index: string;
  readonly gsi?: GsiDef;
  readonly pk: TemplateDef;
  readonly sk?: TemplateDef;
  readonly shard?: ShardDef;
  /** Schema path of the partition-key template. */
  readonly path: readonly string[];
  readonly partitions: Cardinality;
  readonly itemBytes: number;
  readonly itemBytesDeclared: boolean;
  /** Write units per write of one item here (its projected size on a GSI). */
  readonly writeUnits: number;
  /** Read units per eventually consistent read of one item here. */
  readonly readUnits: number;
  /** Declared writes/s into this key space, if any. */
  readonly writes?: number;
  /** Declared reads/s on this key space (entity reads on the table, patterns on their index). */
  readonly reads?: number;
  /** Share of this key space's traffic on its hottest partition-key value, with its source. */
  readonly hotShare?: { readonly value: number; readonly source: string };
  /** A GSI mapping that reads optional attributes: only items that have them are written to it. */
  readonly sparse: boolean;
}

function valueCardinality(entity: EntityDef, name: string, truncate: string | undefined): { value: number; explain: string; bucket?: string } {
  const attribute = entity.attributes[name];
  if (!attribute) return { value: Infinity, explain: `unknown ${name}` };
  if (attribute.kind === 'timestamp' && truncate !== undefined) return { value: 1, explain: `1 active ${truncate} of ${name}`, bucket: `${name}:${truncate}` };
  switch (attribute.kind) {
    case 'enum':
      return { value: attribute.values.length, explain: `${attribute.values.length} values of ${name}` };
    case 'boolean':
      return { value: 2, explain: `2 values of ${name}` };
    case 'string':
      return attribute.cardinality === undefined ? { value: Infinity, explain: `${name} (unbounded)` } : { value: attribute.cardinality, explain: `${attribute.cardinality} values of ${name}` };
    case 'number':
      return attribute.integer && attribute.min !== undefined && attribute.max !== undefined
        ? { value: attribute.max - attribute.min + 1, explain: `${attribute.max - attribute.min + 1} values of ${name}` }
        : { value: Infinity, explain: `${name} (unbounded)` };
    default:
      return { value: Infinity, explain: `${name} (unbounded)` };
  }
}

export function cardinality(entity: EntityDef, pk: TemplateDef, shard: ShardDef | undefined): Cardinality {
  let value = 1;
  const explain: string[] = [];
  const timeBuckets: string[] = [];
  let placeholders = 0;
  for (const segment of pk.segments) {
    if (segment.kind !== 'placeholder') continue;
    placeholders++;
    if (segment.name === 'shard') {
      value *= shard?.count ?? 1;
      explain.push(`${shard?.count ?? 1} shards`);
      continue;
    }
    const part = valueCardinality(entity, segment.name, segment.truncate);
    value *= part.value;
    explain.push(part.explain);
    if (part.bucket) timeBuckets.push(part.bucket);
  }
  return { value, constant: placeholders === 0, timeBuckets, shards: shard?.count, explain: explain.join(' × ') || 'a constant' };
}

function sumDefined(values: readonly (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length ? defined.reduce((a, b) => a + b, 0) : undefined;
}

/** Every key space of a table, in declaration order (table first, then each GSI, per entity). */
export function keySpaces(table: TableDef): KeySpace[] {
  const spaces: KeySpace[] = [];
  const patterns = Object.values(table.patterns);
  for (const entity of Object.values(table.entities)) {
    const traffic = entity.traffic;
    const itemBytes = traffic?.itemBytes ?? ASSUMED_ITEM_BYTES;
    const writeUnitsFor = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
    const readUnitsFor = (bytes: number) => Math.max(1, Math.ceil(bytes / 4096)) / 2;
    const readsOn = (index: string | undefined) =>
      sumDefined([index === undefined ? traffic?.readsPerSecond : undefined, ...patterns.filter((p) => p.entity === entity.name && p.index === index).map((p) => p.readsPerSecond)]);
    const writesOn = (index: string | undefined) =>
      sumDefined([traffic?.writesPerSecond, ...patterns.filter((p) => p.entity === entity.name && p.index === index).map((p) => p.writesPerSecond)]);
    // A declared share is the hottest partition-key value's; a <shard> suffix splits it N ways.
    const share = (partitions: Cardinality) =>
      traffic?.hotKeyShare !== undefined
        ? partitions.shards
          ? { value: traffic.hotKeyShare / partitions.shards, source: `declared hotKeyShare ${traffic.hotKeyShare} over ${partitions.shards} shards` }
          : { value: traffic.hotKeyShare, source: `declared hotKeyShare ${traffic.hotKeyShare}` }
        : Number.isFinite(partitions.value)
          ? { value: 1 / partitions.value, source: `assumed uniform over ${partitions.explain}` }
          : undefined;
    const tablePartitions = cardinality(entity, entity.key.pk, entity.key.shard);
    const tableShare = share(tablePartitions);
    const tableReads = readsOn(undefined);
    const tableWrites = traffic?.writesPerSecond;
    spaces.push({
      entity,
      index: 'table',
      pk: entity.key.pk,
      ...(entity.key.sk ? { sk: entity.key.sk } : {}),
      ...(entity.key.shard ? { shard: entity.key.shard } : {}),
      path: ['entities', entity.name, 'key', 'pk'],
      partitions: tablePartitions,
      itemBytes,
      itemBytesDeclared: traffic?.itemBytes !== undefined,
      writeUnits: writeUnitsFor(itemBytes),
      readUnits: readUnitsFor(itemBytes),
      ...(tableWrites !== undefined ? { writes: tableWrites } : {}),
      ...(tableReads !== undefined ? { reads: tableReads } : {}),
      ...(tableShare ? { hotShare: tableShare } : {}),
      sparse: false,
    });
    for (const mapping of Object.values(entity.indexes)) {
      const index = table.indexes[mapping.index];
      if (!index || index.kind !== 'gsi' || !mapping.pk) continue;
      const partitions = cardinality(entity, mapping.pk, mapping.shard);
      const projectedBytes = index.projection === 'all' ? itemBytes : Math.min(itemBytes, 1024);
      const gsiShare = share(partitions);
      const writes = writesOn(mapping.index);
      const reads = readsOn(mapping.index);
      spaces.push({
        entity,
        index: index.name,
        gsi: index,
        pk: mapping.pk,
        ...(mapping.sk ? { sk: mapping.sk } : {}),
        ...(mapping.shard ? { shard: mapping.shard } : {}),
        path: ['entities', entity.name, 'indexes', mapping.index, 'pk'],
        partitions,
        itemBytes: projectedBytes,
        itemBytesDeclared: traffic?.itemBytes !== undefined,
        writeUnits: writeUnitsFor(projectedBytes),
        readUnits: readUnitsFor(projectedBytes),
        ...(writes !== undefined ? { writes } : {}),
        ...(reads !== undefined ? { reads } : {}),
        ...(gsiShare ? { hotShare: gsiShare } : {}),
        sparse: [mapping.pk, mapping.sk].some((t) => t?.segments.some((seg) => seg.kind === 'placeholder' && entity.attributes[seg.name]?.optional)),
      });
    }
  }
  return spaces;
}

/** Write units per second on the hottest partition key, when the inputs allow a number. */
export function hottestWriteUnits(space: KeySpace): number | undefined {
  return space.writes !== undefined && space.hotShare ? space.writes * space.hotShare.value * space.writeUnits : undefined;
}

export function hottestReadUnits(space: KeySpace): number | undefined {
  return space.reads !== undefined && space.hotShare ? space.reads * space.hotShare.value * space.readUnits : undefined;
}

/** Shards needed so the hottest key stays within `HEADROOM` of a partition: N = ceil(load / (limit × headroom)). */
export function shardsNeeded(writeUnits: number | undefined, readUnits: number | undefined): number {
  const w = writeUnits === undefined ? 1 : Math.ceil(writeUnits / (PARTITION_WRITE_UNITS * HEADROOM));
  const r = readUnits === undefined ? 1 : Math.ceil(readUnits / (PARTITION_READ_UNITS * HEADROOM));
  return Math.max(w, r, 1);
}

/** Characters into a template's source where the first segment matching `test` starts. */
export function segmentOffset(template: TemplateDef, delimiter: string, test: (segment: TemplateDef['segments'][number]) => boolean): number | undefined {
  let offset = 0;
  for (const segment of template.segments) {
    if (test(segment)) return offset;
    offset += (segment.kind === 'literal' ? segment.text : segment.source).length + delimiter.length;
  }
  return undefined;
}

/** `10000` → `10,000`; fractions to one decimal. */
export function units(value: number): string {
  return (Number.isInteger(value) ? value : Math.round(value * 10) / 10).toLocaleString('en-US');
}
