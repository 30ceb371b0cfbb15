// The layout of generated modules (format.ts): a module handed to the layout worker with its doc
// comments and doc code (the @example calls and requests), each a mark as printed, comes back as
// the same module printed by ts-morph and laid out at once on this thread.
import path from 'node:path';
import test from 'ava';
import { defineTable, entity, gsi, t as types } from '../../dsl/index.js';
import { entityFile } from '../../generator/emit/context.js';
import { takeEntityModule } from '../../generator/emit/entity/entity-module.js';
import { generateTable, renderModule } from '../../generator/emit/generate.js';
import { docCode, docCommentMarks, LINE_WIDTH, printForLayout, startLayout } from '../../generator/emit/output/format.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Examples of every width: a key of one part, an item that breaks over lines, a comment's end in a value and a key literal. */
const table = defineTable({
  name: 'Shop',
  indexes: { byStatus: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', projection: 'all' }) },
  entities: {
    Order: entity({
      attributes: {
        orderId: types.string(),
        status: types.enum(['open*/', 'shipped']),
        customerName: types.string(),
        deliveryAddress: types.string(),
        placedAt: types.timestamp(),
        total: types.number(),
        tags: types.stringSet().optional(),
      },
      key: { pk: 'Order*/#<orderId>', sk: 'ORDER' },
      indexes: { byStatus: { pk: 'Status#<status>', sk: '<placedAt>' } },
    }),
    Note: entity({ attributes: { id: types.string() }, key: { pk: 'Note#<id>', sk: 'NOTE' } }),
  },
});

/** A module's text after its header, which generation writes and renderModule does not. */
const body = (text: string) => text.slice(text.indexOf('\n\n') + 2);

test('a module laid out by the worker with its doc code is the module laid out at once, example by example', (t) => {
  const { files } = generateTable(table, path.join(root, 'out'));
  for (const entity of Object.values(table.entities)) {
    const laidOutAtOnce = renderModule(entityFile(entity), takeEntityModule(table, entity));
    const generated = files.get(`shop/${entityFile(entity)}`)!;
    t.is(body(generated), body(laidOutAtOnce), entity.name);
    t.true(generated.includes('@example'), `${entity.name} has examples`);
    t.false(generated.includes('\u0000'), `${entity.name} keeps no mark`);
  }
  t.regex(files.get('shop/order.ts')!, /\* await db\.order\.put\(\{\n\s+\* {3}orderId: 'orderId-1',/, 'a call that breaks over lines keeps the doc comment on each line');
  t.true(files.get('shop/order.ts')!.includes("   * // { TableName: 'Shop', Key: { pk: 'Order*\\/#orderId-1', sk: 'ORDER' } }\n"), "a comment's end in a request is escaped");
});

test('doc code outside a module printed for the worker is laid out at once; printForLayout gives back what it collected and restores the outer collection', (t) => {
  const piece = { code: "{ TableName: 'Shop', Key: { pk: 'a*/b' } }", width: LINE_WIDTH - 6, wrap: ['(', ');'] as const, linePrefix: '// ' };
  t.is(docCode(piece), "// { TableName: 'Shop', Key: { pk: 'a*\\/b' } }");
  const outer = printForLayout(() => {
    const first = docCode(piece);
    const inner = printForLayout(() => `/**\n * ${docCode({ code: 'f(1)', width: 20 })}\n */`);
    t.is(inner.pieces.length, 1);
    return `${first}|${docCode(piece)}|${inner.text}`;
  });
  t.is(outer.pieces.length, 2);
  t.deepEqual(outer.pieces, [piece, piece]);
  t.notRegex(outer.text, /Shop/, 'the pieces are marks until laid out');
  t.is(docCode({ code: 'f( 1 )', width: 20 }), 'f(1);');

  t.is(docCommentMarks(['/** x */']), undefined, 'outside printForLayout, the caller prints its doc comments');
});

test('the layout worker puts each doc comment where its mark is, at that indent, then each piece of doc code in the comment', (t) => {
  const layout = startLayout();
  const printed = printForLayout(() => {
    const [first, second] = docCommentMarks([`/**\n * Sends it.\n * @example\n * ${docCode({ code: 'await f({ a: 1, b: 2, c: 3 })', width: 20 })}\n */`, '/** The answer. */'])!;
    return `/** ${first} */\nexport const x = 1;\nexport interface Y {\n  /** ${second} */\n  a: string;\n}\n`;
  });
  t.deepEqual([printed.pieces.length, printed.comments.length], [1, 2]);
  layout.add('x.ts', printed.text, printed);
  t.deepEqual(layout.finish(), ['/**\n * Sends it.\n * @example\n * await f({\n *   a: 1,\n *   b: 2,\n *   c: 3,\n * });\n */\nexport const x = 1;\nexport interface Y {\n  /** The answer. */\n  a: string;\n}\n']);
});
