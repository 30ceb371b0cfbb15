// `status` of a coordinated migration: the run as the lease table holds it (segments done, counts,
// workers alive, items per second, the ETA and the skipped items), read by any process, worker or
// not, and printed as text.

import { DEFAULT_LEASE_MS, RUN, readRun, stateOf, type CoordinationOptions } from './lease-table.js';
import type { MigrationPlan } from './plan.js';
import { emptyCounts, type SegmentCounts, type SkippedItem } from './segment-state.js';

/** The whole run, from the lease table. */
export interface MigrationStatus {
  readonly migration: string;
  readonly table: string;
  readonly segments: number;
  readonly done: number;
  readonly inProgress: number;
  readonly counts: SegmentCounts;
  /**
   * Items scanned so far: while the run goes on, as the workers report them item by item at each
   * heartbeat (the counts move a page at a time; items a dead worker scanned are scanned again by
   * the next owner); once it is done, the counts' exact figure.
   */
  readonly scanned: number;
  /** The table's item count when the run started (DescribeTable: refreshed by DynamoDB about every 6 hours). */
  readonly itemCount: number;
  readonly workers: ReadonlyArray<{ readonly worker: string; readonly segments: number; readonly scanned: number; readonly heartbeatAgoSeconds: number }>;
  readonly itemsPerSecond: number;
  /** Seconds left at the run's pace so far; 0 when done, undefined before anything was scanned. */
  readonly etaSeconds: number | undefined;
  readonly maxWcu: number;
  /** The run's lease length: a worker whose last heartbeat is older is not counted alive (the workers judge so too). */
  readonly leaseSeconds: number;
  /** Write units consumed on the table by every worker so far (a dead worker's as of its last heartbeat). */
  readonly consumedWcu: number;
  readonly skipped: readonly SkippedItem[];
}

/**
 * The run as the lease table holds it: progress, counts, workers, rate and ETA, skipped items. A
 * worker is alive while its last heartbeat is within the run's lease length (stored with the run;
 * `leaseMs` only for a run started by a worker that did not store it), as the workers judge it.
 */
export async function migrationStatus(plan: MigrationPlan, options: Pick<CoordinationOptions, 'client' | 'leaseTable'> & { readonly leaseMs?: number }): Promise<MigrationStatus | undefined> {
  // no lease table yet (no worker has started): no run, as when the table holds none
  const items = await readRun(options.client, options.leaseTable, plan.id).catch((error: unknown) => {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') return [];
    throw error;
  });
  const run = items.find((i) => i.sk === RUN);
  if (!run) return undefined;
  const now = Date.now();
  const segments = items.filter((i) => String(i.sk).startsWith('SEGMENT#'));
  const workers = items.filter((i) => String(i.sk).startsWith('WORKER#'));
  const counts = emptyCounts();
  for (const s of segments) for (const [k, v] of Object.entries(stateOf(s).counts)) counts[k as keyof SegmentCounts] += v;
  const itemCount = Number(run.itemCount ?? 0);
  const startedAt = Number(run.startedAt);
  const done = segments.filter((s) => s.done === true).length;
  const total = Number(run.segments);
  // the rate and the ETA go by the items the workers report at each heartbeat, item by item (the
  // segments' counts move a page at a time), until the latest heartbeat or checkpoint
  const scanned = done === total ? counts.scanned : Math.max(counts.scanned, workers.reduce((sum, w) => sum + Number(w.scanned ?? 0), 0));
  const last = Math.max(startedAt, ...segments.map((s) => Number(s.updatedAt ?? 0)), ...workers.map((w) => Number(w.heartbeatAt ?? 0)));
  const seconds = Math.max(0.001, (last - startedAt) / 1000);
  // how far the run is: by items against the table's count (items moved into segments not yet
  // scanned are scanned again, so this can run ahead) or by segments done, whichever is further
  const fraction = done === total ? 1 : Math.min(0.99, Math.max(itemCount ? scanned / itemCount : 0, done / total));
  const leaseMs = Number(run.leaseMs ?? options.leaseMs ?? DEFAULT_LEASE_MS);
  return {
    migration: plan.id,
    table: String(run.table),
    segments: total,
    done,
    inProgress: segments.filter((s) => s.done !== true && s.owner !== undefined).length,
    counts,
    scanned,
    itemCount,
    workers: workers
      .filter((w) => w.finished !== true && now - Number(w.heartbeatAt) <= leaseMs)
      .map((w) => ({ worker: String(w.worker), segments: Number(w.segments), scanned: Number(w.scanned), heartbeatAgoSeconds: Math.round((now - Number(w.heartbeatAt)) / 100) / 10 })),
    itemsPerSecond: Math.round(scanned / seconds),
    etaSeconds: fraction === 1 ? 0 : fraction > 0 ? Math.round((seconds * (1 - fraction)) / fraction) : undefined,
    maxWcu: Number(run.maxWcu),
    leaseSeconds: leaseMs / 1000,
    consumedWcu: workers.reduce((sum, w) => sum + Number(w.consumed ?? 0), 0),
    skipped: items.filter((i) => String(i.sk).startsWith('SKIPPED#')).map((i) => ({ key: JSON.parse(String(i.key)) as Record<string, unknown>, reason: String(i.reason) })),
  };
}

/** `status` as text: one line of progress, one of counts, one of rate and ETA, then the workers. */
export function statusText(status: MigrationStatus): string {
  const c = status.counts;
  const share = status.itemCount ? ` (${Math.min(100, Math.round((100 * status.scanned) / status.itemCount))} %)` : '';
  return [
    `migration ${status.migration} on table ${status.table}: ${status.done} of ${status.segments} segments done, ${status.inProgress} in progress, ${status.workers.length} worker${status.workers.length === 1 ? '' : 's'} alive`,
    `items: ${status.scanned} scanned of ~${status.itemCount}${share}: ${c.rewritten} rewritten, ${c.backfilled} backfilled, ${c.current} already done, ${c.superseded} superseded, ${c.unchanged} unchanged, ${c.skipped} skipped`,
    `rate: ${status.itemsPerSecond} items/s since the start, ${status.consumedWcu} WCU consumed (cap ${status.maxWcu} WCU/s); ${status.etaSeconds === undefined ? 'ETA unknown until items are scanned' : status.etaSeconds === 0 ? 'finished' : `ETA ${status.etaSeconds} s`}`,
    ...status.workers.map((w) => `  worker ${w.worker}: ${w.segments} segment${w.segments === 1 ? '' : 's'}, ${w.scanned} scanned, last heartbeat ${w.heartbeatAgoSeconds} s ago`),
    ...status.skipped.map((s) => `  skipped ${JSON.stringify(s.key)}: ${s.reason}`),
  ].join('\n');
}
