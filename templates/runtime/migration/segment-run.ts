// The segment loop: scans one parallel scan segment page by page from its checkpoint, classifies
// each item and migrates it, and saves each page twice (its planned writes before they are sent,
// its counts and the next page's start after), so a run that resumes a page left mid-way counts
// the writes already made. One process's run (engine.ts) and a coordinated worker (lease.ts) both
// run segments through it, each with its own SegmentStore.

import { ScanCommand, type DynamoDBDocumentClient, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { batchGetRecords, keyId, mapConcurrent } from '../batch.js';
import type { CapacityBucket } from './capacity-bucket.js';
import type { WriteContext } from './capped-write.js';
import { followEdge, moveEdge } from './edge-moves.js';
import { classify } from './item-classification.js';
import { migrateItem } from './item-migration.js';
import { indexChanges, nextRecord, readStored, tableKey } from './item-rebuild.js';
import type { DecodeStored, MigrationPlan } from './plan.js';
import type { TableContext } from '../repository.js';
import { emptyCounts, type Outcome, type PendingWrite, type SegmentCounts, type SegmentState, type SegmentStore, type SkippedItem } from './segment-state.js';

/** How one process runs segments: its client and table, the scan page, the writes in flight. */
export interface SegmentOptions {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  /** Total parallel scan segments (DynamoDB's TotalSegments). */
  readonly segments: number;
  /** Items per Scan page. Default 100. */
  readonly pageSize?: number;
  /** Writes in flight per segment. Default 8. */
  readonly concurrency?: number;
}

/** A stored item's table key, by the attribute names of the plan's first entity or edge. */
function storedKey(plan: MigrationPlan, stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const edge = plan.edges[0]?.from;
  const first = plan.entities[0]?.from;
  const names = first ? [first.pk.attribute, ...(first.sk ? [first.sk.attribute] : [])] : edge ? [edge.pk, edge.sk] : [];
  return Object.fromEntries(names.map((a) => [a, stored[a]]));
}

/** The items of a page that are still in the table, by table key (a consistent BatchGetItem). */
async function stillThere(ctx: TableContext, keys: ReadonlyArray<Readonly<Record<string, unknown>>>): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const names = Object.keys(keys[0]!);
  const found = await batchGetRecords(ctx, { operation: 'batchGet', entity: 'migration' }, keys.map((key) => ({ key: key as Record<string, string>, source: key })), names, (stored) => stored, { consistent: true });
  return new Set(found.keys());
}

/**
 * A write planned for a scanned item: what it counts for, or nothing when the item needs none. An
 * entity's item is planned as migrateItem will write it (a new key is a rewrite, changed index
 * attributes a backfill, neither no write: a random-shard counter whose shard keeps its key), so a
 * run that resumes the page never counts as made a write that was never planned.
 */
function planned(decode: DecodeStored, what: ReturnType<typeof classify>, stored: Readonly<Record<string, unknown>>): Pick<PendingWrite, 'kind' | 'items'> | undefined {
  if ('entity' in what) {
    const { entity } = what;
    const read = readStored(entity, decode, stored);
    if ('skip' in read) return undefined;
    let next: Record<string, unknown>;
    try {
      next = nextRecord(entity, read.item, read.shard);
    } catch {
      return undefined;
    }
    if (JSON.stringify(tableKey(entity.to, next)) !== JSON.stringify(tableKey(entity.from, stored))) return { kind: 'rewritten', items: 1 };
    const { set, remove } = indexChanges(entity, stored, next);
    return Object.keys(set).length || remove.length ? { kind: 'backfilled', items: 1 } : undefined;
  }
  if ('move' in what) return what.move.follows ? undefined : { kind: 'rewritten', items: what.move.halves.length };
  return undefined;
}

export interface SegmentRun {
  readonly plan: MigrationPlan;
  readonly options: SegmentOptions;
  readonly store: SegmentStore;
  readonly bucket: CapacityBucket;
  /** After each page: the segment's counts (all its runs') and whether it is finished. */
  readonly progress?: (segment: number, counts: SegmentCounts, finished: boolean) => void;
  /** As each item is scanned and handled (live progress between a page's checkpoints). */
  readonly scannedItem?: () => void;
  /** Checked before each page: true stops the segment there (its checkpoint stays where it is). */
  readonly stopped?: () => boolean;
  /** Awaited before each write: throws when the segment may no longer be written by this process. */
  readonly fence?: () => Promise<void>;
}

/**
 * Runs one segment from its checkpoint to the end (or until `stopped`). Each page is saved twice:
 * its planned writes before they are sent, its counts and the next page's start after. A run that
 * resumes a page left mid-way counts the writes already made from the planned list.
 */
export async function runSegment(run: SegmentRun, segment: number): Promise<SegmentCounts> {
  const { plan, options, store, bucket } = run;
  const ctx: WriteContext = { client: options.client, tableName: options.tableName, bucket, fence: run.fence };
  const saved = await store.load(segment);
  const counts: SegmentCounts = saved ? { ...saved.counts } : emptyCounts();
  if (saved?.done) return counts;
  let next = saved?.next;
  const id = (key: Readonly<Record<string, unknown>>) => keyId(key as Record<string, string>, Object.keys(key));
  // writes a stopped run planned: those whose item is gone were made; the others are still to come
  const carried = new Map<string, PendingWrite>();
  if (saved?.pending?.length) {
    const present = await stillThere(ctx, saved.pending.map((p) => p.key));
    for (const write of saved.pending) {
      if (present.has(id(write.key))) carried.set(id(write.key), write);
      else {
        counts.scanned++;
        counts[write.kind] += write.items;
      }
    }
  }
  do {
    if (run.stopped?.()) return counts;
    const page: ScanCommandOutput = await options.client.send(
      new ScanCommand({
        TableName: options.tableName,
        Segment: segment,
        TotalSegments: options.segments,
        Limit: options.pageSize ?? 100,
        ConsistentRead: true,
        ...(next ? { ExclusiveStartKey: next } : {}),
      }),
    );
    const items = (page.Items ?? []).map((stored) => ({ stored, what: classify(plan, stored), key: storedKey(plan, stored) }));
    const pending = items.flatMap(({ stored, what, key }) => {
      const write = planned(plan.decode, what, stored);
      return write ? [{ key, ...write }] : [];
    });
    if (pending.length) await store.save(segment, { ...(next ? { next } : {}), done: false, counts, pending }, []);
    const skipped: SkippedItem[] = [];
    await mapConcurrent(items, options.concurrency ?? 8, async ({ stored, what, key }) => {
      let outcome: Outcome;
      if ('entity' in what) outcome = await migrateItem(ctx, plan.decode, what.entity, stored);
      else if ('move' in what) outcome = what.move.follows ? await followEdge(ctx, what.move) : await moveEdge(ctx, what.move, stored);
      else if ('leave' in what) outcome = { kind: what.leave };
      else outcome = { kind: 'skipped', skipped: { key, reason: what.skip } };
      counts.scanned++;
      run.scannedItem?.();
      const earlier = carried.get(id(key));
      if (earlier && outcome.kind === 'current') counts[earlier.kind] += earlier.items; // made by the stopped run
      else if (outcome.kind === 'skipped') {
        counts.skipped++;
        skipped.push(outcome.skipped);
      } else counts[outcome.kind] += outcome.items ?? 1;
    });
    next = page.LastEvaluatedKey;
    await store.save(segment, { ...(next ? { next } : {}), done: next === undefined, counts }, skipped);
    run.progress?.(segment, counts, next === undefined);
  } while (next);
  return counts;
}
