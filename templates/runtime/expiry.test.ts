// Time to live on reads (expiry.ts): a stored record is expired when its TTL attribute is a number at
// or before now, never when it is absent or not a number (as DynamoDB's TTL process treats it); reads
// drop expired records unless asked to include them; "now" is the client's clock when it offers one.
import test from 'ava';
import { clientClock, isExpired, unexpired } from './expiry.js';

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
  const clock = () => now;
  t.deepEqual(ids(unexpired({ ttl: 'expiresAt', now: clock }, {})), ['future', 'never']);
  t.deepEqual(ids(unexpired({ ttl: 'expiresAt', now: clock }, { includeExpired: true })), ['past', 'future', 'never']);
  t.deepEqual(ids(unexpired({ now: clock }, {})), ['past', 'future', 'never']);
  // the context's clock decides: an hour on, both have expired
  t.deepEqual(ids(unexpired({ ttl: 'expiresAt', now: () => now + 3_600_000 }, {})), ['never']);
});

test('clientClock: a client offers its clock under the registered symbol (the in-memory table does); others give none', (t) => {
  t.deepEqual(clientClock({}), {});
  const at = 1_700_000_000_000;
  t.is(clientClock({ [Symbol.for('ddbgen.clock')]: () => at }).now?.(), at);
});
