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

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { defaultSleep } from '../batch.js';
import { CapacityBucket } from './capacity-bucket.js';
import { emptyCounts, runSegment, type MigrationPlan, type PendingWrite, type SegmentCounts, type SegmentOptions, type SegmentState, type SegmentStore, type SkippedItem } from './engine.js';

export interface CoordinationOptions extends SegmentOptions {
  /** The lease table (created on first use, on demand billing). */
  readonly leaseTable: string;
  /** The cap of the whole migration in consumed WCU/s, shared by the workers by the segments they hold (the first worker's value is the run's). */
  readonly maxWcu: number;
  /** A lease not renewed for this long is free. Default 20 s (the first worker's value is the run's). */
  readonly leaseMs?: number;
  /** How often a worker renews its leases and looks for work. Default a quarter of the lease time. */
  readonly heartbeatMs?: number;
  /** This worker's name in the table. Default host, pid and a random suffix. */
  readonly worker?: string;
  /** Epoch ms: claim nothing after it, hand every lease back at the next page boundary and return (a Lambda invocation's end). */
  readonly deadline?: number;
  readonly log?: (line: string) => void;
}

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

/** The segment belongs to another worker now (its lease expired and was claimed): this worker stops it. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

const RUN = 'RUN';
const DEFAULT_LEASE_MS = 20_000;
const segmentSk = (segment: number) => `SEGMENT#${String(segment).padStart(7, '0')}`;
const workerSk = (worker: string) => `WORKER#${worker}`;

const isConditionFailure = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

/** Creates the lease table unless it exists, and waits until it is active. */
export async function ensureLeaseTable(client: DynamoDBDocumentClient, name: string, sleep = defaultSleep): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException) && (error as { name?: string }).name !== 'ResourceInUseException') throw error;
  }
  for (let waited = 0; ; waited += 500) {
    const table = await client.send(new DescribeTableCommand({ TableName: name }));
    if (table.Table?.TableStatus === 'ACTIVE') return;
    if (waited > 120_000) throw new Error(`lease table ${name} is still ${table.Table?.TableStatus} after 2 minutes`);
    await sleep(500);
  }
}

/** Every item of the run in the lease table (one partition), by sort key. */
async function readRun(client: DynamoDBDocumentClient, leaseTable: string, migration: string): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new QueryCommand({ TableName: leaseTable, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': migration }, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

const stateOf = (item: Record<string, unknown>): SegmentState => ({
  ...(typeof item.next === 'string' ? { next: JSON.parse(item.next) as Record<string, unknown> } : {}),
  done: item.done === true,
  counts: { ...emptyCounts(), ...(item.counts as Partial<SegmentCounts> | undefined) },
  ...(typeof item.pending === 'string' ? { pending: JSON.parse(item.pending) as PendingWrite[] } : {}),
});

interface Lease {
  /** The counter as this worker last wrote it. */
  counter: number;
  lost: boolean;
  /** Hand the segment back at the next page boundary. */
  release: boolean;
  /** Writes to the lease item, one at a time (each is conditioned on the counter the one before left). */
  chain: Promise<unknown>;
  /** When the latest write that held the lease was sent (this worker's clock). */
  confirmedAt: number;
}

/** The lease table as one worker's segment store: every write is conditioned on holding the lease. */
class LeaseStore implements SegmentStore {
  readonly leases = new Map<number, Lease>();
  private readonly client: DynamoDBDocumentClient;
  private readonly table: string;
  private readonly migration: string;
  private readonly me: string;

  constructor(client: DynamoDBDocumentClient, table: string, migration: string, me: string) {
    this.client = client;
    this.table = table;
    this.migration = migration;
    this.me = me;
  }

  private key(segment: number) {
    return { pk: this.migration, sk: segmentSk(segment) };
  }

  /** Runs a write on a held lease after the ones before it; the write returns whether the lease still held. */
  private serial(segment: number, write: (lease: Lease) => Promise<void>): Promise<void> {
    const lease = this.leases.get(segment);
    if (!lease || lease.lost) return Promise.reject(new LeaseLostError(`segment ${segment} is no longer leased by ${this.me}`));
    const turn = lease.chain.then(async () => {
      if (lease.lost) throw new LeaseLostError(`segment ${segment} is no longer leased by ${this.me}`);
      const sent = Date.now();
      try {
        await write(lease);
        lease.counter++;
        lease.confirmedAt = sent;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        lease.lost = true;
        throw new LeaseLostError(`segment ${segment} was taken over by another worker (its lease expired)`);
      }
    });
    lease.chain = turn.catch(() => undefined);
    return turn;
  }

  private held(lease: Lease) {
    return { ConditionExpression: '#owner = :me AND #counter = :counter', ':me': this.me, ':counter': lease.counter };
  }

  async load(segment: number): Promise<SegmentState | undefined> {
    const found = await this.client.send(new GetCommand({ TableName: this.table, Key: this.key(segment), ConsistentRead: true }));
    return found.Item ? stateOf(found.Item) : undefined;
  }

  async save(segment: number, state: SegmentState, skipped: readonly SkippedItem[]): Promise<void> {
    // skipped items are items of their own (keyed by segment and key: writing one twice is the same item)
    for (let i = 0; i < skipped.length; i += 25) {
      let requests: unknown[] = skipped.slice(i, i + 25).map((s) => ({ PutRequest: { Item: { pk: this.migration, sk: `SKIPPED#${segment}#${JSON.stringify(s.key)}`, segment, key: JSON.stringify(s.key), reason: s.reason } } }));
      while (requests.length) {
        const result = await this.client.send(new BatchWriteCommand({ RequestItems: { [this.table]: requests as never } }));
        requests = result.UnprocessedItems?.[this.table] ?? [];
      }
    }
    await this.serial(segment, async (lease) => {
      const { ConditionExpression, ...values } = this.held(lease);
      const set = ['#counter = #counter + :one', '#done = :done', '#counts = :counts', '#updatedAt = :now', ...(state.next ? ['#next = :next'] : []), ...(state.pending?.length ? ['#pending = :pending'] : [])];
      const remove = [...(state.next ? [] : ['#next']), ...(state.pending?.length ? [] : ['#pending'])];
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: this.key(segment),
          UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression,
          ExpressionAttributeNames: { '#owner': 'owner', '#counter': 'counter', '#next': 'next', '#done': 'done', '#counts': 'counts', '#updatedAt': 'updatedAt', '#pending': 'pending' },
          ExpressionAttributeValues: {
            ...values,
            ':one': 1,
            ':done': state.done,
            ':counts': state.counts,
            ':now': Date.now(),
            ...(state.next ? { ':next': JSON.stringify(state.next) } : {}),
            ...(state.pending?.length ? { ':pending': JSON.stringify(state.pending) } : {}),
          },
        }),
      );
    });
  }

  /** Renews a held lease (a heartbeat). */
  renew(segment: number): Promise<void> {
    return this.serial(segment, async (lease) => {
      const { ConditionExpression, ...values } = this.held(lease);
      await this.client.send(new UpdateCommand({ TableName: this.table, Key: this.key(segment), UpdateExpression: 'SET #counter = #counter + :one', ConditionExpression, ExpressionAttributeNames: { '#owner': 'owner', '#counter': 'counter' }, ExpressionAttributeValues: { ...values, ':one': 1 } }));
    });
  }

  /** Hands a lease back (the segment is done, or this worker is over its share or out of time). */
  async giveBack(segment: number): Promise<void> {
    await this.serial(segment, async (lease) => {
      const { ConditionExpression, ...values } = this.held(lease);
      await this.client.send(new UpdateCommand({ TableName: this.table, Key: this.key(segment), UpdateExpression: 'SET #counter = #counter + :one REMOVE #owner', ConditionExpression, ExpressionAttributeNames: { '#owner': 'owner', '#counter': 'counter' }, ExpressionAttributeValues: { ...values, ':one': 1 } }));
    }).catch((error: unknown) => {
      if (!(error instanceof LeaseLostError)) throw error;
    });
    this.leases.delete(segment);
  }

  /**
   * Waits until the lease is known to hold for long enough to send a write: another worker claims it
   * only once its counter has stood still for the lease time on that worker's clock, so a write sent
   * within half the lease time of a confirmed renewal lands before any other owner can start. A
   * worker whose renewals stall (or fail) stops writing instead of racing the next owner.
   */
  async fence(segment: number, leaseMs: number): Promise<void> {
    for (;;) {
      const lease = this.leases.get(segment);
      if (!lease || lease.lost) throw new LeaseLostError(`segment ${segment} is no longer leased by ${this.me}`);
      if (Date.now() - lease.confirmedAt <= leaseMs / 2) return;
      await defaultSleep(25);
    }
  }

  /** Claims a segment whose counter was last seen at `seen`: true when this worker holds it now. */
  async claim(segment: number, seen: number): Promise<boolean> {
    const sent = Date.now();
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: this.key(segment),
          UpdateExpression: 'SET #owner = :me, #counter = #counter + :one',
          ConditionExpression: '#counter = :seen AND #done = :false',
          ExpressionAttributeNames: { '#owner': 'owner', '#counter': 'counter', '#done': 'done' },
          ExpressionAttributeValues: { ':me': this.me, ':one': 1, ':seen': seen, ':false': false },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    this.leases.set(segment, { counter: seen + 1, lost: false, release: false, chain: Promise.resolve(), confirmedAt: sent });
    return true;
  }
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

/** What `cleanup` removed. */
export interface CleanupReport {
  readonly migration: string;
  /** Items of the run removed from the lease table (its run, segment, worker and skipped items). */
  readonly removed: number;
  /** Whether the lease table was deleted (it held no other run). */
  readonly tableDeleted: boolean;
}

/** A worker of the run is alive (its last heartbeat is within the run's lease): the run is not removed. */
export class RunInProgressError extends Error {
  override readonly name = 'RunInProgressError';
}

/**
 * Removes a run from the lease table once no worker of it is alive (a heartbeat within the run's
 * lease), finished or not, and deletes the lease table when no other run is in it. A worker started
 * afterwards begins a new run: it scans the whole table again and moves what is still in the old
 * form (items written by old code after the run, stragglers), leaving what is done alone.
 */
export async function cleanupRun(plan: MigrationPlan, options: Pick<CoordinationOptions, 'client' | 'leaseTable'>): Promise<CleanupReport | undefined> {
  const { client, leaseTable } = options;
  const status = await migrationStatus(plan, options);
  if (!status) return undefined;
  if (status.workers.length) {
    throw new RunInProgressError(`${status.workers.length} worker${status.workers.length === 1 ? '' : 's'} of migration ${plan.id} still alive (${status.workers.map((w) => w.worker).join(', ')}): stop them, or wait ${status.leaseSeconds} s after the last one died`);
  }
  const items = await readRun(client, leaseTable, plan.id);
  for (let i = 0; i < items.length; i += 25) {
    let requests: unknown[] = items.slice(i, i + 25).map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
    while (requests.length) {
      const result = await client.send(new BatchWriteCommand({ RequestItems: { [leaseTable]: requests as never } }));
      requests = result.UnprocessedItems?.[leaseTable] ?? [];
    }
  }
  const rest = await client.send(new ScanCommand({ TableName: leaseTable, Limit: 1, ConsistentRead: true }));
  const tableDeleted = !rest.Items?.length && !rest.LastEvaluatedKey;
  if (tableDeleted) await client.send(new DeleteTableCommand({ TableName: leaseTable }));
  return { migration: plan.id, removed: items.length, tableDeleted };
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
