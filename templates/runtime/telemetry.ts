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
// This module wraps the table object's members and the function forms' calls; what one operation
// records is telemetry-operation.ts, the sinks' contract telemetry-sink.ts, the OpenTelemetry sink
// telemetry-otel.ts and the EMF writer telemetry-emf.ts.

import type { EntityModel, TableContext } from './repository.js';
import type { OperationTelemetry } from './table-context.js';
import { edgeKeySpace, entityKeySpace, templateText, type EdgeModel } from './telemetry-key-space.js';
import { Operation } from './telemetry-operation.js';
import type { TelemetrySink } from './telemetry-sink.js';

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

const isEdge = (model: EntityModel | EdgeModel): model is EdgeModel => 'forward' in model && 'nodes' in model;

// ---- instrumenting a table object -----------------------------------------------------------------

const IN_OPERATION = Symbol('ddbgen.operation');

const isAsyncIterator = (value: unknown): value is AsyncIterator<unknown> & AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { next?: unknown }).next === 'function' && Symbol.asyncIterator in value;

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
