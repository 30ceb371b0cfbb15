// The engine behind programs emitted by `ddbgen diff --emit-migration`: reads every item by
// parallel scan segments, parses each with the old schema's key templates and builds it again with
// the new one's (item-rebuild.ts), and writes:
//
// - a rewritten key as one transaction: put the new item unless its key exists (a concurrent
//   new-style write wins) and delete the old one, so an item is never lost or doubled; an item is
//   moved only from its stored key (its attributes must build that key, and fit the declared types)
//   (item-migration.ts);
// - an old item whose new key a newer write holds is deleted in a transaction that checks the new
//   one is there: nothing is deleted unless its replacement is written (capped-write.ts);
// - a random-shard counter is merged into its new key by ADDing its numbers, in one transaction
//   with the delete of the old item conditioned on the counts added (each count exactly once)
//   (counter-merge.ts);
// - a backfill (index attributes only) as an update conditioned on the values it was computed from;
// - an edge item (node ids or keys re-encoded, delimiter or labels changed) moves together with its
//   other half in one transaction, so an edge is always whole in one form or the other
//   (edge-classification.ts, edge-moves.ts).
//
// A segment (segment-run.ts) saves each page's planned writes before sending them and its counts
// and next start after (SegmentStore: files in file-checkpoints.ts, a lease table in
// lease-store.ts), so a restarted run resumes where it stopped and counts the writes of a page it
// left mid-way; an item already migrated parses as new-style and is left alone
// (item-classification.ts). Writes go through the cap (capacity-bucket.ts). Items that cannot be
// moved as stored are reported by key with the reason and left in place. This file runs the
// segments of one run in one process; lease.ts runs them as a worker of a coordinated run.

import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { mapConcurrent } from '../batch.js';
import { CapacityBucket } from './capacity-bucket.js';
import { FileCheckpoints, readCheckpoint } from './file-checkpoints.js';
import type { MigrationPlan } from './plan.js';
import type { SegmentCounts, SkippedItem } from './segment-state.js';
import { runSegment, type SegmentOptions } from './segment-run.js';

export interface MigrationOptions extends SegmentOptions {
  /** The segments this run processes (default: all of them, concurrently). */
  readonly only?: readonly number[];
  /** Folder of the per-segment checkpoint files. */
  readonly checkpoints: string;
  /** Write cap for this process, in consumed write units per second. */
  readonly maxWcu: number;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
}

export interface MigrationReport {
  readonly migration: string;
  readonly segments: Readonly<Record<number, SegmentCounts>>;
  readonly skipped: readonly SkippedItem[];
  /** Write units DynamoDB reported consumed by this run. */
  readonly consumedWcu: number;
  /** The most write units DynamoDB reported consumed in any 10 seconds of the run (the cap holds it to 10 × --max-wcu). */
  readonly busiest10s: number;
  readonly seconds: number;
}

/** Migrates the segments of one run in this process; resumes each from its checkpoint file. */
export async function runMigration(plan: MigrationPlan, options: MigrationOptions): Promise<MigrationReport> {
  const { segments } = options;
  if (!Number.isInteger(segments) || segments < 1 || segments > 1_000_000) throw new RangeError(`--segments must be an integer from 1 to 1,000,000, got ${segments}`);
  const only = options.only ?? Array.from({ length: segments }, (_, i) => i);
  for (const s of only) if (!Number.isInteger(s) || s < 0 || s >= segments) throw new RangeError(`--segment ${s} is not in 0..${segments - 1}`);
  // every checkpoint is checked before anything is written
  for (const s of only) readCheckpoint(options.checkpoints, plan.id, s, segments);
  const store = new FileCheckpoints(options.checkpoints, plan.id, segments);
  const started = Date.now();
  const bucket = new CapacityBucket(options.maxWcu);
  const table = await options.client.send(new DescribeTableCommand({ TableName: options.tableName }));
  const expected = Math.max(1, Math.round((table.Table?.ItemCount ?? 0) / segments));
  let reported = 0;
  const all: Record<number, SegmentCounts> = {};
  const progress = (segment: number, counts: SegmentCounts, finished: boolean) => {
    all[segment] = counts;
    const now = Date.now();
    if (!options.log || (now - reported < 1000 && !finished)) return;
    reported = now;
    const seconds = (now - started) / 1000;
    const scanned = Object.values(all).reduce((sum, c) => sum + c.scanned, 0);
    const total = expected * only.length;
    const eta = scanned ? Math.max(0, Math.round(((total - scanned) * seconds) / scanned)) : undefined;
    options.log(
      `segment ${segment}/${segments}${finished ? ' done' : ''}: ${counts.scanned} scanned, ${counts.rewritten} rewritten, ${counts.backfilled} backfilled, ${counts.current} already done, ${counts.skipped} skipped; ` +
        `run: ${scanned} of ~${total} items, ${Math.round(bucket.consumed / Math.max(seconds, 0.001))} WCU/s (cap ${options.maxWcu})${eta === undefined ? '' : `, ETA ${eta}s`}`,
    );
  };
  await mapConcurrent(only, only.length, async (segment) => {
    all[segment] = await runSegment({ plan, options, store, bucket, progress }, segment);
  });
  const skipped = only.flatMap((segment) => store.skippedOf(segment));
  return { migration: plan.id, segments: all, skipped, consumedWcu: bucket.consumed, busiest10s: bucket.busiestWindow, seconds: (Date.now() - started) / 1000 };
}
