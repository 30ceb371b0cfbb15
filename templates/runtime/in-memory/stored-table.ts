// One table of the in-memory engine: its key schema and attribute types, its items (by key, and in
// the key space of the table and of each index), its stream view and Time to Live, and the changes
// of lagging global secondary indexes waiting for their time.

import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { KeySpace, valueId, type Entry, type IndexShape, type KeySchema, type KeyType } from './key-space.js';
import type { InMemoryTableSettings } from './options.js';
import { itemBytes, type AttributeMap } from './value.js';

export interface Change {
  readonly old: AttributeMap | undefined;
  readonly item: AttributeMap | undefined;
}

export class Table {
  readonly name: string;
  readonly key: KeySchema;
  readonly types = new Map<string, KeyType>();
  readonly indexes: IndexShape[] = [];
  readonly data: KeySpace;
  /** Every item by its key's id, for reads by key. */
  private readonly byId = new Map<string, AttributeMap>();
  readonly spaces = new Map<string, KeySpace>();
  streamView: string | undefined;
  ttl: string | undefined;
  readonly provisioned: boolean;
  /** GSI changes waiting for their time (gsiLagMs). */
  readonly pending: Array<{ readonly due: number; readonly index: IndexShape; readonly old: AttributeMap | undefined; readonly item: AttributeMap | undefined }> = [];

  constructor(definition: CreateTableCommandInput, settings: InMemoryTableSettings | undefined) {
    this.name = definition.TableName!;
    for (const attribute of definition.AttributeDefinitions ?? []) this.types.set(attribute.AttributeName!, attribute.AttributeType as KeyType);
    const schema = (elements: ReadonlyArray<{ AttributeName?: string | undefined; KeyType?: string | undefined }> | undefined): KeySchema => ({
      hash: (elements ?? []).filter((e) => e.KeyType === 'HASH').map((e) => e.AttributeName!),
      range: (elements ?? []).filter((e) => e.KeyType === 'RANGE').map((e) => e.AttributeName!),
    });
    this.key = schema(definition.KeySchema);
    this.data = new KeySpace(this.key);
    const projection = (p: { ProjectionType?: string | undefined; NonKeyAttributes?: string[] | undefined } | undefined) => ({
      projection: (p?.ProjectionType ?? 'ALL') as IndexShape['projection'],
      include: p?.NonKeyAttributes ?? [],
    });
    for (const index of definition.GlobalSecondaryIndexes ?? []) this.indexes.push({ name: index.IndexName!, kind: 'gsi', key: schema(index.KeySchema), ...projection(index.Projection) });
    for (const index of definition.LocalSecondaryIndexes ?? []) this.indexes.push({ name: index.IndexName!, kind: 'lsi', key: schema(index.KeySchema), ...projection(index.Projection) });
    for (const index of this.indexes) this.spaces.set(index.name, new KeySpace(index.key));
    this.streamView = definition.StreamSpecification?.StreamEnabled ? definition.StreamSpecification.StreamViewType : undefined;
    const ttl = settings?.timeToLive?.TimeToLiveSpecification;
    this.ttl = ttl?.Enabled ? ttl.AttributeName : undefined;
    this.provisioned = definition.BillingMode === 'PROVISIONED' || (definition.BillingMode === undefined && definition.ProvisionedThroughput !== undefined);
  }

  get keyNames(): string[] {
    return [...this.key.hash, ...this.key.range];
  }

  /** The table key of an item (its key attributes only). */
  keyOf(item: Readonly<AttributeMap>): AttributeMap {
    const key: AttributeMap = {};
    for (const name of this.keyNames) key[name] = item[name]!;
    return key;
  }

  private entryOf(space: KeySpace, item: AttributeMap): Entry {
    const order = [...space.key.range.map((name) => item[name]!), ...(space === this.data ? [] : this.keyNames.map((name) => item[name]!))];
    return { item, size: itemBytes(item), order, id: this.idOf(item) };
  }

  idOf(item: Readonly<AttributeMap>): string {
    let id = '';
    for (const name of this.keyNames) id += valueId(item[name]!) + '\u0000';
    return id;
  }

  get(key: Readonly<AttributeMap>): AttributeMap | undefined {
    return this.byId.get(this.idOf(key));
  }

  /** Whether an item belongs in an index (every key attribute present), and the entry it has there. */
  indexItem(index: IndexShape, item: Readonly<AttributeMap> | undefined): AttributeMap | undefined {
    if (!item) return undefined;
    const keys = [...index.key.hash, ...index.key.range];
    if (keys.some((name) => item[name] === undefined)) return undefined;
    if (index.projection === 'ALL') return item as AttributeMap;
    const out: AttributeMap = {};
    for (const name of [...this.keyNames, ...keys, ...(index.projection === 'INCLUDE' ? index.include : [])]) if (item[name] !== undefined) out[name] = item[name]!;
    return out;
  }

  /** Writes (or, with `item` undefined, deletes) an item, in the table and its indexes. */
  write(change: Change, now: number, lagMs: number): void {
    const { old, item } = change;
    const sample = (item ?? old)!;
    const partition = this.data.partitionOf(sample);
    const id = this.idOf(sample);
    if (item) {
      this.data.insert(partition, this.entryOf(this.data, item));
      this.byId.set(id, item);
    } else {
      this.data.remove(partition, this.key.range.map((name) => sample[name]!), id);
      this.byId.delete(id);
    }
    for (const index of this.indexes) {
      if (index.kind === 'gsi' && lagMs > 0) this.pending.push({ due: now + lagMs, index, old, item });
      else this.indexWrite(index, old, item);
    }
  }

  indexWrite(index: IndexShape, old: AttributeMap | undefined, item: AttributeMap | undefined): void {
    const space = this.spaces.get(index.name)!;
    const before = this.indexItem(index, old);
    const after = this.indexItem(index, item);
    if (before) {
      const entry = this.entryOf(space, before);
      space.remove(space.partitionOf(before), entry.order, entry.id);
    }
    if (after) space.insert(space.partitionOf(after), this.entryOf(space, after));
  }

  /** Applies the GSI changes whose time has come. */
  catchUp(now: number): void {
    while (this.pending.length && this.pending[0]!.due <= now) {
      const { index, old, item } = this.pending.shift()!;
      this.indexWrite(index, old, item);
    }
  }

  settle(): void {
    this.catchUp(Infinity);
  }

  /** Every item, in the order of a scan. */
  *all(): Generator<AttributeMap> {
    for (const id of this.data.scanPartitions()) for (const entry of this.data.partitions.get(id)!.entries) yield entry.item;
  }
}

// ---------------------------------------------------------------------------------------------
