import test from 'ava';
import { itemTypeProblem, typeProblem, type DeclaredType } from './declared-type.js';

const cases: Array<[string, DeclaredType, unknown, string | undefined]> = [
  ['a string', { kind: 'string' }, 'acme', undefined],
  ['a number for a string', { kind: 'string' }, 7, 'x is 7, not a string'],
  ['too many bytes', { kind: 'string', maxBytes: 3 }, 'ééé', 'x is longer than its 3 bytes'],
  ['missing, required', { kind: 'string' }, undefined, 'x is missing (declared string, required)'],
  ['missing, optional', { kind: 'string', optional: true }, undefined, undefined],
  ['a numeric string for a number', { kind: 'number' }, '12', 'x is "12", not a number'],
  ['a fraction for an integer', { kind: 'number', integer: true }, 1.5, 'x is 1.5, not an integer'],
  ['out of range', { kind: 'number', min: 0, max: 10 }, 11, 'x is 11, not in 0..10'],
  ['below an open range', { kind: 'number', min: 0 }, -1, 'x is -1, not in 0..∞'],
  ['an enum value', { kind: 'enum', values: ['A', 'B'] }, 'B', undefined],
  ['a value the enum lacks', { kind: 'enum', values: ['A', 'B'] }, 'C', 'x is "C", not one of A, B'],
  ['a boolean as text', { kind: 'boolean' }, 'true', 'x is "true", not a boolean'],
  ['a timestamp', { kind: 'timestamp' }, new Date(0), undefined],
  ['an invalid date', { kind: 'timestamp' }, new Date(Number.NaN), 'x is an invalid date, not a timestamp'],
  ['a string set of numbers', { kind: 'stringSet' }, new Set([1]), 'x is a set of 1, not a string set'],
  ['a number set', { kind: 'numberSet' }, new Set([1, 2]), undefined],
  ['binary', { kind: 'binary' }, Uint8Array.of(1), undefined],
  ['a list element of the wrong kind', { kind: 'list', of: { kind: 'number' } }, [1, 'two'], 'x[1] is "two", not a number'],
  ['a list over its bound', { kind: 'list', of: { kind: 'number' }, maxItems: 1 }, [1, 2], 'x has 2 items, more than its 1'],
  ['a map field missing', { kind: 'map', fields: { a: { kind: 'string' } } }, {}, 'x.a is missing (declared string, required)'],
  ['a list for a map', { kind: 'map', fields: {} }, [], 'x is a list of 0, not a map'],
];

for (const [name, type, value, want] of cases) {
  test(`typeProblem: ${name}`, (t) => {
    t.is(typeProblem(type, value, 'x'), want);
  });
}

test('itemTypeProblem names the first attribute that does not fit', (t) => {
  const types: Record<string, DeclaredType> = { orgId: { kind: 'string' }, seats: { kind: 'number', integer: true } };
  t.is(itemTypeProblem(types, { orgId: 'acme', seats: 3 }), undefined);
  t.is(itemTypeProblem(types, { orgId: 'acme', seats: '3' }), 'seats is "3", not a number');
});
