// Telemetry on DynamoDB Local, through the real AWS SDK stack: a client middleware starts a span
// `DynamoDB.<Operation>` from the active context for each request, as the AWS SDK's OpenTelemetry
// instrumentation does, and keeps each response's ConsumedCapacity with the span it ran under.
// Every SDK span is the child of the ddbgen span of the call that sent it; each ddbgen span's
// consumed units are exactly those its responses reported (DynamoDB Local's figures), and the
// metrics sum them per pattern and key space.
import { randomUUID } from 'node:crypto';
import anyTest, { type TestFn } from 'ava';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { openTelemetry, SocialTable, socialTableDefinition, type User } from '../../out/social/index.js';
import { useDynamoDbLocal, type LocalDynamo } from '../support/dynamodb-local.js';
import { otelHarness, type OtelHarness } from '../support/otel.js';

interface Capacity {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

const test = anyTest as TestFn<{ otel: OtelHarness; db: SocialTable; answered: Map<string, Capacity[]>; tableName: string }>;
let local: LocalDynamo | undefined;

test.before(async () => {
  local = await useDynamoDbLocal();
});
test.after.always(async () => {
  await local?.stop();
});

test.beforeEach(async (t) => {
  const tableName = `telemetry-${randomUUID()}`;
  await local!.createTable(socialTableDefinition(tableName));
  const otel = otelHarness();
  const answered = new Map<string, Capacity[]>();
  const client = new DynamoDBClient({ endpoint: local!.endpoint, region: 'local', credentials: { accessKeyId: 'ddbgen', secretAccessKey: 'local' } });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const parent = otel.api.trace.getActiveSpan();
      const span = otel.tracer.startSpan(`DynamoDB.${context.commandName?.replace(/Command$/, '')}`, { kind: otel.api.SpanKind.CLIENT }, otel.api.context.active());
      try {
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
        const key = parent?.spanContext().spanId ?? 'none';
        if (consumed !== undefined) answered.set(key, [...(answered.get(key) ?? []), ...(Array.isArray(consumed) ? consumed : [consumed])]);
        return result;
      } finally {
        span.end();
      }
    },
    { step: 'initialize', name: 'testSdkSpan' },
  );
  const db = new SocialTable(DynamoDBDocumentClient.from(client), { tableName, telemetry: openTelemetry(otel.api, { tracer: otel.tracer, meter: otel.meter }) });
  t.context = { otel, db, answered, tableName };
});

const user = (id: string): User => ({ id, email: `${id}@example.com`, status: 'ACTIVE', joinedAt: new Date(Date.UTC(2024, 0, 15)) });
const units = (capacities: readonly Capacity[] = []) => capacities.reduce((s, c) => s + (c.CapacityUnits ?? 0), 0);

test('each call is a span with the units DynamoDB Local reported, and the SDK spans nest under it', async (t) => {
  const { otel, db, answered, tableName } = t.context;
  await db.user.put(user('u1'));
  await db.user.get({ id: 'u1' }, { consistent: true });
  for (let i = 0; i < 3; i++) await db.article.put({ userId: 'u1', articleId: `a${i}`, name: `name-${i}`, updatedAt: new Date(Date.UTC(2024, 0, 1 + i)), views: i });
  await db.article.recentArticles({ userId: 'u1', updatedAt: [new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 1, 1))] });
  await db.article.queryByName({ name: 'name-1' });
  await db.user.batchPut(Array.from({ length: 30 }, (_, i) => user(`b${i}`)));
  await db.user.batchGet([{ id: 'b1' }, { id: 'b2' }]);
  await db.transaction().user.create(user('t1')).commit();
  await db.fan.add({ type: 'User', id: 'u1' }, { type: 'Actor', id: 'a1' }, { since: new Date(Date.UTC(2024, 0, 1)) });

  const spans = otel.spans();
  const ours = spans.filter((s) => !s.name.startsWith('DynamoDB.'));
  t.deepEqual(ours.map((s) => s.name), ['User.put', 'User.get', 'Article.put', 'Article.put', 'Article.put', 'Article.recentArticles', 'Article.queryByName', 'User.batchPut', 'User.batchGet', 'Social.transaction', 'Fan.add']);
  // every SDK span is a child of one of ours, in the same trace
  const sdk = spans.filter((s) => s.name.startsWith('DynamoDB.'));
  t.true(sdk.length >= ours.length);
  const byId = new Map(ours.map((s) => [s.spanContext().spanId, s]));
  for (const span of sdk) {
    const parent = byId.get(span.parentSpanContext?.spanId ?? '');
    t.truthy(parent, `${span.name} has no ddbgen parent`);
    t.is(span.spanContext().traceId, parent!.spanContext().traceId);
  }
  t.is(sdk.filter((s) => s.name === 'DynamoDB.BatchWriteItem').length, 2);
  // units: exactly what the responses under each span reported
  for (const span of ours) {
    const reported = units(answered.get(span.spanContext().spanId));
    t.true(reported > 0, `${span.name}: DynamoDB Local reported units`);
    t.is((span.attributes['ddbgen.read_units'] as number) + (span.attributes['ddbgen.write_units'] as number), reported, span.name);
    t.is((span.attributes['aws.dynamodb.consumed_capacity'] as string[]).length, answered.get(span.spanContext().spanId)!.length, span.name);
    t.like(span.attributes, { 'db.system.name': 'aws.dynamodb', 'db.collection.name': tableName });
  }
  const get = ours.find((s) => s.name === 'User.get')!;
  t.like(get.attributes, { 'ddbgen.read_units': 1, 'aws.dynamodb.consistent_read': true, 'ddbgen.key_space': 'User.<id> / PROFILE' });
  const query = ours.find((s) => s.name === 'Article.recentArticles')!;
  t.like(query.attributes, { 'aws.dynamodb.count': 3, 'aws.dynamodb.scanned_count': 3, 'ddbgen.pattern': 'recentArticles' });
  t.like(ours.find((s) => s.name === 'Article.queryByName')!.attributes, { 'aws.dynamodb.index_name': 'byName', 'aws.dynamodb.count': 1 });
  // the metrics: per pattern, the table's share and each GSI's as DynamoDB Local split them
  const points = await otel.metrics();
  const articlePuts = ours.filter((s) => s.name === 'Article.put').flatMap((s) => answered.get(s.spanContext().spanId)!);
  const gsi = articlePuts.reduce((s, c) => s + (c.GlobalSecondaryIndexes?.['byName']?.CapacityUnits ?? 0), 0);
  t.true(gsi > 0, JSON.stringify(articlePuts[0]));
  t.is(otel.total(points, 'ddbgen.consumed_capacity.write', { 'ddbgen.pattern': 'put', 'ddbgen.entity': 'Article', 'aws.dynamodb.index_name': 'byName' }), gsi);
  t.is(otel.total(points, 'ddbgen.consumed_capacity.write', { 'ddbgen.entity': 'Article' }), units(articlePuts));
  const allReported = [...answered.values()].reduce((s, list) => s + units(list), 0);
  t.is(otel.total(points, 'ddbgen.consumed_capacity.read') + otel.total(points, 'ddbgen.consumed_capacity.write'), allReported);
  t.is(otel.total(points, 'ddbgen.operations'), ours.length);
  t.is(otel.total(points, 'ddbgen.items', { 'ddbgen.pattern': 'batchPut' }), 30);
});

test('a failed call: the span is an error named by the error type, never its message', async (t) => {
  const { otel, db } = t.context;
  await db.user.put(user('u1'));
  await t.throwsAsync(db.user.create(user('u1')), { name: 'ItemExistsError' });
  const span = otel.spans().find((s) => s.name === 'User.create')!;
  t.is(span.status.code, otel.api.SpanStatusCode.ERROR);
  t.is(span.attributes['error.type'], 'ItemExistsError');
  t.is(span.status.message, undefined);
  t.deepEqual(span.events.map((e) => e.name), []);
});
