// Differential testing of the in-memory table (templates/runtime/in-memory/table.ts) against
// DynamoDB Local: the same request or app step on both, their outcomes (answers, or errors by name,
// message and what they carry) reduced to plain comparable data, and the two tables' contents read
// back item by item.

import { randomUUID } from 'node:crypto';
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { InMemoryDynamoDB, type InMemoryOptions, type InMemoryTableSettings } from '../../templates/runtime/in-memory/table.js';
import { scanTable, type LocalDynamo } from './dynamodb-local.js';

/** What a request or step came to, as plain data: its answer or its error. */
export type Outcome = { readonly ok: unknown } | { readonly error: unknown };

const DROPPED = new Set(['$metadata', '$response', '$retryable', 'stack']);

/**
 * A value as plain, comparable data: object members sorted and without the SDK's metadata, sets
 * as sorted lists, bytes as number lists, dates as ISO text, bigints as text; errors as their
 * name, message, code and what they carry (a cause included).
 */
export function plain(value: unknown): unknown {
  if (value === undefined || value === null || typeof value !== 'object') return typeof value === 'bigint' ? `${value}n` : value;
  if (value instanceof Date) return { date: value.toISOString() };
  if (value instanceof Uint8Array) return { bytes: [...value] };
  if (value instanceof Set) return { set: [...value].map(plain).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) };
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: value.message };
    for (const key of Object.keys(value).sort()) {
      const member = (value as unknown as Record<string, unknown>)[key];
      if (!DROPPED.has(key) && key !== 'name' && key !== 'message' && member !== undefined) out[key] = plain(member);
    }
    const cause = (value as { cause?: unknown }).cause;
    if (cause !== undefined) out.cause = plain(cause);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (!DROPPED.has(key) && member !== undefined) out[key] = plain(member);
  }
  return out;
}

export async function outcomeOf(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: plain(await run()) };
  } catch (error) {
    return { error: plain(error) };
  }
}

/** One table on DynamoDB Local and the same table in memory. */
export interface TablePair {
  readonly tableName: string;
  readonly local: DynamoDBDocumentClient;
  readonly memory: InMemoryDynamoDB;
}

/** Creates a fresh table (a random name) on DynamoDB Local and in memory from one definition. */
export async function tablePair(local: LocalDynamo, definition: (tableName: string) => CreateTableCommandInput, settings?: (tableName: string) => InMemoryTableSettings, options: InMemoryOptions = {}): Promise<TablePair> {
  const tableName = `diff-${randomUUID()}`;
  await local.createTable(definition(tableName));
  const memory = new InMemoryDynamoDB(options).createTable(definition(tableName), settings?.(tableName));
  return { tableName, local: local.documents, memory };
}

/** Both tables' items, each sorted by its key text, for an item-by-item comparison. */
export async function contents(pair: TablePair, keyNames: readonly string[]): Promise<{ local: unknown[]; memory: unknown[] }> {
  const sorted = (items: Array<Record<string, unknown>>) =>
    items.map((item) => ({ id: JSON.stringify(keyNames.map((k) => plain(item[k]))), item: plain(item) })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((e) => e.item);
  return { local: sorted(await scanTable(pair.local, pair.tableName)), memory: sorted(pair.memory.items(pair.tableName)) };
}
