// Completions and hovers inside key templates (template-answers.ts), as pure functions of the
// schema's parsed text and the tables of its last analysis: what each offers at a given place.
import path from 'node:path';
import test from 'ava';
import type { TableDef } from '../../dsl/ir.js';
import { parse } from '../../generator/editor/schema-text.js';
import { templateCompletions, templateHover } from '../../generator/editor/template-answers.js';
import { evaluateSchema } from '../../generator/load/load-schema.js';

/** The schema as the editor holds it. */
const text = `import { defineTable, entity, t } from 'ddbgen';
export default defineTable({
  name: 'Shop',
  entities: {
    Customer: entity({
      attributes: { id: t.string({ pii: true }), tier: t.enum(['GOLD', 'BASIC']) },
      key: { pk: 'CUSTOMER#<id>', sk: 'PROFILE' },
    }),
    Order: entity({
      attributes: { customerId: t.string(), total: t.number({ min: 0, max: 99999, integer: true }), note: t.string().optional() },
      key: { pk: 'CUSTOMER#<customerId>', sk: 'ORDER#<total>' },
      traffic: { writesPerSecond: 10, readsPerSecond: 50 },
    }),
  },
});
`;
// what the analysis makes of that text: the module evaluated as generate and the editor evaluate it
const { default: table } = (await evaluateSchema(path.join(import.meta.dirname, 'shop.ts'), text, false, true)) as { default: TableDef };
const tables = () => [table];
const at = (edited: string, marker: string) => edited.indexOf(marker) + marker.length;

/** The completions at the end of `marker` in `edited`: name, detail, what is inserted and the text it replaces. */
const completions = (edited: string, marker: string, known = tables) =>
  templateCompletions(parse('schema.ts', edited).source, edited, at(edited, marker), known)?.map((c) => [c.name, c.detail, c.insertText, edited.slice(c.start, c.start + c.length)]);

test('completions after `<`: the entity\'s attributes with their kinds as the analysis knows them, the shard in a partition key, `>` added unless it follows', (t) => {
  const cases: Array<[string, string, string, ReturnType<typeof completions>]> = [
    ['a sort key, typed `<to`', "sk: 'ORDER#<total>'", "sk: 'ORDER#<to'", [
      ['customerId', 'string', 'customerId>', 'to'],
      ['total', 'number 0..99999, integer', 'total>', 'to'],
      ['note', 'string (optional)', 'note>', 'to'],
    ]],
    ['a partition key, `>` already there', "pk: 'CUSTOMER#<id>'", "pk: 'CUSTOMER#<>'", [
      ['id', 'string, pii', 'id', ''],
      ['tier', 'enum GOLD | BASIC', 'tier', ''],
      ['shard', 'the shard suffix (needs shard: { count } on this key)', 'shard', ''],
    ]],
  ];
  for (const [name, from, to, want] of cases) {
    const edited = text.replace(from, to);
    t.deepEqual(completions(edited, to.slice(0, to.lastIndexOf('<') + 1) + (to.includes('<to') ? 'to' : '')), want, name);
  }
  // an attribute typed in the text but not yet analysed: offered, its kind read from the text
  const added = text.replace("note: t.string().optional() }", "note: t.string().optional(), placedAt: t.timestamp() }").replace("sk: 'ORDER#<total>'", "sk: 'ORDER#<'");
  t.deepEqual(completions(added, "sk: 'ORDER#<")?.map(([name, detail]) => [name, detail]), [['customerId', 'string'], ['total', 'number 0..99999, integer'], ['note', 'string (optional)'], ['placedAt', 'timestamp']]);
});

test('completions at the start of a segment: the literal segments other entities use; none outside a key template', (t) => {
  const typing = text.replace("pk: 'CUSTOMER#<customerId>'", "pk: 'CU'");
  t.is(completions(typing, "pk: 'CU', "), undefined, 'between two strings: outside any template');
  t.deepEqual(completions(typing, "pk: 'CU', sk: 'ORDER"), [], 'a segment no other entity begins with');
  t.deepEqual(completions(typing, "pk: 'CU"), [['CUSTOMER', 'used by Order', 'CUSTOMER', 'CU']], "Customer's own key: Order's segment");
  const order = typing.indexOf("pk: 'CU'", typing.indexOf('Order:')) + "pk: 'CU".length;
  t.deepEqual(templateCompletions(parse('schema.ts', typing).source, typing, order, tables)?.map((c) => [c.name, c.detail]), [['CUSTOMER', 'used by Customer']], "Order's key: Customer's segment");
  t.is(completions(text, "name: 'Sh"), undefined, 'the table name is no key template');
});

test('hover on a key template: an example key built by the codec, the partitions and the load the lint computes; nothing for a template the analysis has not seen', (t) => {
  const source = parse('schema.ts', text).source;
  const hover = (marker: string) => templateHover(source, at(text, marker), tables);
  const customer = hover("pk: 'CUSTOMER#<i")!;
  t.is(text.slice(customer.start, customer.start + customer.length), "'CUSTOMER#<id>'");
  t.is(
    customer.markdown,
    '**ddbgen** · Customer key.pk `CUSTOMER#<id>`\n\nExample key: `CUSTOMER#id-1`\n\nbuilt by the key codec from id = "id-1"\n\nPartitions: id (unbounded)\n\n' +
      'No traffic is declared for this entity: declare traffic: { writesPerSecond, readsPerSecond } to see the load on its hottest key.',
  );
  t.is(
    hover("pk: 'CUSTOMER#<cu")!.markdown,
    '**ddbgen** · Order key.pk `CUSTOMER#<customerId>`\n\nExample key: `CUSTOMER#customerId-1`\n\nbuilt by the key codec from customerId = "customerId-1"\n\nPartitions: customerId (unbounded)\n\n' +
      'Load (Order (table)): the share of traffic on the hottest key is unknown (customerId (unbounded)); declare hotKeyShare to check it',
  );
  t.is(hover("sk: 'ORDER#<t")!.markdown, '**ddbgen** · Order key.sk `ORDER#<total>`\n\nExample key: `ORDER#00000`\n\nbuilt by the key codec from total = 0', 'a sort key: no partitions');
  const edited = text.replace("sk: 'ORDER#<total>'", "sk: 'ORDER#<total>#<customerId>'");
  t.is(templateHover(parse('schema.ts', edited).source, at(edited, "sk: 'ORDER#<t"), tables), undefined, 'a template edited since the analysis');
  t.is(templateHover(source, at(text, "pk: 'CUSTOMER#<i"), () => []), undefined, 'no analysis yet');
});
