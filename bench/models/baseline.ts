// The footprint model written by hand over lib-dynamodb: users, articles with a GSI on the name,
// and a follow edge (both halves in one transaction).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

export interface User { id: string; email: string; name: string }
export interface Article { userId: string; articleId: string; name: string; updatedAt: Date; views: number }

export function createModel(tableName: string, client = DynamoDBDocumentClient.from(new DynamoDBClient({}))) {
  return {
    putUser: (u: User) => client.send(new PutCommand({ TableName: tableName, Item: { ...u, pk: `USER#${u.id}`, sk: 'PROFILE' } })),
    getUser: async (id: string) => (await client.send(new GetCommand({ TableName: tableName, Key: { pk: `USER#${id}`, sk: 'PROFILE' } }))).Item as User | undefined,
    putArticle: (a: Article) =>
      client.send(new PutCommand({ TableName: tableName, Item: { ...a, updatedAt: a.updatedAt.toISOString(), pk: `USER#${a.userId}`, sk: `ARTICLE#${a.articleId}`, gsi1pk: `NAME#${a.name}`, gsi1sk: a.updatedAt.toISOString() } })),
    articlesOf: async (userId: string) =>
      ((await client.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)', ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' }, ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':sk': 'ARTICLE#' } }))).Items ?? []).map(
        ({ pk, sk, gsi1pk, gsi1sk, ...rest }) => ({ ...rest, updatedAt: new Date(rest['updatedAt'] as string) }) as Article,
      ),
    follow: (from: string, to: string) =>
      client.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName, Item: { pk: `User.${from}`, sk: `FOLLOWS.User.${to}` } } }, { Put: { TableName: tableName, Item: { pk: `User.${to}`, sk: `FOLLOWED_BY.User.${from}` } } }] })),
    unfollow: (from: string, to: string) => client.send(new DeleteCommand({ TableName: tableName, Key: { pk: `User.${from}`, sk: `FOLLOWS.User.${to}` } })),
  };
}
