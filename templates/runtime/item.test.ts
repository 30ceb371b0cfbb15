// The TTL attribute's codec: a Date stored as whole epoch seconds (after the declared unit), read
// back as a Date; an ISO string stored before the attribute became the TTL still reads. A stored
// record is expired when that number is at or before now; absent or not a number, never (as
// DynamoDB's TTL process treats it).
import test from 'ava';
import { ValidationError } from './errors.js';
import { fromStored, isExpired, toStored, unexpired, type AttributeCodecs } from './item.js';

const codecs: AttributeCodecs = { expiresAt: { epochSeconds: 'second' }, bucketEnd: { epochSeconds: 'minute' }, createdAt: 'timestamp' };

const cases: Array<[string, Date, number]> = [
  ['whole seconds', new Date('2026-01-02T03:04:05.000Z'), 1767323045],
  ['milliseconds round down', new Date('2026-01-02T03:04:05.999Z'), 1767323045],
  ['before the epoch', new Date('1969-12-31T23:59:59.500Z'), -1],
  ['the epoch', new Date(0), 0],
];
for (const [name, date, seconds] of cases) {
  test(`epoch seconds: ${name}`, (t) => {
    t.deepEqual(toStored('Session', codecs, { expiresAt: date, createdAt: date }), { expiresAt: seconds, createdAt: date.toISOString() });
    t.deepEqual(fromStored('Session', codecs, { pk: 'S#1', expiresAt: seconds }, ['pk']), { expiresAt: new Date(seconds * 1000) });
  });
}

test('epoch seconds after the declared unit: a minute unit stores the minute\'s start', (t) => {
  t.deepEqual(toStored('Session', codecs, { bucketEnd: new Date('2026-01-02T03:04:59.999Z') }), { bucketEnd: 1767323040 });
});

test('an ISO string stored before the attribute was the TTL reads back as the same instant', (t) => {
  t.deepEqual(fromStored('Session', codecs, { expiresAt: '2026-01-02T03:04:05.000Z' }, []), { expiresAt: new Date('2026-01-02T03:04:05.000Z') });
});

test('a TTL value that is not a valid Date is a ValidationError before any request', (t) => {
  const error = t.throws(() => toStored('Session', codecs, { expiresAt: new Date('nope') }), { instanceOf: ValidationError });
  t.regex(error.message, /expiresAt/);
  t.throws(() => toStored('Session', codecs, { expiresAt: 1767323045 }), { instanceOf: ValidationError });
});

const now = Date.UTC(2026, 10, 23, 12, 0, 0);
const seconds = now / 1000;
const expiryCases: Array<[string, Record<string, unknown>, boolean]> = [
  ['a second ago', { expiresAt: seconds - 1 }, true],
  ['exactly now', { expiresAt: seconds }, true],
  ['a second from now', { expiresAt: seconds + 1 }, false],
  ['years ago', { expiresAt: 0 }, true],
  ['absent', {}, false],
  ['an ISO string (not a number: DynamoDB never expires it)', { expiresAt: '2020-01-01T00:00:00.000Z' }, false],
  ['not finite', { expiresAt: Number.NaN }, false],
];
for (const [name, stored, expired] of expiryCases) {
  test(`isExpired: ${name}`, (t) => {
    t.is(isExpired(stored, 'expiresAt', now), expired);
  });
}

test('unexpired keeps everything without a TTL attribute or with includeExpired, else what has not expired', (t) => {
  const records = [{ id: 'past', expiresAt: seconds - 60 }, { id: 'future', expiresAt: seconds + 60 }, { id: 'never' }];
  const ids = (keep: (r: Record<string, unknown>) => boolean) => records.filter(keep).map((r) => r.id);
  t.deepEqual(ids(unexpired('expiresAt', {}, now)), ['future', 'never']);
  t.deepEqual(ids(unexpired('expiresAt', { includeExpired: true }, now)), ['past', 'future', 'never']);
  t.deepEqual(ids(unexpired(undefined, {}, now)), ['past', 'future', 'never']);
});
