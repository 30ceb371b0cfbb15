// Item conversion without prototype reach: properties over attribute names and values that include
// __proto__, constructor, prototype and Object.prototype's other members; and how errors name items.
import test from 'ava';
import fc from 'fast-check';
import { renderCondition } from './condition.js';
import { ValidationError } from './errors.js';
import { ExpressionAliases } from './expression.js';
import { FORBIDDEN_NAMES, checkAttributeNames, describeItem, fingerprint, fromAttributeValues, fromStored, toStored, type AttributeCodecs } from './item.js';

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

test('errors name items by key parts; a pii part prints as a fingerprint', (t) => {
  const model = { name: 'Login', primaryParts: ['email', 'at'], pii: ['email'] };
  const at = new Date(Date.UTC(2024, 0, 1));
  t.is(describeItem(model, { email: 'ann@x.example', at }), `Login { email: ${fingerprint('ann@x.example')}, at: 2024-01-01T00:00:00.000Z }`);
  t.regex(fingerprint('ann@x.example'), /^<pii [0-9a-f]{8}>$/);
  t.not(fingerprint('ann@x.example'), fingerprint('bob@x.example'));
  t.is(describeItem({ name: 'User', primaryParts: ['id'] }, { id: 'u"1' }), 'User { id: "u\\"1" }');
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
