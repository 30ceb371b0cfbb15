// The proof of the in-memory table's fidelity: the same requests and app steps against DynamoDB
// Local and against the in-memory table, answers, errors (name, message, what they carry) and final
// tables compared item by item. Requests one by one (command-cases.ts), the fixtures' generated
// tables step by step (scenarios.ts, the Fans stream record by record), and random operation
// sequences (random-operations.ts; DDBGEN_DIFFERENTIAL_RUNS sets how many, default 25, and
// `npm run test:differential` runs 400). A deliberate difference is named in its case and listed in
// the testing guide (docs/guide/testing.md).
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import fc from 'fast-check';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record } from '@aws-sdk/client-dynamodb-streams';
import { FansTable, decodeFansStreamRecord, fansTableDefinition, type FansStreamEvent } from '../../out/fans/index.js';
import { SessionsTable, sessionsTableDefinition, sessionsTableSettings } from '../../out/sessions/index.js';
import { SocialTable, socialTableDefinition } from '../../out/social/index.js';
import { TenantsTable, tenantsTableDefinition } from '../../out/tenants/index.js';
import { contents, outcomeOf, plain, tablePair, type Outcome, type TablePair } from '../support/differential.js';
import { useDynamoDbLocal, type LocalDynamo } from '../support/dynamodb-local.js';
import { commandCases, numberAndBinaryCases, numberAndBinaryTable, type CommandCase } from './command-cases.js';
import { operations, type Send } from './random-operations.js';
import { fansScenario, Recorder, sessionsScenario, socialScenario, tenantsScenario } from './scenarios.js';

const test = anyTest as TestFn;
let local: LocalDynamo;
test.before(async () => {
  local = await useDynamoDbLocal();
});
test.after.always(async () => {
  await local?.stop();
});

const KEY = ['pk', 'sk'];
/** Random sequences to run; above 100 (npm run test:differential), longer ones and the requests of megabytes too. */
const RUNS = Number(process.env.DDBGEN_DIFFERENTIAL_RUNS ?? 25);
const sendTo = (client: { send(command: never): Promise<unknown> }): Send => (command) => client.send(command as never);
const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

/** An answer's items (or a batch get's responses) in a fixed order, for answers whose order DynamoDB leaves open. */
function unordered(outcome: Outcome): Outcome {
  if (!('ok' in outcome) || typeof outcome.ok !== 'object' || outcome.ok === null) return outcome;
  const ok = { ...(outcome.ok as Record<string, unknown>) };
  if (Array.isArray(ok.Items)) ok.Items = [...ok.Items].sort(byJson);
  if (ok.Responses && !Array.isArray(ok.Responses)) ok.Responses = Object.fromEntries(Object.entries(ok.Responses as Record<string, unknown[]>).map(([t, items]) => [t, [...items].sort(byJson)]));
  return { ok };
}

/** Sends each case to both tables in order and compares the outcomes, then the tables. */
async function requests(t: ExecutionContext, pair: TablePair, cases: readonly CommandCase[], key: readonly string[]) {
  const differences: string[] = [];
  for (const c of cases.filter((c) => !c.large || RUNS > 100)) {
    const run = (send: Send) => (c.run ? c.run(send, pair.tableName) : send(c.command!(pair.tableName)));
    let [want, got] = [await outcomeOf(() => run(sendTo(pair.local))), await outcomeOf(() => run(sendTo(pair.memory)))];
    if (c.unordered) [want, got] = [unordered(want), unordered(got)];
    if (c.deliberate) {
      t.notDeepEqual(got, want, `${c.name}: the deliberate difference (${c.deliberate.note}) is still there`);
      [want, got] = [c.deliberate.leaveOut(want), c.deliberate.leaveOut(got)];
    }
    if (JSON.stringify(got) !== JSON.stringify(want)) differences.push(`${c.name}\n  DynamoDB Local: ${JSON.stringify(want).slice(0, 400)}\n  in memory:      ${JSON.stringify(got).slice(0, 400)}`);
    t.deepEqual(got, want, c.name);
  }
  t.deepEqual(differences, [], differences.join('\n'));
  const { local: localItems, memory } = await contents(pair, key);
  t.true(localItems.length > 5);
  t.deepEqual(memory, localItems);
}

test('each request answers as DynamoDB Local answers it (answers, error names and messages), and leaves the same table', async (t) => {
  await requests(t, await tablePair(local, socialTableDefinition), commandCases, KEY);
});

test('numbers and bytes as keys: in the order DynamoDB sorts them', async (t) => {
  await requests(t, await tablePair(local, numberAndBinaryTable), numberAndBinaryCases, ['pk', 'n']);
});

/** Runs a scenario on both tables; the recorded steps and the tables afterwards must be equal. */
async function scenario<Db>(t: ExecutionContext, pair: TablePair, open: (client: TablePair['local'], tableName: string) => Db, steps: (db: Db, r: Recorder) => Promise<void>) {
  const [want, got] = [new Recorder(), new Recorder()];
  await steps(open(pair.local, pair.tableName), want);
  await steps(open(pair.memory, pair.tableName), got);
  for (const [i, step] of want.steps.entries()) t.deepEqual(got.steps[i], step, step.step);
  t.is(got.steps.length, want.steps.length);
  t.true(want.steps.some((s) => 'error' in s.outcome), 'the scenario meets errors too');
  const { local: localItems, memory } = await contents(pair, KEY);
  t.deepEqual(memory, localItems, 'the tables hold the same items');
}

test('fixtures/social.ts through SocialTable: every repository, index, edge, counter, transaction, batch and scan', async (t) => {
  await scenario(t, await tablePair(local, socialTableDefinition), (client, tableName) => new SocialTable(client, { tableName }), socialScenario);
});

test('fixtures/tenants.ts through TenantsTable: native multi-attribute GSI keys', async (t) => {
  await scenario(t, await tablePair(local, tenantsTableDefinition), (client, tableName) => new TenantsTable(client, { tableName }), async (db, r) => {
    await tenantsScenario(db, r);
    await r.step('a missing invoice', () => db.invoice.replace({ orgId: 't9', invoiceId: 'none', region: 'us', state: 'VOID', issuedAt: new Date(0) }));
  });
});

test('fixtures/sessions.ts through SessionsTable: items past their Time to Live, hidden and shown', async (t) => {
  await scenario(t, await tablePair(local, sessionsTableDefinition, sessionsTableSettings), (client, tableName) => new SessionsTable(client, { tableName }), async (db, r) => {
    await sessionsScenario(db, r);
    await r.step('a second user, created twice', async () => {
      await db.user.create({ userId: 'u2', name: 'Bo' });
      return db.user.create({ userId: 'u2', name: 'Bo' });
    });
  });
});

/** The table's stream on DynamoDB Local, every record so far, read as a consumer reads it. */
async function localStream(tableName: string, expected: number): Promise<_Record[]> {
  const arn = (await local.client.send(new DescribeTableCommand({ TableName: tableName }))).Table!.LatestStreamArn!;
  const streams = new DynamoDBStreamsClient({ endpoint: local.endpoint, region: 'local', credentials: { accessKeyId: 'ddbgen', secretAccessKey: 'local' }, maxAttempts: 1 });
  try {
    const records: _Record[] = [];
    for (const deadline = Date.now() + 30_000; records.length < expected && Date.now() < deadline; ) {
      records.length = 0;
      for (const shard of (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription!.Shards ?? []) {
        let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
        while (iterator) {
          const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
          records.push(...(page.Records ?? []));
          iterator = page.Records?.length ? page.NextShardIterator : undefined;
        }
      }
    }
    return records;
  } finally {
    streams.destroy();
  }
}

test('fixtures/fans.ts through FansTable: the stream, record by record, decoded by decodeFansStreamRecord', async (t) => {
  const pair = await tablePair(local, fansTableDefinition);
  await scenario(t, pair, (client, tableName) => new FansTable(client, { tableName }), async (db, r) => {
    await fansScenario(db, r);
    await r.step('create an existing user', () => db.user.create({ id: 1, name: 'again' }));
  });
  const memory = pair.memory.streamRecords();
  const records = await localStream(pair.tableName, memory.length);
  const shape = (record: { eventName?: string | undefined; dynamodb?: { Keys?: unknown; NewImage?: unknown; OldImage?: unknown; StreamViewType?: string | undefined } | undefined }) => plain({ eventName: record.eventName, ...record.dynamodb, ApproximateCreationDateTime: undefined, SequenceNumber: undefined });
  t.deepEqual(memory.map(shape), records.map(shape), 'the same records in the same order (no record for the put that changed nothing)');
  const event = (e: FansStreamEvent) => plain({ ...e, sequenceNumber: undefined });
  t.deepEqual(memory.map(decodeFansStreamRecord).map(event), records.map(decodeFansStreamRecord).map(event));
  t.is(memory.length, 9);
});

test(`random operation sequences (${RUNS} runs): every answer and error, then the tables item by item`, async (t) => {
  let sequences = 0;
  let compared = 0;
  const result = await fc.check(
    fc.asyncProperty(operations(RUNS > 100 ? 30 : 16), async (ops) => {
      const pair = await tablePair(local, socialTableDefinition);
      for (const [i, op] of ops.entries()) {
        const want = await outcomeOf(() => op.run(sendTo(pair.local), pair.tableName));
        const got = await outcomeOf(() => op.run(sendTo(pair.memory), pair.tableName));
        if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`step ${i + 1}, ${op.label}:\n  DynamoDB Local: ${JSON.stringify(want)}\n  in memory:      ${JSON.stringify(got)}`);
        compared++;
      }
      const { local: localItems, memory } = await contents(pair, KEY);
      if (JSON.stringify(memory) !== JSON.stringify(localItems)) throw new Error(`the tables differ:\n  DynamoDB Local: ${JSON.stringify(localItems)}\n  in memory:      ${JSON.stringify(memory)}`);
      sequences++;
    }),
    { numRuns: RUNS, ...(process.env.DDBGEN_DIFFERENTIAL_SEED ? { seed: Number(process.env.DDBGEN_DIFFERENTIAL_SEED) } : {}) },
  );
  if (result.failed) {
    const ops = (result.counterexample?.[0] ?? []) as Array<{ label: string }>;
    t.fail(`seed ${result.seed}: ${ops.map((o) => o.label).join('; ')}\n${(result.errorInstance as Error | undefined)?.message}`);
  }
  t.log(`${sequences} sequences, ${compared} answers compared`);
  t.true(compared >= RUNS);
});
