// One logical operation of telemetry: the call the app made, the requests it sent through its own
// client, and what their answers and errors reported, told to the sinks as events and, at its end,
// as one summary.

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './repository.js';
import { WRITES, capacityJson, errorName, isThrottle, operationOf, splitCapacity, throttlingReasons, type Command, type ConsumedCapacity, type Input } from './telemetry-command.js';
import type { ConsumedUnits, OperationStart, OperationSummary, SinkOperation, TelemetryAttributes, TelemetrySink } from './telemetry-sink.js';

/** At most this many events per operation (a scan of many pages): the rest are counted, not recorded. */
const MAX_EVENTS = 128;

/** One logical operation: its sinks' operations, and what its requests reported. */
export class Operation {
  private readonly given: readonly TelemetrySink[];
  /** The sinks' side of this operation, once it has begun (its first request, or its end). */
  private begun: SinkOperation[] | undefined;
  private started: number;
  private readonly operations: string[] = [];
  private index: string | undefined;
  private keySpace: string | undefined;
  private readonly consumed = new Map<string, { read: number; write: number }>();
  private requests = 0;
  private items = 0;
  private count = 0;
  private scannedCount = 0;
  private throttles = 0;
  private retries = 0;
  private unprocessed = 0;
  private events = 0;
  private dropped = 0;
  /** The last request left work undone (unprocessed items, a conflict): the next one is a retry. */
  private resend = false;
  private done = false;
  readonly context: TableContext;
  private start: OperationStart;
  private readonly keySpaceOf: (indexName: string | undefined) => string | undefined;
  private readonly clock: () => number;

  constructor(start: OperationStart, sinks: readonly TelemetrySink[], base: TableContext, keySpaceOf: (indexName: string | undefined) => string | undefined, clock: () => number) {
    this.start = start;
    this.keySpaceOf = keySpaceOf;
    this.clock = clock;
    this.started = clock();
    this.keySpace = start.keySpace;
    this.given = sinks;
    const client = { send: (command: Command, ...rest: unknown[]) => this.send(base.client, command, rest) } as unknown as DynamoDBDocumentClient;
    // the operation's own context: its requests counted here, and no telemetry of its own (a function form called within it is part of it)
    const { telemetry: _telemetry, ...rest } = base;
    this.context = { ...rest, client };
  }

  /** The sinks' side, told of the operation the first time it is needed (sinks see only operations that happen). */
  private get sinks(): SinkOperation[] {
    return (this.begun ??= this.given.map((sink) => sink.start(this.start)));
  }

  /**
   * From now: an operation that has not begun (a transaction's builder, made before its commit)
   * starts its clock again, so that it lasts from the commit to the answer.
   */
  restart(): void {
    if (this.begun !== undefined) return;
    this.start = { ...this.start, startTime: Date.now() };
    this.started = this.clock();
  }

  /** Runs `fn` within every sink's context (OpenTelemetry's span as the active one). */
  run<T>(fn: () => T): T {
    let run = fn;
    for (const sink of this.sinks) {
      if (sink.run === undefined) continue;
      const inner = run;
      run = () => sink.run!(inner);
    }
    return run();
  }

  private attributes(attributes: TelemetryAttributes): void {
    for (const sink of this.sinks) sink.setAttributes?.(attributes);
  }

  private event(name: string, attributes: TelemetryAttributes): void {
    if (this.events >= MAX_EVENTS) {
      this.dropped++;
      return;
    }
    this.events++;
    for (const sink of this.sinks) sink.event?.(name, attributes);
  }

  private async send(client: DynamoDBDocumentClient, command: Command, rest: unknown[]): Promise<unknown> {
    const operation = operationOf(command);
    const input = command.input;
    if (this.operations.length === 0) {
      const keySpace = this.keySpace ?? this.keySpaceOf(input.IndexName);
      this.keySpace = keySpace;
      const first: TelemetryAttributes = { 'db.operation.name': operation, 'rpc.method': operation };
      if (input.IndexName !== undefined) first['aws.dynamodb.index_name'] = input.IndexName;
      if (keySpace !== undefined) first['ddbgen.key_space'] = keySpace;
      if (input.Limit !== undefined) first['aws.dynamodb.limit'] = input.Limit;
      if (input.ConsistentRead !== undefined) first['aws.dynamodb.consistent_read'] = input.ConsistentRead;
      if (input.ScanIndexForward !== undefined) first['aws.dynamodb.scan_forward'] = input.ScanIndexForward;
      if (input.TotalSegments !== undefined) first['aws.dynamodb.total_segments'] = input.TotalSegments;
      this.attributes(first);
    }
    if (!this.operations.includes(operation)) this.operations.push(operation);
    if (input.IndexName !== undefined) this.index = input.IndexName;
    if (this.resend) {
      this.retries++;
      this.event('ddbgen.retry', { 'db.operation.name': operation, 'ddbgen.retry.by': 'ddbgen' });
    }
    this.resend = false;
    // the units per table and index: only asked for with telemetry on
    input.ReturnConsumedCapacity = 'INDEXES';
    let attempts = 0;
    command.middlewareStack?.add(
      (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
        attempts++;
        if (attempts > 1) {
          this.retries++;
          this.event('ddbgen.retry', { 'db.operation.name': operation, 'ddbgen.retry.by': 'sdk', 'ddbgen.attempt': attempts });
        }
        try {
          return await next(args);
        } catch (error) {
          this.failedAttempt(operation, error);
          throw error;
        }
      },
      { step: 'deserialize', name: 'ddbgenTelemetry', override: true },
    );
    try {
      const result = (await this.run(() => (client.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest))) as Record<string, unknown>;
      this.answered(operation, input, result, attempts);
      return result;
    } catch (error) {
      // a failure the middleware did not see (no middleware ran: a client without a stack)
      if (attempts === 0) this.failedAttempt(operation, error);
      this.failedRequest(operation, error);
      throw error;
    }
  }

  private failedAttempt(operation: string, error: unknown): void {
    const name = errorName(error);
    if (isThrottle(name)) {
      this.throttles++;
      const { reasons, resources } = throttlingReasons(error);
      this.event('ddbgen.throttle', { 'db.operation.name': operation, 'error.type': name, 'aws.dynamodb.throttling_reasons': reasons, 'aws.dynamodb.throttled_resources': resources });
    }
  }

  private failedRequest(operation: string, error: unknown): void {
    const name = errorName(error);
    if (name === 'TransactionCanceledException') {
      const reasons = ((error as { CancellationReasons?: Array<{ Code?: unknown }> }).CancellationReasons ?? []).map((r) => String(r.Code ?? 'None'));
      this.event('ddbgen.transaction_cancelled', { 'db.operation.name': operation, 'aws.dynamodb.cancellation_reasons': reasons });
      // a conflict is retried by ddbgen: the next request of this operation is a retry
      this.resend = reasons.some((code) => code === 'TransactionConflict');
    } else if (name === 'TransactionInProgressException') this.resend = true;
    else if (isThrottle(name)) this.resend = true; // a batch retries a throttled request itself
  }

  private answered(operation: string, input: Input, result: Record<string, unknown>, attempts: number): void {
    this.requests++;
    const capacities = (Array.isArray(result['ConsumedCapacity']) ? result['ConsumedCapacity'] : result['ConsumedCapacity'] === undefined ? [] : [result['ConsumedCapacity']]) as ConsumedCapacity[];
    let read = 0;
    let write = 0;
    for (const capacity of capacities) {
      for (const part of splitCapacity(capacity, operation)) {
        const key = part.index ?? '';
        const sum = this.consumed.get(key) ?? { read: 0, write: 0 };
        sum.read += part.read;
        sum.write += part.write;
        this.consumed.set(key, sum);
        read += part.read;
        write += part.write;
      }
    }
    if (capacities.length > 0) this.consumedJson.push(...capacities.map(capacityJson));
    const page: TelemetryAttributes = { 'db.operation.name': operation, 'ddbgen.read_units': read, 'ddbgen.write_units': write };
    if (attempts > 1) page['ddbgen.attempts'] = attempts;
    switch (operation) {
      case 'Query':
      case 'Scan': {
        const count = Number(result['Count'] ?? 0);
        const scanned = Number(result['ScannedCount'] ?? count);
        this.count += count;
        this.scannedCount += scanned;
        this.items += count;
        page['aws.dynamodb.count'] = count;
        page['aws.dynamodb.scanned_count'] = scanned;
        page['ddbgen.more'] = result['LastEvaluatedKey'] !== undefined;
        if (input.Segment !== undefined) page['aws.dynamodb.segment'] = input.Segment;
        this.event('ddbgen.page', page);
        break;
      }
      case 'BatchGetItem':
      case 'BatchWriteItem': {
        const requested = Object.values(input.RequestItems ?? {}).reduce<number>((sum, entry) => sum + (Array.isArray(entry) ? entry.length : ((entry as { Keys?: unknown[] }).Keys?.length ?? 0)), 0);
        const left = Object.values((result['UnprocessedItems'] ?? result['UnprocessedKeys'] ?? {}) as Record<string, unknown>).reduce<number>(
          (sum, entry) => sum + (Array.isArray(entry) ? entry.length : ((entry as { Keys?: unknown[] }).Keys?.length ?? 0)),
          0,
        );
        const returned = operation === 'BatchGetItem' ? Object.values((result['Responses'] ?? {}) as Record<string, unknown[]>).reduce((sum, items) => sum + items.length, 0) : requested - left;
        this.items += returned;
        page['ddbgen.batch.requested'] = requested;
        page['ddbgen.batch.unprocessed'] = left;
        this.event('ddbgen.batch_chunk', page);
        if (left > 0) {
          this.unprocessed += left;
          this.resend = true;
          this.event('ddbgen.unprocessed', { 'db.operation.name': operation, 'ddbgen.batch.unprocessed': left });
        }
        break;
      }
      case 'GetItem':
        if (result['Item'] !== undefined) this.items++;
        break;
      case 'TransactWriteItems':
        this.items += input.TransactItems?.length ?? 0;
        break;
      default:
        if (WRITES.has(operation)) this.items++;
    }
  }

  private readonly consumedJson: string[] = [];

  end(error?: unknown): void {
    if (this.done) return;
    this.done = true;
    const consumed: ConsumedUnits[] = [];
    let readUnits = 0;
    let writeUnits = 0;
    for (const [index, units] of this.consumed) {
      consumed.push(index === '' ? { read: units.read, write: units.write } : { index, read: units.read, write: units.write });
      readUnits += units.read;
      writeUnits += units.write;
    }
    const start = this.start;
    // one literal of one shape (no spreads): this runs once per call
    const summary: OperationSummary = {
      name: start.name,
      table: start.table,
      entity: start.entity,
      pattern: start.pattern,
      keySpace: this.keySpace,
      startTime: start.startTime,
      operations: this.operations,
      index: this.index,
      durationMs: this.clock() - this.started,
      requests: this.requests,
      consumed,
      readUnits,
      writeUnits,
      items: this.items,
      count: this.count,
      scannedCount: this.scannedCount,
      throttles: this.throttles,
      retries: this.retries,
      unprocessed: this.unprocessed,
      error: error === undefined ? undefined : errorName(error),
    };
    const last: TelemetryAttributes = {};
    if (this.consumedJson.length > 0) last['aws.dynamodb.consumed_capacity'] = this.consumedJson;
    if (this.operations.some((o) => o === 'Query' || o === 'Scan')) {
      last['aws.dynamodb.count'] = this.count;
      last['aws.dynamodb.scanned_count'] = this.scannedCount;
    }
    if (this.dropped > 0) last['ddbgen.events_dropped'] = this.dropped;
    if (Object.keys(last).length > 0) this.attributes(last);
    for (const sink of this.sinks) sink.end(summary);
  }
}
