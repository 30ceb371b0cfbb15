// Section 1: client-side overhead, every contender over a stubbed send() (no SDK round trip, no
// network), and ddbgen with telemetry on (the OpenTelemetry SDK, the EMF writer) beside it.
import * as otelApi from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, PeriodicExportingMetricReader, AggregationTemporality, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import { PutItemCommand, QueryCommand as ToolboxQuery } from 'dynamodb-toolbox';
import { BenchTable, EmfWriter, openTelemetry, telemetry } from '../bench-output.js';
import { article, electroPut, electroQuery, expertPut, expertQuery, ddbgenPut, ddbgenQuery, oneTablePut, oneTableQuery, putClient, queryClient, toolboxPutEntity, toolboxQueryClient, toolboxQueryEntity, toolboxTable } from '../article-contenders.js';
import { gate, sideBySide } from '../measure.js';
import { fmt, goals, readVersion, section, table, verdict } from '../report.js';
import { size } from '../run-options.js';

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

/** Section 1: put and query with every contender over stub clients, telemetry off and on. */
export async function clientOverhead(): Promise<void> {
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
