// The expert baseline: the benchmark model written by hand over lib-dynamodb the way an expert
// writes it — each stored item an object literal built field by field, each query result mapped
// field by field, no spreads or rest destructuring — sending the very command inputs ddbgen's
// repositories send (bench/article-contenders.ts checks that before timing anything). Users, articles with a GSI
// on the name, and a follow edge (both halves in one transaction).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

export interface User {
  id: string;
  email: string;
  name: string;
}

export interface Article {
  userId: string;
  articleId: string;
  name: string;
  updatedAt: Date;
  views: number;
}

export function createModel(tableName: string, client = DynamoDBDocumentClient.from(new DynamoDBClient({}))) {
  return {
    async putUser(user: User): Promise<User> {
      await client.send(new PutCommand({ TableName: tableName, Item: { id: user.id, email: user.email, name: user.name, pk: `USER#${user.id}`, sk: 'PROFILE' } }));
      return user;
    },
    async getUser(id: string): Promise<User | undefined> {
      const { Item: stored } = await client.send(new GetCommand({ TableName: tableName, Key: { pk: `USER#${id}`, sk: 'PROFILE' } }));
      return stored ? { id: stored['id'] as string, email: stored['email'] as string, name: stored['name'] as string } : undefined;
    },
    async putArticle(article: Article): Promise<Article> {
      const updatedAt = article.updatedAt.toISOString();
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            userId: article.userId,
            articleId: article.articleId,
            name: article.name,
            updatedAt,
            views: article.views,
            gsi1pk: `NAME#${article.name}`,
            gsi1sk: updatedAt,
            pk: `USER#${article.userId}`,
            sk: `ARTICLE#${article.articleId}`,
          },
        }),
      );
      return article;
    },
    async articlesOf(userId: string): Promise<{ items: Article[] }> {
      const result = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: '#n0 = :v0 AND begins_with(#n1, :v1)',
          ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' },
          ExpressionAttributeValues: { ':v0': `USER#${userId}`, ':v1': 'ARTICLE#' },
        }),
      );
      const items: Article[] = [];
      for (const stored of result.Items ?? []) {
        items.push({
          userId: stored['userId'] as string,
          articleId: stored['articleId'] as string,
          name: stored['name'] as string,
          updatedAt: new Date(stored['updatedAt'] as string),
          views: stored['views'] as number,
        });
      }
      return { items };
    },
    follow: (from: string, to: string) =>
      client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: { pk: `USER#${from}`, sk: `FOLLOWS#User#${to}` } } },
            { Put: { TableName: tableName, Item: { pk: `USER#${to}`, sk: `FOLLOWED_BY#User#${from}` } } },
          ],
        }),
      ),
    unfollow: (from: string, to: string) => client.send(new DeleteCommand({ TableName: tableName, Key: { pk: `USER#${from}`, sk: `FOLLOWS#User#${to}` } })),
  };
}
