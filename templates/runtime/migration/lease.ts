// Coordinated migrations (`--coordinate`): any number of worker processes — on one machine or
// many, in containers or Lambda invocations — share one migration through a small lease table in
// DynamoDB, as the Kinesis Client Library shares a stream's shards:
//
// - one item per scan segment holds its lease (owner, and a counter every write by the owner
//   bumps), its checkpoint (the next page's start, the writes of a page under way) and its counts;
//   skipped items are items of their own, so the run's report lives in the table;
// - a worker claims a free segment with a conditional write on the counter it saw; it renews its
//   leases on every heartbeat and checkpoint (conditioned on owner and counter, so a worker that
//   lost a lease can no longer write to it); a lease whose counter has not moved for the lease
//   time on the observer's own clock is free (no clocks are compared across machines), so a dead
//   worker's segment is taken over from its last checkpoint;
// - each worker holds about its share of the unfinished segments (a worker over its share hands
//   the extra ones back at their page boundaries, so a worker started later gets work);
// - the cap goes with the segments: a worker writes at the cap times the segments it holds over the
//   segments not done, so the workers' rates add up to the cap at most from the first request,
//   whatever each has seen of the others, and a worker without segments holds no share;
// - the run's segment count, cap and lease length are the first worker's, kept in the table;
// - `status` reads the table: segments done, counts, workers, items per second and the ETA;
//   `cleanup` removes a finished (or abandoned) run, so a later run starts afresh.
//
// This file is the worker (joining the run, claiming, renewing and handing back segments, its
// share of the cap); the table's layout is in lease-table.ts, the leases and the segment store
// they guard in lease-store.ts, `status` in run-status.ts and `cleanup` in run-cleanup.ts.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { defaultSleep } from '../batch.js';
import { CapacityBucket } from './capacity-bucket.js';
import { LeaseLostError, LeaseStore } from './lease-store.js';
import { DEFAULT_LEASE_MS, RUN, ensureLeaseTable, isConditionFailure, readRun, segmentSk, workerSk, type CoordinationOptions } from './lease-table.js';
import type { MigrationPlan } from './plan.js';
import { runSegment, type SegmentOptions } from './segment-run.js';
import { emptyCounts, type SegmentCounts } from './segment-state.js';

/** This worker's share of the run, as it returns. */
export interface WorkerReport {
  readonly migration: string;
  readonly worker: string;
  /** Segments this worker finished, with their counts (all of each segment's workers'). */
  readonly finished: Readonly<Record<number, SegmentCounts>>;
  /** Items this worker scanned. */
  readonly scanned: number;
  readonly consumedWcu: number;
  readonly busiest10s: number;
  readonly seconds: number;
  /** Whether every segment of the run is done. */
  readonly complete: boolean;
}

/** Starts the run in the lease table, or joins it: the first worker's segment count, cap and lease length are the run's. */
async function joinRun(plan: MigrationPlan, options: CoordinationOptions): Promise<{ segments: number; maxWcu: number; leaseMs: number }> {
  const { client, leaseTable } = options;
  const table = await client.send(new DescribeTableCommand({ TableName: options.tableName }));
  try {
    await client.send(
      new PutCommand({
        TableName: leaseTable,
        Item: { pk: plan.id, sk: RUN, table: options.tableName, segments: options.segments, maxWcu: options.maxWcu, leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS, startedAt: Date.now(), itemCount: table.Table?.ItemCount ?? 0 },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const run = (await client.send(new GetCommand({ TableName: leaseTable, Key: { pk: plan.id, sk: RUN }, ConsistentRead: true }))).Item!;
  if (run.table !== options.tableName) throw new Error(`migration ${plan.id} in lease table ${leaseTable} runs on table ${String(run.table)}, not ${options.tableName}; use another --lease-table`);
  const segments = Number(run.segments);
  const existing = new Set((await readRun(client, leaseTable, plan.id)).filter((i) => String(i.sk).startsWith('SEGMENT#')).map((i) => Number(i.segment)));
  for (let segment = 0; segment < segments; segment++) {
    if (existing.has(segment)) continue;
    try {
      await client.send(new PutCommand({ TableName: leaseTable, Item: { pk: plan.id, sk: segmentSk(segment), segment, counter: 0, done: false, counts: emptyCounts() }, ConditionExpression: 'attribute_not_exists(pk)' }));
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  return { segments, maxWcu: Number(run.maxWcu), leaseMs: Number(run.leaseMs ?? options.leaseMs ?? DEFAULT_LEASE_MS) };
}

/**
 * Runs one worker of a coordinated migration until every segment is done (or the deadline): claims
 * segments, migrates them from their checkpoints, renews its leases, takes over dead workers'.
 */
export async function runWorker(plan: MigrationPlan, options: CoordinationOptions): Promise<WorkerReport> {
  const started = Date.now();
  const { client, leaseTable } = options;
  const me = options.worker ?? `${hostname()}#${process.pid}#${randomBytes(3).toString('hex')}`;
  const log = options.log ?? (() => {});
  await ensureLeaseTable(client, leaseTable);
  const run = await joinRun(plan, options);
  const leaseMs = run.leaseMs;
  const heartbeatMs = options.heartbeatMs ?? Math.max(250, Math.floor(leaseMs / 4));
  if (run.segments !== options.segments || run.maxWcu !== options.maxWcu || (options.leaseMs !== undefined && run.leaseMs !== options.leaseMs)) {
    log(`${me}: joining the run with ${run.segments} segments, a cap of ${run.maxWcu} WCU/s and a ${run.leaseMs / 1000} s lease, as its first worker started it`);
  }
  const segmentOptions: SegmentOptions = { ...options, segments: run.segments };
  const store = new LeaseStore(client, leaseTable, plan.id, me);
  // one segment's share until this worker holds any (it writes nothing before it holds a segment)
  const bucket = new CapacityBucket(run.maxWcu / run.segments);
  const finished: Record<number, SegmentCounts> = {};
  const tasks = new Map<number, Promise<void>>();
  /** Counters as this worker saw them, and since when (its own clock): a counter that stands still is a dead owner. */
  const seen = new Map<string, { counter: number; since: number }>();
  /** Segments not done as the lease table last said, and the ones this worker finished since (done for certain). */
  let undoneSeen = run.segments;
  const finishedSinceRead = new Set<number>();
  /**
   * This worker's rate: the cap times the segments it holds over the segments not done. A segment
   * is held by one worker at a time (claims are conditional) and never becomes undone again, so the
   * workers' rates add up to the cap at most whatever each has seen of the others; called whenever
   * the segments held or the view of those not done change, before the writes that follow.
   */
  const setShare = () => {
    const held = [...store.leases].filter(([segment, lease]) => !lease.lost && finished[segment] === undefined).length;
    const undone = Math.max(1, undoneSeen - finishedSinceRead.size);
    bucket.setRate((run.maxWcu * Math.min(Math.max(held, 1), undone)) / undone);
  };
  let scanned = 0;
  let beats = 0;
  let failure: unknown;
  const observe = (id: string, counter: number, now: number) => {
    const before = seen.get(id);
    if (!before || before.counter !== counter) seen.set(id, { counter, since: now });
    return seen.get(id)!;
  };
  const start = (segment: number) => {
    const lease = store.leases.get(segment)!;
    const task = runSegment(
      {
        plan,
        options: segmentOptions,
        store,
        bucket,
        stopped: () => lease.lost || lease.release || failure !== undefined,
        fence: () => store.fence(segment, leaseMs),
        scannedItem: () => scanned++,
        progress: (s, counts, done) => {
          if (!done) return;
          finished[s] = { ...counts };
          finishedSinceRead.add(s);
          setShare();
        },
      },
      segment,
    ).then(
      async (counts) => {
        log(`${me}: segment ${segment} ${finished[segment] ? 'done' : lease.lost ? 'lost' : 'handed back'} (${counts.scanned} scanned, ${counts.rewritten} rewritten)`);
        if (!lease.lost) await store.giveBack(segment);
      },
      (error: unknown) => {
        store.leases.delete(segment);
        if (error instanceof LeaseLostError) log(`${me}: ${error.message}`);
        else failure ??= error;
      },
    );
    tasks.set(
      segment,
      task.finally(() => {
        tasks.delete(segment);
        setShare();
      }),
    );
  };
  for (let first = true; ; first = false) {
    const now = Date.now();
    const items = await readRun(client, leaseTable, plan.id);
    await client.send(new PutCommand({ TableName: leaseTable, Item: { pk: plan.id, sk: workerSk(me), worker: me, beat: ++beats, heartbeatAt: now, segments: store.leases.size, scanned, consumed: bucket.consumed, rate: bucket.perSecond, startedAt: started } }));
    const workers = items.filter((i) => String(i.sk).startsWith('WORKER#') && i.finished !== true && (i.worker === me || now - observe(String(i.sk), Number(i.beat), now).since <= leaseMs));
    const alive = Math.max(1, workers.length + (workers.some((w) => w.worker === me) ? 0 : 1));
    const segments = items.filter((i) => String(i.sk).startsWith('SEGMENT#'));
    const undone = segments.filter((i) => i.done !== true);
    undoneSeen = undone.length;
    finishedSinceRead.clear();
    for (const segment of [...store.leases.keys()]) await store.renew(segment).catch(() => undefined);
    setShare();
    if (first && !undone.length) log(`${me}: migration ${plan.id} is already complete in lease table ${leaseTable}; to migrate items written in the old form since (a sweep), remove the run with the cleanup command and start the workers again`);
    if (failure !== undefined || (!undone.length && !tasks.size)) break;
    const late = options.deadline !== undefined && now >= options.deadline;
    let share = 1;
    if (late) for (const lease of store.leases.values()) lease.release = true;
    else {
      share = Math.ceil(undone.length / alive);
      const free = undone.filter((i) => {
        const segment = Number(i.segment);
        if (store.leases.has(segment)) return false;
        const since = observe(String(i.sk), Number(i.counter), now).since;
        return i.owner === undefined || (i.owner !== me && now - since > leaseMs);
      });
      // claim in random order, so workers starting together spread over the segments
      for (const item of free.sort(() => Math.random() - 0.5)) {
        if (store.leases.size >= share) break;
        const segment = Number(item.segment);
        if (await store.claim(segment, Number(item.counter))) {
          log(`${me}: claimed segment ${segment}${item.owner === undefined ? '' : ` from ${String(item.owner)} (its lease expired)`}`);
          setShare();
          start(segment);
        }
      }
      // over the share (a worker joined): hand the extra segments back at their next page boundaries, all at once
      const kept = [...store.leases.values()].filter((l) => !l.release);
      for (const lease of kept.slice(share)) lease.release = true;
    }
    if (late && !tasks.size) break;
    // a worker under its share while segments are undone looks for work sooner than it renews
    await defaultSleep(store.leases.size < share ? Math.min(heartbeatMs, 1000) : heartbeatMs);
  }
  await Promise.all(tasks.values());
  await client.send(
    new UpdateCommand({
      TableName: leaseTable,
      Key: { pk: plan.id, sk: workerSk(me) },
      UpdateExpression: 'SET #finished = :true, #scanned = :scanned, #consumed = :consumed, #heartbeatAt = :now',
      ExpressionAttributeNames: { '#finished': 'finished', '#scanned': 'scanned', '#consumed': 'consumed', '#heartbeatAt': 'heartbeatAt' },
      ExpressionAttributeValues: { ':true': true, ':scanned': scanned, ':consumed': bucket.consumed, ':now': Date.now() },
    }),
  );
  if (failure !== undefined) throw failure;
  const complete = (await readRun(client, leaseTable, plan.id)).filter((i) => String(i.sk).startsWith('SEGMENT#')).every((i) => i.done === true);
  return { migration: plan.id, worker: me, finished, scanned, consumedWcu: bucket.consumed, busiest10s: bucket.busiestWindow, seconds: (Date.now() - started) / 1000, complete };
}
