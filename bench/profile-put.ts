// A profile target: many stubbed puts through the generated repository (node --cpu-prof).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BenchTable } from './out/bench/index.js';

const client = { send: async () => ({}) } as unknown as DynamoDBDocumentClient;
const db = new BenchTable(client, { tableName: 'T' });
const now = new Date('2024-05-01T10:00:00.000Z');
const start = process.hrtime.bigint();
for (let i = 0; i < 100_000; i++) await db.article.put({ userId: 'u1', articleId: 'a1', name: 'Hello', updatedAt: now, views: 3 });
console.log(`${Number(process.hrtime.bigint() - start) / 100_000 / 1000} µs/put`);
