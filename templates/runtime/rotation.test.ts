// Rotated table names: UTC days, ISO weeks (Monday start; the year holding the week's Thursday),
// months and years, and the tables a range touches.
import test from 'ava';
import fc from 'fast-check';
import { periodStart, rotatedTableName, rotatedTablesBetween } from './rotation.js';

test('ISO week names at year ends', (t) => {
  const cases: Array<[string, string]> = [
    ['2020-12-31T12:00:00Z', 'Clicks_2020-W53'],
    ['2021-01-03T23:59:59Z', 'Clicks_2020-W53'],
    ['2021-01-04T00:00:00Z', 'Clicks_2021-W01'],
    ['2019-12-30T00:00:00Z', 'Clicks_2020-W01'],
    ['2024-12-30T08:00:00Z', 'Clicks_2025-W01'],
    ['2026-01-01T00:00:00Z', 'Clicks_2026-W01'],
    ['2027-01-01T00:00:00Z', 'Clicks_2026-W53'],
  ];
  for (const [at, want] of cases) t.is(rotatedTableName('Clicks', new Date(at), 'week'), want, at);
});

test('day, month and year names; the tables of a range, oldest first', (t) => {
  const at = new Date('2024-05-06T10:00:00Z');
  t.deepEqual([rotatedTableName('Clicks', at, 'day'), rotatedTableName('Clicks', at, 'month'), rotatedTableName('Clicks', at, 'year')], ['Clicks_2024-05-06', 'Clicks_2024-05', 'Clicks_2024']);
  t.deepEqual(rotatedTablesBetween('Clicks', new Date('2023-06-01T00:00:00Z'), new Date('2025-01-01T00:00:00Z'), 'year'), ['Clicks_2023', 'Clicks_2024', 'Clicks_2025']);
  t.deepEqual(rotatedTablesBetween('Clicks', new Date('2024-12-28T00:00:00Z'), new Date('2025-01-06T00:00:00Z'), 'week'), ['Clicks_2024-W52', 'Clicks_2025-W01', 'Clicks_2025-W02']);
  t.throws(() => rotatedTablesBetween('Clicks', new Date(10), new Date(0), 'day'), { message: /is after to/ });
});

test('property: a week starts on a Monday at 00:00 UTC and holds the instant; its name is that of every day in it', (t) => {
  fc.assert(
    fc.property(fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }), (at) => {
      const start = periodStart(at, 'week');
      if (start.getUTCDay() !== 1 || start.getTime() % 86_400_000 !== 0) return false;
      if (!(start.getTime() <= at.getTime() && at.getTime() < start.getTime() + 7 * 86_400_000)) return false;
      const name = rotatedTableName('Clicks', at, 'week');
      return [0, 3, 6].every((d) => rotatedTableName('Clicks', new Date(start.getTime() + d * 86_400_000), 'week') === name);
    }),
  );
  t.pass();
});
