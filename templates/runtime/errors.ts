// Typed errors raised by generated code, in one hierarchy with stable `code`s so callers branch on
// classes or codes, never on messages:
//
//   DdbgenError
//   ├─ KeyError              a key could not be built (KeyValueError) or parsed (KeyParseError)
//   ├─ ValidationError       a value, update or request is invalid before anything is sent
//   │    └─ ItemTooLargeError
//   ├─ ConditionFailedError  a write's condition did not hold
//   │    ├─ ItemExistsError, ItemNotFoundError
//   │    └─ VersionConflictError
//   ├─ TransactionError      a transaction was cancelled (reasons per item)
//   ├─ AmbiguousWriteError   a non-idempotent write failed in a way that may or may not have applied
//   ├─ BatchError            a batch stopped on an error it does not retry; what landed and what did not
//   │    └─ UnprocessedItemsError  a batch made no progress within its retry budget
//   ├─ CursorError           a cursor is malformed, foreign, tampered with or expired
//   └─ ConfigurationError    the table's options are unusable (a cursor secret too short, …)
//
// Errors never carry stored data unless asked: messages name an item by its entity and its key
// parts, printing a short fingerprint for parts marked `pii`; raw keys, old items and unprocessed
// items sit in non-enumerable properties, so logging an error (console.error, util.inspect,
// JSON.stringify) does not print them; an SDK cause is kept without the item it returned.
//
// Every output module reaches this one, so the reference below gives the user's program the ES2020
// library declarations the output uses (Object.entries, flatMap, AsyncGenerator…) even under
// `tsc --init` defaults that target ES2016; Node 20 has them all at run time.
/// <reference lib="es2020" preserve="true" />

/** Base class of every error ddbgen's generated code throws. */
export class DdbgenError extends Error {
  readonly code: string;
  /** The error that led to this one, if any (set here, so no ES2022 lib is needed to read it). */
  declare readonly cause?: unknown;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    if (options && 'cause' in options) Object.defineProperty(this, 'cause', { value: options.cause, writable: true, configurable: true, enumerable: false });
  }
}

export type KeyErrorCode = 'KEY_PART_MISSING' | 'KEY_PART_EMPTY' | 'KEY_PART_TYPE' | 'KEY_PART_RANGE' | 'KEY_PART_DELIMITER' | 'KEY_TOO_LONG' | 'KEY_PREFIX_GAP' | 'KEY_PARSE';

/** Defines `name` on `target` as a read-only, non-enumerable property: reachable, but not logged. */
export function hideProperty(target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: false, writable: false, configurable: true });
}

/**
 * Removes the stored items an SDK error carries (`Item` of ConditionalCheckFailedException, the
 * `Item` of each transaction cancellation reason), so it can be kept as a `cause` without them.
 */
export function withoutItems<E>(error: E): E {
  if (typeof error !== 'object' || error === null) return error;
  const record = error as { Item?: unknown; CancellationReasons?: unknown };
  if (Object.prototype.hasOwnProperty.call(record, 'Item')) delete record.Item;
  if (Array.isArray(record.CancellationReasons)) {
    for (const reason of record.CancellationReasons as Array<{ Item?: unknown } | null>) if (reason && Object.prototype.hasOwnProperty.call(reason, 'Item')) delete reason.Item;
  }
  return error;
}

/** A key could not be built or parsed. */
export class KeyError extends DdbgenError {
  readonly target: string;
  constructor(code: KeyErrorCode, target: string, message: string) {
    super(code, message);
    this.target = target;
  }
}

/**
 * A key could not be built from the values given. Raised before any request is sent.
 * `target` names the key (`Article.key.sk`), `attribute` the offending part, `limit` the bound broken.
 */
export class KeyValueError extends KeyError {
  readonly entity: string;
  readonly attribute: string | undefined;
  readonly limit: string | undefined;
  constructor(
    code: Exclude<KeyErrorCode, 'KEY_PARSE'>,
    detail: { entity: string; target: string; attribute?: string; limit?: string; message: string },
  ) {
    super(code, detail.target, `${detail.target}: ${detail.message}`);
    this.entity = detail.entity;
    this.attribute = detail.attribute;
    this.limit = detail.limit;
  }
}

/** A stored key does not match the entity's key template. */
export class KeyParseError extends KeyError {
  readonly key: string;
  /** The key codec version that wrote the key, when it is an older one than this code reads. */
  readonly codecVersion?: number;
  constructor(target: string, key: string, reason: string, options: { codecVersion?: number } = {}) {
    super('KEY_PARSE', target, `${target}: cannot parse ${JSON.stringify(key)}: ${reason}`);
    this.key = key;
    if (options.codecVersion !== undefined) this.codecVersion = options.codecVersion;
  }
}

/** A value, update or request is invalid; raised before anything is sent. */
export class ValidationError extends DdbgenError {
  readonly entity: string;
  readonly attribute: string;
  constructor(entity: string, attribute: string, message: string, code = 'VALUE_INVALID') {
    super(code, `${entity}.${attribute}: ${message}`);
    this.entity = entity;
    this.attribute = attribute;
  }
}

/** An item is larger than DynamoDB's 400 KB, by DynamoDB's own size formula. */
export class ItemTooLargeError extends ValidationError {
  readonly bytes: number;
  constructor(entity: string, bytes: number, limit: number) {
    super(entity, '(item)', `the item is ${bytes} bytes by DynamoDB's size formula, above the ${limit}-byte limit`, 'ITEM_TOO_LARGE');
    this.bytes = bytes;
  }
}

/** What a failed condition's error knows besides the entity and key. */
export interface ConditionFailure {
  /** How the message names the item: `User { id: "u1" }` (pii parts fingerprinted). Default: the entity and its key attribute names. */
  readonly described?: string;
  /** The SDK's error, without the item it returned. */
  readonly cause?: unknown;
  /** The item as it was, only when the write asked for it (`returnValuesOnConditionFailure: 'old'`). */
  readonly old?: Readonly<Record<string, unknown>>;
}

/** An item named by its entity and key attribute names only: `User (pk, sk)`. */
const keyNames = (entity: string, key: Readonly<Record<string, string>>) => `${entity} (${Object.keys(key).join(', ')})`;

/**
 * A write's condition did not hold; nothing was written. `key` (the table key) and `old` (the item
 * as it was, when asked for) are not enumerable, so logging the error does not print them.
 */
export class ConditionFailedError extends DdbgenError {
  readonly entity: string;
  declare readonly key: Readonly<Record<string, string>>;
  declare readonly old: Readonly<Record<string, unknown>> | undefined;
  constructor(entity: string, key: Record<string, string>, reason: string, failure: ConditionFailure & { code?: string } = {}) {
    super(failure.code ?? 'CONDITION_FAILED', `${failure.described ?? keyNames(entity, key)}: ${reason}`, { cause: withoutItems(failure.cause) });
    this.entity = entity;
    hideProperty(this, 'key', key);
    hideProperty(this, 'old', failure.old);
  }
}

/** `create` found an item with the same key already in the table. */
export class ItemExistsError extends ConditionFailedError {
  constructor(entity: string, key: Record<string, string>, failure: ConditionFailure = {}) {
    super(entity, key, 'already exists', { ...failure, code: 'ITEM_EXISTS' });
  }
}

/** `update`, `replace` or a versioned write found no item with this key. */
export class ItemNotFoundError extends ConditionFailedError {
  constructor(entity: string, key: Record<string, string>, failure: ConditionFailure = {}) {
    super(entity, key, 'does not exist', { ...failure, code: 'ITEM_NOT_FOUND' });
  }
}

/** Optimistic locking: the item's version is not the one the write expected (someone wrote first). */
export class VersionConflictError extends ConditionFailedError {
  readonly expected: number | undefined;
  constructor(entity: string, key: Record<string, string>, expected: number | undefined, failure: ConditionFailure = {}) {
    super(entity, key, `is not at version ${expected ?? '(new)'}: it was changed since it was read`, { ...failure, code: 'VERSION_CONFLICT' });
    this.expected = expected;
  }
}

/** Why one item of a cancelled transaction failed. */
export interface TransactionItemFailure {
  /** Position of the item in the transaction. */
  readonly index: number;
  readonly operation: 'put' | 'update' | 'delete' | 'check';
  readonly entity: string;
  /** The table key (not enumerable: logging the error does not print it). */
  readonly key: Readonly<Record<string, string>>;
  /** How messages name the item: `User { id: "u1" }`, pii parts fingerprinted. */
  readonly described?: string;
  /** DynamoDB's cancellation code: ConditionalCheckFailed, TransactionConflict, ItemCollectionSizeLimitExceeded, … */
  readonly reason: string;
  readonly message: string | undefined;
  /** For a failed condition: the typed error the write alone would have raised (VersionConflictError, …). */
  readonly error?: DdbgenError;
}

/** A transaction was cancelled; `failures` names each item that caused it and why. Nothing was written. */
export class TransactionError extends DdbgenError {
  readonly failures: readonly TransactionItemFailure[];
  constructor(failures: readonly TransactionItemFailure[], cause?: unknown) {
    const what = failures.map((f) => `${f.operation} ${f.described ?? keyNames(f.entity, f.key)}: ${f.reason}`).join('; ');
    super('TRANSACTION_CANCELLED', `transaction cancelled, nothing written: ${what || 'no reason given'}`, { cause: withoutItems(cause) });
    this.failures = failures;
  }
}

/**
 * A non-idempotent write (a counter `add`, a list `append`) failed with a timeout or server error:
 * it may or may not have been applied, so it was not retried. Read the item to find out.
 */
export class AmbiguousWriteError extends DdbgenError {
  readonly entity: string;
  declare readonly key: Readonly<Record<string, string>>;
  /** The SDK's error. Not `cause`: the SDK's retry logic follows `cause` and would retry it. */
  readonly original: unknown;
  constructor(entity: string, key: Record<string, string>, original: unknown, described?: string) {
    super('WRITE_AMBIGUOUS', `${described ?? keyNames(entity, key)}: the write may or may not have been applied (${(original as Error)?.name ?? 'error'}); it was not retried because it is not idempotent`);
    this.entity = entity;
    hideProperty(this, 'key', key);
    this.original = original;
  }
}

/** Which batch operation failed. */
export type BatchOperation = 'batchGet' | 'batchPut' | 'batchDelete';

/**
 * A batch stopped before finishing: on an error it does not retry (`cause`), or (as the subclass
 * UnprocessedItemsError) when its retries made no progress. It stopped sending, let the requests
 * in flight settle, and lists the caller's own values:
 * - `batchPut`: `written` holds the items written, `unprocessed` the items not written;
 * - `batchDelete`: `written` holds the keys deleted, `unprocessed` the keys not deleted;
 * - `batchGet`: `items` holds the items read (in the order of the keys), `unprocessed` the keys not read.
 * Retrying `unprocessed` is safe: puts and deletes are idempotent. A request superseded by a later
 * one for the same key in the same call is in neither list. These lists are not enumerable, so
 * logging the error does not print the data.
 */
export class BatchError<Done = unknown, Left = unknown> extends DdbgenError {
  readonly operation: BatchOperation;
  readonly entity: string;
  declare readonly written: readonly Done[];
  declare readonly items: readonly Done[];
  declare readonly unprocessed: readonly Left[];
  constructor(
    operation: BatchOperation,
    entity: string,
    outcome: { readonly done: readonly Done[]; readonly unprocessed: readonly Left[]; readonly cause?: unknown; readonly reason?: string },
    code = 'BATCH_FAILED',
  ) {
    const verb = operation === 'batchGet' ? 'read' : operation === 'batchPut' ? 'written' : 'deleted';
    const total = outcome.done.length + outcome.unprocessed.length;
    const why = outcome.reason ?? `stopped by ${(outcome.cause as Error | undefined)?.name ?? 'an error'}, which is not retried`;
    super(code, `${operation} ${entity}: ${why}; ${outcome.unprocessed.length} of ${total} not ${verb}, they are in error.unprocessed`, { cause: outcome.cause });
    this.operation = operation;
    this.entity = entity;
    hideProperty(this, 'written', operation === 'batchGet' ? [] : outcome.done);
    hideProperty(this, 'items', operation === 'batchGet' ? outcome.done : []);
    hideProperty(this, 'unprocessed', outcome.unprocessed);
  }
}

/** A batch gave up because its retries made no progress (unprocessed items, throttles); see BatchError. */
export class UnprocessedItemsError<Done = unknown, Left = unknown> extends BatchError<Done, Left> {
  readonly attempts: number;
  constructor(operation: BatchOperation, entity: string, outcome: { readonly done: readonly Done[]; readonly unprocessed: readonly Left[]; readonly cause?: unknown; readonly reason: string }, attempts: number) {
    super(operation, entity, outcome, 'UNPROCESSED_ITEMS');
    this.attempts = attempts;
  }
}

/** A pagination cursor was malformed, from another query, other parameters, tampered with or expired. */
export class CursorError extends DdbgenError {
  constructor(reason: string) {
    super('CURSOR_INVALID', `invalid cursor: ${reason}`);
  }
}

/** The table's options cannot work as given (a cursor secret too short, a key id reused, …); raised when the table is made. */
export class ConfigurationError extends DdbgenError {
  readonly option: string;
  constructor(option: string, message: string) {
    super('CONFIG_INVALID', `${option}: ${message}`);
    this.option = option;
  }
}

/** True when `error` is the SDK's ConditionalCheckFailedException. */
export function isConditionalCheckFailed(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'ConditionalCheckFailedException';
}
