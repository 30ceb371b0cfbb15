// Escaping: a value's text made safe inside a key (no bare delimiter, no U+0000) and split back
// out of it, folded to a template's casing; and literal text made safe inside a regular expression.

/** The escape character. A value's `\` is written `\\`, its delimiter `\<delimiter>`. */
export const ESCAPE = '\\';

/**
 * Escapes `\`, the delimiter and U+0000 (as `\0`), so an encoded value never contains a bare
 * delimiter and no key ever contains U+0000: the character just above it bounds strict range queries.
 */
export function escapeSegment(value: string, delimiter: string): string {
  if (!value.includes(ESCAPE) && !value.includes(delimiter) && !value.includes('\u0000')) return value;
  let out = '';
  for (const ch of value) out += ch === ESCAPE || ch === delimiter ? ESCAPE + ch : ch === '\u0000' ? ESCAPE + '0' : ch;
  return out;
}

/** Splits a key on bare (unescaped) delimiters, removing escapes. Returns undefined if malformed. */
export function splitKey(key: string, delimiter: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < key.length; i++) {
    const ch = key[i]!;
    if (ch === ESCAPE) {
      const next = key[i + 1];
      if (next !== ESCAPE && next !== delimiter && next !== '0') return undefined;
      current += next === '0' ? '\u0000' : next;
      i++;
    } else if (ch === delimiter) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

/** `text` as a regular-expression source matching it literally. */
export const regexText = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|\/-]/g, '\\$&');

/** Folds text to a template's casing. */
export const fold = (text: string, casing: 'lower' | 'upper' | undefined): string => (casing === 'lower' ? text.toLowerCase() : casing === 'upper' ? text.toUpperCase() : text);
