// Validation of write shards and timestamp units: a suffix that cannot spread, random with by, by
// outside the key, a bad start, a unit on a non-timestamp (errors), and a rollup key that keeps one
// exact time per bucket (info). Given/want with exact messages, and file:line:column through the loader.
import path from 'node:path';
import test from 'ava';
import { defineTable, entity, t } from '../dsl/index.js';
import type { TableDef } from '../dsl/ir.js';
import { loadSchemas } from '../generator/load/load-schema.js';
import { validateTable } from '../generator/load/validate-table.js';

const root = path.resolve(import.meta.dirname, '..');
const table = (entities: Parameters<typeof defineTable>[0]['entities']): TableDef => defineTable({ name: 'App', entities });
const brief = (def: TableDef) => validateTable(def).map((d) => `${d.severity} ${d.code} ${d.target}: ${d.message}`);
const counter = { candidateId: t.string(), votes: t.number({ integer: true }) };
const event = { eventId: t.string(), createdAt: t.timestamp(), note: t.string() };

const cases: Array<[string, TableDef, string[]]> = [
  ['seed 004\'s candidate total calculated from the candidate only: one shard per candidate', table({
    VoteTotal: entity({ attributes: counter, key: { pk: 'Total#<candidateId>#<shard>', sk: 'TOTAL', shard: { count: 20 } } }),
  }), [
    'error DDB121 App.entities.VoteTotal.key.shard: the shard suffix of Total#<candidateId>#<shard> is calculated from "candidateId", which the partition key already holds: every item of a partition gets the same suffix, so it spreads nothing',
  ]],
  ['by names a partition-key attribute only', table({
    Event: entity({ attributes: event, key: { pk: 'EventDay#<createdAt:day>#<shard>', sk: 'Event#<eventId>', shard: { count: 200, by: ['createdAt'] } } }),
  }), [
    'error DDB121 App.entities.Event.key.shard: the shard suffix of EventDay#<createdAt:day>#<shard> is calculated from "createdAt", which the partition key already holds: every item of a partition gets the same suffix, so it spreads nothing',
  ]],
  ['a key with nothing but the shard', table({
    Hit: entity({ attributes: { hits: t.number({ integer: true }) }, key: { pk: 'Hits#<shard>', sk: 'TOTAL', shard: { count: 8 } } }),
  }), [
    'error DDB121 App.entities.Hit.key.shard: the shard suffix of Hits#<shard> is calculated from nothing that varies (the key has no other parts): every item gets the same suffix, so it spreads nothing',
  ]],
  ['by outside the key: the raw value is finer than the key', table({
    Event: entity({ attributes: event, key: { pk: 'EventDay#<createdAt:day>#<shard>', sk: 'Event#<eventId>', shard: { count: 200, by: 'note' } } }),
  }), [
    'error DDB120 App.entities.Event.key.shard.by: shard.by names "note", which is not part of the key EventDay#<createdAt:day>#<shard> / Event#<eventId>: a suffix hashed from it would change while the key stays the same, so one item could be written twice and read back from the wrong shard',
  ]],
  ['random with by, and a bad start', table({
    VoteTotal: entity({ attributes: counter, key: { pk: 'Total#<candidateId>#<shard>', sk: 'TOTAL', shard: { count: 20, random: true, by: 'candidateId', start: -1 } as never } }),
  }), [
    'error DDB123 App.entities.VoteTotal.key.shard.start: shard start -1 is not a whole number from 0 to 1,000,000',
    'error DDB122 App.entities.VoteTotal.key.shard.by: shard is random and also names by (candidateId): a random suffix is drawn per write, a calculated one is hashed from by; it cannot be both',
  ]],
  ['a unit on a non-timestamp, and an unknown unit', table({
    Thing: entity({
      attributes: { id: t.string(), n: { ...t.number(), def: { ...t.number().def, unit: 'hour' } } as never, at: t.timestamp({ unit: 'week' as never }) },
      key: { pk: 'Thing#<id>', sk: 'T' },
    }),
  }), [
    'error DDB124 App.entities.Thing.attributes.n: attribute "n" declares a unit but is a number',
    'error DDB124 App.entities.Thing.attributes.at: attribute "at" declares a unit but has unit "week"',
  ]],
  ['a rollup keyed by a bucket without a unit: info; with the unit, or with an id after it: nothing', table({
    ClickMinute: entity({ attributes: { url: t.string(), eventTime: t.timestamp(), clicks: t.number({ integer: true }) }, key: { pk: 'ClickMinute#<url>', sk: '<eventTime:minute>' } }),
    ClickHour: entity({ attributes: { url: t.string(), eventTime: t.timestamp({ unit: 'hour' }), clicks: t.number({ integer: true }) }, key: { pk: 'ClickHour#<url>', sk: '<eventTime:hour>' } }),
    Event: entity({ attributes: event, key: { pk: 'EventDay#<createdAt:day>#<shard>', sk: 'Event#<eventId>', shard: { count: 200 } } }),
  }), [
    'info DDB125 App.entities.ClickMinute.key.sk: the primary key ClickMinute#<url> / <eventTime:minute> holds "eventTime" only truncated to the minute, and no finer sort-key part tells items apart: one item per minute keeps one value of "eventTime" (the first or last write\'s exact time)',
  ]],
  ['the seeds\' valid designs: random counter from 1, calculated day-keyed orders, a GSI shard by an index-key attribute', table({
    VoteTotal: entity({ attributes: counter, key: { pk: 'Total#<candidateId>#<shard>', sk: 'TOTAL', shard: { count: 20, random: true, start: 1 } } }),
    Order: entity({ attributes: { orderId: t.string(), createdAt: t.timestamp() }, key: { pk: 'OrderDay#<createdAt:day>#<shard>', sk: 'Order#<orderId>', shard: { count: 200, start: 1, by: 'orderId' } } }),
  }), []],
];

for (const [name, def, want] of cases) {
  test(`validate shards: ${name}`, (t) => {
    t.deepEqual(brief(def), want);
  });
}

test('each shard diagnostic has a fix naming the way out', (t) => {
  const fixes = Object.fromEntries(cases.flatMap(([, def]) => validateTable(def)).map((d) => [d.code, d.fix]));
  t.regex(fixes['DDB121']!, /by: '<attribute in the sort key>'.*random: true/);
  t.regex(fixes['DDB120']!, /by one of "createdAt", "eventId"/);
  t.regex(fixes['DDB122']!, /remove by for a random suffix/);
  t.regex(fixes['DDB123']!, /start: 1 for suffixes 1\.\.count/);
  t.regex(fixes['DDB124']!, /t\.timestamp\(\{ unit \}\)/);
  t.regex(fixes['DDB125']!, /eventTime: t\.timestamp\(\{ unit: 'minute' \}\)/);
});

test('bad shard declarations are reported at file:line:column and nothing loads as valid', async (t) => {
  const { diagnostics } = await loadSchemas([path.join(root, 'fixtures/invalid/shards.ts')], root);
  t.deepEqual(
    diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code}`),
    ['fixtures/invalid/shards.ts:10:62 error DDB121', 'fixtures/invalid/shards.ts:14:102 error DDB120'],
  );
});
