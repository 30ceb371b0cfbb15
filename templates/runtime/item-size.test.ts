import test from 'ava';
import fc from 'fast-check';
import { itemSize, itemSizeBound, valueSize } from './item-size.js';

test('sizes follow DynamoDB\'s formula: UTF-8 names and values, numbers by significant digits, 3 + 1 per element for lists and maps', (t) => {
  t.is(itemSize({ 'shirt-color': 'R', 'shirt-size': 'M' }), 23, "AWS's example");
  t.is(valueSize(123456), 4);
  t.is(valueSize(1000), 2, 'trailing zeros are not significant');
  t.is(valueSize(-1.5), 2);
  t.is(valueSize(0), 2);
  t.is(valueSize(['a', 'bc']), 3 + 2 + 3);
  t.is(valueSize({ a: 1 }), 3 + 1 + 2 + 1);
  t.is(valueSize(new Set(['ab', 'c'])), 3);
  t.is(valueSize(true), 1);
  t.is(valueSize(Uint8Array.of(1, 2, 3)), 3);
});

test('the flat-record bound is never below the exact size, and is absent for nested records', (t) => {
  fc.assert(
    fc.property(fc.dictionary(fc.string({ unit: 'grapheme', minLength: 1 }), fc.oneof(fc.string({ unit: 'grapheme' }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean())), (record) => {
      return itemSizeBound(record)! >= itemSize(record);
    }),
  );
  t.is(itemSizeBound({ a: ['x'] }), undefined);
});
