// Section 7: a gather over 16 shards through the real SDK, against a local endpoint that answers
// after a fixed latency, so what is measured is how well the shard queries overlap.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../article-contenders.js';
import { BenchTable, EventKeys } from '../bench-output.js';
import { sideBySide } from '../measure.js';
import { fmt, section, table, verdict } from '../report.js';
import { size } from '../run-options.js';

/** Section 7: one gathered page over 16 shards, concurrently and one shard at a time, against a single-shard page. */
export async function gatherOverShards(): Promise<void> {
  // A local HTTP endpoint that answers each Query with the asked shard's items, in sort-key order,
  // after a fixed delay: what is measured is how well the gather overlaps its shard queries, not
  // one machine's database engine.
  const latencyMs = 10;
  const shardCount = 16;
  const events = Array.from({ length: 100 * shardCount }, (_, i) => ({ stream: 'g', at: new Date(now.getTime() + i * 1000), id: `x${i}` }));
  const stored = events.map((e) => ({ ...EventKeys.key(e), stream: e.stream, at: e.at.toISOString(), id: e.id }));
  const byPartition = new Map<string, typeof stored>();
  for (const record of [...stored].sort((a, b) => (a.sk < b.sk ? -1 : 1))) byPartition.set(record.pk, [...(byPartition.get(record.pk) ?? []), record]);
  const marshal = (record: (typeof stored)[number]) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, { S: v }]));
  let requests = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      requests++;
      const input = JSON.parse(body) as { ExpressionAttributeValues: Record<string, { S: string }>; Limit?: number };
      const records = (byPartition.get(input.ExpressionAttributeValues[':v0']!.S) ?? []).slice(0, input.Limit ?? Infinity);
      const text = JSON.stringify({ Items: records.map(marshal), Count: records.length, ScannedCount: records.length });
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(text), latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local', endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }));
    const concurrent = new BenchTable(documents, { tableName: 'T', gatherConcurrency: shardCount });
    const sequential = new BenchTable(documents, { tableName: 'T', gatherConcurrency: 1 });
    const firstShard = stored[0]!.pk;
    // Correctness gate: one gathered page is the first 100 items of the whole stream in order, in one query per shard.
    const before = requests;
    const page = await concurrent.event.query({ stream: 'g' }, { limit: 100 });
    const want = [...events].sort((a, b) => a.at.getTime() - b.at.getTime()).slice(0, 100);
    if (!isDeepStrictEqual(page.items, want)) throw new Error(`the gathered page is not the stream's first 100 items: ${JSON.stringify(page.items.slice(0, 3))}…`);
    if (requests - before !== shardCount) throw new Error(`the gather sent ${requests - before} queries, not ${shardCount}`);
    const gather = await sideBySide(
      {
        'single-shard query, limit 100 (baseline)': () =>
          documents.send(new QueryCommand({ TableName: 'T', KeyConditionExpression: '#n0 = :v0', ExpressionAttributeNames: { '#n0': 'pk' }, ExpressionAttributeValues: { ':v0': firstShard }, Limit: 100 })),
        [`ddbgen gather over ${shardCount} shards, concurrency ${shardCount}`]: () => concurrent.event.query({ stream: 'g' }, { limit: 100 }),
        [`ddbgen gather over ${shardCount} shards, one at a time`]: () => sequential.event.query({ stream: 'g' }, { limit: 100 }),
      },
      size(10, 40),
      size(3, 9),
    );
    section(
      `7. Gather over ${shardCount} shards (the real SDK against a local endpoint answering after ${latencyMs} ms)`,
      `One page of 100 items of a stream written over ${shardCount} shards, through the SDK to a local HTTP endpoint that answers every query with canned items of the asked shard after a fixed ${latencyMs} ms, ` +
        `so the ratio measures the gather's concurrency (its k-way merge and cursor included) rather than a database's CPU:\n\n${table(gather, 'ms/page', 1e6)}\n\n` +
        `Target: concurrency ${shardCount} ≤ 2× the single-shard page (one shard at a time is ~${shardCount}×) — ${verdict(gather[1]!.ratio.median <= 2)} (${fmt(gather[1]!.ratio.median)}×).`,
    );
  } finally {
    server.close();
  }
}
