// The in-memory engine's public options and records: what an app's tests give `InMemoryDynamoDB`
// (engine.ts, table.ts) and get back from it.

import type { UpdateTimeToLiveCommandInput } from '@aws-sdk/client-dynamodb';
import type { AttributeMap } from './value.js';

/** DynamoDB's API names of the operations the in-memory table answers. */
export type InMemoryOperation = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query' | 'Scan' | 'BatchGetItem' | 'BatchWriteItem' | 'TransactGetItems' | 'TransactWriteItems';

/** A fault to answer a request with instead of (or besides) what DynamoDB would answer. */
export type Fault =
  /** Throttled: ProvisionedThroughputExceededException with ThrottlingReasons (ThrottlingException for an on-demand maximum, `reason` ending in MaxOnDemandThroughputExceeded). */
  | { readonly kind: 'throttle'; readonly reason?: string }
  /** Batch requests: this share of the items or keys (default 0.5, at least one) comes back unprocessed, the rest is done. */
  | { readonly kind: 'unprocessed'; readonly share?: number }
  /** TransactWriteItems is cancelled with TransactionConflict on its first item; a single write fails with TransactionConflictException. */
  | { readonly kind: 'conflict' }
  /** A 5xx: InternalServerError (500) or ServiceUnavailable (503); `applied`: the write happened before the error (an ambiguous failure). */
  | { readonly kind: 'server-error'; readonly status?: 500 | 503; readonly applied?: boolean }
  /** The answer comes after `ms` milliseconds of real time. */
  | { readonly kind: 'latency'; readonly ms: number };

export interface FaultRule {
  readonly fault: Fault;
  /** The operations it applies to (default: every one). */
  readonly operations?: readonly InMemoryOperation[];
  /** The chance that a matching request gets the fault, drawn from the seeded generator (default 1). */
  readonly probability?: number;
  /** How many requests get the fault before the rule is spent (default: no end). */
  readonly times?: number;
}

export interface InMemoryOptions {
  /** Seeds the generator that decides faults with a probability and which batch items are left unprocessed (default 1). */
  readonly seed?: number;
  /**
   * The clock's start. Given, the clock stands still but for `advanceTime`; absent, it is the
   * system clock plus whatever `advanceTime` added.
   */
  readonly now?: Date | number;
  /** How far global secondary indexes lag behind the table, in milliseconds of the table's clock (default 0: at once). */
  readonly gsiLagMs?: number;
  /** Attempts per request for throttles and 5xx faults, as the SDK's standard retry makes them (default 3, without waiting). */
  readonly maxAttempts?: number;
  /** Named in ARNs (default 'local'). */
  readonly region?: string;
}

/** A stream record as the Streams API's GetRecords returns it (what the generated stream decoder and handler read). */
export interface InMemoryStreamRecord {
  readonly eventID: string;
  readonly eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  readonly eventVersion: '1.1';
  readonly eventSource: 'aws:dynamodb';
  readonly awsRegion: string;
  readonly dynamodb: {
    readonly ApproximateCreationDateTime: Date;
    readonly Keys: AttributeMap;
    readonly NewImage?: AttributeMap;
    readonly OldImage?: AttributeMap;
    readonly SequenceNumber: string;
    readonly SizeBytes: number;
    readonly StreamViewType: string;
  };
  /** Present on removals by Time to Live. */
  readonly userIdentity?: { readonly PrincipalId: 'dynamodb.amazonaws.com'; readonly Type: 'Service' };
}

/**
 * Settings CreateTable does not take (the generated `<table>TableSettings()`): Time to Live changes
 * how the table answers; the others (point-in-time recovery, …) are accepted and change nothing.
 */
export interface InMemoryTableSettings {
  readonly timeToLive?: UpdateTimeToLiveCommandInput | undefined;
  readonly [setting: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Keys and the table's shape.
