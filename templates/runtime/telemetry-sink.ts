// The contract between telemetry and its sinks: what a sink is told when an operation starts and
// when it ends, and what it may do in between (run the operation's requests in its context, take
// attributes and events). The OpenTelemetry sink (telemetry-otel.ts) and the EMF writer
// (telemetry-emf.ts) implement it; an app may write its own.

/** A span or metric attribute value: never a key or stored value, only names, templates and numbers. */
export type TelemetryValue = string | number | boolean | readonly string[];
export type TelemetryAttributes = Record<string, TelemetryValue>;

/** What a sink is told when an operation starts. */
export interface OperationStart {
  /** What the app called: `User.get`, `Article.recentArticles`, `Fan.add`, `Social.userCollection`. */
  readonly name: string;
  /** The physical table name. */
  readonly table: string;
  /** The entity (or edge) whose repository was called; absent for a table-wide call (a scan). */
  readonly entity?: string | undefined;
  /** The access pattern: the method, without the `All` of an iterating form (`recentArticles`). */
  readonly pattern: string;
  /** The key space's templates (`User.<id> / PROFILE`), when the method names one before any request. */
  readonly keySpace?: string | undefined;
  /** Milliseconds since the epoch. */
  readonly startTime: number;
}

/** Consumed units of one key space: the table (`index` absent) or one index. */
export interface ConsumedUnits {
  readonly index?: string;
  readonly read: number;
  readonly write: number;
}

/** What a sink is told when an operation ends. */
export interface OperationSummary extends OperationStart {
  /** DynamoDB operation(s) sent, in order of first use: `GetItem`, `Query`, `BatchWriteItem`, … */
  readonly operations: readonly string[];
  /** The index queried, if any. */
  readonly index?: string | undefined;
  readonly keySpace?: string | undefined;
  readonly durationMs: number;
  /** Requests answered (each page, chunk, attempt that succeeded). */
  readonly requests: number;
  /** Units consumed, as the responses reported them (ReturnConsumedCapacity INDEXES), by key space. */
  readonly consumed: readonly ConsumedUnits[];
  /** Total read and write units (table and indexes). */
  readonly readUnits: number;
  readonly writeUnits: number;
  /** Items returned (Count summed over pages; found items of a get or batch get) or written. */
  readonly items: number;
  readonly count: number;
  readonly scannedCount: number;
  readonly throttles: number;
  /** Attempts beyond the first: the SDK's retries and ddbgen's own (unprocessed items, conflicts). */
  readonly retries: number;
  readonly unprocessed: number;
  /** The error's name, when the operation failed (never its message: messages may quote values). */
  readonly error?: string | undefined;
}

/** One operation as a sink sees it. */
export interface SinkOperation {
  /** Runs an SDK call within the operation's trace context (OpenTelemetry: `context.with`), so the SDK's own spans nest under it. */
  run?<T>(fn: () => T): T;
  /** Attributes learnt during the operation (operation name, index, key space). */
  setAttributes?(attributes: TelemetryAttributes): void;
  /** A point in the operation: a page, a batch chunk, a retry, a throttle, unprocessed items, a cancellation. */
  event?(name: string, attributes: TelemetryAttributes): void;
  end(summary: OperationSummary): void;
}

/** Where telemetry goes: an OpenTelemetry sink (`openTelemetrySink`), an EMF writer, or your own. */
export interface TelemetrySink {
  start(operation: OperationStart): SinkOperation;
}
