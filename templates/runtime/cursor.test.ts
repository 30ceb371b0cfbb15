// Cursors: round trips in every mode, binding to table / index / query / parameters, secrets and
// rotation, expiry, the size cap, encryption, and (for unsigned cursors) the check against the
// query they are given to: every single-character edit, truncation and forged position is a
// CursorError or yields the identical position.
import { createHmac } from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { KeyTemplate } from './codec.js';
import {
  checkContextCursor,
  checkCursorOptions,
  decodeCursor as decode,
  digest,
  encodeCursor as encode,
  fromBase64Url,
  parameterHash,
  protectCursors,
  toBase64Url,
  type CursorOptions,
  type CursorScope,
  type PositionCheck,
} from './cursor.js';
import { ConfigurationError, CursorError } from './errors.js';
import { planSortCondition } from './key-condition.js';
import { positionCheck, type QueryRequest } from './read.js';

const SECRET = 'k'.repeat(32);

// Options as a table gives them: through protectCursors, which brings the signing and encryption
// code (a no-op for unsigned options); what happens to options that skip it is tested below.
const encodeCursor = (bound: CursorScope, position: unknown, options?: CursorOptions) => encode(bound, position, options && protectCursors(options));
const decodeCursor = <P = Record<string, unknown>>(cursor: string, bound: CursorScope, options?: CursorOptions, check?: PositionCheck) => decode<P>(cursor, bound, options && protectCursors(options), check);

test('options with a secret that skipped protectCursors are a ConfigurationError naming it: the code that signs and encrypts comes with that function only', async (t) => {
  for (const options of [{ secret: SECRET }, { secret: SECRET, encrypt: true }]) {
    const message = /^cursor\.secret: (signed|encrypted) cursors need the code that makes them: pass the cursor options through protectCursors\(…\)/;
    t.throws(() => checkContextCursor({ ...options }), { instanceOf: ConfigurationError, message });
    await t.throwsAsync(encode(scope, key, { ...options }), { instanceOf: ConfigurationError, message });
    const made = await encodeCursor(scope, key, options);
    await t.throwsAsync(decode(made, scope, { ...options }), { instanceOf: ConfigurationError, message });
    // through it, the same options object: checked and sealed
    const given = { ...options };
    t.is(protectCursors(given), given);
    t.is(checkContextCursor(given), given);
    t.deepEqual(await decode(await encode(scope, key, given), scope, given), key);
  }
  // unsigned options need nothing
  t.deepEqual(await decode(await encode(scope, key, { ttlSeconds: 60 }), scope, { ttlSeconds: 60 }), key);
  t.notThrows(() => checkContextCursor({}));
});
const scope: CursorScope = { table: 'Social', query: 'Article.query', params: { partition: { userId: 'u1' }, order: 'asc' } };
const key = { pk: 'User.u1', sk: 'Article.2024-01-01T00:00:00.000Z.a' };

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

const keyValue = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer());
const modes: Array<[string, CursorOptions]> = [
  ['unsigned', {}],
  ['signed', { secret: SECRET }],
  ['encrypted', { secret: SECRET, encrypt: true }],
];

for (const [mode, options] of modes) {
  test(`${mode}: a cursor round-trips its position for the same table, index, query and parameters`, async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), keyValue, { maxKeys: 4 }), fc.jsonValue({ maxDepth: 2 }), async (position, params) => {
        const bound = { ...scope, params };
        const cursor = await encodeCursor(bound, position, options);
        return /^[A-Za-z0-9_.-]+$/.test(cursor) && JSON.stringify(await decodeCursor(cursor, bound, options)) === JSON.stringify(position);
      }),
      { numRuns: 200 },
    );
    t.pass();
  });

  test(`${mode}: a cursor made for another table, index, query or parameters is a CursorError`, async (t) => {
    const cursor = await encodeCursor(scope, key, options);
    const cases: Array<[string, CursorScope, RegExp]> = [
      ['another table, same secret', { ...scope, table: 'Billing' }, /made for another table, not "Billing"/],
      ['an index', { ...scope, index: 'byName' }, /made for the table, not index "byName"/],
      ['another query', { ...scope, query: 'Score.query' }, /made for another query, not Score.query/],
      ['other parameters', { ...scope, params: { partition: { userId: 'u2' }, order: 'asc' } }, /other query parameters/],
    ];
    for (const [name, other, message] of cases) await t.throwsAsync(decodeCursor(cursor, other, options), { instanceOf: CursorError, message }, name);
  });
}

test('parameters are bound by a 64-bit digest of their canonical JSON', (t) => {
  t.is(parameterHash({ b: 2, a: 1, c: undefined }), digest('{"a":1,"b":2}'));
  t.regex(digest(''), /^[0-9a-z]{14}$/);
  // every one-character change of a text changes its digest
  fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 60 }), fc.nat(), fc.string({ minLength: 1, maxLength: 1 }), (text, at, c) => {
    const i = at % text.length;
    const changed = text.slice(0, i) + c + text.slice(i + 1);
    return changed === text || digest(changed) !== digest(text);
  }), { numRuns: 3000 });
  t.not(parameterHash({ at: new Date(0) }), parameterHash({ at: new Date(1) }));
});

test('secrets: at least 32 bytes, key ids checked; encryption needs a secret', (t) => {
  const bad: Array<[string, CursorOptions, RegExp]> = [
    ['empty secret', { secret: '' }, /cursor.secret: the secret of key "0" is 0 bytes; use at least 32 random bytes/],
    ['short secret', { secret: 'shh' }, /is 3 bytes/],
    ['empty key list', { secret: [] }, /the list of keys is empty/],
    ['bad key id', { secret: [{ id: 'a.b', secret: SECRET }] }, /key id "a.b" is not 1 to 32 letters/],
    ['repeated key id', { secret: [{ id: 'a', secret: SECRET }, { id: 'a', secret: SECRET + 'x' }] }, /key id "a" is listed twice/],
    ['encrypt without secret', { encrypt: true }, /cursor.encrypt: encrypting cursors needs a secret/],
    ['zero ttl', { ttlSeconds: 0 }, /cursor.ttlSeconds: must be a positive number/],
    ['tiny cap', { maxLength: 10 }, /cursor.maxLength: must be an integer of at least 256/],
  ];
  for (const [name, options, message] of bad) t.throws(() => checkCursorOptions(options), { instanceOf: ConfigurationError, message }, name);
  t.notThrows(() => checkCursorOptions({ secret: SECRET, encrypt: true, ttlSeconds: Infinity }));
});

test('signed cursors: tampering, another secret, an unsigned or forged cursor are CursorErrors', async (t) => {
  const options = { secret: SECRET };
  const cursor = await encodeCursor(scope, key, options);
  const [header, body, mac] = cursor.split('.') as [string, string, string];
  t.is(header, '3s0');
  t.is(mac, createHmac('sha256', SECRET).update(`${header}.${body}`).digest('base64url'), 'HMAC-SHA-256 over header and body');
  const forgedBody = toBase64Url(JSON.stringify({ ...JSON.parse(fromBase64Url(body)), p: { pk: 'User.u2', sk: 'x' } }));
  const cases: Array<[string, string, CursorOptions, RegExp]> = [
    ['unsigned', await encodeCursor(scope, key), options, /it is unsigned, and this table's cursors are signed/],
    ['forged payload', `${header}.${forgedBody}.${mac}`, options, /signature does not match/],
    ['other secret', cursor, { secret: 'x'.repeat(32) }, /signature does not match/],
    ['flipped signature', `${header}.${body}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BA' : 'AA'}`, options, /signature does not match/],
    ['signed, given to an encrypting table', cursor, { secret: SECRET, encrypt: true }, /it is signed, and this table's cursors are encrypted/],
    ['signed, given to a table without a secret', cursor, {}, /it is signed, and this table's cursors are unsigned/],
  ];
  for (const [name, value, opts, message] of cases) await t.throwsAsync(decodeCursor(value, scope, opts), { instanceOf: CursorError, message }, name);
});

test('rotation: the first key signs, every listed key is accepted, a removed key is not', async (t) => {
  const old = { id: 'k2025', secret: 'o'.repeat(40) };
  const current = { id: 'k2026', secret: 'n'.repeat(40) };
  const before = await encodeCursor(scope, key, { secret: old });
  const rotating = { secret: [current, old] };
  t.deepEqual(await decodeCursor(before, scope, rotating), key, 'a cursor signed before the rotation still works');
  const after = await encodeCursor(scope, key, rotating);
  t.true(after.startsWith('3sk2026.'));
  await t.throwsAsync(decodeCursor(before, scope, { secret: [current] }), { instanceOf: CursorError, message: /made with key "k2025", which this table does not accept \(accepted: k2026\)/ });
});

test('expiry: cursors expire after ttlSeconds (default one day), unsigned ones too; a longer expiry than the table gives is refused', async (t) => {
  let now = 1_000_000;
  const clock = () => now;
  for (const [mode, base] of modes) {
    const options = { ...base, now: clock };
    now = 1_000_000;
    const cursor = await encodeCursor(scope, key, options);
    now += 86_400_000;
    t.deepEqual(await decodeCursor(cursor, scope, options), key, `${mode}: valid for a day`);
    now += 1;
    await t.throwsAsync(decodeCursor(cursor, scope, options), { instanceOf: CursorError, message: /expired/ }, mode);
    now = 1_000_000;
    await t.throwsAsync(decodeCursor(cursor, scope, { ...options, ttlSeconds: 60 }), { instanceOf: CursorError, message: /expiry is further away than this table's 60 s/ }, mode);
    const forever = await encodeCursor(scope, key, { ...options, ttlSeconds: Infinity });
    now += 1e12;
    t.deepEqual(await decodeCursor(forever, scope, { ...options, ttlSeconds: Infinity }), key, `${mode}: ttlSeconds Infinity never expires`);
    await t.throwsAsync(decodeCursor(forever, scope, options), { instanceOf: CursorError, message: /has no expiry/ }, `${mode}: a cursor without expiry is refused where cursors expire`);
  }
});

test.serial('size cap: an oversized cursor is refused before anything is decoded, and a position too large to fit is refused when made', async (t) => {
  const huge = `3u.${'A'.repeat(10 * 1024 * 1024)}.x`;
  // the process's CPU time, not the wall clock's: a busy machine (or another test file's work in the
  // same worker, see test/groups/) stretches the wall time of work this small past any fixed bound
  const started = process.cpuUsage();
  await t.throwsAsync(decodeCursor(huge, scope, { secret: SECRET }), { instanceOf: CursorError, message: 'invalid cursor: it is 10485765 characters, above the 8192 accepted' });
  const { user, system } = process.cpuUsage(started);
  const elapsed = (user + system) / 1000;
  t.true(elapsed < 200, `rejected without decoding (${elapsed.toFixed(1)} ms of CPU; decoding 10 MiB took over a second)`);
  await t.throwsAsync(encodeCursor(scope, { pk: 'x'.repeat(9000) }), { instanceOf: CursorError, message: /needs a \d+-character cursor, above cursor.maxLength \(8192\); raise it/ });
  const big = { maxLength: 20_000 };
  t.deepEqual(await decodeCursor(await encodeCursor(scope, { pk: 'x'.repeat(9000) }, big), scope, big), { pk: 'x'.repeat(9000) });
});

test('encrypted cursors: key values are not readable, and any change is a CursorError', async (t) => {
  const options = { secret: SECRET, encrypt: true };
  const secretKey = { pk: 'User.ann@secret.example', sk: 'PROFILE' };
  const cursor = await encodeCursor(scope, secretKey, options);
  const [header, body, tag] = cursor.split('.') as [string, string, string];
  t.is(header, '3e0');
  t.false(Buffer.from(body, 'base64url').toString('latin1').includes('ann@secret'), 'the position is not in the clear');
  t.true(fromBase64Url((await encodeCursor(scope, secretKey)).split('.')[1]!).includes('ann@secret.example'), 'unsigned cursors hold the key in readable base64 JSON');
  t.not(await encodeCursor(scope, secretKey, options), cursor, 'a fresh IV per cursor');
  const flipped = `${header}.${body.slice(0, 20)}${body[20] === 'A' ? 'B' : 'A'}${body.slice(21)}.${tag}`;
  await t.throwsAsync(decodeCursor(flipped, scope, options), { instanceOf: CursorError, message: /does not decrypt/ });
  await t.throwsAsync(decodeCursor(cursor, scope, { secret: 'z'.repeat(32), encrypt: true }), { instanceOf: CursorError, message: /does not decrypt/ });
});

// ---- unsigned cursors, checked against the query they are given to (issue 14) ----

const tpl = (target: string, segments: ConstructorParameters<typeof KeyTemplate>[0]['segments']) => new KeyTemplate({ entity: 'Article', target, delimiter: '.', maxBytes: 1024, segments });
const pkTemplate = tpl('Article.key.pk', [{ kind: 'literal', text: 'User' }, { kind: 'string', attr: 'userId' }]);
const skTemplate = tpl('Article.key.sk', [{ kind: 'literal', text: 'Article' }, { kind: 'string', attr: 'day' }, { kind: 'string', attr: 'articleId' }]);
const request: QueryRequest = {
  scope: 'Article.query',
  pk: { attribute: 'pk', template: pkTemplate },
  partition: { userId: 'u1' },
  sk: { attribute: 'sk', condition: planSortCondition(skTemplate, { between: [{ day: '2024-01-01' }, { day: '2024-01-31' }] }) },
  params: { partition: { userId: 'u1' }, where: 'jan' },
  keyAttributes: ['pk', 'sk'],
};
const requestScope: CursorScope = { table: 'Social', query: request.scope, params: request.params };
const inside = fc.record({ d: fc.integer({ min: 1, max: 31 }), id: fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom('a', 'b', '.', 'é', '😀') }) }).map(({ d, id }) => ({
  pk: 'User.u1',
  sk: skTemplate.build({ day: `2024-01-${String(d).padStart(2, '0')}`, articleId: id }),
}));

/** An unsigned cursor made outside encodeCursor, as a forger would (the digest is public): any body, a correct checksum. */
function forge(body: unknown): string {
  const text = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `3u.${text}.${digest(`3u.${text}`)}`;
}

test('a cursor of the previous version (SHA-256 checksums) is refused by its version, before anything is read', async (t) => {
  const text = Buffer.from(JSON.stringify({ t: 'Social', i: null, q: 'Article.query', h: 'x', p: key })).toString('base64url');
  await t.throwsAsync(decodeCursor(`2u.${text}.abc`, scope), { instanceOf: CursorError, message: /made by cursor version 2, and this is version 3: start the query again/ });
});

test('a position inside the query passes the check', async (t) => {
  await fc.assert(
    fc.asyncProperty(inside, async (position) => {
      const cursor = await encodeCursor(requestScope, position);
      return JSON.stringify(await decodeCursor(cursor, requestScope, {}, positionCheck(request))) === JSON.stringify(position);
    }),
  );
  t.pass();
});

test('unsigned: every single-character edit and every truncation is a CursorError or yields the identical position', async (t) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ %';
  await fc.assert(
    fc.asyncProperty(inside, fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom('replace', 'insert', 'delete', 'truncate'), async (position, at, char, edit) => {
      const cursor = await encodeCursor(requestScope, position);
      const i = at % cursor.length;
      const edited =
        edit === 'replace' ? cursor.slice(0, i) + char + cursor.slice(i + 1)
        : edit === 'insert' ? cursor.slice(0, i) + char + cursor.slice(i)
        : edit === 'delete' ? cursor.slice(0, i) + cursor.slice(i + 1)
        : cursor.slice(0, i);
      if (edited === cursor) return true;
      try {
        return JSON.stringify(await decodeCursor(edited, requestScope, {}, positionCheck(request))) === JSON.stringify(position);
      } catch (error) {
        return error instanceof CursorError;
      }
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

test('unsigned: a forged position outside the query is a CursorError before any request', async (t) => {
  const base = { t: 'Social', i: null, q: 'Article.query', h: parameterHash(request.params), x: Date.now() + 60_000 };
  const cases: Array<[string, unknown, RegExp]> = [
    ['another partition', { pk: 'User.u2', sk: 'Article.2024-01-05.a' }, /in another partition/],
    ['before the key condition', { pk: 'User.u1', sk: 'Article.2023-12-31.a' }, /outside this query's key condition/],
    ['after the key condition', { pk: 'User.u1', sk: 'Article.2024-02-01.a' }, /outside this query's key condition/],
    ['another entity in the partition', { pk: 'User.u1', sk: 'PROFILE' }, /outside this query's key condition/],
    ['an extra attribute', { pk: 'User.u1', sk: 'Article.2024-01-05.a', gsi1pk: 'x' }, /exactly this query's key attributes \(pk, sk\)/],
    ['a missing attribute', { pk: 'User.u1' }, /exactly this query's key attributes/],
    ['a number', { pk: 'User.u1', sk: 5 }, /sk is not a non-empty string/],
    ['an empty string', { pk: 'User.u1', sk: '' }, /sk is not a non-empty string/],
    ['a nested value', { pk: 'User.u1', sk: { S: 'x' } }, /not a key/],
    ['a list', [{ pk: 'User.u1' }], /not a key/],
  ];
  for (const [name, p, message] of cases) await t.throwsAsync(decodeCursor(forge({ ...base, p }), requestScope, {}, positionCheck(request)), { instanceOf: CursorError, message }, name);
  t.deepEqual(await decodeCursor(forge({ ...base, p: { pk: 'User.u1', sk: 'Article.2024-01-05.a' } }), requestScope, {}, positionCheck(request)), { pk: 'User.u1', sk: 'Article.2024-01-05.a' }, 'a forged position inside the query is only another place in the same result set');
  await fc.assert(
    fc.asyncProperty(fc.dictionary(fc.constantFrom('pk', 'sk', 'gsi1pk'), fc.oneof(fc.string(), fc.integer(), fc.constant(null))), async (p) => {
      const inQuery = positionCheck(request)(p) === undefined;
      try {
        await decodeCursor(forge({ ...base, p }), requestScope, {}, positionCheck(request));
        return inQuery;
      } catch (error) {
        return error instanceof CursorError && !inQuery;
      }
    }),
  );
});
