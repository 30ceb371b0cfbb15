// The read cap of `ddbgen pull`: no one-second window holds more than the cap's read units, counted
// from the ConsumedCapacity DynamoDB reports. A page's cost is known only once it is answered, so
// each page is sized before it is sent: the first asks for one item (nothing else is sent until it is
// answered), each later one for as many items as the cap pays for (at most the items wanted) at the
// most units per item of the last page and of the pages answered within the last second, plus half a
// unit for rounding (a Scan page costs half a unit per started 4 KB, eventually consistent), and
// waits until the window has those units left. A page counts against every window it may overlap:
// from when it is sent until a second after it was answered. So the cap holds unless items grow
// larger than the pages before them showed; a page that costs more than estimated leaves that much
// less to the next second. A page of one item that alone costs more than the cap goes alone, in an
// empty window.

/** One page in the window: its estimate until answered, then what DynamoDB reported. */
interface Charge {
  units: number;
  /** Items it returned (per-item cost), once answered. */
  items?: number;
  /** When it was answered (ms). */
  answered?: number;
}

export interface WindowClock {
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** A page admitted by the window: the `Limit` to send, and `settle` to call with what it cost. */
export interface AdmittedPage {
  readonly limit: number;
  /** Charges what DynamoDB reported (undefined: the page failed, its estimate stands) for `items` items. */
  settle(units: number | undefined, items: number): void;
}

/** The window the cap holds over (ms). */
const WINDOW_MS = 1000;
/** A Scan page's cost rounds up to half a unit (a started 4 KB, eventually consistent). */
const ROUNDING = 0.5;
/** How soon a page waiting on pages still unanswered looks again (ms). */
const UNANSWERED_POLL_MS = 10;

export class ReadWindow {
  private readonly charges: Charge[] = [];
  /** Units per item of the last page that returned items (undefined before the first). */
  private lastPerItem: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly perSecond: number;
  private readonly clock: WindowClock;

  constructor(perSecond: number, clock: WindowClock) {
    this.perSecond = perSecond;
    this.clock = clock;
  }

  /** Waits until a page of up to `wanted` items fits the window, then admits it with the Limit the units left pay for. */
  admit(wanted: number): Promise<AdmittedPage> {
    const turn = this.queue.then(async () => {
      for (;;) {
        const admitted = this.tryAdmit(wanted);
        if (typeof admitted !== 'number') return admitted;
        await this.clock.sleep(admitted);
      }
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** The admitted page, or the milliseconds to wait before looking again. */
  private tryAdmit(wanted: number): AdmittedPage | number {
    const now = this.clock.now();
    const open = this.charges.filter((c) => c.answered === undefined || c.answered > now - WINDOW_MS);
    this.charges.splice(0, this.charges.length, ...open);
    const inWindow = open.reduce((sum, c) => sum + c.units, 0);
    const perItem = Math.max(this.lastPerItem ?? 0, ...open.filter((c) => c.items).map((c) => c.units / c.items!));
    let limit: number;
    let estimate: number;
    if (this.lastPerItem === undefined) {
      // nothing is known of the items yet: one of them, alone, before anything else
      limit = open.length ? 0 : 1;
      estimate = this.perSecond;
    } else {
      // the largest page the cap pays for, sent when the window holds its units (or is empty, for a
      // page of one item that costs more than the cap): waiting for room rather than sending the
      // rest of the window in small pages keeps each page's rounding small
      limit = Math.max(1, Math.min(wanted, Math.floor((this.perSecond - ROUNDING) / perItem)));
      estimate = limit * perItem + ROUNDING;
      if (open.length && inWindow + estimate > this.perSecond) limit = 0;
    }
    if (limit < 1) {
      // the window frees up as its pages are answered and their second passes
      const leaving = open.filter((c) => c.answered !== undefined).map((c) => c.answered! + WINDOW_MS - now);
      return open.some((c) => c.answered === undefined) ? UNANSWERED_POLL_MS : Math.max(1, Math.min(...leaving));
    }
    const charge: Charge = { units: estimate };
    this.charges.push(charge);
    return {
      limit,
      settle: (units, items) => {
        charge.units = units ?? charge.units;
        charge.answered = this.clock.now();
        if (units !== undefined && items > 0) {
          charge.items = items;
          this.lastPerItem = units / items;
        }
      },
    };
  }
}
