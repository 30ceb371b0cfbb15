// Opaque, versioned pagination cursors, bound to the query that made them: the physical table, the
// index, the query (`Article.recentArticles`) and a digest of its parameters, with an expiry.
//
//   3u.<body>.<check>        unsigned: base64url JSON; a 64-bit digest catches edits by accident
//   3s<kid>.<body>.<mac>     signed:   HMAC-SHA-256 under the key with id <kid> (rotation: several keys)
//   3e<kid>.<body>.<tag>     encrypted: AES-256-GCM (Web Crypto), so key values cannot be read
//
// An unsigned cursor can be rewritten by whoever holds it, so every position is also checked against
// the query it is given to (the caller's `check`: exactly that key space's attributes, the queried
// partition, inside the key condition) before any request: that check, not the digests, is what
// keeps a cursor inside its query. Length is capped before any decoding. Text and base64 go through
// the TextEncoder, TextDecoder, btoa and atob every JavaScript runtime has (Node 16+, browsers,
// Deno, Bun, workers); the module is written without Node or DOM types so the output compiles on any target.
//
// Signing and encryption come into a bundle through `protectCursors` only: options with a secret
// go through it (the table class does it; an app on the function forms of the operations passes
// its cursor options through it), which gives them the code that seals and opens their cursors
// (SHA-256, HMAC and the checks of keys and secrets): an app that pages unsigned carries none of it.

import { ConfigurationError, CursorError } from './errors.js';
import { constantTimeEqual, hmacSha256 } from './hmac.js';

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

const VERSION = '3';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const HEADER = /^([0-9])([use])([A-Za-z0-9_-]{0,32})$/;

/** The text and base64 codecs of the platform (typed here: the runtime is compiled without DOM or Node types). */
interface Platform {
  readonly TextEncoder: new () => { encode(text: string): Uint8Array };
  readonly TextDecoder: new (label: string, options: { fatal: boolean }) => { decode(bytes: Uint8Array): string };
  btoa(binary: string): string;
  atob(base64: string): string;
}
const platform = globalThis as unknown as Platform;

/** UTF-8 bytes of a string. */
const encodeUtf8 = (text: string): Uint8Array => new platform.TextEncoder().encode(text);

/** base64url without padding, over bytes. */
function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return platform.btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url without padding, over the UTF-8 bytes of `text`. */
export const toBase64Url = (text: string): string => bytesToBase64Url(encodeUtf8(text));

function base64UrlToBytes(encoded: string): Uint8Array {
  if (!/^[\w-]*$/.test(encoded) || encoded.length % 4 === 1) throw new CursorError('not base64url');
  return Uint8Array.from(platform.atob(encoded.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
}

/** The text of base64url-encoded UTF-8; CursorError when it is not base64url or not UTF-8. */
export function fromBase64Url(encoded: string): string {
  return utf8Text(base64UrlToBytes(encoded));
}

function utf8Text(bytes: Uint8Array): string {
  try {
    return new platform.TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CursorError('not UTF-8');
  }
}

/**
 * A 64-bit digest of `text` (two multiplicative 32-bit lanes mixed at the end, as cyrb53 does), 14
 * base-36 characters. Not a cryptographic hash: it catches a cursor changed or handed to another
 * query by accident; a signed cursor's MAC and every position's check against its query do the rest.
 */
export function digest(text: string): string {
  let a = 0x9e3779b9;
  let b = 0x85ebca6b;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x9e3779b1);
    b = Math.imul(b ^ c, 0x5f356495);
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b) ^ Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b = Math.imul(b ^ (b >>> 16), 0x85ebca6b) ^ Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  return (a >>> 0).toString(36).padStart(7, '0') + (b >>> 0).toString(36).padStart(7, '0');
}

/** The digest of the canonical JSON of `value` (keys sorted, undefined left out, Dates as ISO text): binds a cursor to its parameters. */
export const parameterHash = (value: unknown): string => digest(canonicalJson(value));

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
  /** How cursors under a key are sealed and opened (signed or encrypted): options with a secret get it from `protectCursors`. */
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

const NO_SECRET = 'encrypting cursors needs a secret to derive the key from; set cursor.secret';

/** The expiry, length cap and clock of options, checked: what every cursor needs. */
function basics(options: CursorOptions): Pick<ResolvedOptions, 'ttlMs' | 'maxLength' | 'now'> {
  const ttl = options.ttlSeconds ?? CURSOR_DEFAULTS.ttlSeconds;
  if (!(typeof ttl === 'number' && ttl > 0)) throw new ConfigurationError('cursor.ttlSeconds', `must be a positive number of seconds (or Infinity), got ${String(ttl)}`);
  const maxLength = options.maxLength ?? CURSOR_DEFAULTS.maxLength;
  if (!(Number.isInteger(maxLength) && maxLength >= 256)) throw new ConfigurationError('cursor.maxLength', `must be an integer of at least 256 characters, got ${String(maxLength)}`);
  return { ttlMs: ttl * 1000, maxLength, now: options.now ?? Date.now };
}

/** The keys and encryption of options, checked: what signed and encrypted cursors need. */
function keysOf(options: CursorOptions): Pick<ResolvedOptions, 'keys' | 'encrypt'> {
  const given = options.secret;
  const keys: CursorKey[] = given === undefined ? [] : typeof given === 'string' ? [{ id: '0', secret: given }] : Array.isArray(given) ? [...(given as readonly CursorKey[])] : [given as CursorKey];
  if (given !== undefined && keys.length === 0) throw new ConfigurationError('cursor.secret', 'the list of keys is empty; give at least one { id, secret }');
  const ids = new Set<string>();
  for (const key of keys) {
    if (typeof key.id !== 'string' || !KEY_ID.test(key.id)) throw new ConfigurationError('cursor.secret', `key id ${JSON.stringify(key.id)} is not 1 to 32 letters, digits, _ or -`);
    if (ids.has(key.id)) throw new ConfigurationError('cursor.secret', `key id "${key.id}" is listed twice; each key needs its own id`);
    ids.add(key.id);
    const bytes = typeof key.secret === 'string' ? encodeUtf8(key.secret).length : 0;
    if (bytes < CURSOR_DEFAULTS.minSecretBytes) {
      throw new ConfigurationError('cursor.secret', `the secret of key "${key.id}" is ${bytes} bytes; use at least ${CURSOR_DEFAULTS.minSecretBytes} random bytes (e.g. crypto.randomBytes(32).toString('base64'))`);
    }
  }
  if (options.encrypt && keys.length === 0) throw new ConfigurationError('cursor.encrypt', NO_SECRET);
  if (options.encrypt && (webCrypto()?.subtle === undefined || webCrypto()?.getRandomValues === undefined)) throw new ConfigurationError('cursor.encrypt', 'this runtime has no Web Crypto (globalThis.crypto.subtle); cursors cannot be encrypted here');
  return { keys, encrypt: options.encrypt === true };
}

/**
 * Checks cursor options, secrets and key ids included, and returns them unchanged; throws
 * ConfigurationError for a secret under 32 bytes, a bad or repeated key id, `encrypt` without a
 * secret or without Web Crypto, or a non-positive ttl or length.
 */
export function checkCursorOptions(options: CursorOptions): CursorOptions {
  keysOf(options);
  basics(options);
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
  if (resolved.get(options)?.seal === undefined) {
    const { keys, encrypt } = keysOf(options);
    resolved.set(options, { ...basics(options), keys, encrypt, ...(keys.length > 0 ? { seal: encrypt ? ENCRYPTED : SIGNED } : {}) });
  }
  return options;
}

/** Checks a table context's cursor options: options with a secret must have been through `protectCursors`. */
export function checkContextCursor(options: CursorOptions): CursorOptions {
  resolve(options);
  return options;
}

/** Options as cursors are made and read with them; ConfigurationError for a secret that did not come through `protectCursors`. */
function resolve(options: CursorOptions = {}): ResolvedOptions {
  const known = resolved.get(options);
  if (known) return known;
  if (options.secret === undefined && options.encrypt) throw new ConfigurationError('cursor.encrypt', NO_SECRET);
  if (options.secret !== undefined) {
    throw new ConfigurationError('cursor.secret', `${options.encrypt ? 'encrypted' : 'signed'} cursors need the code that makes them: pass the cursor options through protectCursors(…), from the generated output`);
  }
  const out: ResolvedOptions = { keys: [], encrypt: false, ...basics(options) };
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
    if (!constantTimeEqual(encodeUtf8(tag), encodeUtf8(bytesToBase64Url(hmacSha256(key.secret, `${head}.${text}`))))) throw new CursorError('its signature does not match: it was changed or signed with another secret');
    return base64UrlToBytes(text);
  },
};

/** Encrypted cursors: `<IV and ciphertext>.<GCM tag>`, AES-256-GCM with the header as additional data. */
const ENCRYPTED: CursorSeal = {
  async seal(header, body, key) {
    const iv = webCrypto()!.getRandomValues!(new Uint8Array(12));
    const sealed = new Uint8Array(await webCrypto()!.subtle!.encrypt({ name: 'AES-GCM', iv, additionalData: encodeUtf8(header) }, await aesKey(key.secret), body));
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
      return new Uint8Array(await webCrypto()!.subtle!.decrypt({ name: 'AES-GCM', iv: sealed.subarray(0, 12), additionalData: encodeUtf8(head) }, await aesKey(key.secret), data));
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
  const body = JSON.stringify({ t: scope.table, i: scope.index ?? null, q: scope.query, h: parameterHash(scope.params), ...expires, p: position });
  const key = o.keys[0];
  let cursor: string;
  if (!key) {
    const header = `${VERSION}u`;
    const text = toBase64Url(body);
    cursor = `${header}.${text}.${digest(`${header}.${text}`)}`;
  } else {
    const header = `${VERSION}${o.encrypt ? 'e' : 's'}${key.id}`;
    cursor = `${header}.${await o.seal!.seal(header, encodeUtf8(body), key)}`;
  }
  if (cursor.length > o.maxLength) throw new CursorError(`this query's position needs a ${cursor.length}-character cursor, above cursor.maxLength (${o.maxLength}); raise it`);
  return cursor;
}

/**
 * Decodes a cursor made by `encodeCursor` for the same scope, or throws `CursorError` before any
 * request: too long, malformed, made by another cursor version, not protected as this table
 * protects cursors, changed, signed with an unknown key, made for another table, index, query or
 * parameters, expired, or holding a position `check` refuses.
 */
export async function decodeCursor<P = Record<string, unknown>>(cursor: string, scope: CursorScope, options: CursorOptions = {}, check: PositionCheck = (p) => (isKey(p) ? undefined : 'its position is not a key')): Promise<P> {
  const o = resolve(options);
  if (typeof cursor !== 'string') throw new CursorError('a cursor is a string');
  if (cursor.length > o.maxLength) throw new CursorError(`it is ${cursor.length} characters, above the ${o.maxLength} accepted`);
  const parts = cursor.split('.');
  const header = HEADER.exec(parts[0] ?? '');
  if (parts.length !== 3 || !header) throw new CursorError('not a ddbgen cursor');
  const [, version, mode, id] = header as unknown as [string, string, 'u' | 's' | 'e', string];
  if (version !== VERSION) throw new CursorError(`it was made by cursor version ${version}, and this is version ${VERSION}: start the query again`);
  const [head, text, tag] = parts as [string, string, string];
  const wanted = o.keys.length === 0 ? 'u' : o.encrypt ? 'e' : 's';
  if (mode !== wanted) {
    const what = { u: 'unsigned', s: 'signed', e: 'encrypted' };
    throw new CursorError(`it is ${what[mode]}, and this table's cursors are ${what[wanted]}`);
  }
  let body: Uint8Array;
  if (mode === 'u') {
    if (id !== '' || tag !== digest(`${head}.${text}`)) throw new CursorError('its checksum does not match: it was changed');
    body = base64UrlToBytes(text);
  } else {
    const key = o.keys.find((k) => k.id === id);
    if (!key) throw new CursorError(`it was made with key "${id}", which this table does not accept (accepted: ${o.keys.map((k) => k.id).join(', ')})`);
    body = await o.seal!.open(head, text, tag, key);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8Text(body));
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
