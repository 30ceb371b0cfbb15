// Opaque, versioned pagination cursors, bound to the query that made them: the physical table, the
// index, the query (`Article.recentArticles`) and a SHA-256 of its parameters, with an expiry.
//
//   2u.<body>.<checksum>     unsigned: base64url JSON; a SHA-256 checksum catches edits by accident
//   2s<kid>.<body>.<mac>     signed:   HMAC-SHA-256 under the key with id <kid> (rotation: several keys)
//   2e<kid>.<body>.<tag>     encrypted: AES-256-GCM (Web Crypto), so key values cannot be read
//
// An unsigned cursor can be rewritten by whoever holds it, so every position is also checked against
// the query it is given to (the caller's `check`: exactly that key space's attributes, the queried
// partition, inside the key condition) before any request. Length is capped before any decoding.
// Written without Node or DOM types so the output compiles on any target.
//
// Signing and encryption come into a bundle through `protectCursors` only: options with a secret
// go through it (the table class does it; an app on the function forms of the operations passes
// its cursor options through it), which gives them the code that seals and opens their cursors.

import { ConfigurationError, CursorError } from './errors.js';
import { constantTimeEqual, hmacSha256, sha256, utf8Bytes } from './hmac.js';

/** One signing key: `id` travels in the cursor (letters, digits, _ or -, at most 32), `secret` never does. */
export interface CursorKey {
  readonly id: string;
  /** At least 32 bytes (UTF-8); random, e.g. 32 bytes as base64. */
  readonly secret: string;
}

/** How cursors are protected; set once per table (`new SocialTable(client, { cursor: { … } })`). */
export interface CursorOptions {
  /**
   * Sign cursors with HMAC-SHA-256. One secret (key id "0"), or keys with ids for rotation: the
   * first signs new cursors, every one listed is accepted. Secrets are at least 32 bytes.
   */
  readonly secret?: string | CursorKey | readonly CursorKey[];
  /** Encrypt cursors with AES-256-GCM under a key derived from the secret, so positions (key values) cannot be read. */
  readonly encrypt?: boolean;
  /** Cursors expire this many seconds after they are made. Default 86,400 (one day); `Infinity`: never. */
  readonly ttlSeconds?: number;
  /** The longest cursor accepted (and made), in characters, checked before anything is decoded. Default 8,192. */
  readonly maxLength?: number;
  /** Clock in milliseconds, for tests. Default Date.now. */
  readonly now?: () => number;
}

/** What a cursor is bound to: where it was made and by which query with which parameters. */
export interface CursorScope {
  /** The physical table name. */
  readonly table: string;
  readonly index?: string;
  /** The query, e.g. `Article.query`, `Article.recentArticles`. */
  readonly query: string;
  /** Everything the caller chose that defines the result set. */
  readonly params: unknown;
}

/** Checks a decoded position against the query it is given to; returns what is wrong, or undefined. */
export type PositionCheck = (position: unknown) => string | undefined;

export const CURSOR_DEFAULTS = { ttlSeconds: 86_400, maxLength: 8_192, minSecretBytes: 32 } as const;

const VERSION = '2';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const HEADER = /^2([use])([A-Za-z0-9_-]{0,32})$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function utf8Decode(bytes: ArrayLike<number>): string {
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
    if (cp > 0x10ffff) throw new CursorError('not UTF-8');
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

function base64UrlToBytes(encoded: string): Uint8Array {
  if (encoded.length % 4 === 1) throw new CursorError('not base64url');
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i += 4) {
    const chunk = encoded.slice(i, i + 4);
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const v = k < chunk.length ? ALPHABET.indexOf(chunk[k]!) : 0;
      if (v < 0) throw new CursorError('not base64url');
      n = (n << 6) | v;
    }
    const count = Math.floor((chunk.length * 6) / 8);
    for (let k = 0; k < count; k++) bytes.push((n >> (16 - 8 * k)) & 255);
  }
  return Uint8Array.from(bytes);
}

/** SHA-256 of the canonical JSON of `value` (keys sorted, undefined left out, Dates as ISO text), base64url: binds a cursor to its parameters. */
export function parameterHash(value: unknown): string {
  return bytesToBase64Url(sha256(utf8Bytes(canonicalJson(value))));
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

/** True for a DynamoDB key: an object of string and number attributes. */
export function isKey(value: unknown): value is Record<string, string | number> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number');
}

// ---- options ----

interface ResolvedOptions {
  readonly keys: readonly CursorKey[];
  readonly encrypt: boolean;
  readonly ttlMs: number;
  readonly maxLength: number;
  readonly now: () => number;
  /** How cursors under a key are sealed and opened (signed or encrypted), once `protectCursors` has given it. */
  readonly seal?: CursorSeal;
}

/** Signing or encryption of a cursor's body under a key: `<text>.<tag>` after the header, and back. */
interface CursorSeal {
  seal(header: string, body: Uint8Array, key: CursorKey): Promise<string>;
  /** The body, or a CursorError when the text and tag are not what `seal` made under this key. */
  open(head: string, text: string, tag: string, key: CursorKey): Promise<Uint8Array>;
}

interface AesKey {
  readonly brand?: 'CryptoKey';
}
interface WebCrypto {
  readonly subtle: {
    importKey(format: 'raw', key: Uint8Array, algorithm: string, extractable: boolean, usages: string[]): Promise<AesKey>;
    encrypt(algorithm: { name: string; iv: Uint8Array; additionalData: Uint8Array }, key: AesKey, data: Uint8Array): Promise<ArrayBuffer>;
    decrypt(algorithm: { name: string; iv: Uint8Array; additionalData: Uint8Array }, key: AesKey, data: Uint8Array): Promise<ArrayBuffer>;
  };
  getRandomValues(array: Uint8Array): Uint8Array;
}
/** Web Crypto, read when a cursor is encrypted (not at load: a bundle of an app that pages no query drops this module whole). */
const webCrypto = (): Partial<WebCrypto> | undefined => (globalThis as { crypto?: Partial<WebCrypto> }).crypto;

const resolved = new WeakMap<CursorOptions, ResolvedOptions>();

/**
 * Checks cursor options once (the generated table context does it when it is made) and returns
 * them unchanged; throws ConfigurationError for a secret under 32 bytes, a bad or repeated key id,
 * `encrypt` without a secret or without Web Crypto, or a non-positive ttl or length.
 */
export function checkCursorOptions(options: CursorOptions): CursorOptions {
  resolve(options);
  return options;
}

/**
 * `checkCursorOptions`, and for options with a secret the code that signs (HMAC-SHA-256) or
 * encrypts (AES-256-GCM) their cursors; returns the options unchanged. What an app passes its
 * cursor options through to sign or encrypt them: the table class does it in its constructor;
 * with the function forms of the operations, `createShopContext(client, { cursor: protectCursors({ secret }) })`.
 * An app that signs nothing does not call it, and its bundle carries neither.
 */
export function protectCursors(options: CursorOptions): CursorOptions {
  const o = resolve(options);
  if (o.keys.length > 0 && o.seal === undefined) resolved.set(options, { ...o, seal: o.encrypt ? ENCRYPTED : SIGNED });
  return options;
}

/** `checkCursorOptions` for a table's context: options with a secret must have been through `protectCursors`. */
export function checkContextCursor(options: CursorOptions): CursorOptions {
  const o = resolve(options);
  if (o.keys.length > 0) sealOf(o);
  return options;
}

/** The seal of options with a secret; ConfigurationError when they were not given to `protectCursors`. */
function sealOf(o: ResolvedOptions): CursorSeal {
  if (o.seal === undefined) {
    throw new ConfigurationError('cursor.secret', `${o.encrypt ? 'encrypted' : 'signed'} cursors need the code that makes them: pass the cursor options through protectCursors(…), from the generated output`);
  }
  return o.seal;
}

function resolve(options: CursorOptions = {}): ResolvedOptions {
  const known = resolved.get(options);
  if (known) return known;
  const given = options.secret;
  const keys: CursorKey[] = given === undefined ? [] : typeof given === 'string' ? [{ id: '0', secret: given }] : Array.isArray(given) ? [...(given as readonly CursorKey[])] : [given as CursorKey];
  if (given !== undefined && keys.length === 0) throw new ConfigurationError('cursor.secret', 'the list of keys is empty; give at least one { id, secret }');
  const ids = new Set<string>();
  for (const key of keys) {
    if (typeof key.id !== 'string' || !KEY_ID.test(key.id)) throw new ConfigurationError('cursor.secret', `key id ${JSON.stringify(key.id)} is not 1 to 32 letters, digits, _ or -`);
    if (ids.has(key.id)) throw new ConfigurationError('cursor.secret', `key id "${key.id}" is listed twice; each key needs its own id`);
    ids.add(key.id);
    const bytes = typeof key.secret === 'string' ? utf8Bytes(key.secret).length : 0;
    if (bytes < CURSOR_DEFAULTS.minSecretBytes) {
      throw new ConfigurationError('cursor.secret', `the secret of key "${key.id}" is ${bytes} bytes; use at least ${CURSOR_DEFAULTS.minSecretBytes} random bytes (e.g. crypto.randomBytes(32).toString('base64'))`);
    }
  }
  if (options.encrypt && keys.length === 0) throw new ConfigurationError('cursor.encrypt', 'encrypting cursors needs a secret to derive the key from; set cursor.secret');
  if (options.encrypt && (webCrypto()?.subtle === undefined || webCrypto()?.getRandomValues === undefined)) throw new ConfigurationError('cursor.encrypt', 'this runtime has no Web Crypto (globalThis.crypto.subtle); cursors cannot be encrypted here');
  const ttl = options.ttlSeconds ?? CURSOR_DEFAULTS.ttlSeconds;
  if (!(typeof ttl === 'number' && ttl > 0)) throw new ConfigurationError('cursor.ttlSeconds', `must be a positive number of seconds (or Infinity), got ${String(ttl)}`);
  const maxLength = options.maxLength ?? CURSOR_DEFAULTS.maxLength;
  if (!(Number.isInteger(maxLength) && maxLength >= 256)) throw new ConfigurationError('cursor.maxLength', `must be an integer of at least 256 characters, got ${String(maxLength)}`);
  const out: ResolvedOptions = { keys, encrypt: options.encrypt === true, ttlMs: ttl * 1000, maxLength, now: options.now ?? Date.now };
  resolved.set(options, out);
  return out;
}

const aesKeys = new Map<string, Promise<AesKey>>();

/** The AES-256-GCM key of a secret: HMAC-SHA-256(secret, a fixed label), so signing and encryption never share a key. */
function aesKey(secret: string): Promise<AesKey> {
  let key = aesKeys.get(secret);
  if (!key) {
    key = webCrypto()!.subtle!.importKey('raw', hmacSha256(secret, 'ddbgen cursor encryption v2'), 'AES-GCM', false, ['encrypt', 'decrypt']);
    aesKeys.set(secret, key);
  }
  return key;
}

const UNDECRYPTABLE = 'it does not decrypt: it was changed or encrypted with another secret';

/** Signed cursors: `<body>.<HMAC-SHA-256 of header.body>`, the body readable base64url JSON. */
const SIGNED: CursorSeal = {
  async seal(header, body, key) {
    const text = bytesToBase64Url(body);
    return `${text}.${bytesToBase64Url(hmacSha256(key.secret, `${header}.${text}`))}`;
  },
  async open(head, text, tag, key) {
    if (!constantTimeEqual(utf8Bytes(tag), utf8Bytes(bytesToBase64Url(hmacSha256(key.secret, `${head}.${text}`))))) throw new CursorError('its signature does not match: it was changed or signed with another secret');
    return base64UrlToBytes(text);
  },
};

/** Encrypted cursors: `<IV and ciphertext>.<GCM tag>`, AES-256-GCM with the header as additional data. */
const ENCRYPTED: CursorSeal = {
  async seal(header, body, key) {
    const iv = webCrypto()!.getRandomValues!(new Uint8Array(12));
    const sealed = new Uint8Array(await webCrypto()!.subtle!.encrypt({ name: 'AES-GCM', iv, additionalData: utf8Bytes(header) }, await aesKey(key.secret), body));
    const ciphertext = new Uint8Array(iv.length + sealed.length - 16);
    ciphertext.set(iv);
    ciphertext.set(sealed.subarray(0, sealed.length - 16), iv.length);
    return `${bytesToBase64Url(ciphertext)}.${bytesToBase64Url(sealed.subarray(sealed.length - 16))}`;
  },
  async open(head, text, tag, key) {
    const sealed = base64UrlToBytes(text);
    const gcmTag = base64UrlToBytes(tag);
    if (sealed.length < 12 || gcmTag.length !== 16) throw new CursorError(UNDECRYPTABLE);
    const data = new Uint8Array(sealed.length - 12 + 16);
    data.set(sealed.subarray(12));
    data.set(gcmTag, sealed.length - 12);
    try {
      return new Uint8Array(await webCrypto()!.subtle!.decrypt({ name: 'AES-GCM', iv: sealed.subarray(0, 12), additionalData: utf8Bytes(head) }, await aesKey(key.secret), data));
    } catch {
      throw new CursorError(UNDECRYPTABLE);
    }
  },
};

// ---- encode / decode ----

/** Encodes a position (a LastEvaluatedKey, or a gather's per-shard positions) as a cursor bound to `scope`. */
export async function encodeCursor(scope: CursorScope, position: unknown, options: CursorOptions = {}): Promise<string> {
  const o = resolve(options);
  const expires = Number.isFinite(o.ttlMs) ? { x: o.now() + o.ttlMs } : {};
  const body = utf8Bytes(JSON.stringify({ t: scope.table, i: scope.index ?? null, q: scope.query, h: parameterHash(scope.params), ...expires, p: position }));
  const key = o.keys[0];
  let cursor: string;
  if (!key) {
    const header = `${VERSION}u`;
    const text = bytesToBase64Url(body);
    cursor = `${header}.${text}.${checksum(`${header}.${text}`)}`;
  } else {
    const header = `${VERSION}${o.encrypt ? 'e' : 's'}${key.id}`;
    cursor = `${header}.${await sealOf(o).seal(header, body, key)}`;
  }
  if (cursor.length > o.maxLength) throw new CursorError(`this query's position needs a ${cursor.length}-character cursor, above cursor.maxLength (${o.maxLength}); raise it`);
  return cursor;
}


function checksum(text: string): string {
  return bytesToBase64Url(sha256(utf8Bytes(text)).subarray(0, 16));
}

/**
 * Decodes a cursor made by `encodeCursor` for the same scope, or throws `CursorError` before any
 * request: too long, malformed, not protected as this table protects cursors, changed, signed
 * with an unknown key, made for another table, index, query or parameters, expired, or holding a
 * position `check` refuses.
 */
export async function decodeCursor<P = Record<string, unknown>>(cursor: string, scope: CursorScope, options: CursorOptions = {}, check: PositionCheck = (p) => (isKey(p) ? undefined : 'its position is not a key')): Promise<P> {
  const o = resolve(options);
  if (typeof cursor !== 'string') throw new CursorError('a cursor is a string');
  if (cursor.length > o.maxLength) throw new CursorError(`it is ${cursor.length} characters, above the ${o.maxLength} accepted`);
  const parts = cursor.split('.');
  const header = HEADER.exec(parts[0] ?? '');
  if (parts.length !== 3 || !header) throw new CursorError('not a ddbgen cursor');
  const [, mode, id] = header as unknown as [string, 'u' | 's' | 'e', string];
  const [head, text, tag] = parts as [string, string, string];
  const wanted = o.keys.length === 0 ? 'u' : o.encrypt ? 'e' : 's';
  if (mode !== wanted) {
    const what = { u: 'unsigned', s: 'signed', e: 'encrypted' };
    throw new CursorError(`it is ${what[mode]}, and this table's cursors are ${what[wanted]}`);
  }
  let body: Uint8Array;
  if (mode === 'u') {
    if (id !== '' || !constantTimeEqual(utf8Bytes(tag), utf8Bytes(checksum(`${head}.${text}`)))) throw new CursorError('its checksum does not match: it was changed');
    body = base64UrlToBytes(text);
  } else {
    const key = o.keys.find((k) => k.id === id);
    if (!key) throw new CursorError(`it was made with key "${id}", which this table does not accept (accepted: ${o.keys.map((k) => k.id).join(', ')})`);
    body = await sealOf(o).open(head, text, tag, key);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8Decode(body));
  } catch (error) {
    if (error instanceof CursorError) throw error;
    throw new CursorError('not a ddbgen cursor');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CursorError('not a ddbgen cursor');
  const { t, i, q, h, x, p } = parsed as { t?: unknown; i?: unknown; q?: unknown; h?: unknown; x?: unknown; p?: unknown };
  if (t !== scope.table) throw new CursorError(`it was made for another table, not "${scope.table}"`);
  if (i !== (scope.index ?? null)) throw new CursorError(`it was made for ${typeof i === 'string' ? 'another index' : 'the table'}, not ${scope.index === undefined ? 'the table' : `index "${scope.index}"`}`);
  if (q !== scope.query) throw new CursorError(`it was made for another query, not ${scope.query}`);
  if (h !== parameterHash(scope.params)) throw new CursorError('it was made for other query parameters');
  if (x !== undefined || Number.isFinite(o.ttlMs)) {
    const now = o.now();
    if (typeof x !== 'number') throw new CursorError('it has no expiry, and this table gives cursors one');
    if (now > x) throw new CursorError('it expired');
    if (x - now > o.ttlMs) throw new CursorError(`its expiry is further away than this table's ${o.ttlMs / 1000} s`);
  }
  if (p === undefined || p === null) throw new CursorError('it has no position');
  const problem = check(p);
  if (problem !== undefined) throw new CursorError(problem);
  return p as P;
}
