// Cold start of a Lambda-style handler: the README's app (the init starter's orders put, got and
// queried through the function forms over createAppContext) as a handler module whose client is
// created at its top level, as Lambda code does, bundled by esbuild (ESM, minified), against the
// same handler written by hand with lib-dynamodb (explicit keys and object literals). Each
// measurement is a new Node process that imports the bundle, calls the handler once (a put, a get
// and a query against a local endpoint: `ddbgen local`, the table created beforehand) and prints
// the milliseconds from its start (performance.now()) to the handler's answer. The variants run
// interleaved, one process each per round in rotating order; the difference ddbgen − hand-written
// is taken within each round. Before any timing, a correctness gate: every variant returns the same
// answer and leaves the same item in the table.
//
// Two ways to ship the SDK, both measured: bundled into the handler (what esbuild does by default
// and the AWS CDK's NodejsFunction does for a pinned SDK), and external (`@aws-sdk/*` and
// `@smithy/*` left to `import`: Lambda's Node.js runtimes ship SDK v3, and a bundle that uses it
// carries only its own code; here it is loaded from node_modules).
//
// `npx tsx bench/cold-start.ts [--processes 20] [--instructions 1]` runs it alone (--instructions N:
// also N processes per variant under valgrind, counting the instructions they execute, which a busy
// machine does not change); bench/run.ts (section 13) the same, counting 3 processes per variant in a
// full run where valgrind is installed.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { build } from 'esbuild';
import { isDeepStrictEqual } from 'node:util';
import { SUBJECTS, generateSubject } from './footprint.js';
import { startDdbgenLocal } from './local-server.js';
import { stats, type Stats } from './stats.js';

const exec = promisify(execFile);
const here = path.dirname(new URL(import.meta.url).pathname);
const readme = SUBJECTS.find((s) => s.folder === 'app')!;

/** The README's app as a Lambda handler: the function forms over createAppContext, the client made at the module's top level. */
const DDBGEN_HANDLER = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createAppContext, orderGet, orderPut, orderQuery } from './out/app/index.js';

const db = createAppContext(DynamoDBDocumentClient.from(new DynamoDBClient({})));

export const handler = async (event) => {
  const order = { userId: event.userId, orderId: event.orderId, placedAt: new Date(event.placedAt), total: event.total };
  await orderPut(db, order);
  const got = await orderGet(db, { userId: order.userId, placedAt: order.placedAt, orderId: order.orderId });
  const page = await orderQuery(db, { userId: order.userId });
  return { order: got, orders: page.items };
};
`;

/** The same handler written by hand with lib-dynamodb: the requests ddbgen sends (section 1's gate), keys and items as literals. */
const HAND_HANDLER = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const toOrder = (r) => ({ userId: r.userId, orderId: r.orderId, placedAt: new Date(r.placedAt), total: r.total });

export const handler = async (event) => {
  const placedAt = new Date(event.placedAt).toISOString();
  const pk = 'USER#' + event.userId;
  const sk = 'ORDER#' + placedAt + '#' + event.orderId;
  await client.send(new PutCommand({ TableName: 'App', Item: { userId: event.userId, orderId: event.orderId, placedAt, total: event.total, pk, sk } }));
  const got = await client.send(new GetCommand({ TableName: 'App', Key: { pk, sk } }));
  const page = await client.send(new QueryCommand({
    TableName: 'App',
    KeyConditionExpression: '#n0 = :v0 AND begins_with(#n1, :v1)',
    ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' },
    ExpressionAttributeValues: { ':v0': pk, ':v1': 'ORDER#' },
  }));
  return { order: got.Item && toOrder(got.Item), orders: page.Items.map(toOrder) };
};
`;

/** The event every handler is called with, as Lambda passes it (JSON: the date as a string). */
const EVENT = { userId: 'u1', orderId: 'o1', placedAt: '2026-01-01T00:00:00.000Z', total: 42 };

export interface Variant {
  /** `ddbgen, SDK bundled` */
  readonly label: string;
  readonly author: 'ddbgen' | 'hand-written';
  readonly sdk: 'bundled' | 'external';
  readonly file: string;
  readonly minified: number;
  readonly gzipped: number;
}

/** Bundles the handler as a Lambda deployment would: ESM, minified, for Node; the SDK in the bundle or left to the runtime. */
async function bundle(author: Variant['author'], sdk: Variant['sdk']): Promise<Variant> {
  const result = await build({
    stdin: { contents: author === 'ddbgen' ? DDBGEN_HANDLER : HAND_HANDLER, resolveDir: here, loader: 'js' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // the SDK's ES modules (its packages' "module" entry), as a Lambda bundler picks them for ESM output
    mainFields: ['module', 'main'],
    // a CommonJS dependency bundled into ESM may require() a Node built-in
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    ...(sdk === 'external' ? { external: ['@aws-sdk/*', '@smithy/*'] } : {}),
  });
  const bytes = result.outputFiles[0]!.contents;
  const file = path.join(here, 'out', 'cold-start', `${author}-${sdk}.mjs`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  return { label: `${author}, SDK ${sdk}`, author, sdk, file, minified: bytes.length, gzipped: gzipSync(bytes).length };
}

/** Milliseconds from a process's start: wall (performance.now()) and its CPU time (user + system), to the import done and to the answer. */
interface Timing {
  readonly imported: number;
  readonly answered: number;
  readonly importedCpu: number;
  readonly answeredCpu: number;
}
const FIELDS = ['imported', 'answered', 'importedCpu', 'answeredCpu'] as const;

/** What a fresh process runs: import the bundle, call the handler once, print the milliseconds from the process's start to the import done and to the answer, and the answer. */
const childScript = (variant: Variant) => `const { handler } = await import(${JSON.stringify(variant.file)});
const imported = performance.now();
const importedCpu = process.cpuUsage();
const answer = await handler(${JSON.stringify(EVENT)});
const answered = performance.now();
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ imported, answered, importedCpu: (importedCpu.user + importedCpu.system) / 1000, answeredCpu: (cpu.user + cpu.system) / 1000, answer }));`;

/** As Lambda's environment gives them: region and credentials in the environment; the endpoint in the SDK's own variable for DynamoDB. */
const childEnv = (endpoint: string) => ({
  ...process.env,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'ddbgen',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_ENDPOINT_URL_DYNAMODB: endpoint,
  NODE_OPTIONS: '',
});

/** One fresh Node process running the variant (childScript). */
async function coldRun(variant: Variant, endpoint: string): Promise<Timing & { answer: unknown }> {
  const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', childScript(variant)], { env: childEnv(endpoint), cwd: here });
  return JSON.parse(stdout);
}

/**
 * The instructions one fresh process of the variant executes (every thread), counted by valgrind's
 * callgrind, with V8's hash and random seeds fixed: a measure the machine's load does not move, to
 * tell a few milliseconds apart where the wall clock of a busy machine cannot. About 50× slower.
 */
async function instructionCount(variant: Variant, endpoint: string): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ddbgen-cold-'));
  try {
    const args = ['--tool=callgrind', `--callgrind-out-file=${path.join(dir, 'callgrind.out')}`, '--smc-check=all-non-file', process.execPath, '--hash-seed=1', '--random-seed=1', '--input-type=module', '-e', childScript(variant)];
    const { stderr } = await exec('valgrind', args, { env: childEnv(endpoint), cwd: here, maxBuffer: 1 << 24 });
    const collected = /Collected : (\d+)/.exec(stderr);
    if (!collected) throw new Error(`valgrind counted nothing: ${stderr.slice(-2000)}`);
    return Number(collected[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ColdStartResult {
  readonly title: string;
  readonly text: string;
  /** ddbgen − hand-written, median of the rounds' differences, SDK bundled and external (ms). */
  readonly added: { bundled: Stats; external: Stats };
  /** ddbgen's added instructions as a share of the hand-written process's (median of the counted processes), SDK bundled and external; undefined when none were counted. */
  readonly addedInstructions?: { bundled: number; external: number };
  readonly load: string;
}

const ms = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(1));
const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

/** The cold-start benchmark: `processes` fresh processes per variant, interleaved; and `counted` more per variant under valgrind (instructionCount), when asked. */
export async function benchColdStart(processes: number, counted = 0): Promise<ColdStartResult> {
  generateSubject(readme);
  const variants = [await bundle('ddbgen', 'bundled'), await bundle('hand-written', 'bundled'), await bundle('ddbgen', 'external'), await bundle('hand-written', 'external')];
  const { server } = await startDdbgenLocal();
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: server.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'ddbgen', secretAccessKey: 'local' } }));
  try {
    const { appTableDefinition } = await import('./out/app/table-definition.js');
    await client.send(new CreateTableCommand(appTableDefinition()));
    // Correctness gate: from an empty table, each variant answers alike and leaves the same items.
    const scan = async () => (await client.send(new ScanCommand({ TableName: 'App' }))).Items ?? [];
    let reference: { answer: unknown; stored: unknown } | undefined;
    for (const variant of variants) {
      for (const item of await scan()) await client.send(new DeleteCommand({ TableName: 'App', Key: { pk: item['pk'], sk: item['sk'] } }));
      const { answer } = await coldRun(variant, server.endpoint);
      const stored = await scan();
      if (!(answer as { orders?: unknown[] }).orders?.length) throw new Error(`${variant.label}: the query found nothing: ${JSON.stringify(answer)}`);
      if (!reference) reference = { answer, stored };
      else if (!isDeepStrictEqual(answer, reference.answer) || !isDeepStrictEqual(stored, reference.stored))
        throw new Error(`${variant.label} answers ${JSON.stringify(answer)} and stores ${JSON.stringify(stored)}; ${variants[0]!.label} ${JSON.stringify(reference.answer)} and ${JSON.stringify(reference.stored)}`);
    }
    // Interleaved rounds: every variant once per round, in rotating order.
    const times = variants.map(() => Object.fromEntries(FIELDS.map((f) => [f, [] as number[]])) as Record<(typeof FIELDS)[number], number[]>);
    for (let round = 0; round < processes; round++) {
      for (let i = 0; i < variants.length; i++) {
        const at = (i + round) % variants.length;
        const run = await coldRun(variants[at]!, server.endpoint);
        for (const field of FIELDS) times[at]![field].push(run[field]);
      }
    }
    const load = os.loadavg().map((l) => l.toFixed(1)).join(', ');
    const rows = variants.map((v, i) => {
      const t = times[i]!;
      const answered = stats(t.answered);
      return `| ${v.label} | ${kB(v.minified)} | ${kB(v.gzipped)} | ${ms(stats(t.imported).median)} ms | ${ms(answered.median)} ms (${ms(answered.min)} – ${ms(answered.max)}) | ${ms(stats(t.importedCpu).median)} ms | ${ms(stats(t.answeredCpu).median)} ms |`;
    });
    /** ddbgen − hand-written within each round: the variants at `ours` and `ours + 1`. */
    const difference = (ours: number, field: (typeof FIELDS)[number]) => stats(times[ours]![field].map((t, i) => t - times[ours + 1]![field][i]!));
    const range = (s: Stats) => `${ms(s.median)} ms (${ms(s.min)} – ${ms(s.max)})`;
    const added = { bundled: difference(0, 'answered'), external: difference(2, 'answered') };
    const differences = ([['bundled', 0], ['external', 2]] as const).map(
      ([sdk, at]) => `| SDK ${sdk} | ${range(difference(at, 'answered'))} | ${range(difference(at, 'imported'))} | ${range(difference(at, 'answeredCpu'))} | ${range(difference(at, 'importedCpu'))} |`,
    );
    const met = added.bundled.median <= 5 && added.external.median <= 5;
    // the instructions executed, where asked: every variant `counted` times, interleaved, the medians compared
    const counts = variants.map(() => [] as number[]);
    for (let round = 0; round < counted; round++) for (let i = 0; i < variants.length; i++) counts[i]!.push(await instructionCount(variants[i]!, server.endpoint));
    const shareOf = (at: number) => (stats(counts[at]!).median - stats(counts[at + 1]!).median) / stats(counts[at + 1]!).median;
    const instructions = counted
      ? `\n\nInstructions executed (valgrind's callgrind, every thread of the process, V8's hash and random seeds fixed; median of ${counted} process${counted === 1 ? '' : 'es'} per variant): the machine's load does not move them. ` +
        ([['bundled', 0], ['external', 2]] as const)
          .map(([sdk, at]) => {
            const [ours, theirs] = [stats(counts[at]!).median, stats(counts[at + 1]!).median];
            const share = shareOf(at);
            return `SDK ${sdk}: ddbgen ${(ours / 1e6).toFixed(1)} M, hand-written ${(theirs / 1e6).toFixed(1)} M, ${share >= 0 ? '+' : ''}${((ours - theirs) / 1e6).toFixed(1)} M (${(share * 100).toFixed(2)} %; at the hand-written process's median wall time in this run, ${ms(share * stats(times[at + 1]!.answered).median)} ms)`;
          })
          .join('; ') +
        '.'
      : '';
    const text =
      "The README's app as a Lambda-style handler (`bench/cold-start.ts`): the init starter's orders put, got and queried through the function forms over `createAppContext`, the client created at the module's top level, against the same handler written by hand with lib-dynamodb (the same three requests, keys and items as literals). " +
      'Each bundled by esbuild (ESM, minified, Node 20), the AWS SDK either bundled into the handler or external (`@aws-sdk/*`, `@smithy/*` left to `import`, as on Lambda\'s Node.js runtimes, which ship SDK v3; here loaded from node_modules). ' +
      `Each measurement is a fresh Node process that imports the bundle and calls \`handler(event)\` once against \`ddbgen local\` on 127.0.0.1 (the table created beforehand), timed from the process's start (\`performance.now()\`; and its CPU time, user + system, from \`process.cpuUsage()\`) to the import done and to the handler's answer; ${processes} processes per variant, the four variants interleaved in rotating order, the difference ddbgen − hand-written taken within each round. ` +
      'Correctness gate first: from an empty table, every variant returns the same answer and leaves the same item. ' +
      `Load average at the end: ${load} (1, 5, 15 min). \`npx tsx bench/cold-start.ts\` runs this section alone; \`--instructions N\` adds N processes per variant under valgrind, counting the instructions they execute, which a busy machine does not change.\n\n` +
      '| handler | minified | gzipped | start to import done, wall (median) | start to first answer, wall (median, min – max) | CPU to import done (median) | CPU to first answer (median) |\n|---|---|---|---|---|---|---|\n' +
      `${rows.join('\n')}\n\n` +
      'ddbgen − hand-written, within each round (median, min – max of the rounds):\n\n' +
      '| SDK | to the first answer, wall | to the import done, wall | to the first answer, CPU | to the import done, CPU |\n|---|---|---|---|---|\n' +
      `${differences.join('\n')}\n\n` +
      `Target: ddbgen's added time to the first answer ≤ 5 ms (median of ${processes} fresh processes) — ${met ? 'met' : 'missed'} (SDK bundled ${ms(added.bundled.median)} ms, SDK external ${ms(added.external.median)} ms).${instructions}`;
    return {
      title: '13. Cold start of a Lambda-style handler (fresh Node processes, `ddbgen local`)',
      text,
      added: { bundled: added.bundled, external: added.external },
      ...(counted ? { addedInstructions: { bundled: shareOf(0), external: shareOf(2) } } : {}),
      load,
    };
  } finally {
    client.destroy();
    await server.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const option = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
  const result = await benchColdStart(option('--processes', 20), option('--instructions', 0));
  process.stdout.write(`## ${result.title}\n\n${result.text}\n`);
}
