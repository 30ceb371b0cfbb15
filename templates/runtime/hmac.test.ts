import { createHash, createHmac } from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { constantTimeEqual, hmacSha256, sha256, utf8Bytes } from './hmac.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

test('SHA-256 matches node:crypto, including the FIPS vectors and block edges', (t) => {
  t.is(hex(sha256(utf8Bytes('abc'))), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  t.is(hex(sha256(utf8Bytes(''))), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  for (const n of [55, 56, 63, 64, 65, 119, 120, 1000]) t.is(hex(sha256(utf8Bytes('a'.repeat(n)))), createHash('sha256').update('a'.repeat(n)).digest('hex'), `${n} bytes`);
  fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) => hex(sha256(utf8Bytes(s))) === createHash('sha256').update(s, 'utf8').digest('hex')));
});

test('HMAC-SHA-256 matches node:crypto for short and long keys', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), fc.string({ unit: 'grapheme', maxLength: 200 }), (key, message) => {
      return hex(hmacSha256(key, message)) === createHmac('sha256', key).update(message, 'utf8').digest('hex');
    }),
  );
  t.is(hex(hmacSha256('k'.repeat(100), 'm')), createHmac('sha256', 'k'.repeat(100)).update('m').digest('hex'));
});

test('constant-time comparison', (t) => {
  t.true(constantTimeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2)));
  t.false(constantTimeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 3)));
  t.false(constantTimeEqual(Uint8Array.of(1), Uint8Array.of(1, 2)));
});
