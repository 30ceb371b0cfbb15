// A table's stream as the schema declares it: carried into every export (CreateTable input,
// CloudFormation checked against the resource schema, CDK compiling, the report), the generated
// modules only when declared, a view type DynamoDB does not have refused at its file:line:column,
// and what `ddbgen diff` says when the stream changes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { Ajv } from 'ajv';
import { snippetProblems } from './support/snippet-check.js';
import { defineTable, entity, t as types, type StreamViewType } from '../dsl/index.js';
import { compareTables } from '../generator/diff/compare-tables.js';
import { generateTable } from '../generator/emit/generate.js';
import { cdkSnippet, cloudFormation } from '../generator/emit/integrations/infrastructure.js';
import { createTableInput } from '../generator/emit/table/table-definition.js';
import { loadSchemas } from '../generator/load/load-schema.js';
import { reportView } from '../generator/report/view-model.js';

const root = path.resolve(import.meta.dirname, '..');

const orders = (stream?: StreamViewType) =>
  defineTable({
    name: 'Orders',
    ...(stream === undefined ? {} : { stream }),
    entities: { Order: entity({ attributes: { id: types.string() }, key: { pk: 'Order#<id>', sk: 'ORDER' } }) },
  });

const exports: Array<[StreamViewType | undefined, unknown, unknown, string | undefined]> = [
  ['new-and-old-images', { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' }, { StreamViewType: 'NEW_AND_OLD_IMAGES' }, 'StreamViewType.NEW_AND_OLD_IMAGES'],
  ['new-image', { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' }, { StreamViewType: 'NEW_IMAGE' }, 'StreamViewType.NEW_IMAGE'],
  ['old-image', { StreamEnabled: true, StreamViewType: 'OLD_IMAGE' }, { StreamViewType: 'OLD_IMAGE' }, 'StreamViewType.OLD_IMAGE'],
  ['keys-only', { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' }, { StreamViewType: 'KEYS_ONLY' }, 'StreamViewType.KEYS_ONLY'],
  [undefined, undefined, undefined, undefined],
];

const cfnSchema = JSON.parse(readFileSync(path.join(root, 'test/support/cloudformation-dynamodb-table.schema.json'), 'utf8'));

for (const [stream, createTable, cfn, cdk] of exports) {
  test(`exports: stream ${stream ?? 'absent'}`, (t) => {
    const table = orders(stream);
    t.deepEqual((createTableInput(table) as { StreamSpecification?: unknown }).StreamSpecification, createTable, 'CreateTable');
    const template = cloudFormation([table]) as { Resources: { OrdersTable: { Properties: { StreamSpecification?: unknown } } } };
    t.deepEqual(template.Resources.OrdersTable.Properties.StreamSpecification, cfn, 'CloudFormation');
    const ajv = new Ajv({ allErrors: true });
    t.true(ajv.validate(cfnSchema, template), ajv.errorsText());
    const snippet = cdkSnippet([table]);
    t.is(/stream: (StreamViewType\.\w+)/.exec(snippet)?.[1], cdk, 'CDK');
    t.is(snippet.includes('import { AttributeType, BillingMode, StreamViewType, Table }'), stream !== undefined);
    t.deepEqual(snippetProblems(snippet), [], 'every import used');
    t.is(reportView([table], [], '0.0.0').tables[0]!.stream, (cfn as { StreamViewType?: string } | undefined)?.StreamViewType ?? '', 'the report');
  });
}

test('the stream modules are generated only for a table with a stream', (t) => {
  // (the in-memory table's own stream records, runtime/in-memory/stream-records.js, ship with every output, as the in-memory table does)
  const names = (stream?: StreamViewType) => [...generateTable(orders(stream), path.join(root, 'out')).files.keys()].filter((f) => f.includes('stream') && !f.includes('/runtime/in-memory/'));
  t.deepEqual(names('keys-only').sort(), ['orders/runtime/stream.d.ts', 'orders/runtime/stream.js', 'orders/stream.ts']);
  t.deepEqual(names(), []);
});

test('a stream view type DynamoDB does not have is refused at its file:line:column, with the four it has', async (t) => {
  const { diagnostics } = await loadSchemas([path.join(root, 'fixtures/invalid/stream.ts')], root);
  t.deepEqual(
    diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.target}: ${d.message} | ${d.fix}`),
    [
      "fixtures/invalid/stream.ts:7:11 error DDB260 Orders.stream: stream \"new-images\" is not a stream view type | use stream: 'new-and-old-images', 'new-image', 'old-image', 'keys-only' (what each record carries: both images, the new item, the old item, or only its key), or leave it out for a table without a stream",
    ],
  );
});

test('diff: a new stream is safe; a removed or changed one needs review (a new stream ARN)', (t) => {
  const diff = (a?: StreamViewType, b?: StreamViewType) => compareTables(orders(a), orders(b)).map((c) => `${c.code} ${c.class} ${c.change}: ${c.message}`);
  t.deepEqual(diff(undefined, 'new-image'), ["DDB261 safe stream: the table's stream is new (new-image): DynamoDB starts recording changes from the deploy on"]);
  t.deepEqual(diff('new-image', 'keys-only'), ["DDB261 review stream: the table's stream view type changed from new-image to keys-only: DynamoDB disables the stream and enables a new one, with a new stream ARN"]);
  t.deepEqual(diff('new-image', undefined), ["DDB261 review stream: the table's stream (new-image) was removed: its consumers stop receiving changes, and its records stay readable for 24 hours only"]);
  t.deepEqual(diff('new-image', 'new-image'), []);
});
