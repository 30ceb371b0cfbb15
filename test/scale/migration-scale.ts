// `npm run migration:scale`: the coordinated migration at the size, on DynamoDB Local. The
// library design (MEMBER → PATRON, which moves every member and every forward edge half) with
// ~100,000 items (DDBGEN_SCALE_ITEMS), migrated by 1, 2, 4 and 8 coordinated worker processes in
// turn (a fresh table each, items per second measured from the first worker's start to the last
// one's end), then the acceptance run: 8 workers, two killed by pid at random moments, one new
// worker started later, every item checked to be moved exactly once. Prints the figures.
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { scanTable, startDynamoDbLocal, type LocalDynamo } from '../support/dynamodb-local.js';
import { librarySchema, libraryItems } from '../support/library-design.js';
import { emitMigration, putRaw, root, runProgram, startProgram, type Run } from '../support/migration-program.js';

const ITEMS = Number(process.env.DDBGEN_SCALE_ITEMS ?? 100_000);
const WORKERS = (process.env.DDBGEN_SCALE_WORKERS ?? '1,2,4,8').split(',').map(Number);
const SEGMENTS = 32;
// members borrow one book each (3 items), a book per 5 members, 16 counters: ~3.2 items per member
const MEMBERS = Math.round((ITEMS - 16) / 3.2);

interface Figures {
  readonly workers: number;
  readonly items: number;
  readonly moved: number;
  readonly seconds: number;
}

async function seed(local: LocalDynamo, tableName: string, items: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const streams = 8;
  const share = Math.ceil(items.length / streams);
  await Promise.all(Array.from({ length: streams }, (_, i) => putRaw(local.documents, tableName, items.slice(i * share, (i + 1) * share))));
}

/** Checks the table item by item: every item in its new form, once. Throws on the first difference. */
async function check(local: LocalDynamo, tableName: string, expected: readonly string[]): Promise<void> {
  const items = await scanTable(local.documents, tableName);
  const keys = new Set(items.map((i) => `${String(i.pk)} ${String(i.sk)}`));
  if (items.length !== expected.length || keys.size !== items.length) throw new Error(`${tableName}: ${items.length} items (${keys.size} keys), expected ${expected.length}`);
  const missing = expected.filter((k) => !keys.has(k));
  if (missing.length) throw new Error(`${tableName}: ${missing.length} items missing, e.g. ${missing.slice(0, 3).join(', ')}`);
}

async function main(): Promise<void> {
  const local = await startDynamoDbLocal();
  const dir = path.join(root, 'out', `.migration-scale-${randomUUID()}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(path.join(dir, 'old.ts'), librarySchema());
    writeFileSync(path.join(dir, 'new.ts'), librarySchema({ member: 'PATRON' }));
    const emitted = await emitMigration(dir, ['old.ts', 'new.ts']);
    if (emitted.code !== 0) throw new Error(emitted.stderr);
    const program = path.join(dir, 'migrations', 'library', 'migrate-library.ts');
    const after = await import(path.join(dir, 'migrations', 'library', 'new', 'library', 'index.js'));
    const data = libraryItems(MEMBERS);
    process.stderr.write(`migration:scale: ${data.items.length} items (${data.moved} to move), ${SEGMENTS} segments, DynamoDB Local at ${local.endpoint}\n`);

    const prepare = async () => {
      const tableName = `library-${randomUUID()}`;
      await local.createTable(after.libraryTableDefinition(tableName));
      const t0 = Date.now();
      await seed(local, tableName, data.items);
      process.stderr.write(`  seeded ${tableName} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
      return tableName;
    };
    const args = (tableName: string) => ['--coordinate', '--table', tableName, '--segments', String(SEGMENTS), '--lease-seconds', '10', '--max-wcu', '100000'];
    const finish = async (tableName: string, runs: Run[]) => {
      for (const run of runs) if (run.code !== 0) throw new Error(`a worker failed (exit ${run.code}):\n${run.stderr}`);
      await check(local, tableName, data.expected);
      const status = JSON.parse((await runProgram(program, ['status', '--table', tableName, '--format', 'json'], local.endpoint)).stdout);
      if (status.done !== SEGMENTS || status.counts.rewritten !== data.moved || status.counts.superseded !== 0) throw new Error(`${tableName}: status ${JSON.stringify(status.counts)}, expected ${data.moved} rewritten`);
      await local.client.send(new DeleteTableCommand({ TableName: tableName }));
      await local.client.send(new DeleteTableCommand({ TableName: `${tableName}-migration` }));
    };

    const figures: Figures[] = [];
    for (const workers of WORKERS) {
      const tableName = await prepare();
      const t0 = Date.now();
      const runs = await Promise.all(Array.from({ length: workers }, () => startProgram(program, args(tableName), local.endpoint).done));
      const seconds = (Date.now() - t0) / 1000;
      await finish(tableName, runs);
      figures.push({ workers, items: data.items.length, moved: data.moved, seconds });
      process.stderr.write(`  ${workers} worker${workers === 1 ? '' : 's'}: ${seconds.toFixed(1)} s, ${Math.round(data.items.length / seconds)} items/s\n`);
    }

    // the acceptance run: 8 workers, two killed at random moments, a new one started later
    const tableName = await prepare();
    const t0 = Date.now();
    const workers = Array.from({ length: 8 }, () => startProgram(program, args(tableName), local.endpoint));
    const estimate = figures.find((f) => f.workers === 8)?.seconds ?? 60;
    const kills = [0.15 + Math.random() * 0.25, 0.3 + Math.random() * 0.3].map((share) => Math.round(share * estimate * 1000));
    const timeline: string[] = [];
    const killed = kills.map((ms, i) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          process.kill(workers[i]!.pid, 'SIGKILL');
          timeline.push(`worker ${i + 1} (pid ${workers[i]!.pid}) killed at ${(ms / 1000).toFixed(1)} s`);
          resolve();
        }, ms),
      ),
    );
    await killed[0];
    const lateAt = Math.max(kills[0]!, Math.round(0.45 * estimate * 1000));
    await new Promise((resolve) => setTimeout(resolve, lateAt - kills[0]!));
    const late = startProgram(program, args(tableName), local.endpoint);
    timeline.push(`worker 9 (pid ${late.pid}) started at ${(lateAt / 1000).toFixed(1)} s`);
    await killed[1];
    const ended = await Promise.all([...workers.map((w) => w.done), late.done]);
    const seconds = (Date.now() - t0) / 1000;
    await finish(tableName, ended.filter((_, i) => i > 1));
    const takeovers = ended.map((r) => r.stderr.match(/its lease expired/g)?.length ?? 0).reduce((a, b) => a + b, 0);

    const lines = [
      '',
      `Coordinated migration on DynamoDB Local (${data.items.length} items, ${data.moved} moved, ${SEGMENTS} segments, one machine):`,
      '',
      '| workers | seconds | items/s | moved items/s |',
      '|---|---|---|---|',
      ...figures.map((f) => `| ${f.workers} | ${f.seconds.toFixed(1)} | ${Math.round(f.items / f.seconds)} | ${Math.round(f.moved / f.seconds)} |`),
      '',
      `Acceptance run: 8 workers, ${timeline.join(', ')}; ${takeovers} segment${takeovers === 1 ? '' : 's'} taken over from a dead worker's checkpoint;`,
      `finished in ${seconds.toFixed(1)} s (${Math.round(data.items.length / seconds)} items/s): every item moved exactly once (${data.items.length} items checked by key; ${data.moved} rewritten in the lease table's counts, none twice).`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await local.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
