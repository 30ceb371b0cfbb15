// Scatter-gather over write-sharded partitions: one Query per shard key (bounded concurrency), a
// k-way merge in DynamoDB's order (UTF-8 bytes of the sort key, ties broken by the full key), the
// page limit honoured across shards with an early exit, and one cursor that holds every shard's
// position — taken from the last item *returned* from it, so no item is skipped or repeated — and
// the last item the gather returned: each shard resumes strictly after the later of the two, so a
// walk stays monotonic like a single-partition query even when writes land behind it. The reads
// that gather (sharded queries, time ranges across buckets, every shard's item, counter sums) live
// here, so only outputs with sharded or time-bucketed keys carry this module.

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mapConcurrent } from './batch.js';
import { SHARD, compareUtf8, keyShard, type KeyCodec, type KeyValues } from './codec.js';
import { ValidationError } from './errors.js';
import { unexpired } from './expiry.js';
import { decodeCursor, encodeCursor, isKey, type PositionCheck } from './cursor.js';
import type { Page, PageOptions, QueryOptions, QueryRequest, ReadOptions } from './read.js';
import type { EntityModel, TableContext } from './repository.js';
import { primaryKey } from './item-mapping.js';
import { cursorScope, entityQuery, ownsRecord, positionCheck, present, queryInput, readInOrder } from './read.js';

/** Where each shard stands: `after` the key last returned from it, or `done`. */
export type ShardPosition = { readonly after?: Record<string, unknown>; readonly done?: true };

type Stored = Record<string, unknown>;

interface ShardState {
  readonly shard: number;
  buffer: Stored[];
  next: Record<string, unknown> | undefined;
  exhausted: boolean;
  after: Record<string, unknown> | undefined;
  returned: boolean;
}

/** A gather cursor: every partition's position, and the last record returned (its key attributes). */
interface GatherPosition {
  readonly shards: ShardPosition[];
  readonly last?: Record<string, unknown>;
}

/**
 * Checks a gather cursor: one position per partition, each `{}`, `{ done: true }` or `{ after }` with
 * `after` inside that partition's query, and `last` a key of this query's key attributes.
 */
function positionsCheck(request: QueryRequest, partitions: readonly Readonly<Record<string, unknown>>[]): PositionCheck {
  const checks = partitions.map((partition) => positionCheck(request, partition));
  return (value) => {
    if (typeof value !== 'object' || value === null || Object.keys(value).some((k) => k !== 'shards' && k !== 'last')) return 'its position is not a gather position';
    const { shards, last } = value as { shards?: unknown; last?: unknown };
    if (!Array.isArray(shards)) return 'its position is not a list of partition positions';
    if (shards.length !== partitions.length) return `it holds ${shards.length} partition positions, this query has ${partitions.length}`;
    for (let i = 0; i < shards.length; i++) {
      const p = shards[i] as ShardPosition | null;
      const malformed = typeof p !== 'object' || p === null || Array.isArray(p) || Object.keys(p).some((k) => k !== 'after' && k !== 'done') || (p.done !== undefined && (p.done !== true || p.after !== undefined));
      if (malformed) return `partition position ${i} is malformed`;
      const problem = p.after === undefined ? undefined : checks[i]!(p.after);
      if (problem !== undefined) return `partition position ${i}: ${problem}`;
    }
    if (last !== undefined && (!isKey(last) || Object.keys(last).length !== request.keyAttributes.length || request.keyAttributes.some((a) => !(a in last)))) return 'its last key is not a key of this query';
    return undefined;
  };
}

/** A min-heap over shard states by their buffered head. */
class Heap {
  private readonly items: ShardState[] = [];
  private readonly less: (a: ShardState, b: ShardState) => boolean;
  constructor(less: (a: ShardState, b: ShardState) => boolean) {
    this.less = less;
  }
  get size(): number {
    return this.items.length;
  }
  push(item: ShardState): void {
    const items = this.items;
    items.push(item);
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }
  pop(): ShardState | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length && last) {
      items[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.less(items[l]!, items[m]!)) m = l;
        if (r < items.length && this.less(items[r]!, items[m]!)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** Orders stored records as DynamoDB would across one key space: sort key, then the full key. */
export function recordOrder(request: QueryRequest): (a: Stored, b: Stored) => number {
  const direction = request.order === 'desc' ? -1 : 1;
  const attributes = [...(request.sk ? [request.sk.attribute] : []), request.pk.attribute, ...request.keyAttributes];
  return (a, b) => {
    for (const attribute of attributes) {
      const c = compareUtf8(String(a[attribute] ?? ''), String(b[attribute] ?? ''));
      if (c !== 0) return c * direction;
    }
    return 0;
  };
}

/** The partitions of every shard of a sharded partition key, each addressing its shard by the private channel. */
export function shardPartitions(partition: Readonly<Record<string, unknown>>, template: KeyCodec): KeyValues[] {
  const shard = keyShard(template);
  return Array.from({ length: shard?.count ?? 1 }, (_, i) => ({ ...partition, [SHARD]: (shard?.start ?? 0) + i }));
}

const BUCKET_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
export const MAX_BUCKETS = 10_000;

/** Throws ValidationError (on `scope`'s `range`) unless `from` is at or before `to`. */
export function checkRange(scope: string, from: Date, to: Date): void {
  if (!(from.getTime() <= to.getTime())) throw new ValidationError(scope, 'range', `from (${from.toISOString()}) is after to (${to.toISOString()})`);
}

/** The UTC time buckets (minute, hour, day or month) from the one holding `from` to the one holding `to`. */
export function timeBuckets(from: Date, to: Date, unit: 'minute' | 'hour' | 'day' | 'month'): Date[] {
  checkRange('(query)', from, to);
  const out: Date[] = [];
  if (unit === 'month') {
    for (let y = from.getUTCFullYear(), m = from.getUTCMonth(); Date.UTC(y, m) <= to.getTime(); m === 11 ? ((m = 0), y++) : m++) {
      out.push(new Date(Date.UTC(y, m)));
      if (out.length > MAX_BUCKETS) break;
    }
  } else {
    const step = BUCKET_MS[unit]!;
    for (let t = Math.floor(from.getTime() / step) * step; t <= to.getTime() && out.length <= MAX_BUCKETS; t += step) out.push(new Date(t));
  }
  if (out.length > MAX_BUCKETS) throw new ValidationError('(query)', 'range', `the range spans more than ${MAX_BUCKETS} ${unit} buckets; narrow it`);
  return out;
}

/**
 * One page of a query over several partitions (every shard, every time bucket), merged in
 * DynamoDB's order. `tables`, when given, names the physical table of each partition (rotated tables).
 */
export async function gatherPage<T>(
  ctx: TableContext,
  request: QueryRequest,
  partitions: readonly KeyValues[],
  page: PageOptions,
  map: (stored: Stored) => T,
  concurrency = 8,
  tables?: readonly string[],
): Promise<Page<T>> {
  const shards = partitions.length;
  const scope = cursorScope(ctx, request);
  const start: GatherPosition =
    page.cursor === undefined ? { shards: Array.from({ length: shards }, () => ({})) } : await decodeCursor<GatherPosition>(page.cursor, scope, ctx.cursor, positionsCheck(request, partitions));
  const positions = start.shards;
  const limit = page.limit;
  const order = recordOrder(request);
  // Records at or before the last one returned were passed already (written behind the walk, into
  // a shard whose own position is earlier): a single-partition cursor would not return them either.
  let last = start.last;
  const ahead = (record: Stored) => last === undefined || order(record, last) > 0;
  const keep = unexpired(ctx, page);
  const states: ShardState[] = positions.map((p, shard) => ({ shard, buffer: [], next: p.after, exhausted: p.done === true, after: p.after, returned: false }));
  const items: T[] = [];
  // The first wave asks each shard for its share of the page (plus a little); a shard that runs dry
  // before the page is full is asked again, for what the page still needs.
  const firstWave = limit === undefined ? undefined : Math.min(limit, Math.ceil(limit / shards) + 2);
  const fetch = async (state: ShardState, size = limit === undefined ? undefined : Math.max(1, limit - items.length)) => {
    const source = tables === undefined ? ctx : { ...ctx, tableName: tables[state.shard]! };
    const input = queryInput(source, { ...request, partition: partitions[state.shard]! }, size === undefined ? {} : { limit: size });
    const result = await ctx.client.send(new QueryCommand({ ...input, ...(state.next ? { ExclusiveStartKey: state.next } : {}) }));
    state.buffer.push(...((result.Items ?? []) as Stored[]).filter((record) => ahead(record) && ownsRecord(request, record) && keep(record)));
    state.next = result.LastEvaluatedKey;
    if (!state.next) state.exhausted = true;
  };
  const live = states.filter((s) => !s.exhausted);
  await mapConcurrent(live, concurrency, async (state) => {
    await fetch(state, firstWave);
    while (!state.buffer.length && !state.exhausted) await fetch(state);
  });
  const heap = new Heap((a, b) => order(a.buffer[0]!, b.buffer[0]!) < 0);
  for (const state of live) if (state.buffer.length) heap.push(state);
  while (heap.size && (limit === undefined || items.length < limit)) {
    const state = heap.pop()!;
    const record = state.buffer.shift()!;
    items.push(map(record));
    state.after = Object.fromEntries(request.keyAttributes.map((a) => [a, record[a]]));
    last = state.after;
    state.returned = true;
    while (!state.buffer.length && !state.exhausted) await fetch(state);
    if (state.buffer.length) heap.push(state);
  }
  const remaining = states.map((s): ShardPosition => (s.exhausted && s.buffer.length === 0 ? { done: true } : s.after ? { after: s.after } : {}));
  const more = remaining.some((p) => !p.done);
  const position: GatherPosition = { shards: remaining, ...(last === undefined ? {} : { last }) };
  return more ? { items, cursor: await encodeCursor(scope, position, ctx.cursor) } : { items };
}

/** One page of a query on a sharded partition key: every shard's partition queried and merged in order under one cursor. */
export function queryShards(ctx: TableContext, request: QueryRequest, page: PageOptions, map: (stored: Stored) => unknown): Promise<Page<unknown>> {
  return gatherPage(ctx, request, shardPartitions(request.partition, request.pk.template), page, map, ctx.gatherConcurrency);
}

/**
 * Every shard's item of one partition of an entity whose partition key is sharded and whose sort
 * key is constant (one item per shard): one batched read of all the shard keys, in shard order.
 */
export async function getAllItems(ctx: TableContext, model: EntityModel, partition: Readonly<Record<string, unknown>>, options: ReadOptions = {}): Promise<unknown[]> {
  const reads = shardPartitions(partition, model.pk.template).map((values) => ({ key: primaryKey(model, values), source: partition }));
  return present(await readInOrder<unknown, typeof partition>(ctx, model, reads, options));
}

/** The counters of every shard's item of one partition, summed (0 where no shard has been written). */
export async function sumItems<C extends string>(ctx: TableContext, model: EntityModel, partition: Readonly<Record<string, unknown>>, counters: readonly C[], options: ReadOptions = {}): Promise<Record<C, number>> {
  const totals = Object.fromEntries(counters.map((name) => [name, 0])) as Record<C, number>;
  for (const item of (await getAllItems(ctx, model, partition, options)) as Array<Record<string, unknown>>) {
    for (const name of counters) if (typeof item[name] === 'number') totals[name] += item[name] as number;
  }
  return totals;
}

/**
 * One page of a time-range query on a key space whose partition key is a time bucket
 * (`<at:hour>`): every bucket from `from` to `to` (and every shard) is queried, the sort key is
 * bounded to the range, and the results are merged in order under one cursor.
 */
export async function queryTimeRange(
  ctx: TableContext,
  model: EntityModel,
  method: string,
  indexName: string | undefined,
  bucket: { readonly attribute: string; readonly unit: 'minute' | 'hour' | 'day' | 'month' },
  partition: Readonly<Record<string, unknown>>,
  range: { readonly from: Date; readonly to: Date },
  options: QueryOptions<never>,
  map: (stored: Record<string, unknown>) => unknown,
): Promise<Page<unknown>> {
  const request = timeRangeRequest(model, method, indexName, bucket.attribute, partition, range, options);
  const buckets = timeBuckets(range.from, range.to, bucket.unit).map((at) => ({ ...partition, [bucket.attribute]: at }));
  const partitions = keyShard(request.pk.template) === undefined ? buckets : buckets.flatMap((b) => shardPartitions(b, request.pk.template));
  if (request.order === 'desc') partitions.reverse();
  return gatherPage(ctx, request, partitions, options, map, ctx.gatherConcurrency);
}

/** A query whose sort key starts with `attribute`, bounded to `range` (inclusive); its cursors are bound to the range. */
export function timeRangeRequest(
  model: EntityModel,
  method: string,
  indexName: string | undefined,
  attribute: string,
  partition: Readonly<Record<string, unknown>>,
  range: { readonly from: Date; readonly to: Date },
  options: QueryOptions<never>,
): QueryRequest {
  const where = { between: [{ [attribute]: range.from }, { [attribute]: range.to }] };
  const request = entityQuery(model, method, indexName, partition, { ...options, where });
  return { ...request, params: { partition, from: range.from, to: range.to, order: request.order } };
}
