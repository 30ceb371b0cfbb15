// The TTL attribute's codec: a Date stored as whole epoch seconds (after the declared unit), read
// back as a Date; an ISO string stored before the attribute became the TTL still reads.
import test from 'ava';
import { ValidationError } from './errors.js';
import { fromStored, toStored, type AttributeCodecs } from './item.js';

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
