// The hot-key lint: every rule fires on its fixture, stays silent on its near miss and raises no
// more than info at low load; the seeds' bad designs have errors and their fixes none; clean designs
// that look scary pass; every suggested schema change validates and silences its rule; output
// formats validate against their schemas; messages are pinned; overrides, generate's gate.
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { Ajv } from 'ajv';
import { createRequire as requireFrom } from 'node:module';
import { main } from '../generator/cli/cli.js';
import fc from 'fast-check';
import { defineTable, edge, entity, gsi, t as types } from '../dsl/index.js';
import type { EntityDef, IndexMappingDef, KeyDef, TableDef } from '../dsl/ir.js';
import { parseTemplate } from '../dsl/template.js';
import { validateTable } from '../generator/load/validate-table.js';
import { keySpaces } from '../generator/model/load-model.js';
import type { ShardChange } from '../generator/lint/describe.js';
import { loadSchemas } from '../generator/load/load-schema.js';
import { lintTable } from '../generator/lint/run-lint.js';
import { RULE_IDS, rules } from '../generator/lint/rules/index.js';
import { lintMessages, OBSERVED_CODES } from '../generator/diagnostics/messages.js';
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
  HK001: 'error', HK002: 'error', HK003: 'error', HK004: 'error', HK005: 'error', HK006: 'error', HK007: 'error', HK008: 'warn', HK009: 'info',
  HK010: 'error', HK011: 'error', HK012: 'warn', HK013: 'error', HK014: 'warn', HK015: 'warn', HK016: 'warn', HK017: 'error', HK018: 'error', HK019: 'warn',
  HK020: 'warn', HK021: 'info', HK022: 'error', HK023: 'warn', HK024: 'warn', HK025: 'error', HK026: 'warn',
};

test('every rule has a fixture triple named like its rule file', (t) => {
  const files = readdirSync(lintDir).filter((f) => /^hk\d{3}-.*\.ts$/.test(f));
  t.deepEqual(files.map((f) => f.slice(0, 5).toUpperCase()), [...RULE_IDS]);
  // validation checks a schema's lint settings against the catalogue's rules (it sits below lint): the same ids, in the same order
  t.deepEqual(Object.keys(lintMessages).filter((code) => !OBSERVED_CODES.has(code)), [...RULE_IDS]);
  t.deepEqual(files.map((f) => f.slice(6, -3)), rules.map((r) => r.name));
  const ruleFiles = readdirSync(path.join(root, 'generator/lint/rules')).filter((f) => f !== 'index.ts').map((f) => f.slice(0, -3));
  t.deepEqual(ruleFiles.sort(), rules.map((r) => r.name).sort());
});

for (const file of readdirSync(lintDir).filter((f) => /^hk\d{3}-.*\.ts$/.test(f))) {
  const rule = file.slice(0, 5).toUpperCase();
  test(`${rule} fires on its fixture, not on its near miss, and at most as info at low load (${file})`, async (t) => {
    const byTable = await lintFile(path.join(lintDir, file));
    const [fires, nearMiss, lowLoad] = [...byTable.values()];
    const found = fires!.filter((d) => d.code === rule);
    t.true(found.length > 0, `${rule} did not fire`);
    t.is(found[0]!.severity, SEVERITY[rule]!);
    t.true(found.every((d) => d.file === `fixtures/lint/${file}` && d.line! > 1 && d.column! >= 1 && d.fix.length > 20));
    t.deepEqual(nearMiss!.filter((d) => d.code === rule), [], `${rule} fired on the near miss`);
    t.deepEqual(lowLoad!.filter((d) => d.code === rule && d.severity !== 'info').map((d) => d.message), [], `${rule} warned at low load`);
  });
}

for (const file of readdirSync(path.join(lintDir, 'seeds'))) {
  test(`seed design ${file}: the bad design has errors, its fix has none`, async (t) => {
    const [bad, fixed] = [...(await lintFile(path.join(lintDir, 'seeds', file))).values()];
    t.true(bad!.some((d) => d.severity === 'error'));
    t.deepEqual(fixed!.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`), []);
  });
}

for (const file of readdirSync(path.join(lintDir, 'clean'))) {
  test(`clean design ${file}: no error and no warning, whatever it looks like`, async (t) => {
    const [clean] = [...(await lintFile(path.join(lintDir, 'clean', file))).values()];
    t.deepEqual(clean!.filter((d) => d.severity !== 'info').map((d) => `${d.code} ${d.message}`), []);
  });
}

test('messages are pinned: the election-votes seed, as ddbgen lint prints it', async (t) => {
  const result = await run(['lint', 'fixtures/lint/seeds/election-votes.ts']);
  t.is(result.code, 1);
  t.is(result.stdout, 'ddbgen lint: 1 error, 2 warnings, 0 info\n');
  t.is(
    result.stderr,
    [
      'fixtures/lint/seeds/election-votes.ts:10:66 - error HK002: Vote (table): partition key "Candidate#<candidateId>" takes only 2 distinct values (2 values of candidateId); 10,000 writes/s × 1/2 × 1 WCU per 1 KB write = 5,000 WCU/s on the hottest key (share 1/2: assumed uniform over 2 values of candidateId), 500% of a partition\'s 1,000 WCU/s',
      '    at VotesBad.entities.Vote.key.pk',
      '    fix: shard it: pk "Candidate#<candidateId>#<shard>" with shard: { count: 7 } (N = ceil(5,000 / (1,000 × 0.8)) = 7, on the key\'s whole load) (a calculated suffix: reads by key still need one request)',
      'fixtures/lint/seeds/election-votes.ts:8:15 - warning HK012: table VotesBad: declared peak 10,000 WRU/s is above the 4,000 WRU/s and 12,000 RRU/s it serves at once (its warm throughput); reaching it takes 2 doublings of 30 minutes (60 min) of throttling risk',
      '    at VotesBad.capacity',
      '    fix: pre-warm it to the peak before launch (warmThroughput: { read, write } on the table capacity, WarmThroughput in CreateTable), or ramp traffic up over 60 min',
      'fixtures/lint/seeds/election-votes.ts:12:15 - warning HK012: table VotesFixed: declared peak 10,000 WRU/s is above the 4,000 WRU/s and 12,000 RRU/s it serves at once (its warm throughput); reaching it takes 2 doublings of 30 minutes (60 min) of throttling risk',
      '    at VotesFixed.capacity',
      '    fix: pre-warm it to the peak before launch (warmThroughput: { read, write } on the table capacity, WarmThroughput in CreateTable), or ramp traffic up over 60 min',
      '',
    ].join('\n'),
  );
});

// [rule, fixture, table (0 fires, 2 low load), message, fix]
const pinned: Array<[string, string, number, string, string]> = [
  ["HK001", "hk001-constant-partition-key.ts", 0, "LogLine (table): partition key \"OPS_LOG\" has no placeholder, so every write goes to one key; 2,000 writes/s × 1 × 1 WCU per 1 KB write = 2,000 WCU/s on the hottest key (share 1: assumed uniform over a constant), 200% of a partition's 1,000 WCU/s", "shard it: pk \"OPS_LOG#<shard>\" with shard: { count: 3 } (N = ceil(2,000 / (1,000 × 0.8)) = 3, on the key's whole load) (a calculated suffix: reads by key still need one request)"],
  ["HK001", "hk001-constant-partition-key.ts", 2, "InvoiceCounter (table): partition key \"INVOICE_NUMBER\" has no placeholder, so every write goes to one key; 25 writes/s × 1 × 1 WCU per 1 KB write = 25 WCU/s and 25 reads/s × 1 × 0.5 RCU per 1 KB eventually consistent read = 12.5 RCU/s on the hottest key (share 1: assumed uniform over a constant), 2.5% of a partition's 1,000 WCU/s", "no change needed at the declared load; if one key nears 800 WCU/s, shard it: pk \"INVOICE_NUMBER#<shard>\" with shard: { count: N, random: true }, N = ceil(peak WCU on one key / (1,000 × 0.8)), at least 2"],
  ["HK002", "hk002-low-cardinality-partition-key.ts", 0, "Order (table): partition key \"STATUS#<status>\" takes only 3 distinct values (3 values of status); 6,000 writes/s × 1/3 × 1 WCU per 1 KB write = 2,000 WCU/s on the hottest key (share 1/3: assumed uniform over 3 values of status), 200% of a partition's 1,000 WCU/s", "shard it: pk \"STATUS#<status>#<shard>\" with shard: { count: 3 } (N = ceil(2,000 / (1,000 × 0.8)) = 3, on the key's whole load) (a calculated suffix: reads by key still need one request)"],
  ["HK002", "hk002-low-cardinality-partition-key.ts", 2, "FeatureFlag (table): partition key \"ENV#<env>\" takes only 3 distinct values (3 values of env); 0.3 writes/s × 1/3 × 1 WCU per 1 KB write = 0.1 WCU/s and 300 reads/s × 1/3 × 0.5 RCU per 1 KB eventually consistent read = 50 RCU/s on the hottest key (share 1/3: assumed uniform over 3 values of env), 1.7% of a partition's 3,000 RCU/s", "no change needed at the declared load; if one key nears 800 WCU/s, shard it: pk \"ENV#<env>#<shard>\" with shard: { count: N }, N = ceil(peak WCU on one key / (1,000 × 0.8)), at least 2"],
  ["HK003", "hk003-time-bucket-partition-key.ts", 0, "Event (table): partition key \"DAY#<at:day>\" is a time bucket (at:day) without a shard: every write in a period goes to one key; 2,000 writes/s × 1 × 1 WCU per 1 KB write = 2,000 WCU/s on the hottest key (share 1: assumed uniform over 1 active day of at), 200% of a partition's 1,000 WCU/s", "shard it: pk \"DAY#<at:day>#<shard>\" with shard: { count: 3 } (N = ceil(2,000 / (1,000 × 0.8)) = 3, on the key's whole load) (a calculated suffix: reads by key still need one request)"],
  ["HK003", "hk003-time-bucket-partition-key.ts", 2, "Event (table): partition key \"DAY#<at:day>\" is a time bucket (at:day) without a shard: every write in a period goes to one key; 5 writes/s × 1 × 1 WCU per 1 KB write = 5 WCU/s on the hottest key (share 1: assumed uniform over 1 active day of at), 0.5% of a partition's 1,000 WCU/s", "no change needed at the declared load; if one key nears 800 WCU/s, shard it: pk \"DAY#<at:day>#<shard>\" with shard: { count: N }, N = ceil(peak WCU on one key / (1,000 × 0.8)), at least 2"],
  ["HK004", "hk004-single-item-write-hotspot.ts", 0, "Counter \"COUNTER#<name> / TOTAL\": one item takes 2,000 writes/s × 0.9 × 1 WCU per 1 KB write = 1,800 WCU/s on the hottest key (share 0.9: declared hotKeyShare), 180% of a partition's 1,000 WCU/s; a single item cannot exceed 1,000 WCU/s, even after adaptive capacity isolates it", "shard it: pk \"COUNTER#<name>#<shard>\" with shard: { count: 3, random: true } (N = ceil(1,800 / (1,000 × 0.8)) = 3, on the key's whole load) (each write picks a shard; reads gather all of them, e.g. sum counters); or buffer writes through a queue or stream and apply them in batches"],
  ["HK005", "hk005-single-item-read-hotspot.ts", 0, "Config \"CONFIG#<name> / CURRENT\": one item takes 10,000 reads/s × 1 × 0.5 RCU per 4 KB eventually consistent read = 5,000 RCU/s on the hottest key (share 1: assumed uniform over 1 value of name), 167% of a partition's 3,000 RCU/s; a single item cannot exceed 3,000 RCU/s", "cache it (DAX or an application cache): a hit rate of at least 52% keeps the key under 2,400 RCU/s; or replicate it under N = ceil(5,000 / (3,000 × 0.8)) = 3 keys read at random (each write updates all 3); eventually consistent reads cost half"],
  ["HK005", "hk005-single-item-read-hotspot.ts", 3, "Config \"CONFIG#<name> / CURRENT\": one item takes 5,000 reads/s × 1 × 1 RCU per 4 KB strongly consistent read = 5,000 RCU/s on the hottest key (share 1: assumed uniform over 1 value of name), 167% of a partition's 3,000 RCU/s; a single item cannot exceed 3,000 RCU/s", "replicate it under N = ceil(5,000 / (3,000 × 0.8)) = 3 keys read at random, each write updating all 3 in one transaction so a strongly consistent read of any one sees every committed write; or read it eventually consistent where the design allows (half the units, and then a cache can serve it): DAX passes strongly consistent reads through to DynamoDB uncached, and an application cache gives up the consistency these reads ask for"],
  ["HK006", "hk006-monotonic-hot-collection.ts", 0, "Reading (table): its sort key \"<at>#<readingId>\" starts with a timestamp, so writes always go to the end of the collection, so split-for-heat cannot spread its hottest collection: 5,000 writes/s × 0.5 × 1 WCU per 1 KB write = 2,500 WCU/s on the hottest key (share 0.5: declared hotKeyShare), 250% of a partition's 1,000 WCU/s", "shard it: pk \"SENSOR#<sensorId>#<shard>\" with shard: { count: 4 } (N = ceil(2,500 / (1,000 × 0.8)) = 4, on the key's whole load) (a calculated suffix: reads by key still need one request)"],
  ["HK007", "hk007-declared-skew.ts", 0, "Post (table): the declared skew puts 10 writes/s × 0.2 × 1 WCU per 1 KB write = 2 WCU/s and 60,000 reads/s × 0.2 × 0.5 RCU per 1 KB eventually consistent read = 6,000 RCU/s on the hottest key (share 0.2: declared hotKeyShare), 200% of a partition's 3,000 RCU/s", "cache it (DAX or an application cache): a hit rate of at least 60% keeps the key under 2,400 RCU/s; or replicate it under N = ceil(6,000 / (3,000 × 0.8)) = 3 keys read at random (each write updates all 3); eventually consistent reads cost half"],
  ["HK008", "hk008-gsi-back-pressure.ts", 0, "Order in GSI byStatus: its partition key \"STATUS#<status>\" takes only 4 distinct values (4 values of status); no traffic is declared, so its load is unknown; a throttled GSI throttles writes to the base table too", "declare traffic (writesPerSecond, readsPerSecond, itemBytes, hotKeyShare) to size it; for write heat shard it: pk \"STATUS#<status>#<shard>\" with shard: { count: N }, N = ceil(peak WCU on one key / (1,000 × 0.8)), at least 2; or make the index sparse (optional attributes) so only the items you query are written to it"],
  ["HK009", "hk009-gsi-write-amplification.ts", 0, "Doc in GSI byCategory: updatedAt (timestamp) is in the index key, so each change costs two index writes (delete + insert)", "keep frequently changing attributes out of index keys, or accept the cost where the index is sparse and changes are rare"],
  ["HK010", "hk010-lsi-collection-size.ts", 0, "Message (LSI byTime): an item collection can reach 19.6 GB (10,000,000 items × (2,000 B + 100 B of LSI projections)), above the 10 GB an LSI allows (ItemCollectionSizeLimitExceededException)", "use a GSI instead of the LSI, bound the collection (TTL or archiving), or project less into the LSI"],
  ["HK011", "hk011-item-size.ts", 3, "Group: items are 435.6 KB (largest size the bounded attributes allow; \"groupId\" has no declared bound and is counted as empty, so items can be larger still), above the 400 KB DynamoDB allows per item", "move \"memberIds\" into a child entity under the same partition key (one item per element, e.g. sk \"Group#memberIds#<n>\"), read with one query; or keep blobs in S3 and store their keys"],
  ["HK011", "hk011-item-size.ts", 4, "Group: items are 435.6 KB (the largest size the attribute declarations allow; the declared itemBytes, 6,000 B, is the average, which decides what items cost, not whether the largest can be written), above the 400 KB DynamoDB allows per item", "move \"memberIds\" into a child entity under the same partition key (one item per element, e.g. sk \"Group#memberIds#<n>\"), read with one query; or keep blobs in S3 and store their keys"],
  ["HK011", "hk011-item-size.ts", 0, "Series: items are 431.8 KB (largest size the attribute declarations allow), above the 400 KB DynamoDB allows per item", "move \"readings\" into a child entity under the same partition key (one item per element, e.g. sk \"Series#readings#<n>\"), read with one query; or keep blobs in S3 and store their keys"],
  ["HK012", "hk012-on-demand-ramp.ts", 0, "table Hk012Fires: declared peak 10,000 WRU/s is above the 4,000 WRU/s and 12,000 RRU/s it serves at once (its warm throughput); reaching it takes 2 doublings of 30 minutes (60 min) of throttling risk", "pre-warm it to the peak before launch (warmThroughput: { read, write } on the table capacity, WarmThroughput in CreateTable), or ramp traffic up over 60 min"],
  ["HK013", "hk013-table-quota.ts", 0, "declared 50,000 write units/s for the table and its GSIs is above the default quota of 40,000 per table", "request a quota increase for the table before launch (Service Quotas), or spread the load over tables"],
  ["HK014", "hk014-write-contention.ts", 0, "Settings (100 writes/s × 1/2: assumed uniform over 2 values of tenant): 50 conditional (versioned) writes per second on one item will conflict; each loser retries and pays again", "take the shared item out of the hot path: keep per-writer items and aggregate them, or update it with an unconditional ADD"],
  ["HK015", "hk015-shard-fan-out.ts", 0, "Tick (table): 200 shards, and every read gathers all shards (random suffix): each gathered read issues 200 queries (100 gathered reads/s × 200 = 20,000 queries/s)", "use fewer shards (N = ceil(peak WCU on one key / (1,000 × 0.8)) is enough), a calculated suffix (shard.by) so reads that know the item target one shard, or keep an aggregate item for the common read"],
  ["HK016", "hk016-pii-in-key.ts", 0, "User key.pk: key template contains \"email\", which is marked pii; keys appear in metrics (Contributor Insights), logs and cursors", "key on a surrogate id, or on a keyed hash of \"email\", and keep the value itself in a non-key attribute"],
  ["HK017", "hk017-under-sharded-key.ts", 0, "Reading (table): sharded key \"DEVICE#<deviceId>#<at:day>#<shard>\" is still too hot: 12,000 writes/s × 1 × 2 WCU per 2 KB write = 24,000 WCU/s on the hottest key (share 1: declared hotKeyShare); over 20 shards calculated from readingId: 1,200 WCU/s per shard, 120% of a partition's 1,000 WCU/s", "shard it: pk \"DEVICE#<deviceId>#<at:day>#<shard>\" with shard: { count: 30 } in total, replacing the current 20 (N = ceil(24,000 / (1,000 × 0.8)) = 30, on the key's whole load) (a calculated suffix: reads by key still need one request)"],
  ["HK018", "hk018-provisioned-capacity.ts", 0, "GSI byCustomer: declared peak 2,000 WCU/s against 500 provisioned (400%)", "provision indexes.byCustomer capacity { write: 2500 } (the peak / 0.8), or use on-demand capacity"],
  ["HK019", "hk019-shared-partition-read-cost.ts", 0, "Article (table): queries on Article (sort key \"<position>#<sequenceId>\") also read the Category items of the same partition (sort key \"0#<sequenceId>\" falls in their range): they are not returned, but DynamoDB reads and bills them: 200 Category items × 2 KB = 400 KB per partition, 50 extra RCU per query (eventually consistent: 1 RCU per 8 KB), 5,000 RCU/s at 100 queries/s; Article's own items are 50 KB per partition", "start Article's sort key with a literal of its own (e.g. \"Article#…\") so its queries read only its items, or keep its queries to a range (where) that Category's keys sort outside of"],
  ["HK019", "hk019-shared-partition-read-cost.ts", 2, "Article (table): queries on Article (sort key \"<position>#<sequenceId>\") also read the Category items of the same partition (sort key \"0#<sequenceId>\" falls in their range): they are not returned, but DynamoDB reads and bills them: 1 Category item × 200 B = 200 B per partition, 0.024 extra RCU per query (eventually consistent: 1 RCU per 8 KB), 2.4 RCU/s at 100 queries/s; Article's own items are 50 KB per partition", "start Article's sort key with a literal of its own (e.g. \"Article#…\") so its queries read only its items, or keep its queries to a range (where) that Category's keys sort outside of"],
  ["HK022", "hk022-on-demand-maximum.ts", 0, "table Hk022Fires: declared peak 2,000 WRU/s against an on-demand maximum of 1,000 (200%); requests beyond it throttle with ThrottlingException", "raise onDemandMax to { writeRequestUnits: 2500 } (the peak / 0.8), or remove the maximum"],
  ["HK023", "hk023-ttl-attribute.ts", 0, "Session byExpiry key \"<expiresAt>#<id>\": it holds the ttl attribute \"expiresAt\": every change of the expiry rewrites the index entry (a delete and a put)", "key on something that does not change, and keep \"expiresAt\" out of key templates; query by expiry through a filter, or a sparse index keyed by a bucket of it only when you must"],
  ["HK023", "hk023-ttl-attribute.ts", 2, "table Hk023LowLoad: the ttl attribute \"expiresAt\" is optional on every entity that declares it (Invite), so no entity sets it on every item: only items whose writer gives an expiry ever expire", "make \"expiresAt\" required on the entities whose items must all expire (e.g. sessions), or leave it optional where expiry is the exception"],
  ["HK024", "hk024-unescaped-key-values.ts", 0, "User key.pk \"USER#<name>\": its values are written unescaped (keyFormat: { escape: false }), so a value of name holding \"#\" cannot be told apart from the next part: such a write is refused (KEY_PART_DELIMITER), where ddbgen's codec would escape it", "keep name free of \"#\" (ids, slugs), or move to ddbgen's codec: drop escape: false, and ddbgen diff OLD NEW --emit-migration DIR writes the migration that rewrites the keys"],
  ["HK024", "hk024-unescaped-key-values.ts", 2, "Invoice key.pk \"INVOICE#<number>\": its values are written unescaped (keyFormat: { escape: false }); they are numbers, timestamps, booleans or enum values, which never hold the delimiter", "nothing to do while keys hold no free text"],
  ["HK025", "hk025-plain-integer-key.ts", 0, "Order key.sk \"ORDER#<orderNo>\": \"orderNo\" is an integer written without padding (keyFormat: { integers: 'plain' }), so the sort key orders it as text (10 before 9): queries return such items out of numeric order, and range conditions (between, gt, gte, lt, lte) on it are refused at run time, which pattern \"laterOrders\" (op gt) needs", "make pattern \"laterOrders\" an eq, or move to ddbgen's codec (integers: 'padded' with min and max on \"orderNo\"; ddbgen diff OLD NEW --emit-migration DIR rewrites the keys)"],
  ["HK025", "hk025-plain-integer-key.ts", 3, "Vehicle key.sk \"VEHICLE#<fleetNo>#<tripNo>\": \"fleetNo\" is an integer written without padding (t.number({ keyFormat: 'plain' })), so the sort key orders it as text (10 before 9): queries return such items out of numeric order, and range conditions (between, gt, gte, lt, lte) on it are refused at run time", "read such items with eq, or move to ddbgen's codec: keyFormat: 'padded' with min and max on \"fleetNo\", and ddbgen diff OLD NEW --emit-migration DIR rewrites the keys"],
  ["HK026", "hk026-folded-key-case.ts", 0, "User key.pk \"$app#user_<userId>\": its values are written lower-cased (keyFormat: { casing: 'lower' }), so values of userId that differ only in case (\"Ab\", \"aB\") share one key and overwrite each other, and a key parses back to the lower-cased value (items keep theirs)", "treat userId as case-insensitive ids (normalise them before writing), or move to ddbgen's codec: drop casing, and ddbgen diff OLD NEW --emit-migration DIR rewrites the keys"],
];
for (const [rule, file, table, message, fix] of pinned) {
  test(`${rule} message and fix are pinned (${['fires', 'near miss', 'low load', 'a second case', 'a third case'][table]})`, async (t) => {
    const tables = [...(await lintFile(path.join(lintDir, file))).values()];
    const found = tables[table]!.find((d) => d.code === rule);
    t.is(found?.message, message);
    t.is(found?.fix, fix);
  });
}

test('HK024 fires once per key template, naming only that template\'s own attributes', async (t) => {
  const tables = [...(await lintFile(path.join(lintDir, 'hk024-unescaped-key-values.ts'))).values()];
  t.deepEqual(tables[0]!.filter((d) => d.code === 'HK024').map((d) => [d.target, d.message.replace(/: its values .* a value of (.*) holding .*$/, ': $1')]), [
    ['Hk024Fires.entities.User.key.pk', 'User key.pk "USER#<name>": name'],
    ['Hk024Fires.entities.User.indexes.byEmail.pk', 'User indexes.byEmail.pk "EMAIL#<email>": email'],
  ]);
});

/** A table with a finding's schema change applied: the key (or index mapping) gets the new pk and shard. */
function applyChange(table: TableDef, change: ShardChange): TableDef {
  const [, entityName, where, indexName] = change.target;
  const entity = table.entities[entityName!]!;
  const shard = { kind: 'shard' as const, count: change.shard.count, ...(change.shard.random ? { random: true } : {}) };
  const pk = parseTemplate(change.pk, table.delimiter);
  const next: EntityDef =
    where === 'key'
      ? { ...entity, key: { ...entity.key, pk, shard } satisfies KeyDef }
      : { ...entity, indexes: { ...entity.indexes, [indexName!]: { ...entity.indexes[indexName!]!, pk, shard } satisfies IndexMappingDef } };
  return { ...table, entities: { ...table.entities, [entityName!]: next } };
}

/** Every finding that carries a schema change: applied, the schema validates and that rule no longer fires there. */
function checkChanges(t: import('ava').ExecutionContext, table: TableDef): number {
  let checked = 0;
  const context = { table, spaces: keySpaces(table) };
  for (const rule of rules) {
    for (const finding of rule.check(context)) {
      if (!finding.change || finding.severity === 'info') continue;
      checked++;
      const fixed = applyChange(table, finding.change);
      t.deepEqual(validateTable(fixed).filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`), [], `${rule.id} fix of ${table.name}: ${finding.fix}`);
      const again = rule.check({ table: fixed, spaces: keySpaces(fixed) }).filter((f) => f.entity === finding.entity && f.severity !== 'info');
      t.deepEqual(again.map((f) => f.message), [], `${rule.id} still fires on ${table.name} after: ${finding.fix}`);
    }
  }
  return checked;
}

test('every suggested schema change over the rule fixtures and seeds validates and silences its rule', async (t) => {
  const files = [...readdirSync(lintDir).filter((f) => f.endsWith('.ts')), ...readdirSync(path.join(lintDir, 'seeds')).map((f) => `seeds/${f}`)];
  let checked = 0;
  for (const file of files) {
    const { tables } = await loadSchemas([path.join(lintDir, file)], root);
    for (const { table } of tables) checked += checkChanges(t, table);
  }
  t.true(checked >= 15, `only ${checked} schema changes were checked`);
});

test('property: for any hot low-cardinality, time-bucket or under-sharded key, on the table or a GSI, the suggested total shard count validates and silences the rule', (t) => {
  fc.assert(
    fc.property(
      fc.record({
        writes: fc.integer({ min: 1, max: 200_000 }),
        itemBytes: fc.integer({ min: 100, max: 20_000 }),
        values: fc.integer({ min: 1, max: 99 }),
        shards: fc.option(fc.integer({ min: 2, max: 50 }), { nil: undefined }),
        bucket: fc.boolean(),
        single: fc.boolean(),
        onGsi: fc.boolean(),
      }),
      ({ writes, itemBytes, values, shards, bucket, single, onGsi }) => {
        const attributes = { kind: types.string({ cardinality: values }), at: types.timestamp(), id: types.string() };
        const pk = `${bucket ? 'DAY#<at:day>' : 'KIND#<kind>'}${shards ? '#<shard>' : ''}`;
        const shard = shards ? { shard: { count: shards, ...(single ? { random: true } : {}) } } : {};
        const traffic = { writesPerSecond: writes, itemBytes };
        const table = onGsi
          ? defineTable({
              name: 'PropGsi',
              indexes: { byHot: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) },
              entities: { Item: entity({ attributes, key: { pk: 'ITEM#<id>', sk: 'V' }, indexes: { byHot: { pk, sk: single ? 'V' : '<id>', ...shard } }, traffic }) },
            })
          : defineTable({ name: 'Prop', entities: { Item: entity({ attributes, key: { pk, sk: single ? 'V' : '<id>', ...shard }, traffic }) } });
        checkChanges(t, table);
      },
    ),
    { numRuns: 200 },
  );
});

test('hotKeyShare is per key space: a viral post\'s share does not heat the GSI keyed by the liker', (t) => {
  const attributes = { postId: types.string(), likerId: types.string() };
  const table = (hotKeyShare: number | Record<string, number>) =>
    defineTable({
      name: 'Likes',
      capacity: { mode: 'on-demand', warmThroughput: { read: 12000, write: 10000 } },
      indexes: { byLiker: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', warmThroughput: { read: 12000, write: 10000 } }) },
      entities: {
        Like: entity({
          attributes,
          key: { pk: 'POST#<postId>', sk: 'LIKER#<likerId>' },
          indexes: { byLiker: { pk: 'LIKER#<likerId>', sk: 'POST#<postId>' } },
          traffic: { writesPerSecond: 10000, hotKeyShare },
        }),
      },
    });
  const codes = (x: TableDef) => lintTable(x).map((d) => `${d.severity} ${d.code} ${d.target}`);
  t.deepEqual(codes(table(0.05)), []);
  t.deepEqual(codes(table({ table: 0.05, byLiker: 0.2 })), ['error HK008 Likes.entities.Like.indexes.byLiker.pk']);
  t.deepEqual(codes(table(0.2)), ['error HK007 Likes.entities.Like.traffic.hotKeyShare']);
  t.regex(lintTable(table({ table: 0.05, byLiker: 0.2 }))[0]!.message, /^Like in GSI byLiker: its hottest key comes near or above a partition's writes; 10,000 writes\/s × 0.2 × 1 WCU per 1 KB projected write = 2,000 WCU\/s on the hottest key \(share 0.2: declared hotKeyShare.byLiker\)/);
});

test('edge sides are key spaces: a popular target\'s share of fan writes (two items per relationship, in a transaction) is checked on the inverse side', (t) => {
  const user = entity({ attributes: { id: types.string() }, key: { pk: 'User#<id>', sk: 'PROFILE' } });
  const actor = entity({ attributes: { id: types.string() }, key: { pk: 'Actor#<id>', sk: 'PROFILE' } });
  const base = defineTable({ name: 'Fans', entities: { User: user, Actor: actor }, edges: { Fan: edge({ types: ['User', 'Actor'], forward: 'FAN_OF', inverse: 'FANNED_BY' }) } });
  // Edge traffic is declared in the DSL by edge({ traffic }); here it is set on the IR directly.
  const withTraffic = (hotKeyShare: number | Record<string, number>): TableDef => ({
    ...base,
    edges: { Fan: { ...base.edges.Fan!, traffic: { kind: 'traffic', writesPerSecond: 3000, hotKeyShare } } },
  });
  const found = (x: TableDef) => lintTable(x).filter((d) => d.code.startsWith('HK00')).map((d) => `${d.severity} ${d.code} ${d.target}: ${d.message}`);
  t.deepEqual(found(withTraffic({ forward: 0.001, inverse: 0.2 })), [
    "error HK007 Fans.edges.Fan.traffic.hotKeyShare: edge Fan, FANNED_BY side: the declared skew puts 3,000 writes/s × 0.2 × 2 WCU per 1 KB write in a transaction = 1,200 WCU/s on the hottest key (share 0.2: declared hotKeyShare.inverse), 120% of a partition's 1,000 WCU/s",
  ]);
  t.deepEqual(found(withTraffic({ inverse: 0.1 })), []);
  t.deepEqual(planTable(withTraffic(0.2)).spaces.filter((s) => s.entity === 'Fan').map((s) => [s.partitionKey, s.writeUnits, s.hottestKey.writeUnits]), [
    ['edge Fan, FAN_OF side', 6000, 1200],
    ['edge Fan, FANNED_BY side', 6000, 1200],
  ]);
});

test('HK017 checks every key with <shard>: a GSI\'s random suffix, and a suffix calculated from what the key fixes', (t) => {
  const attributes = { id: types.string(), kind: types.enum(['A', 'B', 'C', 'D']), at: types.timestamp() };
  const gsiRandom = defineTable({
    name: 'Gsi',
    capacity: { mode: 'on-demand', warmThroughput: { read: 12000, write: 20000 } },
    indexes: { byDay: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', warmThroughput: { read: 12000, write: 20000 } }) },
    entities: { E: entity({ attributes, key: { pk: 'E#<id>', sk: 'E' }, indexes: { byDay: { pk: 'DAY#<at:day>#<shard>', sk: '<at>', shard: { count: 10, random: true } } }, traffic: { writesPerSecond: 12000 } }) },
  });
  const fixedBy = defineTable({
    name: 'Fixed',
    entities: { E: entity({ attributes, key: { pk: 'KIND#<kind>#<shard>', sk: '<at>#<id>', shard: { count: 8, by: 'kind' } }, traffic: { writesPerSecond: 6000 } }) },
  });
  const hk017 = (x: TableDef) => lintTable(x).filter((d) => d.code === 'HK017').map((d) => `${d.severity} ${d.target}: ${d.message} | ${d.fix}`);
  t.deepEqual(hk017(gsiRandom), [
    'error Gsi.entities.E.indexes.byDay.shard: E in GSI byDay: sharded key "DAY#<at:day>#<shard>" is still too hot: 12,000 writes/s × 1 × 1 WCU per 1 KB projected write = 12,000 WCU/s on the hottest key (share 1: assumed uniform over 1 active day of at); over 10 random shards: 1,200 WCU/s per shard, 120% of a partition\'s 1,000 WCU/s; a throttled GSI throttles writes to the base table too | shard it: pk "DAY#<at:day>#<shard>" with shard: { count: 15, random: true } in total, replacing the current 10 (N = ceil(12,000 / (1,000 × 0.8)) = 15, on the key\'s whole load) (each write picks a shard; reads gather all of them, e.g. sum counters)',
  ]);
  t.deepEqual(hk017(fixedBy), [
    'error Fixed.entities.E.key.shard: E (table): sharded key "KIND#<kind>#<shard>" is still too hot: 6,000 writes/s × 1/4 × 1 WCU per 1 KB write = 1,500 WCU/s on the hottest key (share 1/4: assumed uniform over 4 values of kind); over 8 shards calculated from kind, which the key fixes, so each key\'s items share one shard: 1,500 WCU/s per shard, 150% of a partition\'s 1,000 WCU/s | shard it: pk "KIND#<kind>#<shard>" with shard: { count: 2 } in total, replacing the current 8, without by (kind spreads one key over only 1 shard) (N = ceil(1,500 / (1,000 × 0.8)) = 2, on the key\'s whole load) (a calculated suffix: reads by key still need one request)',
  ]);
  t.is(checkChanges(t, gsiRandom) + checkChanges(t, fixedBy), 4, 'HK017 and HK006 (timestamp-first sort keys) each offer the fix; all are applied, validated and linted again');
});

test('HK012 compares the table and each GSI with its own warm throughput (each ramps on its own)', (t) => {
  const table = (write: number) =>
    defineTable({
      name: 'Ramp',
      indexes: { byOwner: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) },
      entities: { Doc: entity({ attributes: { id: types.string(), owner: types.string() }, key: { pk: 'DOC#<id>', sk: 'V' }, indexes: { byOwner: { pk: 'OWNER#<owner>', sk: '<id>' } }, traffic: { writesPerSecond: write } }) },
    });
  t.deepEqual(lintTable(table(3000)).map((d) => d.code), [], 'table 3,000 + GSI 3,000 WRU/s: each within 4,000');
  t.deepEqual(lintTable(table(5000)).map((d) => `${d.code} ${d.target}`), ['HK012 Ramp.capacity', 'HK012 Ramp.indexes.byOwner']);
});

test('HK015: a calculated suffix lets readers target one shard; only gathered queries count', (t) => {
  const table = (shard: { count: number; by?: 'id'; random?: boolean }, patternReads?: number) =>
    defineTable({
      name: 'Fan',
      entities: { Tick: entity({ attributes: { id: types.string(), at: types.timestamp() }, key: { pk: 'TICKS#<shard>', sk: '<at>#<id>', shard }, traffic: { readsPerSecond: 1000 } }) },
      ...(patternReads === undefined ? {} : { patterns: { recent: { entity: 'Tick', readsPerSecond: patternReads } } }),
    });
  const hk015 = (x: TableDef) => lintTable(x).filter((d) => d.code === 'HK015').map((d) => d.message);
  t.deepEqual(hk015(table({ count: 150, by: 'id' })), []);
  t.deepEqual(hk015(table({ count: 150, random: true })), ['Tick (table): 150 shards, and every read gathers all shards (random suffix): each gathered read issues 150 queries (1,000 gathered reads/s × 150 = 150,000 queries/s)']);
  t.deepEqual(hk015(table({ count: 50, by: 'id' }, 300)), ['Tick (table): 50 shards, and queries over the key gather every shard (reads by key target one): each gathered read issues 50 queries (300 gathered reads/s × 50 = 15,000 queries/s)']);
});

test('JSON output has the documented shape and validates against its schema', async (t) => {
  const result = await run(['lint', 'fixtures/lint/seeds/time-series-gsi.ts', '--format', 'json']);
  t.is(result.code, 1);
  const json = JSON.parse(result.stdout);
  const ajv = new Ajv({ allErrors: true });
  const schema = JSON.parse(readFileSync(path.join(root, 'generator/lint/lint-output.schema.json'), 'utf8'));
  t.true(ajv.validate(schema, json), ajv.errorsText());
  t.deepEqual(json.summary, { errors: 2, warnings: 2, infos: 2 });
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
  t.deepEqual(codes(defineTable({ name: 'App', entities: { E: entityFor() } })), ['warn HK003']);
  t.deepEqual(codes(defineTable({ name: 'App', entities: { E: entityFor() }, lint: { HK003: 'off' } })), []);
  t.deepEqual(codes(defineTable({ name: 'App', entities: { E: entityFor({ HK003: 'info' }) }, lint: { HK003: 'off' } })), ['info HK003']);
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

test('traffic, capacity and lint settings are validated with locations', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-traffic-'));
  const file = path.join(dir, 'schema.ts');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(
    file,
    [
      "import { defineTable, entity, gsi, t } from 'ddbgen';",
      'export default defineTable({',
      "  name: 'App',",
      "  indexes: { byX: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', capacity: { read: 5, write: 5 }, warmThroughput: { read: -1, write: 4000 } }) },",
      '  entities: {',
      '    E: entity({',
      '      attributes: { id: t.string(), x: t.string(), tags: t.list(t.string(), { maxItems: 0 }) },',
      "      key: { pk: 'E#<id>', sk: 'E' },",
      "      indexes: { byX: { pk: 'X#<x>', sk: '<id>' } },",
      '      // @ts-ignore',
      "      traffic: { writesPerSecond: -5, hotKeyShare: { table: 1.5, byY: 0.1 }, consistent: 'yes' },",
      '    }),',
      '  },',
      '  // @ts-ignore',
      "  patterns: { xs: { entity: 'E', index: 'byX', consistent: true, transactional: 1 } },",
      '  // @ts-ignore',
      "  lint: { HK999: 'off', HK001: 'loud' },",
      '});',
      '',
    ].join('\n'),
  );
  const result = await run(['lint', 'schema.ts'], dir);
  t.is(result.code, 1);
  const lines = result.stderr.split('\n').filter((l) => l.startsWith('schema.ts'));
  t.deepEqual(lines, [
    'schema.ts:11:18 - error DDB080: traffic writesPerSecond is -5',
    'schema.ts:11:54 - error DDB080: traffic hotKeyShare.table is 1.5, above 1',
    'schema.ts:11:66 - error DDB190: traffic.hotKeyShare names "byY", which is not a key space of E',
    'schema.ts:11:90 - error DDB191: consistent is "yes", not true or false',
    'schema.ts:7:52 - error DDB193: list "tags" has maxItems 0',
    'schema.ts:15:66 - error DDB191: transactional is 1, not true or false',
    'schema.ts:15:48 - error DDB192: pattern "xs" asks for strongly consistent reads on GSI "byX", which serves only eventually consistent reads',
    'schema.ts:4:53 - error DDB194: GSI "byX" declares capacity, but the table is on-demand',
    'schema.ts:17:18 - error DDB081: lint names rule "HK999", which does not exist',
    'schema.ts:17:32 - error DDB081: lint severity "loud" for HK001 is not a severity',
    'schema.ts:4:104 - error DDB253: indexes.byX.warmThroughput.read is -1',
  ]);
});

test('HK019 given/want: the extra read cost of another entity\'s items in a query\'s range; disjoint prefixes, other partitions and GSIs say what they should', (t) => {
  const shared = (readerSk: string, otherSk: string, extra: { consistent?: boolean; otherItems?: number; pk?: string; gsi?: boolean } = {}) =>
    defineTable({
      name: 'Seq',
      ...(extra.gsi ? { indexes: { byOwner: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) } } : {}),
      entities: {
        Meta: entity({
          attributes: { userId: types.string(), seq: types.string() },
          key: extra.gsi ? { pk: 'Meta#<seq>', sk: 'META' } : { pk: (extra.pk ?? 'User#<userId>') as 'User#<userId>', sk: otherSk as '0#<seq>' },
          ...(extra.gsi ? { indexes: { byOwner: { pk: 'Owner#<userId>', sk: otherSk as '0#<seq>' } } } : {}),
          traffic: { ...(extra.otherItems === undefined ? {} : { itemsPerKey: extra.otherItems }), itemBytes: 4096 },
        }),
        Item: entity({
          attributes: { userId: types.string(), position: types.number({ min: 0, max: 999, integer: true }), seq: types.string() },
          key: extra.gsi ? { pk: 'Item#<seq>#<position>', sk: 'ITEM' } : { pk: 'User#<userId>', sk: readerSk as '<position>#<seq>' },
          ...(extra.gsi ? { indexes: { byOwner: { pk: 'Owner#<userId>', sk: readerSk as '<position>#<seq>' } } } : {}),
          traffic: { itemsPerKey: 10, itemBytes: 1024, ...(extra.consistent ? { consistent: true } : {}) },
        }),
      },
    });
  const hk019 = (x: TableDef) => lintTable(x).filter((d) => d.code === 'HK019').map((d) => `${d.severity} ${d.target}: ${d.message.split('bills them: ')[1]}`);
  const cases: Array<[string, TableDef, string[]]> = [
    ['the sequence: item queries read the metadata, not the other way round', shared('<position>#<seq>', '0#<seq>', { otherItems: 5 }), [
      'warn Seq.entities.Item.key.sk: 5 Meta items × 4 KB = 20 KB per partition, 2.5 extra RCU per query (eventually consistent: 1 RCU per 8 KB); Item\'s own items are 10 KB per partition',
    ]],
    ['strongly consistent reads pay twice', shared('<position>#<seq>', '0#<seq>', { otherItems: 1, consistent: true }), [
      'info Seq.entities.Item.key.sk: 1 Meta item × 4 KB = 4 KB per partition, 1 extra RCU per query (strongly consistent: 1 RCU per 4 KB); Item\'s own items are 10 KB per partition',
    ]],
    ['no itemsPerKey declared: a lower bound of one item, said so', shared('<position>#<seq>', '0#<seq>'), [
      'info Seq.entities.Item.key.sk: at least 1 Meta item (itemsPerKey not declared) × 4 KB = 4 KB per partition, 0.5 extra RCU per query (eventually consistent: 1 RCU per 8 KB); Item\'s own items are 10 KB per partition',
    ]],
    ['literal prefixes keep the ranges apart: nothing', shared('Item#<position>#<seq>', 'Meta#<seq>', { otherItems: 5 }), []],
    ['a shared literal prefix overlaps both ways', shared('S#<position>#<seq>', 'S#<seq>', { otherItems: 5 }), [
      'info Seq.entities.Meta.key.sk: 10 Item items × 1 KB = 10 KB per partition, 1.3 extra RCU per query (eventually consistent: 1 RCU per 8 KB); Meta\'s own items are 20 KB per partition',
      'warn Seq.entities.Item.key.sk: 5 Meta items × 4 KB = 20 KB per partition, 2.5 extra RCU per query (eventually consistent: 1 RCU per 8 KB); Item\'s own items are 10 KB per partition',
    ]],
    ['another partition: nothing', shared('<position>#<seq>', '0#<seq>', { otherItems: 5, pk: 'Meta#<userId>' }), []],
    ['an overloaded GSI partition: the same cost there', shared('<position>#<seq>', '0#<seq>', { otherItems: 5, gsi: true }), [
      'warn Seq.entities.Item.indexes.byOwner.sk: 5 Meta items × 4 KB = 20 KB per partition, 2.5 extra RCU per query (eventually consistent: 1 RCU per 8 KB); Item\'s own items are 10 KB per partition',
    ]],
  ];
  for (const [name, def, want] of cases) t.deepEqual(hk019(def), want, name);
});
