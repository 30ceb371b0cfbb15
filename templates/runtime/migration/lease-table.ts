// The lease table of a coordinated migration (lease.ts): one partition per run, holding the run's
// item (RUN: its table, segment count, cap and lease length), an item per segment (its lease and
// checkpoint), an item per worker (its heartbeat) and an item per skipped item. The worker, the
// lease store, `status` and `cleanup` all read and write it by this layout.

import { CreateTableCommand, DescribeTableCommand, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { defaultSleep } from '../batch.js';
import type { SegmentOptions } from './segment-run.js';
import { emptyCounts, type PendingWrite, type SegmentCounts, type SegmentState } from './segment-state.js';

/** How a coordinated run is joined (and read by `status` and `cleanup`): the segments, the lease table, the cap and the lease. */
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

export const RUN = 'RUN';
export const DEFAULT_LEASE_MS = 20_000;
export const segmentSk = (segment: number) => `SEGMENT#${String(segment).padStart(7, '0')}`;
export const workerSk = (worker: string) => `WORKER#${worker}`;

export const isConditionFailure = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

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
export async function readRun(client: DynamoDBDocumentClient, leaseTable: string, migration: string): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new QueryCommand({ TableName: leaseTable, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': migration }, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

export const stateOf = (item: Record<string, unknown>): SegmentState => ({
  ...(typeof item.next === 'string' ? { next: JSON.parse(item.next) as Record<string, unknown> } : {}),
  done: item.done === true,
  counts: { ...emptyCounts(), ...(item.counts as Partial<SegmentCounts> | undefined) },
  ...(typeof item.pending === 'string' ? { pending: JSON.parse(item.pending) as PendingWrite[] } : {}),
});
