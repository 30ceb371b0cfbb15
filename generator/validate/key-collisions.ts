// Decides whether two key templates can produce the same key text, segment by segment. Segment
// boundaries are exact (values escape the delimiter), so two templates can collide only with the
// same number of segments and, at every position, segments whose encodings can coincide.

import type { SegmentDef } from '../../templates/runtime/codec.js';
import { TIMESTAMP_PATTERN, decodeInteger, escapeSegment, integerForm, shardWidth, timestampForm } from '../../templates/runtime/codec.js';

/** The widths of an integer range's digit runs: non-negative values, and negative ones after the sign. */
function integerShapes(min: number, max: number): string[] {
  const form = integerForm(min, max);
  return [...(max >= 0 ? [`+${form.width}`] : []), ...(min < 0 ? [`-${form.negativeWidth}`] : [])];
}

type ValueSegment = Exclude<SegmentDef, { kind: 'literal' }>;

const affixesOf = (segment: ValueSegment) => (segment.kind === 'shard' ? { prefix: '', suffix: '' } : { prefix: segment.prefix ?? '', suffix: segment.suffix ?? '' });

/** Whether a value segment can encode to exactly `text` (the unescaped segment text), its affixes included. */
function canProduce(segment: ValueSegment, written: string): boolean {
  const { prefix, suffix } = affixesOf(segment);
  if (written.length < prefix.length + suffix.length || !written.startsWith(prefix) || !written.endsWith(suffix)) return false;
  const text = written.slice(prefix.length, written.length - suffix.length);
  switch (segment.kind) {
    case 'string':
      return text.trim() !== '';
    case 'enum':
      return segment.values.includes(text);
    case 'integer':
      if (segment.plain) return /^-?(0|[1-9]\d*)$/.test(text);
      // The negative sign depends on the table's delimiter ('-', or '!' when the delimiter is '-'): either may be meant.
      return decodeInteger(text, segment.min, segment.max, '.') !== undefined || decodeInteger(text, segment.min, segment.max, '-') !== undefined;
    case 'float':
      return /^[0-9a-f]{16}$/.test(text);
    case 'timestamp':
      return TIMESTAMP_PATTERN[timestampForm(segment)].test(text.toUpperCase());
    case 'boolean':
      return ['true', 'false'].includes(text.toLowerCase());
    case 'shard':
      return text.length === shardWidth(segment) && /^\d+$/.test(text) && Number(text) >= (segment.start ?? 0) && Number(text) < (segment.start ?? 0) + segment.count;
  }
}

/** Whether two segments can hold the same text. */
export function segmentsCanMatch(a: SegmentDef, b: SegmentDef): boolean {
  if (a.kind === 'literal' && b.kind === 'literal') return a.text === b.text;
  if (a.kind === 'literal') return canProduce(b as Exclude<SegmentDef, { kind: 'literal' }>, a.text);
  if (b.kind === 'literal') return canProduce(a, b.text);
  const [glueA, glueB] = [affixesOf(a), affixesOf(b)];
  if (glueA.prefix || glueA.suffix || glueB.prefix || glueB.suffix) {
    // glued text (`user_<id>`): two values can meet only where their affixes agree; past that, assume they can
    const agree = (p: string, q: string, at: (s: string, t: string) => boolean) => at(p, q) || at(q, p);
    return agree(glueA.prefix, glueB.prefix, (p, q) => p.startsWith(q)) && agree(glueA.suffix, glueB.suffix, (p, q) => p.endsWith(q));
  }
  if (a.kind === 'string' || b.kind === 'string') return true;
  if (a.kind === 'enum') return a.values.some((v) => canProduce(b, v));
  if (b.kind === 'enum') return b.values.some((v) => canProduce(a, v));
  if (a.kind === 'shard' || b.kind === 'shard') {
    const [shard, other] = a.kind === 'shard' ? [a, b] : [b as Extract<SegmentDef, { kind: 'shard' }>, a];
    const width = shardWidth(shard);
    if (other.kind === 'shard') return shardWidth(other) === width;
    return other.kind === 'integer' ? integerShapes(other.min, other.max).includes(`+${width}`) : other.kind === 'float' ? width === 16 : false;
  }
  if (a.kind === b.kind) {
    if (a.kind === 'integer' && b.kind === 'integer') return a.plain || b.plain || integerShapes(a.min, a.max).some((shape) => integerShapes(b.min, b.max).includes(shape));
    if (a.kind === 'timestamp' && b.kind === 'timestamp') return timestampForm(a) === timestampForm(b);
    return true;
  }
  const [x, y] = a.kind < b.kind ? [a, b] : [b, a];
  // Only integers of width 16 written in decimal digits can look like a float's hex digits.
  return x.kind === 'float' && y.kind === 'integer' && integerShapes(y.min, y.max).includes('+16');
}

/** Whether two templates can build the same key. */
export function templatesCanCollide(a: readonly SegmentDef[], b: readonly SegmentDef[]): boolean {
  return a.length === b.length && a.every((segment, i) => segmentsCanMatch(segment, b[i]!));
}

/** The leading literal segments of a template: the collection its queries are bounded to. */
export function leadingLiterals(segments: readonly SegmentDef[]): string[] {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment.kind !== 'literal') break;
    out.push(segment.text);
  }
  return out;
}

/** Whether keys of `other` can fall inside the range a query on `reader`'s sort key reads. */
export function sortKeyCanOverlap(reader: readonly SegmentDef[], other: readonly SegmentDef[]): boolean {
  if (reader.every((s) => s.kind === 'literal')) return false; // no queries, only gets
  const collection = leadingLiterals(reader);
  if (other.length <= collection.length) return false;
  return collection.every((text, i) => segmentsCanMatch({ kind: 'literal', text }, other[i]!));
}

/** Escaped text of a literal run, for messages. */
export function collectionText(literals: readonly string[], delimiter: string): string {
  return literals.map((text) => escapeSegment(text, delimiter) + delimiter).join('');
}
