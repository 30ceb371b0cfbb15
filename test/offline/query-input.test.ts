// Offline: the exact QueryCommandInput each generated query method sends, for every operator,
// index and pattern of fixtures/social.ts.
import test from 'ava';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SocialTable } from '../../out/social/index.js';
import { groupEnd } from '../../out/social/runtime/key-condition.js';

function capture() {
  const inputs: unknown[] = [];
  const client = { send: async (command: { input: unknown }) => (inputs.push(command.input), { Items: [] }) } as unknown as DynamoDBDocumentClient;
  return { db: new SocialTable(client, { tableName: 'T' }), inputs };
}

const day = (d: number) => new Date(Date.UTC(2024, 0, d));
const D1 = '2024-01-01T00:00:00\\.000Z';
const D2 = '2024-01-02T00:00:00\\.000Z';
const END = groupEnd('Article.', 1024); // the greatest sort key in the Article collection (tested in key-condition.test.ts)

const cases: Array<[string, (db: SocialTable) => Promise<unknown>, Record<string, unknown>]> = [
  ['whole collection', (db) => db.article.query({ userId: 'u' }), {
    KeyConditionExpression: '#n0 = :v0 AND begins_with(#n1, :v1)', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' }, ExpressionAttributeValues: { ':v0': 'User.u', ':v1': 'Article.' },
  }],
  ['eq', (db) => db.article.query({ userId: 'u' }, { where: { eq: { updatedAt: day(1), articleId: 'a' } } }), {
    KeyConditionExpression: '#n0 = :v0 AND #n1 = :v1', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' }, ExpressionAttributeValues: { ':v0': 'User.u', ':v1': `Article.${D1}.a` },
  }],
  ['eq on a prefix: whole parts (ends with the delimiter)', (db) => db.article.query({ userId: 'u' }, { where: { eq: { updatedAt: day(1) } } }), {
    KeyConditionExpression: '#n0 = :v0 AND begins_with(#n1, :v1)', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' }, ExpressionAttributeValues: { ':v0': 'User.u', ':v1': `Article.${D1}.` },
  }],
  ['beginsWith: a text prefix of the last (string) part, escaped', (db) => db.article.query({ userId: 'u' }, { where: { beginsWith: { updatedAt: day(1), articleId: 'a.b\\' } } }), {
    KeyConditionExpression: '#n0 = :v0 AND begins_with(#n1, :v1)', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' }, ExpressionAttributeValues: { ':v0': 'User.u', ':v1': `Article.${D1}.a\\.b\\\\` },
  }],
  ['beginsWith on an LSI: a text prefix, as a pattern takes it', (db) => db.article.queryByTitle({ userId: 'u' }, { where: { beginsWith: { name: 'z' } } }), {
    IndexName: 'byTitle', KeyConditionExpression: '#n0 = :v0 AND begins_with(#n1, :v1)', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'lsi1sk' }, ExpressionAttributeValues: { ':v0': 'User.u', ':v1': 'Title.z' },
  }],
  ['between, newest first, limit, consistent', (db) => db.article.query({ userId: 'u' }, { where: { between: [{ updatedAt: day(1) }, { updatedAt: day(2), articleId: 'z' }] }, order: 'desc', limit: 5, consistent: true }), {
    KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' }, ExpressionAttributeValues: { ':v0': 'User.u', ':v1': `Article.${D1}.`, ':v2': `Article.${D2}.z` },
    ScanIndexForward: false, Limit: 5, ConsistentRead: true,
  }],
  ['gt (partial)', (db) => db.article.query({ userId: 'u' }, { where: { gt: { updatedAt: day(1) } } }), {
    KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' }, ExpressionAttributeValues: { ':v0': 'User.u', ':v1': `Article.${D1}/`, ':v2': END },
  }],
  ['gte', (db) => db.article.query({ userId: 'u' }, { where: { gte: { updatedAt: day(1) } } }), {
    KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' }, ExpressionAttributeValues: { ':v0': 'User.u', ':v1': `Article.${D1}.`, ':v2': END },
  }],
  ['lt (complete)', (db) => db.article.query({ userId: 'u' }, { where: { lt: { updatedAt: day(1), articleId: 'b' } } }), {
    KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' },
    ExpressionAttributeValues: { ':v0': 'User.u', ':v1': 'Article.', ':v2': groupEnd(`Article.${D1}.a`, 1024) },
  }],
  ['lte', (db) => db.article.query({ userId: 'u' }, { where: { lte: { updatedAt: day(1), articleId: 'b' } } }), {
    KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' }, ExpressionAttributeValues: { ':v0': 'User.u', ':v1': 'Article.', ':v2': `Article.${D1}.b` },
  }],
  ['GSI query by name (no collection prefix)', (db) => db.article.queryByName({ name: 'N.1' }, { where: { gte: { updatedAt: day(2) } } }), {
    IndexName: 'byName', KeyConditionExpression: '#n0 = :v0 AND #n1 >= :v1', ExpressionAttributeNames: { '#n0': 'gsi1pk', '#n1': 'gsi1sk' }, ExpressionAttributeValues: { ':v0': 'ArticleName.N\\.1', ':v1': D2 },
  }],
  ['LSI query by title', (db) => db.article.queryByTitle({ userId: 'u' }, { where: { eq: { name: 'x' } } }), {
    IndexName: 'byTitle', KeyConditionExpression: '#n0 = :v0 AND #n1 = :v1', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'lsi1sk' }, ExpressionAttributeValues: { ':v0': 'User.u', ':v1': 'Title.x' },
  }],
  ['pattern recentArticles (between, desc)', (db) => db.article.recentArticles({ userId: 'u', updatedAt: [day(1), day(2)] }, { limit: 2 }), {
    KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' },
    ExpressionAttributeValues: { ':v0': 'User.u', ':v1': `Article.${D1}.`, ':v2': groupEnd(`Article.${D2}.`, 1024) }, ScanIndexForward: false, Limit: 2,
  }],
  ['pattern articlesByName (gte on a GSI)', (db) => db.article.articlesByName({ name: 'n', updatedAt: day(1) }), {
    IndexName: 'byName', KeyConditionExpression: '#n0 = :v0 AND #n1 >= :v1', ExpressionAttributeNames: { '#n0': 'gsi1pk', '#n1': 'gsi1sk' }, ExpressionAttributeValues: { ':v0': 'ArticleName.n', ':v1': D1 },
  }],
  ['pattern articlesByTitlePrefix (text prefix, escaped)', (db) => db.article.articlesByTitlePrefix({ userId: 'u', name: 'Hello.W' }), {
    IndexName: 'byTitle', KeyConditionExpression: '#n0 = :v0 AND begins_with(#n1, :v1)', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'lsi1sk' }, ExpressionAttributeValues: { ':v0': 'User.u', ':v1': 'Title.Hello\\.W' },
  }],
  ['pattern topScores (gte on a number, desc)', (db) => db.score.topScores({ game: 'go', day: day(1), points: -5 }), {
    KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' },
    ExpressionAttributeValues: { ':v0': 'Game.go.2024-01-01', ':v1': 'Score.-9999995.', ':v2': groupEnd('Score.', 1024) }, ScanIndexForward: false,
  }],
  ['collection', (db) => db.userCollection({ id: 'u' }, { order: 'desc' }), {
    KeyConditionExpression: '#n0 = :v0', ExpressionAttributeNames: { '#n0': 'pk' }, ExpressionAttributeValues: { ':v0': 'User.u' }, ScanIndexForward: false,
  }],
];

for (const [name, run, want] of cases) {
  test(`query input: ${name}`, async (t) => {
    const { db, inputs } = capture();
    await run(db);
    t.deepEqual(inputs, [{ TableName: 'T', ...want }]);
  });
}

test('a cursor becomes ExclusiveStartKey for the same query only', async (t) => {
  const inputs: unknown[] = [];
  const client = {
    send: async (command: { input: unknown }) => {
      inputs.push(command.input);
      return { Items: [], LastEvaluatedKey: { pk: 'User.u', sk: 'Article.x' } };
    },
  } as unknown as DynamoDBDocumentClient;
  const db = new SocialTable(client, { tableName: 'T', cursor: { secret: 'k'.repeat(32) } });
  const first = await db.article.query({ userId: 'u' }, { limit: 1 });
  await db.article.query({ userId: 'u' }, { limit: 1, cursor: first.cursor! });
  t.deepEqual((inputs[1] as { ExclusiveStartKey: unknown }).ExclusiveStartKey, { pk: 'User.u', sk: 'Article.x' });
  await t.throwsAsync(new SocialTable(client, { tableName: 'T' }).article.recentArticles({ userId: 'u', updatedAt: [day(1), day(2)] }, { cursor: first.cursor! }), { name: 'CursorError' });
});
