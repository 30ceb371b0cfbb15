import test from 'ava';
import { ExpressionAliases, updateExpression } from './expression.js';
import { ValidationError } from './errors.js';

const cases: Array<[string, Parameters<typeof updateExpression>[1], string, Record<string, string>, Record<string, unknown>]> = [
  ['set one', { set: { name: 'x' } }, 'SET #n0 = :v0', { '#n0': 'name' }, { ':v0': 'x' }],
  ['reserved words are aliased', { set: { status: 'A', size: 2 } }, 'SET #n0 = :v0, #n1 = :v1', { '#n0': 'status', '#n1': 'size' }, { ':v0': 'A', ':v1': 2 }],
  ['all clauses', { set: { a: 1 }, remove: ['b'], add: { c: 2 }, append: { d: ['x'] } }, 'SET #n0 = :v0, #n1 = list_append(if_not_exists(#n1, :v1), :v2) REMOVE #n2 ADD #n3 :v3', { '#n0': 'a', '#n1': 'd', '#n2': 'b', '#n3': 'c' }, { ':v0': 1, ':v1': [], ':v2': ['x'], ':v3': 2 }],
  ['undefined in set is skipped', { set: { a: undefined, b: 'y' } }, 'SET #n0 = :v0', { '#n0': 'b' }, { ':v0': 'y' }],
  ['delete from a set, prepend, set if absent', { delete: { tags: new Set(['x']) }, prepend: { log: ['first'] }, setIfNotExists: { createdAt: 'now' } }, 'SET #n0 = if_not_exists(#n0, :v0), #n1 = list_append(:v1, if_not_exists(#n1, :v2)) DELETE #n2 :v3', { '#n0': 'createdAt', '#n1': 'log', '#n2': 'tags' }, { ':v0': 'now', ':v1': ['first'], ':v2': [], ':v3': new Set(['x']) }],
  ['values that look like expressions stay values', { set: { a: ':v1 OR #n0' } }, 'SET #n0 = :v0', { '#n0': 'a' }, { ':v0': ':v1 OR #n0' }],
];
for (const [name, changes, want, names, values] of cases) {
  test(`update expression: ${name}`, (t) => {
    const aliases = new ExpressionAliases();
    t.is(updateExpression('E', changes, aliases), want);
    t.deepEqual(aliases.attributes(), { ExpressionAttributeNames: names, ExpressionAttributeValues: values });
  });
}

test('an empty update and an attribute in two clauses are ValueErrors', (t) => {
  t.is(t.throws(() => updateExpression('E', { set: {} }, new ExpressionAliases()), { instanceOf: ValidationError }).message, 'E.(update): nothing to update: give at least one of set, remove, add, delete, append, prepend, setIfNotExists');
  t.is(t.throws(() => updateExpression('E', { set: { a: 1 }, remove: ['a'] }, new ExpressionAliases()), { instanceOf: ValidationError }).attribute, 'a');
});

test('attributes() leaves out empty maps', (t) => {
  t.deepEqual(new ExpressionAliases().attributes(), {});
});
