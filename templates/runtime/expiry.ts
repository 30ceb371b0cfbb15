// Time to live on reads. DynamoDB deletes an expired item only some time after its TTL (typically
// within 48 hours), and reads return it until then; ddbgen's reads hide it from its TTL on, unless
// asked with `includeExpired`. The check runs on each stored record as it arrives, client-side, for
// every read (GetItem and BatchGetItem have no FilterExpression; a FilterExpression would cost the
// same read units and cut pages before the filter just the same), and DynamoDB's own positions stay
// the cursors. As DynamoDB does, a record whose TTL attribute is absent or not a number never expires.
// "Now" is the context's clock: the system's, or the in-memory table's when it is the client, so a
// test that moves the table's clock reads what production would read at that time.

import { hasOwn } from './key-definition.js';

/** The option every read takes on a table with a TTL attribute. */
export interface ExpiryOptions {
  /** Return items whose TTL has passed but that DynamoDB has not deleted yet. Default false. */
  readonly includeExpired?: boolean;
}

/** What a read needs of its context to hide expired records: the TTL attribute and the clock. */
export interface ExpiryContext {
  readonly ttl?: string;
  /** Milliseconds since the epoch; absent: the system's clock (Date.now). */
  readonly now?: () => number;
}

/**
 * The key under which a client offers a clock of its own (the in-memory table does,
 * in-memory/table.ts): a registered symbol, so that every output's copy of the runtime finds it.
 */
const CLIENT_CLOCK = Symbol.for('ddbgen.clock');

/** The client's own clock as a context member (`{ now }`), or nothing when it has none (the system's clock is used). */
export function clientClock(client: object): { readonly now?: () => number } {
  const now = (client as { readonly [CLIENT_CLOCK]?: unknown })[CLIENT_CLOCK];
  return typeof now === 'function' ? { now: now as () => number } : {};
}

/** Now, by the context's clock, in milliseconds since the epoch. */
export const nowOf = (ctx: ExpiryContext): number => (ctx.now === undefined ? Date.now() : ctx.now());

/** Whether a stored record's TTL attribute (epoch seconds) is at or before `now` (ms since the epoch). */
export function isExpired(stored: Readonly<Record<string, unknown>>, attribute: string, now: number): boolean {
  const ttl = hasOwn(stored, attribute) ? stored[attribute] : undefined;
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl * 1000 <= now;
}

/**
 * The records a read keeps: every one when the table has no TTL attribute or the caller asked for
 * expired items, else those not expired at the time of the call by the context's clock.
 */
export function unexpired(ctx: ExpiryContext, options: ExpiryOptions = {}): (stored: Readonly<Record<string, unknown>>) => boolean {
  const { ttl } = ctx;
  if (ttl === undefined || options.includeExpired === true) return () => true;
  const now = nowOf(ctx);
  return (stored) => !isExpired(stored, ttl, now);
}
