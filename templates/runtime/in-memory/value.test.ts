import test from 'ava';
import fc from 'fast-check';
import { marshall } from '@aws-sdk/util-dynamodb';
import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { itemSize } from '../item-size.js';
import {
  addDecimal,
  canonicalNumber,
  compareScalars,
  equalValues,
  formatDecimal,
  itemBytes,
  marshallMap,
  marshallValue,
  parseDecimal,
  sortedSet,
  unmarshallMap,
  type AttributeValue,
} from './value.js';

const numbers: Array<[string, string]> = [
  ['1.50', '1.5'],
  ['1E+5', '100000'],
  ['-0', '0'],
  ['0.000', '0'],
  ['1e-7', '0.0000001'],
  ['-12.340e1', '-123.4'],
  ['12345678901234567890123456789012345678', '12345678901234567890123456789012345678'],
];
for (const [given, want] of numbers) {
  test(`number ${given} is stored as ${want}`, (t) => {
    t.is(canonicalNumber(given), want);
  });
}

const refused: Array<[string, string]> = [
  ['abc', 'A value provided cannot be converted into a number'],
  ['123456789012345678901234567890123456789', 'Attempting to store more than 38 significant digits in a Number'],
  ['1E126', 'Number overflow. Attempting to store a number with magnitude larger than supported range'],
  ['1E-131', 'Number underflow. Attempting to store a number with magnitude smaller than supported range'],
];
for (const [given, message] of refused) {
  test(`number ${given} is refused as DynamoDB refuses it`, (t) => {
    const error = t.throws(() => parseDecimal(given));
    t.is(error?.message, message);
    t.is((error as { type?: string }).type, 'ValidationException');
  });
}

test('arithmetic is exact decimal arithmetic, as DynamoDB does it (0.1 + 0.2 = 0.3)', (t) => {
  t.is(formatDecimal(addDecimal(parseDecimal('0.1'), parseDecimal('0.2'))), '0.3');
  t.is(formatDecimal(addDecimal(parseDecimal('5'), parseDecimal('-7.25'))), '-2.25');
  t.throws(() => addDecimal(parseDecimal('1E+20'), parseDecimal('1E-30')), { message: 'Attempting to store more than 38 significant digits in a Number' });
});

/** Doubles DynamoDB stores: 0, or magnitudes from 1E-130 (below, it refuses them). */
const storable = (max: number) => fc.double({ noNaN: true, noDefaultInfinity: true, min: -max, max }).filter((x) => x === 0 || Math.abs(x) >= 1e-100);

test('property: numbers compare by value, as JavaScript compares the doubles they came from', (t) => {
  fc.assert(
    fc.property(storable(1e20), storable(1e20), (a, b) => {
      const x = { N: canonicalNumber(String(a)) };
      const y = { N: canonicalNumber(String(b)) };
      return Math.sign(compareScalars(x, y)) === Math.sign(a - b);
    }),
  );
  t.pass();
});

test('property: strings compare by their UTF-8 bytes', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => Math.sign(compareScalars({ S: a }, { S: b })) === Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)))),
  );
  t.pass();
});

/** Items of the kinds generated code stores: strings, safe numbers, booleans, null, bytes, sets, lists, maps. */
const scalar = fc.oneof(fc.string(), fc.integer(), storable(1e15), fc.boolean(), fc.constant(null), fc.uint8Array({ maxLength: 4 }));
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 3 }).map((a) => new Set(a)),
    fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 3 }).map((a) => new Set(a)),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), tie('value'), { maxKeys: 3 }),
  ),
}));
const item = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), value.value, { maxKeys: 5 });

test('property: marshallMap is what the DocumentClient sends (util-dynamodb marshall), numbers in canonical form', (t) => {
  const canonical = (v: Record<string, unknown>): unknown => {
    if (v.N !== undefined) return { N: canonicalNumber(v.N as string) };
    if (v.NS !== undefined) return sortedSet({ NS: (v.NS as string[]).map(canonicalNumber) });
    if (v.SS !== undefined) return sortedSet({ SS: v.SS as string[] });
    if (v.L !== undefined) return { L: (v.L as Array<Record<string, unknown>>).map(canonical) };
    if (v.M !== undefined) return { M: Object.fromEntries(Object.entries(v.M as Record<string, Record<string, unknown>>).map(([k, x]) => [k, canonical(x)])) };
    return v;
  };
  fc.assert(
    fc.property(item, (given) => {
      t.deepEqual({ M: marshallMap(given) }, canonical({ M: marshall(given) }) as never);
    }),
  );
});

test('property: unmarshall(marshall(item)) gives the item back; its size is what item-size.ts measures', (t) => {
  fc.assert(
    fc.property(item, (given) => {
      const stored = marshallMap(given);
      t.deepEqual(unmarshallMap(stored), normalized(given) as never);
      t.is(itemBytes(stored), itemSize(given));
    }),
  );
});

/** What comes back for a value: -0 is 0, set elements in DynamoDB Local's order. */
function normalized(v: unknown): unknown {
  if (Object.is(v, -0)) return 0;
  if (Array.isArray(v)) return v.map(normalized);
  if (v instanceof Set) return new Set([...v].map(normalized).sort((a, b) => (typeof a === 'number' ? (a as number) - (b as number) : String(a) < String(b) ? -1 : 1)));
  if (v instanceof Uint8Array || typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalized(x)]));
}

test("the DocumentClient's own errors for values it cannot send", (t) => {
  t.is(t.throws(() => marshallValue(new Set()))?.message, 'Pass a non-empty set, or options.convertEmptyValues=true.');
  t.is(t.throws(() => marshallMap({ a: undefined }))?.message, 'Pass options.removeUndefinedValues=true to remove undefined values from map/array/set.');
  t.is(t.throws(() => marshallValue(2 ** 60))?.message, 'Number 1152921504606847000 is greater than Number.MAX_SAFE_INTEGER. Use NumberValue from @aws-sdk/lib-dynamodb.');
  t.is(t.throws(() => marshallValue(Number.NaN))?.message, 'Special numeric value NaN is not allowed');
  t.deepEqual(marshallValue(NumberValue.from('123456789012345678901')), { N: '123456789012345678901' });
  t.deepEqual(marshallValue(12345678901234567890n), { N: '12345678901234567890' });
});

test('equality: same type and value; sets in any order; numbers by value', (t) => {
  const cases: Array<[AttributeValue, AttributeValue, boolean]> = [
    [{ SS: ['a', 'b'] }, { SS: ['b', 'a'] }, true],
    [{ N: '1.50' }, { N: '1.5' }, true],
    [{ N: '1' }, { S: '1' }, false],
    [{ M: { a: { N: '1' } } }, { M: { a: { N: '1' }, b: { NULL: true } } }, false],
    [{ L: [{ S: 'x' }] }, { L: [{ S: 'x' }] }, true],
    [{ B: new Uint8Array([1]) }, { B: new Uint8Array([1]) }, true],
  ];
  for (const [a, b, want] of cases) t.is(equalValues(a, b), want, JSON.stringify([a, b]));
});
