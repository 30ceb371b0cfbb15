// docComment (output/doc-comment.ts) against ts-morph's own printing of the same doc, at the top
// level and indented as a member: any description and tags, empty lines, quotes, braces, comment
// delimiters, tabs and text outside the Basic Multilingual Plane.
import test from 'ava';
import fc from 'fast-check';
import { printStructure, StructureKind } from 'ts-morph';
import { docComment, type Doc } from '../../generator/emit/output/doc-comment.js';

const PRINT = { indentNumberOfSpaces: 2, useSingleQuote: true } as const;

/** The doc as ts-morph prints it above a type alias (top level) or an interface's property (indented). */
const byTsMorph = (doc: Doc, member: boolean) =>
  member
    ? printStructure({ kind: StructureKind.Interface, name: 'X', properties: [{ name: 'a', type: 'string', docs: [doc] }] }, PRINT)
    : printStructure({ kind: StructureKind.TypeAlias, name: 'X', type: 'string', docs: [doc] }, PRINT);

/** The same made from docComment's text. */
const byDocComment = (comment: string, member: boolean) =>
  member ? `interface X {\n${comment.split('\n').map((line) => `  ${line}`).join('\n')}\n  a: string;\n}` : `${comment}\ntype X = string;`;

const line = fc.oneof(
  fc.constantFrom('', ' ', '  indented', 'a b', "it's", '"quoted"', '{', '}', '/* c */', '// d', 'x*\\/y', 'trailing ', 'a\tb', 'tab\t', '${x}', '@see x', '`code`', 'a `b` and `c`', '`${x}`', '`${`', '` ` `', '`'),
  fc.string({ maxLength: 10 }),
  fc.string({ maxLength: 6, unit: 'binary' }),
);
const text = fc.array(line, { maxLength: 4 }).map((lines) => lines.join('\n'));
const tag = fc.record({ tagName: fc.constantFrom('example', 'param', 'throws', 'returns', 'see'), text: fc.option(fc.oneof(text, text.map((t) => `\n${t}`)), { nil: undefined }) }, { requiredKeys: ['tagName'] });
const doc: fc.Arbitrary<Doc> = fc.oneof(text, fc.record({ description: fc.option(text, { nil: undefined }), tags: fc.option(fc.array(tag, { maxLength: 3 }), { nil: undefined }) }, { requiredKeys: [] }));

test('a doc comment is printed as ts-morph prints it, or left to ts-morph where its writer reads the text as code', (t) => {
  fc.assert(
    fc.property(doc, fc.boolean(), (d, member) => {
      const comment = docComment(d);
      if (comment !== undefined) t.is(byDocComment(comment, member), byTsMorph(d, member));
    }),
    { numRuns: Number(process.env['DDBGEN_DOC_RUNS'] ?? 2000) },
  );
});

test('given/want: one line, several, an empty line, a tag after the description, text ts-morph keeps', (t) => {
  const cases: Array<[Doc, string | undefined]> = [
    ['Reads it.', '/** Reads it. */'],
    ['', '/** */'],
    ['ends with a space ', '/** ends with a space */'],
    ['two\nlines', '/**\n * two\n * lines\n */'],
    ['\nstarts on the next line', '/**\n * starts on the next line\n */'],
    ['a\n\nb', '/**\n * a\n *\n * b\n */'],
    [{ description: 'Gets one.', tags: [{ tagName: 'example', text: '\ncall();' }, { tagName: 'throws', text: 'KeyError' }] }, '/**\n * Gets one.\n * @example\n * call();\n * @throws KeyError\n */'],
    [{ tags: [{ tagName: 'see' }] }, '/** @see */'],
    ['holds: `putIf`', '/** holds: `putIf` */'],
    ['an odd `backtick', undefined],
    ['`opens\ncloses`', undefined],
    ['`${x}`', undefined],
    ['opens /* a comment', undefined],
    ['a\r\nb', undefined],
  ];
  for (const [given, want] of cases) t.is(docComment(given), want, JSON.stringify(given));
});
