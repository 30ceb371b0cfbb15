// The key spaces of the in-memory engine: a table's items, or one index's entries, held in
// partitions (spread by a hash, as DynamoDB spreads them over a scan) of entries in DynamoDB's
// order (sort key values by UTF-8 bytes / number / bytes, then the table key for ties).

import { compareScalars, type AttributeMap, type AttributeValue } from './value.js';

export type KeyType = 'S' | 'N' | 'B';

export interface KeySchema {
  readonly hash: readonly string[];
  readonly range: readonly string[];
}

export interface IndexShape {
  readonly name: string;
  readonly kind: 'gsi' | 'lsi';
  readonly key: KeySchema;
  readonly projection: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  readonly include: readonly string[];
}

/** One item in a key space: its attributes (as the space holds them), size and ordering key. */
export interface Entry {
  readonly item: AttributeMap;
  readonly size: number;
  /** Sort key values (the space's RANGE attributes), then the table key for ties. */
  readonly order: readonly AttributeValue[];
  readonly id: string;
}

/** A key space: the table or one index, partitions of entries in DynamoDB's order. */
export class KeySpace {
  readonly partitions = new Map<string, { readonly hash: number; readonly entries: Entry[] }>();
  private scanOrder: string[] | undefined;
  readonly key: KeySchema;
  constructor(key: KeySchema) {
    this.key = key;
  }

  partitionOf(item: Readonly<AttributeMap>): string {
    let id = '';
    for (const name of this.key.hash) id += valueId(item[name]!) + '\u0000';
    return id;
  }

  insert(partition: string, entry: Entry): void {
    let p = this.partitions.get(partition);
    if (!p) {
      p = { hash: hashOf(partition), entries: [] };
      this.partitions.set(partition, p);
      this.scanOrder = undefined;
    }
    const at = lowerBound(p.entries, entry.order);
    if (at < p.entries.length && p.entries[at]!.id === entry.id) p.entries[at] = entry;
    else p.entries.splice(at, 0, entry);
  }

  remove(partition: string, order: readonly AttributeValue[], id: string): void {
    const p = this.partitions.get(partition);
    if (!p) return;
    const at = lowerBound(p.entries, order);
    if (at < p.entries.length && p.entries[at]!.id === id) p.entries.splice(at, 1);
    if (p.entries.length === 0) {
      this.partitions.delete(partition);
      this.scanOrder = undefined;
    }
  }

  /** Partitions in scan order: by hash, as DynamoDB spreads them. */
  scanPartitions(): string[] {
    this.scanOrder ??= [...this.partitions.entries()].sort(([a, x], [b, y]) => x.hash - y.hash || (a < b ? -1 : a > b ? 1 : 0)).map(([id]) => id);
    return this.scanOrder;
  }
}

export function compareOrder(a: readonly AttributeValue[], b: readonly AttributeValue[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareScalars(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

/** The first index whose entry is not before `order`. */
export function lowerBound(entries: readonly Entry[], order: readonly AttributeValue[]): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareOrder(entries[mid]!.order, order) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function bytesId(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function valueId(value: AttributeValue): string {
  const v = value as { S?: string; N?: string; B?: Uint8Array };
  return v.S !== undefined ? `S${v.S}` : v.N !== undefined ? `N${v.N}` : `B${bytesId(v.B!)}`;
}

/** FNV-1a over the UTF-16 units: spreads partitions over the scan order and the segments of a parallel scan. */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

