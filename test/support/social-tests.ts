// Connected tests of a generated API (fixtures/social.ts, fixtures/fans.ts): one DynamoDB Local per
// test file, started before and stopped after, and a fresh table for every test (tests run
// concurrently).
import { randomUUID } from 'node:crypto';
import anyTest, { type TestFn } from 'ava';
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SocialTable, socialTableDefinition } from '../../out/social/index.js';
import { startDynamoDbLocal, type LocalDynamo } from './dynamodb-local.js';

/** Tests whose context is a fresh table (`name-<uuid>`) and the generated table class over it. */
export function tableTests<Db>(
  name: string,
  definition: (tableName: string) => CreateTableCommandInput,
  open: (client: DynamoDBDocumentClient, tableName: string) => Db,
  onStart?: (local: LocalDynamo) => void,
) {
  const test = anyTest as TestFn<{ db: Db; tableName: string }>;
  let local: LocalDynamo | undefined;
  test.before(async () => {
    local = await startDynamoDbLocal();
    onStart?.(local);
  });
  test.after.always(async () => {
    await local?.stop();
  });
  test.beforeEach(async (t) => {
    const tableName = `${name}-${randomUUID()}`;
    await local!.createTable(definition(tableName));
    t.context = { db: open(local!.documents, tableName), tableName };
  });
  return { test, local: () => local! };
}

export function socialTests(onStart?: (local: LocalDynamo) => void) {
  return tableTests('social', socialTableDefinition, (client, tableName) => new SocialTable(client, { tableName }), onStart);
}
