// Typed errors raised by generated code. Every error carries a stable `code` so callers can branch
// on it without parsing messages; key errors also name the entity, the key and the attribute.

/** Base class of every error ddbgen's generated code throws. */
export class DdbgenError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

export type KeyErrorCode =
  | 'KEY_PART_MISSING'
  | 'KEY_PART_EMPTY'
  | 'KEY_PART_TYPE'
  | 'KEY_PART_RANGE'
  | 'KEY_TOO_LONG'
  | 'KEY_PREFIX_GAP';

/**
 * A key could not be built from the values given. Raised before any request is sent.
 * `target` names the key (`Article.key.sk`), `attribute` the offending part, `limit` the bound broken.
 */
export class KeyValueError extends DdbgenError {
  readonly entity: string;
  readonly target: string;
  readonly attribute: string | undefined;
  readonly limit: string | undefined;
  constructor(
    code: KeyErrorCode,
    detail: { entity: string; target: string; attribute?: string; limit?: string; message: string },
  ) {
    super(code, `${detail.target}: ${detail.message}`);
    this.entity = detail.entity;
    this.target = detail.target;
    this.attribute = detail.attribute;
    this.limit = detail.limit;
  }
}

/** A stored key does not match the entity's key template. */
export class KeyParseError extends DdbgenError {
  readonly target: string;
  readonly key: string;
  constructor(target: string, key: string, reason: string) {
    super('KEY_PARSE', `${target}: cannot parse ${JSON.stringify(key)}: ${reason}`);
    this.target = target;
    this.key = key;
  }
}

/** A pagination cursor was malformed, from another query, or from other parameters. */
export class CursorError extends DdbgenError {
  constructor(reason: string) {
    super('CURSOR_INVALID', `invalid cursor: ${reason}`);
  }
}

/** `create` found an item with the same key already in the table. */
export class ItemExistsError extends DdbgenError {
  readonly entity: string;
  readonly key: Readonly<Record<string, string>>;
  constructor(entity: string, key: Record<string, string>, cause?: unknown) {
    super('ITEM_EXISTS', `${entity} ${JSON.stringify(key)} already exists`, { cause });
    this.entity = entity;
    this.key = key;
  }
}

/** `update` was asked to change an item that does not exist. */
export class ItemNotFoundError extends DdbgenError {
  readonly entity: string;
  readonly key: Readonly<Record<string, string>>;
  constructor(entity: string, key: Record<string, string>, cause?: unknown) {
    super('ITEM_NOT_FOUND', `${entity} ${JSON.stringify(key)} does not exist`, { cause });
    this.entity = entity;
    this.key = key;
  }
}

/** A value given to a generated method is not of the declared type. */
export class ValueError extends DdbgenError {
  readonly entity: string;
  readonly attribute: string;
  constructor(entity: string, attribute: string, message: string) {
    super('VALUE_INVALID', `${entity}.${attribute}: ${message}`);
    this.entity = entity;
    this.attribute = attribute;
  }
}

/** True when `error` is the SDK's ConditionalCheckFailedException. */
export function isConditionalCheckFailed(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'ConditionalCheckFailedException';
}
