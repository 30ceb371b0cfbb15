// A worker's leases on its segments, kept in the lease table (lease-table.ts), and its
// SegmentStore there: every checkpoint, renewal and hand-back is conditioned on the owner and the
// counter this worker last wrote, so a worker that lost a lease can no longer write to it, and a
// write to the migrated table is only sent while the lease is known to hold (its fence).

import { BatchWriteCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { defaultSleep } from '../batch.js';
import { isConditionFailure, segmentSk, stateOf } from './lease-table.js';
import type { SegmentState, SegmentStore, SkippedItem } from './segment-state.js';

/** The segment belongs to another worker now (its lease expired and was claimed): this worker stops it. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

export interface Lease {
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
export class LeaseStore implements SegmentStore {
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
