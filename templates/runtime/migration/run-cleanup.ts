// `cleanup` of a coordinated migration: removes a run no worker is alive in from the lease table,
// and the table once it holds no run, so workers started afterwards begin a new run (a sweep).

import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { readRun, type CoordinationOptions } from './lease-table.js';
import type { MigrationPlan } from './plan.js';
import { migrationStatus } from './run-status.js';

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
