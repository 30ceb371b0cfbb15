import test from 'ava';
import fc from 'fast-check';
import { decodeCursor, encodeCursor, fromBase64Url, parameterHash, toBase64Url } from './cursor.js';
import { CursorError } from './errors.js';

test('base64url round-trips any well-formed string and matches Buffer', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), (s) => {
      const encoded = toBase64Url(s);
      return encoded === Buffer.from(s).toString('base64url') && fromBase64Url(encoded) === s;
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

const keyValue = fc.oneof(fc.string({ unit: 'grapheme' }), fc.integer());

test('a cursor round-trips its position for the same scope and parameters', (t) => {
  fc.assert(
    fc.property(fc.dictionary(fc.string({ minLength: 1 }), keyValue), fc.jsonValue(), (key, params) => {
      const cursor = encodeCursor('Article.query', params, key);
      return /^[A-Za-z0-9_-]+$/.test(cursor) && JSON.stringify(decodeCursor(cursor, 'Article.query', params)) === JSON.stringify(key);
    }),
  );
  t.pass();
});

test('a cursor from another query, other parameters, a tampered or foreign one is a CursorError', (t) => {
  const params = { partition: { userId: 'u1' }, order: 'asc' };
  const cursor = encodeCursor('Article.query', params, { pk: 'User.u1', sk: 'Article.x' });
  const cases: Array<[string, () => unknown, RegExp]> = [
    ['other scope', () => decodeCursor(cursor, 'User.query', params), /belongs to "Article.query"/],
    ['other params', () => decodeCursor(cursor, 'Article.query', { ...params, order: 'desc' }), /other query parameters/],
    ['tampered', () => decodeCursor(cursor.slice(0, -3) + 'AAA', 'Article.query', params), /invalid cursor/],
    ['garbage', () => decodeCursor('%%%', 'Article.query', params), /not base64url/],
    ['other version', () => decodeCursor(toBase64Url(JSON.stringify({ v: 9, s: 'Article.query', h: parameterHash(params), k: {} })), 'Article.query', params), /format version 9/],
    ['no position', () => decodeCursor(toBase64Url(JSON.stringify({ v: 1, s: 'Article.query', h: parameterHash(params), k: [1] })), 'Article.query', params), /not a key/],
    ['missing position', () => decodeCursor(toBase64Url(JSON.stringify({ v: 1, s: 'Article.query', h: parameterHash(params) })), 'Article.query', params), /no position/],
  ];
  for (const [name, run, message] of cases) {
    const error = t.throws(run, { instanceOf: CursorError }, name);
    t.is(error.code, 'CURSOR_INVALID');
    t.regex(error.message, message, name);
  }
});

test('parameter hash ignores key order and undefined, and sees Dates', (t) => {
  t.is(parameterHash({ a: 1, b: 2 }), parameterHash({ b: 2, a: 1, c: undefined }));
  t.not(parameterHash({ at: new Date(0) }), parameterHash({ at: new Date(1) }));
});

test('signed cursors: a changed payload, a changed or missing signature, or another secret are CursorErrors', (t) => {
  const options = { secret: 's3cret' };
  const key = { pk: 'User.u1', sk: 'Article.x' };
  const cursor = encodeCursor('Article.query', {}, key, options);
  t.regex(cursor, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  t.deepEqual(decodeCursor(cursor, 'Article.query', {}, options), key);
  const [payload, sig] = cursor.split('.') as [string, string];
  const forged = toBase64Url(JSON.stringify({ v: 1, s: 'Article.query', h: parameterHash({}), k: { pk: 'User.u2', sk: 'Article.x' } }));
  const cases: Array<[string, string, object, RegExp]> = [
    ['forged payload, old signature', `${forged}.${sig}`, options, /signature does not match/],
    ['unsigned', payload, options, /not signed/],
    ['other secret', cursor, { secret: 'other' }, /signature does not match/],
    ['flipped signature', `${payload}.${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`, options, /signature does not match/],
  ];
  for (const [name, value, opts, message] of cases) t.throws(() => decodeCursor(value, 'Article.query', {}, opts), { instanceOf: CursorError, message }, name);
});

test('cursors with a time-to-live expire', (t) => {
  let now = 1_000_000;
  const options = { ttlSeconds: 60, now: () => now };
  const cursor = encodeCursor('A.query', {}, { pk: 'x' }, options);
  now += 60_000;
  t.deepEqual(decodeCursor(cursor, 'A.query', {}, options), { pk: 'x' });
  now += 1;
  t.throws(() => decodeCursor(cursor, 'A.query', {}, options), { instanceOf: CursorError, message: /expired/ });
  t.throws(() => decodeCursor(encodeCursor('A.query', {}, { pk: 'x' }), 'A.query', {}, options), { instanceOf: CursorError, message: /expired/ }, 'a cursor without a time is not trusted');
});
