// The shard segment of a key: suffixes start..start+count-1 at a fixed width, calculated from the
// key's encoded identity (so a finer raw value never moves an item), drawn per write when random,
// and given explicitly only through the private SHARD symbol (a `$shard` field is just data).
import test from 'ava';
import { KeyTemplate, SHARD, SHARD_SEGMENT, truncateTimestamp, type ShardSegmentDef } from './codec.js';
import { toStored } from './item.js';

const day: ShardSegmentDef['by'][number] = { kind: 'timestamp', attr: 'at', unit: 'day' };
const template = (shard: Omit<ShardSegmentDef, 'kind' | 'attr'>) =>
  new KeyTemplate({
    entity: 'E',
    target: 'E.key.pk',
    delimiter: '#',
    maxBytes: 2048,
    segments: [{ kind: 'literal', text: 'Day' }, day, { kind: 'shard', attr: SHARD_SEGMENT, ...shard }],
  });

test('suffixes 1..200 are three digits; parse checks the range', (t) => {
  const pk = template({ count: 200, start: 1, by: [day] });
  const key = pk.build({ at: new Date('2014-07-09T10:00:00Z') });
  t.regex(key, /^Day#2014-07-09#\d{3}$/);
  const suffix = Number(key.slice(-3));
  t.true(suffix >= 1 && suffix <= 200);
  t.is(pk.build({ at: new Date('2014-07-09T00:00:00Z'), [SHARD]: 200 }), 'Day#2014-07-09#200');
  t.throws(() => pk.build({ at: new Date(0), [SHARD]: 0 }), { message: /the shard must be an integer 1\.\.200, got 0/ });
  t.throws(() => pk.parse('Day#2014-07-09#000'), { message: /not a valid shard/ });
  t.deepEqual(pk.parse('Day#2014-07-09#001'), { at: new Date('2014-07-09T00:00:00Z') });
});

test('a calculated suffix hashes the value as the key encodes it: every time of a day gives the day\'s shard', (t) => {
  const pk = template({ count: 200, by: [day] });
  const keys = new Set(Array.from({ length: 48 }, (_, h) => pk.build({ at: new Date(Date.UTC(2024, 2, 1) + h * 1_800_000) })));
  t.is(keys.size, 1);
});

test('a random suffix is drawn per write, over exactly start..start+count-1', (t) => {
  const pk = template({ count: 5, start: 1, by: [], random: true });
  t.true(pk.random);
  const suffixes = new Set(Array.from({ length: 400 }, () => pk.build({ at: new Date(0) }).slice(-1)));
  t.deepEqual([...suffixes].sort(), ['1', '2', '3', '4', '5']);
});

test('the shard is chosen only through the SHARD symbol: a "$shard" field does not pick it', (t) => {
  const pk = template({ count: 200, by: [day] });
  const at = new Date('2024-03-01T00:00:00Z');
  t.is(pk.build({ at, $shard: 7 }), pk.build({ at }));
  t.is(pk.build({ at, [SHARD]: 7 }), 'Day#2024-03-01#007');
});

test('truncateTimestamp gives the start of the UTC second, minute, hour, day or month; stored values are truncated', (t) => {
  const at = new Date('2024-05-06T10:59:46.655Z');
  const want = { second: '2024-05-06T10:59:46.000Z', minute: '2024-05-06T10:59:00.000Z', hour: '2024-05-06T10:00:00.000Z', day: '2024-05-06T00:00:00.000Z', month: '2024-05-01T00:00:00.000Z' } as const;
  for (const [unit, iso] of Object.entries(want)) {
    t.is(truncateTimestamp(at, unit as keyof typeof want).toISOString(), iso, unit);
    t.deepEqual(toStored('E', { at: { timestamp: unit as keyof typeof want } }, { at }), { at: iso }, `stored at ${unit}`);
  }
  t.deepEqual(toStored('E', { at: 'timestamp' }, { at }), { at: at.toISOString() }, 'no unit: as given');
});
