// Reading a key back: its parts split, unaffixed and decoded by kind (`readKey`), and checked for
// the template's shape without decoding, by one regular expression (`keyShape`) or part by part.

import { KeyParseError } from './errors.js';
import type { KeyTemplateDef, ValueSegmentDef } from './key-definition.js';
import { ESCAPE, escapeSegment, fold, regexText, splitKey } from './key-escape.js';
import { shardWidth } from './shard-hash.js';
import { KEY_CODEC_VERSION, decodeFloat, decodeInteger, decodeLegacyInteger, isLegacyInteger } from './sortable-number.js';
import { TIMESTAMP_PATTERN, decodeTimestamp, decodeTimestampAs, timestampForm, timestampSource } from './sortable-timestamp.js';

/**
 * One regular expression accepting exactly the keys `matches` accepts, for templates whose parts a
 * pattern can check (literals, strings, timestamps, enums, booleans); `undefined` for the others
 * (integers, floats and shards are checked against their ranges part by part). A part runs to the
 * next bare delimiter, so a value part is a run of plain characters and escapes, and an escaped
 * delimiter inside a timestamp is matched as the key writes it.
 */
export function keyShape(def: KeyTemplateDef): RegExp | undefined {
  const d = def.delimiter;
  const unescaped = def.escape === false;
  const escaped = (text: string) => (unescaped ? regexText(fold(text, def.casing)) : regexText(escapeSegment(fold(text, def.casing), d)));
  const value = unescaped ? `[^${regexText(d)}]+` : `(?:[^${regexText(d)}\\\\]|\\\\[${regexText(d)}\\\\0])+`;
  const parts: string[] = [];
  for (const segment of def.segments) {
    if (segment.kind === 'literal') {
      parts.push(regexText(segment.text));
      continue;
    }
    let part: string;
    switch (segment.kind) {
      case 'string':
        part = value;
        break;
      case 'timestamp':
        part = timestampSource(timestampForm(segment), escaped);
        break;
      case 'boolean':
        part = `(?:${fold('true', def.casing)}|${fold('false', def.casing)})`;
        break;
      case 'enum': {
        // an enum value's only written form is its escape, unless it holds U+0000 (written bare or as \0)
        if (segment.values.some((v) => v.includes('\u0000'))) return undefined;
        const values = segment.values.filter((v) => v !== '');
        part = values.length === 0 ? '(?!)' : `(?:${values.map(escaped).join('|')})`;
        break;
      }
      default:
        return undefined;
    }
    parts.push(regexText(segment.prefix ?? '') + part + regexText(segment.suffix ?? ''));
  }
  return new RegExp(`^${parts.join(regexText(d))}$`);
}

/** A key's values and shard suffix, decoded segment by segment; throws `KeyParseError` for a key not of this template. */
export function readKey(def: KeyTemplateDef, key: string): { values: Record<string, unknown>; shard: number | undefined } {
  const { segments, delimiter, target } = def;
  const parts = def.escape === false ? key.split(delimiter) : splitKey(key, delimiter);
  if (!parts) throw new KeyParseError(target, key, `it has an escape "\\" not followed by "\\", "0" or "${delimiter}"`);
  if (parts.length !== segments.length) {
    throw new KeyParseError(target, key, `expected ${segments.length} segments, found ${parts.length}`);
  }
  const out: Record<string, unknown> = {};
  let shard: number | undefined;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if (segment.kind === 'literal') {
      if (part !== segment.text) throw new KeyParseError(target, key, `segment ${i + 1} is "${part}", expected "${segment.text}"`);
      continue;
    }
    const value = decodeSegment(def, segment, part);
    if (value === undefined && segment.kind === 'integer' && def.codecVersion !== 1 && isLegacyInteger(part, segment.min, segment.max)) {
      throw new KeyParseError(
        target,
        key,
        `segment ${i + 1} ("${part}") is an integer written by key codec v1 (the offset from min ${segment.min}); this code reads codec v${KEY_CODEC_VERSION}, which stores "${segment.attr}" as the value itself: rewrite the item with its v${KEY_CODEC_VERSION} key`,
        { codecVersion: 1 },
      );
    }
    if (value === undefined) throw new KeyParseError(target, key, `segment ${i + 1} ("${part}") is not a valid ${segment.kind} for "${segment.attr}"`);
    if (segment.kind === 'shard') shard = value as number;
    else out[segment.attr] = value;
  }
  return { values: out, shard };
}

/** `keyMatches`, part by part: what `keyShape`'s pattern stands for (public for its tests). */
export function keyMatchesBySegments(def: KeyTemplateDef, key: string): boolean {
  const { segments, delimiter } = def;
  const plain = def.escape === false || !key.includes(ESCAPE);
  let at = 0;
  for (let i = 0; i < segments.length; i++) {
    if (i > 0) {
      if (!key.startsWith(delimiter, at)) return false;
      at += delimiter.length;
    }
    const segment = segments[i]!;
    if (segment.kind === 'literal') {
      if (!key.startsWith(segment.text, at)) return false;
      at += segment.text.length;
      continue;
    }
    // the part runs to the next delimiter that is not escaped
    let end = plain ? key.indexOf(delimiter, at) : at;
    if (end === -1) end = key.length;
    let escaped = false;
    while (!plain && end < key.length && !key.startsWith(delimiter, end)) {
      if (key[end] !== ESCAPE) end++;
      else {
        const next = key[end + 1];
        if (next !== ESCAPE && next !== delimiter && next !== '0') return false;
        escaped = true;
        end += 2;
      }
    }
    if (end === at) return false;
    if (segment.kind !== 'string' || segment.prefix !== undefined || segment.suffix !== undefined) {
      const raw = key.slice(at, end);
      const part = escaped ? splitKey(raw, delimiter)![0]! : raw;
      if (!wellFormedPart(def, segment, part)) return false;
    }
    at = end;
  }
  return at === key.length;
}

/** A segment's text without its affixes, or undefined when it does not have them. */
function unaffixed(segment: ValueSegmentDef, written: string): string | undefined {
  if (segment.kind === 'shard' || (segment.prefix === undefined && segment.suffix === undefined)) return written;
  const prefix = segment.prefix ?? '';
  const suffix = segment.suffix ?? '';
  if (written.length < prefix.length + suffix.length || !written.startsWith(prefix) || !written.endsWith(suffix)) return undefined;
  return written.slice(prefix.length, written.length - suffix.length);
}

/** What `keyShape` checks of a part: a timestamp's text has its form (not that it names a valid instant), any other part decodes. */
function wellFormedPart(def: KeyTemplateDef, segment: ValueSegmentDef, written: string): boolean {
  if (segment.kind !== 'timestamp') return decodeSegment(def, segment, written) !== undefined;
  const part = unaffixed(segment, written);
  const casing = def.casing;
  return part !== undefined && (casing === undefined || part === fold(part, casing)) && TIMESTAMP_PATTERN[timestampForm(segment)].test(casing === undefined ? part : part.toUpperCase());
}

/** A segment's value from its (unescaped) text in the key, or undefined when the text is not one; affixes are stripped first. */
function decodeSegment(def: KeyTemplateDef, segment: ValueSegmentDef, written: string): unknown {
  const part = unaffixed(segment, written);
  const casing = def.casing;
  // a folded key holds folded enum, boolean and timestamp text only (`ACTIVE` is no value of a lower-cased key); a string part is any text
  if (part === undefined || (casing !== undefined && (segment.kind === 'enum' || segment.kind === 'boolean' || segment.kind === 'timestamp') && part !== fold(part, casing))) return undefined;
  switch (segment.kind) {
    case 'string':
      return part === '' ? undefined : part;
    case 'enum':
      return casing === undefined ? (segment.values.includes(part) ? part : undefined) : segment.values.find((v) => fold(v, casing) === part);
    case 'integer':
      if (segment.plain) {
        if (!/^-?(0|[1-9]\d*)$/.test(part) || part === '-0') return undefined;
        const value = Number(part);
        return Number.isSafeInteger(value) && value >= segment.min && value <= segment.max ? value : undefined;
      }
      return def.codecVersion === 1 ? decodeLegacyInteger(part, segment.min, segment.max) : decodeInteger(part, segment.min, segment.max, def.delimiter);
    case 'float': {
      const value = decodeFloat(part);
      return value !== undefined && value >= segment.min && value <= segment.max ? value : undefined;
    }
    case 'timestamp': {
      const text = casing === undefined ? part : part.toUpperCase();
      return segment.format === undefined ? decodeTimestamp(text, segment.unit) : decodeTimestampAs(text, segment.unit, segment.format);
    }
    case 'boolean': {
      const text = casing === undefined ? part : part.toLowerCase();
      return text === 'true' ? true : text === 'false' ? false : undefined;
    }
    case 'shard': {
      const start = segment.start ?? 0;
      return part.length === shardWidth(segment) && /^\d+$/.test(part) && Number(part) >= start && Number(part) < start + segment.count ? Number(part) : undefined;
    }
  }
}
