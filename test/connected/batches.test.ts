// Batches under injected faults, on the generated in-memory table. A wrapped DocumentClient holds back a
// random share of each batch request (returned as UnprocessedItems / UnprocessedKeys), throttles
// some requests, or fails one with an error that is not retried; every test then reads the table
// with a clean client: nothing lost, nothing duplicated, and the error lists exactly what is missing.
import { BatchGetCommand, BatchWriteCommand, type BatchGetCommandOutput, type BatchWriteCommandOutput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BatchError, SocialTable, UnprocessedItemsError, type User, type UserKey } from '../../out/social/index.js';
import { memorySocialTests } from '../support/social-tests.js';
import { scanTable } from '../support/dynamodb-local.js';

const { test, tables } = memorySocialTests();

const users = (n: number, from = 0): User[] =>
  Array.from({ length: n }, (_, i) => ({ id: `u${from + i}`, email: `u${from + i}@example.com`, status: 'ACTIVE', joinedAt: new Date(Date.UTC(2024, 0, 1)) }));

interface Faults {
  /** Share of each request's items held back and returned unprocessed. */
  readonly unprocessed?: number;
  /** Share of requests refused with a throttle. */
  readonly throttles?: number;
  /** The nth request (1-based) fails with this error, without reaching the table. */
  readonly failAt?: { readonly call: number; readonly name: string };
}

/** A DocumentClient that injects `faults` in front of the real one. */
function faulty(real: DynamoDBDocumentClient, faults: Faults) {
  let calls = 0;
  const state = { calls: () => calls, failedAt: undefined as number | undefined };
  const client = {
    async send(command: unknown) {
      const call = ++calls;
      if (faults.failAt?.call === call) {
        state.failedAt = Date.now();
        throw Object.assign(new Error('injected'), { name: faults.failAt.name, $fault: 'server', $metadata: { httpStatusCode: 500 } });
      }
      if (Math.random() < (faults.throttles ?? 0)) throw Object.assign(new Error('injected throttle'), { name: 'ProvisionedThroughputExceededException', $fault: 'client' });
      const held = () => Math.random() < (faults.unprocessed ?? 0);
      if (command instanceof BatchWriteCommand) {
        const [[table, requests]] = Object.entries(command.input.RequestItems!) as [[string, NonNullable<(typeof command.input.RequestItems)>[string]]];
        const back = requests.filter(held);
        const sent = requests.filter((r) => !back.includes(r));
        const result: Partial<BatchWriteCommandOutput> = sent.length ? await real.send(new BatchWriteCommand({ RequestItems: { [table]: sent } })) : {};
        const left = [...(result.UnprocessedItems?.[table] ?? []), ...back];
        return { UnprocessedItems: left.length ? { [table]: left } : {} };
      }
      if (command instanceof BatchGetCommand) {
        const [[table, request]] = Object.entries(command.input.RequestItems!) as [[string, NonNullable<(typeof command.input.RequestItems)>[string]]];
        const back = request.Keys!.filter(held);
        const sent = request.Keys!.filter((k) => !back.includes(k));
        const result: Partial<BatchGetCommandOutput> = sent.length ? await real.send(new BatchGetCommand({ RequestItems: { [table]: { ...request, Keys: sent } } })) : {};
        const left = [...(result.UnprocessedKeys?.[table]?.Keys ?? []), ...back];
        return { Responses: { [table]: result.Responses?.[table] ?? [] }, UnprocessedKeys: left.length ? { [table]: { Keys: left } } : {} };
      }
      return real.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, state };
}

/** Every item in the table, by pk, read with the clean client. */
async function stored(tableName: string): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const item of await scanTable(tables().documents, tableName)) {
    if (out.has(item['pk'] as string)) throw new Error(`duplicate ${item['pk']}`);
    out.set(item['pk'] as string, item);
  }
  return out;
}

const keyOf = (u: User): UserKey => ({ id: u.id });

test('the default policy writes and reads 10,000 items under 30 % unprocessed and 10 % throttles', async (t) => {
  const { tableName } = t.context;
  const { client } = faulty(tables().documents, { unprocessed: 0.3, throttles: 0.1 });
  const db = new SocialTable(client, { tableName });
  const all = users(10_000);
  await db.user.batchPut(all);
  const table = await stored(tableName);
  t.is(table.size, 10_000);
  t.true(all.every((u) => table.get(`User.${u.id}`)?.['email'] === u.email));
  const read = await db.user.batchGet(all.map(keyOf));
  t.deepEqual(read.map((u) => u?.id), all.map((u) => u.id));
});

test('a write batch stopped by an error it does not retry: BatchError lists exactly what landed and what did not, and nothing lands later', async (t) => {
  const { tableName } = t.context;
  const { client, state } = faulty(tables().documents, { failAt: { call: 6, name: 'InternalServerError' } });
  const db = new SocialTable(client, { tableName });
  const all = users(1_000);
  const error = await t.throwsAsync(db.user.batchPut(all), { instanceOf: BatchError });
  t.false(error instanceof UnprocessedItemsError);
  t.is(error.code, 'BATCH_FAILED');
  t.is((error.cause as Error).name, 'InternalServerError');
  const sentAfter = state.calls();
  const atRejection = await stored(tableName);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const later = await stored(tableName);
  t.is(state.calls(), sentAfter, 'no request after the rejection');
  t.is(later.size, atRejection.size, 'nothing written after the rejection');
  const written = error.written as User[];
  const unprocessed = error.unprocessed as User[];
  t.deepEqual(written.map((u) => `User.${u.id}`).sort(), [...later.keys()].sort());
  t.true(unprocessed.every((u) => !later.has(`User.${u.id}`)));
  t.is(written.length + unprocessed.length, 1_000);
  t.true(unprocessed.every((u) => all.includes(u)), 'the caller\'s own items');
  t.is(error.message, `batchPut User: stopped by InternalServerError, which is not retried; ${unprocessed.length} of 1000 not written, they are in error.unprocessed`);
  await db.user.batchPut(unprocessed);
  t.is((await stored(tableName)).size, 1_000, 'retrying error.unprocessed completes the batch');
});

test('a delete batch stopped mid-way lists the caller\'s keys deleted and not deleted', async (t) => {
  const { db, tableName } = t.context;
  const all = users(300);
  await db.user.batchPut(all);
  const { client } = faulty(tables().documents, { failAt: { call: 5, name: 'InternalServerError' } });
  const error = await t.throwsAsync(new SocialTable(client, { tableName, retry: { concurrency: 2 } }).user.batchDelete(all.map(keyOf)), { instanceOf: BatchError });
  const table = await stored(tableName);
  t.deepEqual((error.unprocessed as UserKey[]).map((k) => `User.${k.id}`).sort(), [...table.keys()].sort());
  t.is(error.written.length + table.size, 300);
  t.true((error.written as UserKey[]).every((k) => typeof k.id === 'string' && Object.keys(k).join() === 'id'));
});

test('a read batch that gives up keeps the items it read and lists the keys it did not', async (t) => {
  const { db, tableName } = t.context;
  const all = users(250);
  await db.user.batchPut(all);
  const { client } = faulty(tables().documents, { failAt: { call: 2, name: 'InternalServerError' } });
  const error = await t.throwsAsync(new SocialTable(client, { tableName, retry: { concurrency: 1 } }).user.batchGet(all.map(keyOf)), { instanceOf: BatchError });
  t.is(error.operation, 'batchGet');
  t.deepEqual(error.items, all.slice(0, 100));
  t.deepEqual(error.unprocessed, all.slice(100).map(keyOf));
  t.is((await stored(tableName)).size, 250);
});

test('when nothing progresses, the batch gives up within its budget with everything listed', async (t) => {
  const { tableName } = t.context;
  const { client } = faulty(tables().documents, { unprocessed: 1 });
  const db = new SocialTable(client, { tableName, retry: { maxAttempts: 4, baseDelayMs: 1 } });
  const all = users(60);
  const error = await t.throwsAsync(db.user.batchPut(all), { instanceOf: UnprocessedItemsError });
  t.is(error.attempts, 4);
  t.deepEqual(error.unprocessed, all);
  t.is((await stored(tableName)).size, 0);
});
