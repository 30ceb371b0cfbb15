// `npx tsx bench/migration-workers.ts`: where a coordinated migration's time goes, and whether
// workers add throughput. The library design (MEMBER → PATRON) with ~ITEMS items on one DynamoDB
// Local, migrated by 1, 2 and 4 coordinated workers in turn (in this process, a client each, a fresh
// table each), first without a cap that binds, then under one. Per run: items per second from the
// first worker's start to the last one's end, the start-up (until the first segment is claimed), and
// per kind of request (Scan, TransactWriteItems, the lease table) how many, their mean latency and
// their summed time per worker-second (above 1: several in flight at once). Workers add throughput
// while the table answers as fast; once its latency grows with them, the table is the limit, and
// under a cap the cap is. Prints a Markdown table (BENCHMARKS.md, section 10).
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientFor, scanTable, startDynamoDbLocal, type LocalDynamo } from '../test/support/dynamodb-local.js';
import { libraryItems, librarySchema } from '../test/support/library-design.js';
import { emitMigration, putRaw, root } from '../test/support/migration-program.js';

const ITEMS = Number(process.env.DDBGEN_BENCH_ITEMS ?? 6000);
const WORKERS = (process.env.DDBGEN_BENCH_WORKERS ?? '1,2,4').split(',').map(Number);
const SEGMENTS = 16;
/** Under the cap: 1,000 WCU/s binds nothing here; 100 does. */
const CAPS = [1000, 100];

interface Kind {
  count: number;
  ms: number;
}

/** A worker's client that times every request by kind. */
function timedClient(local: LocalDynamo, leaseTable: string, kinds: Map<string, Kind>): DynamoDBDocumentClient {
  const client = DynamoDBDocumentClient.from(clientFor(local.endpoint), { marshallOptions: { removeUndefinedValues: true } });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TableName?: string };
      const kind = input.TableName === leaseTable ? 'lease table' : String(context.commandName).replace(/Command$/, '');
      const started = performance.now();
      try {
        return await next(args);
      } finally {
        const k = kinds.get(kind) ?? { count: 0, ms: 0 };
        k.count++;
        k.ms += performance.now() - started;
        kinds.set(kind, k);
      }
    },
    { step: 'initialize', name: 'timeRequests' },
  );
  return client;
}

async function main(): Promise<void> {
  const local = await startDynamoDbLocal();
  const dir = path.join(root, 'out', `.bench-migration-${randomUUID()}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(path.join(dir, 'old.ts'), librarySchema());
    writeFileSync(path.join(dir, 'new.ts'), librarySchema({ member: 'PATRON' }));
    const emitted = await emitMigration(dir, ['old.ts', 'new.ts']);
    if (emitted.code !== 0) throw new Error(emitted.stderr);
    const folder = path.join(dir, 'migrations', 'library');
    const { plan } = await import(path.join(folder, 'plan.ts'));
    const lease = await import(path.join(folder, 'new', 'library', 'runtime', 'migration', 'lease.js'));
    const after = await import(path.join(folder, 'new', 'library', 'index.js'));
    const data = libraryItems(Math.round((ITEMS - 16) / 3.2));
    const rows: string[] = [];
    for (const cap of CAPS) {
      for (const workers of WORKERS) {
        const tableName = `library-${randomUUID()}`;
        const leaseTable = `${tableName}-migration`;
        await local.createTable(after.libraryTableDefinition(tableName));
        await putRaw(local.documents, tableName, data.items);
        const kinds = new Map<string, Kind>();
        const clients = Array.from({ length: workers }, () => timedClient(local, leaseTable, kinds));
        const started = performance.now();
        let firstClaim: number | undefined;
        const log = (line: string) => {
          if (firstClaim === undefined && /claimed segment/.test(line)) firstClaim = performance.now() - started;
        };
        const reports = await Promise.all(clients.map((client) => lease.runWorker(plan, { client, tableName, leaseTable, segments: SEGMENTS, maxWcu: cap, log })));
        const seconds = (performance.now() - started) / 1000;
        for (const client of clients) client.destroy();
        if (!reports.every((r: { complete: boolean }) => r.complete)) throw new Error('a worker returned before the run was complete');
        const items = await scanTable(local.documents, tableName);
        if (items.length !== data.items.length) throw new Error(`${items.length} items after the run, expected ${data.items.length}`);
        const consumed = reports.reduce((sum: number, r: { consumedWcu: number }) => sum + r.consumedWcu, 0);
        const kind = (name: string) => {
          const k = kinds.get(name) ?? { count: 0, ms: 0 };
          return `${k.count} × ${(k.ms / Math.max(1, k.count)).toFixed(0)} ms (${(k.ms / 1000 / (seconds * workers)).toFixed(2)})`;
        };
        rows.push(`| ${cap} | ${workers} | ${seconds.toFixed(1)} | ${Math.round(data.items.length / seconds)} | ${Math.round(consumed / seconds)} | ${((firstClaim ?? 0) / 1000).toFixed(2)} | ${kind('Scan')} | ${kind('TransactWriteItems')} | ${kind('lease table')} |`);
        process.stderr.write(`${rows.at(-1)}\n`);
        await local.client.send(new DeleteTableCommand({ TableName: tableName }));
        await local.client.send(new DeleteTableCommand({ TableName: leaseTable }));
      }
    }
    process.stdout.write(
      [
        `Coordinated migration, ${data.items.length} items (${data.moved} moved), ${SEGMENTS} segments, workers in one process, one DynamoDB Local:`,
        '',
        '| cap WCU/s | workers | seconds | items/s | WCU/s | first claim (s) | Scan: n × mean (busy) | TransactWriteItems | lease table |',
        '|---|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await local.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
