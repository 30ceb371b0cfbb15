// `ddbgen lint --observed` and `ddbgen report --observed` on observed traffic as the generated code
// reports it: EMF lines from its EmfWriter and an OTLP JSON export (serialized by OpenTelemetry's
// own OTLP serializer) of a run on the in-memory table, and a Contributor Insights report. Each
// rule (HK101 rate, HK102 hot key, HK103 GSI write cost) is shown with its arithmetic and the
// traffic to declare; the lint runs again on the observed rates; bad files are refused with the
// file, the place and a fix.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { main } from '../generator/cli/cli.js';
import { readObserved } from '../generator/lint/observed-input.js';
import { createSocialInMemory } from '../out/social/in-memory.js';
import { EmfWriter, openTelemetry, SocialTable } from '../out/social/index.js';
import { otelHarness } from './support/otel.js';

const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, 'out', 'test-lint-observed');
mkdirSync(dir, { recursive: true });
const file = (name: string, text: string) => {
  const full = path.join(dir, name);
  writeFileSync(full, text);
  return path.relative(root, full);
};

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { cwd: root, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

/** Social with recentArticles declared at `rate` reads/s: the schema the traffic is held against. */
function socialDeclaring(rate: number): string {
  const text = readFileSync(path.join(root, 'fixtures', 'social.ts'), 'utf8').replace("op: 'between', order: 'desc', readsPerSecond: 200 }", `op: 'between', order: 'desc', readsPerSecond: ${rate} }`);
  if (!text.includes(`readsPerSecond: ${rate} }`)) throw new Error('fixtures/social.ts changed: the recentArticles declaration was not found');
  return file(`social-${rate}.ts`, text);
}

/** A run on the in-memory table with telemetry on: EMF lines (over a 100 ms window of the writer's clock) and an OTLP export. */
async function recordedRun() {
  let now = Date.UTC(2024, 0, 15, 9, 30);
  const lines: string[] = [];
  const emf = new EmfWriter({ write: (line) => lines.push(line), now: () => now });
  const otel = otelHarness();
  const memory = createSocialInMemory();
  const db = new SocialTable(memory as unknown as DynamoDBDocumentClient, { telemetry: openTelemetry(otel.api, { tracer: otel.tracer, meter: otel.meter, sinks: [emf] }) });
  for (let i = 0; i < 5; i++) await db.article.put({ userId: 'u1', articleId: `a${i}`, name: `n${i}`, updatedAt: new Date(Date.UTC(2024, 0, 1 + i)), views: i });
  for (let i = 0; i < 300; i++) await db.article.recentArticles({ userId: 'u1', updatedAt: [new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 1, 1))] });
  for (let i = 0; i < 20; i++) await db.user.get({ id: `u${i}` });
  now += 100;
  emf.flush();
  return { emf: `${lines.join('\n')}\n`, otlp: await otel.otlpJson() };
}

const recorded = recordedRun();

test('EMF: a pattern at ten times its declared rate is an error with the arithmetic and the rate to declare', async (t) => {
  const observed = file('run.emf', (await recorded).emf);
  const result = await run(['lint', 'fixtures/social.ts', '--observed', observed]);
  t.is(result.code, 1, result.stderr);
  t.regex(result.stderr, /fixtures\/social\.ts:103:5 - error HK101: pattern recentArticles \(Article\): observed 300 reads in 0\.1 s = 3,000\/s, 15× its declared readsPerSecond: 200 \(10× or more breaks the declaration\)\n {4}at Social\.patterns\.recentArticles\n {4}fix: declare readsPerSecond: 3000 on patterns\.recentArticles/);
  // the writes of Article, declared nowhere: info with the rate to declare
  t.regex(result.stderr, /info HK101: Article: observed 5 writes in 0\.1 s = 50\/s .* with no traffic\.writesPerSecond declared\n {4}at Social\.entities\.Article\.traffic\n {4}fix: declare traffic: \{ writesPerSecond: 50 \} on Article/);
  // the GSI byName wrote as much as the table (all projection, 1 unit each): not past it, so no HK103
  t.notRegex(result.stderr, /HK103/);
  // the figures side by side
  t.regex(result.stdout, /observed traffic of Social \(out\/test-lint-observed\/run\.emf, emf, 0\.1 s\):/);
  t.regex(result.stdout, /recentArticles +Article +200 +3,000 +reads/);
  t.regex(result.stdout, /User +table +1,000 +100 +50 +0 +0/);
  // the same run at its declared rate: no HK101 error
  const calm = await run(['lint', socialDeclaring(3000), '--observed', observed]);
  t.notRegex(calm.stderr, /error HK101/);
});

test('the lint again on the observed rates: a finding new or more severe with them is reported as the observed traffic\'s', async (t) => {
  // Vote writes observed far above a partition on a schema where Vote declares little: under-sharding shows up
  const vote = (calls: number) => JSON.stringify({ _aws: { Timestamp: 1_700_000_060_000, CloudWatchMetrics: [{ Namespace: 'ddbgen', Dimensions: [['Table', 'Entity', 'Pattern', 'Index', 'Operation']], Metrics: [{ Name: 'Calls', Unit: 'Count' }] }] }, Table: 'Social', Entity: 'Score', Pattern: 'put', Index: '(table)', Operation: 'PutItem', Calls: calls, ConsumedReadCapacity: 0, ConsumedWriteCapacity: calls, Items: calls, Throttles: 0, Retries: 0, Errors: 0, Latency: [2], PeriodStart: 1_700_000_000_000 });
  const result = await run(['lint', 'fixtures/social.ts', '--observed', file('score.emf', `${vote(6_000_000)}\n`)]);
  t.is(result.code, 1);
  // HK006: the hottest collection at 100,000 writes/s on a table with an LSI, which the declared 5 writes/s never raised
  t.regex(result.stderr, /error HK006: with the observed traffic \(out\/test-lint-observed\/score\.emf, 60 s\), Score \(table\): the table has an LSI.*100,000 writes\/s × 1\/2 × 1 WCU per 1 KB write = 50,000 WCU\/s.*\(declared: no finding\)\n {4}at Social\.entities\.Score\.key\.pk\n {4}fix: shard it: pk "Game\.<game>\.<day:day>\.<shard>" with shard: \{ count: 63 \}/);
  // HK003 stays as the entity's lint override says (info): overrides hold for the observed findings too
  t.notRegex(result.stderr, /HK003: with the observed traffic/);
  t.regex(result.stderr, /error HK101: Score: observed 6,000,000 writes in 60 s = 100,000\/s .*20,000× its declared traffic\.writesPerSecond: 5/);
});

test('OTLP JSON: the same run exported by OpenTelemetry\'s serializer reads back to the same calls', async (t) => {
  const { otlp } = await recorded;
  const parsed = readObserved('run.otlp.json', otlp);
  t.is(parsed.format, 'otlp');
  const recent = parsed.calls.filter((c) => c.pattern === 'recentArticles');
  t.is(recent.reduce((s, c) => s + c.calls, 0), 300);
  t.deepEqual([...new Set(recent.map((c) => c.entity))], ['Article']);
  const puts = parsed.calls.filter((c) => c.pattern === 'put' && c.entity === 'Article');
  t.true(puts.some((c) => c.index === 'byName' && c.writeUnits > 0));
  t.true(parsed.seconds > 0);
  const observed = file('run.otlp.json', otlp);
  const result = await run(['lint', socialDeclaring(1), '--observed', observed, '--format', 'json']);
  t.is(result.code, 1);
  const json = JSON.parse(result.stdout) as { diagnostics: Array<{ rule: string; target: string; severity: string; message: string }> };
  const hk101 = json.diagnostics.find((d) => d.rule === 'HK101' && d.target === 'Social.patterns.recentArticles')!;
  t.is(hk101.severity, 'error');
  t.regex(hk101.message, new RegExp(`observed 300 reads in [\\d.]+ s = [\\d,.]+/s`));
  // one JSON document per line (the collector's file exporter) reads the same
  t.is(readObserved('lines.json', `${otlp}\n${otlp}\n`).calls.find((c) => c.pattern === 'recentArticles')!.calls, 300, 'cumulative points: the latest of each series, not their sum');
});

const REPORT = (rule: string, contributors: Array<[string, number]>) =>
  JSON.stringify({
    RuleName: rule,
    KeyLabels: ['PartitionKey'],
    AggregationStatistic: 'Sum',
    AggregateValue: contributors.reduce((s, [, v]) => s + v, 0) + 100_000,
    ApproximateUniqueCount: 5000,
    Contributors: contributors.map(([key, value]) => ({ Keys: [key], ApproximateAggregateValue: value, Datapoints: [{ Timestamp: '2024-01-15T09:30:00Z', ApproximateValue: value }] })),
    MetricDatapoints: [
      { Timestamp: '2024-01-15T09:30:00Z', UniqueContributors: 5000, SampleCount: 1, Sum: 1 },
      { Timestamp: '2024-01-15T09:31:00Z', UniqueContributors: 5000, SampleCount: 1, Sum: 1 },
    ],
  });

test('Contributor Insights: a hot key the declaration did not expect, and a throttled key, with the share to declare', async (t) => {
  // two minutes (two one-minute datapoints): User.u-42 took 40% of the accesses, 2,000/s × 0.5 RCU
  const hot = file('insights.json', REPORT('DynamoDBContributorInsights-PKC-Social-1700000000000', [['User.u-42', 240_000], ['User.u-7', 1_000]]));
  const result = await run(['lint', 'fixtures/social.ts', '--observed', hot]);
  t.regex(result.stderr, /warning HK102: User \(table\), key "User\.u-42" \(User\.<id>\), a partition shared with Article, Settings, DailyStats: observed 240,000 accesses in 120 s = 2,000\/s × 0\.5 RCU per access \(600 B reads\) = 1,000 RCU\/s, 33\.3% of a partition's 3,000 RCU\/s; 70\.4% of the 341,000 accesses reported, against no declared hotKeyShare \(assumed spread\): a hot key the declaration did not expect\n {4}at Social\.entities\.User\.key\.pk\n {4}fix: declare hotKeyShare: 0\.71 on User's traffic, and lint again/);
  t.notRegex(result.stderr, /u-7/);
  const throttled = file('DynamoDBContributorInsights-PKT-Social-1700000000000.json', REPORT('DynamoDBContributorInsights-PKT-Social-1700000000000', [['Candidate.A.3', 50]]));
  const second = await run(['lint', 'fixtures/social.ts', '--observed', throttled]);
  t.is(second.code, 1);
  t.regex(second.stderr, /error HK102: Vote \(table\), key "Candidate\.A\.3" \(Candidate\.<candidateId>\.<shard>\): observed throttled 50 times in 120 s/);
});

test('Contributor Insights: a key whose template holds a pii attribute is named by its template, never its value', async (t) => {
  const schema = file('crm.ts', `import { defineTable, entity, t } from 'ddbgen';\nexport default defineTable({\n  name: 'Crm',\n  entities: {\n    Contact: entity({ attributes: { email: t.string({ pii: true }), name: t.string() }, key: { pk: 'Contact#<email>', sk: 'C' }, lint: { HK016: 'off' } }),\n  },\n});\n`);
  const report = file('crm-insights.json', REPORT('DynamoDBContributorInsights-PKT-Crm-1700000000000', [['Contact#ada@example.com', 12]]));
  const result = await run(['lint', schema, '--observed', report]);
  t.regex(result.stderr, /error HK102: Contact \(table\), a key of Contact#<email> \(pii: its value is not printed\): observed throttled 12 times in 120 s/);
  t.false(result.stderr.includes('ada@example.com'));
  t.false(result.stdout.includes('ada@example.com'));
});

test('a GSI that writes more than its table (HK103), from EMF', async (t) => {
  const line = (index: string, calls: number, wcu: number) => JSON.stringify({ _aws: { Timestamp: 1_700_000_060_000, CloudWatchMetrics: [{ Namespace: 'ddbgen', Dimensions: [['Table', 'Entity', 'Pattern', 'Index', 'Operation']], Metrics: [{ Name: 'Calls', Unit: 'Count' }] }] }, Table: 'Social', Entity: 'Article', Pattern: 'update', Index: index, Operation: 'UpdateItem', Calls: calls, ConsumedReadCapacity: 0, ConsumedWriteCapacity: wcu, Items: calls, Throttles: 0, Retries: 0, Errors: 0, Latency: 0, PeriodStart: 1_700_000_000_000 });
  const result = await run(['lint', 'fixtures/social.ts', '--observed', file('gsi.emf', [line('(table)', 600, 600), line('byName', 0, 1800)].join('\n'))]);
  t.regex(result.stderr, /warning HK103: Article in GSI byName: observed 1,800 WCU in 60 s = 30 WCU\/s on byName against 10 WCU\/s on the table \(3×\): the index costs more to write than the data\n {4}at Social\.indexes\.byName\n {4}fix: project fewer attributes on byName \(it projects all\)/);
});

test('bad files: refused with the file, the place and a fix', async (t) => {
  const bad = async (name: string, text: string) => (await run(['lint', 'fixtures/social.ts', '--observed', file(name, text)])).stderr;
  // the last line: the final flush, whose window is the 100 ms of the run (a line flushed at 100 latencies covers none alone)
  const good = (await recorded).emf.trim().split('\n').at(-1)!;
  t.regex(await bad('broken.emf', `${good}\n{"_aws": {"Timestamp": 1,\n`), /^out\/test-lint-observed\/broken\.emf:2:\d+ - error DDB310: the observed-traffic file cannot be read: not JSON \(.*\)\n {4}at observed\n {4}fix: give the file as the tool wrote it/);
  t.regex(await bad('calls.emf', good.replace(/"Calls":\d+/, '"Calls":"many"')), /calls\.emf:1:1 - error DDB310: the observed-traffic file cannot be read: Calls is "many", not a non-negative number/);
  t.regex(await bad('window.emf', good.replace(/,"PeriodStart":\d+/, '')), /window\.emf:1:1 - error DDB310: .*the lines cover no time.*\n {4}at observed\n {4}fix: give the lines as EmfWriter wrote them/);
  t.regex(await bad('other.emf', '{"_aws":{"Timestamp":1,"CloudWatchMetrics":[{"Namespace":"App","Dimensions":[["Service"]],"Metrics":[{"Name":"Latency"}]}]},"Service":"x","Latency":1}\n'), /error DDB311: out\/test-lint-observed\/other\.emf holds no traffic ddbgen can use: no EMF document has ddbgen's dimensions/);
  const { otlp } = await recorded;
  t.regex(await bad('bad.otlp.json', otlp.replace(/"asDouble":[\d.]+/, '"asDouble":"x"')), /bad\.otlp\.json:1:1 - error DDB310: the observed-traffic file cannot be read: resourceMetrics\[0\]\.scopeMetrics\[0\]\.metrics\[\d+\]\.sum\.dataPoints\[\d+\]\.asDouble: "x" is not a non-negative number/);
  t.regex(await bad('report.json', '{"Contributors": "none"}'), /report\.json:1:1 - error DDB310: .*Contributors: not an array\n {4}at observed\n {4}fix: give the JSON answer of aws cloudwatch get-insight-rule-report/);
  t.regex(await bad('prose.txt', 'hello\n'), /prose\.txt:1:1 - error DDB310: .*no line holds a JSON document/);
  const unknownEntity = good.replace('"Entity":"Article"', '"Entity":"Order"').replace('"Entity":"User"', '"Entity":"Order"');
  t.regex((await run(['lint', 'fixtures/social.ts', '--observed', file('order.emf', unknownEntity)])).stderr, /warning DDB312: out\/test-lint-observed\/order\.emf reports traffic of Order, which the schema does not declare/);
  t.regex((await run(['lint', 'fixtures/social.ts', '--observed', 'nope.emf'])).stderr, /^ddbgen: --observed nope\.emf: no such file/);
});

test('report --observed draws declared against observed per key space, and lists the observed findings', async (t) => {
  const observed = file('run.emf', (await recorded).emf);
  const out = path.join(dir, 'report.html');
  const result = await run(['report', 'fixtures/social.ts', '--observed', observed, '--out', out]);
  t.is(result.code, 0, result.stderr);
  const html = readFileSync(out, 'utf8');
  t.regex(html, /<h3>Declared against observed<\/h3>/);
  t.regex(html, /<g class="pair over" data-label="Article \(table\) · RCU\/s" data-unit="RCU\/s" data-declared="100" data-observed="[\d.]+">/);
  t.regex(html, /<tr class="over"><td><code>recentArticles<\/code><\/td><td>Article<\/td><td>reads<\/td><td>200\/s<\/td><td>3,000\/s<\/td><\/tr>/);
  t.regex(html, /HK101/);
  // without --observed: no such section
  await run(['report', 'fixtures/social.ts', '--out', out]);
  t.notRegex(readFileSync(out, 'utf8'), /Declared against observed/);
});
