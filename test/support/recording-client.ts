// A DynamoDBDocumentClient stand-in for offline tests of what generated code sends: `send` records
// each command (its class name and input) and answers with an empty result of the command's shape
// (no items, nothing unprocessed), so every method runs to completion without a network.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SentCommand } from './iam-evaluator.js';

const EMPTY: Record<string, unknown> = {
  BatchGetCommand: { Responses: {}, UnprocessedKeys: {} },
  BatchWriteCommand: { UnprocessedItems: {} },
  QueryCommand: { Items: [], Count: 0 },
  ScanCommand: { Items: [], Count: 0 },
};

export function recordingClient(): { client: DynamoDBDocumentClient; sent: SentCommand[] } {
  const sent: SentCommand[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      return EMPTY[command.constructor.name] ?? {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, sent };
}
