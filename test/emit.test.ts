// Emitters: given/want tables with exact strings.
import test from 'ava';
import { defineTable, entity, gsi, lsi, t as types } from '../dsl/index.js';
import type { AttributeDef } from '../dsl/ir.js';
import { attributeCodec, attributeType } from '../generator/emit/attribute-type.js';
import { createContext, kebabCase, printLiteral, quote, raw } from '../generator/emit/context.js';
import { renderModule } from '../generator/emit/generate.js';
import { createTableInput, emitTableDefinition } from '../generator/emit/table/table-definition.js';

const types_: Array<[string, AttributeDef, string, unknown]> = [
  ['string', types.string().def, 'string', undefined],
  ['optional number', types.number().optional().def, 'number', undefined],
  ['enum (quotes)', types.enum(["it's", 'B']).def, "'it\\'s' | 'B'", undefined],
  ['timestamp', types.timestamp().def, 'Date', 'timestamp'],
  ['list of timestamps', types.list(types.timestamp()).def, 'Array<Date>', { list: 'timestamp' }],
  ['map with an odd key', types.map({ 'a-b': types.boolean(), at: types.timestamp().optional() }).def, "{ 'a-b': boolean; at?: Date; }", { map: { at: 'timestamp' } }],
  ['empty map', types.map({}).def, 'Record<string, never>', undefined],
  ['string set', types.stringSet().def, 'Set<string>', 'set'],
  ['number set', types.numberSet().def, 'Set<number>', 'set'],
  ['binary', types.binary().def, 'Uint8Array', undefined],
];
for (const [name, def, type, codec] of types_) {
  test(`attribute type: ${name}`, (t) => {
    t.is(attributeType(def), type);
    t.deepEqual(attributeCodec(def), codec);
  });
}

const literals: Array<[string, unknown, string]> = [
  ['string with quote and newline', "a'b\nc", "'a\\'b\\nc'"],
  ['negative zero', -0, '0'],
  ['short object', { a: 1, 'b-c': [true, 'x'] }, "{ a: 1, 'b-c': [true, 'x'] }"],
  ['undefined members are left out', { a: undefined, b: 2 }, '{ b: 2 }'],
  ['raw code', { template: raw('UserKeys.pk') }, '{ template: UserKeys.pk }'],
  ['long object breaks lines', { alpha: 'x'.repeat(40), beta: 'y'.repeat(40), gamma: 3 }, `{\n  alpha: '${'x'.repeat(40)}',\n  beta: '${'y'.repeat(40)}',\n  gamma: 3,\n}`],
];
for (const [name, value, want] of literals) {
  test(`literal: ${name}`, (t) => {
    t.is(printLiteral(value), want);
  });
}

test('names', (t) => {
  t.deepEqual(['User', 'UserProfile', 'HTTPLog', 'a_b'].map(kebabCase), ['user', 'user-profile', 'http-log', 'a-b']);
  t.is(quote('\u2028'), "'\\u2028'");
});

const small = defineTable({
  name: 'KeyValue',
  key: { pk: 'id' },
  entities: {
    Setting: entity({
      attributes: { name: types.string(), value: types.string(), note: types.string().optional() },
      key: { pk: 'Setting|<name>' },
      passthrough: true,
    }),
  },
  delimiter: '|',
});

test('table definition: a GSI\'s own provisioned capacity and warm throughput (table and GSI) reach CreateTable', (t) => {
  const table = defineTable({
    name: 'Warm',
    capacity: { mode: 'provisioned', read: 10, write: 5, warmThroughput: { read: 20000, write: 8000 } },
    indexes: { byEmail: gsi({ pk: 'gsi1pk', projection: 'keys-only', capacity: { read: 3, write: 2 }, warmThroughput: { read: 15000, write: 6000 } }) },
    entities: { A: entity({ attributes: { id: types.string(), email: types.string() }, key: { pk: 'A#<id>', sk: 'A' }, indexes: { byEmail: { pk: 'E#<email>' } } }) },
  });
  const input = createTableInput(table) as { WarmThroughput?: unknown; GlobalSecondaryIndexes: Array<Record<string, unknown>> };
  t.deepEqual(input.WarmThroughput, { ReadUnitsPerSecond: 20000, WriteUnitsPerSecond: 8000 });
  t.like(input.GlobalSecondaryIndexes[0], {
    ProvisionedThroughput: { ReadCapacityUnits: 3, WriteCapacityUnits: 2 },
    WarmThroughput: { ReadUnitsPerSecond: 15000, WriteUnitsPerSecond: 6000 },
  });
});

const provisioned = defineTable({
  name: 'Shop',
  capacity: { mode: 'provisioned', read: 10, write: 5 },
  indexes: { byEmail: gsi({ pk: 'gsi1pk', projection: ['email', 'name'] }), byDate: lsi({ sk: 'lsi1sk', projection: 'keys-only' }) },
  entities: { A: entity({ attributes: { id: types.string() }, key: { pk: 'A#<id>', sk: 'A' } }) },
});

test('table definition: provisioned capacity, INCLUDE and KEYS_ONLY projections', (t) => {
  t.deepEqual(createTableInput(provisioned), {
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'S' },
      { AttributeName: 'gsi1pk', AttributeType: 'S' },
      { AttributeName: 'lsi1sk', AttributeType: 'S' },
    ],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
    BillingMode: 'PROVISIONED',
    ProvisionedThroughput: { ReadCapacityUnits: 10, WriteCapacityUnits: 5 },
    GlobalSecondaryIndexes: [
      {
        IndexName: 'byEmail',
        KeySchema: [{ AttributeName: 'gsi1pk', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['email', 'name'] },
        ProvisionedThroughput: { ReadCapacityUnits: 10, WriteCapacityUnits: 5 },
      },
    ],
    LocalSecondaryIndexes: [
      { IndexName: 'byDate', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'lsi1sk', KeyType: 'RANGE' }], Projection: { ProjectionType: 'KEYS_ONLY' } },
    ],
  });
});

test('table definition emitter: the physical name is the only parameter', (t) => {
  t.is(
    renderModule('table-definition.ts', emitTableDefinition(small, createContext(small))),
    `// generated by ddbgen - do not edit

import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The CreateTable input for the KeyValue table, with its indexes.
 * @param tableName the physical table name (default 'KeyValue')
 */
export function keyValueTableDefinition(tableName: string = 'KeyValue'): CreateTableCommandInput {
  return {
    TableName: tableName,
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  };
}
`,
  );
});
