// The write cap of a migration: a token bucket on consumed write units. A write is charged before
// it is sent, by what its known size costs (`writeUnits`: 1 unit per KB of each item written or
// deleted, doubled in a transaction), and the charge is corrected by the ConsumedCapacity DynamoDB
// returns. The bucket holds at most one second of the rate and may go into debt: a write waits
// until the bucket holds its cost (or a full second's worth, for a write that costs more), is
// charged, and the writes after it wait until the debt is repaid. On top of that, the charges of
// the last 10 seconds are kept, and a write is admitted only when the window ending with it stays
// within 10 seconds of the rate — so no 10-second window exceeds the cap, whatever the item sizes,
// unless one write alone costs more than that (it then goes through alone, in an empty window).
// Writes are admitted first come, first served: a large write is not starved by small ones.

import { defaultSleep } from '../batch.js';
import { itemSize } from '../item-size.js';

/** Write units of items of these sizes in bytes: 1 per KB (rounded up, 1 at least) each, doubled in a transaction. */
export function writeUnits(sizes: readonly number[], transaction = false): number {
  const units = sizes.reduce((sum, bytes) => sum + Math.max(1, Math.ceil(bytes / 1024)), 0);
  return transaction ? 2 * units : units;
}

/** The write units of writing (or deleting) these records, by DynamoDB's item-size formula. */
export function recordUnits(records: ReadonlyArray<Readonly<Record<string, unknown>>>, transaction = false): number {
  return writeUnits(records.map((r) => itemSize(r)), transaction);
}

/** A write admitted by the bucket: its estimate, corrected by `settle` once DynamoDB has reported. */
export interface Charge {
  readonly estimate: number;
  /** Admission time (ms). */
  readonly at: number;
  units: number;
  /** When DynamoDB answered (ms): the charge stays in the window until 10 seconds after. */
  settled?: number;
}

export interface BucketClock {
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** The window the cap holds over, in milliseconds (CloudWatch and the issue measure 10-second windows). */
export const WINDOW_MS = 10_000;

/** How soon a write waiting on a window full of unanswered writes looks again. */
const UNANSWERED_POLL_MS = 20;

export class CapacityBucket {
  private perSecondValue: number;
  private tokens: number;
  private last: number;
  /** Charges admitted and not yet 10 seconds answered, oldest first, and the sum of their units. */
  private recent: Charge[] = [];
  private recentSum = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly clock: BucketClock;
  /** Units consumed, as corrected by what DynamoDB reported. */
  consumed = 0;
  /** Consumption as reported, by response time: the busiest window so far (for the report). */
  private reported: Array<{ at: number; units: number }> = [];
  private reportedSum = 0;
  busiestWindow = 0;

  constructor(perSecond: number, clock: BucketClock = { now: Date.now, sleep: defaultSleep }) {
    if (!(perSecond > 0)) throw new RangeError(`the write cap must be above 0 units per second, got ${perSecond}`);
    this.perSecondValue = perSecond;
    this.clock = clock;
    this.last = clock.now();
    this.tokens = 0;
  }

  get perSecond(): number {
    return this.perSecondValue;
  }

  /**
   * Changes the rate (a coordinated worker's share of the global cap) from now. A lower rate also
   * starts the 10-second window afresh: the charges before it were made at the larger share, which
   * no other worker had meanwhile (the shares add up to the cap at every moment), so the worker goes
   * on at its new rate instead of stalling until they have left the window.
   */
  setRate(perSecond: number): void {
    if (!(perSecond > 0) || perSecond === this.perSecondValue) return;
    this.refill();
    if (perSecond < this.perSecondValue) {
      this.recent = [];
      this.recentSum = 0;
    }
    this.perSecondValue = perSecond;
    this.tokens = Math.min(this.tokens, perSecond);
  }

  private refill(): void {
    const at = this.clock.now();
    this.tokens = Math.min(this.perSecondValue, this.tokens + ((at - this.last) / 1000) * this.perSecondValue);
    this.last = at;
  }

  /**
   * Milliseconds until a write of `units` may go, 0 when it may go now. A charge leaves the window
   * 10 seconds after DynamoDB answered it, so a window counted by response time holds it too.
   */
  private wait(units: number): number {
    const now = this.clock.now();
    const gone = (c: Charge) => c.settled !== undefined && c.settled <= now - WINDOW_MS;
    while (this.recent.length && gone(this.recent[0]!)) this.recentSum -= this.recent.shift()!.units;
    const need = Math.min(units, this.perSecondValue);
    const forTokens = this.tokens >= need ? 0 : ((need - this.tokens) / this.perSecondValue) * 1000;
    const limit = (this.perSecondValue * WINDOW_MS) / 1000;
    let inWindow = this.recentSum;
    let forWindow = 0;
    for (let i = 0; inWindow > 0 && inWindow + units > limit; i++) {
      // the window frees up as its oldest charges leave it; one still unanswered is looked at again shortly
      const charge = this.recent[i]!;
      inWindow -= charge.units;
      forWindow = charge.settled === undefined ? Math.max(forWindow, UNANSWERED_POLL_MS) : Math.max(forWindow, charge.settled + WINDOW_MS - now);
    }
    return Math.max(forTokens, forWindow);
  }

  /** Waits until a write of `units` (its estimate) may go, then charges it. */
  take(units: number): Promise<Charge> {
    const turn = this.queue.then(async () => {
      for (;;) {
        this.refill();
        const ms = this.wait(units);
        if (ms <= 0) break;
        await this.clock.sleep(Math.ceil(ms));
      }
      this.tokens -= units;
      this.consumed += units;
      const charge: Charge = { estimate: units, at: this.clock.now(), units };
      this.recent.push(charge);
      this.recentSum += units;
      return charge;
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Corrects a charge by the units DynamoDB reported (undefined: it reported none, as for a
   * cancelled transaction or a failed condition, and the estimate stands).
   */
  settle(charge: Charge, reported: number | undefined): void {
    const units = reported ?? charge.estimate;
    if (units !== charge.units) {
      this.refill();
      this.tokens = Math.min(this.perSecondValue, this.tokens + charge.units - units);
      this.consumed += units - charge.units;
      if (this.recent.includes(charge)) this.recentSum += units - charge.units;
      charge.units = units;
    }
    charge.settled = this.clock.now();
    this.record(units);
  }

  /** Counts consumption by response time and keeps the busiest 10-second window seen. */
  private record(units: number): void {
    const at = this.clock.now();
    this.reported.push({ at, units });
    this.reportedSum += units;
    while (this.reported[0]!.at <= at - WINDOW_MS) this.reportedSum -= this.reported.shift()!.units;
    this.busiestWindow = Math.max(this.busiestWindow, this.reportedSum);
  }
}
