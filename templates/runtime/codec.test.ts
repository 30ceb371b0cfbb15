import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
import {
  KeyTemplate,
  SHARD,
  booleanPart,
  buildKey,
  checkKeyLength,
  compareUtf8,
  floatPart,
  integerPart,
  shardPart,
  stringPart,
  timestampPart,
  keyPrefix,
  type KeyCodec,
  type KeyTemplateDef,
  type ScalarSegmentDef,
  type TimestampKeyFormat,
  type TimestampUnit,
  decodeFloat,
  encodeFloat,
  encodeTimestamp,
  escapeSegment,
  isoDate,
  keyShape,
  segment,
  SHARD_SEGMENT,
  splitKey,
  utf8ByteLength,
  type SegmentDef,
} from './codec.js';
import { KeyValueError, KeyParseError } from './errors.js';

const template = (segments: SegmentDef[], delimiter = '.', maxBytes = 2048) =>
  new KeyTemplate({ entity: 'E', target: 'E.key.pk', delimiter, maxBytes, segments });

/** Strings biased towards what breaks naive codecs: delimiters, escapes, `${`, emoji, astral, NUL. */
const nasty = fc.oneof(
  fc.string({ unit: fc.constantFrom('.', '#', '\\', '$', '{', '}', '${', '{{', '\u0000', 'a', 'A', '😀', '𝄞', 'é', '\uFFFF') }),
  fc.string({ unit: 'grapheme' }),
  fc.string(),
);
const keyPart = nasty.filter((s) => s.trim() !== '');

const s2 = template([{ kind: 'literal', text: 'A' }, { kind: 'string', attr: 'x' }, { kind: 'string', attr: 'y' }]);

test('segment constructors: each gives the definition it names, as generated key templates write them', (t) => {
  const cases: Array<[SegmentDef, SegmentDef]> = [
    [segment.literal('User'), { kind: 'literal', text: 'User' }],
    [segment.string('id'), { kind: 'string', attr: 'id' }],
    [segment.enum('state', ['A', 'B']), { kind: 'enum', attr: 'state', values: ['A', 'B'] }],
    [segment.integer('rank', -5, 99), { kind: 'integer', attr: 'rank', min: -5, max: 99 }],
    [segment.float('score', 0, 1), { kind: 'float', attr: 'score', min: 0, max: 1 }],
    [segment.timestamp('at', 'day'), { kind: 'timestamp', attr: 'at', unit: 'day' }],
    [segment.boolean('open'), { kind: 'boolean', attr: 'open' }],
    [segment.shard({ count: 4, start: 1, by: [segment.string('id')] }), { kind: 'shard', attr: SHARD_SEGMENT, count: 4, start: 1, by: [{ kind: 'string', attr: 'id' }] }],
    [segment.shard({ count: 3, by: [], random: true }), { kind: 'shard', attr: SHARD_SEGMENT, count: 3, by: [], random: true }],
  ];
  for (const [made, want] of cases) t.deepEqual(made, want);
  const built = template([segment.literal('V'), segment.string('id'), segment.shard({ count: 4, start: 1, by: [segment.string('id')] })]);
  const written = template([{ kind: 'literal', text: 'V' }, { kind: 'string', attr: 'id' }, { kind: 'shard', attr: SHARD_SEGMENT, count: 4, start: 1, by: [{ kind: 'string', attr: 'id' }] }]);
  t.is(built.build({ id: 'u1' }), written.build({ id: 'u1' }));
  t.is(built.shards, 4);
});

test('injective: different values never give the same key, whatever they contain', (t) => {
  fc.assert(
    fc.property(keyPart, keyPart, keyPart, keyPart, (x1, y1, x2, y2) => {
      fc.pre(x1 !== x2 || y1 !== y2);
      return s2.build({ x: x1, y: y1 }) !== s2.build({ x: x2, y: y2 });
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test('round trip: parse(build(v)) gives v back, for every delimiter', (t) => {
  for (const delimiter of ['.', '#', ':', '|']) {
    const tpl = template([{ kind: 'string', attr: 'x' }, { kind: 'literal', text: 'L' }, { kind: 'string', attr: 'y' }], delimiter);
    fc.assert(fc.property(keyPart, keyPart, (x, y) => isDeepStrictEqual(tpl.parse(tpl.build({ x, y })), { x, y })));
  }
  t.pass();
});

test('segment count is exact: escaped delimiters never split a value; no key contains U+0000', (t) => {
  fc.assert(fc.property(keyPart, keyPart, (x, y) => {
    const key = s2.build({ x, y });
    return splitKey(key, '.')!.length === 3 && !key.includes('\u0000');
  }));
  t.is(escapeSegment('a\u0000b', '.'), 'a\\0b');
  t.deepEqual(s2.parse(s2.build({ x: '\u0000', y: '\\0' })), { x: '\u0000', y: '\\0' });
  t.pass();
});

test('floci#3800: (A#, B) and (A, #B) give different keys and parse back', (t) => {
  const tpl = template([{ kind: 'string', attr: 'c' }, { kind: 'string', attr: 'o' }], '#');
  const one = tpl.build({ c: 'A#', o: 'B' });
  const two = tpl.build({ c: 'A', o: '#B' });
  t.is(one, 'A\\##B');
  t.is(two, 'A#\\#B');
  t.deepEqual(tpl.parse(one), { c: 'A#', o: 'B' });
  t.deepEqual(tpl.parse(two), { c: 'A', o: '#B' });
});

test('prefix-safe: a partial key matches exactly the keys with that leading value (User.1 never matches User.12)', (t) => {
  const tpl = template([{ kind: 'literal', text: 'User' }, { kind: 'string', attr: 'id' }, { kind: 'string', attr: 'rest' }]);
  t.is(tpl.prefix({ id: '1' }).key, 'User.1.');
  t.false(tpl.build({ id: '12', rest: 'x' }).startsWith(tpl.prefix({ id: '1' }).key));
  fc.assert(
    fc.property(keyPart, keyPart, keyPart, (a, b, rest) => {
      const partial = tpl.prefix({ id: a });
      return partial.key.endsWith('.') && !partial.complete && tpl.build({ id: b, rest }).startsWith(partial.key) === (a === b);
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test('prefix: leading literals only, complete keys, and a gap is an error', (t) => {
  t.deepEqual(s2.prefix({}), { key: 'A.', complete: false, given: 0 });
  t.deepEqual(s2.prefix({ x: 'p', y: 'q' }), { key: 'A.p.q', complete: true, given: 2 });
  const error = t.throws(() => s2.prefix({ y: 'q' }), { instanceOf: KeyValueError });
  t.is(error.code, 'KEY_PREFIX_GAP');
  t.is(error.attribute, 'y');
  t.deepEqual(template([{ kind: 'string', attr: 'x' }]).prefix({}), { key: '', complete: false, given: 0 });
});

test('case preserved: Ab and aB are different keys', (t) => {
  t.not(s2.build({ x: 'Ab', y: 'z' }), s2.build({ x: 'aB', y: 'z' }));
  t.deepEqual(s2.parse(s2.build({ x: 'Ab', y: 'z' })), { x: 'Ab', y: 'z' });
});

const cases: Array<[string, unknown, string | undefined]> = [
  ['undefined', undefined, 'KEY_PART_MISSING'],
  ['null', null, 'KEY_PART_MISSING'],
  ['empty', '', 'KEY_PART_EMPTY'],
  ['blank', ' \t', 'KEY_PART_EMPTY'],
  ['number for string', 0, 'KEY_PART_TYPE'],
  ['lone surrogate', 'a\uD800', 'KEY_PART_TYPE'],
  ['zero-width is content', '\u200B', undefined],
];
for (const [name, value, code] of cases) {
  test(`string part: ${name}`, (t) => {
    if (code === undefined) {
      t.notThrows(() => s2.build({ x: value, y: 'y' }));
      return;
    }
    const error = t.throws(() => s2.build({ x: value, y: 'y' }), { instanceOf: KeyValueError });
    t.is(error.code, code);
    t.is(error.entity, 'E');
    t.is(error.attribute, 'x');
    t.regex(error.message, /^E\.key\.pk: /);
  });
}

test('missing part message names the target and the attribute', (t) => {
  const error = t.throws(() => s2.build({ y: 'y' }), { instanceOf: KeyValueError });
  t.is(error.message, 'E.key.pk: "x" is required to build this key');
});

test('integers: a range from 0 up is the value itself, zero-padded to the width of max', (t) => {
  const ids = template([{ kind: 'literal', text: 'User' }, { kind: 'integer', attr: 'id', min: 1, max: 1e9 }]);
  t.is(ids.build({ id: 1 }), 'User.0000000001');
  t.is(ids.build({ id: 1e9 }), 'User.1000000000');
  t.deepEqual(ids.parse('User.0000000042'), { id: 42 });
  const counts = template([{ kind: 'integer', attr: 'n', min: 0, max: 999 }]);
  t.deepEqual([0, 7, 999].map((n) => counts.build({ n })), ['000', '007', '999']);
});

test('integers: a range below zero keeps non-negatives as themselves and orders negatives by a complement', (t) => {
  const min = -1_000_000;
  const max = 5_000_000_000;
  const tpl = template([{ kind: 'integer', attr: 'n', min, max }]);
  // v1 wrote this range as 10 digits (value - min); v2's non-negatives take 11, so the two never share a shape.
  t.deepEqual([min, -5, -1, 0, 42, max].map((n) => tpl.build({ n })), ['-9000000', '-9999995', '-9999999', '00000000000', '00000000042', '05000000000']);
  for (const [value, code] of [[min - 1, 'KEY_PART_RANGE'], [max + 1, 'KEY_PART_RANGE'], [1.5, 'KEY_PART_TYPE'], [Number.NaN, 'KEY_PART_TYPE'], ['1', 'KEY_PART_TYPE']] as const) {
    const error = t.throws(() => tpl.build({ n: value }), { instanceOf: KeyValueError });
    t.is(error.code, code, String(value));
  }
  t.is(t.throws(() => tpl.build({ n: max + 1 }), { instanceOf: KeyValueError }).limit, `${min}..${max}`);
  const dashed = template([{ kind: 'literal', text: 'S' }, { kind: 'integer', attr: 'n', min: -10, max: 10 }], '-');
  t.is(dashed.build({ n: -3 }), 'S-!97', 'with "-" as the delimiter, negatives start with "!" (also below every digit)');
  t.deepEqual(dashed.parse('S-!97'), { n: -3 });
});

/** A declared integer range anywhere in the safe integers, and values inside it. */
const integerRange = fc
  .tuple(fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.maxSafeInteger().map((n) => Math.trunc(n / 2)), fc.integer()), fc.oneof(fc.nat({ max: 1e6 }), fc.nat()))
  .map(([min, span]) => ({ min, max: Math.min(min + span, Number.MAX_SAFE_INTEGER) }));
const inRange = (r: { min: number; max: number }) => fc.integer({ min: r.min, max: r.max });

test('integers (property): order, round trip and readable non-negatives over any declared range', (t) => {
  fc.assert(
    fc.property(
      integerRange.chain((r) => fc.tuple(fc.constant(r), inRange(r), inRange(r), fc.constantFrom('.', '#', '-'))),
      ([{ min, max }, a, b, delimiter]) => {
        const tpl = template([{ kind: 'literal', text: 'N' }, { kind: 'integer', attr: 'n', min, max }, { kind: 'string', attr: 's' }], delimiter);
        const ka = tpl.build({ n: a, s: 'x' });
        const kb = tpl.build({ n: b, s: 'x' });
        const text = splitKey(ka, delimiter)![1]!;
        const readable = a < 0 || (/^\d+$/.test(text) && Number(text) === a);
        return readable && Math.sign(compareUtf8(ka, kb)) === Math.sign(a - b) && tpl.parse(ka)['n'] === a;
      },
    ),
  );
  t.pass();
});

test('integers (property): a key written by codec v1 (offset from min) is a KeyParseError naming v1, never a value', (t) => {
  fc.assert(
    fc.property(
      integerRange.filter((r) => r.min !== 0).chain((r) => fc.tuple(fc.constant(r), inRange(r))),
      ([{ min, max }, value]) => {
        const tpl = template([{ kind: 'literal', text: 'N' }, { kind: 'integer', attr: 'n', min, max }]);
        const v1 = `N.${String(value - min).padStart(String(max - min).length, '0')}`;
        try {
          tpl.parse(v1);
          return false;
        } catch (error) {
          return error instanceof KeyParseError && error.codecVersion === 1 && /written by key codec v1/.test(error.message);
        }
      },
    ),
  );
  const ids = template([{ kind: 'literal', text: 'User' }, { kind: 'integer', attr: 'id', min: 1, max: 1e9 }]);
  const error = t.throws(() => ids.parse('User.000000000'), { instanceOf: KeyParseError });
  t.is(
    error.message,
    'E.key.pk: cannot parse "User.000000000": segment 2 ("000000000") is an integer written by key codec v1 (the offset from min 1); this code reads codec v2, which stores "id" as the value itself: rewrite the item with its v2 key',
  );
  t.is(error.codecVersion, 1);
  t.is(template([{ kind: 'integer', attr: 'n', min: 0, max: 99 }]).parse('07')['n'], 7, 'with min 0, v1 and v2 write the same text');
});

test('integers (property): a template with codecVersion 1 reads and builds v1 keys, and refuses v2 ones, as the migration copy of an old schema does', (t) => {
  fc.assert(
    fc.property(
      integerRange.filter((r) => r.min !== 0).chain((r) => fc.tuple(fc.constant(r), inRange(r))),
      ([{ min, max }, value]) => {
        const segments: SegmentDef[] = [{ kind: 'literal', text: 'N' }, { kind: 'integer', attr: 'n', min, max }];
        const v1 = new KeyTemplate({ entity: 'E', target: 'E.key.pk', delimiter: '.', maxBytes: 2048, segments, codecVersion: 1 });
        const key = `N.${String(value - min).padStart(String(max - min).length, '0')}`;
        const v2Key = template(segments).build({ n: value });
        const refused = (() => {
          try {
            v1.parse(v2Key);
            return false;
          } catch (error) {
            return error instanceof KeyParseError;
          }
        })();
        return v1.build({ n: value }) === key && v1.parse(key)['n'] === value && refused;
      },
    ),
  );
  const ids = new KeyTemplate({ entity: 'E', target: 'E.key.pk', delimiter: '.', maxBytes: 2048, segments: [{ kind: 'literal', text: 'User' }, { kind: 'integer', attr: 'id', min: 1, max: 1e9 }], codecVersion: 1 });
  t.deepEqual([ids.build({ id: 1 }), ids.parse('User.000000000')['id'], ids.parse('User.999999999')['id']], ['User.000000000', 1, 1e9]);
});

test('floats: 16 hex digits whose order is numeric order, -0 equals 0', (t) => {
  const tpl = template([{ kind: 'float', attr: 'f', min: -1e300, max: 1e300 }]);
  fc.assert(
    fc.property(fc.double({ noNaN: true, min: -1e300, max: 1e300 }), fc.double({ noNaN: true, min: -1e300, max: 1e300 }), (a, b) => {
      const ka = tpl.build({ f: a });
      const kb = tpl.build({ f: b });
      const same = a === b;
      return ka.length === 16 && (same ? ka === kb : Math.sign(compareUtf8(ka, kb)) === Math.sign(a - b)) && tpl.parse(ka)['f'] === (a === 0 ? 0 : a);
    }),
  );
  t.is(encodeFloat(-0), encodeFloat(0));
  t.is(decodeFloat(encodeFloat(-2.5)), -2.5);
  t.is(decodeFloat('zz'), undefined);
  t.is(t.throws(() => tpl.build({ f: Infinity }), { instanceOf: KeyValueError }).code, 'KEY_PART_TYPE');
});

const dates = fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });

test('timestamps: UTC, fixed width, chronological order; truncation is monotone', (t) => {
  const ms = template([{ kind: 'timestamp', attr: 'at', unit: 'millisecond' }], '#');
  fc.assert(
    fc.property(dates, dates, (a, b) => {
      const ka = ms.build({ at: a });
      const kb = ms.build({ at: b });
      return ka.length === 24 && Math.sign(compareUtf8(ka, kb)) === Math.sign(a.getTime() - b.getTime()) && (ms.parse(ka)['at'] as Date).getTime() === a.getTime();
    }),
  );
  t.is(ms.build({ at: new Date('2024-03-01T10:00:29Z') }), '2024-03-01T10:00:29.000Z', 'whole seconds keep their fraction (aws-sdk-java-v2#2219)');
  const dotted = template([{ kind: 'timestamp', attr: 'at', unit: 'millisecond' }], '.');
  t.is(dotted.build({ at: new Date(0) }), '1970-01-01T00:00:00\\.000Z', 'a delimiter inside the format is escaped at a fixed place');
  for (const unit of ['minute', 'hour', 'day', 'month'] as const) {
    const tpl = template([{ kind: 'timestamp', attr: 'at', unit }], '#');
    fc.assert(fc.property(dates, dates, (a, b) => a.getTime() > b.getTime() || compareUtf8(tpl.build({ at: a }), tpl.build({ at: b })) <= 0));
  }
  const day = template([{ kind: 'timestamp', attr: 'at', unit: 'day' }], '#');
  t.is(day.build({ at: new Date('2024-03-01T23:59:59+05:00') }), '2024-03-01', 'offsets are normalised to UTC');
  t.deepEqual(day.parse('2024-03-01'), { at: new Date('2024-03-01T00:00:00.000Z') });
  t.deepEqual(day.parseExact('2024-03-01'), { at: new Date('2024-03-01T00:00:00.000Z') }, 'a timestamp declared by the day is the value as stored');
  const bucket = template([{ kind: 'timestamp', attr: 'at', unit: 'day', bucket: true }], '#');
  t.is(bucket.build({ at: new Date('2024-03-01T23:59:59+05:00') }), '2024-03-01', 'a bucket is written as the unit it truncates to');
  t.deepEqual(bucket.parseExact('2024-03-01'), {}, 'a day bucket is not the instant');
  t.is(t.throws(() => ms.build({ at: new Date('+010000-01-01T00:00:00Z') }), { instanceOf: KeyValueError }).code, 'KEY_PART_RANGE');
  t.is(t.throws(() => ms.build({ at: new Date('-000001-01-01T00:00:00Z') }), { instanceOf: KeyValueError }).code, 'KEY_PART_RANGE');
  // the bounds are exact: the first and last millisecond of years 0000..9999 are keys, the next ones out are not
  t.is(ms.build({ at: new Date('0000-01-01T00:00:00.000Z') }), '0000-01-01T00:00:00.000Z');
  t.is(ms.build({ at: new Date('9999-12-31T23:59:59.999Z') }), '9999-12-31T23:59:59.999Z');
  t.is(t.throws(() => ms.build({ at: new Date(new Date('0000-01-01T00:00:00.000Z').getTime() - 1) }), { instanceOf: KeyValueError }).code, 'KEY_PART_RANGE');
  t.is(t.throws(() => ms.build({ at: new Date(new Date('9999-12-31T23:59:59.999Z').getTime() + 1) }), { instanceOf: KeyValueError }).code, 'KEY_PART_RANGE');
  t.is(t.throws(() => ms.build({ at: new Date(Number.NaN) }), { instanceOf: KeyValueError }).code, 'KEY_PART_TYPE');
  t.is(t.throws(() => ms.build({ at: '2024-01-01' }), { instanceOf: KeyValueError }).code, 'KEY_PART_TYPE');
});

test('timestamps with a colon delimiter are escaped and still sort', (t) => {
  const tpl = template([{ kind: 'literal', text: 'T' }, { kind: 'timestamp', attr: 'at', unit: 'minute' }], ':');
  const key = tpl.build({ at: new Date('2024-03-01T10:05:00Z') });
  t.is(key, 'T:2024-03-01T10\\:05');
  t.deepEqual(tpl.parse(key), { at: new Date('2024-03-01T10:05:00Z') });
});

test('enums and booleans', (t) => {
  const tpl = template([{ kind: 'enum', attr: 's', values: ['ACTIVE', 'BANNED'] }, { kind: 'boolean', attr: 'b' }]);
  t.is(tpl.build({ s: 'ACTIVE', b: false }), 'ACTIVE.false');
  t.deepEqual(tpl.parse('BANNED.true'), { s: 'BANNED', b: true });
  t.is(t.throws(() => tpl.build({ s: 'active', b: true }), { instanceOf: KeyValueError }).code, 'KEY_PART_RANGE');
  t.is(t.throws(() => tpl.build({ s: 'ACTIVE', b: 'true' }), { instanceOf: KeyValueError }).code, 'KEY_PART_TYPE');
});

test('limits are UTF-8 bytes: 512 emoji fill a partition key exactly, one more byte is an error', (t) => {
  const tpl = template([{ kind: 'string', attr: 'x' }]);
  t.is(utf8ByteLength(tpl.build({ x: '😀'.repeat(512) })), 2048);
  const error = t.throws(() => tpl.build({ x: '😀'.repeat(512) + 'a' }), { instanceOf: KeyValueError });
  t.is(error.code, 'KEY_TOO_LONG');
  t.is(error.limit, '2048 bytes');
  t.is(error.message, "E.key.pk: key is 2049 bytes in UTF-8, above DynamoDB's limit of 2048");
  const sk = template([{ kind: 'string', attr: 'x' }], '.', 1024);
  t.is(t.throws(() => sk.build({ x: 'é'.repeat(513) }), { instanceOf: KeyValueError }).code, 'KEY_TOO_LONG');
});

test('utf8ByteLength and compareUtf8 agree with Buffer for well-formed strings', (t) => {
  fc.assert(
    fc.property(nasty, nasty, (a, b) => {
      return (
        utf8ByteLength(a) === Buffer.byteLength(a) &&
        Math.sign(compareUtf8(a, b)) === Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)))
      );
    }),
    { numRuns: 3000 },
  );
  t.true(compareUtf8('\uFFFF', '😀') < 0, 'astral sorts after U+FFFF in UTF-8, unlike JS <');
  t.true('\uFFFF' > '😀');
});

test('parse rejects keys that do not fit the template', (t) => {
  for (const bad of ['B.x.y', 'A.x', 'A.x.y.z', 'A.x\\y.z', 'A..y']) {
    t.throws(() => s2.parse(bad), { instanceOf: KeyParseError }, bad);
  }
  t.is(escapeSegment('a.b\\c', '.'), 'a\\.b\\\\c');
});

test('matches(key) is what parse accepts, without decoding: built keys match, every other string agrees with parse', (t) => {
  const shapes: SegmentDef[][] = [
    [{ kind: 'literal', text: 'A' }, { kind: 'string', attr: 'x' }, { kind: 'string', attr: 'y' }],
    [{ kind: 'string', attr: 'x' }, { kind: 'literal', text: 'L' }, { kind: 'integer', attr: 'n', min: -5, max: 500 }],
    [{ kind: 'literal', text: 'E' }, { kind: 'enum', attr: 'e', values: ['a', 'b.c'] }, { kind: 'boolean', attr: 'b' }],
    [{ kind: 'literal', text: 'T' }, { kind: 'timestamp', attr: 'at', unit: 'millisecond' }, { kind: 'string', attr: 'x' }],
  ];
  const parses = (tpl: KeyTemplate, key: string) => {
    try {
      tpl.parse(key);
      return true;
    } catch {
      return false;
    }
  };
  const text = fc.string({ unit: fc.constantFrom('.', '#', '\\', '0', '1', '5', 'A', 'E', 'L', 'T', 'a', 'b', 'c', 'true', 'false', '-', ':', 'Z') });
  for (const delimiter of ['.', '#']) {
    for (const segments of shapes) {
      const tpl = template(segments, delimiter);
      fc.assert(fc.property(text, (key) => tpl.matches(key) === parses(tpl, key)), { numRuns: 3000 });
    }
    const [strings, numbers, enums, times] = shapes.map((segments) => template(segments, delimiter));
    fc.assert(
      fc.property(keyPart, keyPart, fc.integer({ min: -5, max: 500 }), fc.boolean(), fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }), (x, y, n, b, at) =>
        strings!.matches(strings!.build({ x, y })) && numbers!.matches(numbers!.build({ x, n })) && enums!.matches(enums!.build({ e: b ? 'b.c' : 'a', b })) && times!.matches(times!.build({ at, x })),
      ),
    );
  }
  t.false(s2.matches('A.x'), 'a segment short');
  t.false(s2.matches('A.x.y.z'), 'a segment over');
  t.false(s2.matches('B.x.y'), 'another literal');
  t.false(s2.matches('A..y'), 'an empty value');
  t.false(s2.matches('A.x\\q.y'), 'a bad escape');
  t.true(s2.matches('A.x\\.y.z'), 'an escaped delimiter stays in its value');
});

test('keyShape: one pattern accepting exactly what matchesBySegments accepts, for every template it covers', (t) => {
  const units = ['millisecond', 'second', 'minute', 'hour', 'day', 'month'] as const;
  const delimiters = ['.', '#', '-', ':', '|', '/', ']', '^', '$'];
  const enumValue = fc.oneof(fc.constantFrom('a', 'b.c', 'x-y', 'p:q', 'r\\s', 'true', ''), fc.string({ maxLength: 3 }));
  const anySegment: fc.Arbitrary<SegmentDef> = fc.oneof(
    fc.constantFrom('A', 'USER', 'T', 'x1').map((text): SegmentDef => ({ kind: 'literal', text })),
    fc.constant<SegmentDef>({ kind: 'string', attr: 's' }),
    fc.constantFrom(...units).map((unit): SegmentDef => ({ kind: 'timestamp', attr: 't', unit })),
    fc.constant<SegmentDef>({ kind: 'boolean', attr: 'b' }),
    fc.uniqueArray(enumValue, { minLength: 1, maxLength: 4 }).map((values): SegmentDef => ({ kind: 'enum', attr: 'e', values })),
  );
  // the encoded part of a valid value, or text near one: keys that match, and keys that almost do
  const part = (s: SegmentDef, d: string): fc.Arbitrary<string> => {
    const junk = fc.string({ unit: fc.constantFrom(d, '\\', '0', '1', '9', '-', ':', '.', 'T', 'Z', 'a', 'true', 'false'), maxLength: 4 });
    const valid: fc.Arbitrary<string> =
      s.kind === 'literal' ? fc.constant(s.text)
      : s.kind === 'string' ? keyPart.map((v) => escapeSegment(v, d))
      : s.kind === 'timestamp' ? fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }).map((at) => escapeSegment(encodeTimestamp(at, s.unit), d))
      : s.kind === 'boolean' ? fc.constantFrom('true', 'false')
      : s.kind === 'enum' ? fc.constantFrom(...s.values).map((v) => escapeSegment(v, d))
      : fc.constant('');
    return fc.oneof({ arbitrary: valid, weight: 4 }, junk, fc.tuple(valid, junk).map(([v, j]) => v + j), fc.tuple(valid, fc.nat()).map(([v, n]) => v.slice(0, n % (v.length + 1))));
  };
  const keyAndTemplate = fc
    .tuple(fc.constantFrom(...delimiters), fc.array(anySegment, { minLength: 1, maxLength: 4 }))
    .chain(([d, segments]) => fc.tuple(fc.constant(d), fc.constant(segments), fc.tuple(...segments.map((s) => part(s, d))), fc.constantFrom(d, '', '\\' + d)));
  let accepted = 0;
  let rejected = 0;
  fc.assert(
    fc.property(keyAndTemplate, ([delimiter, segments, parts, joiner]) => {
      const def = { entity: 'E', target: 'E.key.sk', delimiter, maxBytes: 2048, segments };
      const shape = keyShape(def)!;
      const key = parts.join(joiner);
      const want = new KeyTemplate(def).matchesBySegments(key);
      if (want) accepted++;
      else rejected++;
      return shape.test(key) === want;
    }),
    { numRuns: 20000 },
  );
  t.true(accepted > 2000 && rejected > 2000, `both answers seen (${accepted} accepted, ${rejected} rejected)`);
  const given: Array<[SegmentDef[], string, boolean]> = [
    [[{ kind: 'literal', text: 'ARTICLE' }, { kind: 'string', attr: 'id' }], 'ARTICLE#a1', true],
    [[{ kind: 'literal', text: 'ARTICLE' }, { kind: 'string', attr: 'id' }], 'ARTICLE#a1#COMMENT#c1', false],
    [[{ kind: 'literal', text: 'ARTICLE' }, { kind: 'string', attr: 'id' }], 'ARTICLE#a1\\#COMMENT', true],
    [[{ kind: 'timestamp', attr: 't', unit: 'millisecond' }], '2024-01-15T09:30:00.000Z', true],
  ];
  for (const [segments, key, want] of given) t.is(keyShape({ entity: 'E', target: 'E.key.sk', delimiter: '#', maxBytes: 2048, segments })!.test(key), want, key);
  const dotted: SegmentDef[] = [{ kind: 'timestamp', attr: 't', unit: 'millisecond' }];
  t.true(template(dotted).matches('2024-01-15T09:30:00\\.000Z'), 'a delimiter inside a timestamp is escaped');
  t.false(template(dotted).matches('2024-01-15T09:30:00.000Z'), 'and a bare one ends the part');
  t.is(keyShape({ entity: 'E', target: 'E.key.sk', delimiter: '#', maxBytes: 2048, segments: [{ kind: 'integer', attr: 'n', min: 0, max: 9 }] }), undefined, 'ranges are checked part by part');
});

const sameDate = (a: Date, b: Date) => Object.is(a.getTime(), b.getTime());

test('isoDate: exactly new Date(text) — for every stored timestamp, and for near misses of the form', (t) => {
  const given: Array<[string, string]> = [
    ['2024-05-01T10:00:00.000Z', 'the form isoString writes'],
    ['2024-02-28T23:59:59.999Z', 'the last day read directly'],
    ['2024-02-29T12:00:00.000Z', 'a leap day (day past 28: new Date)'],
    ['2023-02-29T12:00:00.000Z', 'no such day'],
    ['2024-13-01T00:00:00.000Z', 'month 13'],
    ['2024-00-10T00:00:00.000Z', 'month 0'],
    ['2024-05-00T00:00:00.000Z', 'day 0'],
    ['2024-05-01T24:00:00.000Z', 'hour 24'],
    ['2024-05-01T24:30:00.000Z', 'hour 24 and minutes'],
    ['2024-05-01T24:00:00.001Z', 'hour 24 and a millisecond'],
    ['2024-05-01T10:60:00.000Z', 'minute 60'],
    ['2024-05-01T10:00:60.000Z', 'second 60'],
    ['0099-05-01T10:00:00.000Z', 'a year below 100 (Date.UTC would read 1999)'],
    ['0100-01-01T00:00:00.000Z', 'year 100'],
    ['2024-05-01T10:00:00.00xZ', 'a letter in the milliseconds'],
    ['2024-05-01T10:00:00.000+', 'no Z'],
    ['2024-05-01 10:00:00.000Z', 'a space for T'],
    ['+012024-05-01T10:00:00.000Z', 'an extended year'],
    ['2024-05-01', 'a date only'],
    ['', 'empty'],
  ];
  for (const [text, what] of given) t.true(sameDate(isoDate(text), new Date(text)), what);
  fc.assert(fc.property(fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }), (date) => sameDate(isoDate(date.toISOString()), date)));
  // any 24 characters over digits and the form's separators
  const chars = fc.constantFrom('0', '1', '2', '3', '4', '5', '9', '-', 'T', ':', '.', 'Z', ' ');
  const form = '2024-05-01T10:00:00.000Z';
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(23), chars), { maxLength: 4 }), (edits) => {
      const text = [...form];
      for (const [at, c] of edits) text[at] = c;
      return sameDate(isoDate(text.join('')), new Date(text.join('')));
    }),
    { numRuns: 2000 },
  );
});

test('part functions (what generated builders call, one per kind) build exactly what buildKey builds, and throw the same errors', (t) => {
  const PART = { string: stringPart, enum: stringPart, integer: integerPart, float: floatPart, timestamp: timestampPart, boolean: booleanPart, shard: shardPart };
  // a generated builder: literal text and delimiters as they are, each value segment through its kind's function, the length checked
  const straight = (def: KeyTemplateDef) => (item: object) =>
    checkKeyLength(def, def.segments.map((s, at) => (s.kind === 'literal' ? s.text : PART[s.kind](def, at, item))).join(def.delimiter));
  const affix = fc.option(fc.constantFrom('u_', 'x', '#', '.'), { nil: undefined });
  const scalar = (attr: string): fc.Arbitrary<ScalarSegmentDef> =>
    fc.tuple(
      fc.oneof(
        fc.constant({ kind: 'string' as const, attr }),
        fc.constant({ kind: 'enum' as const, attr, values: ['A', 'b.c', 'Dd'] }),
        fc.constantFrom(false, true).map((plain) => ({ kind: 'integer' as const, attr, min: -50, max: 5000, ...(plain ? { plain: true as const } : {}) })),
        fc.constant({ kind: 'float' as const, attr, min: -1, max: 1e6 }),
        fc.tuple(fc.constantFrom('millisecond', 'second', 'hour', 'month') as fc.Arbitrary<TimestampUnit>, fc.constantFrom(undefined, 'iso-seconds', 'epoch-seconds', 'epoch-milliseconds'), fc.boolean()).map(([unit, format, bucket]) => ({
          kind: 'timestamp' as const,
          attr,
          unit,
          ...(format === undefined ? {} : { format: format as TimestampKeyFormat }),
          ...(bucket && format === undefined ? { bucket: true as const } : {}),
        })),
        fc.constant({ kind: 'boolean' as const, attr }),
      ),
      affix,
      affix,
    ).map(([s, prefix, suffix]) => ({ ...s, ...(prefix ? { prefix } : {}), ...(suffix ? { suffix } : {}) }) as ScalarSegmentDef);
  const segments = fc
    .tuple(fc.constantFrom('A', 'USER'), scalar('a'), scalar('b'), fc.option(fc.tuple(fc.integer({ min: 1, max: 20 }), fc.nat(3), fc.boolean()), { nil: undefined }))
    .map(([text, a, b, shard]): SegmentDef[] => [
      { kind: 'literal', text },
      a,
      b,
      ...(shard ? [segment.shard({ count: shard[0], ...(shard[1] ? { start: shard[1] } : {}), by: [a], ...(shard[2] ? { random: true as const } : {}) })] : []),
    ]);
  const def = fc.tuple(segments, fc.constantFrom('.', '#', '-'), fc.constantFrom(undefined, 'lower', 'upper'), fc.boolean(), fc.boolean(), fc.constantFrom(40, 2048)).map(
    ([segments, delimiter, casing, unescaped, v1, maxBytes]): KeyTemplateDef => ({
      entity: 'E',
      target: 'E.key.pk',
      delimiter,
      maxBytes,
      segments,
      ...(casing ? { casing: casing as 'lower' | 'upper' } : {}),
      ...(unescaped ? { escape: false as const } : {}),
      ...(v1 ? { codecVersion: 1 as const } : {}),
    }),
  );
  const value = fc.oneof(
    nasty,
    fc.constantFrom('A', 'b.c', 'Dd', '', ' ', 'x#y', true, false, null, undefined, 0, -3, 7, 4999, 5001, 0.5, Number.NaN, new Date(Number.NaN)),
    fc.integer({ min: -60, max: 6000 }),
    fc.double({ noNaN: true, min: -2, max: 2e6 }),
    fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
  );
  // mostly a value of the segment's kind (so keys are built), else any value (so errors are compared too)
  const fitting = (s: SegmentDef): fc.Arbitrary<unknown> => {
    const valid: fc.Arbitrary<unknown> =
      s.kind === 'string' ? keyPart
      : s.kind === 'enum' ? fc.constantFrom(...s.values)
      : s.kind === 'integer' ? fc.integer({ min: s.min, max: s.max })
      : s.kind === 'float' ? fc.double({ noNaN: true, min: s.min, max: s.max })
      : s.kind === 'timestamp' ? fc.date({ min: new Date('2001-09-09T01:46:40.000Z'), max: new Date('2286-11-20T17:46:39.999Z'), noInvalidDate: true })
      : fc.boolean();
    return fc.oneof({ arbitrary: valid, weight: 4 }, value);
  };
  const outcome = (build: () => string) => {
    try {
      return { key: build() };
    } catch (error) {
      return { error: error instanceof KeyValueError ? `${error.code} ${error.message}` : String(error) };
    }
  };
  let built = 0;
  fc.assert(
    fc.property(def.chain((d) => fc.tuple(fc.constant(d), fitting(d.segments[1]!), fitting(d.segments[2]!))), fc.option(fc.nat(30), { nil: undefined }), ([def, a, b], shard) => {
      const item = { a, b, ...(shard === undefined ? {} : { [SHARD]: shard }) };
      const random = def.segments.some((s) => s.kind === 'shard' && s.random);
      if (random && shard === undefined) return true; // a drawn shard differs per call
      const want = outcome(() => buildKey(def, item));
      if ('key' in want) built++;
      // a partial key (what queries write) through the kinds' functions, as generated codecs name them in `parts`
      const codec = { def, build: straight(def), matches: () => true, parts: def.segments.map((s) => (s.kind === 'literal' ? undefined : PART[s.kind])) };
      const partial = { a, ...(shard === undefined ? {} : { [SHARD]: shard }) };
      const prefix = (template: KeyCodec) => outcome(() => JSON.stringify(keyPrefix(template, partial)));
      return (
        isDeepStrictEqual(outcome(() => straight(def)(item)), want) &&
        isDeepStrictEqual(outcome(() => new KeyTemplate(def, straight(def)).build(item)), want) &&
        isDeepStrictEqual(prefix(codec), prefix(new KeyTemplate(def)))
      );
    }),
    { numRuns: 20000 },
  );
  t.true(built > 4000, `keys built (${built}), not only errors`);
});
