// Connected tests of the API generated from fixtures/social.ts: one DynamoDB Local per test file,
// started before and stopped after, and a fresh table for every test (tests run concurrently).
import { randomUUID } from 'node:crypto';
import anyTest, { type TestFn } from 'ava';
import { SocialTable, socialTableDefinition } from '../../out/social/index.js';
import { startDynamoDbLocal, type LocalDynamo } from './dynamodb-local.js';

export function socialTests(onStart?: (local: LocalDynamo) => void) {
  const test = anyTest as TestFn<{ db: SocialTable; tableName: string }>;
  let local: LocalDynamo | undefined;
  test.before(async () => {
    local = await startDynamoDbLocal();
    onStart?.(local);
  });
  test.after.always(async () => {
    await local?.stop();
  });
  test.beforeEach(async (t) => {
    const tableName = `social-${randomUUID()}`;
    await local!.createTable(socialTableDefinition(tableName));
    t.context = { db: new SocialTable(local!.documents, { tableName }), tableName };
  });
  return { test, local: () => local! };
}
