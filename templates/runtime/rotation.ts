// Table rotation for time series: one physical table per day, ISO week, month or year
// (`Events_2024-05-14`, `Events_2024-W20`, `Events_2024-05`, `Events_2024`), so old periods can be
// given less capacity, exported or dropped whole. Periods are UTC; ISO weeks start on Monday and
// belong to the year that holds their Thursday. A time-range query across the tables
// (`queryRotated`) gathers one query per table.

import { ValidationError } from './errors.js';
import { MAX_BUCKETS, checkRange, gatherPage, shardPartitions, timeRangeRequest } from './gather.js';
import { keyShard } from './codec.js';
import type { Page, QueryOptions } from './read.js';
import type { EntityModel, RotationPeriod, TableContext } from './repository.js';

export type { RotationPeriod };

const DAY = 86_400_000;

/** The start of the period holding `at`. */
export function periodStart(at: Date, every: RotationPeriod): Date {
  const y = at.getUTCFullYear();
  switch (every) {
    case 'day':
      return new Date(Math.floor(at.getTime() / DAY) * DAY);
    case 'week': {
      const day = Math.floor(at.getTime() / DAY) * DAY;
      return new Date(day - ((at.getUTCDay() + 6) % 7) * DAY);
    }
    case 'month':
      return new Date(Date.UTC(y, at.getUTCMonth()));
    case 'year':
      return new Date(Date.UTC(y, 0));
  }
}

/** The start of the period after the one starting at `start`. */
function nextPeriod(start: Date, every: RotationPeriod): Date {
  if (every === 'day' || every === 'week') return new Date(start.getTime() + (every === 'day' ? 1 : 7) * DAY);
  return every === 'month' ? new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1)) : new Date(Date.UTC(start.getUTCFullYear() + 1, 0));
}

/** `2024-W05`: the ISO week-numbering year and week of `at`. */
function isoWeek(at: Date): string {
  const thursday = new Date(periodStart(at, 'week').getTime() + 3 * DAY);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The physical table holding `at`: `<base>_<YYYY-MM-DD | YYYY-Www | YYYY-MM | YYYY>`, in UTC. */
export function rotatedTableName(base: string, at: Date, every: RotationPeriod): string {
  const iso = at.toISOString();
  const period = every === 'week' ? isoWeek(at) : iso.slice(0, every === 'day' ? 10 : every === 'month' ? 7 : 4);
  return `${base}_${period}`;
}

/** Every physical table a time range touches, oldest first. */
export function rotatedTablesBetween(base: string, from: Date, to: Date, every: RotationPeriod): string[] {
  checkRange('(rotation)', from, to);
  const out: string[] = [];
  for (let at = periodStart(from, every); at.getTime() <= to.getTime(); at = nextPeriod(at, every)) {
    out.push(rotatedTableName(base, at, every));
    if (out.length > MAX_BUCKETS) throw new ValidationError('(rotation)', 'range', `the range spans more than ${MAX_BUCKETS} tables; narrow it`);
  }
  return out;
}

/**
 * One page of a time-range query over a rotated table: the same partition in every physical table
 * the range touches (one per day, week, month or year), the sort key (which starts with the time)
 * bounded to the range, merged in order under one cursor.
 */
export async function queryRotated(
  ctx: TableContext,
  model: EntityModel,
  method: string,
  attribute: string,
  partition: Readonly<Record<string, unknown>>,
  range: { readonly from: Date; readonly to: Date },
  options: QueryOptions<never>,
  map: (stored: Record<string, unknown>) => unknown,
): Promise<Page<unknown>> {
  if (!ctx.rotation) throw new ValidationError(model.name, method, 'this table is not rotated');
  const request = timeRangeRequest(model, method, undefined, attribute, partition, range, options);
  const tables = rotatedTablesBetween(ctx.rotation.base, range.from, range.to, ctx.rotation.every);
  if (request.order === 'desc') tables.reverse();
  const shard = keyShard(request.pk.template);
  const partitions = shard === undefined ? tables.map(() => partition) : tables.flatMap(() => shardPartitions(partition, request.pk.template));
  const perPartition = shard === undefined ? tables : tables.flatMap((name) => Array.from({ length: shard.count }, () => name));
  return gatherPage(ctx, request, partitions, options, map, ctx.gatherConcurrency, perPartition);
}
