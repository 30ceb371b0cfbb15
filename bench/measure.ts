// How the sections measure: contenders side by side in rotating rounds, the correctness gates that
// run before anything is timed, whole processes timed (with GNU time, where there is one), and the
// DynamoDB Local a smoke run shares.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { useDynamoDbLocal, type LocalDynamo } from '../test/support/dynamodb-local.js';
import { stats } from './stats.js';

/**
 * --smoke (npm test's bench test): one DynamoDB Local for sections 5, 8 and 11, the run's when npm test
 * hands one over (RUN_LOCAL), else one started once with the test suite's JVM settings. No number of a
 * smoke run means anything, and each JVM's start and warm-up cost seconds of CPU. A measured run starts
 * a JVM of its own in each section. The sections' stop() leaves it running; the end of the run stops it.
 */
let smokeLocal: Promise<LocalDynamo> | undefined;
export const borrowedLocal = async (): Promise<LocalDynamo> => ({ ...(await (smokeLocal ??= useDynamoDbLocal())), stop: async () => {} });

/** Lets go of the smoke's one DynamoDB Local (stops it, or lets the test run's go) once every section is done. */
export async function releaseBorrowedLocal(): Promise<void> {
  if (smokeLocal) await (await smokeLocal).stop();
}

/** GNU time, where there is one: the CPU and the peak resident memory of a process and the children it waited for. */
export const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** A Node option that makes the process write its peak resident set (kB) to $DDBGEN_BENCH_RSS when it exits. */
export const PEAK_RSS = `--import=data:text/javascript,${encodeURIComponent("import { writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(process.env.DDBGEN_BENCH_RSS, String(process.resourceUsage().maxRSS)));")}`;

/** Every timed call's result goes here, so no contender's work can be optimised away. */
let consumed: unknown;

/** Times `fn` for `iterations` calls and returns ns per call. */
export async function time(fn: () => Promise<unknown> | unknown, iterations: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) consumed = await fn();
  return Number(process.hrtime.bigint() - start) / iterations;
}

/** Runs every contender once per round, in rotating order; returns per-contender times and per-round ratios to the first. */
export async function sideBySide(contenders: Record<string, () => Promise<unknown> | unknown>, iterations: number, rounds: number) {
  const names = Object.keys(contenders);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const name of names) await time(contenders[name]!, Math.ceil(iterations / 4)); // warm-up
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]!);
    for (const name of order) times[name]!.push(await time(contenders[name]!, iterations));
  }
  const base = names[0]!;
  return names.map((name) => ({ name, ns: stats(times[name]!), ratio: stats(times[name]!.map((t, i) => t / times[base]![i]!)) }));
}

/** A client that records the commands sent through it, in front of `client`. */
export function recording(client: DynamoDBDocumentClient): { client: DynamoDBDocumentClient; sent: unknown[] } {
  const sent: unknown[] = [];
  return { client: { send: (command: { input: unknown }) => (sent.push([command.constructor.name, command.input]), client.send(command as never)), config: client.config } as unknown as DynamoDBDocumentClient, sent };
}

/**
 * Correctness gate before timing: ddbgen and the expert baseline, each over a recording client,
 * send the same commands with the same whole inputs and return the same mapped result.
 */
export async function sameWork(label: string, client: DynamoDBDocumentClient, baseline: (client: DynamoDBDocumentClient) => Promise<unknown>, ddbgen: (client: DynamoDBDocumentClient) => Promise<unknown>): Promise<void> {
  const ours = recording(client);
  const theirs = recording(client);
  const [got, want] = [await ddbgen(ours.client), await baseline(theirs.client)];
  if (!isDeepStrictEqual(ours.sent, theirs.sent)) throw new Error(`${label}: ddbgen sends ${JSON.stringify(ours.sent)}, the baseline ${JSON.stringify(theirs.sent)}`);
  if (!isDeepStrictEqual(got, want)) throw new Error(`${label}: ddbgen returns ${JSON.stringify(got)}, the baseline ${JSON.stringify(want)}`);
}

/** Correctness gate before timing: every query contender returns the 100 items. */
export async function gate(contenders: Record<string, () => Promise<unknown> | unknown>, want: number): Promise<typeof contenders> {
  for (const [name, run] of Object.entries(contenders)) {
    const result = await run();
    const page = result as { data?: unknown[]; Items?: unknown[]; items?: unknown[] };
    const got = Array.isArray(result) ? result.length : (page.data ?? page.Items ?? page.items)?.length;
    if (got !== want) throw new Error(`${name} returned ${String(got)} items, not ${want}`);
  }
  return contenders;
}

/** Keeps a measured call's result, so that no contender's work can be optimised away. */
export function consume(value: unknown): void {
  consumed = value;
}

/** One new Node process running `args`: its wall time, and with GNU time its CPU (user + system, children included) and the largest process's peak RSS. */
export function timedRun(args: string[], cwd: string): { wall: number; cpu?: number; rssKb?: number } {
  const report = path.join(cwd, '.time');
  const start = process.hrtime.bigint();
  if (GNU_TIME) execFileSync(GNU_TIME, ['-f', '%U %S %M', '-o', report, process.execPath, ...args], { cwd, stdio: 'ignore' });
  else execFileSync(process.execPath, args, { cwd, stdio: 'ignore' });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (!GNU_TIME) return { wall };
  const [user, system, rss] = readFileSync(report, 'utf8').trim().split(/\s+/).slice(-3).map(Number) as [number, number, number];
  return { wall, cpu: user + system, rssKb: rss };
}
