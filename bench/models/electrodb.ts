// The footprint model in ElectroDB: users, articles with a GSI on the name, a follow edge as a collection.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Entity, Service } from 'electrodb';

export function createModel(table: string, client = DynamoDBDocumentClient.from(new DynamoDBClient({}))) {
  const user = new Entity({ model: { entity: 'user', version: '1', service: 'bench' }, attributes: { id: { type: 'string', required: true }, email: { type: 'string', required: true }, name: { type: 'string', required: true } }, indexes: { primary: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } } } });
  const article = new Entity({
    model: { entity: 'article', version: '1', service: 'bench' },
    attributes: { userId: { type: 'string', required: true }, articleId: { type: 'string', required: true }, name: { type: 'string', required: true }, updatedAt: { type: 'string', required: true }, views: { type: 'number' } },
    indexes: { primary: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: ['articleId'] } }, byName: { index: 'byName', pk: { field: 'gsi1pk', composite: ['name'] }, sk: { field: 'gsi1sk', composite: ['updatedAt'] } } },
  });
  const follow = new Entity({ model: { entity: 'follow', version: '1', service: 'bench' }, attributes: { from: { type: 'string', required: true }, to: { type: 'string', required: true } }, indexes: { primary: { pk: { field: 'pk', composite: ['from'] }, sk: { field: 'sk', composite: ['to'] } } } });
  return new Service({ user, article, follow }, { client, table });
}
