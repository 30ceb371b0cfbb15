// One article put and one query of a user's 100 articles, as each contender writes them (the expert's
// hand-written lib-dynamodb baseline, ddbgen's generated table, ElectroDB, DynamoDB-Toolbox, OneTable),
// over stub clients: sections 1 and 2. The generated put and query are gated against the baseline's
// whole requests and results before anything is timed.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Entity } from 'electrodb';
import { Entity as ToolboxEntity, Table as ToolboxTable, item, number, string } from 'dynamodb-toolbox';
import { Table as OneTable } from 'dynamodb-onetable';
import { BenchTable } from './bench-output.js';
import { sameWork } from './measure.js';
import { createModel as expertModel } from './models/baseline.js';
import { schema as oneTableSchema } from './models/onetable.js';

export const now = new Date('2024-05-01T10:00:00.000Z');
export const storedArticles = Array.from({ length: 100 }, (_, i) => ({ pk: 'USER#u1', sk: `ARTICLE#a${i}`, gsi1pk: `NAME#n${i}`, gsi1sk: now.toISOString(), userId: 'u1', articleId: `a${i}`, name: `n${i}`, updatedAt: now.toISOString(), views: i }));
export const stub = (items: unknown[]) => ({ send: async () => ({ Items: items, Attributes: undefined }), config: {} }) as unknown as DynamoDBDocumentClient;
export const putClient = stub([]);
export const queryClient = stub(storedArticles);
export const article = { userId: 'u1', articleId: 'a1', name: 'Hello', updatedAt: now, views: 3 };

export const ddbgenPut = new BenchTable(putClient, { tableName: 'T' });
export const ddbgenQuery = new BenchTable(queryClient, { tableName: 'T' });
export const expertPut = expertModel('T', putClient);
export const expertQuery = expertModel('T', queryClient);
await sameWork('put', putClient, (client) => expertModel('T', client).putArticle(article), (client) => new BenchTable(client, { tableName: 'T' }).article.put(article));
await sameWork('query', queryClient, (client) => expertModel('T', client).articlesOf('u1'), (client) => new BenchTable(client, { tableName: 'T' }).article.query({ userId: 'u1' }));

export const electroSchema = (client: DynamoDBDocumentClient) =>
  new Entity(
    {
      model: { entity: 'article', version: '1', service: 'bench' },
      attributes: { userId: { type: 'string', required: true }, articleId: { type: 'string', required: true }, name: { type: 'string', required: true }, updatedAt: { type: 'string', required: true }, views: { type: 'number' } },
      indexes: {
        primary: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: ['articleId'] } },
        byName: { index: 'byName', pk: { field: 'gsi1pk', composite: ['name'] }, sk: { field: 'gsi1sk', composite: ['updatedAt'] } },
      },
    },
    { client, table: 'T' },
  );
export const electroPut = electroSchema(putClient);
export const electroQuery = electroSchema(stub(storedArticles.map((a) => ({ ...a, __edb_e__: 'article', __edb_v__: '1' }))));

export const toolboxTable = (client: DynamoDBDocumentClient) => new ToolboxTable({ name: 'T', partitionKey: { name: 'pk', type: 'string' }, sortKey: { name: 'sk', type: 'string' }, documentClient: client });
export const toolboxEntity = (client: DynamoDBDocumentClient) =>
  new ToolboxEntity({
    name: 'Article',
    timestamps: false,
    table: toolboxTable(client),
    schema: item({ userId: string().key(), articleId: string().key(), name: string(), updatedAt: string(), views: number() }),
    computeKey: ({ userId, articleId }: { userId: string; articleId: string }) => ({ pk: `USER#${userId}`, sk: `ARTICLE#${articleId}` }),
  });
export const toolboxPutEntity = toolboxEntity(putClient);
export const toolboxQueryClient = stub(storedArticles.map((a) => ({ ...a, _et: 'Article' })));
export const toolboxQueryEntity = toolboxEntity(toolboxQueryClient);

// OneTable (the footprint model's schema) drives the low-level client: its stubs return marshalled items (so its query number includes unmarshalling them).
export const oneTableArticle = (client: unknown) => new OneTable({ client: client as never, name: 'T', schema: oneTableSchema, partial: false }).getModel('Article');
export const marshalledArticles = storedArticles.map((a) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, typeof v === 'number' ? { N: String(v) } : { S: String(v) }])));
export const oneTablePut = oneTableArticle({ send: async () => ({}) });
export const oneTableQuery = oneTableArticle({ send: async () => ({ Items: marshalledArticles.map((m) => ({ ...m, _type: { S: 'Article' } })), Count: 100 }) });
