// Reads a live table for `ddbgen pull`: its description (DescribeTable, and the time to live,
// point-in-time recovery and tags beside it) and a sample of its items by parallel Scan segments,
// capped at read units per second in every one-second window, measured from the ConsumedCapacity
// DynamoDB reports (read-window.ts). SDK failures become PullErrors that say what was read so far
// and what to do.

import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PullError, type Item } from './inferred-schema.js';
import { ReadWindow } from './read-window.js';
import { describedTable, type PulledTable } from './table-description.js';

/** Where the table was read, for messages: the endpoint or the region. */
export interface Place {
  readonly table: string;
  readonly where: string;
}

/** The PullError for an SDK failure: unreachable, missing permission, no such table, or as the SDK says. */
export function sdkFailure(error: unknown, place: Place, action: string, inferred: string): PullError {
  const e = error as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number }; cause?: { code?: string } };
  const name = e.name ?? '';
  const code = e.code ?? e.cause?.code ?? '';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code) || name === 'TimeoutError' || (e.$metadata === undefined && /connect|socket|network|getaddrinfo/i.test(e.message ?? ''))) {
    return new PullError(`cannot reach DynamoDB at ${place.where} (${code || name || 'no answer'})`, inferred, 'check --endpoint (e.g. http://localhost:8000 for DynamoDB Local) or --region, and that the service is running');
  }
  if (name === 'AccessDeniedException' || name === 'UnrecognizedClientException' || name === 'ExpiredTokenException' || e.$metadata?.httpStatusCode === 403) {
    return new PullError(`${action} on table ${place.table} was refused (${name}): the credentials lack permission dynamodb:${action}`, inferred, `grant dynamodb:${action} (pull also reads with DescribeTable, DescribeTimeToLive, DescribeContinuousBackups, ListTagsOfResource and Scan), or run with credentials that have it (AWS_PROFILE)`);
  }
  if (name === 'CredentialsProviderError') return new PullError('no AWS credentials were found', inferred, 'set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (DynamoDB Local takes any, but keeps each access key id\'s tables apart: use the one the table was created with)');
  if (name === 'ResourceNotFoundException') return new PullError(`there is no table ${place.table} at ${place.where}`, inferred, 'check --table and --region (or --endpoint); table names are case-sensitive');
  if (/region is missing/i.test(e.message ?? '')) return new PullError('no AWS region is set', inferred, 'pass --region, set AWS_REGION, or give --endpoint for DynamoDB Local');
  return new PullError(`${action} on table ${place.table} failed: ${name ? `${name}: ` : ''}${e.message ?? String(error)}`, inferred, 'fix the cause above and pull again');
}

/** The table's description and settings; settings the credentials may not read are left out with a note. */
export async function describeLiveTable(client: DynamoDBClient, place: Place): Promise<{ table: PulledTable; notes: string[] }> {
  const sdk = await import('@aws-sdk/client-dynamodb');
  let described;
  try {
    described = (await client.send(new sdk.DescribeTableCommand({ TableName: place.table }))).Table;
  } catch (error) {
    throw sdkFailure(error, place, 'DescribeTable', 'nothing yet: the table could not be described');
  }
  if (!described) throw new PullError(`DescribeTable returned no description of ${place.table}`, 'nothing yet', 'pull again');
  const notes: string[] = [];
  const optional = async <T>(action: string, read: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await read();
    } catch (error) {
      const failure = sdkFailure(error, place, action, '');
      notes.push(`${action} was not read (${failure.message}); the schema leaves that setting out`);
      return undefined;
    }
  };
  const ttl = await optional('DescribeTimeToLive', async () => (await client.send(new sdk.DescribeTimeToLiveCommand({ TableName: place.table }))).TimeToLiveDescription);
  const backups = await optional('DescribeContinuousBackups', async () => (await client.send(new sdk.DescribeContinuousBackupsCommand({ TableName: place.table }))).ContinuousBackupsDescription);
  const tags = described.TableArn ? await optional('ListTagsOfResource', async () => (await client.send(new sdk.ListTagsOfResourceCommand({ ResourceArn: described.TableArn }))).Tags) : undefined;
  const recovery = backups?.PointInTimeRecoveryDescription;
  const table = describedTable(described, {
    ...(ttl?.TimeToLiveStatus === 'ENABLED' && ttl.AttributeName ? { ttl: ttl.AttributeName } : {}),
    ...(recovery?.PointInTimeRecoveryStatus === 'ENABLED' ? { pointInTimeRecovery: recovery.RecoveryPeriodInDays ? { days: recovery.RecoveryPeriodInDays } : {} } : {}),
    ...(tags?.length ? { tags: Object.fromEntries(tags.map((t) => [t.Key!, t.Value ?? ''])) } : {}),
  });
  return { table, notes };
}

export interface SampleOptions {
  /** Items to read at most. */
  readonly limit: number;
  /** Read units per second at most, in every one-second window, from the ConsumedCapacity DynamoDB reports. */
  readonly maxRcu: number;
  /** Parallel Scan segments (default: 4, fewer for a small sample). */
  readonly segments?: number;
  /** Items a Scan page asks for at most (default 100). */
  readonly pageSize?: number;
  readonly onProgress?: (items: number, units: number) => void;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

export interface Sample {
  readonly items: Item[];
  /** Read units consumed, as DynamoDB reported them. */
  readonly units: number;
  readonly pages: number;
  /** The whole table was read (every segment reached its end). */
  readonly complete: boolean;
  /** Units per second over the run (at least a second). */
  readonly rate: number;
}

/**
 * Up to `limit` items by parallel Scan segments (eventually consistent, up to 100 items a page),
 * never more than `maxRcu` read units in a second (ReadWindow): each page waits until the window
 * has units left, asks for as many items as they pay for, and is charged what DynamoDB reports it
 * consumed.
 */
export async function sampleItems(documents: DynamoDBDocumentClient, place: Place, options: SampleOptions, inferred: () => string): Promise<Sample> {
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const segments = Math.max(1, Math.min(options.segments ?? 4, Math.ceil(options.limit / 100)));
  const window = new ReadWindow(options.maxRcu, { now, sleep });
  const items: Item[] = [];
  const started = now();
  let units = 0;
  let pages = 0;
  let ended = 0;
  let failed = false;
  const scanSegment = async (segment: number) => {
    let start: Record<string, unknown> | undefined;
    do {
      if (items.length >= options.limit || failed) return;
      const admitted = await window.admit(Math.min(options.pageSize ?? 100, options.limit - items.length));
      let page;
      try {
        page = await documents.send(
          new ScanCommand({ TableName: place.table, Segment: segment, TotalSegments: segments, Limit: admitted.limit, ReturnConsumedCapacity: 'TOTAL', ...(start ? { ExclusiveStartKey: start } : {}) }),
        );
      } catch (error) {
        admitted.settle(undefined, 0);
        failed = true;
        throw sdkFailure(error, place, 'Scan', inferred());
      }
      const consumed = page.ConsumedCapacity?.CapacityUnits ?? 0;
      admitted.settle(consumed, page.Items?.length ?? 0);
      pages++;
      units += consumed;
      for (const item of page.Items ?? []) if (items.length < options.limit) items.push(item);
      options.onProgress?.(items.length, units);
      start = page.LastEvaluatedKey;
    } while (start);
    ended++;
  };
  await Promise.all(Array.from({ length: segments }, (_, i) => scanSegment(i)));
  const seconds = Math.max((now() - started) / 1000, 1);
  return { items, units, pages, complete: ended === segments, rate: units / seconds };
}
