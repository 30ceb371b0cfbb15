// A write shard: which shard an item's key values hash to, and the width of a shard suffix.

import { utf8Bytes } from './hmac.js';
import type { ShardSegmentDef } from './key-definition.js';

/**
 * The shard of an item: FNV-1a (32-bit) over the UTF-8 bytes of its `by` values — strings as
 * they are, numbers in JavaScript's shortest form, booleans as true/false, Dates as ISO-8601 UTC —
 * joined by U+0000, modulo `count`. The same values give the same shard on every platform and
 * version (golden vectors in codec.test.ts).
 */
export function shardOf(values: readonly unknown[], count: number): number {
  let hash = 0x811c9dc5;
  const text = values.map((v) => (v instanceof Date ? v.toISOString() : String(v))).join('\u0000');
  for (const byte of utf8Bytes(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash % count;
}

/** Digits of a shard suffix: the width of its largest value. */
export function shardWidth(segment: ShardSegmentDef): number {
  return String((segment.start ?? 0) + segment.count - 1).length;
}
