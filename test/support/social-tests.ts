// Tests of a generated API (fixtures/social.ts, fixtures/fans.ts, …) over a fresh table for every
// test (tests run concurrently): on DynamoDB Local (`tableTests`, the run's JVM, or one per test file
// when run by plain ava) or on the generated in-memory table (`memoryTableTests`, one
// InMemoryDynamoDB per test file, as create<Table>InMemory builds it), for behaviour that does not
// need DynamoDB Local itself. test/in-memory/differential.test.ts proves the in-memory table answers
// as DynamoDB Local does.
import { randomUUID } from 'node:crypto';
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SocialTable, socialTableDefinition } from '../../out/social/index.js';
import { InMemoryDynamoDB } from '../../out/social/runtime/in-memory/table.js';
import { useDynamoDbLocal, type LocalDynamo } from './dynamodb-local.js';

/** Where a test file's tables are: a DocumentClient over them, and a way to create one more. */
export interface TestTables {
  readonly documents: DynamoDBDocumentClient;
  createTable(input: CreateTableCommandInput): Promise<void>;
}

/**
 * `test(title, implementation)` over a fresh table: the tables start at the file's first test (once)
 * and stop after its last, and each test makes its table before it runs. The table is made inside the
 * test rather than by a beforeEach hook, so that a file of such tests can share a worker with others
 * (test/groups/): a hook would run for every test of the group, and set their contexts.
 */
function testsOver<Db, Tables extends TestTables>(
  name: string,
  definition: (tableName: string) => CreateTableCommandInput,
  open: (client: DynamoDBDocumentClient, tableName: string) => Db,
  start: () => Promise<Tables & { stop(): Promise<void> }>,
  onStart?: (tables: Tables) => void,
) {
  type Context = { db: Db; tableName: string };
  const anyContext = anyTest as TestFn<Context>;
  let started: Promise<Tables & { stop(): Promise<void> }> | undefined;
  let tables: (Tables & { stop(): Promise<void> }) | undefined;
  const ready = () =>
    (started ??= start().then((up) => {
      tables = up;
      onStart?.(up);
      return up;
    }));
  anyContext.after.always(async () => {
    await tables?.stop();
  });
  const test = (title: string, implementation: (t: ExecutionContext<Context>) => unknown) =>
    anyContext(title, async (t) => {
      const over = await ready();
      const tableName = `${name}-${randomUUID()}`;
      await over.createTable(definition(tableName));
      t.context = { db: open(over.documents, tableName), tableName };
      await implementation(t);
    });
  return { test, tables: (): Tables => tables! };
}

/** Tests whose context is a fresh table (`name-<uuid>`) on DynamoDB Local and the generated table class over it. */
export function tableTests<Db>(
  name: string,
  definition: (tableName: string) => CreateTableCommandInput,
  open: (client: DynamoDBDocumentClient, tableName: string) => Db,
  onStart?: (local: LocalDynamo) => void,
) {
  const { test, tables } = testsOver(name, definition, open, () => useDynamoDbLocal(), onStart);
  return { test, local: tables };
}

/** The same over the generated in-memory table: no JVM, no network. */
export function memoryTableTests<Db>(
  name: string,
  definition: (tableName: string) => CreateTableCommandInput,
  open: (client: DynamoDBDocumentClient, tableName: string) => Db,
  onStart?: (tables: TestTables) => void,
) {
  const start = async () => {
    const memory = new InMemoryDynamoDB();
    return { documents: memory, createTable: async (input: CreateTableCommandInput) => void memory.createTable(input), stop: async () => undefined };
  };
  return testsOver(name, definition, open, start, onStart);
}

export function socialTests(onStart?: (local: LocalDynamo) => void) {
  return tableTests('social', socialTableDefinition, (client, tableName) => new SocialTable(client, { tableName }), onStart);
}

export function memorySocialTests(onStart?: (tables: TestTables) => void) {
  return memoryTableTests('social', socialTableDefinition, (client, tableName) => new SocialTable(client, { tableName }), onStart);
}
