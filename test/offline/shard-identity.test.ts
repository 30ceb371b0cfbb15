// Property: any two writes that build the same key choose the same shard — the suffix hashes the
// item's identity as the key encodes it (after truncation), never a finer raw value — for the
// seeds' designs: events keyed by day (no by), orders by order id (suffixes 1..200), and votes by voter.
import test from 'ava';
import fc from 'fast-check';
import { EventKeys, OrderKeys } from '../../out/seeds/index.js';
import { VoteKeys } from '../../out/social/index.js';

const DAY = 86_400_000;
const base = Date.UTC(2024, 2, 1);
// Few ids and three days, so that equal keys are common, with times anywhere in the day.
const at = fc.integer({ min: 0, max: 3 * DAY - 1 }).map((ms) => new Date(base + ms));
const id = fc.constantFrom('a', 'b', 'c', 'a#b', 'é');

/** The key without its shard suffix: what identifies the item. */
const unsharded = (pk: string) => pk.replace(/#\d+$/, '').replace(/\.\d+$/, '');

const designs = [
  ['events keyed by day (identity)', fc.record({ eventId: id, createdAt: at }), (v: { eventId: string; createdAt: Date }) => EventKeys.key(v)],
  ['orders by order id, suffixes 1..200', fc.record({ orderId: id, createdAt: at }), (v: { orderId: string; createdAt: Date }) => OrderKeys.key(v)],
  ['votes by voter', fc.record({ candidateId: id, voterId: id, votedAt: at }), (v: { candidateId: string; voterId: string; votedAt: Date }) => VoteKeys.key(v)],
] as const;

for (const [name, values, key] of designs) {
  test(`same key, same shard: ${name}`, (t) => {
    fc.assert(
      fc.property(values, values, (a, b) => {
        const ka = (key as (v: typeof a) => { pk: string; sk: string })(a);
        const kb = (key as (v: typeof b) => { pk: string; sk: string })(b);
        if (ka.sk === kb.sk && unsharded(ka.pk) === unsharded(kb.pk)) return ka.pk === kb.pk;
        return true;
      }),
      { numRuns: 2000 },
    );
    t.pass();
  });
}

test('the day-keyed event of 01:00 and of 02:00 is one key', (t) => {
  const first = EventKeys.key({ eventId: 'e1', createdAt: new Date('2024-03-01T01:00:00Z') });
  t.deepEqual(EventKeys.key({ eventId: 'e1', createdAt: new Date('2024-03-01T02:00:00Z') }), first);
  t.regex(first.pk, /^EventDay#2024-03-01#\d{3}$/);
  t.regex(OrderKeys.key({ orderId: 'o', createdAt: new Date(0) }).pk, /^OrderDay#1970-01-01#(00[1-9]|0[1-9]\d|1\d\d|200)$/);
});
