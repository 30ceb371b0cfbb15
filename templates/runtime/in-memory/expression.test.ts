// The expression language as DynamoDB Local answers it (each row was tried there first).
import test from 'ava';
import { Aliases, evaluateCondition, project, resolveCondition, resolvePath } from './expression.js';
import { parseCondition, parseProjection, parseUpdate, type ExpressionKind } from './expression-parser.js';
import { applyUpdate, resolveUpdate } from './expression-updates.js';
import { marshallMap, unmarshallMap } from './value.js';

const item = marshallMap({ pk: 'c', sk: 'c', n: 5, s: 'abc', l: [1, 'x'], m: { a: 1 }, ss: new Set(['a', 'b']), b: new Uint8Array([1, 2]), nul: null, t: true });
const holds = (expression: string, values: Record<string, unknown> = {}, names: Record<string, string> = {}) =>
  evaluateCondition(resolveCondition(parseCondition('ConditionExpression', expression), new Aliases(names, marshallMap(values)), 'ConditionExpression'), item);

const conditions: Array<[string, Record<string, unknown>, boolean]> = [
  ['zz <> :v', { ':v': 1 }, true],
  ['zz = :v', { ':v': 1 }, false],
  ['NOT zz = :v', { ':v': 1 }, true],
  ['n < :v', { ':v': 'x' }, false],
  ['n <> :v', { ':v': 'x' }, true],
  ['size(s) = :v', { ':v': 3 }, true],
  ['size(n) = :v', { ':v': 1 }, false],
  ['size(zz) < :v', { ':v': 1 }, false],
  ['size(:v) = :w', { ':v': 'ab', ':w': 2 }, true],
  ['contains(ss, :v)', { ':v': 'a' }, true],
  ['contains(l, :v)', { ':v': 'x' }, true],
  ['contains(s, :v)', { ':v': 'bc' }, true],
  ['contains(n, :v)', { ':v': 5 }, false],
  ['begins_with(b, :v)', { ':v': new Uint8Array([1]) }, true],
  ['attribute_type(ss, :v)', { ':v': 'SS' }, true],
  ['n BETWEEN :a AND :b', { ':a': 1, ':b': 9 }, true],
  ['n IN (:a, :b)', { ':a': 1, ':b': 9 }, false],
  ['m.a = :a AND l[1] = :b', { ':a': 2, ':b': 'x' }, false],
  ['m.a = :a AND l[1] = :b', { ':a': 1, ':b': 'x' }, true],
  ['nul = :a', { ':a': null }, true],
  ['ss = :a', { ':a': new Set(['b', 'a']) }, true],
  ['m = :a', { ':a': { a: 1 } }, true],
  ['s < :a', { ':a': 'abd' }, true],
  [':a = :a', { ':a': 1 }, true],
  ['n = :a and n = :a', { ':a': 5 }, true],
  ['n = :a OR n = :b AND n = :c', { ':a': 5, ':b': 1, ':c': 2 }, true],
  ['(n = :a OR n = :b) AND n = :c', { ':a': 5, ':b': 1, ':c': 2 }, false],
  ['NOT (n = :a OR n = :b)', { ':a': 4, ':b': 1 }, true],
];
for (const [expression, values, want] of conditions) {
  test(`condition ${expression} ${JSON.stringify(values, (_, v) => (v instanceof Set ? [...v] : v))} → ${want}`, (t) => {
    t.is(holds(expression, values), want);
  });
}

const refused: Array<[string, Record<string, unknown>, string]> = [
  ['begins_with(n, :v)', { ':v': 5 }, 'Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N'],
  ['attribute_type(ss, :v)', { ':v': 'XX' }, 'Invalid ConditionExpression: Invalid attribute type name found; type: XX, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}'],
  ['n BETWEEN :a AND :b', { ':a': 9, ':b': 1 }, 'Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:9}, upper bound operand: AttributeValue: {N:1}'],
  ['t < :a', { ':a': true }, 'Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: <, operand type: BOOL'],
  ['((n = :a))', { ':a': 1 }, 'Invalid ConditionExpression: The expression has redundant parentheses;'],
  ['ATTRIBUTE_EXISTS(n)', {}, 'Invalid ConditionExpression: Invalid function name; function: ATTRIBUTE_EXISTS'],
  ['n = = :x', { ':x': 1 }, 'Invalid ConditionExpression: Syntax error; token: "=", near: "= = :x"'],
  // a character no token starts with is one token; near: from the token before it to the one after
  ['!!! n', {}, 'Invalid ConditionExpression: Syntax error; token: "!", near: "!!"'],
  ['n = :x ~ :x', { ':x': 1 }, 'Invalid ConditionExpression: Syntax error; token: "~", near: ":x ~ :x"'],
  ['n = :x', {}, 'Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :x'],
  ['#q = :x', { ':x': 1 }, 'Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #q'],
  [`n IN (${Array.from({ length: 101 }, (_, i) => `:a${i}`).join(',')})`, Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`:a${i}`, i])), 'Invalid ConditionExpression: The IN operator is provided with too many operands; number of operands: 101'],
];
for (const [expression, values, message] of refused) {
  test(`condition ${expression.slice(0, 40)} is refused: ${message.slice(0, 60)}`, (t) => {
    const error = t.throws(() => holds(expression, values));
    t.is(error?.message, message);
  });
}

test('aliases a request defines but no expression uses are refused', (t) => {
  const aliases = new Aliases({ '#p': 'pk', '#q': 'x' }, marshallMap({ ':x': 1 }));
  resolveCondition(parseCondition('ConditionExpression', 'attribute_exists(#p)'), aliases, 'ConditionExpression');
  t.is(t.throws(() => aliases.checkAllUsed())?.message, 'Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}');
});

/** Runs an update expression on `old` (what UpdateItem stores). */
function update(expression: string, values: Record<string, unknown>, old: Record<string, unknown>) {
  const actions = resolveUpdate(parseUpdate(expression), new Aliases({}, marshallMap(values)), ['pk', 'sk']);
  return unmarshallMap(applyUpdate(actions, marshallMap(old)));
}

const updates: Array<[string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]> = [
  ['SET f = :a + :b', { ':a': 0.1, ':b': 0.2 }, {}, { f: 0.3 }],
  ['SET n = if_not_exists(n, :a), q = if_not_exists(q, :a), r = list_append(:l, l)', { ':a': 0, ':l': ['y'] }, { n: 5, l: [1, 'x'] }, { n: 5, q: 0, l: [1, 'x'], r: ['y', 1, 'x'] }],
  ['SET l[5] = :v, m.x = :v', { ':v': 'z' }, { l: [''], m: { e: '' } }, { l: ['', 'z'], m: { e: '', x: 'z' } }],
  ['REMOVE l[0], l[7]', {}, { l: ['', 'z'] }, { l: ['z'] }],
  ['REMOVE l[0], l[1]', {}, { l: ['a', 'b', 'c'] }, { l: ['c'] }],
  ['SET a = :v ADD c :n, ss :ss', { ':v': 'z', ':n': 5, ':ss': new Set(['x', 'y']) }, {}, { a: 'z', c: 5, ss: new Set(['x', 'y']) }],
  ['ADD c :n, ss :ss', { ':n': -2, ':ss': new Set(['y', 'w']) }, { c: 5, ss: new Set(['x', 'y']) }, { c: 3, ss: new Set(['w', 'x', 'y']) }],
  ['DELETE ss :ss', { ':ss': new Set(['x', 'y']) }, { ss: new Set(['x', 'y']) }, {}],
  ['SET a = b, b = a', {}, { a: 1, b: 2 }, { a: 2, b: 1 }],
  ['REMOVE zz, m.nope', {}, { m: {} }, { m: {} }],
];
for (const [expression, values, old, want] of updates) {
  test(`update ${expression}`, (t) => {
    t.deepEqual(update(expression, values, old), want);
  });
}

const refusedUpdates: Array<[string, Record<string, unknown>, Record<string, unknown>, string]> = [
  ['SET sk = :v', { ':v': 'c' }, {}, 'One or more parameter values were invalid: Cannot update attribute sk. This attribute is part of the key'],
  ['SET m.e = :v, m = :w', { ':v': 'c', ':w': {} }, {}, 'Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [m, e], path two: [m]'],
  ['SET n = :v REMOVE n', { ':v': 'c' }, {}, 'Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [n], path two: [n]'],
  ['ADD s :v', { ':v': 'c' }, {}, 'Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND'],
  ['ADD l :a', { ':a': [1] }, {}, 'Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: LIST, typeSet: ALLOWED_FOR_ADD_OPERAND'],
  ['ADD s :v', { ':v': 1 }, { s: 'abc' }, 'An operand in the update expression has an incorrect data type'],
  ['ADD ss :a', { ':a': new Set([1]) }, { ss: new Set(['a']) }, 'An operand in the update expression has an incorrect data type'],
  ['SET s = s + :v', { ':v': 1 }, { s: 'abc' }, 'An operand in the update expression has an incorrect data type'],
  ['SET q = q + :v', { ':v': 1 }, {}, 'The provided expression refers to an attribute that does not exist in the item'],
  ['SET s = list_append(s, :v)', { ':v': [1] }, { s: 'abc' }, 'An operand in the update expression has an incorrect data type'],
  ['SET zz.y = :v', { ':v': 1 }, {}, 'The document path provided in the update expression is invalid for update'],
  ['SET a = :a SET b = :a', { ':a': 1 }, {}, 'Invalid UpdateExpression: The "SET" section can only be used once in an update expression;'],
];
for (const [expression, values, old, message] of refusedUpdates) {
  test(`update ${expression} is refused: ${message.slice(0, 60)}`, (t) => {
    t.is(t.throws(() => update(expression, values, old))?.message, message);
  });
}

test('a projection keeps the named paths, nested as in the item, list elements in index order', (t) => {
  const paths = (text: string, kind: ExpressionKind = 'ProjectionExpression') => parseProjection(text).map((p) => resolvePath(p, new Aliases({ '#m': 'm' }, {}), kind));
  const stored = marshallMap({ pk: 'a', s: '', m: { e: '', f: 1 }, l: ['a', 'b', 'c'] });
  t.deepEqual(unmarshallMap(project(stored, paths('pk, s, #m.e, l[2], l[0], nope'))), { pk: 'a', s: '', m: { e: '' }, l: ['a', 'c'] });
});
