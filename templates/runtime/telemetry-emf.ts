// CloudWatch Embedded Metric Format: a telemetry sink that aggregates operations per access pattern
// and writes one EMF JSON line per group when flushed (on Lambda, stdout is the metrics pipe).
// Dimensions: Table, Entity, Pattern, Index, Operation. A group's `Index` is the key space whose
// units it carries: an operation's calls, latency, items, throttles and retries go to the group of
// the key space it read (the table, or the index it queried); the units a write consumed in each
// GSI go to that GSI's group, so a GSI's write cost is seen beside its table's.
// Specification: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html

import type { OperationStart, OperationSummary, SinkOperation, TelemetrySink } from './telemetry-sink.js';

/** The dimension value of the table's own key space, and of a table-wide operation's entity. */
export const TABLE_KEY_SPACE = '(table)';

/** The metrics of each group, with their CloudWatch units. */
export const EMF_METRICS = [
  { Name: 'Calls', Unit: 'Count' },
  { Name: 'ConsumedReadCapacity', Unit: 'Count' },
  { Name: 'ConsumedWriteCapacity', Unit: 'Count' },
  { Name: 'Items', Unit: 'Count' },
  { Name: 'Throttles', Unit: 'Count' },
  { Name: 'Retries', Unit: 'Count' },
  { Name: 'Errors', Unit: 'Count' },
  { Name: 'Latency', Unit: 'Milliseconds' },
] as const;

/** EMF allows at most 100 values in one metric's array: a group with that many latencies is written out at once. */
const MAX_VALUES = 100;

export interface EmfOptions {
  /** CloudWatch namespace (default `ddbgen`). */
  readonly namespace?: string;
  /** Where each line goes (default: standard output, one line each). */
  readonly write?: (line: string) => void;
  /** The clock, in milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

interface Group {
  readonly dimensions: { Table: string; Entity: string; Pattern: string; Index: string; Operation: string };
  calls: number;
  read: number;
  write: number;
  items: number;
  throttles: number;
  retries: number;
  errors: number;
  latency: number[];
}

/** One EMF document as written: `_aws` metadata, the dimensions and the metric values. */
export type EmfDocument = Record<string, unknown> & { _aws: { Timestamp: number; CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }> } };

/** Aggregates operations per pattern and key space; `flush()` writes them as EMF lines. */
export class EmfWriter implements TelemetrySink {
  private readonly groups = new Map<string, Group>();
  private readonly namespace: string;
  private readonly output: (line: string) => void;
  private readonly now: () => number;
  private periodStart: number;

  constructor(options: EmfOptions = {}) {
    this.namespace = options.namespace ?? 'ddbgen';
    this.output = options.write ?? ((line) => (globalThis as unknown as { process?: { stdout: { write(s: string): void } } }).process?.stdout.write(`${line}\n`));
    this.now = options.now ?? Date.now;
    this.periodStart = this.now();
  }

  start(_operation: OperationStart): SinkOperation {
    return { end: (summary) => this.record(summary) };
  }

  private group(summary: OperationSummary, index: string): Group {
    const operation = summary.operations.length === 0 ? 'None' : summary.operations.join('+');
    const dimensions = { Table: summary.table, Entity: summary.entity ?? TABLE_KEY_SPACE, Pattern: summary.pattern, Index: index, Operation: operation };
    const key = JSON.stringify(dimensions);
    let group = this.groups.get(key);
    if (group === undefined) {
      group = { dimensions, calls: 0, read: 0, write: 0, items: 0, throttles: 0, retries: 0, errors: 0, latency: [] };
      this.groups.set(key, group);
    }
    return group;
  }

  /** Adds one operation's figures to its groups. */
  record(summary: OperationSummary): void {
    const main = this.group(summary, summary.index ?? TABLE_KEY_SPACE);
    main.calls++;
    main.items += summary.items;
    main.throttles += summary.throttles;
    main.retries += summary.retries;
    if (summary.error !== undefined) main.errors++;
    main.latency.push(Math.round(summary.durationMs * 1000) / 1000);
    for (const part of summary.consumed) {
      const group = this.group(summary, part.index ?? TABLE_KEY_SPACE);
      group.read += part.read;
      group.write += part.write;
    }
    if (main.latency.length >= MAX_VALUES) this.flush();
  }

  /** The EMF documents of everything recorded since the last flush, without writing or clearing them. */
  documents(): EmfDocument[] {
    const timestamp = Math.round(this.now());
    return [...this.groups.values()].map((group) => ({
      _aws: {
        Timestamp: timestamp,
        CloudWatchMetrics: [{ Namespace: this.namespace, Dimensions: [['Table', 'Entity', 'Pattern', 'Index', 'Operation']], Metrics: EMF_METRICS.map((m) => ({ Name: m.Name, Unit: m.Unit })) }],
      },
      ...group.dimensions,
      Calls: group.calls,
      ConsumedReadCapacity: round(group.read),
      ConsumedWriteCapacity: round(group.write),
      Items: group.items,
      Throttles: group.throttles,
      Retries: group.retries,
      Errors: group.errors,
      Latency: group.latency.length === 0 ? 0 : [...group.latency],
      // the window the figures cover, so rates can be read back (ddbgen lint --observed)
      PeriodStart: Math.round(this.periodStart),
    }));
  }

  /** Writes one EMF line per group and starts a new period; returns the lines. */
  flush(): string[] {
    const lines = this.documents().map((document) => JSON.stringify(document));
    this.groups.clear();
    this.periodStart = this.now();
    for (const line of lines) this.output(line);
    return lines;
  }
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;
