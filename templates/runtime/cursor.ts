// Opaque, versioned pagination cursors. A cursor holds DynamoDB's LastEvaluatedKey and is bound to
// the query that made it (a scope such as `Article.query` and a hash of its parameters), so a cursor
// from another query, other parameters or a newer format is rejected with `CursorError` instead of
// silently returning the wrong page. With a secret, cursors are HMAC-SHA-256 signed (tampering is
// detected); with a time-to-live, old cursors expire. Written without Node or DOM globals so the
// output compiles on any target.

import { CursorError } from './errors.js';
import { constantTimeEqual, hmacSha256, utf8Bytes } from './hmac.js';

/** How cursors are protected; set once per table (`new SocialTable(client, { cursor: { … } })`). */
export interface CursorOptions {
  /** Sign cursors with HMAC-SHA-256 under this secret, and accept only cursors signed with it. */
  readonly secret?: string;
  /** Reject cursors older than this many seconds. */
  readonly ttlSeconds?: number;
  /** Clock in milliseconds, for tests. Default Date.now. */
  readonly now?: () => number;
}

const VERSION = 1;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Map([...ALPHABET].map((c, i) => [c, i]));

function utf8Decode(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const extra = b < 0x80 ? 0 : b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : -1;
    if (extra < 0) throw new CursorError('not UTF-8');
    let cp = extra === 0 ? b : b & (0x3f >> extra);
    for (let k = 1; k <= extra; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) throw new CursorError('not UTF-8');
      cp = (cp << 6) | (c & 63);
    }
    out += String.fromCodePoint(cp);
    i += extra + 1;
  }
  return out;
}

/** base64url without padding, over the UTF-8 bytes of `text`. */
export function toBase64Url(text: string): string {
  return bytesToBase64Url(utf8Bytes(text));
}

function bytesToBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += ALPHABET[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

export function fromBase64Url(encoded: string): string {
  return utf8Decode(base64UrlToBytes(encoded));
}

function base64UrlToBytes(encoded: string): number[] {
  if (encoded.length % 4 === 1) throw new CursorError('not base64url');
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i += 4) {
    const chunk = encoded.slice(i, i + 4);
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const v = k < chunk.length ? LOOKUP.get(chunk[k]!) : 0;
      if (v === undefined) throw new CursorError('not base64url');
      n = (n << 6) | v;
    }
    const count = Math.floor((chunk.length * 6) / 8);
    for (let k = 0; k < count; k++) bytes.push((n >> (16 - 8 * k)) & 255);
  }
  return bytes;
}

/** A stable 53-bit hash (cyrb53) of the canonical JSON of `value`: binds a cursor to its parameters. */
export function parameterHash(value: unknown): string {
  const text = canonicalJson(value);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function canonicalJson(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function signature(secret: string, payload: string): string {
  return bytesToBase64Url(hmacSha256(secret, payload));
}

/** True for a DynamoDB key: an object of string and number attributes. */
export function isKey(value: unknown): value is Record<string, string | number> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number');
}

/** Encodes a position (a LastEvaluatedKey, or a gather's per-shard positions) as a cursor bound to `scope` and `params`. */
export function encodeCursor(scope: string, params: unknown, lastKey: unknown, options: CursorOptions = {}): string {
  const issued = options.ttlSeconds === undefined ? {} : { t: (options.now ?? Date.now)() };
  const payload = toBase64Url(JSON.stringify({ v: VERSION, s: scope, h: parameterHash(params), k: lastKey, ...issued }));
  return options.secret === undefined ? payload : `${payload}.${signature(options.secret, payload)}`;
}

/** Decodes a cursor made by `encodeCursor` for the same scope and parameters, or throws `CursorError`. */
export function decodeCursor<P = Record<string, unknown>>(cursor: string, scope: string, params: unknown, options: CursorOptions = {}, valid: (position: unknown) => boolean = isKey): P {
  const [payload = '', signed, ...rest] = cursor.split('.');
  if (rest.length) throw new CursorError('not a ddbgen cursor');
  if (options.secret !== undefined) {
    if (signed === undefined) throw new CursorError('it is not signed, and this table signs its cursors');
    const expected = utf8Bytes(signature(options.secret, payload));
    if (!constantTimeEqual(utf8Bytes(signed), expected)) throw new CursorError('its signature does not match: it was changed or signed with another secret');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromBase64Url(payload));
  } catch (error) {
    if (error instanceof CursorError) throw error;
    throw new CursorError('not a ddbgen cursor');
  }
  if (typeof parsed !== 'object' || parsed === null) throw new CursorError('not a ddbgen cursor');
  const { v, s, h, k, t } = parsed as { v?: unknown; s?: unknown; h?: unknown; k?: unknown; t?: unknown };
  if (v !== VERSION) throw new CursorError(`format version ${String(v)} is not ${VERSION}`);
  if (s !== scope) throw new CursorError(`it belongs to ${JSON.stringify(s)}, not ${JSON.stringify(scope)}`);
  if (h !== parameterHash(params)) throw new CursorError('it was made for other query parameters');
  if (options.ttlSeconds !== undefined) {
    const age = (options.now ?? Date.now)() - (typeof t === 'number' ? t : -Infinity);
    if (!(age <= options.ttlSeconds * 1000)) throw new CursorError(`it expired (older than ${options.ttlSeconds} s)`);
  }
  if (typeof k !== 'object' || k === null) throw new CursorError('it has no position');
  if (!valid(k)) throw new CursorError('its position is not a key');
  return k as P;
}
