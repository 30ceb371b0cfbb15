// The DynamoDB the example app runs on: AWS's DynamoDB Local when Java is on PATH, else ddbgen's own
// (`ddbgen local`, the in-memory engine over HTTP), so `npm start` runs on a machine without Java
// and says which one it used.

import { spawnSync } from 'node:child_process';
import { CreateTableCommand, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startLocal } from 'ddbgen/local';
import { clientFor, startDynamoDbLocal } from '../test/support/dynamodb-local.js';

export interface ExampleDynamoDB {
  /** What runs, e.g. `DynamoDB Local (Java, pid 123)` or `ddbgen local (no Java on PATH)`. */
  readonly name: string;
  readonly endpoint: string;
  readonly documents: DynamoDBDocumentClient;
  createTable(input: CreateTableCommandInput): Promise<void>;
  stop(): Promise<void>;
}

/** Java answers `java -version`: DynamoDB Local can run. */
export function javaOnPath(): boolean {
  const run = spawnSync('java', ['-version'], { stdio: 'ignore' });
  return run.error === undefined && run.status === 0;
}

export async function startExampleDynamoDB(): Promise<ExampleDynamoDB> {
  if (javaOnPath()) {
    const local = await startDynamoDbLocal();
    return { name: `DynamoDB Local (Java, pid ${local.pid})`, endpoint: local.endpoint, documents: local.documents, createTable: local.createTable, stop: local.stop };
  }
  const server = await startLocal({ port: 0 });
  const client = clientFor(server.endpoint);
  return {
    name: 'ddbgen local (no Java on PATH, so not DynamoDB Local)',
    endpoint: server.endpoint,
    documents: DynamoDBDocumentClient.from(client),
    createTable: async (input) => {
      await client.send(new CreateTableCommand(input));
    },
    stop: async () => {
      client.destroy();
      await server.stop();
    },
  };
}
