// The footprint model in DynamoDB-Toolbox v2: users, articles with a GSI on the name, a follow edge entity.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Entity, Table, item, number, string } from 'dynamodb-toolbox';

export function createModel(name: string, documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({}))) {
  const table = new Table({ name, partitionKey: { name: 'pk', type: 'string' }, sortKey: { name: 'sk', type: 'string' }, indexes: { byName: { type: 'global', partitionKey: { name: 'gsi1pk', type: 'string' }, sortKey: { name: 'gsi1sk', type: 'string' } } }, documentClient });
  const user = new Entity({ name: 'User', table, timestamps: false, schema: item({ id: string().key(), email: string(), name: string() }), computeKey: ({ id }: { id: string }) => ({ pk: `USER#${id}`, sk: 'PROFILE' }) });
  const article = new Entity({
    name: 'Article',
    table,
    timestamps: false,
    schema: item({ userId: string().key(), articleId: string().key(), name: string(), updatedAt: string(), views: number() }).and((prev) => ({
      gsi1pk: string().hidden().link<typeof prev>(({ name: n }) => `NAME#${n}`),
      gsi1sk: string().hidden().link<typeof prev>(({ updatedAt }) => updatedAt),
    })),
    computeKey: ({ userId, articleId }: { userId: string; articleId: string }) => ({ pk: `USER#${userId}`, sk: `ARTICLE#${articleId}` }),
  });
  const follow = new Entity({ name: 'Follow', table, timestamps: false, schema: item({ from: string().key(), to: string().key() }), computeKey: ({ from, to }: { from: string; to: string }) => ({ pk: `User.${from}`, sk: `FOLLOWS.User.${to}` }) });
  return { table, user, article, follow };
}
