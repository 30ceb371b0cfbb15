// Resolves an IR key template against its entity's attributes into the runtime codec's segment
// definitions: the one place that decides how each attribute type is encoded in a key.

import type { AttributeDef, EntityDef, ShardDef, TemplateDef } from '../../dsl/ir.js';
import { SHARD, type SegmentDef } from '../../templates/runtime/codec.js';

/** Attribute kinds that may appear in a key, and how. */
export const KEYABLE_KINDS = ['string', 'enum', 'number', 'timestamp', 'boolean'] as const;

/** The attributes a shard is calculated from: `shard.by`, else the item's primary-key parts. */
export function shardInputs(entity: EntityDef, shard: ShardDef): string[] {
  if (shard.by !== undefined) return [...shard.by];
  return [...new Set([...templateAttributes(entity.key.pk), ...(entity.key.sk ? templateAttributes(entity.key.sk) : [])])];
}

/**
 * The runtime segment for one template segment, or undefined for one that cannot be encoded
 * (validation reports why). `<shard>` needs the key's shard declaration.
 */
export function keySegment(entity: EntityDef, segment: TemplateDef['segments'][number], shard?: ShardDef): SegmentDef | undefined {
  if (segment.kind === 'literal') return { kind: 'literal', text: segment.text };
  if (segment.name === 'shard') return shard ? { kind: 'shard', attr: SHARD, count: shard.count, by: shardInputs(entity, shard) } : undefined;
  const attribute: AttributeDef | undefined = entity.attributes[segment.name];
  if (!attribute) return undefined;
  const attr = segment.name;
  switch (attribute.kind) {
    case 'string':
      return segment.truncate === undefined ? { kind: 'string', attr } : undefined;
    case 'enum':
      return segment.truncate === undefined ? { kind: 'enum', attr, values: attribute.values } : undefined;
    case 'boolean':
      return segment.truncate === undefined ? { kind: 'boolean', attr } : undefined;
    case 'number':
      if (segment.truncate !== undefined || attribute.min === undefined || attribute.max === undefined) return undefined;
      return attribute.integer ? { kind: 'integer', attr, min: attribute.min, max: attribute.max } : { kind: 'float', attr, min: attribute.min, max: attribute.max };
    case 'timestamp': {
      const unit = segment.truncate ?? 'millisecond';
      return ['millisecond', 'minute', 'hour', 'day', 'month'].includes(unit) ? { kind: 'timestamp', attr, unit: unit as 'millisecond' } : undefined;
    }
    default:
      return undefined;
  }
}

/** All segments of a template, or undefined if any cannot be encoded. */
export function keySegments(entity: EntityDef, template: TemplateDef, shard?: ShardDef): SegmentDef[] | undefined {
  const out: SegmentDef[] = [];
  for (const segment of template.segments) {
    const resolved = keySegment(entity, segment, shard);
    if (!resolved) return undefined;
    out.push(resolved);
  }
  return out;
}

/** The attributes a template reads, in order (without `<shard>`). */
export function templateAttributes(template: TemplateDef): string[] {
  return template.segments.flatMap((s) => (s.kind === 'placeholder' && s.name !== 'shard' ? [s.name] : []));
}
