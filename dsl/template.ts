// Key templates: parsing a template string into segments (at generate time) and checking its
// placeholders against the entity's attributes (at type-check time, with template literal types).

import type { TemplateDef, TemplateSegmentDef } from './ir.js';

type Placeholders<S extends string> = S extends `${string}<${infer P}>${infer Rest}` ? P | Placeholders<Rest> : never;
type PlaceholderAttribute<P extends string> = P extends `${infer A}:${string}` ? A : P;
type PlaceholderTruncation<P extends string> = P extends `${string}:${infer U}` ? U : never;
type UnknownPlaceholder<S extends string, A extends string> = Exclude<PlaceholderAttribute<Placeholders<S>>, A | 'shard'>;
type UnknownTruncation<S extends string> = Exclude<PlaceholderTruncation<Placeholders<S>>, 'minute' | 'hour' | 'day' | 'month'>;

/**
 * `S` when every `<placeholder>` of the key template `S` names one of the attributes `A` (or
 * `<shard>`) and every truncation is minute/hour/day/month; otherwise an error message type, so
 * `key: { pk: 'User.<idd>' }` fails to compile with
 * `Type '"User.<idd>"' is not assignable to type '"unknown placeholder <idd>: not an attribute of this entity"'`.
 */
export type KeyTemplate<S extends string, A extends string> = [UnknownPlaceholder<S, A>] extends [never]
  ? [UnknownTruncation<S>] extends [never]
    ? S
    : `unknown truncation :${UnknownTruncation<S> & string}: use minute, hour, day or month`
  : `unknown placeholder <${UnknownPlaceholder<S, A> & string}>: not an attribute of this entity`;

/** One placeholder in a segment, possibly with text glued before and after it (`user_<id>`). */
const PLACEHOLDER = /^([^<>]*)<([^<>:]+)(?::([^<>:]+))?>([^<>]*)$/;

/** Splits a template by the delimiter. Never throws: malformed pieces stay literal and validation reports them. */
export function parseTemplate(source: string, delimiter: string): TemplateDef {
  const parts = delimiter === '' ? [source] : source.split(delimiter);
  const segments = parts.map((part): TemplateSegmentDef => {
    const match = PLACEHOLDER.exec(part);
    if (!match) return Object.freeze({ kind: 'literal', text: part });
    const [, prefix, name, truncate, suffix] = match;
    return Object.freeze({
      kind: 'placeholder',
      name: name!,
      source: part,
      ...(truncate === undefined ? {} : { truncate }),
      ...(prefix ? { prefix } : {}),
      ...(suffix ? { suffix } : {}),
    });
  });
  return Object.freeze({ kind: 'template', source, segments: Object.freeze(segments) });
}
