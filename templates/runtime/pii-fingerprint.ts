// How error messages print a value marked pii: a fingerprint, never the value. Keyed with the
// table's `piiSecret` (HMAC-SHA-256, so the logs of several processes match and whoever lacks the
// secret cannot test a fingerprint against guessed values), else with a key drawn once per process.
// Generated models of entities with pii attributes name `piiFingerprint`, so the hash comes into a
// bundle with those entities only.

import { ConfigurationError } from './errors.js';
import { hmacSha256, utf8Bytes } from './hmac.js';

/** How a value marked pii is printed in an error: `<pii 3b1f09c2>`. */
export type PiiFingerprint = (value: unknown) => string;

/** The smallest `piiSecret`, in bytes of UTF-8, as for cursor secrets. */
export const PII_SECRET_MIN_BYTES = 32;

/**
 * Fingerprints keyed with `secret`: the first 32 bits of HMAC-SHA-256(secret, value), the same in
 * every process given the secret, so logs of several processes can be matched, and never testable
 * against guessed values by whoever lacks the secret. Throws ConfigurationError for a short secret.
 */
export function keyedFingerprint(secret: string): PiiFingerprint {
  checkPiiSecret(secret);
  return (value) => {
    const digest = hmacSha256(secret, value instanceof Date ? value.toISOString() : String(value));
    return `<pii ${Array.from(digest.slice(0, 4), (b) => b.toString(16).padStart(2, '0')).join('')}>`;
  };
}

/**
 * Returns a `piiSecret`, or throws ConfigurationError for one shorter than PII_SECRET_MIN_BYTES: what
 * a table's context does with the secret it is given (its entities' models key their fingerprints with it).
 */
export function checkPiiSecret(secret: string): string {
  const bytes = typeof secret === 'string' ? utf8Bytes(secret).length : 0;
  if (bytes < PII_SECRET_MIN_BYTES) {
    throw new ConfigurationError('piiSecret', `the secret is ${bytes} bytes; use at least ${PII_SECRET_MIN_BYTES} random bytes (e.g. crypto.randomBytes(32).toString('base64'))`);
  }
  return secret;
}

let processKey: PiiFingerprint | undefined;

/**
 * Fingerprints without a configured secret: keyed with 32 random bytes drawn once per process, so
 * a value prints alike within one process and its fingerprint cannot be tested against guesses (an
 * unkeyed hash of a phone number or a short id can be). Without Web Crypto to draw the key: `<pii>`.
 */
export const processFingerprint: PiiFingerprint = (value) => {
  if (processKey === undefined) {
    // read here, not at load, so that loading the module reads no global
    const webCrypto = (globalThis as { crypto?: { getRandomValues?: (bytes: Uint8Array) => Uint8Array } }).crypto;
    if (webCrypto?.getRandomValues === undefined) return '<pii>';
    const key = webCrypto.getRandomValues(new Uint8Array(32));
    processKey = keyedFingerprint(Array.from(key, (b) => b.toString(16).padStart(2, '0')).join(''));
  }
  return processKey(value);
};

const keyed = new Map<string, PiiFingerprint>();

/**
 * The fingerprint errors print pii with: keyed with the table's `piiSecret` when it has one (made
 * once per secret), else the process's. A generated model of an entity with pii attributes carries
 * it (`fingerprint`), so the hash comes into a bundle with those entities only: a table's context
 * holds the secret as text.
 */
export function piiFingerprint(secret: string | undefined): PiiFingerprint {
  if (secret === undefined) return processFingerprint;
  let fingerprint = keyed.get(secret);
  if (fingerprint === undefined) keyed.set(secret, (fingerprint = keyedFingerprint(secret)));
  return fingerprint;
}
