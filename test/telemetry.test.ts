// Telemetry per access pattern on the in-memory table, under injected faults: the OpenTelemetry
// SDK's in-memory exporters read what the generated code reports. Every span is named by the
// method the app called and carries the DynamoDB semantic conventions and ddbgen's attributes;
// consumed capacity equals what the responses reported (read from the client's own answers);
// throttles carry their ThrottlingReasons; batches, retries, unprocessed items and transaction
// cancellations are events; metrics count them per pattern. Off, nothing changes.
import test from 'ava';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createSocialInMemory } from '../out/social/in-memory.js';
import { articleGet, articlePut, articleQueryByNameAll, articleRecentArticles, createSocialContext, EmfWriter, openTelemetry, SocialTable, userGet, userPut, type User } from '../out/social/index.js';
import { recordingClient } from './support/recording-client.js';
import { otelHarness } from './support/otel.js';

const joined = new Date(Date.UTC(2024, 0, 15));
const user = (id: string): User => ({ id, email: `${id}@example.com`, status: 'ACTIVE', joinedAt: joined });

interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  Table?: { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number }>;
}

/** The in-memory table, with every answer's ConsumedCapacity kept (what the responses reported). */
function memoryTable() {
  const memory = createSocialInMemory();
  const answered: Capacity[] = [];
  const send = memory.send.bind(memory) as (command: unknown) => Promise<Record<string, unknown>>;
  (memory as unknown as { send: (command: unknown) => Promise<unknown> }).send = async (command: unknown) => {
    const result = await send(command);
    const consumed = result['ConsumedCapacity'];
    if (consumed !== undefined) answered.push(...((Array.isArray(consumed) ? consumed : [consumed]) as Capacity[]));
    return result;
  };
  return { memory, answered };
}

const unitsOf = (capacities: readonly Capacity[]) => capacities.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);

function setUp() {
  const otel = otelHarness();
  const emfLines: string[] = [];
  const emf = new EmfWriter({ write: (line) => emfLines.push(line) });
  const { memory, answered } = memoryTable();
  const db = new SocialTable(memory as unknown as DynamoDBDocumentClient, { telemetry: openTelemetry(otel.api, { tracer: otel.tracer, meter: otel.meter, sinks: [emf] }) });
  return { otel, emf, emfLines, memory, answered, db };
}

test('a span per call, named by what the app called, with the semantic conventions and the key template', async (t) => {
  const { otel, db, answered } = setUp();
  await db.user.put(user('u1'));
  const found = await db.user.get({ id: 'u1' });
  t.is(found?.id, 'u1');
  const spans = otel.spans();
  t.deepEqual(spans.map((s) => s.name), ['User.put', 'User.get']);
  const get = spans[1]!;
  t.is(get.kind, otel.api.SpanKind.CLIENT);
  t.like(get.attributes, {
    'db.system.name': 'aws.dynamodb',
    'db.operation.name': 'GetItem',
    'db.collection.name': 'Social',
    'ddbgen.entity': 'User',
    'ddbgen.pattern': 'get',
    'ddbgen.key_space': 'User.<id> / PROFILE',
    'ddbgen.items': 1,
  });
  t.deepEqual(get.attributes['aws.dynamodb.table_names'], ['Social']);
  // consumed capacity: what the responses said, one JSON entry per response
  const reported = (get.attributes['aws.dynamodb.consumed_capacity'] as string[]).map((s) => JSON.parse(s) as Capacity);
  t.deepEqual(reported.map((c) => c.CapacityUnits), [answered[1]!.CapacityUnits]);
  t.is(get.attributes['ddbgen.read_units'], answered[1]!.CapacityUnits);
  t.is(spans[0]!.attributes['ddbgen.write_units'], answered[0]!.CapacityUnits);
  t.true((answered[0]!.CapacityUnits ?? 0) > 0);
});

test('the function forms, given a context with telemetry, report each call as the table class does: one span each, the same names, attributes and events', async (t) => {
  const run = async (forms: boolean) => {
    const otel = otelHarness();
    const { memory } = memoryTable();
    const options = { telemetry: openTelemetry(otel.api, { tracer: otel.tracer, meter: otel.meter }) };
    const article = { userId: 'u1', articleId: 'a1', name: 'n', updatedAt: joined, views: 1 };
    const range = { userId: 'u1', updatedAt: [new Date(Date.UTC(2020, 0, 1)), new Date(Date.UTC(2030, 0, 1))] as [Date, Date] };
    if (forms) {
      const context = createSocialContext(memory as unknown as DynamoDBDocumentClient, options);
      await userPut(context, user('u1'));
      await userGet(context, { id: 'u1' });
      await articlePut(context, article);
      await articleGet(context, { userId: 'u1', updatedAt: joined, articleId: 'a1' });
      await articleRecentArticles(context, range, { limit: 1 });
      for await (const found of articleQueryByNameAll(context, { name: 'n' })) t.is(found.articleId, 'a1');
    } else {
      const db = new SocialTable(memory as unknown as DynamoDBDocumentClient, options);
      await db.user.put(user('u1'));
      await db.user.get({ id: 'u1' });
      await db.article.put(article);
      await db.article.get({ userId: 'u1', updatedAt: joined, articleId: 'a1' });
      await db.article.recentArticles(range, { limit: 1 });
      for await (const found of db.article.queryByNameAll({ name: 'n' })) t.is(found.articleId, 'a1');
    }
    const points = await otel.metrics();
    return {
      spans: otel.spans().map((s) => ({ name: s.name, attributes: { ...s.attributes, 'aws.dynamodb.consumed_capacity': undefined }, events: s.events.map((e) => e.name) })),
      operations: otel.total(points, 'ddbgen.operations', {}),
    };
  };
  const forms = await run(true);
  const methods = await run(false);
  t.deepEqual(forms.spans.map((s) => s.name), ['User.put', 'User.get', 'Article.put', 'Article.get', 'Article.recentArticles', 'Article.queryByNameAll']);
  t.deepEqual(forms, methods);
  t.like(forms.spans[5]!.attributes, { 'ddbgen.pattern': 'queryByName', 'aws.dynamodb.index_name': 'byName' });
  t.is(forms.operations, 6);
});

test('a function form called without telemetry in its context sends its request alone, no consumed capacity asked', async (t) => {
  const { client, sent } = recordingClient();
  const context = createSocialContext(client);
  await userGet(context, { id: 'u1' });
  t.is(sent.length, 1);
  t.false('ReturnConsumedCapacity' in sent[0]!.input);
  t.is(context.telemetry, undefined);
});

test('a declared pattern: its span, pages, count and scanned count, and the units per key space', async (t) => {
  const { otel, db, answered } = setUp();
  for (let i = 0; i < 5; i++) await db.article.put({ userId: 'u1', articleId: `a${i}`, name: `n${i}`, updatedAt: new Date(Date.UTC(2024, 0, 1 + i)), views: i });
  const writes = answered.splice(0);
  const page = await db.article.recentArticles({ userId: 'u1', updatedAt: [new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 0, 31))] }, { limit: 2 });
  t.is(page.items.length, 2);
  const span = otel.spans().find((s) => s.name === 'Article.recentArticles')!;
  t.like(span.attributes, { 'ddbgen.pattern': 'recentArticles', 'db.operation.name': 'Query', 'aws.dynamodb.limit': 2, 'aws.dynamodb.count': 2, 'aws.dynamodb.scanned_count': 2, 'aws.dynamodb.scan_forward': false, 'ddbgen.key_space': 'User.<userId> / Article.<updatedAt>.<articleId>' });
  t.deepEqual(span.events.map((e) => e.name), ['ddbgen.page']);
  t.like(span.events[0]!.attributes, { 'aws.dynamodb.count': 2, 'ddbgen.more': true });
  // every put wrote the table and the byName GSI: the metric splits them as the responses did
  const points = await otel.metrics();
  const tableWrites = writes.reduce((s, c) => s + (c.Table?.CapacityUnits ?? 0), 0);
  const gsiWrites = writes.reduce((s, c) => s + (c.GlobalSecondaryIndexes?.['byName']?.CapacityUnits ?? 0), 0);
  t.true(gsiWrites > 0);
  const putPoints = points.filter((p) => p.name === 'ddbgen.consumed_capacity.write' && p.attributes['ddbgen.pattern'] === 'put');
  t.is(otel.total(putPoints, 'ddbgen.consumed_capacity.write', { 'aws.dynamodb.index_name': 'byName' }), gsiWrites);
  t.is(putPoints.filter((p) => p.attributes['aws.dynamodb.index_name'] === undefined).reduce((s, p) => s + p.value, 0), tableWrites);
  t.is(otel.total(points, 'ddbgen.consumed_capacity.read', { 'ddbgen.pattern': 'recentArticles' }), unitsOf(answered));
  t.is(otel.total(points, 'ddbgen.items', { 'ddbgen.pattern': 'recentArticles' }), 2);
  const duration = points.filter((p) => p.name === 'db.client.operation.duration' && p.attributes['ddbgen.pattern'] === 'put');
  t.is(duration[0]!.count, 5);
  t.is(duration[0]!.unit, 's');
});

test('an index query names its index and the index key template; an iterating form is one span over its pages', async (t) => {
  const { otel, db } = setUp();
  for (let i = 0; i < 3; i++) await db.article.put({ userId: `u${i}`, articleId: `a${i}`, name: 'same', updatedAt: new Date(Date.UTC(2024, 0, 1 + i)), views: i });
  const all: unknown[] = [];
  for await (const item of db.article.queryByNameAll({ name: 'same' }, { limit: 1 })) all.push(item);
  t.is(all.length, 3);
  const span = otel.spans().find((s) => s.name === 'Article.queryByNameAll')!;
  t.like(span.attributes, { 'ddbgen.pattern': 'queryByName', 'aws.dynamodb.index_name': 'byName', 'ddbgen.key_space': 'ArticleName.<name> / <updatedAt>', 'aws.dynamodb.count': 3 });
  t.is(span.events.filter((e) => e.name === 'ddbgen.page').length, 4);
});

test('throttles carry their ThrottlingReasons, and the SDK-style retries are counted', async (t) => {
  const { otel, db, memory } = setUp();
  await db.user.put(user('u1'));
  memory.injectFault({ fault: { kind: 'throttle' }, operations: ['GetItem'], times: 2 });
  t.is((await db.user.get({ id: 'u1' }))?.id, 'u1');
  const span = otel.spans().find((s) => s.name === 'User.get')!;
  const throttles = span.events.filter((e) => e.name === 'ddbgen.throttle');
  t.is(throttles.length, 2);
  t.like(throttles[0]!.attributes, { 'error.type': 'ProvisionedThroughputExceededException', 'db.operation.name': 'GetItem' });
  t.deepEqual(throttles[0]!.attributes!['aws.dynamodb.throttling_reasons'], ['TableReadKeyRangeThroughputExceeded']);
  t.deepEqual(throttles[0]!.attributes!['aws.dynamodb.throttled_resources'], ['arn:aws:dynamodb:local:000000000000:table/Social']);
  t.is(span.events.filter((e) => e.name === 'ddbgen.retry').length, 2);
  t.like(span.attributes, { 'ddbgen.throttles': 2, 'ddbgen.retries': 2 });
  const points = await otel.metrics();
  t.is(otel.total(points, 'ddbgen.throttles', { 'ddbgen.pattern': 'get' }), 2);
  t.is(otel.total(points, 'ddbgen.retries', { 'ddbgen.pattern': 'get' }), 2);

  // past the attempts: the span fails with the error's name only
  memory.injectFault({ fault: { kind: 'throttle' }, operations: ['GetItem'], times: 3 });
  await t.throwsAsync(db.user.get({ id: 'u1' }));
  const failed = otel.spans().filter((s) => s.name === 'User.get')[1]!;
  t.is(failed.status.code, otel.api.SpanStatusCode.ERROR);
  t.is(failed.status.message, undefined);
  t.is(failed.attributes['error.type'], 'ProvisionedThroughputExceededException');
  t.is(failed.events.filter((e) => e.name === 'ddbgen.throttle').length, 3);
});

test('batch chunks, unprocessed items and their retry are events of one span', async (t) => {
  const { otel, db, memory, answered } = setUp();
  memory.injectFault({ fault: { kind: 'unprocessed', share: 0.5 }, operations: ['BatchWriteItem'], times: 1 });
  await db.user.batchPut(Array.from({ length: 30 }, (_, i) => user(`b${i}`)));
  const span = otel.spans().find((s) => s.name === 'User.batchPut')!;
  const names = span.events.map((e) => e.name);
  const chunks = span.events.filter((e) => e.name === 'ddbgen.batch_chunk');
  t.true(chunks.length >= 3, names.join(','));
  t.is(chunks[0]!.attributes!['ddbgen.batch.requested'], 25);
  const unprocessed = span.events.filter((e) => e.name === 'ddbgen.unprocessed');
  t.is(unprocessed.length, 1);
  const left = unprocessed[0]!.attributes!['ddbgen.batch.unprocessed'] as number;
  t.true(left >= 1);
  t.true(names.includes('ddbgen.retry'));
  t.is(span.attributes['ddbgen.items'], 30);
  t.is(memory.items().length, 30);
  // the units: every chunk's answer, summed
  t.is(span.attributes['ddbgen.write_units'], unitsOf(answered));
});

test('a transaction cancelled by a conflict is an event, and its retry is counted', async (t) => {
  const { otel, db, memory } = setUp();
  memory.injectFault({ fault: { kind: 'conflict' }, operations: ['TransactWriteItems'], times: 1 });
  await db.transaction().user.create(user('t1')).user.create(user('t2')).commit();
  const span = otel.spans().find((s) => s.name === 'Social.transaction')!;
  t.truthy(span);
  const cancelled = span.events.find((e) => e.name === 'ddbgen.transaction_cancelled')!;
  t.deepEqual(cancelled.attributes!['aws.dynamodb.cancellation_reasons'], ['TransactionConflict', 'None']);
  t.true(span.events.some((e) => e.name === 'ddbgen.retry'));
  t.like(span.attributes, { 'db.operation.name': 'TransactWriteItems', 'ddbgen.items': 2, 'ddbgen.retries': 1 });
  t.is(span.status.code, otel.api.SpanStatusCode.UNSET);
});

test('a transaction is reported from its commit: a builder never committed sends nothing and leaves no span or metric', async (t) => {
  const { otel, db, emf, emfLines } = setUp();
  const abandoned = db.transaction().user.create(user('t1'));
  t.truthy(abandoned);
  const built = db.transaction().user.create(user('t2'));
  await new Promise((resolve) => setTimeout(resolve, 30));
  const committing = Date.now();
  await built.commit();
  const spans = otel.spans().filter((s) => s.name === 'Social.transaction');
  t.is(spans.length, 1);
  // the span lasts from the commit, not from the builder made 30 ms before it
  const startedMs = spans[0]!.startTime[0] * 1000 + spans[0]!.startTime[1] / 1e6;
  t.true(startedMs >= committing - 1, `the span started ${committing - startedMs} ms before the commit`);
  t.like(spans[0]!.attributes, { 'db.operation.name': 'TransactWriteItems', 'ddbgen.items': 1 });
  t.is(otel.total(await otel.metrics(), 'ddbgen.operations', { 'ddbgen.pattern': 'transaction' }), 1);
  emf.flush();
  t.deepEqual(emfLines.map((line) => (JSON.parse(line) as { Calls: number }).Calls), [1]);
});

test('edges and collections: spans named by the edge and the table, with their key spaces', async (t) => {
  const { otel, db } = setUp();
  await db.user.put(user('u1'));
  await db.fan.add({ type: 'User', id: 'u1' }, { type: 'Actor', id: 'a1' }, { since: joined });
  await db.fan.outgoing({ type: 'User', id: 'u1' });
  await db.userCollection({ id: 'u1' });
  const byName = new Map(otel.spans().map((s) => [s.name, s]));
  t.like(byName.get('Fan.add')?.attributes, { 'ddbgen.entity': 'Fan', 'ddbgen.pattern': 'add', 'ddbgen.key_space': '<node> / FAN_OF.<toType>.<toId>' });
  t.like(byName.get('Fan.outgoing')?.attributes, { 'ddbgen.pattern': 'outgoing', 'db.operation.name': 'Query' });
  t.like(byName.get('Social.userCollection')?.attributes, { 'ddbgen.pattern': 'userCollection', 'ddbgen.key_space': 'User.<id>', 'aws.dynamodb.count': 2 });
  t.is(byName.get('Social.userCollection')?.attributes['ddbgen.entity'], undefined);
});

test('the SDK call runs inside the span: a span started by the client (as the AWS SDK instrumentation does) is its child', async (t) => {
  const { otel, memory } = setUp();
  const send = memory.send.bind(memory) as (command: unknown) => Promise<unknown>;
  (memory as unknown as { send: (command: { constructor: { name: string } }) => Promise<unknown> }).send = async (command) => {
    const span = otel.tracer.startSpan(`DynamoDB.${command.constructor.name.replace(/Command$/, '')}`, { kind: otel.api.SpanKind.CLIENT }, otel.api.context.active());
    try {
      return await send(command);
    } finally {
      span.end();
    }
  };
  const db = new SocialTable(memory as unknown as DynamoDBDocumentClient, { telemetry: openTelemetry(otel.api, { tracer: otel.tracer, meter: otel.meter }) });
  await db.user.put(user('u1'));
  const [sdk, ours] = otel.spans();
  t.is(sdk!.name, 'DynamoDB.Put');
  t.is(ours!.name, 'User.put');
  t.is(sdk!.parentSpanContext?.spanId, ours!.spanContext().spanId);
  t.is(sdk!.spanContext().traceId, ours!.spanContext().traceId);
});

test('off: nothing is wrapped and no request asks for consumed capacity', async (t) => {
  const { client, sent } = recordingClient();
  const db = new SocialTable(client);
  t.is(db.user.get, Object.getPrototypeOf(db.user).get);
  t.false(Object.prototype.hasOwnProperty.call(db, 'transaction'));
  await db.user.get({ id: 'u1' });
  await db.user.batchPut([user('u1')]);
  t.true(sent.length > 0);
  t.true(sent.every((command) => !('ReturnConsumedCapacity' in command.input)));
  // on: every request asks for INDEXES
  const on = recordingClient();
  const otel = otelHarness();
  const traced = new SocialTable(on.client, { telemetry: openTelemetry(otel.api, { tracer: otel.tracer, meter: otel.meter }) });
  await traced.user.get({ id: 'u1' });
  await traced.user.batchPut([user('u1')]);
  t.deepEqual(on.sent.map((command) => command.input['ReturnConsumedCapacity']), ['INDEXES', 'INDEXES']);
});

test('EMF: one line per pattern and key space, with the units the responses reported', async (t) => {
  const { db, emf, emfLines, answered } = setUp();
  await db.article.put({ userId: 'u1', articleId: 'a1', name: 'n', updatedAt: joined, views: 1 });
  await db.user.put(user('u1'));
  await db.user.get({ id: 'u1' });
  await db.user.get({ id: 'u1' });
  emf.flush();
  const docs = emfLines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const of = (entity: string, pattern: string, index: string) => docs.find((d) => d['Entity'] === entity && d['Pattern'] === pattern && d['Index'] === index);
  t.like(of('User', 'get', '(table)'), { Table: 'Social', Operation: 'GetItem', Calls: 2, Items: 2, ConsumedReadCapacity: unitsOf(answered.slice(2)) });
  t.like(of('Article', 'put', '(table)'), { Calls: 1, ConsumedWriteCapacity: answered[0]!.Table!.CapacityUnits });
  t.like(of('Article', 'put', 'byName'), { Calls: 0, ConsumedWriteCapacity: answered[0]!.GlobalSecondaryIndexes!['byName']!.CapacityUnits });
  t.deepEqual((of('User', 'get', '(table)')!['Latency'] as number[]).length, 2);
  t.deepEqual(emf.flush(), []);
});

test('openTelemetry(api) alone uses the tracer and meter the application registered globally', async (t) => {
  const otel = otelHarness();
  // what an application's SDK set-up does: register its providers with the API
  otel.api.trace.setGlobalTracerProvider({ getTracer: () => otel.tracer });
  otel.api.metrics.setGlobalMeterProvider({ getMeter: () => otel.meter });
  const { memory } = memoryTable();
  const db = new SocialTable(memory as unknown as DynamoDBDocumentClient, { telemetry: openTelemetry(otel.api) });
  await db.user.put(user('g1'));
  t.deepEqual(otel.spans().map((s) => s.name), ['User.put']);
  t.is(otel.total(await otel.metrics(), 'ddbgen.operations', { 'ddbgen.pattern': 'put' }), 1);
});
