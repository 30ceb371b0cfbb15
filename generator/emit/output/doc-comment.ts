// A doc comment as ts-morph's printer writes it, made as plain text: generation hands the
// comments of a module to the layout worker as text (format.ts), so that the main thread does not
// write them character by character through ts-morph's writer, about a third of printing a module.

import type { JSDocStructure, OptionalKind } from 'ts-morph';

/** A doc as emitters give it: text, or a description and tags. */
export type Doc = string | OptionalKind<JSDocStructure>;

/**
 * The doc comment ts-morph prints for `doc`, without indent: `/** text *\/` for one line, else
 * `/**`, a ` * line` per line (` *` alone for an empty one) and ` *\/`; a description, then each tag
 * as `@name text`. Undefined where ts-morph's writer would read the text as code and print it
 * otherwise, which ts-morph is left to print: a carriage return (a line break to it), a `/*` (a
 * comment's start), a `${` or a line with an odd number of backticks (a template literal, inside
 * which it stops indenting).
 */
export function docComment(doc: Doc): string | undefined {
  const text = typeof doc === 'string' ? doc : docText(doc);
  if (text === undefined || text.includes('\r')) return undefined;
  const lines = text.split('\n');
  if (text.includes('${') || text.includes('/*') || lines.some((line) => (line.match(/`/g)?.length ?? 0) % 2 === 1)) return undefined;
  if (lines.length === 1) return `/** ${text}`.replace(/ ?$/, ' */');
  const body = (lines[0] === '' ? lines.slice(1) : lines).map((line) => (line === '' ? ' *' : ` * ${line}`));
  return `/**\n${body.join('\n')}\n */`;
}

/** The text of a structured doc: its description, then its tags on lines of their own; undefined where a part is not plain text. */
function docText(doc: OptionalKind<JSDocStructure>): string | undefined {
  const description = doc.description ?? '';
  if (typeof description !== 'string') return undefined;
  const tags: string[] = [];
  for (const tag of doc.tags ?? []) {
    const text = tag.text ?? '';
    if (typeof text !== 'string') return undefined;
    tags.push(`@${tag.tagName}${text !== '' && !text.startsWith('\n') ? ' ' : ''}${text}`);
  }
  return tags.length === 0 ? description : `${description === '' ? '' : `${description}\n`}${tags.join('\n')}`;
}
