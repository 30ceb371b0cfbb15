// Resolves an IR key template against its entity's attributes into the runtime codec's segment
// definitions: the one place that decides how each attribute type is encoded in a key.

import type { AttributeDef, EntityDef, IndexMappingDef, ShardDef, TemplateDef } from '../../dsl/ir.js';
import { SHARD_SEGMENT, type KeyTemplateDef, type ScalarSegmentDef, type SegmentDef, type ShardSegmentDef, type TimestampUnit } from '../../templates/runtime/codec.js';

/** Attribute kinds that may appear in a key, and how. */
export const KEYABLE_KINDS = ['string', 'enum', 'number', 'timestamp', 'boolean'] as const;

/** The templates that identify an item for a shard: its primary key, plus the index key for an index mapping's shard. */
export function identityTemplates(entity: EntityDef, mapping?: IndexMappingDef): TemplateDef[] {
  return [entity.key.pk, entity.key.sk, mapping?.pk, mapping?.sk].filter((t): t is TemplateDef => t !== undefined);
}

/**
 * The attributes a shard is calculated from: none for a random suffix, `shard.by` if given, else
 * the item's primary-key parts (its identity as the key encodes it).
 */
export function shardInputs(entity: EntityDef, shard: ShardDef): string[] {
  if (shard.random) return [];
  if (shard.by !== undefined) return [...shard.by];
  return [...new Set([...templateAttributes(entity.key.pk), ...(entity.key.sk ? templateAttributes(entity.key.sk) : [])])];
}

const FINENESS: readonly TimestampUnit[] = ['millisecond', 'second', 'minute', 'hour', 'day', 'month'];

/**
 * The segment a shard hashes for `attribute`: how the identity templates encode it, the finest
 * occurrence when it appears more than once (`<at:day>` in the pk and `<at>` in the sk: `<at>`).
 */
function identitySegment(entity: EntityDef, attribute: string, identity: readonly TemplateDef[]): ScalarSegmentDef | undefined {
  let best: ScalarSegmentDef | undefined;
  for (const template of identity) {
    for (const segment of template.segments) {
      if (segment.kind !== 'placeholder' || segment.name !== attribute) continue;
      const resolved = keySegment(entity, segment) as ScalarSegmentDef | undefined;
      if (!resolved) continue;
      if (!best || (resolved.kind === 'timestamp' && best.kind === 'timestamp' && FINENESS.indexOf(resolved.unit) < FINENESS.indexOf(best.unit))) best = resolved;
    }
  }
  return best;
}

/**
 * Attributes one value of `pk` fixes as a calculated shard sees them: those the item's identity
 * encodes no finer than `pk` does (`<at:day>` in the pk and nowhere finer: the day is all there is).
 * A suffix hashed only from these is the same for every item of a partition.
 */
export function fixedByPartition(entity: EntityDef, pk: TemplateDef, identity: readonly TemplateDef[] = identityTemplates(entity)): Set<string> {
  const fixed = new Set<string>();
  for (const segment of pk.segments) {
    if (segment.kind !== 'placeholder' || segment.name === 'shard') continue;
    const inKey = keySegment(entity, segment);
    const finest = identitySegment(entity, segment.name, [...identity, pk]);
    if (inKey && finest && (inKey.kind !== 'timestamp' || (finest.kind === 'timestamp' && finest.unit === inKey.unit))) fixed.add(segment.name);
  }
  return fixed;
}

/** The runtime shard segment: count, start, and the identity segments it hashes (none when random). */
export function shardSegment(entity: EntityDef, shard: ShardDef, identity: readonly TemplateDef[]): ShardSegmentDef | undefined {
  const by: ScalarSegmentDef[] = [];
  for (const name of shardInputs(entity, shard)) {
    const segment = identitySegment(entity, name, identity);
    if (!segment) return undefined;
    by.push(segment);
  }
  return { kind: 'shard', attr: SHARD_SEGMENT, count: shard.count, ...(shard.start ? { start: shard.start } : {}), by, ...(shard.random ? { random: true as const } : {}) };
}

/**
 * The runtime segment for one template segment, or undefined for one that cannot be encoded
 * (validation reports why). `<shard>` needs the key's shard declaration.
 */
export function keySegment(entity: EntityDef, segment: TemplateDef['segments'][number], shard?: ShardDef, identity: readonly TemplateDef[] = identityTemplates(entity)): SegmentDef | undefined {
  if (segment.kind === 'literal') return { kind: 'literal', text: segment.text };
  if (segment.name === 'shard') return shard && segment.prefix === undefined && segment.suffix === undefined ? shardSegment(entity, shard, identity) : undefined;
  const value = valueSegment(entity, segment);
  if (!value || (segment.prefix === undefined && segment.suffix === undefined)) return value;
  return { ...value, ...(segment.prefix === undefined ? {} : { prefix: segment.prefix }), ...(segment.suffix === undefined ? {} : { suffix: segment.suffix }) };
}

/**
 * How an integer attribute's key parts are written: its own `keyFormat`, else the table's
 * `keyFormat.integers`, else ddbgen's padded form. (Not an integer: padded, which floats ignore.)
 */
export function integerKeyForm(entity: EntityDef, attribute: AttributeDef): 'padded' | 'plain' {
  if (attribute.kind !== 'number' || !attribute.integer) return 'padded';
  return attribute.keyFormat ?? entity.keyFormat?.integers ?? 'padded';
}

/** The precision of each stored timestamp format that has one finer than a day. */
const FORMAT_UNIT = { 'iso-seconds': 'second', 'epoch-seconds': 'second', 'epoch-milliseconds': 'millisecond' } as const;

/** The runtime segment of a placeholder's value, without affixes. */
function valueSegment(entity: EntityDef, segment: Extract<TemplateDef['segments'][number], { kind: 'placeholder' }>): ScalarSegmentDef | undefined {
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
      if (segment.truncate !== undefined) return undefined;
      // a plain integer is its digits: no range needed to write it (a declared one is still checked)
      if (integerKeyForm(entity, attribute) === 'plain') return { kind: 'integer', attr, min: attribute.min ?? Number.MIN_SAFE_INTEGER, max: attribute.max ?? Number.MAX_SAFE_INTEGER, plain: true };
      if (attribute.min === undefined || attribute.max === undefined) return undefined;
      return attribute.integer ? { kind: 'integer', attr, min: attribute.min, max: attribute.max } : { kind: 'float', attr, min: attribute.min, max: attribute.max };
    case 'timestamp': {
      const format = attribute.format;
      // Untruncated, a placeholder holds the value as stored: at the attribute's declared unit, in its stored format.
      if (segment.truncate === undefined && format !== undefined && format !== 'iso') {
        if (format === 'date') return { kind: 'timestamp', attr, unit: 'day' };
        const natural = FORMAT_UNIT[format];
        const unit = attribute.unit === undefined || FINENESS.indexOf(attribute.unit) < FINENESS.indexOf(natural) ? natural : attribute.unit;
        return { kind: 'timestamp', attr, unit, format };
      }
      const unit = segment.truncate ?? attribute.unit ?? 'millisecond';
      if (!FINENESS.includes(unit as TimestampUnit)) return undefined;
      return segment.truncate === undefined ? { kind: 'timestamp', attr, unit: unit as TimestampUnit } : { kind: 'timestamp', attr, unit: unit as TimestampUnit, bucket: true };
    }
    default:
      return undefined;
  }
}

/**
 * The attributes `templates` give back exactly when a stored key is parsed (a keys-only or INCLUDE
 * projection holds them): not a time bucket (`<at:hour>`), and no string or enum of a folded key
 * (`keyFormat: { casing }`). The runtime's `KeyTemplate.parseExact` applies the same rule.
 */
export function exactKeyParts(entity: EntityDef, templates: ReadonlyArray<TemplateDef | undefined>): Set<string> {
  const exact = new Set<string>();
  const folded = entity.keyFormat !== undefined && entity.keyFormat.casing !== 'preserve';
  for (const template of templates) {
    for (const segment of template?.segments ?? []) {
      if (segment.kind !== 'placeholder' || segment.name === 'shard') continue;
      const resolved = keySegment(entity, segment);
      if (resolved === undefined || resolved.kind === 'shard' || resolved.kind === 'literal') continue;
      if (resolved.kind === 'timestamp' && resolved.bucket) continue;
      if (folded && (resolved.kind === 'string' || resolved.kind === 'enum')) continue;
      exact.add(segment.name);
    }
  }
  return exact;
}

/** All segments of a template, or undefined if any cannot be encoded. */
export function keySegments(entity: EntityDef, template: TemplateDef, shard?: ShardDef, identity?: readonly TemplateDef[]): SegmentDef[] | undefined {
  const out: SegmentDef[] = [];
  for (const segment of template.segments) {
    const resolved = keySegment(entity, segment, shard, identity);
    if (!resolved) return undefined;
    out.push(resolved);
  }
  return out;
}

/** The attributes a template reads, in order (without `<shard>`). */
export function templateAttributes(template: TemplateDef): string[] {
  return template.segments.flatMap((s) => (s.kind === 'placeholder' && s.name !== 'shard' ? [s.name] : []));
}

/** The KeyTemplateDef fields of an entity's stored key format: unescaped values, folded case (none for ddbgen's codec). */
export function storedKeyFormat(entity: EntityDef): Pick<KeyTemplateDef, 'escape' | 'casing'> {
  const format = entity.keyFormat;
  if (format === undefined) return {};
  return { ...(format.escape ? {} : { escape: false as const }), ...(format.casing === 'preserve' ? {} : { casing: format.casing }) };
}