// Telemetry per access pattern. Off (the default) it costs nothing: the table class only calls
// `telemetry.instrument` when given one, and nothing else in the runtime knows about it. On, every
// public method of every repository, edge and the table object is wrapped: one operation per call,
// named by what the app called (`User.get`, `Article.recentArticles`, `Fan.add`), and the call runs
// with a context of its own whose client sees each request and response of that call alone. It
// asks for ReturnConsumedCapacity INDEXES, adds a middleware that sees each attempt the SDK makes
// (throttles with their ThrottlingReasons, retries), and tells sinks (OpenTelemetry, EMF) what
// happened: entity, pattern, key space (the key TEMPLATE), operation, index, consumed units per
// table and index, counts, pages, batch chunks, unprocessed items, cancellations. Nothing it
// reports carries a key value or an attribute value: only names, templates, counts and units.
//
// No import of @opentelemetry/api: the OpenTelemetry sink takes the API module it is given (its
// types are the structural subset used here), so an output without telemetry, or with EMF only,
// needs no OpenTelemetry package at all.

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KeyCodec } from './codec.js';
import type { EntityModel, TableContext } from './repository.js';
import { COMMAND_OPERATIONS, type OperationTelemetry } from './table-context.js';

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

/**
 * The parts of an edge's model (edge.ts, `EdgeModel`) telemetry reads, written out here so that
 * an output without edges does not get the edge module for a type.
 */
export interface EdgeModel {
  readonly name: string;
  readonly nodes: Readonly<Record<string, unknown>>;
  readonly forward: string;
  readonly inverse?: string;
  readonly inverseIndex?: { readonly name: string; readonly pk: string; readonly sk: string };
  readonly delimiter: string;
}

/** What the table class hands to `instrument`: the models behind each member, to name operations and key spaces. */
export interface TableDescription {
  readonly table: string;
  readonly members: Readonly<Record<string, EntityModel | EdgeModel>>;
  /** Entity models a table-wide method reads (`userCollection` reads User's partition). */
  readonly collections?: Readonly<Record<string, EntityModel>>;
}

/** The `telemetry` option of a generated table class: made by `telemetry(...sinks)` or `openTelemetry(api)`. */
export interface TableTelemetry extends OperationTelemetry {
  /** Wraps the table object's members (called once, by its constructor). */
  instrument(table: object, context: TableContext, description: TableDescription): void;
}

// ---- key spaces ---------------------------------------------------------------------------------

type TemplateSegment = KeyCodec['def']['segments'][number];

/** A key template's text, as the schema writes it: `User.<id>`, `Candidate.<candidateId>.<shard>`, `<at:hour>`. */
export function templateText(codec: KeyCodec): string {
  const { delimiter, segments } = codec.def;
  return segments.map((s: TemplateSegment) => {
    const segment = s as { kind: string; text?: string; attr?: string; unit?: string; bucket?: boolean; prefix?: string; suffix?: string };
    if (segment.kind === 'literal') return segment.text ?? '';
    if (segment.kind === 'shard') return '<shard>';
    return `${segment.prefix ?? ''}<${segment.attr}${segment.bucket ? `:${segment.unit}` : ''}>${segment.suffix ?? ''}`;
  }).join(delimiter);
}

const isEdge = (model: EntityModel | EdgeModel): model is EdgeModel => 'forward' in model && 'nodes' in model;

/** The key space of an entity's request: the table key's templates, or those of the index it names. */
export function entityKeySpace(model: EntityModel, indexName?: string): string {
  if (indexName !== undefined) {
    const index = model.indexes.find((i) => (i.indexName ?? i.name) === indexName);
    if (index) return index.kind === 'gsi' ? `${templateText(index.pk.template)}${index.sk ? ` / ${templateText(index.sk.template)}` : ''}` : `${templateText(model.pk.template)}${index.sk ? ` / ${templateText(index.sk.template)}` : ''}`;
    const native = model.nativeIndexes?.find((i) => i.name === indexName);
    if (native) return `[${native.partition.map(([attribute]) => attribute).join(', ')}]${native.sort.length ? ` / [${native.sort.map(([attribute]) => attribute).join(', ')}]` : ''}`;
    return indexName;
  }
  return `${templateText(model.pk.template)}${model.sk ? ` / ${templateText(model.sk.template)}` : ''}`;
}

/** The key space of an edge's side: `<node> / FAN_OF.<toType>.<toId>`. */
export function edgeKeySpace(model: EdgeModel, side: 'forward' | 'inverse'): string {
  const d = model.delimiter;
  if (side === 'inverse' && model.inverseIndex) return `${model.inverseIndex.pk} / ${model.inverseIndex.sk}`;
  const label = side === 'forward' ? model.forward : (model.inverse ?? model.forward);
  return `<node> / ${label}${d}<${side === 'forward' ? 'toType' : 'fromType'}>${d}<${side === 'forward' ? 'toId' : 'fromId'}>`;
}

// ---- commands -------------------------------------------------------------------------------------

const OPERATIONS: Readonly<Record<string, string>> = COMMAND_OPERATIONS;

type Input = Record<string, unknown> & {
  TableName?: string;
  IndexName?: string;
  Limit?: number;
  ConsistentRead?: boolean;
  ScanIndexForward?: boolean;
  Segment?: number;
  TotalSegments?: number;
  ReturnConsumedCapacity?: string;
  RequestItems?: Record<string, unknown>;
  TransactItems?: unknown[];
};

interface Command {
  readonly input: Input;
  readonly constructor: { readonly name: string };
  readonly middlewareStack?: { add(middleware: unknown, options: Record<string, unknown>): void };
}

/** The DynamoDB operation a command sends, by its class, or by its input's shape where a bundler renamed the class. */
export function operationOf(command: Command): string {
  const known = OPERATIONS[command.constructor.name];
  if (known !== undefined) return known;
  const input = command.input;
  if (input.KeyConditionExpression !== undefined) return 'Query';
  if (input.TotalSegments !== undefined || input.Segment !== undefined) return 'Scan';
  if (input.TransactItems !== undefined) return (input.TransactItems as Array<Record<string, unknown>>).some((entry) => 'Get' in entry) ? 'TransactGetItems' : 'TransactWriteItems';
  if (input.RequestItems !== undefined) return Object.values(input.RequestItems).some((v) => Array.isArray(v)) ? 'BatchWriteItem' : 'BatchGetItem';
  if (input.Item !== undefined) return 'PutItem';
  if (input.UpdateExpression !== undefined) return 'UpdateItem';
  return 'Unknown';
}

interface CapacityBreakdown {
  readonly CapacityUnits?: number;
  readonly ReadCapacityUnits?: number;
  readonly WriteCapacityUnits?: number;
}
interface ConsumedCapacity extends CapacityBreakdown {
  readonly TableName?: string;
  readonly Table?: CapacityBreakdown;
  readonly GlobalSecondaryIndexes?: Readonly<Record<string, CapacityBreakdown>>;
  readonly LocalSecondaryIndexes?: Readonly<Record<string, CapacityBreakdown>>;
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/** Read and write units of one breakdown; a bare CapacityUnits counts as the operation's kind. */
function unitsOf(part: CapacityBreakdown, write: boolean): { read: number; write: number } {
  if (part.ReadCapacityUnits !== undefined || part.WriteCapacityUnits !== undefined) return { read: part.ReadCapacityUnits ?? 0, write: part.WriteCapacityUnits ?? 0 };
  const units = part.CapacityUnits ?? 0;
  return write ? { read: 0, write: units } : { read: units, write: 0 };
}

/** A ConsumedCapacity entry split by key space: the table's share and each index's (when INDEXES gives them). */
export function splitCapacity(capacity: ConsumedCapacity, operation: string): ConsumedUnits[] {
  const write = WRITES.has(operation);
  const indexes = [...Object.entries(capacity.GlobalSecondaryIndexes ?? {}), ...Object.entries(capacity.LocalSecondaryIndexes ?? {})];
  if (capacity.Table === undefined && indexes.length === 0) return [unitsOf(capacity, write)];
  const out: ConsumedUnits[] = [];
  const total = unitsOf(capacity, write);
  let table = capacity.Table ? unitsOf(capacity.Table, write) : undefined;
  const perIndex = indexes.map(([index, part]) => ({ index, ...unitsOf(part, write) }));
  if (table === undefined) {
    // only indexes listed: the table's share is what the total leaves
    const read = perIndex.reduce((s, p) => s + p.read, 0);
    const written = perIndex.reduce((s, p) => s + p.write, 0);
    table = { read: Math.max(0, total.read - read), write: Math.max(0, total.write - written) };
  }
  out.push(table);
  out.push(...perIndex);
  return out;
}

/** A ConsumedCapacity entry as the semantic conventions carry it (`aws.dynamodb.consumed_capacity`): JSON of units and names only. */
function capacityJson(capacity: ConsumedCapacity): string {
  const pick = (part: CapacityBreakdown | undefined) => (part === undefined ? undefined : { CapacityUnits: part.CapacityUnits, ReadCapacityUnits: part.ReadCapacityUnits, WriteCapacityUnits: part.WriteCapacityUnits });
  const indexes = (record: Readonly<Record<string, CapacityBreakdown>> | undefined) => (record === undefined ? undefined : Object.fromEntries(Object.entries(record).map(([name, part]) => [name, pick(part)])));
  return JSON.stringify({
    TableName: capacity.TableName,
    ...pick(capacity),
    Table: pick(capacity.Table),
    GlobalSecondaryIndexes: indexes(capacity.GlobalSecondaryIndexes),
    LocalSecondaryIndexes: indexes(capacity.LocalSecondaryIndexes),
  });
}

/** The reasons a throttle carries (ProvisionedThroughputExceeded, ThrottlingException): reason codes and the resource ARNs (table or index). */
function throttlingReasons(error: unknown): { reasons: string[]; resources: string[] } {
  const e = error as { ThrottlingReasons?: unknown; throttlingReasons?: unknown };
  const list = (Array.isArray(e.ThrottlingReasons) ? e.ThrottlingReasons : Array.isArray(e.throttlingReasons) ? e.throttlingReasons : []) as Array<{ reason?: unknown; resource?: unknown }>;
  return {
    reasons: list.map((r) => String(r.reason ?? 'unknown')),
    resources: list.map((r) => String(r.resource ?? '')),
  };
}

const errorName = (error: unknown): string => {
  const name = (error as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && /^[A-Za-z][A-Za-z0-9_.]*$/.test(name) ? name : 'Error';
};
const isThrottle = (name: string) => /Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded/.test(name);

// ---- one operation --------------------------------------------------------------------------------

/** At most this many events per operation (a scan of many pages): the rest are counted, not recorded. */
const MAX_EVENTS = 128;

/** One logical operation: its sinks' operations, and what its requests reported. */
class Operation {
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

// ---- instrumenting a table object -----------------------------------------------------------------

const IN_OPERATION = Symbol('ddbgen.operation');

function methodNames(target: object): string[] {
  const names = new Set<string>();
  for (let proto = Object.getPrototypeOf(target) as object | null; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || name.startsWith('_')) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (descriptor && typeof descriptor.value === 'function') names.add(name);
    }
  }
  return [...names];
}

const isAsyncIterator = (value: unknown): value is AsyncIterator<unknown> & AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { next?: unknown }).next === 'function' && Symbol.asyncIterator in value;

/** The promise's outcome, the operation ended with it (with the error when it rejects). */
function endWhenSettled<T>(promise: Promise<T>, operation: Operation): Promise<T> {
  return promise.then(
    (value) => {
      operation.end();
      return value;
    },
    (error: unknown) => {
      operation.end(error);
      throw error;
    },
  );
}

/** An async iterator whose steps run in the operation's context; the operation ends when it does. */
function tracedIterator(iterator: AsyncIterator<unknown> & AsyncIterable<unknown>, operation: Operation): AsyncGenerator<unknown, void, undefined> {
  const step = async (run: () => Promise<IteratorResult<unknown>>) => {
    try {
      const result = await operation.run(run);
      if (result.done) operation.end();
      return result;
    } catch (error) {
      operation.end(error);
      throw error;
    }
  };
  const traced = {
    next: () => step(() => iterator.next()),
    return: (value?: unknown) => step(() => (iterator.return ? iterator.return(value) : Promise.resolve({ done: true as const, value: undefined }))),
    throw: (error?: unknown) => step(() => (iterator.throw ? iterator.throw(error) : Promise.reject(error))),
    [Symbol.asyncIterator]() {
      return traced;
    },
  };
  return traced as unknown as AsyncGenerator<unknown, void, undefined>;
}

interface Naming {
  readonly owner: string;
  readonly entity?: string;
  readonly keySpace?: (method: string) => string | undefined;
  readonly keySpaceOf: (indexName: string | undefined) => string | undefined;
}

function wrapMember(target: Record<string | symbol, unknown>, given: Naming, sinks: readonly TelemetrySink[], base: TableContext, clock: () => number): void {
  const names = methodNames(target);
  // key spaces worked out once per method and index, not per call
  const byIndex = new Map<string | undefined, string | undefined>();
  const byMethod = new Map<string, string | undefined>();
  const naming: Naming = {
    ...given,
    keySpaceOf: (indexName) => {
      if (!byIndex.has(indexName)) byIndex.set(indexName, given.keySpaceOf(indexName));
      return byIndex.get(indexName);
    },
    keySpace: (method) => {
      if (!byMethod.has(method)) byMethod.set(method, given.keySpace?.(method));
      return byMethod.get(method);
    },
  };
  for (const name of names) {
    const method = target[name] as (...args: unknown[]) => unknown;
    const pattern = name.endsWith('All') && names.includes(name.slice(0, -3)) ? name.slice(0, -3) : name;
    const start = (): Operation => {
      const keySpace = naming.keySpace?.(name);
      return new Operation(
        { name: `${naming.owner}.${name}`, table: base.tableName, entity: naming.entity, pattern, keySpace, startTime: Date.now() },
        sinks,
        base,
        naming.keySpaceOf,
        clock,
      );
    };
    target[name] = function (this: Record<string | symbol, unknown>, ...args: unknown[]): unknown {
      // a method called by another inside one operation is part of it
      if (this !== undefined && this !== null && this[IN_OPERATION] === true) return method.apply(this, args);
      const operation = start();
      const self = Object.create(target) as Record<string | symbol, unknown>;
      self['context'] = operation.context;
      self[IN_OPERATION] = true;
      return runOperation(operation, () => method.apply(self, args));
    };
  }
}

/** Runs one operation's call: it ends when the call's promise settles, its iterator ends, or (a transaction's builder) its commit settles. */
function runOperation(operation: Operation, invoke: () => unknown): unknown {
  let result: unknown;
  try {
    // the operation begins with its first request (whose SDK spans run in its context) or its end
    result = invoke();
  } catch (error) {
    operation.end(error);
    throw error;
  }
  if (result instanceof Promise) return endWhenSettled(result, operation);
  if (isAsyncIterator(result)) return tracedIterator(result, operation);
  if (typeof result === 'object' && result !== null && typeof (result as { commit?: unknown }).commit === 'function') {
    // a transaction: the operation is its commit (a builder never committed sent nothing and is not reported)
    const tx = result as { commit: (...args: unknown[]) => Promise<unknown> };
    const commit = tx.commit;
    tx.commit = (...commitArgs: unknown[]) => {
      operation.restart();
      let sent: Promise<unknown>;
      try {
        sent = operation.run(() => commit.apply(tx, commitArgs));
      } catch (error) {
        operation.end(error);
        throw error;
      }
      return endWhenSettled(sent, operation);
    };
    return result;
  }
  operation.end();
  return result;
}

/**
 * Telemetry to the given sinks, as the `telemetry` option of a generated table class:
 * `new SocialTable(client, { telemetry: telemetry(openTelemetrySink(api), emf) })`.
 */
export function telemetry(...sinks: TelemetrySink[]): TableTelemetry {
  const timer = (globalThis as { performance?: { now(): number } }).performance;
  const clock = timer === undefined ? Date.now : () => timer.now();
  // an entity's key spaces, worked out once per model and index
  const keySpaces = new WeakMap<EntityModel, Map<string | undefined, string | undefined>>();
  const keySpaceOf = (model: EntityModel) => (indexName: string | undefined) => {
    let known = keySpaces.get(model);
    if (known === undefined) keySpaces.set(model, (known = new Map()));
    if (!known.has(indexName)) known.set(indexName, entityKeySpace(model, indexName));
    return known.get(indexName);
  };
  return {
    call(model, method, run, args, pattern = method) {
      const context = args[0] as TableContext;
      const operation = new Operation({ name: `${model.name}.${method}`, table: context.tableName, entity: model.name, pattern, startTime: Date.now() }, sinks, context, keySpaceOf(model), clock);
      const rest = Array.prototype.slice.call(args, 1) as unknown[];
      return runOperation(operation, () => (run as (context: TableContext, ...args: readonly unknown[]) => unknown)(operation.context, ...rest));
    },
    instrument(table: object, context: TableContext, description: TableDescription): void {
      const members = description.members;
      const tableName = description.table;
      for (const [member, model] of Object.entries(members)) {
        const target = (table as Record<string, unknown>)[member] as Record<string | symbol, unknown> | undefined;
        if (target === undefined) continue;
        if (isEdge(model)) {
          wrapMember(target, { owner: model.name, entity: model.name, keySpace: (method) => edgeKeySpace(model, method === 'incoming' || method === 'incomingAll' ? 'inverse' : 'forward'), keySpaceOf: () => undefined }, sinks, context, clock);
        } else {
          wrapMember(target, { owner: model.name, entity: model.name, keySpaceOf: (indexName) => entityKeySpace(model, indexName) }, sinks, context, clock);
        }
      }
      const collections = description.collections ?? {};
      wrapMember(
        table as Record<string | symbol, unknown>,
        {
          owner: tableName,
          keySpaceOf: () => undefined,
          keySpace: (method) => {
            const model = collections[method];
            return model === undefined ? undefined : templateText(model.pk.template);
          },
        },
        sinks,
        context,
        clock,
      );
    },
  };
}

// ---- OpenTelemetry ----------------------------------------------------------------------------------

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
