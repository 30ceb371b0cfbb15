import test from 'ava';
import fc from 'fast-check';
import { itemSize, itemSizeBound, numberBytes, stringBytes, valueSize } from './item-size.js';

test('sizes follow DynamoDB\'s formula: UTF-8 names and values, numbers by significant digits, 3 + 1 per element for lists and maps', (t) => {
  t.is(itemSize({ 'shirt-color': 'R', 'shirt-size': 'M' }), 23, "AWS's example");
  t.is(valueSize(123456), 4);
  t.is(valueSize(1000), 2, 'trailing zeros are not significant');
  t.is(valueSize(['a', 'bc']), 3 + 2 + 3);
  t.is(valueSize({ a: 1 }), 3 + 1 + 2 + 1);
  t.is(valueSize(new Set(['ab', 'c'])), 3);
  t.is(valueSize(true), 1);
  t.is(valueSize(Uint8Array.of(1, 2, 3)), 3);
});

// Each figure as DynamoDB Local counts it: the bytes one PutItem of the number costs beyond the same
// item without it, read from the write units at the 1 KB boundary (test/in-memory/command-cases.ts
// puts items holding such values at the 400 KB limit on both).
const numberCases: ReadonlyArray<readonly [string, number]> = [
  ['0', 1], ['-0', 1], ['0.00', 1], ['1', 2], ['-1', 3], ['5', 2], ['15', 2], ['50', 2], ['500', 2], ['100', 2], ['101', 3], ['1010', 3],
  ['123', 3], ['-123', 4], ['1234', 3], ['0.1', 2], ['-0.1', 3], ['0.01', 2], ['0.15', 2], ['0.5', 2], ['1.5', 3], ['-1.5', 4],
  ['1.2', 3], ['-1.2', 4], ['12.34', 3], ['1.234', 4], ['123.4', 4], ['10.01', 3], ['1000001', 5], ['00012', 2], ['1.10', 3],
  ['1e10', 2], ['1.1e4', 3], ['1.1e5', 2], ['1.01e-5', 3], ['0.000001', 2], ['-0.000001', 3], ['1E+125', 2], ['1E-130', 2], ['-1E-130', 3], ['-1e-30', 3],
  ['12345678901234567890123456789012345678', 20], ['-12345678901234567890123456789012345678', 21], ['1.2345678901234567890123456789012345678', 21], ['-1.2345678901234567890123456789012345678', 21], ['-1.0000000000000000000000000000000000001', 21], ['-10.000000000000000000000000000000000001', 21],
  ['9.9999999999999999999999999999999999999E+125', 20], ['-9.9999999999999999999999999999999999999E+125', 21], ['12345678901234567890123456789012345678e-130', 20],
];
for (const [text, bytes] of numberCases) {
  test(`a number's bytes as DynamoDB Local counts them: ${text}`, (t) => {
    t.is(numberBytes(text), bytes);
    // a JS number holds up to 15 significant digits exactly
    if (text.replace(/e.*$/i, '').replace(/\D/g, '').length <= 15) t.is(valueSize(Number(text)), bytes, 'a JS number counts the same');
  });
}

test('safe integers count as their text does', (t) => {
  fc.assert(fc.property(fc.maxSafeInteger().chain((n) => fc.constantFrom(n, -n, n * 10 ** (n % 6))), (n) => Number.isSafeInteger(n) ? valueSize(n) === numberBytes(String(n)) : true));
  t.pass();
});

test('strings count in UTF-8, a lone surrogate as 1 byte (as DynamoDB Local counts it)', (t) => {
  t.is(stringBytes('é'), 2);
  t.is(stringBytes('😀'), 4);
  t.is(stringBytes('\ud800'), 1);
  t.is(stringBytes('a\udc00b'), 3);
  t.is(stringBytes('\ud83d\ud83d\ude00'), 5, 'a lone high surrogate before a pair');
});

test('the flat-record bound is never below the exact size, and is absent for nested records', (t) => {
  fc.assert(
    fc.property(fc.dictionary(fc.string({ unit: 'grapheme', minLength: 1 }), fc.oneof(fc.string({ unit: 'grapheme' }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean())), (record) => {
      return itemSizeBound(record)! >= itemSize(record);
    }),
  );
  t.is(itemSizeBound({ a: ['x'] }), undefined);
});
