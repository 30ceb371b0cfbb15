// What errors reveal, prototype-named and undeclared attributes, and required attributes under
// `update`, through the repositories generated from fixtures/social.ts on the generated in-memory
// table (cursors on clients of their own are in local-api.test.ts). Every case checks the table
// afterwards.
import { format, inspect } from 'node:util';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ItemExistsError, TransactionError, ValidationError, VersionConflictError, type User } from '../../out/social/index.js';
import { memorySocialTests } from '../support/social-tests.js';

const { test, tables } = memorySocialTests();

const joinedAt = new Date(Date.UTC(2024, 0, 1));
const user = (id: string): User => ({ id, email: `${id}@secret.example`, status: 'ACTIVE', joinedAt });
/** Everything console.error would print for `error`, its cause included. */
const printed = (error: unknown) => `${format(error)}\n${inspect(error, { depth: Infinity })}\n${JSON.stringify(error)}`;

test('create of an existing user: the error names the entity and key, and logging it shows no stored data', async (t) => {
  const { db } = t.context;
  await db.user.create(user('ann'));
  const error = await t.throwsAsync(db.user.create({ ...user('ann'), email: 'other@x.example' }), { instanceOf: ItemExistsError });
  t.is(error.message, 'User { id: "ann" }: already exists');
  t.false(printed(error).includes('ann@secret.example'), printed(error));
  t.is(error.old, undefined, 'the old item is returned only when asked');
  t.deepEqual(error.key, { pk: 'User.ann', sk: 'PROFILE' }, 'the table key is there, not enumerable');
  t.truthy(error.cause, 'the SDK cause is kept');
  t.is((error.cause as { Item?: unknown }).Item, undefined, '… without its Item');
  t.is((await db.user.get({ id: 'ann' }))?.email, 'ann@secret.example', 'nothing was written');
});

test("returnValuesOnConditionFailure: 'old' puts the item as it was on the error, still not printed", async (t) => {
  const { db } = t.context;
  await db.user.create(user('bo'));
  const error = await t.throwsAsync(db.user.create(user('bo'), { returnValuesOnConditionFailure: 'old' }), { instanceOf: ItemExistsError });
  t.deepEqual(error.old, user('bo'));
  t.false(printed(error).includes('bo@secret.example'));
  const settings = await db.settings.put({ userId: 'bo', theme: 'dark', notifications: true });
  const conflict = await t.throwsAsync(db.settings.update({ userId: 'bo' }, { set: { theme: 'light' } }, { expectedVersion: 7, returnValuesOnConditionFailure: 'old' }), { instanceOf: VersionConflictError });
  t.deepEqual(conflict.old, settings);
});

test('a cancelled transaction: reasons without stored items', async (t) => {
  const { db } = t.context;
  await db.user.create(user('cy'));
  const error = await t.throwsAsync(db.transaction().user.create(user('cy')).user.create(user('dee')).commit(), { instanceOf: TransactionError });
  t.is(error.message, 'transaction cancelled, nothing written: put User { id: "cy" }: ConditionalCheckFailed');
  t.false(printed(error).includes('cy@secret.example'), printed(error));
  t.is(await db.user.get({ id: 'dee' }), undefined);
});

test('undeclared attributes in a write are a ValidationError naming them; nothing is stored', async (t) => {
  const { db } = t.context;
  const body = JSON.parse('{"id":"eve","email":"e@x.example","status":"ACTIVE","isAdmin":true,"role":"root"}') as User;
  const error = await t.throwsAsync(db.user.put({ ...body, joinedAt }), { instanceOf: ValidationError });
  t.is(error.code, 'ATTRIBUTE_UNKNOWN');
  t.is(error.message, 'User.isAdmin: "isAdmin", "role" are not attributes of User, so they were not written; declared: id, email, status, joinedAt, bio (declare them, or pick the declared attributes out of the input)');
  await t.throwsAsync(db.user.update({ id: 'eve' }, { set: { isAdmin: true } as never }), { instanceOf: ValidationError, message: /"isAdmin" is not an attribute of User, so it was not changed/ });
  await t.throwsAsync(db.user.putIf(user('eve'), { isAdmin: { eq: true } } as never), { instanceOf: ValidationError, message: /"isAdmin" is not an attribute of User, so it was not compared/ });
  await t.throwsAsync(db.user.batchPut([{ ...user('eve'), isAdmin: true } as User]), { instanceOf: ValidationError });
  t.is(await db.user.get({ id: 'eve' }), undefined);
  const since = new Date(Date.UTC(2024, 0, 2));
  await t.throwsAsync(db.fan.add({ type: 'User', id: 'eve' }, { type: 'Actor', id: 'x' }, { since, isAdmin: true } as never), { instanceOf: ValidationError, message: /"isAdmin" is not an attribute of Fan/ });
  t.false(await db.fan.exists({ type: 'User', id: 'eve' }, { type: 'Actor', id: 'x' }), 'no edge half was written');
});

test('prototype names in values are a ValidationError, never a TypeError or a silent change', async (t) => {
  const { db } = t.context;
  const cases: Array<[string, unknown, RegExp]> = [
    ['__proto__ from JSON', { ...user('f1'), ...JSON.parse('{"__proto__":{"isAdmin":true}}') }, /User.__proto__: "__proto__" cannot be an attribute name/],
    ['constructor', { ...user('f2'), constructor: 'x' }, /User.constructor: "constructor" cannot be an attribute name/],
    ['toString', { ...user('f3'), toString: 5 }, /"toString" is not an attribute of User/],
  ];
  for (const [name, item, message] of cases) {
    const error = await t.throwsAsync(db.user.put(item as User), { instanceOf: ValidationError, message }, name);
    t.regex(error?.code ?? '', /^ATTRIBUTE_(FORBIDDEN|UNKNOWN)$/, name);
  }
  await t.throwsAsync(db.user.update({ id: 'f4' }, { set: JSON.parse('{"constructor":"x"}') }), { instanceOf: ValidationError, message: /"constructor" cannot be an attribute name/ });
  await t.throwsAsync(db.settings.put({ userId: 'f5', theme: 'dark', notifications: true, data: JSON.parse('{"language":"en","shortcuts":[],"__proto__":{"x":1}}') }), {
    instanceOf: ValidationError,
    message: /Settings.data.__proto__: "__proto__" cannot be an attribute name or map key/,
  });
  await db.user.put(user('f6'));
  await t.throwsAsync(db.user.update({ id: 'f6' }, { set: { bio: 'x' } }, { condition: { status: { constructor: 'x' } as never } }), { instanceOf: ValidationError, message: /unknown comparison "constructor"/ });
  const stored = await tables().documents.send(new GetCommand({ TableName: t.context.tableName, Key: { pk: 'User.f6', sk: 'PROFILE' } }));
  t.deepEqual(Object.keys(stored.Item!).sort(), ['email', 'id', 'joinedAt', 'pk', 'sk', 'status'], 'only f6 was written, with declared attributes');
});

test('reading an item another writer stored with prototype-named and undeclared attributes never throws', async (t) => {
  const { db, tableName } = t.context;
  await tables().documents.send(
    new PutCommand({
      TableName: tableName,
      Item: { pk: 'User.gil', sk: 'PROFILE', id: 'gil', email: 'g@x.example', status: 'ACTIVE', joinedAt: joinedAt.toISOString(), constructor: 'x', prototype: { a: 1 }, toString: 5, isAdmin: true },
    }),
  );
  const read = await db.user.get({ id: 'gil' });
  t.deepEqual(read, { id: 'gil', email: 'g@x.example', status: 'ACTIVE', joinedAt });
  t.is(Object.getPrototypeOf(read), Object.prototype);
  t.deepEqual(await db.user.batchGet([{ id: 'gil' }]), [read]);
});

test('update cannot remove a required attribute at run time either', async (t) => {
  const { db } = t.context;
  await db.user.put(user('hal'));
  const error = await t.throwsAsync(db.user.update({ id: 'hal' }, { remove: ['email'] as never }), { instanceOf: ValidationError });
  t.is(error.message, 'User.email: is required, so update cannot remove it; set a new value instead');
  t.is(error.code, 'ATTRIBUTE_REQUIRED');
  t.deepEqual(await db.user.get({ id: 'hal' }), user('hal'));
  t.deepEqual(await db.user.update({ id: 'hal' }, { set: { bio: 'x' } }), { ...user('hal'), bio: 'x' });
  t.deepEqual(await db.user.update({ id: 'hal' }, { remove: ['bio'] }), user('hal'), 'an optional attribute can be removed');
});

