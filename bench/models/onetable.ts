// The footprint model in OneTable: users, articles with a GSI on the name, a follow edge model.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { Table } from 'dynamodb-onetable';

export const schema = {
  format: 'onetable:1.1.0',
  version: '0.0.1',
  indexes: { primary: { hash: 'pk', sort: 'sk' }, byName: { hash: 'gsi1pk', sort: 'gsi1sk', project: 'all' } },
  models: {
    User: { pk: { type: String, value: 'USER#${id}' }, sk: { type: String, value: 'PROFILE' }, id: { type: String, required: true }, email: { type: String, required: true }, name: { type: String, required: true } },
    Article: {
      pk: { type: String, value: 'USER#${userId}' },
      sk: { type: String, value: 'ARTICLE#${articleId}' },
      gsi1pk: { type: String, value: 'NAME#${name}' },
      gsi1sk: { type: String, value: '${updatedAt}' },
      userId: { type: String, required: true },
      articleId: { type: String, required: true },
      name: { type: String, required: true },
      updatedAt: { type: String, required: true },
      views: { type: Number },
    },
    Follow: { pk: { type: String, value: 'User.${from}' }, sk: { type: String, value: 'FOLLOWS.User.${to}' }, from: { type: String, required: true }, to: { type: String, required: true } },
  } as const,
  params: { isoDates: true, timestamps: false },
};

export const createModel = (name: string, client = new DynamoDBClient({})) => new Table({ client, name, schema, partial: false });
