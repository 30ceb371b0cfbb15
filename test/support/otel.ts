// The OpenTelemetry SDK with in-memory exporters, for tests of ddbgen's telemetry: a tracer
// provider whose finished spans are kept, a meter provider whose metrics are read on demand, and
// the AsyncLocalStorage context manager (registered once per process) so `context.with` carries
// the active span across awaits, as in an instrumented application.
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { JsonMetricsSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';

let registered = false;

/** One metric data point: its instrument's name and unit, its attributes, and its value (a sum, or a histogram's count and sum). */
export interface Point {
  readonly name: string;
  readonly unit: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly value: number;
  readonly count?: number;
}

export interface OtelHarness {
  readonly api: typeof api;
  readonly tracer: api.Tracer;
  readonly meter: api.Meter;
  spans(): ReadableSpan[];
  metrics(): Promise<Point[]>;
  /** The metrics as an OTLP/HTTP JSON body (ExportMetricsServiceRequest), as the SDK's own serializer writes it. */
  otlpJson(): Promise<string>;
  /** The sum of a metric's points whose attributes include `where`. */
  total(points: readonly Point[], name: string, where?: Readonly<Record<string, unknown>>): number;
  shutdown(): Promise<void>;
}

export function otelHarness(): OtelHarness {
  if (!registered) {
    api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    registered = true;
  }
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spanExporter })] });
  const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    api,
    tracer: tracerProvider.getTracer('ddbgen-test'),
    meter: meterProvider.getMeter('ddbgen-test'),
    spans: () => spanExporter.getFinishedSpans(),
    async metrics() {
      const { resourceMetrics } = await reader.collect();
      const out: Point[] = [];
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          for (const point of metric.dataPoints as Array<DataPoint<number | Histogram>>) {
            const value = point.value;
            out.push(
              typeof value === 'number'
                ? { name: metric.descriptor.name, unit: metric.descriptor.unit, attributes: point.attributes, value }
                : { name: metric.descriptor.name, unit: metric.descriptor.unit, attributes: point.attributes, value: value.sum ?? 0, count: value.count },
            );
          }
        }
      }
      return out;
    },
    async otlpJson() {
      const { resourceMetrics } = await reader.collect();
      return new TextDecoder().decode(JsonMetricsSerializer.serializeRequest(resourceMetrics));
    },
    total(points, name, where = {}) {
      return points.filter((p) => p.name === name && Object.entries(where).every(([k, v]) => p.attributes[k] === v)).reduce((sum, p) => sum + p.value, 0);
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}
