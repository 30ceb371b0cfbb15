// The shapes every generated repository and the runtime's operations share: where commands go and
// how (`TableContext`, with its retry policies), and an entity's keys, indexes and conversions
// (`EntityModel`, emitted as a constant per entity). Types only: the operations (repository.ts,
// batch.ts, transaction.ts, write.ts) import them from here, so none of them imports another for
// a type.

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KeyCodec } from './codec.js';
import type { CursorOptions } from './cursor.js';
import type { AttributeCodecs, AttributeType, AttributeTypes } from './item.js';
import type { PiiFingerprint } from './pii-fingerprint.js';

/** The period of a rotated table: one physical table per day, ISO week, month or year. */
/** The DynamoDB operation each DocumentClient command sends (what the in-memory table answers, and what telemetry names a request). */
export const COMMAND_OPERATIONS = {
  GetCommand: 'GetItem',
  PutCommand: 'PutItem',
  UpdateCommand: 'UpdateItem',
  DeleteCommand: 'DeleteItem',
  QueryCommand: 'Query',
  ScanCommand: 'Scan',
  BatchGetCommand: 'BatchGetItem',
  BatchWriteCommand: 'BatchWriteItem',
  TransactGetCommand: 'TransactGetItems',
  TransactWriteCommand: 'TransactWriteItems',
} as const;

export type RotationPeriod = 'day' | 'week' | 'month' | 'year';

/** Where generated repositories send their commands, and how. */
export interface TableContext {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly cursor?: CursorOptions;
  /** Retries of batch reads and writes. */
  readonly retry?: RetryPolicy;
  /** Retries of transactions cancelled by conflicts. */
  readonly transactionRetry?: TransactionRetryPolicy;
  /** Shard queries in flight at once when a query gathers over a sharded key. Default 8. */
  readonly gatherConcurrency?: number;
  /** For a rotated table: the base name and period, so a time range can be read across its tables. */
  readonly rotation?: { readonly base: string; readonly every: RotationPeriod };
  /** The table's TTL attribute: reads hide records past it unless asked with `includeExpired`. */
  readonly ttl?: string;
  /**
   * The clock reads hide expired records by (milliseconds since the epoch): the client's own when
   * it has one (the in-memory table's, `clientClock`), else absent and the system's.
   */
  readonly now?: () => number;
  /** What errors key the fingerprints of key parts marked pii with (the table's `piiSecret`, checked); absent: the process's random key. */
  readonly piiSecret?: string;
  /** Telemetry per access pattern (telemetry.ts): set, each function form's call is one operation it reports. */
  readonly telemetry?: OperationTelemetry;
}

/** What a function form asks of telemetry (telemetry.ts implements it): the types only, so this module imports none of it. */
export interface OperationTelemetry {
  /**
   * One call of an operation's function form (`orderGet(context, key)`) as one operation named
   * `<Entity>.<method>`: `run` is the function form itself, called again with its arguments (`args`,
   * the context first) but a context of the operation's own, without telemetry; its result, as
   * `run` returns it. `pattern` is the access pattern when it is not the method (`queryAll` iterates `query`).
   */
  call(model: EntityModel, method: string, run: (context: TableContext, ...args: never[]) => unknown, args: ArrayLike<unknown>, pattern?: string): unknown;
}

export interface KeyAttributeModel {
  /** Physical attribute name, e.g. `pk` or `gsi1pk`. */
  readonly attribute: string;
  readonly template: KeyCodec;
}

/** How an entity's items appear in one secondary index. */
export interface IndexModel {
  readonly name: string;
  /** The index's IndexName in DynamoDB, when it is not `name`. */
  readonly indexName?: string;
  readonly kind: 'gsi' | 'lsi';
  /** The index's partition key; for an LSI, the table's. */
  readonly pk: KeyAttributeModel;
  readonly sk?: KeyAttributeModel;
  /** Attributes its key templates read. */
  readonly inputs: readonly string[];
  /** The optional ones among them: the item is in the index only when all are present. */
  readonly optional: readonly string[];
  readonly projection: 'all' | 'keys-only' | readonly string[];
}

/** An entity's keys and conversions, emitted as a constant per entity. */
export interface EntityModel {
  readonly name: string;
  readonly pk: KeyAttributeModel;
  readonly sk: KeyAttributeModel | undefined;
  readonly indexes: readonly IndexModel[];
  readonly codecs: AttributeCodecs;
  /** Each declared attribute's type and bounds: a write's values are checked against them before any request. */
  readonly types?: AttributeTypes;
  /**
   * Checks a written value against its type (`types`): `checkValue`, or `checkScalar` for a model
   * whose attributes are all strings, numbers, booleans, timestamps and enums. The model names it,
   * so a bundle keeps the checks of the kinds its entities have.
   */
  check(entity: string, path: string, type: AttributeType, value: unknown): void;
  /** Declared attribute names: a write naming another is a ValidationError, a read drops others (unless `passthrough`). */
  readonly attributes: readonly string[];
  /** Declared attributes that are not optional: `update` cannot remove them. */
  readonly required: readonly string[];
  /** Attributes marked pii: error messages print a fingerprint of them, never the value. */
  readonly pii?: readonly string[];
  /** How errors fingerprint them, keyed with the table's `piiSecret` or the process's key (`piiFingerprint`): set when `pii` is. */
  readonly fingerprint?: (piiSecret: string | undefined) => PiiFingerprint;
  /** Undeclared attributes are written and read as given (entity({ passthrough: true })). */
  readonly passthrough?: boolean;
  /** Every key attribute of the table and its indexes: added on write, stripped on read. */
  readonly keyAttributes: readonly string[];
  /** Attributes read by the primary key: `update` cannot change them (the item would move). */
  readonly primaryParts: readonly string[];
  /** The optimistic-locking version attribute, if the entity declares one. */
  readonly version?: string;
  /** Attributes the table holds under another name (`.storedAs`): property name → stored name. */
  readonly storedNames?: Readonly<Record<string, string>>;
  /**
   * Attributes with a fixed value on every item of the entity (`{ _et: 'User' }`): written with each
   * item (and listed in `keyAttributes`, so they are never an item's), and a record whose values
   * differ is another entity's.
   */
  readonly discriminator?: Readonly<Record<string, string>>;
  /** Native multi-attribute GSIs the entity maps into (their keys are its own attributes, or copies of them). */
  readonly nativeIndexes?: readonly NativeIndexModel[];
  /**
   * The entity's item → stored record conversion, generated straight-line (checked, converted, keys
   * built), or `genericRecord` for an entity without one (a passthrough entity): the model names
   * it, so a bundle keeps the generic conversion only for a model that uses it.
   */
  toRecord(item: object): Record<string, unknown>;
  /** The entity's stored record → item conversion, generated straight-line, or `genericItem`. */
  toItem(record: Readonly<Record<string, unknown>>): object;
}

/** One key attribute of a native index: the index's attribute and the entity attribute it holds. */
export type NativeKeyAttribute = readonly [attribute: string, source: string];

/** How an entity's items appear in one native GSI. */
export interface NativeIndexModel {
  readonly name: string;
  /** Its projection leaves out the entity's discriminator: its records are told apart by their keys alone. */
  readonly withoutDiscriminator?: true;
  /** The partition-key attributes, in key order. */
  readonly partition: readonly NativeKeyAttribute[];
  /** The sort-key attributes, in key order. */
  readonly sort: readonly NativeKeyAttribute[];
}

export interface RetryPolicy {
  /** Attempts in a row that process nothing before a batch gives up; any progress starts the count again. Default 16. */
  readonly maxAttempts?: number;
  /** First backoff ceiling in ms. Default 25. */
  readonly baseDelayMs?: number;
  /** Largest backoff ceiling in ms. Default 2000. */
  readonly maxDelayMs?: number;
  /** Longest time a batch may go without processing anything, in ms. Default 30000. */
  readonly budgetMs?: number;
  /** Requests in flight at once. Default 4. */
  readonly concurrency?: number;
  /** Injectable for tests: uniform in [0, 1). */
  readonly random?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

/** How a transaction cancelled only by TransactionConflict (or still in progress) is retried, with the same token. */
export interface TransactionRetryPolicy {
  /** Attempts, the first included. Default 5. */
  readonly maxAttempts?: number;
  /** First backoff ceiling in ms. Default 25. */
  readonly baseDelayMs?: number;
  /** Largest backoff ceiling in ms. Default 2000. */
  readonly maxDelayMs?: number;
  /** Injectable for tests: uniform in [0, 1). */
  readonly random?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}
