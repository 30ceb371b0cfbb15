// `ddbgen plan`: given a declared design, want exact units, hottest-key and hottest-shard loads,
// partitions and TOTAL shard counts. Each test name writes out the arithmetic it checks.
import path from 'node:path';
import test from 'ava';
import { main } from '../generator/cli/cli.js';
import { defineTable, entity, gsi, t as types } from '../dsl/index.js';
import type { TableDef } from '../dsl/ir.js';
import { planTable, planText } from '../generator/plan/capacity-plan.js';

const root = path.resolve(import.meta.dirname, '..');

const one = (name: string, key: Parameters<typeof entity>[0]['key'], traffic: Parameters<typeof entity>[0]['traffic'], attributes: Parameters<typeof entity>[0]['attributes'] = { id: types.string(), at: types.timestamp(), kind: types.enum(['A', 'B']) }) =>
  defineTable({ name, entities: { Item: entity({ attributes, key, traffic } as Parameters<typeof entity>[0]) } });

const telemetry = (count: number) =>
  defineTable({
    name: 'Telemetry',
    entities: {
      Reading: entity({
        attributes: { deviceId: types.string(), at: types.timestamp(), readingId: types.string() },
        key: { pk: 'DEVICE#<deviceId>#<at:day>#<shard>', sk: '<readingId>', shard: { count } },
        traffic: { writesPerSecond: 12000, itemBytes: 2048, hotKeyShare: 1 },
      }),
    },
  });

const given: Array<[string, TableDef, Record<string, unknown>]> = [
  [
    'election votes: 10,000 writes/s × 1 WCU / 2 candidates = 5,000 WCU on the hottest key; ceil(5,000 / 800) = 7 shards; 10,000 / 1,000 = 10 partitions',
    one('Votes', { pk: 'Candidate#<kind>', sk: '<at>#<id>' }, { writesPerSecond: 10000 }),
    { writesPerSecond: 10000, writeUnits: 10000, minPartitions: 10, shards: null, suggestedShards: 7, hottestKey: { writeUnits: 5000, readUnits: null, assumption: '1/2: assumed uniform over 2 values of kind' }, hottestShard: null },
  ],
  [
    'election votes sharded: 5,000 WCU on the hottest key over 10 shards calculated from id = 500 per shard; no more shards needed',
    one('VotesFixed', { pk: 'Candidate#<kind>#<shard>', sk: '<at>#<id>', shard: { count: 10, by: 'id' } }, { writesPerSecond: 10000 }),
    { distinctKeys: '2 values of kind × 10 shards', shards: 10, suggestedShards: null, hottestKey: { writeUnits: 5000 }, hottestShard: { writeUnits: 500, readUnits: null } },
  ],
  [
    'under-sharded telemetry: 12,000 writes/s × 2 WCU (2 KB) = 24,000 WCU on one device-day; / 20 shards = 1,200 per shard; total ceil(24,000 / 800) = 30 shards, not a multiple of 20',
    telemetry(20),
    { writeUnits: 24000, shards: 20, suggestedShards: 30, hottestKey: { writeUnits: 24000 }, hottestShard: { writeUnits: 1200, readUnits: null }, minPartitions: 24 },
  ],
  [
    'telemetry with the fix: 24,000 WCU / 30 shards = 800 per shard, within 80% of a partition; no more shards needed',
    telemetry(30),
    { shards: 30, suggestedShards: null, hottestShard: { writeUnits: 800, readUnits: null } },
  ],
  [
    'ready queue: constant key over 4 random shards at 12,000 writes/s × 1 WCU = 3,000 per shard; total ceil(12,000 / 800) = 15 shards',
    one('Queue', { pk: 'Ready#<shard>', sk: '<at>#<id>', shard: { count: 4, random: true } }, { writesPerSecond: 12000 }),
    { distinctKeys: 'a constant × 4 shards', shards: 4, suggestedShards: 15, hottestKey: { writeUnits: 12000 }, hottestShard: { writeUnits: 3000, readUnits: null } },
  ],
  [
    'a shard calculated from what the key fixes spreads nothing: 1,000 WCU on one kind stays on 1 of 4 shards; total ceil(1,000 / 800) = 2',
    one('Fixed', { pk: 'KIND#<kind>#<shard>', sk: '<at>#<id>', shard: { count: 4, by: 'kind' } }, { writesPerSecond: 2000 }),
    { shards: 4, suggestedShards: 2, hottestKey: { writeUnits: 1000 }, hottestShard: { writeUnits: 1000, readUnits: null } },
  ],
  [
    'strongly consistent reads cost twice: 1,000 reads/s × 1 RCU (4 KB, strong) = 1,000 RCU/s',
    one('Strong', { pk: 'ITEM#<id>', sk: 'V' }, { readsPerSecond: 1000, itemBytes: 4096, consistent: true }),
    { readsPerSecond: 1000, readUnits: 1000, minPartitions: 1 },
  ],
  [
    'eventually consistent reads: 1,000 reads/s × 0.5 RCU (4 KB) = 500 RCU/s',
    one('Eventual', { pk: 'ITEM#<id>', sk: 'V' }, { readsPerSecond: 1000, itemBytes: 4096 }),
    { readUnits: 500 },
  ],
  [
    'transactional writes cost twice: 100 writes/s × 2 WCU (1 KB in a transaction) = 200 WCU/s',
    one('Tx', { pk: 'ITEM#<id>', sk: 'V' }, { writesPerSecond: 100, transactional: true }),
    { writesPerSecond: 100, writeUnits: 200 },
  ],
  [
    'feature flags: 0.3 writes/s / 3 environments = 0.1 WCU/s on the hottest key; 300 reads/s × 0.5 / 3 = 50 RCU/s',
    one('Flags', { pk: 'ENV#<env>', sk: 'FLAG#<flag>' }, { writesPerSecond: 0.3, readsPerSecond: 300 }, { env: types.enum(['dev', 'staging', 'prod']), flag: types.string() }),
    { hottestKey: { writeUnits: 0.1, readUnits: 50, assumption: '1/3: assumed uniform over 3 values of env' }, suggestedShards: null },
  ],
  [
    'random shards gather every read: 3,000 reads/s × 0.5 RCU on one key over 8 shards is still 1,500 RCU/s per shard (each gathered read costs every shard a read)',
    one('Gathered', { pk: 'TOTAL#<shard>', sk: 'V', shard: { count: 8, random: true } }, { readsPerSecond: 3000 }),
    { hottestKey: { writeUnits: null, readUnits: 1500 }, hottestShard: { writeUnits: null, readUnits: 1500 } },
  ],
];

for (const [name, table, want] of given) {
  test(`plan: ${name}`, (t) => {
    t.like(planTable(table).spaces[0]!, want);
  });
}

test('plan per table and per GSI: table 5,000 WCU and a keys-only GSI 5,000 WCU each ramp on their own from 4,000 (1 doubling, 30 min); totals 10,000 WCU, 10 partitions', (t) => {
  const table = defineTable({
    name: 'Ramp',
    indexes: { byOwner: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', projection: 'keys-only' }) },
    entities: { Doc: entity({ attributes: { id: types.string(), owner: types.string() }, key: { pk: 'DOC#<id>', sk: 'V' }, indexes: { byOwner: { pk: 'OWNER#<owner>', sk: '<id>' } }, traffic: { writesPerSecond: 5000 } }) },
  });
  const plan = planTable(table);
  t.deepEqual(
    plan.resources.map((r) => [r.resource, r.writeUnits, r.minPartitions, r.onDemandRampMinutes]),
    [
      ['table', 5000, 5, 30],
      ['byOwner', 5000, 5, 30],
    ],
  );
  t.deepEqual(plan.totals, { writeUnits: 10000, readUnits: 0, minPartitions: 10, onDemandRampMinutes: 30 });
});

test('plan against the on-demand maximum: 2,000 WCU/s over onDemandMax 1,000 WRU is named; warm throughput is compared as before', (t) => {
  const table = defineTable({
    name: 'Capped',
    capacity: { mode: 'on-demand', warmThroughput: { read: 12000, write: 1500 } },
    onDemandMax: { writeRequestUnits: 1000 },
    entities: { Doc: entity({ attributes: { id: types.string() }, key: { pk: 'DOC#<id>', sk: 'V' }, traffic: { writesPerSecond: 2000 } }) },
  });
  t.deepEqual(
    planTable(table).resources.map((r) => [r.resource, r.writeUnits, r.onDemandMax, r.onDemandRampMinutes]),
    [['table', 2000, { read: null, write: 1000 }, 30]],
  );
  t.true(planText(planTable(table)).includes('  table: 2,000 WCU/s, 0 RCU/s, at least 2 partitions; warm 12,000 RRU / 1,500 WRU: 30 min to ramp, or pre-warm; at most – RRU / 1,000 WRU (onDemandMax): the declared writes exceed it and will throttle\n'));
});

test('plan per GSI on a provisioned table: a GSI with its own capacity is compared with its own (500 WCU), not the table\'s (5,000)', (t) => {
  const table = defineTable({
    name: 'Prov',
    capacity: { mode: 'provisioned', read: 1000, write: 5000 },
    indexes: { byOwner: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', capacity: { read: 100, write: 500 } }) },
    entities: { Doc: entity({ attributes: { id: types.string(), owner: types.string() }, key: { pk: 'DOC#<id>', sk: 'V' }, indexes: { byOwner: { pk: 'OWNER#<owner>', sk: '<id>' } }, traffic: { writesPerSecond: 2000 } }) },
  });
  t.deepEqual(
    planTable(table).resources.map((r) => [r.resource, r.writeUnits, r.provisioned, r.onDemandRampMinutes]),
    [
      ['table', 2000, { read: 1000, write: 5000 }, null],
      ['byOwner', 2000, { read: 100, write: 500 }, null],
    ],
  );
});

test('ddbgen plan prints the under-sharded telemetry: 1,200 WCU per shard, 20 → 30 shards', async (t) => {
  let stdout = '';
  const code = await main(['plan', 'fixtures/lint/hk017-under-sharded-key.ts'], { cwd: root, stdout: (s) => (stdout += s), stderr: () => {} });
  t.is(code, 0);
  const [first] = stdout.split('\n\n\n');
  t.regex(first!, /^Hk017Fires \(on-demand\)\n\nentity +index +partition key/);
  t.regex(first!, /Reading +table +DEVICE#<deviceId>#<at:day>#<shard> +deviceId \(unbounded\) × 1 active day of at × 20 shards +12,000 +24,000 +– +– +24,000 \(1,200\/shard\) +– +24 +20 → 30\n/);
  t.regex(first!, /  table: 24,000 WCU\/s, 0 RCU\/s, at least 24 partitions; warm 12,000 RRU \/ 4,000 WRU: 90 min to ramp, or pre-warm\n/);
});

test('plan patterns: consistent: true doubles a table pattern (100 reads/s × 1 RCU = 100) but never a GSI pattern (100 × 0.5 = 50: GSIs read eventually consistent)', (t) => {
  const table = defineTable({
    name: 'Reads',
    indexes: { byOwner: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) },
    entities: {
      Doc: entity({
        attributes: { id: types.string(), owner: types.string() },
        key: { pk: 'DOC#<id>', sk: 'V' },
        indexes: { byOwner: { pk: 'OWNER#<owner>', sk: '<id>' } },
        traffic: { consistent: true },
      }),
    },
    patterns: { doc: { entity: 'Doc', readsPerSecond: 100 }, docsOfOwner: { entity: 'Doc', index: 'byOwner', readsPerSecond: 100 } },
  });
  t.deepEqual(
    planTable(table).patterns.map((p) => [p.pattern, p.consistent, p.readUnits]),
    [
      ['doc', true, 100],
      ['docsOfOwner', false, 50],
    ],
  );
});
