// The EMF writer's lines are Embedded Metric Format documents: valid against the specification's
// JSON schema (test/support/emf.schema.json, written out from AWS's specification, which it
// cites), and against the rules the specification states in prose: each dimension a target member
// holding a string, each metric a target member holding a number or an array of at most 100
// numbers, at most 100 metrics per directive and 30 dimensions per set. The lines come from real
// operations on the in-memory table, with faults, so every metric has something to count.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { Ajv } from 'ajv';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createSocialInMemory } from '../out/social/in-memory.js';
import { EmfWriter, SocialTable, telemetry, type User } from '../out/social/index.js';

const schema = JSON.parse(readFileSync(path.join(import.meta.dirname, 'support', 'emf.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

/** The specification's rules beyond its schema, as problems found in one document. */
function proseRules(document: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const directives = (document['_aws'] as { CloudWatchMetrics: Array<{ Dimensions: string[][]; Metrics: Array<{ Name: string }> }> }).CloudWatchMetrics;
  for (const directive of directives) {
    if (directive.Metrics.length > 100) problems.push('more than 100 metrics in a directive');
    for (const set of directive.Dimensions) {
      if (set.length > 30) problems.push('more than 30 dimensions in a set');
      for (const name of set) if (typeof document[name] !== 'string') problems.push(`dimension ${name} is not a string member`);
    }
    for (const { Name } of directive.Metrics) {
      const value = document[Name];
      const ok = typeof value === 'number' || (Array.isArray(value) && value.length > 0 && value.length <= 100 && value.every((v) => typeof v === 'number'));
      if (!ok) problems.push(`metric ${Name} is not a number or an array of 1 to 100 numbers: ${JSON.stringify(value)}`);
    }
  }
  return problems;
}

const check = (line: string) => {
  const document = JSON.parse(line) as Record<string, unknown>;
  const valid = validate(document);
  return [...(valid ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)), ...proseRules(document)];
};

const user = (id: string): User => ({ id, email: `${id}@example.com`, status: 'ACTIVE', joinedAt: new Date(Date.UTC(2024, 0, 1)) });

test('every line the writer flushes is a valid EMF document', async (t) => {
  const lines: string[] = [];
  const emf = new EmfWriter({ namespace: 'ShopApp', write: (line) => lines.push(line) });
  const memory = createSocialInMemory();
  const db = new SocialTable(memory as unknown as DynamoDBDocumentClient, { telemetry: telemetry(emf) });
  await db.user.batchPut(Array.from({ length: 30 }, (_, i) => user(`u${i}`)));
  memory.injectFault({ fault: { kind: 'throttle' }, operations: ['GetItem'], times: 1 });
  await db.user.get({ id: 'u1' });
  await db.article.put({ userId: 'u1', articleId: 'a1', name: 'n', updatedAt: new Date(Date.UTC(2024, 0, 2)), views: 1 });
  await db.article.queryByName({ name: 'n' });
  await db.userCollection({ id: 'u1' });
  for await (const _ of db.scanSegments({ segments: 2 })) break;
  await t.throwsAsync(db.user.create(user('u1')));
  emf.flush();
  t.true(lines.length >= 6);
  t.deepEqual(lines.flatMap(check), []);
  const docs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  t.like(docs.find((d) => d['Pattern'] === 'get'), { Entity: 'User', Index: '(table)', Operation: 'GetItem', Throttles: 1, Retries: 1, Calls: 1 });
  t.like(docs.find((d) => d['Pattern'] === 'create'), { Errors: 1 });
  t.like(docs.find((d) => d['Pattern'] === 'scanSegments'), { Entity: '(table)', Operation: 'Scan' });
  t.true(docs.every((d) => (d['_aws'] as { CloudWatchMetrics: Array<{ Namespace: string }> }).CloudWatchMetrics[0]!.Namespace === 'ShopApp'));
});

test('the validator refuses what the specification refuses (so the test above can fail)', (t) => {
  const good = JSON.stringify({ _aws: { Timestamp: 1, CloudWatchMetrics: [{ Namespace: 'n', Dimensions: [['A']], Metrics: [{ Name: 'M', Unit: 'Count' }] }] }, A: 'x', M: 1 });
  t.deepEqual(check(good), []);
  const bad = (patch: (d: Record<string, any>) => void) => {
    const d = JSON.parse(good) as Record<string, any>;
    patch(d);
    return check(JSON.stringify(d)).length;
  };
  t.true(bad((d) => (d['_aws'].Timestamp = '2024-01-01')) > 0);
  t.true(bad((d) => (d['_aws'].CloudWatchMetrics[0].Metrics[0].Unit = 'Units')) > 0);
  t.true(bad((d) => (d['_aws'].CloudWatchMetrics[0].Dimensions = [])) > 0);
  t.true(bad((d) => delete d['A']) > 0);
  t.true(bad((d) => (d['M'] = Array.from({ length: 101 }, () => 1))) > 0);
  t.true(bad((d) => (d['M'] = 'one')) > 0);
});

test('a group with 100 latencies is written out at once (EMF takes at most 100 values); a flush starts a new period', (t) => {
  let now = 1_700_000_000_000;
  const lines: string[] = [];
  const emf = new EmfWriter({ write: (line) => lines.push(line), now: () => now });
  const summary = { name: 'User.get', table: 'Social', entity: 'User', pattern: 'get', startTime: now, operations: ['GetItem'], durationMs: 2, requests: 1, consumed: [{ read: 0.5, write: 0 }], readUnits: 0.5, writeUnits: 0, items: 1, count: 0, scannedCount: 0, throttles: 0, retries: 0, unprocessed: 0 };
  for (let i = 0; i < 99; i++) emf.record(summary);
  t.is(lines.length, 0);
  now += 5000;
  emf.record(summary);
  t.is(lines.length, 1);
  const doc = JSON.parse(lines[0]!) as Record<string, unknown>;
  t.like(doc, { Calls: 100, ConsumedReadCapacity: 50, PeriodStart: 1_700_000_000_000 });
  t.is((doc['Latency'] as number[]).length, 100);
  t.is((doc['_aws'] as { Timestamp: number }).Timestamp, 1_700_000_005_000);
  emf.record(summary);
  t.like(JSON.parse(emf.flush()[0]!), { Calls: 1, PeriodStart: 1_700_000_005_000 });
});
