import test from 'ava';
import fc from 'fast-check';
import { KeyTemplate, compareUtf8, type SegmentDef } from './codec.js';
import { ExpressionAliases } from './expression.js';
import { groupEnd, keyAfter, keyBefore, planSortCondition, renderSortCondition, type PlannedSortCondition } from './key-condition.js';
import { KeyValueError } from './errors.js';

const sortKey = (segments: SegmentDef[]) => new KeyTemplate({ entity: 'E', target: 'E.key.sk', delimiter: '.', maxBytes: 1024, segments });
const int = (attr: string): SegmentDef => ({ kind: 'integer', attr, min: -50, max: 50 });

/** What DynamoDB does with a planned condition, evaluated in UTF-8 byte order. */
function selects(test: PlannedSortCondition, key: string): boolean {
  if (!test) return true;
  if (test.op === 'between') return compareUtf8(key, test.low) >= 0 && compareUtf8(key, test.high) <= 0;
  if (test.op === 'begins_with') return key.startsWith(test.value);
  const c = compareUtf8(key, test.value);
  return test.op === '=' ? c === 0 : test.op === '<' ? c < 0 : test.op === '<=' ? c <= 0 : test.op === '>' ? c > 0 : c >= 0;
}

function compareTuples(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

type Op = 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'between';

/** The meaning of a condition on tuples: compare the leading parts the condition gives. */
function expected(op: Op, tuple: readonly number[], a: readonly number[], b: readonly number[]): boolean {
  const cmp = (p: readonly number[]) => compareTuples(tuple.slice(0, p.length), p);
  switch (op) {
    case 'eq': return cmp(a) === 0;
    case 'gt': return cmp(a) > 0;
    case 'gte': return cmp(a) >= 0;
    case 'lt': return cmp(a) < 0;
    case 'lte': return cmp(a) <= 0;
    case 'between': return cmp(a) >= 0 && cmp(b) <= 0;
  }
}

const shapes: Array<[string, SegmentDef[], string[]]> = [
  ['bounded (Article.<a>.<b>)', [{ kind: 'literal', text: 'Article' }, int('a'), int('b')], ['Arti', 'Article', 'Articles.1', 'B.1.2', 'A.9', 'Article-x']],
  ['literal between values (Article.<a>.Tag.<b>)', [{ kind: 'literal', text: 'Article' }, int('a'), { kind: 'literal', text: 'Tag' }, int('b')], ['Article/', 'Zed']],
  ['unbounded (<a>.<b>)', [int('a'), int('b')], []],
];

for (const [name, segments, foreign] of shapes) {
  test(`sort conditions select exactly the matching tuples and nothing foreign: ${name}`, (t) => {
    const tpl = sortKey(segments);
    const values = fc.integer({ min: -50, max: 50 });
    const tuple = fc.tuple(values, values);
    const prefix = fc.oneof(fc.tuple(values).map((v) => [...v]), tuple.map((v) => [...v]));
    const toValues = (p: readonly number[]) => Object.fromEntries(p.map((v, i) => [['a', 'b'][i]!, v]));
    fc.assert(
      fc.property(fc.constantFrom<Op>('eq', 'gt', 'gte', 'lt', 'lte', 'between'), prefix, prefix, fc.array(tuple, { maxLength: 30 }), (op, a, b, stored) => {
        const condition = op === 'between' ? { between: [toValues(a), toValues(b)] } : { [op]: toValues(a) };
        const planned = planSortCondition(tpl, condition);
        for (const item of stored) {
          const key = tpl.build({ a: item[0], b: item[1] });
          if (selects(planned, key) !== expected(op, item, a, b)) return false;
        }
        return foreign.every((key) => !selects(planned, key));
      }),
      { numRuns: 3000 },
    );
    t.pass();
  });
}

/** `Article.<a>.<name>.<b>`: a string part between two integers. */
const named = sortKey([{ kind: 'literal', text: 'Article' }, int('a'), { kind: 'string', attr: 'name' }, int('b')]);

test('beginsWith is a text prefix of a string part, delimiters and escapes included; eq matches the part whole', (t) => {
  const text = fc.string({ unit: fc.constantFrom('.', '\\', '\u0000', 'a', 'b', 'é'), maxLength: 4 });
  const item = fc.record({ a: fc.integer({ min: -50, max: 50 }), name: text.filter((s) => s.trim() !== ''), b: fc.integer({ min: -50, max: 50 }) });
  fc.assert(
    fc.property(fc.integer({ min: -50, max: 50 }), text, fc.array(item, { maxLength: 30 }), (a, prefix, stored) => {
      const starts = planSortCondition(named, { beginsWith: { a, name: prefix } });
      const whole = prefix.trim() === '' ? undefined : planSortCondition(named, { eq: { a, name: prefix } });
      return stored.every((i) => {
        const key = named.build(i);
        const textMatch = selects(starts, key) === (i.a === a && i.name.startsWith(prefix));
        return textMatch && (whole === undefined || selects(whole, key) === (i.a === a && i.name === prefix));
      });
    }),
    { numRuns: 3000 },
  );
  t.deepEqual(planSortCondition(named, { beginsWith: { a: 1, name: 'z.\\' } }), { op: 'begins_with', value: 'Article.01.z\\.\\\\' });
  t.deepEqual(planSortCondition(named, { eq: { a: 1, name: 'z' } }), { op: 'begins_with', value: 'Article.01.z.' });
  const leading = sortKey([{ kind: 'string', attr: 'name' }]);
  t.deepEqual(planSortCondition(leading, { beginsWith: { name: 'Hel' } }), { op: 'begins_with', value: 'Hel' });
  t.is(planSortCondition(leading, { beginsWith: { name: '' } }), undefined, 'an empty text prefix on the first part reads everything');
});

test('no condition: the whole collection, or the whole partition when the key starts with a value', (t) => {
  t.deepEqual(planSortCondition(sortKey(shapes[0]![1]), undefined), { op: 'begins_with', value: 'Article.' });
  t.is(planSortCondition(sortKey(shapes[2]![1]), undefined), undefined);
});

test('group end is the greatest valid string within the byte limit', (t) => {
  const end = groupEnd('Article.', 1024);
  t.is(Buffer.byteLength(end), 1024);
  t.true(compareUtf8('Article.' + '\u{10FFFF}'.repeat(200) + '😀', end) < 0);
  t.is(groupEnd('ab', 5), 'ab\uFFFF');
  t.is(groupEnd('ab', 4), 'ab\u07FF');
  t.is(groupEnd('ab', 3), 'ab\u007F');
});

test('every operator needs the first part; beginsWith only ends on a string part', (t) => {
  const tpl = sortKey(shapes[0]![1]);
  t.is(t.throws(() => planSortCondition(tpl, { gt: {} }), { instanceOf: KeyValueError }).code, 'KEY_PART_MISSING');
  t.is(t.throws(() => planSortCondition(tpl, { eq: {} }), { instanceOf: KeyValueError }).code, 'KEY_PART_MISSING');
  t.is(t.throws(() => planSortCondition(tpl, { beginsWith: {} }), { instanceOf: KeyValueError }).code, 'KEY_PART_MISSING');
  const notText = t.throws(() => planSortCondition(tpl, { beginsWith: { a: 1 } }), { instanceOf: KeyValueError });
  t.is(notText.message, 'E.key.sk: beginsWith matches text at the start of a string part, and "a" is an integer: use eq to match whole parts');
  t.is(t.throws(() => planSortCondition(named, { beginsWith: { a: 1, name: 5 } }), { instanceOf: KeyValueError }).code, 'KEY_PART_TYPE');
  t.is(t.throws(() => planSortCondition(named, { beginsWith: { name: 'x' } }), { instanceOf: KeyValueError }).code, 'KEY_PART_MISSING');
  t.throws(() => planSortCondition(tpl, { gt: { a: 1 }, lt: { a: 2 } }), { instanceOf: TypeError });
  t.throws(() => planSortCondition(tpl, { near: { a: 1 } }), { instanceOf: TypeError });
});

const rendered: Array<[string, object, string, Record<string, unknown>]> = [
  ['eq', { eq: { a: 1, b: 2 } }, '#n0 = :v0', { ':v0': 'Article.01.02' }],
  ['eq on a prefix matches whole parts (the trailing delimiter)', { eq: { a: 1 } }, 'begins_with(#n0, :v0)', { ':v0': 'Article.01.' }],
  ['gt complete starts just after the key and stays in the collection', { gt: { a: 1, b: 2 } }, '#n0 BETWEEN :v0 AND :v1', { ':v0': 'Article.01.02\u0001', ':v1': groupEnd('Article.', 1024) }],
  ['lt partial', { lt: { a: -1 } }, '#n0 BETWEEN :v0 AND :v1', { ':v0': 'Article.', ':v1': 'Article.-99.' }],
];
for (const [name, condition, want, values] of rendered) {
  test(`render: ${name}`, (t) => {
    const aliases = new ExpressionAliases();
    t.is(renderSortCondition('sk', planSortCondition(sortKey(shapes[0]![1]), condition), aliases), want);
    t.deepEqual(aliases.values, values);
    t.deepEqual(aliases.names, { '#n0': 'sk' });
  });
}

test('keyAfter and keyBefore bracket a key tightly, within the byte limit', (t) => {
  t.is(keyAfter('A.b', 1024), 'A.b\u0001');
  t.is(keyAfter('ab', 2), 'ac', 'at the limit the last character is incremented');
  t.is(keyAfter('a\uD7FF', 4), 'a\uE000', 'surrogates are skipped');
  t.is(keyBefore('A.b', 5), 'A.a\u07FF');
  t.is(keyBefore('A.b\u0001', 1024), 'A.b');
  t.is(keyBefore('', 10), undefined);
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).filter((s) => !s.includes('\u0000')), fc.string({ unit: 'grapheme', maxLength: 20 }).filter((s) => !s.includes('\u0000')), (key, other) => {
      const after = keyAfter(key, 1024);
      const before = keyBefore(key, 1024)!;
      const c = compareUtf8(other, key);
      // Every other string without U+0000 is above `after` iff it is above `key`, and below `before` iff below `key`.
      return (c > 0) === (compareUtf8(other, after) >= 0) && (c < 0) === (compareUtf8(other, before) <= 0) && Buffer.byteLength(before) <= 1024;
    }),
    { numRuns: 3000 },
  );
  t.pass();
});
