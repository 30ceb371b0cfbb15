// Section 8: the in-memory table against DynamoDB Local, the same generated code on both: operations
// per second, and the time to the first answer.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { startDynamoDbLocal } from '../../test/support/dynamodb-local.js';
import { now } from '../article-contenders.js';
import { BenchTable, benchTableDefinition } from '../bench-output.js';
import { borrowedLocal, consume } from '../measure.js';
import { fmt, section, verdict } from '../report.js';
import { here, root, size, smoke } from '../run-options.js';
import { stats } from '../stats.js';

/** Section 8: the generated table over createBenchInMemory() and over DynamoDB Local. */
export async function inMemoryTable(): Promise<void> {
  // The same generated BenchTable, once over DynamoDB Local and once over createBenchInMemory():
  // operations one at a time (what a test does), the same items on both. Then how long each takes
  // to its first answer: DynamoDB Local from spawning the JVM; the in-memory table from importing
  // the output (the SDK with it) in a new Node process, and from importing its module in a process
  // that has the app loaded.
  const { createBenchInMemory } = await import('../out/bench/in-memory.js');
  const tableName = `bench-memory-${Date.now()}`;
  const localStart = process.hrtime.bigint();
  // --smoke: the smoke's one DynamoDB Local (borrowedLocal), so the time to its first answer is not the JVM's start there
  const local = smoke ? await borrowedLocal() : await startDynamoDbLocal();
  let localFirst: number;
  try {
    await local.createTable(benchTableDefinition(tableName));
    const onLocal = new BenchTable(local.documents, { tableName });
    await onLocal.user.put({ id: 'first', email: 'e', name: 'n' });
    await onLocal.user.get({ id: 'first' });
    localFirst = Number(process.hrtime.bigint() - localStart) / 1e6;
    const inMemory = new BenchTable(createBenchInMemory({ tableName }), { tableName });
    const n = size(200, 2000);
    const article = (i: number) => ({ userId: `u${i % 50}`, articleId: `a${i}`, name: `n${i % 100}`, updatedAt: new Date(now.getTime() + i), views: i });
    const operations: Array<{ op: string; count: number; run: (db: InstanceType<typeof BenchTable>, i: number) => Promise<unknown> }> = [
      { op: 'put (an article: table and GSI keys)', count: n, run: (db, i) => db.article.put(article(i % n)) },
      { op: 'get (an article by key)', count: n, run: (db, i) => db.article.get({ userId: `u${i % 50}`, articleId: `a${i % n}` }) },
      { op: `query (one user's articles: ${Math.ceil(n / 50)} items)`, count: size(50, 500), run: (db, i) => db.article.query({ userId: `u${i % 50}` }) },
    ];
    const measure = async (db: InstanceType<typeof BenchTable>, run: (db: InstanceType<typeof BenchTable>, i: number) => Promise<unknown>, times: number) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < times; i++) consume(await run(db, i));
      return times / (Number(process.hrtime.bigint() - start) / 1e9);
    };
    const rounds = size(1, 3);
    const onLocalRates: number[] = [];
    for (const { run, count } of operations) {
      const measured: number[] = [];
      for (let round = 0; round < rounds; round++) measured.push(await measure(onLocal, run, count));
      onLocalRates.push(stats(measured).median);
    }
    // Correctness gate: the two tables hold the same articles and answer the same query alike.
    for (let i = 0; i < n; i++) await inMemory.article.put(article(i));
    const [onL, onM] = [await onLocal.article.query({ userId: 'u7' }), await inMemory.article.query({ userId: 'u7' })];
    if (!isDeepStrictEqual(onM.items, onL.items)) throw new Error('the in-memory table answers the query otherwise than DynamoDB Local');
    // The in-memory table once DynamoDB Local has stopped (its JVM keeps compiling after a run, on the same two cores), 20 times as many operations after a warm-up.
    await local.stop();
    const rates: Array<{ op: string; local: number; memory: number }> = [];
    for (const [i, { op, run, count }] of operations.entries()) {
      await measure(inMemory, run, count * 5);
      const measured: number[] = [];
      for (let round = 0; round < rounds; round++) measured.push(await measure(inMemory, run, count * 20));
      rates.push({ op, local: onLocalRates[i]!, memory: stats(measured).median });
    }

    // First answer in a new process: the output compiled to .js (ddbgen --emit js), imported with the SDK.
    const jsOut = path.join(here, 'out', 'js');
    execFileSync(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'generate', path.join(here, 'schema.ts'), '--out', jsOut, '--emit', 'js', '--quiet'], { stdio: 'inherit' });
    const script = path.join(jsOut, 'first-answer.mjs');
    writeFileSync(
      script,
      [
        'const start = performance.now();',
        "const { BenchTable } = await import('./bench/index.js');",
        'const loaded = performance.now();',
        "const { createBenchInMemory } = await import('./bench/in-memory.js');",
        'const db = new BenchTable(createBenchInMemory());',
        "await db.user.put({ id: 'first', email: 'e', name: 'n' });",
        "await db.user.get({ id: 'first' });",
        'process.stdout.write(JSON.stringify([loaded - start, performance.now() - loaded]));',
      ].join('\n'),
    );
    const app: number[] = [];
    const cold: number[] = [];
    for (let round = 0; round < size(3, 9); round++) {
      const [output, memory] = JSON.parse(execFileSync(process.execPath, ['--no-warnings', script], { encoding: 'utf8' })) as [number, number];
      app.push(output);
      cold.push(memory);
    }
    const lines = rates.map((r) => `| ${r.op} | ${fmt(r.local, 0)} ops/s | ${fmt(r.memory, 0)} ops/s | ${fmt(r.memory / r.local)}× |`);
    const slowest = Math.min(...rates.map((r) => r.memory / r.local));
    section(
      '8. The in-memory table against DynamoDB Local (the same generated code, same machine)',
      `The generated \`BenchTable\` over DynamoDB Local and over \`createBenchInMemory()\`, one operation at a time (as a test runs them), the same ${n} articles on both; median of ${rounds} round(s), DynamoDB Local's first, then the in-memory table's with DynamoDB Local stopped:\n\n` +
        `| operation | DynamoDB Local | in memory | ratio |\n|---|---|---|---|\n${lines.join('\n')}\n\n` +
        `Time to the first answer (a put and a get): DynamoDB Local ${fmt(localFirst, 0)} ms from spawning its JVM to its first answer (table created). ` +
        `The in-memory table, in a new Node process running the compiled output (\`ddbgen generate --emit js\`), median of ${cold.length}: ${fmt(stats(cold).median, 1)} ms (${fmt(stats(cold).min, 1)} – ${fmt(stats(cold).max, 1)}) from importing \`in-memory.js\` to the first answer, ` +
        `after the ${fmt(stats(app).median, 0)} ms the app's own import of the output and the SDK takes, with or without the in-memory table.\n\n` +
        `Targets: ≥ 50× DynamoDB Local's operations per second for put, get and query — ${verdict(slowest >= 50)} (lowest ${fmt(slowest)}×); under 50 ms from import to first answer — ${verdict(stats(cold).median < 50)} (${fmt(stats(cold).median, 1)} ms).`,
    );
  } finally {
    await local.stop();
  }
}
