// Table rotation for time series: one physical table per day or month (`Events_2024-05`), so old
// periods can be given less capacity, exported or dropped whole.

import { timeBuckets } from './gather.js';

export type RotationPeriod = 'day' | 'month';

/** The physical table holding `at`: `<base>_<YYYY-MM>` (month) or `<base>_<YYYY-MM-DD>` (day), in UTC. */
export function rotatedTableName(base: string, at: Date, every: RotationPeriod): string {
  return `${base}_${at.toISOString().slice(0, every === 'month' ? 7 : 10)}`;
}

/** Every physical table a time range touches, oldest first. */
export function rotatedTablesBetween(base: string, from: Date, to: Date, every: RotationPeriod): string[] {
  return timeBuckets(from, to, every).map((at) => rotatedTableName(base, at, every));
}
