// Every value kind with every affix, under every key format: the codec builds, parses, matches and
// bounds exactly the text a reference encoder written here from the key format's rules gives
// (`$history#trip_1#tripno_00005`: ElectroDB's padded integer keeps its label). The reference
// shares no code with codec.ts: it spells each kind's written form out on its own.
import assert from 'node:assert/strict';
import test from 'ava';
import fc from 'fast-check';
import { KeyTemplate, compareUtf8, segment, type KeyTemplateDef, type ScalarSegmentDef, type TimestampKeyFormat, type TimestampUnit } from './codec.js';
import { KeyValueError } from './errors.js';
import { planSortCondition } from './key-condition.js';

type Casing = 'lower' | 'upper' | undefined;
interface Format {
  readonly delimiter: string;
  readonly escape: boolean;
  readonly casing: Casing;
}

/** One value kind: its segment (without affixes), values of it, and the reference text of a value. */
interface Kind {
  readonly name: string;
  readonly segment: ScalarSegmentDef;
  readonly value: fc.Arbitrary<unknown>;
  /** The value's text in the key before folding and escaping; `folds`: whether the key's casing applies. */
  readonly text: (value: unknown, format: Format) => string;
  readonly folds: boolean;
  /** Whether keys of it sort as its values do (fixed width), and how values compare. */
  readonly order?: (a: unknown, b: unknown) => number;
  /** The value parsing gives back (a truncated timestamp, a folded string). */
  readonly parsed: (value: unknown, format: Format) => unknown;
}

const fold = (text: string, casing: Casing) => (casing === 'lower' ? text.toLowerCase() : casing === 'upper' ? text.toUpperCase() : text);
const escape = (text: string, delimiter: string) => [...text].map((c) => (c === '\\' ? '\\\\' : c === delimiter ? `\\${delimiter}` : c === '\u0000' ? '\\0' : c)).join('');

/** Zero-padded decimal of a non-negative integer of 0..max: as wide as max. */
const padded = (n: number, max: number) => String(n).padStart(String(max).length, '0');
/** IEEE-754 bits of a double, sign flipped (or all bits flipped for negatives), in 16 hex digits: byte order is numeric order. */
function orderedHex(n: number): string {
  const bits = new BigUint64Array(new Float64Array([n === 0 ? 0 : n]).buffer)[0]!;
  const sign = 1n << 63n;
  const flipped = bits & sign ? ~bits & 0xffffffffffffffffn : bits | sign;
  return flipped.toString(16).padStart(16, '0');
}
const ISO_WIDTH: Record<TimestampUnit, number> = { millisecond: 24, second: 19, minute: 16, hour: 13, day: 10, month: 7 };
const START: Record<TimestampUnit, string> = { millisecond: '', second: '.000Z', minute: ':00.000Z', hour: ':00:00.000Z', day: 'T00:00:00.000Z', month: '-01T00:00:00.000Z' };
function timestampText(at: Date, unit: TimestampUnit, format: TimestampKeyFormat | undefined): string {
  const iso = at.toISOString();
  if (format === undefined) return iso.slice(0, ISO_WIDTH[unit]);
  if (format === 'iso-seconds') return `${iso.slice(0, 19)}Z`;
  return String(format === 'epoch-seconds' ? Math.floor(at.getTime() / 1000) : at.getTime());
}
const truncated = (at: Date, unit: TimestampUnit) => (unit === 'millisecond' ? at : new Date(at.toISOString().slice(0, ISO_WIDTH[unit]) + START[unit]));

const word = fc.stringMatching(/^[A-Za-z0-9 ._:#|\\-]{1,8}$/).filter((s) => s.trim() !== '');
const instants = fc.date({ min: new Date('2001-09-10T00:00:00Z'), max: new Date('2286-11-19T00:00:00Z'), noInvalidDate: true });
const byTime = (a: unknown, b: unknown) => (a as Date).getTime() - (b as Date).getTime();
const byNumber = (a: unknown, b: unknown) => (a as number) - (b as number);

const timestampKind = (unit: TimestampUnit, format?: TimestampKeyFormat): Kind => ({
  name: `timestamp ${format ?? unit}`,
  segment: segment.timestamp('at', unit, format),
  value: instants,
  text: (v) => timestampText(v as Date, unit, format),
  folds: true,
  order: byTime,
  parsed: (v) => truncated(v as Date, unit),
});

const KINDS: readonly Kind[] = [
  { name: 'string', segment: segment.string('name'), value: word, text: (v) => v as string, folds: true, parsed: (v, f) => fold(v as string, f.casing) },
  { name: 'enum', segment: segment.enum('state', ['Open', 'on-hold', 'Shut']), value: fc.constantFrom('Open', 'on-hold', 'Shut'), text: (v) => v as string, folds: true, parsed: (v) => v },
  { name: 'boolean', segment: segment.boolean('flag'), value: fc.boolean(), text: (v) => String(v), folds: true, parsed: (v) => v },
  { name: 'padded integer', segment: segment.integer('tripNo', 0, 99999), value: fc.integer({ min: 0, max: 99999 }), text: (v) => padded(v as number, 99999), folds: false, order: byNumber, parsed: (v) => v },
  {
    name: 'signed padded integer',
    segment: segment.integer('delta', -500, 500),
    value: fc.integer({ min: -500, max: 500 }),
    // -500..500: three digits each side; a negative is the sign (below every digit) and 1000 + value
    text: (v, f) => ((v as number) >= 0 ? String(v).padStart(3, '0') : (f.delimiter === '-' ? '!' : '-') + String(1000 + (v as number)).padStart(3, '0')),
    folds: false,
    order: byNumber,
    parsed: (v) => v,
  },
  { name: 'plain integer', segment: segment.plainInteger('fleetNo', -1000, 1e6), value: fc.integer({ min: -1000, max: 1e6 }), text: (v) => String(v), folds: false, parsed: (v) => v },
  { name: 'float', segment: segment.float('score', -1e6, 1e6), value: fc.double({ min: -1e6, max: 1e6, noNaN: true }), text: (v) => orderedHex(v as number), folds: false, order: byNumber, parsed: (v) => (Object.is(v, -0) ? 0 : v) },
  timestampKind('millisecond'),
  timestampKind('hour'),
  timestampKind('day'),
  timestampKind('second', 'iso-seconds'),
  timestampKind('second', 'epoch-seconds'),
  timestampKind('millisecond', 'epoch-milliseconds'),
];

const AFFIXES: ReadonlyArray<readonly [string, string]> = [
  ['', ''],
  ['tripno_', ''],
  ['', '_v'],
  ['n=', '.x'],
];
const FORMATS: readonly Format[] = [
  { delimiter: '#', escape: true, casing: undefined },
  { delimiter: '#', escape: false, casing: undefined },
  { delimiter: '#', escape: false, casing: 'lower' },
  { delimiter: '|', escape: true, casing: 'upper' },
  { delimiter: '-', escape: true, casing: undefined },
];

/** A sort key `$history#<affixed value>`, in `format`. */
function template(kind: Kind, [prefix, suffix]: readonly [string, string], format: Format): KeyTemplate {
  const value = prefix || suffix ? segment.affixed(kind.segment, prefix, suffix) : kind.segment;
  const def: KeyTemplateDef = {
    entity: 'Trip',
    target: 'Trip.key.sk',
    delimiter: format.delimiter,
    maxBytes: 1024,
    segments: [segment.literal('$history'), value],
    ...(format.escape ? {} : { escape: false as const }),
    ...(format.casing ? { casing: format.casing } : {}),
  };
  return new KeyTemplate(def);
}

/** The key the format's rules give: the value's text, folded, escaped (or refused unescaped), between its affixes. */
function reference(kind: Kind, [prefix, suffix]: readonly [string, string], format: Format, value: unknown): string | 'refused' {
  const text = kind.folds ? fold(kind.text(value, format), format.casing) : kind.text(value, format);
  if (!format.escape && (text.includes(format.delimiter) || text.includes('\u0000'))) return 'refused';
  // the negative sign of a padded integer is never the delimiter (`!` when the delimiter is `-`); no other kind writes one
  const written = format.escape ? escape(text, format.delimiter) : text;
  return `$history${format.delimiter}${prefix}${written}${suffix}`;
}

for (const kind of KINDS) {
  test(`affixes: ${/^[aeiou]/.test(kind.name) ? 'an' : 'a'} ${kind.name} part, with every affix in every key format, builds, parses, matches and bounds what the reference writes`, (t) => {
    for (const affix of AFFIXES) {
      for (const format of FORMATS) {
        const key = template(kind, affix, format);
        const attr = (kind.segment as { attr: string }).attr;
        fc.assert(
          fc.property(kind.value, kind.value, (a, b) => {
            const want = reference(kind, affix, format, a);
            if (want === 'refused') {
              assert.throws(() => key.build({ [attr]: a }), KeyValueError);
              return;
            }
            assert.equal(key.build({ [attr]: a }), want);
            assert.ok(key.matches(want), `matches ${want}`);
            assert.deepEqual(key.parse(want), { [attr]: kind.parsed(a, format) });
            assert.deepEqual(planSortCondition(key, { eq: { [attr]: a } }), { op: '=', value: want });
            const other = reference(kind, affix, format, b);
            if (kind.order && other !== 'refused') {
              // fixed-width kinds sort as their values, affixes and all; a range is bounded by exactly those keys
              const [low, high] = kind.order(a, b) <= 0 ? [a, b] : [b, a];
              assert.equal(Math.sign(compareUtf8(want, other)), Math.sign(kind.order(kind.parsed(a, format), kind.parsed(b, format))), `${want} against ${other}`);
              assert.deepEqual(planSortCondition(key, { between: [{ [attr]: low }, { [attr]: high }] }), { op: 'between', low: reference(kind, affix, format, low), high: reference(kind, affix, format, high) });
            }
          }),
          { numRuns: 40 },
        );
      }
    }
    t.pass();
  });
}

test('affixes: ElectroDB\'s padded trip number keeps its label, and a between on it reads the trips in range', (t) => {
  const trips = new KeyTemplate({ entity: 'Trip', target: 'Trip.key.sk', delimiter: '#', maxBytes: 1024, escape: false, casing: 'lower', segments: [segment.literal('$history'), segment.literal('trip_1'), segment.affixed(segment.integer('tripNo', 0, 99999), 'tripno_')] });
  t.is(trips.build({ tripNo: 5 }), '$history#trip_1#tripno_00005');
  t.deepEqual(trips.parse('$history#trip_1#tripno_00005'), { tripNo: 5 });
  t.false(trips.matches('$history#trip_1#00005'), 'the digits without their label are not this key');
  t.deepEqual(planSortCondition(trips, { between: [{ tripNo: 4 }, { tripNo: 6 }] }), { op: 'between', low: '$history#trip_1#tripno_00004', high: '$history#trip_1#tripno_00006' });
});
