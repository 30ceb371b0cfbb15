// The load model: DynamoDB's limits and the formulas the lint, `ddbgen plan` and the report share
// (research/reliability.md §3.2). A key space is one set of partitions with its own limits: an
// entity's items in the table or in one GSI, or one side of an edge. For each: the distinct
// partition-key values, the shard suffix and how far it spreads one key, the declared traffic in
// units (consistent reads and transactions cost twice) and the load on the hottest key and shard.

import type { EdgeDef, EntityDef, GsiDef, ShardDef, TableDef, TemplateDef, Throughput, TrafficDef } from '../../dsl/ir.js';
import type { DiagnosticSeverity } from '../diagnostics/diagnostic.js';
import { fixedByPartition, shardInputs } from './key-segments.js';
import { nativeTemplate } from './native-keys.js';

/** DynamoDB's per-partition (and per-item) ceilings, in units per second. */
export const PARTITION_WRITE_UNITS = 1000;
export const PARTITION_READ_UNITS = 3000;
/** The most shards a key may have (validation's limit). */
export const MAX_SHARDS = 1000;
/** Share of a partition a design may plan for; shard counts keep each shard within it. */
export const HEADROOM = 0.8;
/** Fewer distinct partition-key values than this is a low-cardinality key. */
export const LOW_CARDINALITY = 100;
export const ASSUMED_ITEM_BYTES = 1024;
export const ITEM_MAX_BYTES = 400 * 1024;
export const ITEM_WARN_BYTES = 100 * 1024;
/** What a new on-demand table, and each of its GSIs, serves at once. */
export const ON_DEMAND_WARM: Throughput = { read: 12000, write: 4000 };
/** Default per-table quota for reads and for writes, table and GSIs together. */
export const TABLE_QUOTA_UNITS = 40000;
/** On-demand throughput may double every this many minutes. */
export const RAMP_STEP_MINUTES = 30;

/** Write units for one write of an item: 1 per KB, twice in a transaction. */
export function writeUnitsPerItem(bytes: number, transactional: boolean): number {
  return Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);
}

/** Read units for one read of an item: 1 per 4 KB strongly consistent, half that eventually consistent. */
export function readUnitsPerItem(bytes: number, consistent: boolean): number {
  return Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);
}

/** The total shard count that keeps one key's whole load within HEADROOM of a partition, never below 2. */
export function shardCount(load: number, limit: number): number {
  return Math.max(2, Math.ceil(load / (limit * HEADROOM)));
}

/** Doublings of RAMP_STEP_MINUTES from a warm throughput to a peak (0 when the peak is within it). */
export function rampDoublings(peak: number, warm: number): number {
  return peak > warm ? Math.ceil(Math.log2(peak / warm)) : 0;
}

export interface Cardinality {
  /** Distinct values of the logical partition key (without its shard suffix); Infinity when unbounded. */
  readonly value: number;
  /** No placeholder at all: one key. */
  readonly constant: boolean;
  /** `<attr:unit>` segments: all writes of a period share them. */
  readonly timeBuckets: readonly string[];
  /** How the number was reached, for messages: "2 values of game". */
  readonly explain: string;
}

/** A `<shard>` suffix, and how many shards one logical key's load actually lands on. */
export interface ShardSpread {
  readonly def: ShardDef;
  readonly count: number;
  /** random: per write; calculated: hashed from attributes that vary within the key; fixed: hashed from attributes the key already fixes. */
  readonly kind: 'random' | 'calculated' | 'fixed';
  /** Shards one logical key's writes spread over. */
  readonly spread: number;
  /** A reader can target one shard (GetItem by key): the suffix is calculated. */
  readonly targetable: boolean;
  readonly explain: string;
}

export interface HotShare {
  readonly value: number;
  /** `0.2`, or `1/3` for a uniform share. */
  readonly text: string;
  readonly source: string;
}

interface KeySpaceBase {
  /** Entity or edge name, for entity-level severity overrides. */
  readonly owner: string;
  /** `table`, or the GSI's name. */
  readonly index: string;
  /** Human label: `Vote (table)`, `Vote in GSI byVoter`, `edge Fan, FANNED_BY side`. */
  readonly label: string;
  /** Schema path of the key declaration (the partition-key template for entities). */
  readonly path: readonly string[];
  readonly partitions: Cardinality;
  readonly shard?: ShardSpread;
  readonly itemBytes: number;
  /** Declared writes and reads per second on this key space. */
  readonly writes?: number;
  readonly reads?: number;
  /** Declared queries per second (patterns): with a sharded key, these gather every shard. */
  readonly queries?: number;
  /** Declared write and read units per second (transactions and consistent reads counted twice). */
  readonly writeLoad?: number;
  readonly readLoad?: number;
  /** Some declared reads of this key space are strongly consistent (a cache such as DAX cannot serve those). */
  readonly consistentReads?: boolean;
  /** How the units were counted, for messages: "2 WCU per 2 KB write". */
  readonly unitsExplain: { readonly write: string; readonly read: string };
  /** Share of the traffic on the hottest partition-key value, as written in messages, with its source. */
  readonly hotShare?: HotShare;
}

export interface EntitySpace extends KeySpaceBase {
  readonly kind: 'entity';
  readonly entity: EntityDef;
  readonly pk: TemplateDef;
  readonly sk?: TemplateDef;
  /** A GSI mapping that reads optional attributes: only items that have them are written to it. */
  readonly sparse: boolean;
  /** Schema path of the key object a shard is declared on (`key` or `indexes.<name>`). */
  readonly keyPath: readonly string[];
  /** A native multi-attribute GSI: `pk` / `sk` stand for its key attributes (no key string, no shard possible). */
  readonly native?: boolean;
}

export interface EdgeSpace extends KeySpaceBase {
  readonly kind: 'edge';
  readonly edge: EdgeDef;
  readonly side: 'forward' | 'inverse';
}

export type KeySpace = EntitySpace | EdgeSpace;

const valuesOf = (count: number, name: string) => `${count} value${count === 1 ? '' : 's'} of ${name}`;

function valueCardinality(entity: EntityDef, name: string, truncate: string | undefined): { value: number; explain: string; bucket?: string } {
  const attribute = entity.attributes[name];
  if (!attribute) return { value: Infinity, explain: `unknown ${name}` };
  if (attribute.kind === 'timestamp' && truncate !== undefined) return { value: 1, explain: `1 active ${truncate} of ${name}`, bucket: `${name}:${truncate}` };
  switch (attribute.kind) {
    case 'enum':
      return { value: attribute.values.length, explain: valuesOf(attribute.values.length, name) };
    case 'boolean':
      return { value: 2, explain: `2 values of ${name}` };
    case 'string':
      return attribute.cardinality === undefined ? { value: Infinity, explain: `${name} (unbounded)` } : { value: attribute.cardinality, explain: valuesOf(attribute.cardinality, name) };
    case 'number':
      return attribute.integer && attribute.min !== undefined && attribute.max !== undefined
        ? { value: attribute.max - attribute.min + 1, explain: valuesOf(attribute.max - attribute.min + 1, name) }
        : { value: Infinity, explain: `${name} (unbounded)` };
    default:
      return { value: Infinity, explain: `${name} (unbounded)` };
  }
}

/** Distinct values of a partition-key template, without its shard suffix. */
export function cardinality(entity: EntityDef, pk: TemplateDef): Cardinality {
  let value = 1;
  const explain: string[] = [];
  const timeBuckets: string[] = [];
  let placeholders = 0;
  for (const segment of pk.segments) {
    if (segment.kind !== 'placeholder') continue;
    placeholders++;
    if (segment.name === 'shard') continue;
    const part = valueCardinality(entity, segment.name, segment.truncate);
    value *= part.value;
    explain.push(part.explain);
    if (part.bucket) timeBuckets.push(part.bucket);
  }
  return { value, constant: placeholders === 0, timeBuckets, explain: explain.join(' × ') || 'a constant' };
}

/** Attributes a key fixes exactly (a truncated timestamp still varies within its bucket). */
function fixedBy(pk: TemplateDef): Set<string> {
  return new Set(pk.segments.flatMap((s) => (s.kind === 'placeholder' && s.name !== 'shard' && s.truncate === undefined ? [s.name] : [])));
}

/** Whether the item's identity (its primary-key parts) varies under one value of `pk`: then a suffix calculated from it spreads the key. */
export function identityVaries(entity: EntityDef, pk: TemplateDef): boolean {
  const fixed = fixedByPartition(entity, pk);
  return shardInputs(entity, { kind: 'shard', count: 2 }).some((a) => !fixed.has(a));
}

/** How far a shard suffix spreads one logical key of `pk`. */
export function shardSpread(entity: EntityDef, pk: TemplateDef, shard: ShardDef): ShardSpread {
  const count = shard.count;
  if (shard.random) return { def: shard, count, kind: 'random', spread: count, targetable: false, explain: `${count} random shards` };
  const inputs = shardInputs(entity, shard);
  const fixed = fixedByPartition(entity, pk);
  const varying = inputs.filter((a) => !fixed.has(a));
  if (!varying.length) {
    return { def: shard, count, kind: 'fixed', spread: 1, targetable: true, explain: `${count} shards calculated from ${inputs.join(', ')}, which the key fixes, so each key's items share one shard` };
  }
  const distinct = varying.reduce((n, a) => n * valueCardinality(entity, a, undefined).value, 1);
  const spread = Math.min(count, distinct);
  const limited = spread < count ? ` (only ${spread} distinct values)` : '';
  return { def: shard, count, kind: 'calculated', spread, targetable: true, explain: `${count} shards calculated from ${varying.join(', ')}${limited}` };
}

function sumDefined(values: readonly (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length ? defined.reduce((a, b) => a + b, 0) : undefined;
}

/** The hotKeyShare declared for one key space: a number is the entity's table key (or an edge's both sides); a record names each. */
function declaredShare(traffic: TrafficDef | undefined, space: string, numberApplies: boolean): HotShare | undefined {
  const share = traffic?.hotKeyShare;
  if (typeof share === 'number') return numberApplies ? { value: share, text: String(share), source: 'declared hotKeyShare' } : undefined;
  const value = share?.[space];
  return value === undefined ? undefined : { value, text: String(value), source: `declared hotKeyShare.${space}` };
}

export const bytesText = (bytes: number) => (bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${units(bytes)} B`);

/** Every key space of a table, in declaration order: per entity the table then each GSI, then each edge's sides. */
export function keySpaces(table: TableDef): KeySpace[] {
  const spaces: KeySpace[] = [];
  const patterns = Object.values(table.patterns);
  for (const entity of Object.values(table.entities)) {
    const traffic = entity.traffic;
    const itemBytes = traffic?.itemBytes ?? ASSUMED_ITEM_BYTES;
    const own = patterns.filter((p) => p.entity === entity.name);
    // Every write of an item lands in the table and in each GSI it maps into.
    const writeRates = [
      { rate: traffic?.writesPerSecond, transactional: traffic?.transactional ?? false },
      ...own.map((p) => ({ rate: p.writesPerSecond, transactional: p.transactional ?? traffic?.transactional ?? false })),
    ];
    const writes = sumDefined(writeRates.map((w) => w.rate));
    const writeLoad = (bytes: number, gsi: boolean) => sumDefined(writeRates.map((w) => (w.rate === undefined ? undefined : w.rate * writeUnitsPerItem(bytes, w.transactional && !gsi))));
    const declaredWrites = writeRates.filter((w) => w.rate !== undefined);
    const anyTransactional = declaredWrites.some((w) => w.transactional);
    const allTransactional = declaredWrites.length > 0 && declaredWrites.every((w) => w.transactional);
    const tablePartitions = cardinality(entity, entity.key.pk);
    const tableShare = declaredShare(traffic, 'table', true) ?? uniform(tablePartitions);
    // Reads on the table's partitions: the entity's own (by key), its table patterns and its LSI patterns.
    const tableReaders = [
      { rate: traffic?.readsPerSecond, consistent: traffic?.consistent ?? false },
      ...own.filter((p) => p.index === undefined || table.indexes[p.index]?.kind === 'lsi').map((p) => ({ rate: p.readsPerSecond, consistent: p.consistent ?? traffic?.consistent ?? false })),
    ];
    const tableReads = sumDefined(tableReaders.map((r) => r.rate));
    const tableQueries = sumDefined(tableReaders.slice(1).map((r) => r.rate));
    const tableReadLoad = sumDefined(tableReaders.map((r) => (r.rate === undefined ? undefined : r.rate * readUnitsPerItem(itemBytes, r.consistent))));
    const consistent = tableReaders.some((r) => r.consistent && r.rate !== undefined);
    const tableWriteLoad = writeLoad(itemBytes, false);
    spaces.push({
      kind: 'entity',
      owner: entity.name,
      entity,
      index: 'table',
      label: `${entity.name} (table)`,
      pk: entity.key.pk,
      ...(entity.key.sk ? { sk: entity.key.sk } : {}),
      ...(entity.key.shard ? { shard: shardSpread(entity, entity.key.pk, entity.key.shard) } : {}),
      path: ['entities', entity.name, 'key', 'pk'],
      keyPath: ['entities', entity.name, 'key'],
      partitions: tablePartitions,
      itemBytes,
      ...(writes !== undefined ? { writes } : {}),
      ...(tableWriteLoad !== undefined ? { writeLoad: tableWriteLoad } : {}),
      ...(tableReads !== undefined ? { reads: tableReads } : {}),
      ...(tableQueries !== undefined ? { queries: tableQueries } : {}),
      ...(tableReadLoad !== undefined ? { readLoad: tableReadLoad } : {}),
      ...(consistent ? { consistentReads: true } : {}),
      unitsExplain: {
        write: allTransactional
          ? `${writeUnitsPerItem(itemBytes, true)} WCU per ${bytesText(itemBytes)} transactional write`
          : `${writeUnitsPerItem(itemBytes, false)} WCU per ${bytesText(itemBytes)} write${anyTransactional ? ' (twice in transactions)' : ''}`,
        read: `${readUnitsPerItem(itemBytes, consistent)} RCU per ${bytesText(itemBytes)} ${consistent ? 'strongly consistent' : 'eventually consistent'} read`,
      },
      ...(tableShare ? { hotShare: tableShare } : {}),
      sparse: false,
    });
    const tableAttributes = fixedBy(entity.key.pk);
    // a native GSI's key attributes count as placeholders of a template: the same cardinality and load
    const nativeMappings = Object.values(entity.nativeIndexes ?? {}).flatMap((native) => {
      const index = table.indexes[native.index];
      return index?.kind === 'native-gsi' && index.pk.length ? [{ index: native.index, pk: nativeTemplate(index, native, 'pk', table.delimiter), ...(index.sk.length ? { sk: nativeTemplate(index, native, 'sk', table.delimiter) } : {}), native: true }] : [];
    });
    for (const mapping of [...Object.values(entity.indexes), ...nativeMappings]) {
      const index = table.indexes[mapping.index];
      if (!index || index.kind === 'lsi' || !mapping.pk) continue;
      const partitions = cardinality(entity, mapping.pk);
      const projectedBytes = index.projection === 'all' ? itemBytes : Math.min(itemBytes, 1024);
      // A GSI key that contains every attribute of the table key is at most as hot as the table key.
      const gsiAttributes = fixedBy(mapping.pk);
      const inherited =
        typeof traffic?.hotKeyShare === 'number' && tableAttributes.size > 0 && [...tableAttributes].every((a) => gsiAttributes.has(a))
          ? { value: traffic.hotKeyShare, text: String(traffic.hotKeyShare), source: `declared hotKeyShare of the table key, whose attributes this key contains` }
          : undefined;
      const share = declaredShare(traffic, index.name, false) ?? inherited ?? uniform(partitions);
      const readers = own.filter((p) => p.index === index.name);
      const reads = sumDefined(readers.map((p) => p.readsPerSecond));
      const gsiWriteLoad = writeLoad(projectedBytes, true);
      spaces.push({
        kind: 'entity',
        owner: entity.name,
        entity,
        index: index.name,
        label: `${entity.name} in GSI ${index.name}`,
        pk: mapping.pk,
        ...(mapping.sk ? { sk: mapping.sk } : {}),
        ...('shard' in mapping && mapping.shard ? { shard: shardSpread(entity, mapping.pk, mapping.shard) } : {}),
        ...('native' in mapping ? { native: true } : {}),
        path: ['entities', entity.name, 'indexes', mapping.index, ...('native' in mapping ? [] : ['pk'])],
        keyPath: ['entities', entity.name, 'indexes', mapping.index],
        partitions,
        itemBytes: projectedBytes,
          ...(writes !== undefined ? { writes } : {}),
        ...(gsiWriteLoad !== undefined ? { writeLoad: gsiWriteLoad } : {}),
        ...(reads !== undefined ? { reads, queries: reads, readLoad: reads * readUnitsPerItem(projectedBytes, false) } : {}),
        unitsExplain: {
          write: `${writeUnitsPerItem(projectedBytes, false)} WCU per ${bytesText(projectedBytes)} projected write`,
          read: `${readUnitsPerItem(projectedBytes, false)} RCU per ${bytesText(projectedBytes)} eventually consistent read`,
        },
        ...(share ? { hotShare: share } : {}),
        sparse: [mapping.pk, mapping.sk].some((t) => t?.segments.some((seg) => seg.kind === 'placeholder' && entity.attributes[seg.name]?.optional)),
      });
    }
  }
  for (const edge of Object.values(table.edges)) spaces.push(...edgeSpaces(table, edge));
  return spaces;
}

/** An edge stores one item under each side's key: the source's (forward) and the target's (inverse). */
function edgeSpaces(table: TableDef, edge: EdgeDef): EdgeSpace[] {
  const traffic = edge.traffic;
  const itemBytes = traffic?.itemBytes ?? ASSUMED_ITEM_BYTES;
  const sides: Array<{ side: 'forward' | 'inverse'; label: string; index: string; gsi?: GsiDef }> = [{ side: 'forward', label: edge.forward, index: 'table' }];
  const inverseIndex = edge.inverseIndex === undefined ? undefined : table.indexes[edge.inverseIndex];
  if (inverseIndex?.kind === 'gsi') sides.push({ side: 'inverse', label: edge.inverse ?? edge.forward, index: inverseIndex.name, gsi: inverseIndex });
  else if (edge.inverse !== undefined && edge.inverse !== edge.forward) sides.push({ side: 'inverse', label: edge.inverse, index: 'table' });
  // Both items go in one transaction, unless the inverse is a GSI (one plain put).
  const transactional = sides.length === 2 && sides[1]!.index === 'table' ? true : (traffic?.transactional ?? false);
  const consistent = traffic?.consistent ?? false;
  return sides.map(({ side, label, index, gsi }): EdgeSpace => {
    const wu = writeUnitsPerItem(itemBytes, transactional && index === 'table');
    const ru = readUnitsPerItem(itemBytes, consistent && index === 'table');
    const share = declaredShare(traffic, side, true);
    return {
      kind: 'edge',
      owner: edge.name,
      edge,
      side,
      index,
      label: `edge ${edge.name}, ${label} side${gsi ? ` in GSI ${gsi.name}` : ''}`,
      path: ['edges', edge.name],
      partitions: { value: Infinity, constant: false, timeBuckets: [], explain: `ids of ${edge.types.join(', ')}` },
      itemBytes,
      ...(traffic?.writesPerSecond !== undefined ? { writes: traffic.writesPerSecond, writeLoad: traffic.writesPerSecond * wu } : {}),
      ...(traffic?.readsPerSecond !== undefined ? { reads: traffic.readsPerSecond, readLoad: traffic.readsPerSecond * ru } : {}),
      ...(consistent && index === 'table' && traffic?.readsPerSecond !== undefined ? { consistentReads: true } : {}),
      unitsExplain: {
        write: `${wu} WCU per ${bytesText(itemBytes)} write${transactional && index === 'table' ? ' in a transaction' : ''}`,
        read: `${ru} RCU per ${bytesText(itemBytes)} ${consistent && index === 'table' ? 'strongly' : 'eventually'} consistent read`,
      },
      ...(share ? { hotShare: share } : {}),
    };
  });
}

function uniform(partitions: Cardinality): HotShare | undefined {
  return Number.isFinite(partitions.value) ? { value: 1 / partitions.value, text: partitions.value === 1 ? '1' : `1/${units(partitions.value)}`, source: `assumed uniform over ${partitions.explain}` } : undefined;
}

export interface KeyLoad {
  /** Units per second on the hottest logical key (all its shards together). */
  readonly write?: number;
  readonly read?: number;
}

/** The hottest logical key's whole load, when traffic and a share are known. */
export function keyLoad(space: KeySpace): KeyLoad {
  const share = space.hotShare?.value;
  if (share === undefined) return {};
  return {
    ...(space.writeLoad !== undefined ? { write: space.writeLoad * share } : {}),
    ...(space.readLoad !== undefined ? { read: space.readLoad * share } : {}),
  };
}

/**
 * The hottest shard's load. Writes divide over the shards one key spreads to; reads divide when a
 * reader targets one shard by key, and a gathered read (random suffix) still costs every shard at
 * least the minimum read unit.
 */
export function shardLoad(space: KeySpace): KeyLoad {
  const whole = keyLoad(space);
  const shard = space.shard;
  if (!shard) return whole;
  const minimumRead = space.reads !== undefined && space.hotShare ? space.reads * space.hotShare.value * 0.5 : 0;
  return {
    ...(whole.write !== undefined ? { write: whole.write / shard.spread } : {}),
    ...(whole.read !== undefined ? { read: shard.kind === 'random' ? Math.max(whole.read / shard.spread, minimumRead) : whole.read / shard.spread } : {}),
  };
}

export type LoadLevel = 'over' | 'near' | 'under' | 'unknown';

/** Where a load stands against a partition: over the limit, within the headroom of it, below, or not declared. */
export function loadLevel(load: KeyLoad): { level: LoadLevel; fraction?: number } {
  if (load.write === undefined && load.read === undefined) return { level: 'unknown' };
  const fraction = Math.max((load.write ?? 0) / PARTITION_WRITE_UNITS, (load.read ?? 0) / PARTITION_READ_UNITS);
  return { level: fraction > 1 ? 'over' : fraction > HEADROOM ? 'near' : 'under', fraction };
}

/** Severity follows declared load: error over a limit, warning near it or undeclared, info below. */
export const SEVERITY_FOR: Readonly<Record<LoadLevel, DiagnosticSeverity>> = { over: 'error', near: 'warn', unknown: 'warn', under: 'info' };

/** Minimum partitions for a load: ceil(max(reads / 3,000, writes / 1,000)), at least 1. */
export function minPartitions(writeUnits: number, readUnits: number): number {
  return Math.max(1, Math.ceil(Math.max(writeUnits / PARTITION_WRITE_UNITS, readUnits / PARTITION_READ_UNITS)));
}

/** Declared peak units per resource: the table (with its entities, LSIs and table-side edges) and each GSI. */
export function resourcePeaks(table: TableDef, spaces: readonly KeySpace[]): Array<{ resource: string; path: readonly string[]; write: number; read: number; warm: Throughput; provisioned?: Throughput }> {
  const tableCapacity = table.capacity.mode === 'provisioned' ? { read: table.capacity.read, write: table.capacity.write } : undefined;
  const resources = [
    { resource: 'table', path: ['capacity'], warm: table.capacity.warmThroughput ?? ON_DEMAND_WARM, ...(tableCapacity ? { provisioned: tableCapacity } : {}) },
    ...Object.values(table.indexes).flatMap((index) =>
      index.kind !== 'lsi'
        ? [{ resource: index.name, path: ['indexes', index.name], warm: index.warmThroughput ?? ON_DEMAND_WARM, ...(tableCapacity ? { provisioned: index.capacity ?? tableCapacity } : {}) }]
        : [],
    ),
  ];
  return resources.map((r) => {
    const mine = spaces.filter((s) => s.index === r.resource);
    return { ...r, write: mine.reduce((sum, s) => sum + (s.writeLoad ?? 0), 0), read: mine.reduce((sum, s) => sum + (s.readLoad ?? 0), 0) };
  });
}

/** `10000` → `10,000`; fractions to one decimal, small ones to two significant digits. */
export function units(value: number): string {
  if (value !== 0 && Math.abs(value) < 0.1) return String(Number(value.toPrecision(2)));
  return (Number.isInteger(value) ? value : Math.round(value * 10) / 10).toLocaleString('en-US');
}

/** A fraction as a percentage: 1.2 → "120%", 0.0001 → "0.01%". */
export function percent(fraction: number): string {
  const p = fraction * 100;
  return `${p >= 10 ? Math.round(p) : Number(p.toPrecision(2))}%`;
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
