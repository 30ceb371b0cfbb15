// Fault injection through SDK middleware and a fake client: non-idempotent writes are never retried
// blindly, transaction conflicts are retried with the same token, cancellations are typed, and the
// exact TransactWriteItems input.
import test from 'ava';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { AmbiguousWriteError, ConditionFailedError, SocialTable, TransactionError, VersionConflictError, type SocialTableOptions } from '../../out/social/index.js';

const day = (d: number) => new Date(Date.UTC(2024, 0, d));
const key = { userId: 'u', updatedAt: day(1), articleId: 'a' };

/** A real SDK client (3 attempts, standard retries) whose every request fails with `fault` before reaching any network. */
function failingClient(fault: () => Error) {
  const client = new DynamoDBClient({ endpoint: 'http://127.0.0.1:9', region: 'local', credentials: { accessKeyId: 'x', secretAccessKey: 'y' }, maxAttempts: 3 });
  const documents = DynamoDBDocumentClient.from(client);
  let attempts = 0;
  documents.middlewareStack.add(() => async () => {
    attempts++;
    throw fault();
  }, { step: 'deserialize', name: 'injectFault' });
  return { db: new SocialTable(documents, { tableName: 'T' }), attempts: () => attempts };
}

const timeout = () => Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
const throttle = () => Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException', $metadata: { httpStatusCode: 400 }, $fault: 'client' });

test('a counter update that times out is not retried: AmbiguousWriteError after one attempt', async (t) => {
  const { db, attempts } = failingClient(timeout);
  const error = await t.throwsAsync(db.article.update(key, { add: { views: 1 } }), { instanceOf: AmbiguousWriteError });
  t.is(attempts(), 1);
  t.is(error.code, 'WRITE_AMBIGUOUS');
  t.deepEqual(error.key, { pk: 'User.u', sk: 'Article.2024-01-01T00:00:00\\.000Z.a' });
});

test('an idempotent update that times out is retried by the SDK as usual', async (t) => {
  const { db, attempts } = failingClient(timeout);
  await t.throwsAsync(db.article.update(key, { set: { views: 1 } }), { name: 'TimeoutError' });
  t.is(attempts(), 3);
});

test('a throttled counter update is retried (a throttled request was not applied)', async (t) => {
  const { db, attempts } = failingClient(throttle);
  await t.throwsAsync(db.article.update(key, { add: { views: 1 } }), { name: 'ProvisionedThroughputExceededException' });
  t.is(attempts(), 3);
});

test('a versioned counter update is guarded by its version, so it is retried normally', async (t) => {
  const { db, attempts } = failingClient(timeout);
  await t.throwsAsync(db.settings.update({ userId: 'u' }, { set: { theme: 'dark' } }, { expectedVersion: 1 }), { name: 'TimeoutError' });
  t.is(attempts(), 3);
});

function fakeTransactions(responses: Array<Error | undefined>, options: SocialTableOptions = { transactionRetry: { sleep: async () => undefined } }) {
  const inputs: Array<{ ClientRequestToken: string; TransactItems: unknown[] }> = [];
  const client = {
    send: async (command: unknown) => {
      if (!(command instanceof TransactWriteCommand)) throw new Error('unexpected command');
      inputs.push(command.input as never);
      const next = responses.shift();
      if (next) throw next;
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { db: new SocialTable(client, { tableName: 'T', ...options }), inputs };
}

const cancelled = (...reasons: Array<{ Code: string; Item?: unknown }>) => Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: reasons });

test('TransactionConflict is retried with the same ClientRequestToken until it succeeds', async (t) => {
  const { db, inputs } = fakeTransactions([cancelled({ Code: 'None' }, { Code: 'TransactionConflict' }), cancelled({ Code: 'TransactionConflict' }, { Code: 'None' }), undefined]);
  await db.transaction().user.put({ id: 'a', email: 'e', status: 'ACTIVE', joinedAt: day(1) }).article.update(key, { set: { views: 2 } }).commit();
  t.is(inputs.length, 3);
  t.is(new Set(inputs.map((i) => i.ClientRequestToken)).size, 1);
  t.regex(inputs[0]!.ClientRequestToken, /^[0-9a-f-]{32,36}$/);
});

test('conflicts past the attempt budget, and conditional failures, become TransactionErrors naming the item', async (t) => {
  const conflicts = fakeTransactions(Array(5).fill(cancelled({ Code: 'TransactionConflict' })));
  const exhausted = await t.throwsAsync(conflicts.db.transaction().user.delete({ id: 'a' }).commit(), { instanceOf: TransactionError });
  t.is(conflicts.inputs.length, 5);
  t.like(exhausted.failures[0], { index: 0, operation: 'delete', entity: 'User', reason: 'TransactionConflict' });

  const versions = fakeTransactions([cancelled({ Code: 'None' }, { Code: 'ConditionalCheckFailed', Item: { revision: { N: '4' } } })]);
  const stale = await t.throwsAsync(
    versions.db.transaction().user.delete({ id: 'a' }).settings.update({ userId: 'a' }, { set: { theme: 'dark' } }, { expectedVersion: 3 }).commit(),
    { instanceOf: TransactionError },
  );
  t.is(versions.inputs.length, 1, 'a condition failure is not retried');
  t.true(stale.failures[0]!.error instanceof VersionConflictError);
  t.is(stale.message, 'transaction cancelled, nothing written: update Settings { userId: "a" }: ConditionalCheckFailed');

  const check = fakeTransactions([cancelled({ Code: 'ConditionalCheckFailed' })]);
  const checked = await t.throwsAsync(check.db.transaction().user.check({ id: 'a' }, { status: { eq: 'ACTIVE' } }).commit({ token: 'my-token' }), { instanceOf: TransactionError });
  t.true(checked.failures[0]!.error instanceof ConditionFailedError);
  t.is(check.inputs[0]!.ClientRequestToken, 'my-token');
});

test('transactions have their own retry policy: the table-level batch retry does not change it', async (t) => {
  const conflicts = () => [cancelled({ Code: 'TransactionConflict' }), cancelled({ Code: 'TransactionConflict' }), undefined];
  const batchOnly = fakeTransactions(conflicts(), { retry: { maxAttempts: 1, sleep: async () => undefined }, transactionRetry: { sleep: async () => undefined } });
  await batchOnly.db.transaction().user.delete({ id: 'a' }).commit();
  t.is(batchOnly.inputs.length, 3, 'retry.maxAttempts 1 leaves transactions at their default of 5');
  const twice = fakeTransactions(conflicts(), { transactionRetry: { maxAttempts: 2, sleep: async () => undefined } });
  await t.throwsAsync(twice.db.transaction().user.delete({ id: 'a' }).commit(), { instanceOf: TransactionError });
  t.is(twice.inputs.length, 2);
  const perCommit = fakeTransactions(conflicts(), { transactionRetry: { maxAttempts: 2, sleep: async () => undefined } });
  await perCommit.db.transaction().user.delete({ id: 'a' }).commit({ retry: { maxAttempts: 3 } });
  t.is(perCommit.inputs.length, 3, 'commit options override the table');
});

test('the exact TransactWriteItems input', async (t) => {
  const { db, inputs } = fakeTransactions([undefined]);
  await db
    .transaction()
    .user.create({ id: 'a', email: 'e', status: 'ACTIVE', joinedAt: day(1) })
    .settings.update({ userId: 'a' }, { set: { theme: 'dark' } }, { expectedVersion: 2 })
    .user.check({ id: 'b' }, { status: { ne: 'BANNED' } })
    .article.delete(key)
    .commit({ token: 't' });
  t.deepEqual(inputs[0], {
    ClientRequestToken: 't',
    TransactItems: [
      {
        Put: {
          TableName: 'T',
          Item: { id: 'a', email: 'e', status: 'ACTIVE', joinedAt: '2024-01-01T00:00:00.000Z', pk: 'User.a', sk: 'PROFILE' },
          ConditionExpression: 'attribute_not_exists(#n0)',
          ExpressionAttributeNames: { '#n0': 'pk' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      {
        Update: {
          TableName: 'T',
          Key: { pk: 'User.a', sk: 'SETTINGS' },
          UpdateExpression: 'SET #n0 = :v0, #n1 = :v1',
          ConditionExpression: 'attribute_exists(#n2) AND #n1 = :v2',
          ExpressionAttributeNames: { '#n0': 'theme', '#n1': 'revision', '#n2': 'pk' },
          ExpressionAttributeValues: { ':v0': 'dark', ':v1': 3, ':v2': 2 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      {
        ConditionCheck: {
          TableName: 'T',
          Key: { pk: 'User.b', sk: 'PROFILE' },
          ConditionExpression: '#n0 <> :v0',
          ExpressionAttributeNames: { '#n0': 'status' },
          ExpressionAttributeValues: { ':v0': 'BANNED' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      { Delete: { TableName: 'T', Key: { pk: 'User.u', sk: 'Article.2024-01-01T00:00:00\\.000Z.a' } } },
    ],
  });
});

test('an increment that times out is not retried either', async (t) => {
  const { db, attempts } = failingClient(timeout);
  await t.throwsAsync(db.dailyStats.increment({ userId: 'u', day: new Date(0) }, { views: 1 }), { instanceOf: AmbiguousWriteError });
  t.is(attempts(), 1);
});

test('scanSegments asks each segment for its part, page by page, with bounded concurrency', async (t) => {
  const inputs: Array<{ Segment?: number; TotalSegments?: number; Limit?: number; ExclusiveStartKey?: unknown }> = [];
  let inFlight = 0;
  let most = 0;
  const client = {
    send: async (command: { input: (typeof inputs)[number] }) => {
      inputs.push(command.input);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      const first = command.input.ExclusiveStartKey === undefined;
      const segment = command.input.Segment!;
      return { Items: [{ pk: `User.s${segment}${first ? 'a' : 'b'}`, sk: 'PROFILE', id: `s${segment}`, email: 'e', status: 'ACTIVE', joinedAt: '2024-01-01T00:00:00.000Z' }], ...(first ? { LastEvaluatedKey: { pk: 'x', sk: 'y' } } : {}) };
    },
  } as unknown as DynamoDBDocumentClient;
  const db = new SocialTable(client, { tableName: 'T' });
  const seen: string[] = [];
  for await (const entry of db.scanSegments({ segments: 5, concurrency: 2, pageSize: 7 })) seen.push(`${entry.type}`);
  t.is(seen.length, 10);
  t.true(seen.every((s) => s === 'User'));
  t.is(most, 2);
  t.deepEqual([...new Set(inputs.map((i) => i.Segment))].sort(), [0, 1, 2, 3, 4]);
  t.true(inputs.every((i) => i.TotalSegments === 5 && i.Limit === 7));
});
