// The OpenTelemetry sink: a CLIENT span per operation after the DynamoDB semantic conventions, and
// ddbgen's metrics.
//
// No import of @opentelemetry/api: the OpenTelemetry sink takes the API module it is given (its
// types are the structural subset used here), so an output without telemetry, or with EMF only,
// needs no OpenTelemetry package at all.

import { telemetry, type TableTelemetry } from './telemetry.js';
import type { OperationStart, SinkOperation, TelemetrySink } from './telemetry-sink.js';

/** The parts of `@opentelemetry/api` this sink uses (pass the module: `import * as api from '@opentelemetry/api'`). */
export interface OpenTelemetryApi {
  readonly trace: {
    getTracer(name: string, version?: string): OtelTracer;
    setSpan(context: unknown, span: OtelSpan): unknown;
  };
  readonly context: {
    active(): unknown;
    with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: never, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F>;
  };
  readonly metrics: { getMeter(name: string, version?: string): OtelMeter };
  readonly SpanKind: { readonly CLIENT: number };
  readonly SpanStatusCode: { readonly ERROR: number };
}
export interface OtelTracer {
  startSpan(name: string, options?: { kind?: never; attributes?: Record<string, unknown>; startTime?: number }, context?: never): OtelSpan;
}
export interface OtelSpan {
  setAttributes(attributes: Record<string, unknown>): unknown;
  setAttribute(key: string, value: unknown): unknown;
  addEvent(name: string, attributes?: Record<string, unknown>): unknown;
  setStatus(status: { code: never; message?: string }): unknown;
  end(): void;
}
export interface OtelMeter {
  createCounter(name: string, options?: { description?: string; unit?: string }): { add(value: number, attributes?: Record<string, unknown>): void };
  createHistogram(name: string, options?: { description?: string; unit?: string }): { record(value: number, attributes?: Record<string, unknown>): void };
}

export interface OpenTelemetryOptions {
  /** The tracer (default `api.trace.getTracer('ddbgen')`). */
  readonly tracer?: OtelTracer;
  /** The meter (default `api.metrics.getMeter('ddbgen')`). */
  readonly meter?: OtelMeter;
}

/** The metric names ddbgen records: see the Telemetry guide. */
export const METRICS = {
  duration: 'db.client.operation.duration',
  readUnits: 'ddbgen.consumed_capacity.read',
  writeUnits: 'ddbgen.consumed_capacity.write',
  throttles: 'ddbgen.throttles',
  retries: 'ddbgen.retries',
  items: 'ddbgen.items',
  operations: 'ddbgen.operations',
} as const;

/** Spans and metrics through OpenTelemetry's API: a CLIENT span per operation after the DynamoDB semantic conventions, plus ddbgen's own attributes. */
export function openTelemetrySink(api: OpenTelemetryApi, options: OpenTelemetryOptions = {}): TelemetrySink {
  const tracer = options.tracer ?? api.trace.getTracer('ddbgen');
  const meter = options.meter ?? api.metrics.getMeter('ddbgen');
  const duration = meter.createHistogram(METRICS.duration, { description: 'Duration of a ddbgen operation (every request it sent, retries included)', unit: 's' });
  const readUnits = meter.createCounter(METRICS.readUnits, { description: 'Read capacity units consumed, as DynamoDB reported them', unit: '{capacity_unit}' });
  const writeUnits = meter.createCounter(METRICS.writeUnits, { description: 'Write capacity units consumed, as DynamoDB reported them', unit: '{capacity_unit}' });
  const throttles = meter.createCounter(METRICS.throttles, { description: 'Throttled attempts', unit: '{throttle}' });
  const retries = meter.createCounter(METRICS.retries, { description: 'Attempts beyond the first (SDK and ddbgen retries)', unit: '{retry}' });
  const items = meter.createCounter(METRICS.items, { description: 'Items returned or written', unit: '{item}' });
  const operations = meter.createCounter(METRICS.operations, { description: 'Operations (calls of a generated method)', unit: '{operation}' });
  return {
    start(start: OperationStart): SinkOperation {
      const attributes: Record<string, unknown> = {
        'db.system.name': 'aws.dynamodb',
        'db.system': 'dynamodb',
        'rpc.system': 'aws-api',
        'rpc.service': 'DynamoDB',
        'db.collection.name': start.table,
        'aws.dynamodb.table_names': [start.table],
        'ddbgen.pattern': start.pattern,
      };
      if (start.entity !== undefined) attributes['ddbgen.entity'] = start.entity;
      if (start.keySpace !== undefined) attributes['ddbgen.key_space'] = start.keySpace;
      // begun at its first request: the span starts when the app called
      const span = tracer.startSpan(start.name, { kind: api.SpanKind.CLIENT as never, attributes, startTime: start.startTime });
      const spanContext = api.trace.setSpan(api.context.active(), span);
      return {
        run: <T>(fn: () => T): T => api.context.with(spanContext as never, fn),
        setAttributes: (a) => span.setAttributes(a),
        event: (name, a) => span.addEvent(name, a),
        end(summary) {
          const base: Record<string, unknown> = {
            'db.system.name': 'aws.dynamodb',
            'db.collection.name': summary.table,
            'db.operation.name': summary.operations[0] ?? 'none',
            'ddbgen.pattern': summary.pattern,
          };
          if (summary.entity !== undefined) base['ddbgen.entity'] = summary.entity;
          if (summary.error !== undefined) base['error.type'] = summary.error;
          duration.record(summary.durationMs / 1000, base);
          operations.add(1, base);
          for (const part of summary.consumed) {
            const where = part.index === undefined ? base : { ...base, 'aws.dynamodb.index_name': part.index };
            if (part.read > 0) readUnits.add(part.read, where);
            if (part.write > 0) writeUnits.add(part.write, where);
          }
          if (summary.throttles > 0) throttles.add(summary.throttles, base);
          if (summary.retries > 0) retries.add(summary.retries, base);
          if (summary.items > 0) items.add(summary.items, base);
          span.setAttributes({ 'ddbgen.read_units': summary.readUnits, 'ddbgen.write_units': summary.writeUnits, 'ddbgen.requests': summary.requests, 'ddbgen.throttles': summary.throttles, 'ddbgen.retries': summary.retries, 'ddbgen.items': summary.items });
          if (summary.error !== undefined) {
            span.setAttribute('error.type', summary.error);
            span.setStatus({ code: api.SpanStatusCode.ERROR as never });
          }
          span.end();
        },
      };
    },
  };
}

/** OpenTelemetry spans and metrics, as the `telemetry` option: `new SocialTable(client, { telemetry: openTelemetry(api) })`. */
export function openTelemetry(api: OpenTelemetryApi, options: OpenTelemetryOptions & { readonly sinks?: readonly TelemetrySink[] } = {}): TableTelemetry {
  return telemetry(openTelemetrySink(api, options), ...(options.sinks ?? []));
}
