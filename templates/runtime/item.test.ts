// Item conversion without prototype reach: properties over attribute names and values that include
// __proto__, constructor, prototype and Object.prototype's other members; and how errors name items.
// The TTL attribute's codec: a Date stored as whole epoch seconds (after the declared unit), read
// back as a Date (an ISO string stored before the attribute became the TTL still reads). When a
// stored record has expired is expiry.test.ts's.
import { createHash, createHmac } from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { renderCondition } from './condition.js';
import { ConfigurationError, ValidationError } from './errors.js';
import { ExpressionAliases } from './expression.js';
import { checkAttributeNames, describeItem, FORBIDDEN_NAMES, fromAttributeValues, fromStored, toStored, withRequiredSets, type AttributeCodecs } from './item.js';
import { keyedFingerprint, piiFingerprint, processFingerprint } from './pii-fingerprint.js';

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'];
const name = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, 'id', 'at', 'tags'), fc.string({ minLength: 1, maxLength: 8 }));
const leaf = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
/** Plain values as JSON input makes them: own `__proto__` keys included. */
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(name, tie('value'), { maxKeys: 3 }).map((d) => JSON.parse(JSON.stringify(d)) as unknown)),
})).value;
const record = fc.dictionary(name, value, { maxKeys: 6 }).map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>);
const codecs: AttributeCodecs = { at: 'timestamp', tags: 'set', nested: { map: { at: 'timestamp' } } };

/** True when a forbidden name is an own key anywhere inside `v`. */
function hasForbidden(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  return Object.keys(v).some((k) => FORBIDDEN_NAMES.has(k) || hasForbidden((v as Record<string, unknown>)[k]));
}

test('toStored copies own properties only; a forbidden name at any depth is a ValidationError, never a TypeError', (t) => {
  fc.assert(
    fc.property(record, (input) => {
      const plain = { ...input };
      delete plain['at'];
      delete plain['tags'];
      try {
        const stored = toStored('E', codecs, plain);
        if (hasForbidden(plain)) return false;
        return Object.getPrototypeOf(stored) === Object.prototype && Object.keys(stored).every((k) => Object.prototype.hasOwnProperty.call(plain, k));
      } catch (error) {
        return error instanceof ValidationError && error.code === 'ATTRIBUTE_FORBIDDEN' && hasForbidden(plain);
      }
    }),
    { numRuns: 500 },
  );
  t.is(({} as Record<string, unknown>)['isAdmin'], undefined, 'Object.prototype was not polluted');
});

test('fromStored never throws, keeps only declared attributes and never a forbidden name', (t) => {
  const declared = ['id', 'at', 'constructor', 'toString'];
  fc.assert(
    fc.property(record, (stored) => {
      const withDate = Object.prototype.hasOwnProperty.call(stored, 'at') ? { ...stored, at: '2024-01-01T00:00:00.000Z' } : stored;
      const item = fromStored<Record<string, unknown>>('E', codecs, withDate, ['pk'], declared);
      const open = fromStored<Record<string, unknown>>('E', codecs, withDate, ['pk']);
      return (
        Object.getPrototypeOf(item) === Object.prototype &&
        Object.keys(item).every((k) => declared.includes(k) && !FORBIDDEN_NAMES.has(k)) &&
        Object.getPrototypeOf(open) === Object.prototype &&
        Object.keys(open).every((k) => !FORBIDDEN_NAMES.has(k))
      );
    }),
    { numRuns: 500 },
  );
  t.pass();
});

test('checkAttributeNames: refuses forbidden names, and undeclared ones unless passthrough', (t) => {
  const model = { name: 'User', attributes: ['id', 'email'] };
  fc.assert(
    fc.property(fc.array(name, { maxLength: 5 }), fc.boolean(), (names, passthrough) => {
      const bad = names.some((n) => FORBIDDEN_NAMES.has(n) || (!passthrough && !model.attributes.includes(n)));
      try {
        checkAttributeNames({ ...model, passthrough }, names);
        return !bad;
      } catch (error) {
        return bad && error instanceof ValidationError;
      }
    }),
  );
  t.throws(() => checkAttributeNames(model, ['id', 'isAdmin', 'role']), { instanceOf: ValidationError, message: 'User.isAdmin: "isAdmin", "role" are not attributes of User, so they were not written; declared: id, email (declare them, or pick the declared attributes out of the input)' });
  t.notThrows(() => checkAttributeNames({ ...model, passthrough: true }, ['isAdmin']));
  t.throws(() => checkAttributeNames({ ...model, passthrough: true }, ['constructor']), { instanceOf: ValidationError, message: /User.constructor: "constructor" cannot be an attribute name/ });
});

test('conditions: an Object member as a comparison is an unknown comparison, not expression text', (t) => {
  for (const op of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const condition = JSON.parse(`{"status":{"${op}":"x"}}`) as Record<string, never>;
    t.throws(() => renderCondition('User', {}, condition, new ExpressionAliases()), { instanceOf: ValidationError, message: `User.status: unknown comparison "${op}"` }, op);
  }
});

test('errors name items by key parts; a pii part prints as a keyed fingerprint, never its value or an unkeyed hash of it', (t) => {
  // as a generated model of an entity with pii attributes: keyed with the table's secret, else the process's key
  const model = { name: 'Login', primaryParts: ['email', 'at'], pii: ['email'], fingerprint: piiFingerprint };
  const at = new Date(Date.UTC(2024, 0, 1));
  const secret = 'a'.repeat(16) + 'b'.repeat(16);
  const keyed = keyedFingerprint(secret);
  const hmac = (value: string) => `<pii ${createHmac('sha256', secret).update(value).digest('hex').slice(0, 8)}>`;
  t.is(describeItem(model, { email: 'ann@x.example', at }, secret), `Login { email: ${hmac('ann@x.example')}, at: 2024-01-01T00:00:00.000Z }`);
  t.is(keyed(at), hmac(at.toISOString()), 'a Date as ISO-8601');
  t.is(piiFingerprint(secret), piiFingerprint(secret), 'keyed once per secret');
  t.is(piiFingerprint(undefined), processFingerprint);
  t.not(keyedFingerprint('c'.repeat(32))('ann@x.example'), keyed('ann@x.example'), 'another secret, another fingerprint');
  // without a secret: the process's own random key, stable within the process, never the plain SHA-256 a guess could be checked against
  const unkeyed = `<pii ${createHash('sha256').update('ann@x.example').digest('hex').slice(0, 8)}>`;
  t.regex(describeItem(model, { email: 'ann@x.example', at }), /^Login \{ email: <pii [0-9a-f]{8}>, at: /);
  t.is(processFingerprint('ann@x.example'), processFingerprint('ann@x.example'));
  t.not(processFingerprint('ann@x.example'), unkeyed);
  t.not(processFingerprint('ann@x.example'), processFingerprint('bob@x.example'));
  t.is(describeItem({ name: 'User', primaryParts: ['id'] }, { id: 'u"1' }), 'User { id: "u\\"1" }');
  // a model that marks pii without a fingerprint (none of ddbgen's): nothing of the value is printed
  t.is(describeItem({ name: 'Login', primaryParts: ['email'], pii: ['email'] }, { email: 'ann@x.example' }), 'Login { email: <pii> }');
  const short = t.throws(() => keyedFingerprint('short'), { instanceOf: ConfigurationError });
  t.is(short.message, "piiSecret: the secret is 5 bytes; use at least 32 random bytes (e.g. crypto.randomBytes(32).toString('base64'))");
  t.throws(() => keyedFingerprint(''), { instanceOf: ConfigurationError });
});

test('fromAttributeValues reads the wire form a failed condition returns', (t) => {
  t.deepEqual(fromAttributeValues({ a: { S: 'x' }, n: { N: '2.5' }, b: { BOOL: false }, z: { NULL: true }, l: { L: [{ S: 'y' }] }, m: { M: { k: { N: '1' } } }, ss: { SS: ['p'] }, ns: { NS: ['3'] } }), {
    a: 'x',
    n: 2.5,
    b: false,
    z: null,
    l: ['y'],
    m: { k: 1 },
    ss: new Set(['p']),
    ns: new Set([3]),
  });
});

const ttlCodecs: AttributeCodecs = { expiresAt: { epochSeconds: 'second' }, bucketEnd: { epochSeconds: 'minute' }, createdAt: 'timestamp' };

const cases: Array<[string, Date, number]> = [
  ['whole seconds', new Date('2026-01-02T03:04:05.000Z'), 1767323045],
  ['milliseconds round down', new Date('2026-01-02T03:04:05.999Z'), 1767323045],
  ['before the epoch', new Date('1969-12-31T23:59:59.500Z'), -1],
  ['the epoch', new Date(0), 0],
];
for (const [name, date, seconds] of cases) {
  test(`epoch seconds: ${name}`, (t) => {
    t.deepEqual(toStored('Session', ttlCodecs, { expiresAt: date, createdAt: date }), { expiresAt: seconds, createdAt: date.toISOString() });
    t.deepEqual(fromStored('Session', ttlCodecs, { pk: 'S#1', expiresAt: seconds }, ['pk']), { expiresAt: new Date(seconds * 1000) });
  });
}

test('epoch seconds after the declared unit: a minute unit stores the minute\'s start', (t) => {
  t.deepEqual(toStored('Session', ttlCodecs, { bucketEnd: new Date('2026-01-02T03:04:59.999Z') }), { bucketEnd: 1767323040 });
});

test('an ISO string stored before the attribute was the TTL reads back as the same instant', (t) => {
  t.deepEqual(fromStored('Session', ttlCodecs, { expiresAt: '2026-01-02T03:04:05.000Z' }, []), { expiresAt: new Date('2026-01-02T03:04:05.000Z') });
});

test('a TTL value that is not a valid Date is a ValidationError before any request', (t) => {
  const error = t.throws(() => toStored('Session', ttlCodecs, { expiresAt: new Date('nope') }), { instanceOf: ValidationError });
  t.regex(error.message, /expiresAt/);
  t.throws(() => toStored('Session', ttlCodecs, { expiresAt: 1767323045 }), { instanceOf: ValidationError });
});

test('withRequiredSets: a required set a stored item lacks reads back empty; optional and present ones are left as they are', (t) => {
  const types = { tags: { kind: 'stringSet' }, scores: { kind: 'numberSet' }, maybe: { kind: 'stringSet' }, name: { kind: 'string' } } as const;
  const given = { scores: new Set([1]) };
  t.deepEqual(withRequiredSets({ ...given }, types, ['tags', 'scores', 'name']), { scores: new Set([1]), tags: new Set() });
  t.deepEqual(withRequiredSets({ ...given }, undefined, ['tags']), given);
});
