// The footprint model through ddbgen's generated code (bench/out/bench, from bench/schema.ts).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BenchTable } from '../out/bench/index.js';

export const createModel = (tableName: string, client = DynamoDBDocumentClient.from(new DynamoDBClient({}))) => new BenchTable(client, { tableName });
