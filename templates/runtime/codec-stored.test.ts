// Stored key formats (a table another writer keyed): given/want tables for building and parsing,
// the refusals that keep parsing unambiguous, and properties that matches() and keyShape() agree
// with parse() for every stored format.
import test from 'ava';
import fc from 'fast-check';
import { KeyTemplate, keyShape, segment, type KeyTemplateDef, type SegmentDef } from './codec.js';
import { KeyValueError } from './errors.js';
import { planSortCondition } from './key-condition.js';
import { fromStoredValue, isStoredTimestamp, toStoredValue } from './item.js';

const def = (segments: SegmentDef[], extra: Partial<KeyTemplateDef> = {}): KeyTemplateDef => ({ entity: 'E', target: 'E.key.sk', delimiter: '#', maxBytes: 1024, segments, ...extra });
const tpl = (segments: SegmentDef[], extra: Partial<KeyTemplateDef> = {}) => new KeyTemplate(def(segments, extra));
const unescaped = { escape: false } as const;
const at = new Date('2024-01-05T10:00:00.123Z');

// [what, template, values, key, parsed back]
const given: Array<[string, KeyTemplate, Record<string, unknown>, string, Record<string, unknown>]> = [
  ['ElectroDB partition key: glued attribute names, lower-cased', tpl([segment.literal('$taskapp'), segment.affixed(segment.string('employee'), 'employee_')], { escape: false, casing: 'lower' }), { employee: 'JLowe' }, '$taskapp#employee_jlowe', { employee: 'jlowe' }],
  ['ElectroDB collection sort key', tpl([segment.literal('$workplaces'), segment.literal('employee_1'), segment.affixed(segment.string('employee'), 'employee_')], { escape: false, casing: 'lower' }), { employee: 'Gw Zoo' }, '$workplaces#employee_1#employee_gw zoo', { employee: 'gw zoo' }],
  ['OneTable sort key with an empty last segment', tpl([segment.literal('account'), segment.literal('')], unescaped), {}, 'account#', {}],
  ['Toolbox-style plain integer', tpl([segment.literal('USER'), segment.plainInteger('id', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)], unescaped), { id: 123 }, 'USER#123', { id: 123 }],
  ['plain negative integer', tpl([segment.literal('N'), segment.plainInteger('n', -100, 100)], unescaped), { n: -7 }, 'N#-7', { n: -7 }],
  ['ISO timestamp without milliseconds', tpl([segment.literal('ORDER'), segment.timestamp('at', 'second', 'iso-seconds')], unescaped), { at }, 'ORDER#2024-01-05T10:00:00Z', { at: new Date('2024-01-05T10:00:00Z') }],
  ['date only', tpl([segment.literal('DAY'), segment.timestamp('at', 'day')], unescaped), { at }, 'DAY#2024-01-05', { at: new Date('2024-01-05T00:00:00Z') }],
  ['epoch seconds', tpl([segment.literal('T'), segment.timestamp('at', 'second', 'epoch-seconds')], unescaped), { at }, 'T#1704448800', { at: new Date('2024-01-05T10:00:00Z') }],
  ['epoch milliseconds', tpl([segment.literal('T'), segment.timestamp('at', 'millisecond', 'epoch-milliseconds')]), { at }, 'T#1704448800123', { at }],
  ['glued suffix, escaped value', tpl([segment.affixed(segment.string('id'), 'u_', '.v')]), { id: 'a#b' }, 'u_a\\#b.v', { id: 'a#b' }],
  ['upper-cased enum and boolean', tpl([segment.enum('state', ['Open', 'Shut']), segment.boolean('flag')], { casing: 'upper' }), { state: 'Open', flag: true }, 'OPEN#TRUE', { state: 'Open', flag: true }],
  ['a backslash is plain text when unescaped', tpl([segment.literal('P'), segment.string('path')], unescaped), { path: 'C:\\dir' }, 'P#C:\\dir', { path: 'C:\\dir' }],
];
for (const [what, template, values, key, parsed] of given) {
  test(`stored format: ${what}`, (t) => {
    t.is(template.build(values), key);
    t.deepEqual(template.parse(key), parsed);
    t.true(template.matches(key));
  });
}

test('unescaped keys refuse a value holding the delimiter or U+0000 before any request, so every key splits exactly', (t) => {
  const template = tpl([segment.literal('USER'), segment.string('name')], unescaped);
  for (const name of ['a#b', 'x\u0000y']) {
    const error = t.throws(() => template.build({ name }), { instanceOf: KeyValueError });
    t.is(error.code, 'KEY_PART_DELIMITER');
    t.regex(error.message, /keyFormat: \{ escape: false \}/);
  }
  t.throws(() => planSortCondition(template, { beginsWith: { name: 'a#' } }), { instanceOf: KeyValueError });
});

test('epoch key parts keep a fixed width: instants outside 2001-09-09..2286-11-20 are refused', (t) => {
  const template = tpl([segment.timestamp('at', 'second', 'epoch-seconds')]);
  for (const when of ['2001-09-09T01:46:39Z', '1970-01-01T00:00:00Z', '2286-11-20T17:46:40Z']) {
    t.is(t.throws(() => template.build({ at: new Date(when) }), { instanceOf: KeyValueError }).code, 'KEY_PART_RANGE', when);
  }
  t.is(template.build({ at: new Date('2001-09-09T01:46:40Z') }), '1000000000');
});

test('a folded key holds folded text only: other casings of enum, boolean and timestamp text do not parse', (t) => {
  const template = tpl([segment.enum('state', ['Open']), segment.boolean('flag'), segment.timestamp('at', 'second', 'iso-seconds')], { casing: 'lower' });
  t.is(template.build({ state: 'Open', flag: false, at }), 'open#false#2024-01-05t10:00:00z');
  t.deepEqual(template.parse('open#false#2024-01-05t10:00:00z'), { state: 'Open', flag: false, at: new Date('2024-01-05T10:00:00Z') });
  for (const key of ['OPEN#false#2024-01-05t10:00:00z', 'open#False#2024-01-05t10:00:00z', 'open#false#2024-01-05T10:00:00Z']) {
    t.false(template.matches(key), key);
    t.throws(() => template.parse(key), undefined, key);
  }
});

test('plain integers: leading zeros and -0 are not their form; ranges refused, eq and prefixes fine', (t) => {
  const template = tpl([segment.literal('ORDER'), segment.plainInteger('n', 0, 1e9), segment.string('line')], unescaped);
  for (const key of ['ORDER#007#a', 'ORDER#-0#a', 'ORDER#1e3#a', 'ORDER##a']) t.false(template.matches(key), key);
  t.deepEqual(planSortCondition(template, { eq: { n: 10 } }), { op: 'begins_with', value: 'ORDER#10#' });
  for (const condition of [{ gt: { n: 9 } }, { between: [{ n: 1 }, { n: 20 }] }, { lte: { n: 3, line: 'x' } }]) {
    const error = t.throws(() => planSortCondition(template, condition), { instanceOf: KeyValueError });
    t.regex(error.message, /sorts as text \(10 before 9\)/);
  }
});

test('beginsWith on a glued, folded value compares the stored text', (t) => {
  const template = tpl([segment.literal('$app'), segment.affixed(segment.string('name'), 'name_')], { escape: false, casing: 'lower' });
  t.deepEqual(planSortCondition(template, { beginsWith: { name: 'Jo' } }), { op: 'begins_with', value: '$app#name_jo' });
});

test('parseExact leaves out what a stored format holds only approximately (folded strings, time buckets); an untruncated timestamp is the value as stored, in its format', (t) => {
  const template = tpl([segment.affixed(segment.string('id'), 'u_'), segment.timestamp('at', 'second', 'iso-seconds'), segment.plainInteger('n', 0, 99)], { escape: false, casing: 'lower' });
  // the item holds `at` as iso-seconds too (writes truncate to the format), so the key gives back exactly what it stores
  t.deepEqual(template.parseExact(template.build({ id: 'Ann', at, n: 5 })), { at: new Date('2024-01-05T10:00:00.000Z'), n: 5 });
  const bucketed = tpl([segment.string('id'), segment.bucket('at', 'day')], { escape: false });
  t.deepEqual(bucketed.parseExact(bucketed.build({ id: 'Ann', at })), { id: 'Ann' }, 'a day bucket is not the instant');
});

test('property: stored-format keys round-trip, and matches() and keyShape() accept exactly what parse() does', (t) => {
  const valueText = fc.string({ unit: fc.constantFrom('a', 'B', 'z', '1', '_', '-', ' ', 'é', '\\', '.'), minLength: 1, maxLength: 6 }).filter((s) => s.trim() !== '');
  const anySegment: fc.Arbitrary<SegmentDef> = fc.oneof(
    fc.constantFrom('USER', '$app', '', 'x_1').map((text) => segment.literal(text)),
    fc.tuple(fc.constantFrom('', 'n_', 'u-'), fc.constantFrom('', '_x')).map(([p, s]) => segment.affixed(segment.string('s'), p, s)),
    fc.constant(segment.plainInteger('i', -50, 5000)),
    fc.constantFrom('iso-seconds', 'epoch-seconds', 'epoch-milliseconds' as const).map((f) => segment.timestamp('t', f === 'epoch-milliseconds' ? 'millisecond' : 'second', f)),
    fc.constant(segment.enum('e', ['Alpha', 'beta'])),
    fc.constant(segment.boolean('b')),
  );
  const shapes = fc.record({
    segments: fc.uniqueArray(anySegment, { minLength: 1, maxLength: 4, selector: (s) => (s.kind === 'literal' ? `l${s.text}` : s.kind) }),
    casing: fc.constantFrom(undefined, 'lower' as const, 'upper' as const),
    escape: fc.constantFrom(undefined, false as const),
  });
  const values = fc.record({
    s: valueText,
    i: fc.integer({ min: -50, max: 5000 }),
    t: fc.date({ min: new Date('2001-09-09T01:46:40Z'), max: new Date('2286-11-20T17:46:39Z'), noInvalidDate: true }),
    e: fc.constantFrom('Alpha', 'beta'),
    b: fc.boolean(),
  });
  const noise = fc.string({ unit: fc.constantFrom('#', 'a', 'A', '1', '0', '-', '_', 'T', 'Z', 't', 'z', ':', 'n_', 'u-', 'USER', '$app', 'true', 'FALSE', 'Alpha', 'beta'), maxLength: 12 });
  let built = 0;
  fc.assert(
    fc.property(shapes, values, noise, ({ segments, casing, escape }, v, junk) => {
      const d = def(segments, { ...(casing ? { casing } : {}), ...(escape === false ? { escape } : {}) });
      const template = new KeyTemplate(d);
      const shape = keyShape(d);
      const parses = (key: string) => {
        try {
          template.parse(key);
          return true;
        } catch {
          return false;
        }
      };
      let key: string;
      try {
        key = template.build(v);
      } catch (error) {
        // only a value holding the delimiter may be refused, and only when unescaped
        return escape === false && (error as KeyValueError).code === 'KEY_PART_DELIMITER';
      }
      built++;
      const back = template.parse(key);
      const rebuilt = template.build({ ...v, ...back });
      for (const candidate of [key, junk, key + junk, key.slice(0, junk.length)]) {
        if (template.matches(candidate) !== parses(candidate)) return false;
        if (shape !== undefined && shape.test(candidate) !== template.matchesBySegments(candidate)) return false;
      }
      return rebuilt === key && template.matches(key);
    }),
    { numRuns: 4000 },
  );
  t.true(built > 2000, `${built} keys built`);
});

// [format, Date, stored, read back]
const stored: Array<[string, Date, unknown, Date]> = [
  ['iso-seconds', at, '2024-01-05T10:00:00Z', new Date('2024-01-05T10:00:00Z')],
  ['date', at, '2024-01-05', new Date('2024-01-05T00:00:00Z')],
  ['epoch-seconds', at, 1704448800, new Date('2024-01-05T10:00:00Z')],
  ['epoch-milliseconds', at, 1704448800123, at],
];
test('timestamp attributes in their stored format: written, checked and read back', (t) => {
  for (const [format, date, want, back] of stored) {
    const codec = { format } as Parameters<typeof toStoredValue>[2];
    t.deepEqual(toStoredValue('E', 'at', codec, date), want, format);
    t.deepEqual(fromStoredValue('E', 'at', codec, want), back, format);
    t.true(isStoredTimestamp(want, format as 'date'), format);
  }
  t.deepEqual(toStoredValue('E', 'at', { format: 'iso-seconds', unit: 'hour' }, at), '2024-01-05T10:00:00Z');
  t.false(isStoredTimestamp('2024-01-05T10:00:00.000Z', 'iso-seconds'));
  t.false(isStoredTimestamp('2024-1-5', 'date'));
  t.false(isStoredTimestamp('1704448800', 'epoch-seconds'), 'an epoch is stored as a number');
  // read leniently: an epoch stored as digits in text, an ISO text with milliseconds
  t.deepEqual(fromStoredValue('E', 'at', { format: 'epoch-seconds' }, '1704448800'), new Date('2024-01-05T10:00:00Z'));
  t.deepEqual(fromStoredValue('E', 'at', { format: 'iso-seconds' }, '2024-01-05T10:00:00.123Z'), at);
});
