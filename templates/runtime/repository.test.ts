// Offline behaviour of the repository helpers: index-key recomputation, pattern conditions,
// projections and collection tagging.
import test from 'ava';
import { KeyTemplate, type SegmentDef } from './codec.js';
import { KeyValueError, ValidationError } from './errors.js';
import { planSortCondition } from './key-condition.js';
import { genericConversions, genericItem, indexKeyChanges, indexKeys, itemOf, storedItem } from './item-mapping.js';
import { allItems, patternCondition, projectRecord, tagRecord } from './read.js';
import type { EntityModel, IndexModel } from './repository.js';

const tpl = (target: string, segments: SegmentDef[], maxBytes = 1024) => new KeyTemplate({ entity: 'Order', target, delimiter: '#', maxBytes, segments });
const lit = (text: string): SegmentDef => ({ kind: 'literal', text });
const str = (attr: string): SegmentDef => ({ kind: 'string', attr });
/** A timestamp part: the value as stored, or (with a unit) truncated to a bucket as `<openedAt:day>` writes it. */
const at = (attr: string, unit: 'millisecond' | 'day' = 'millisecond'): SegmentDef => (unit === 'millisecond' ? { kind: 'timestamp', attr, unit } : { kind: 'timestamp', attr, unit, bucket: true });

const byStatus: IndexModel = {
  name: 'byStatus',
  kind: 'gsi',
  pk: { attribute: 'gsi1pk', template: tpl('Order.indexes.byStatus.pk', [lit('STATUS'), str('status'), str('region')], 2048) },
  sk: { attribute: 'gsi1sk', template: tpl('Order.indexes.byStatus.sk', [at('placedAt')]) },
  inputs: ['status', 'region', 'placedAt'],
  optional: [],
  projection: 'all',
};
const open: IndexModel = {
  name: 'open',
  kind: 'gsi',
  pk: { attribute: 'gsi2pk', template: tpl('Order.indexes.open.pk', [lit('OPEN'), at('openedAt', 'day')], 2048) },
  sk: { attribute: 'gsi2sk', template: tpl('Order.indexes.open.sk', [at('openedAt'), str('assignee')]) },
  inputs: ['openedAt', 'assignee'],
  optional: ['openedAt', 'assignee'],
  projection: 'keys-only',
};
const model: EntityModel = {
  ...genericConversions,
  name: 'Order',
  pk: { attribute: 'pk', template: tpl('Order.key.pk', [lit('USER'), str('userId')], 2048) },
  sk: { attribute: 'sk', template: tpl('Order.key.sk', [lit('ORDER'), str('orderId')]) },
  indexes: [byStatus, open],
  codecs: { placedAt: 'timestamp', openedAt: 'timestamp' },
  attributes: ['userId', 'orderId', 'status', 'region', 'placedAt', 'openedAt', 'assignee', 'note', 'total', 'name'],
  required: ['userId', 'orderId', 'status', 'region', 'placedAt'],
  keyAttributes: ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'],
  primaryParts: ['userId', 'orderId'],
};
const key = { userId: 'u', orderId: 'o' };
const placedAt = new Date('2024-05-01T10:00:00Z');
const openedAt = new Date('2024-05-02T11:00:00Z');

test('update: changing one index input with the others rebuilds that index key', (t) => {
  t.deepEqual(indexKeyChanges(model, key, { status: 'SHIPPED', region: 'eu', placedAt }, []), {
    set: { gsi1pk: 'STATUS#SHIPPED#eu', gsi1sk: '2024-05-01T10:00:00.000Z' },
    remove: [],
  });
});

test('update: changing an index input without the rest of its key is a ValidationError naming what to add', (t) => {
  const error = t.throws(() => indexKeyChanges(model, key, { status: 'SHIPPED' }, []), { instanceOf: ValidationError });
  t.is(error.message, 'Order.status: changes a key of index "byStatus"; set region, placedAt too, so the index key can be rebuilt');
});

test('update: sparse index transitions — set all optional inputs adds, remove all removes, some is an error', (t) => {
  t.deepEqual(indexKeyChanges(model, key, { openedAt, assignee: 'ann' }, []), {
    set: { gsi2pk: 'OPEN#2024-05-02', gsi2sk: '2024-05-02T11:00:00.000Z#ann' },
    remove: [],
  });
  t.deepEqual(indexKeyChanges(model, key, {}, ['openedAt', 'assignee']), { set: {}, remove: ['gsi2pk', 'gsi2sk'] });
  t.regex(t.throws(() => indexKeyChanges(model, key, {}, ['openedAt']), { instanceOf: ValidationError }).message, /remove openedAt, assignee together/);
  t.regex(t.throws(() => indexKeyChanges(model, key, { assignee: 'bob' }, ['openedAt']), { instanceOf: ValidationError }).message, /set none of/);
  t.deepEqual(indexKeyChanges(model, key, { note: 'x' }, ['other']), { set: {}, remove: [] }, 'unrelated changes touch no index');
});

test('put: a sparse index is written with all optional inputs, left out with none, refused with some', (t) => {
  const base = { ...key, status: 'NEW', region: 'eu', placedAt };
  t.deepEqual(Object.keys(indexKeys(model, base)), ['gsi1pk', 'gsi1sk']);
  t.deepEqual(Object.keys(indexKeys(model, { ...base, openedAt, assignee: 'ann' })), ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk']);
  t.regex(t.throws(() => indexKeys(model, { ...base, openedAt }), { instanceOf: ValidationError }).message, /needs openedAt, assignee together: openedAt given without assignee/);
});

test('pattern conditions: beginsWith is a text prefix of one value, escaped; other ops use the planner', (t) => {
  const sk = tpl('Order.key.sk', [lit('ORDER'), str('orderId')]);
  t.deepEqual(patternCondition(sk, {}, 'orderId', 'beginsWith', 'a#b'), { op: 'begins_with', value: 'ORDER#a\\#b' });
  t.deepEqual(patternCondition(sk, {}, 'orderId', 'beginsWith', ''), { op: 'begins_with', value: 'ORDER#' });
  t.deepEqual(patternCondition(sk, {}, 'orderId', 'eq', 'x'), { op: '=', value: 'ORDER#x' });
  t.deepEqual(patternCondition(sk, {}, 'orderId', 'between', ['a', 'c']), { op: 'between', low: 'ORDER#a', high: 'ORDER#c' });
  t.deepEqual(patternCondition(sk, {}, undefined, 'eq', undefined), { op: 'begins_with', value: 'ORDER#' });
  t.is(t.throws(() => patternCondition(sk, {}, 'orderId', 'beginsWith', 5), { instanceOf: KeyValueError }).code, 'KEY_PART_TYPE', 'a key part of the wrong type, as in where');
  t.deepEqual(patternCondition(sk, {}, 'orderId', 'eq', 'x'), planSortCondition(sk, { eq: { orderId: 'x' } }), 'a pattern means what where means');
});

test('projection: exact key parts are recovered from the keys, truncated ones are not', (t) => {
  const stored = { pk: 'USER#u', sk: 'ORDER#o', gsi2pk: 'OPEN#2024-05-02', gsi2sk: '2024-05-02T11:00:00.000Z#ann' };
  t.deepEqual(projectRecord(model, open, stored), { userId: 'u', orderId: 'o', openedAt, assignee: 'ann' });
});

test('collections: each record is tagged by the member whose sort key parses it', (t) => {
  const profile: EntityModel = { ...model, name: 'Profile', sk: { attribute: 'sk', template: tpl('Profile.key.sk', [lit('PROFILE')]) }, indexes: [], primaryParts: ['userId'] };
  const members = [{ type: 'Profile', model: profile }, { type: 'Order', model }];
  t.deepEqual(tagRecord(members, { pk: 'USER#u', sk: 'PROFILE', name: 'x' }), { type: 'Profile', item: { name: 'x' } });
  t.deepEqual(tagRecord(members, { pk: 'USER#u', sk: 'ORDER#1', total: 3 }), { type: 'Order', item: { total: 3 } });
  t.deepEqual(tagRecord(members, { pk: 'USER#u', sk: 'FAN_OF#x' }), { type: undefined, item: { pk: 'USER#u', sk: 'FAN_OF#x' } });
});

test('put: undeclared attributes are refused, or stored as given by a passthrough entity; prototype names never', (t) => {
  const item = { ...key, status: 'NEW', region: 'eu', placedAt, isAdmin: true };
  t.is(t.throws(() => storedItem(model, item), { instanceOf: ValidationError }).code, 'ATTRIBUTE_UNKNOWN');
  const open = { ...model, passthrough: true };
  t.like(storedItem(open, item), { isAdmin: true, pk: 'USER#u', sk: 'ORDER#o' });
  t.is(t.throws(() => storedItem(open, { ...item, constructor: 'x' }), { instanceOf: ValidationError }).code, 'ATTRIBUTE_FORBIDDEN');
});

test('put: a required attribute left out is a ValidationError once the keys are built; a missing key part stays a KeyValueError', (t) => {
  const item = { ...key, status: 'NEW', region: 'eu', placedAt };
  const { placedAt: _, ...withoutPlacedAt } = item;
  const totalRequired = { ...model, required: [...model.required, 'total'] };
  const missing = t.throws(() => storedItem(totalRequired, item), { instanceOf: ValidationError });
  t.is(missing.code, 'ATTRIBUTE_REQUIRED');
  t.is(missing.attribute, 'total');
  t.like(storedItem(totalRequired, { ...item, total: 0 }), { total: 0 });
  t.is(t.throws(() => storedItem(model, withoutPlacedAt), { instanceOf: KeyValueError }).code, 'KEY_PART_MISSING', 'placedAt feeds index byStatus: its key fails first');
  t.is(t.throws(() => storedItem(model, { ...item, orderId: undefined }), { instanceOf: KeyValueError }).code, 'KEY_PART_MISSING');
});

test('an entity\'s generated conversions: whole records go through toItem and toRecord; partial ones (projections, changed attributes) through the generic conversion', (t) => {
  const calls: string[] = [];
  const generated: EntityModel = {
    ...model,
    toRecord(item) {
      calls.push('toRecord');
      return { ...item, pk: 'P', sk: 'S' };
    },
    toItem(record) {
      calls.push('toItem');
      return { userId: record['userId'], orderId: record['orderId'], status: record['status'], region: record['region'], placedAt: new Date(record['placedAt'] as string) };
    },
  };
  t.deepEqual(storedItem(generated, { userId: 'u' }), { userId: 'u', pk: 'P', sk: 'S' });
  const whole = { pk: 'USER#u', sk: 'ORDER#o', userId: 'u', orderId: 'o', status: 'NEW', region: 'eu', placedAt: placedAt.toISOString() };
  t.deepEqual(itemOf(generated, whole), { userId: 'u', orderId: 'o', status: 'NEW', region: 'eu', placedAt });
  t.deepEqual(genericItem(generated, { status: 'DONE' }, true), { status: 'DONE' }, 'a partial record keeps only what it holds');
  t.deepEqual(calls, ['toRecord', 'toItem']);
});

test('allItems: each page is asked with the caller\'s options and the previous page\'s cursor, from options.cursor', async (t) => {
  const pages: Record<string, { items: string[]; cursor?: string }> = { start: { items: ['a', 'b'], cursor: 'c2' }, c2: { items: [], cursor: 'c3' }, c3: { items: ['c'] } };
  const asked: object[] = [];
  const items: unknown[] = [];
  const options = { limit: 2, cursor: 'start', where: { eq: { placedAt: 1 } } };
  for await (const item of allItems(async (page) => (asked.push(page), pages[page.cursor!]!), options)) items.push(item);
  t.deepEqual(items, ['a', 'b', 'c']);
  t.deepEqual(asked, [options, { ...options, cursor: 'c2' }, { ...options, cursor: 'c3' }]);
  // without a cursor, the first page is asked with the options as given
  const fromStart: object[] = [];
  const noCursor = { limit: 2 };
  for await (const item of allItems(async (page) => (fromStart.push(page), { items: [page.cursor ?? 'first'] }), noCursor)) items.push(item);
  t.is(fromStart[0], noCursor);
  t.deepEqual(items.slice(3), ['first']);
});
