// The client behind the guide's hidden preludes (docs/.vitepress/preludes/): a DocumentClient
// whose `send` goes to the client the docs test chose for the block being run (a recording client
// for a block that shows the request it sends, DynamoDB Local for a `run` block). Type-checked
// blocks never run, so they need none.
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

interface Target {
  readonly documents: DynamoDBDocumentClient;
  createTable(input: CreateTableCommandInput): Promise<void>;
}

let target: Target | undefined;

/** Sends every command of the blocks run from now on to `next` (undefined: none may send). */
export function useClient(next: Target | undefined): void {
  target = next;
}

function current(): Target {
  if (!target) throw new Error('docs-client: no client chosen for this block');
  return target;
}

export const documentClient = {
  send: (command: unknown) => (current().documents.send as (c: unknown) => Promise<unknown>)(command),
} as unknown as DynamoDBDocumentClient;

/** Creates a table a prelude needs (on DynamoDB Local; nothing on the recording client). */
export const createTable = (input: CreateTableCommandInput): Promise<void> => current().createTable(input);
