// The `@example` of a repository or table-class method: a call with sample values and the request
// it sends (or, when it sends several alike — one per shard, time bucket, table or segment — how
// many, and the first). The request is computed by the runtime's own request builders (planPut,
// planUpdate, queryInput, Transaction, scanInput, …) on the entity's live model, so an example
// shows what the method really sends and cannot drift from it; test/offline/doc-examples.test.ts
// sends every example of the fixtures to check.

import type { AttributeDef } from '../../../dsl/ir.js';
import { DdbgenError } from '../../../templates/runtime/errors.js';
import { keyShard } from '../../../templates/runtime/codec.js';
import { shardPartitions, timeBuckets, timeRangeRequest } from '../../../templates/runtime/gather.js';
import { primaryKey, storedItem } from '../../../templates/runtime/item-mapping.js';
import { entityQuery, keyAttributesOf, patternCondition, patternPartition, queryInput, type QueryRequest } from '../../../templates/runtime/read.js';
import type { EntityModel, TableContext } from '../../../templates/runtime/repository.js';
import { rotatedTablesBetween } from '../../../templates/runtime/rotation.js';
import { DEFAULT_SEGMENTS, scanInput } from '../../../templates/runtime/scan.js';
import { Transaction } from '../../../templates/runtime/transaction.js';
import { nativeQueryInput } from '../../../templates/runtime/native-index.js';
import { planDelete, planIncrement, planPut, planUpdate, writeInput, type UpdateReturnValues, type WritePlan } from '../../../templates/runtime/write.js';
import type { AccessPath, ResolvedPattern } from '../../model/access-paths.js';
import { arr, awaitExpr, BREAK_AT, call, construct, forAwait, id, literal, obj, path, print, prop, str, type DocTag, type Expression } from '../ast.js';
import { entityNames, printLiteral, quote, raw, type RawCode } from '../context.js';
import { liveEntityModel } from '../entity/entity-model.js';
import type { EntityScope } from '../entity/entity-scope.js';
import { docCode, LINE_WIDTH } from '../output/format.js';

/** A value for an example: what the runtime is given, and how the call spells it. */
interface Sample {
  readonly value: unknown;
  readonly code: Expression;
}

const SAMPLE_INSTANT = new Date(Date.UTC(2024, 0, 15, 9, 30));
/** The range of a time-range query: an hour from the sample instant. */
const SAMPLE_RANGE = { from: SAMPLE_INSTANT, to: new Date(SAMPLE_INSTANT.getTime() + 3_600_000) };
const RANGE_SAMPLE: Sample = {
  value: SAMPLE_RANGE,
  code: obj([
    ['from', construct('Date', [str(SAMPLE_RANGE.from.toISOString())])],
    ['to', construct('Date', [str(SAMPLE_RANGE.to.toISOString())])],
  ]),
};
/** The idempotency token a transaction's example passes, so that its request is reproducible. */
const SAMPLE_TOKEN = 'token-1';

/** A sample value of an attribute: its name for a string, the first enum value, the smallest number, a fixed instant. */
function sample(name: string, def: AttributeDef): Sample {
  switch (def.kind) {
    case 'enum':
      return { value: def.values[0], code: str(def.values[0]!) };
    case 'number': {
      const value = Math.max(def.min ?? 1, Math.min(def.max ?? 1, 1));
      return { value, code: literal(value) };
    }
    case 'boolean':
      return { value: true, code: literal(true) };
    case 'timestamp':
      return { value: SAMPLE_INSTANT, code: construct('Date', [str(SAMPLE_INSTANT.toISOString())]) };
    case 'stringSet':
      return { value: new Set([`${name}-1`]), code: construct('Set', [arr([str(`${name}-1`)])]) };
    case 'numberSet':
      return { value: new Set([1]), code: construct('Set', [arr([literal(1)])]) };
    case 'list':
      return { value: [], code: arr([]) };
    case 'map': {
      const fields = Object.entries(def.fields).filter(([, field]) => !field.optional);
      return samples(Object.fromEntries(fields), fields.map(([field]) => field));
    }
    case 'binary':
      return { value: new Uint8Array([1]), code: construct('Uint8Array', [arr([literal(1)])]) };
    default:
      return { value: `${name}-1`, code: str(`${name}-1`) };
  }
}

/** Samples of the named attributes, as one object. */
function samples(attributes: Readonly<Record<string, AttributeDef>>, names: readonly string[]): Sample {
  const each = names.map((name) => [name, sample(name, attributes[name]!)] as const);
  return { value: Object.fromEntries(each.map(([name, s]) => [name, s.value])), code: obj(each.map(([name, s]) => [name, s.code])) };
}

/** Runs of one character this long or longer are spelled `'c'.repeat(n)` (the upper bound of a prefix range repeats its greatest character). */
const RUN = 8;

/** A string as source, long runs of one character as `.repeat`: `'Article.' + '\u{10ffff}'.repeat(255)`. */
function stringCode(text: string): RawCode {
  const parts: string[] = [];
  const pattern = new RegExp(`(.)\\1{${RUN - 1},}`, 'gsu');
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) parts.push(quote(text.slice(at, match.index)));
    parts.push(`${quote(match[1]!)}.repeat(${[...match[0]].length})`);
    at = match.index + match[0].length;
  }
  if (at < text.length || parts.length === 0) parts.push(quote(text.slice(at)));
  return raw(parts.join(' + '));
}

/** A request value as data printLiteral prints: sets and bytes as their constructors, long runs in strings repeated, the rest as it is. */
function requestData(value: unknown): unknown {
  if (typeof value === 'string') return stringCode(value);
  if (value instanceof Set) return raw(`new Set(${printed([...value].map(requestData))})`);
  if (value instanceof Uint8Array) return raw(`new Uint8Array(${printed([...value])})`);
  if (Array.isArray(value)) return value.map(requestData);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v === undefined ? undefined : requestData(v)]));
  return value;
}

/** Data printed as `obj` and `arr` print it: a list or object on a line per item where it is long (dprint keeps those lines). */
const printed = (data: unknown) => printLiteral(data, '', BREAK_AT);

/** The width of code in a doc comment: its indent and ` * ` taken off. */
const DOC_CODE_WIDTH = LINE_WIDTH - 6;

/** What a call sends: one request, or `count` alike (one per shard, time bucket or table), the first of them shown. */
export interface Sent {
  readonly command: string;
  readonly input: object;
  readonly count?: number;
  /** What each of `count` requests reads: `shard`, `time bucket`, … */
  readonly per?: string;
}

/** The first of the requests sent one per partition (`per`, when there are several). */
const firstOf = (command: string, inputs: readonly object[], per: string): Sent => ({ command, input: inputs[0]!, ...(inputs.length > 1 ? { count: inputs.length, per } : {}) });

/** How an example uses the call: awaits it, or iterates it (an async iterator, its items named `name`). */
type Use = { readonly await: true } | { readonly iterate: string };
const AWAIT: Use = { await: true };

/**
 * The tag: the call, then `// sends <Command>:` (or `// sends <n> <Command> requests (one per
 * <per>); the first:`) and the command's input, commented. An iterator's call is a loop, and what
 * it sends is its first page's requests.
 */
function exampleTag(callExpression: Expression, sent: Sent, use: Use = AWAIT): DocTag {
  // printed when first read, as the module is rendered (validation emits entity modules for the
  // names they declare and never renders them: ddbgen lint, the editor), and laid out with the
  // module by the layout worker (docCode), layout being most of what an example costs
  let code: string | undefined;
  return {
    name: 'example',
    get text() {
      code ??= 'iterate' in use ? forAwait(use.iterate, callExpression, call('console.log', [id(use.iterate)])) : `${print(awaitExpr(callExpression))};`;
      return `\n${docCode({ code, width: DOC_CODE_WIDTH })}\n${sendsText(sent)}`;
    },
  };
}

/** A request as code, printed once per request (an iterator's example repeats its method's). */
const requestCodes = new WeakMap<Sent, string>();

/**
 * What `sent` says, commented (laid out with its module by the layout worker when one is
 * rendering, else at once). The guide's request examples are checked against it too
 * (test/docs-site.test.ts).
 */
export function sendsText(sent: Sent): string {
  let code = requestCodes.get(sent);
  if (code === undefined) requestCodes.set(sent, (code = printed(requestData(sent.input))));
  const sends = sent.count === undefined ? `// sends ${sent.command}:` : `// sends ${sent.count} ${sent.command} requests (one per ${sent.per}); the first:`;
  return `${sends}\n${docCode({ code, width: DOC_CODE_WIDTH, wrap: ['(', ');'], linePrefix: '// ' })}`;
}

/** The tag of a call whose request `sent` computes (undefined: no example); a call the runtime refuses with the sample values has none. */
function tagOf(callExpression: () => Expression, sent: () => Sent | undefined, use?: Use): DocTag | undefined {
  try {
    const request = sent();
    return request && exampleTag(callExpression(), request, use);
  } catch (error) {
    if (error instanceof DdbgenError) return undefined;
    throw error;
  }
}

/**
 * The examples of one entity's methods, computed on its live model (built once, on first use). An
 * entity whose shard is drawn at random per write has none for writes: their keys are not
 * reproducible.
 */
export class EntityExamples {
  readonly #scope: EntityScope;
  #model: EntityModel | undefined;
  /** The examples made so far by method: the call's arguments and what it sends, for its iterator's (`…All`). */
  readonly #made = new Map<string, { readonly args: Sample[]; readonly sent: Sent }>();

  constructor(scope: EntityScope) {
    this.#scope = scope;
  }

  get #live(): EntityModel {
    return (this.#model ??= liveEntityModel(this.#scope));
  }

  get #table(): string {
    return this.#scope.ctx.table.name;
  }

  #of(names: readonly string[]): Sample {
    return samples(this.#scope.entity.attributes, names);
  }

  /** The key of the sample item. */
  #key(): Sample {
    return this.#of(this.#scope.primaryParts);
  }

  /** `options` of a versioned write: the version as read. */
  #versioned(): Sample | undefined {
    return this.#scope.version === undefined ? undefined : { value: { expectedVersion: 1 }, code: obj([['expectedVersion', literal(1)]]) };
  }

  #write(method: string, args: Sample[], command: string, plan: () => WritePlan, returnValues?: UpdateReturnValues): DocTag | undefined {
    return this.#tag(method, args, command, () => writeInput(this.#table, plan(), returnValues));
  }

  /** The tag of `db.<entity>.<method>(args)` sending one `command`, its input computed by `request` (undefined: no example). */
  #tag(method: string, args: Sample[], command: string, request: () => object | undefined): DocTag | undefined {
    return this.#sends(method, args, () => {
      const input = request();
      return input && { command, input };
    });
  }

  /** The tag of `db.<entity>.<method>(args)`, what it sends computed by `sent`. */
  #sends(method: string, args: Sample[], sent: () => Sent | undefined, use?: Use): DocTag | undefined {
    return tagOf(
      () => call(path(`db.${entityNames(this.#scope.entity).member}.${method}`), args.map((a) => a.code)),
      () => {
        const request = sent();
        if (request) this.#made.set(method, { args, sent: request });
        return request;
      },
      use,
    );
  }

  /** The example of `<method>All`, the async iterator over `method`'s pages: the same call iterated, its first page's requests (after `method`'s own example). */
  iterated(method: string): DocTag | undefined {
    const made = this.#made.get(method);
    return made && this.#sends(`${method}All`, made.args, () => made.sent, { iterate: 'item' });
  }

  get(): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    return this.#tag('get', [key], 'GetCommand', () => ({ TableName: this.#table, Key: primaryKey(this.#live, key.value as Record<string, unknown>) }));
  }

  /** The sample item of a write: its required attributes; the version only where the method takes the item as stored (batchPut). */
  #item(withVersion = false): Sample {
    const { entity, version } = this.#scope;
    return this.#of(Object.keys(entity.attributes).filter((a) => !entity.attributes[a]!.optional && (withVersion || a !== version)));
  }

  put(mode: 'put' | 'create' | 'replace'): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const item = this.#item();
    return this.#write(mode, [item], 'PutCommand', () => planPut(this.#live, item.value, mode).plan);
  }

  /** A put on a condition: that the item there, if any, has not the sample's value of its first attribute outside the key. */
  putIf(): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const item = this.#item();
    const { entity, primaryParts } = this.#scope;
    const attribute = Object.keys(entity.attributes).find((a) => !primaryParts.includes(a)) ?? Object.keys(entity.attributes)[0];
    if (attribute === undefined) return undefined;
    const condition: Sample = { value: { [attribute]: { exists: false } }, code: obj([[attribute, obj([['exists', literal(false)]])]]) };
    return this.#write('putIf', [item, condition], 'PutCommand', () => planPut(this.#live, item.value, 'put', { condition: condition.value as object }).plan);
  }

  /**
   * An update that sets one attribute: the first that feeds no index key, else one that a native
   * index copies (the update writes the copy too); none when every attribute feeds a synthetic key.
   */
  update(): DocTag | undefined {
    const { mutable, indexInputs, entity } = this.#scope;
    const copied = (a: string) => this.#live.nativeIndexes?.some((index) => [...index.partition, ...index.sort].some(([, source]) => source === a)) === true;
    const pick = (names: readonly string[]) => names.find((a) => !indexInputs.has(a) && !entity.attributes[a]!.optional) ?? names.find((a) => !indexInputs.has(a));
    const attribute = pick(mutable.filter((a) => !copied(a))) ?? pick(mutable);
    if (attribute === undefined) return undefined;
    const key = this.#key();
    const value = sample(attribute, entity.attributes[attribute]!);
    const changes: Sample = { value: { set: { [attribute]: value.value } }, code: obj([['set', obj([[attribute, value.code]])]]) };
    const options = this.#versioned();
    const plan = () => planUpdate(this.#live, key.value as Record<string, unknown>, changes.value as never, options?.value ?? {});
    return this.#write('update', [key, changes, ...(options ? [options] : [])], 'UpdateCommand', plan, 'ALL_NEW');
  }

  delete(): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    const options = this.#versioned();
    return this.#write('delete', [key, ...(options ? [options] : [])], 'DeleteCommand', () => planDelete(this.#live, key.value as Record<string, unknown>, options?.value ?? {}), 'ALL_OLD');
  }

  batchGet(): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    return this.#tag('batchGet', [{ value: [key.value], code: arr([key.code]) }], 'BatchGetCommand', () => ({ RequestItems: { [this.#table]: { Keys: [primaryKey(this.#live, key.value as Record<string, unknown>)] } } }));
  }

  /** A sequence's run (`get<Position>Range`): positions 0 and 1, read in one batch. */
  range(method: string, position: string): DocTag | undefined {
    const rest = this.#of(this.#scope.primaryParts.filter((a) => a !== position));
    const keys = () => [0, 1].map((at) => primaryKey(this.#live, { ...(rest.value as Record<string, unknown>), [position]: at }));
    const bounds = [0, 1].map((at) => ({ value: at, code: literal(at) }));
    return this.#tag(method, [rest, ...bounds], 'BatchGetCommand', () => ({ RequestItems: { [this.#table]: { Keys: keys() } } }));
  }

  batchPut(): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const item = this.#item(true);
    return this.#tag('batchPut', [{ value: [item.value], code: arr([item.code]) }], 'BatchWriteCommand', () => ({ RequestItems: { [this.#table]: [{ PutRequest: { Item: storedItem(this.#live, item.value as Record<string, unknown>) } }] } }));
  }

  batchDelete(): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    return this.#tag('batchDelete', [{ value: [key.value], code: arr([key.code]) }], 'BatchWriteCommand', () => ({ RequestItems: { [this.#table]: [{ DeleteRequest: { Key: primaryKey(this.#live, key.value as Record<string, unknown>) } }] } }));
  }

  /** A query's example: one Query, or one per shard of a sharded partition key (gathered). */
  #query(method: string, args: Sample[], request: () => QueryRequest): DocTag | undefined {
    return this.#sends(method, args, () => queried(this.#table, request()));
  }

  /** A query of the table or an index: one partition, narrowed by `eq` on the first sort-key part. */
  query(access: AccessPath, method: string): DocTag | undefined {
    const partition = this.#of(access.partition);
    const first = access.sort[0];
    const where = first === undefined ? undefined : this.#of([first]);
    const options: Sample | undefined = where && { value: { where: { eq: where.value } }, code: obj([['where', obj([['eq', where.code]])]]) };
    const request = () => entityQuery(this.#live, method, access.index?.name, partition.value as Record<string, unknown>, (options?.value ?? {}) as never);
    return this.#query(method, [partition, ...(options ? [options] : [])], request);
  }

  /** A declared pattern's query: its partition, the sort-key parts it fixes, and its operand (both ends of a `between` alike). */
  pattern({ pattern, path: access, op, before }: ResolvedPattern): DocTag | undefined {
    const { entity } = this.#scope;
    // an attribute the partition key also holds is one parameter, the operand (as the params type has it)
    const fixed = [...access.partition, ...before.filter((b) => !access.partition.includes(b))].filter((a) => a !== pattern.sk).map((a) => [a, sample(a, entity.attributes[a]!)] as const);
    const sk = pattern.sk;
    if (sk !== undefined) {
      const one = op === 'beginsWith' ? sample(sk, { kind: 'string' } as AttributeDef) : sample(sk, entity.attributes[sk]!);
      fixed.push([sk, op === 'between' ? { value: [one.value, one.value], code: arr([one.code, one.code]) } : one]);
    }
    const params = Object.fromEntries(fixed.map(([a, s]) => [a, s.value]));
    const args: Sample = { value: params, code: obj(fixed.map(([a, s]) => [a, s.code])) };
    const request = (): QueryRequest => {
      const model = this.#live;
      const index = access.index && model.indexes.find((i) => i.name === access.index!.name);
      const keySpace = index ?? model;
      return {
        scope: `${model.name}.${pattern.name}`,
        ...(index ? { indexName: index.name } : {}),
        pk: keySpace.pk,
        partition: sk !== undefined && access.partition.includes(sk) ? patternPartition(keySpace.pk, params, sk, op) : params,
        ...(keySpace.sk && access.sk ? { sk: { attribute: keySpace.sk.attribute, condition: patternCondition(keySpace.sk.template, sk === undefined ? params : { ...params, [sk]: undefined }, sk, op, sk === undefined ? undefined : params[sk]) } } : {}),
        params,
        keyAttributes: keyAttributesOf(model, index),
        order: pattern.order ?? 'asc',
        consistent: false,
        owner: model,
      };
    };
    return this.#query(pattern.name, [args], request);
  }

  /** A native index's query: its partition attributes, and `where` fixing the first sort attribute. */
  nativeQuery(indexName: string, method: string): DocTag | undefined {
    const index = this.#scope.native.models.find((m) => m.name === indexName)!;
    const partition = this.#of(index.partition.map(([, source]) => source!));
    const first = index.sort[0]?.[1];
    const where = first === undefined ? undefined : this.#of([first]);
    const options: Sample | undefined = where && { value: { where: where.value }, code: obj([['where', where.code]]) };
    const input = () => nativeQueryInput({ tableName: this.#table } as never, this.#live, `${this.#scope.name}.${method}`, indexName, partition.value as Record<string, unknown>, (options?.value ?? {}) as never);
    return this.#tag(method, [partition, ...(options ? [options] : [])], 'QueryCommand', input);
  }

  /** `getAll` or `sum` of a sharded partition with a constant sort key: every shard's key, read in batches of 100. */
  gatherKeys(method: 'getAll' | 'sum'): DocTag | undefined {
    const partition = this.#of(this.#scope.primary.partition);
    return this.#sends(method, [partition], () => {
      const keys = shardPartitions(partition.value as Record<string, unknown>, this.#live.pk.template).map((values) => primaryKey(this.#live, values));
      const batches = Array.from({ length: Math.ceil(keys.length / 100) }, (_, at) => ({ RequestItems: { [this.#table]: { Keys: keys.slice(at * 100, at * 100 + 100) } } }));
      return firstOf('BatchGetCommand', batches, '100 keys');
    });
  }

  /**
   * A time-range query (`…Between`) over the time buckets of a partition key: the partition's other
   * parts, and an hour from the sample instant; one Query per bucket (and shard).
   */
  timeRange(method: string, indexName: string | undefined, bucket: { readonly attribute: string; readonly unit: string }, rest: readonly string[]): DocTag | undefined {
    const partition = this.#of(rest);
    return this.#sends(method, [...(rest.length ? [partition] : []), RANGE_SAMPLE], () => {
      const request = timeRangeRequest(this.#live, method, indexName, bucket.attribute, partition.value as Record<string, unknown>, SAMPLE_RANGE, {});
      const buckets = timeBuckets(SAMPLE_RANGE.from, SAMPLE_RANGE.to, bucket.unit as Parameters<typeof timeBuckets>[2]).map((at) => ({ ...(partition.value as Record<string, unknown>), [bucket.attribute]: at }));
      const sharded = keyShard(request.pk.template) !== undefined;
      const partitions = sharded ? buckets.flatMap((b) => shardPartitions(b, request.pk.template)) : buckets;
      return firstOf('QueryCommand', partitions.map((p) => queryInput({ tableName: this.#table } as TableContext, { ...request, partition: p })), sharded ? 'time bucket and shard' : 'time bucket');
    });
  }

  /** A query across a rotated table's period tables (`…AcrossTables`): one partition, an hour from the sample instant. */
  acrossTables(method: string, attribute: string, partitionParts: readonly string[]): DocTag | undefined {
    const rotation = this.#scope.ctx.table.rotation;
    if (!rotation) return undefined;
    const partition = this.#of(partitionParts);
    return this.#sends(method, [partition, RANGE_SAMPLE], () => {
      const request = timeRangeRequest(this.#live, method, undefined, attribute, partition.value as Record<string, unknown>, SAMPLE_RANGE, {});
      const sharded = keyShard(request.pk.template) !== undefined;
      const partitions = sharded ? shardPartitions(request.partition, request.pk.template) : [request.partition];
      const inputs = rotatedTablesBetween(this.#table, SAMPLE_RANGE.from, SAMPLE_RANGE.to, rotation).flatMap((tableName) => partitions.map((p) => queryInput({ tableName } as TableContext, { ...request, partition: p })));
      return firstOf('QueryCommand', inputs, sharded ? 'table and shard' : 'table');
    });
  }

  /** A collection's query (`db.<name>Collection(partition)`) on the partition of this entity, its first member. */
  collection(method: string, keyAttributes: readonly string[]): DocTag | undefined {
    const partition = this.#of(this.#scope.primary.partition);
    return tagOf(
      () => call(path(`db.${method}`), [partition.code]),
      () => {
        const model = this.#live;
        const values = partition.value as Record<string, unknown>;
        return queried(this.#table, { scope: `${this.#table}.${method}`, pk: model.pk, partition: values, params: { partition: values, order: 'asc' }, keyAttributes: [...keyAttributes], order: 'asc', consistent: false });
      },
    );
  }

  /** This entity's step of a transaction's example: `create` of the sample item, or `delete` of its key. */
  transactionStep(mode: 'create' | 'delete'): { readonly args: Expression[]; readonly plan: WritePlan } | undefined {
    if (!this.#scope.addressable) return undefined;
    try {
      if (mode === 'create') {
        const item = this.#item();
        return { args: [item.code], plan: planPut(this.#live, item.value, 'create').plan };
      }
      const key = this.#key();
      const options = this.#versioned();
      return { args: [key.code, ...(options ? [options.code] : [])], plan: planDelete(this.#live, key.value as Record<string, unknown>, options?.value ?? {}) };
    } catch (error) {
      if (error instanceof DdbgenError) return undefined;
      throw error;
    }
  }

  /** `increment`: one of each counter. */
  increment(counters: readonly string[]): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    const deltas: Sample = { value: Object.fromEntries(counters.map((c) => [c, 1])), code: obj(counters.map((c) => [c, literal(1)])) };
    const plan = () => planIncrement(this.#live, key.value as Record<string, unknown>, deltas.value as Record<string, number>, counters);
    return this.#write('increment', [key, deltas], 'UpdateCommand', plan, 'ALL_NEW');
  }

  /** `mark<Index>` (sets `attributes`: the sparse index's optional inputs and its other non-key inputs) or `clear<Index>` (removes `attributes`, the optional inputs). */
  sparse(method: string, attributes: readonly string[], mark: boolean): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    const values = this.#of(attributes);
    const changes = mark ? { set: values.value } : { remove: attributes };
    const options = this.#versioned();
    const plan = () => planUpdate(this.#live, key.value as Record<string, unknown>, changes as never, options?.value ?? {});
    return this.#write(method, [key, ...(mark ? [values] : []), ...(options ? [options] : [])], 'UpdateCommand', plan, 'ALL_NEW');
  }
}

/** What a query sends: one Query, or one per shard of a sharded partition key (gathered, the first shown). */
function queried(tableName: string, request: QueryRequest): Sent {
  const partitions = keyShard(request.pk.template) === undefined ? [request.partition] : shardPartitions(request.partition, request.pk.template);
  return firstOf('QueryCommand', partitions.map((partition) => queryInput({ tableName } as TableContext, { ...request, partition })), 'shard');
}

/**
 * A transaction's example: the first entity's sample item created and the next one's key deleted
 * (`entities` in order, one step each while two are wanted), committed with a fixed token; the
 * request is the TransactWriteItems input the runtime's Transaction builds from their plans.
 */
export function transactionExample(tableName: string, scopes: readonly EntityScope[]): DocTag | undefined {
  const steps: Array<{ member: string; method: 'create' | 'delete'; args: Expression[]; plan: WritePlan }> = [];
  for (const scope of scopes) {
    if (steps.length === 2) break;
    const method = steps.length === 0 ? 'create' : 'delete';
    const step = examplesOf(scope).transactionStep(method);
    if (step) steps.push({ member: entityNames(scope.entity).member, method, ...step });
  }
  if (!steps.length) return undefined;
  const chain = steps.reduce<Expression>((target, step) => call(prop(prop(target, step.member), step.method), step.args), call(path('db.transaction'), []));
  return tagOf(
    () => call(prop(chain, 'commit'), [obj([['token', str(SAMPLE_TOKEN)]])]),
    () => {
      const transaction = new Transaction({ tableName } as TableContext);
      for (const step of steps) transaction.add(step.plan);
      return { command: 'TransactWriteCommand', input: transaction.input(SAMPLE_TOKEN) };
    },
  );
}

/** `scanSegments`: every segment of the table (four unless told otherwise) scanned, tagged items iterated. */
export function scanExample(tableName: string): DocTag | undefined {
  const inputs = Array.from({ length: DEFAULT_SEGMENTS }, (_, segment) => scanInput(tableName, segment, DEFAULT_SEGMENTS, {}));
  return tagOf(() => call(path('db.scanSegments'), []), () => firstOf('ScanCommand', inputs, 'segment'), { iterate: 'tagged' });
}

const byScope = new WeakMap<EntityScope, EntityExamples>();

/** The examples of an entity's methods: one live model per entity, whichever emitter asks first. */
export function examplesOf(scope: EntityScope): EntityExamples {
  let examples = byScope.get(scope);
  if (!examples) byScope.set(scope, (examples = new EntityExamples(scope)));
  return examples;
}
