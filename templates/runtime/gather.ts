// Scatter-gather over write-sharded partitions: one Query per shard key (bounded concurrency), a
// k-way merge in DynamoDB's order (UTF-8 bytes of the sort key, ties broken by the full key), the
// page limit honoured across shards with an early exit, and one cursor that holds every shard's
// position — taken from the last item *returned* from it, so no item is skipped or repeated.

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mapConcurrent } from './batch.js';
import { SHARD, compareUtf8 } from './codec.js';
import { ValidationError } from './errors.js';
import { decodeCursor, encodeCursor, type PositionCheck } from './cursor.js';
import type { Page, PageOptions, QueryRequest, TableContext } from './repository.js';
import { cursorScope, positionCheck, queryInput } from './repository.js';

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

/** Checks a gather cursor: one position per partition, each `{}`, `{ done: true }` or `{ after }` with `after` inside that partition's query. */
function positionsCheck(request: QueryRequest, partitions: readonly Readonly<Record<string, unknown>>[]): PositionCheck {
  const checks = partitions.map((partition) => positionCheck(request, partition));
  return (value) => {
    if (!Array.isArray(value)) return 'its position is not a list of partition positions';
    if (value.length !== partitions.length) return `it holds ${value.length} partition positions, this query has ${partitions.length}`;
    for (let i = 0; i < value.length; i++) {
      const p = value[i] as ShardPosition | null;
      if (typeof p !== 'object' || p === null || Array.isArray(p) || Object.keys(p).some((k) => k !== 'after' && k !== 'done')) return `partition position ${i} is malformed`;
      if (p.done !== undefined && (p.done !== true || p.after !== undefined)) return `partition position ${i} is malformed`;
      const problem = p.after === undefined ? undefined : checks[i]!(p.after);
      if (problem !== undefined) return `partition position ${i}: ${problem}`;
    }
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

/** The partitions of every shard of a sharded partition key. */
export function shardPartitions(partition: Readonly<Record<string, unknown>>, shards: number): Array<Record<string, unknown>> {
  return Array.from({ length: shards }, (_, shard) => ({ ...partition, [SHARD]: shard }));
}

const BUCKET_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
export const MAX_BUCKETS = 10_000;

/** The UTC time buckets (minute, hour, day or month) from the one holding `from` to the one holding `to`. */
export function timeBuckets(from: Date, to: Date, unit: 'minute' | 'hour' | 'day' | 'month'): Date[] {
  if (!(from.getTime() <= to.getTime())) throw new ValidationError('(query)', 'range', `from (${from.toISOString()}) is after to (${to.toISOString()})`);
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

/** One page of a query over several partitions (every shard, every time bucket), merged in DynamoDB's order. */
export async function gatherPage<T>(ctx: TableContext, request: QueryRequest, partitions: readonly Readonly<Record<string, unknown>>[], page: PageOptions, map: (stored: Stored) => T, concurrency = 8): Promise<Page<T>> {
  const shards = partitions.length;
  const scope = cursorScope(ctx, request);
  const positions: ShardPosition[] =
    page.cursor === undefined ? Array.from({ length: shards }, () => ({})) : await decodeCursor<ShardPosition[]>(page.cursor, scope, ctx.cursor, positionsCheck(request, partitions));
  const limit = page.limit;
  const order = recordOrder(request);
  const states: ShardState[] = positions.map((p, shard) => ({ shard, buffer: [], next: p.after, exhausted: p.done === true, after: p.after, returned: false }));
  const items: T[] = [];
  // The first wave asks each shard for its share of the page (plus a little); a shard that runs dry
  // before the page is full is asked again, for what the page still needs.
  const firstWave = limit === undefined ? undefined : Math.min(limit, Math.ceil(limit / shards) + 2);
  const fetch = async (state: ShardState, size = limit === undefined ? undefined : Math.max(1, limit - items.length)) => {
    const input = queryInput(ctx, { ...request, partition: partitions[state.shard]! }, size === undefined ? {} : { limit: size });
    const result = await ctx.client.send(new QueryCommand({ ...input, ...(state.next ? { ExclusiveStartKey: state.next } : {}) }));
    state.buffer.push(...((result.Items ?? []) as Stored[]));
    state.next = result.LastEvaluatedKey;
    if (!state.next) state.exhausted = true;
  };
  const live = states.filter((s) => !s.exhausted);
  await mapConcurrent(live, concurrency, (state) => fetch(state, firstWave));
  const heap = new Heap((a, b) => order(a.buffer[0]!, b.buffer[0]!) < 0);
  for (const state of live) if (state.buffer.length) heap.push(state);
  while (heap.size && (limit === undefined || items.length < limit)) {
    const state = heap.pop()!;
    const record = state.buffer.shift()!;
    items.push(map(record));
    state.after = Object.fromEntries(request.keyAttributes.map((a) => [a, record[a]]));
    state.returned = true;
    while (!state.buffer.length && !state.exhausted) await fetch(state);
    if (state.buffer.length) heap.push(state);
  }
  const remaining = states.map((s): ShardPosition => (s.exhausted && s.buffer.length === 0 ? { done: true } : s.after ? { after: s.after } : {}));
  const more = remaining.some((p) => !p.done);
  return more ? { items, cursor: await encodeCursor(scope, remaining, ctx.cursor) } : { items };
}
