// The hot-key lint: every rule fires on its fixture and stays silent on its near miss; the seeds'
// bad designs have errors and their fixes none; output formats validate against their schemas;
// messages are pinned; overrides, generate's gate and the planner.
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { Ajv } from 'ajv';
import { createRequire as requireFrom } from 'node:module';
import { main } from '../generator/cli/cli.js';
import { defineTable, entity, t as types } from '../dsl/index.js';
import { loadSchemas } from '../generator/load/load-schema.js';
import { lintTable } from '../generator/lint/run-lint.js';
import { RULE_IDS } from '../generator/lint/rules/index.js';
import { planTable } from '../generator/plan/capacity-plan.js';
import type { Diagnostic } from '../generator/diagnostics/diagnostic.js';

const root = path.resolve(import.meta.dirname, '..');
const lintDir = path.join(root, 'fixtures/lint');

async function run(args: string[], cwd = root) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { cwd, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

async function lintFile(file: string): Promise<Map<string, Diagnostic[]>> {
  const { tables, diagnostics } = await loadSchemas([file], root);
  if (diagnostics.length) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  return new Map(tables.map((t) => [t.table.name, lintTable(t.table).map(t.place)]));
}

const SEVERITY: Record<string, Diagnostic['severity']> = {
  HK001: 'error', HK002: 'error', HK003: 'warn', HK004: 'error', HK005: 'error', HK006: 'error', HK007: 'error', HK008: 'warn',
  HK009: 'info', HK010: 'error', HK011: 'error', HK012: 'warn', HK013: 'error', HK014: 'warn', HK015: 'warn', HK016: 'warn',
};

test('every rule has a fixture pair', (t) => {
  const ids = readdirSync(lintDir).filter((f) => /^hk\d{3}-.*\.ts$/.test(f)).map((f) => f.slice(0, 5).toUpperCase());
  t.deepEqual(ids, [...RULE_IDS]);
});

for (const file of readdirSync(lintDir).filter((f) => /^hk\d{3}-.*\.ts$/.test(f))) {
  const rule = file.slice(0, 5).toUpperCase();
  test(`${rule} fires on its fixture and not on its near miss (${file})`, async (t) => {
    const byTable = await lintFile(path.join(lintDir, file));
    const [fires, nearMiss] = [...byTable.values()];
    const found = fires!.filter((d) => d.code === rule);
    t.true(found.length > 0, `${rule} did not fire`);
    t.is(found[0]!.severity, SEVERITY[rule]!);
    t.true(found.every((d) => d.file === `fixtures/lint/${file}` && d.line! > 1 && d.column! >= 1 && d.fix.length > 20));
    t.deepEqual(nearMiss!.filter((d) => d.code === rule), [], `${rule} fired on the near miss`);
  });
}

for (const file of readdirSync(path.join(lintDir, 'seeds'))) {
  test(`seed design ${file}: the bad design has errors, its fix has none`, async (t) => {
    const [bad, fixed] = [...(await lintFile(path.join(lintDir, 'seeds', file))).values()];
    t.true(bad!.some((d) => d.severity === 'error'));
    t.deepEqual(fixed!.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`), []);
  });
}

test('messages are pinned: the election-votes seed, as ddbgen lint prints it', async (t) => {
  const result = await run(['lint', 'fixtures/lint/seeds/election-votes.ts']);
  t.is(result.code, 1);
  t.is(result.stdout, 'ddbgen lint: 1 error, 2 warnings, 0 info\n');
  t.is(
    result.stderr,
    [
      'fixtures/lint/seeds/election-votes.ts:10:66 - error HK002: Vote (table): partition key "Candidate#<candidateId>" takes only 2 distinct values (2 values of candidateId); the hottest takes 5,000 WCU/s on the hottest key (assumed uniform over 2 values of candidateId)',
      '    at VotesBad.entities.Vote.key.pk',
      '    fix: shard it: pk "Candidate#<candidateId>#<shard>" with shard: { count: 7 } (N = ceil(5,000 / (1000 × 0.8))); add by: \'<attribute>\' to keep single-item reads to one GetItem',
      'fixtures/lint/seeds/election-votes.ts:8:15 - warning HK012: declared peak 10,000 WRU/s is above the 4,000 WRU/s and 12,000 RRU/s a new on-demand table serves at once; reaching it takes 2 doublings of 30 minutes (60 min) of throttling risk',
      '    at VotesBad.capacity',
      '    fix: pre-warm the table and its indexes (WarmThroughput) to the peak before launch, or ramp traffic up over that time',
      'fixtures/lint/seeds/election-votes.ts:12:15 - warning HK012: declared peak 10,000 WRU/s is above the 4,000 WRU/s and 12,000 RRU/s a new on-demand table serves at once; reaching it takes 2 doublings of 30 minutes (60 min) of throttling risk',
      '    at VotesFixed.capacity',
      '    fix: pre-warm the table and its indexes (WarmThroughput) to the peak before launch, or ramp traffic up over that time',
      '',
    ].join('\n'),
  );
});

const pinned: Array<[string, string, string]> = [
  ['HK001', 'hk001-constant-partition-key.ts', 'LogLine (table): partition key "OPS_LOG" has no placeholder, so every write goes to one key; declared 2,000 WCU/s, above the 1,000 one partition takes'],
  ['HK003', 'hk003-time-bucket-partition-key.ts', 'Event (table): partition key "DAY#<at:day>" is a time bucket (at:day) without a shard: every write in a period goes to one key; declared 500 WCU/s on the hottest key (assumed uniform over 1 active day of at)'],
  ['HK004', 'hk004-single-item-write-hotspot.ts', 'Counter "COUNTER#<name> / TOTAL": one item takes 1,800 WCU/s (declared hotKeyShare 0.9); a single item cannot exceed 1,000 WCU/s, even after adaptive capacity isolates it'],
  ['HK005', 'hk005-single-item-read-hotspot.ts', 'Config "CONFIG#<name> / CURRENT": one item takes 5,000 RCU/s (assumed uniform over 1 values of name); a single item cannot exceed 3,000 RCU/s'],
  ['HK008', 'hk008-gsi-back-pressure.ts', 'Order in GSI byStatus: its partition key "STATUS#<status>" takes only 4 distinct values (4 values of status); a throttled GSI throttles writes to the base table too'],
  ['HK010', 'hk010-lsi-collection-size.ts', 'Message (LSI byTime): an item collection can reach 19.6 GB (10,000,000 items × (2,000 B + 100 B of LSI projections)), above the 10 GB an LSI allows (ItemCollectionSizeLimitExceededException)'],
  ['HK011', 'hk011-item-size.ts', 'Blob: items are 488.3 KB (declared itemBytes), above the 400 KB DynamoDB allows per item'],
  ['HK013', 'hk013-table-quota.ts', 'declared 50,000 write units/s for the table and its GSIs is above the default quota of 40,000 per table'],
  ['HK014', 'hk014-write-contention.ts', 'Settings (assumed uniform over 2 values of tenant): 50 conditional (versioned) writes per second on one item will conflict; each loser retries and pays again'],
  ['HK015', 'hk015-shard-fan-out.ts', 'Tick (table): 200 shards means each logical read issues 200 queries (20,000 queries/s at the declared reads)'],
  ['HK016', 'hk016-pii-in-key.ts', 'User key.pk: key template contains "email", which is marked pii; keys appear in metrics (Contributor Insights), logs and cursors'],
];
for (const [rule, file, message] of pinned) {
  test(`${rule} message is pinned`, async (t) => {
    const [fires] = [...(await lintFile(path.join(lintDir, file))).values()];
    t.is(fires!.find((d) => d.code === rule)?.message, message);
  });
}

test('JSON output has the documented shape and validates against its schema', async (t) => {
  const result = await run(['lint', 'fixtures/lint/seeds/time-series-gsi.ts', '--format', 'json']);
  t.is(result.code, 1);
  const json = JSON.parse(result.stdout);
  const ajv = new Ajv({ allErrors: true });
  const schema = JSON.parse(readFileSync(path.join(root, 'generator/lint/lint-output.schema.json'), 'utf8'));
  t.true(ajv.validate(schema, json), ajv.errorsText());
  t.deepEqual(json.summary, { errors: 2, warnings: 1, infos: 1 });
  t.deepEqual(Object.keys(json.diagnostics[0]), ['rule', 'severity', 'message', 'file', 'line', 'column', 'target', 'fix']);
});

test('SARIF output validates against the SARIF 2.1.0 schema', async (t) => {
  const result = await run(['lint', 'fixtures/lint/seeds/weather-intrusion-gsi.ts', 'fixtures/social.ts', '--format', 'sarif']);
  const sarif = JSON.parse(result.stdout);
  const schemaFile = createRequire(import.meta.url).resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const AjvDraft04 = requireFrom(import.meta.url)('ajv-draft-04') as new (options: object) => InstanceType<typeof Ajv>;
  const ajv = new AjvDraft04({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false });
  t.true(ajv.validate(JSON.parse(readFileSync(schemaFile, 'utf8')), sarif), ajv.errorsText());
  const results = sarif.runs[0].results;
  t.true(results.length >= 5);
  t.like(results[0], { ruleId: 'HK006', level: 'error' });
  t.is(sarif.runs[0].tool.driver.rules[results[0].ruleIndex].id, results[0].ruleId);
  t.like(results[0].locations[0].physicalLocation, { artifactLocation: { uri: 'fixtures/lint/seeds/weather-intrusion-gsi.ts', uriBaseId: '%SRCROOT%' } });
});

test('severity overrides: off at table level, info at entity level', (t) => {
  const entityFor = (lint?: Record<string, 'off' | 'info'>) =>
    entity({ attributes: { at: t2.timestamp(), id: t2.string() }, key: { pk: 'DAY#<at:day>', sk: '<id>' }, ...(lint ? { lint } : {}) });
  const t2 = types;
  const codes = (table: Parameters<typeof lintTable>[0]) => lintTable(table).map((d) => `${d.severity} ${d.code}`);
  t.deepEqual(codes(defineTable({ name: 'A', entities: { E: entityFor() } })), ['warn HK003']);
  t.deepEqual(codes(defineTable({ name: 'A', entities: { E: entityFor() }, lint: { HK003: 'off' } })), []);
  t.deepEqual(codes(defineTable({ name: 'A', entities: { E: entityFor({ HK003: 'info' }) }, lint: { HK003: 'off' } })), ['info HK003']);
});

test('generate runs the lint: an error stops it with nothing written; warnings are printed and it goes on', async (t) => {
  const out = mkdtempSync(path.join(tmpdir(), 'ddbgen-lint-'));
  const failed = await run(['generate', 'fixtures/lint/hk002-low-cardinality-partition-key.ts', '--out', out]);
  t.is(failed.code, 1);
  t.regex(failed.stderr, /error HK002: Order \(table\)/);
  t.regex(failed.stderr, /nothing was written/);
  t.false(existsSync(path.join(out, 'hk002-fires')));
  const warned = await run(['generate', 'fixtures/lint/hk016-pii-in-key.ts', '--out', out]);
  t.is(warned.code, 0, warned.stderr);
  t.regex(warned.stderr, /warning HK016: User key.pk/);
  t.true(existsSync(path.join(out, 'hk016-fires', 'user.ts')));
});

test('traffic and lint settings are validated with locations', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-traffic-'));
  const file = path.join(dir, 'schema.ts');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(
    file,
    `import { defineTable, entity, t } from 'ddbgen';\nexport default defineTable({\n  name: 'T',\n  entities: {\n    E: entity({ attributes: { id: t.string() }, key: { pk: 'E#<id>', sk: 'E' }, traffic: { writesPerSecond: -5, hotKeyShare: 1.5 } }),\n  },\n  // @ts-ignore\n  lint: { HK999: 'off', HK001: 'loud' },\n});\n`,
  );
  const result = await run(['lint', 'schema.ts'], dir);
  t.is(result.code, 1);
  const lines = result.stderr.split('\n').filter((l) => l.startsWith('schema.ts'));
  t.deepEqual(lines, [
    'schema.ts:5:92 - error DDB080: traffic writesPerSecond is -5',
    'schema.ts:5:113 - error DDB080: traffic hotKeyShare is 1.5, above 1',
    'schema.ts:8:18 - error DDB081: lint names rule "HK999", which does not exist',
    'schema.ts:8:32 - error DDB081: lint severity "loud" for HK001 is not a severity',
  ]);
});

test('plan: an edge\'s writes (both halves), link reads and hottest node are in the plan and its totals', async (t) => {
  const { tables } = await loadSchemas([path.join(root, 'fixtures/fans.ts')], root);
  const plan = planTable(tables[0]!.table);
  t.deepEqual(plan.edges, [{ edge: 'Fan', writesPerSecond: 200, writeUnits: 800, readsPerSecond: 1000, readUnits: 500, hottestNode: { writeUnits: 8, readUnits: 10, share: 0.02 } }]);
  t.like(plan.totals, { writeUnits: 20 + 800, readUnits: 250 + 500 });
  const text = await run(['plan', 'fixtures/fans.ts']);
  t.regex(text.stdout, /\nedges:\n {2}Fan: 200 relationships\/s, 800 WCU\/s \(both halves\); 1,000 link reads\/s, 500 RCU\/s; hottest node \(hotKeyShare 0\.02\): 8 WCU\/s, 10 RCU\/s\n/);
  const follow = planTable(defineTable({
    name: 'F',
    indexes: { followers: { kind: 'gsi', pk: 'g1pk', sk: 'g1sk', projection: 'keys-only' } },
    entities: { User: entity({ attributes: { id: types.string() }, key: { pk: 'User#<id>', sk: 'PROFILE' } }) },
    edges: {
      Follow: { kind: 'edge', types: ['User'], forward: 'FOLLOWS', inverse: 'FOLLOWED_BY', inverseIndex: 'followers', attributes: {}, traffic: { kind: 'traffic', writesPerSecond: 10 } },
      Likes: { kind: 'edge', types: ['User'], forward: 'LIKES', attributes: {}, traffic: { kind: 'traffic', writesPerSecond: 10 } },
    },
  }));
  t.deepEqual(follow.edges.map((e) => [e.edge, e.writeUnits, e.readUnits, e.hottestNode.writeUnits]), [['Follow', 20, null, null], ['Likes', 10, null, null]], 'an inverse in a GSI: one put and its index entry; no inverse: one put');
});

test('plan: units, hottest key, partitions and shard counts from declared traffic', async (t) => {
  const { tables } = await loadSchemas([path.join(lintDir, 'seeds/election-votes.ts')], root);
  const [bad, fixed] = tables.map((x) => planTable(x.table));
  t.like(bad!.spaces[0], { entity: 'Vote', index: 'table', writesPerSecond: 10000, writeUnits: 10000, minPartitions: 10, suggestedShards: 7, hottestKey: { writeUnits: 5000 } });
  t.like(fixed!.spaces[0], { distinctKeys: '2 values of candidateId × 10 shards', suggestedShards: 1, hottestKey: { writeUnits: 500 } });
  t.deepEqual(bad!.totals, { writeUnits: 10000, readUnits: 0, minPartitions: 10, onDemandRampMinutes: 60 });
  const text = await run(['plan', 'fixtures/lint/seeds/election-votes.ts']);
  t.is(text.code, 0);
  t.regex(text.stdout, /^VotesBad \(on-demand\)\n\nentity  index  partition key/);
  t.regex(text.stdout, /total: 10,000 WCU\/s, 0 RCU\/s \(eventually consistent reads\); at least 10 partitions; on-demand needs 60 min to ramp/);
  const json = JSON.parse((await run(['plan', 'fixtures/lint/seeds/election-votes.ts', '--format', 'json'])).stdout);
  t.is(json.length, 2);
});
