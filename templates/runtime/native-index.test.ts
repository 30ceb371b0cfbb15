// Offline behaviour of native-index helpers: the exact Query input for each condition shape,
// renamed copies on write and update, and records read back under the entity's names.
import test from 'ava';
import { KeyTemplate, type SegmentDef } from './codec.js';
import { ValidationError } from './errors.js';
import { nativeQueryInput, nativeRecord } from './native-index.js';
import { genericConversions, nativeIndexAttributes, nativeIndexChanges } from './item-mapping.js';
import type { EntityModel, TableContext } from './repository.js';

const tpl = (target: string, segments: SegmentDef[]) => new KeyTemplate({ entity: 'Invoice', target, delimiter: '#', maxBytes: 1024, segments });
const model: EntityModel = {
  ...genericConversions,
  name: 'Invoice',
  pk: { attribute: 'pk', template: tpl('Invoice.key.pk', [{ kind: 'literal', text: 'Tenant' }, { kind: 'string', attr: 'orgId' }]) },
  sk: { attribute: 'sk', template: tpl('Invoice.key.sk', [{ kind: 'literal', text: 'Invoice' }, { kind: 'string', attr: 'invoiceId' }]) },
  indexes: [],
  codecs: { issuedAt: 'timestamp' },
  attributes: ['orgId', 'invoiceId', 'region', 'state', 'issuedAt'],
  required: ['orgId', 'invoiceId', 'region', 'state', 'issuedAt'],
  keyAttributes: ['pk', 'sk', 'tenantId', 'createdAt'],
  primaryParts: ['orgId', 'invoiceId'],
  nativeIndexes: [{ name: 'byTenant', partition: [['tenantId', 'orgId'], ['region', 'region']], sort: [['state', 'state'], ['createdAt', 'issuedAt']] }],
};
const ctx = { tableName: 'T' } as TableContext;
const partition = { orgId: 'o1', region: 'eu' };
const day = new Date(Date.UTC(2026, 0, 2));
const input = (where?: object, extra: object = {}) => nativeQueryInput(ctx, model, 'Invoice.queryByTenant', 'byTenant', partition, { ...(where ? { where } : {}), ...extra });

const shapes: Array<[string, object | undefined, string, Record<string, unknown>]> = [
  ['partition only', undefined, '#n0 = :v0 AND #n1 = :v1', {}],
  ['equality on the first sort attribute', { state: 'OPEN' }, '#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2', { ':v2': 'OPEN' }],
  ['a range on the first', { state: { gte: 'OPEN' } }, '#n0 = :v0 AND #n1 = :v1 AND #n2 >= :v2', { ':v2': 'OPEN' }],
  ['equality then a Date range, stored as ISO text', { state: 'OPEN', issuedAt: { lt: day } }, '#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2 AND #n3 < :v3', { ':v2': 'OPEN', ':v3': '2026-01-02T00:00:00.000Z' }],
  ['between', { state: 'OPEN', issuedAt: { between: [day, day] } }, '#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2 AND #n3 BETWEEN :v3 AND :v4', { ':v3': '2026-01-02T00:00:00.000Z', ':v4': '2026-01-02T00:00:00.000Z' }],
  ['begins_with, on the stored text', { state: 'OPEN', issuedAt: { beginsWith: '2026-01' } }, '#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2 AND begins_with(#n3, :v3)', { ':v3': '2026-01' }],
];

for (const [name, where, expression, values] of shapes) {
  test(`native query input: ${name}`, (t) => {
    const got = input(where);
    t.is(got.KeyConditionExpression, expression);
    t.is(got.IndexName, 'byTenant');
    t.like(got.ExpressionAttributeNames, { '#n0': 'tenantId', '#n1': 'region' });
    t.like(got.ExpressionAttributeValues, { ':v0': 'o1', ':v1': 'eu', ...values });
  });
}

test('native query input: order, limit, and refusals naming the attribute', (t) => {
  t.like(input(undefined, { order: 'desc', limit: 5 }), { ScanIndexForward: false, Limit: 5 });
  t.throws(() => input({ issuedAt: day }), { instanceOf: ValidationError, message: 'Invoice.state: the sort condition of index "byTenant" skips it: give the sort attributes left to right (state, issuedAt)' });
  t.throws(() => input({ state: { lt: 'B' }, issuedAt: day }), { instanceOf: ValidationError, message: 'Invoice.state: a range is allowed only on the last sort attribute given; state is followed by issuedAt, so it takes one value' });
  t.throws(() => input({ state: { near: 'B' } }), { instanceOf: ValidationError, message: 'Invoice.state: a range is one of gt, gte, lt, lte, between, beginsWith, got near' });
  t.throws(() => input({ status: 'OPEN' }), { instanceOf: ValidationError, message: 'Invoice.status: is not a sort attribute of index "byTenant" (state, issuedAt)' });
  t.throws(() => input(undefined, { limit: 0 }), { instanceOf: ValidationError });
});

test('renamed copies: written beside the attributes, followed by updates, read back under the entity names', (t) => {
  const stored = { orgId: 'o1', invoiceId: 'i1', region: 'eu', state: 'OPEN', issuedAt: '2026-01-02T00:00:00.000Z' };
  t.deepEqual(nativeIndexAttributes(model, stored), { tenantId: 'o1', createdAt: '2026-01-02T00:00:00.000Z' });
  t.throws(() => nativeIndexAttributes(model, { ...stored, region: '' }), { instanceOf: ValidationError, message: /Invoice\.region: is a key attribute of index "byTenant"/ });
  t.deepEqual(nativeIndexChanges(model, { issuedAt: day, state: 'PAID' }, []), { set: { createdAt: '2026-01-02T00:00:00.000Z' }, remove: [] });
  t.deepEqual(nativeIndexChanges(model, {}, ['issuedAt']), { set: {}, remove: ['createdAt'] });
  const keysOnly = { pk: 'Tenant#o1', sk: 'Invoice#i1', tenantId: 'o1', region: 'eu', state: 'OPEN', createdAt: '2026-01-02T00:00:00.000Z' };
  t.deepEqual(nativeRecord(model, 'byTenant', keysOnly), { orgId: 'o1', invoiceId: 'i1', region: 'eu', state: 'OPEN', issuedAt: day });
});
