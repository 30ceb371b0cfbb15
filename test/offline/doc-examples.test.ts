// Offline: every `@example` of the generated repositories and table classes of the fixtures
// (social; tenants for native index queries, seeds for sequences and random shards, fans,
// sessions, clicks and weekly for time ranges and rotated tables) is run as written over a client
// that records what it is sent, and the recorded commands must be the ones the example says it
// sends (as many, the first with exactly the input it shows). This keeps examples from drifting
// from the methods.
import test from 'ava';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ClicksTable } from '../../out/clicks/index.js';
import { FansTable } from '../../out/fans/index.js';
import { SeedsTable } from '../../out/seeds/index.js';
import { SessionsTable } from '../../out/sessions/index.js';
import { SocialTable } from '../../out/social/index.js';
import { TenantsTable } from '../../out/tenants/index.js';
import { WeeklyTable } from '../../out/weekly/index.js';
import { examplesIn, runnable, type Example } from '../support/doc-examples.js';

const TABLES = { social: SocialTable, tenants: TenantsTable, seeds: SeedsTable, fans: FansTable, sessions: SessionsTable, clicks: ClicksTable, weekly: WeeklyTable };

const outDir = (table: string) => new URL(`../../out/${table}/`, import.meta.url).pathname;

interface TableExample extends Example {
  readonly table: keyof typeof TABLES;
  readonly file: string;
}

// overloads repeat their documentation: one example per method
const examples = [
  ...new Map(
    (Object.keys(TABLES) as Array<keyof typeof TABLES>)
      .flatMap((table) =>
        readdirSync(outDir(table))
          .filter((f) => f.endsWith('.ts'))
          .sort()
          .flatMap((file) => examplesIn(join(outDir(table), file)).map((e): TableExample => ({ ...e, table, file }))),
      )
      .map((e) => [`${e.table}/${e.file}:${e.method}`, e] as const),
  ).values(),
];

test('every method family has an example', (t) => {
  const documented = new Set(examples.map((e) => `${e.table}/${e.file}:${e.method}`));
  const want = [
    ...['get', 'put', 'create', 'replace', 'update', 'delete', 'batchGet', 'batchPut', 'batchDelete'].map((m) => `social/article.ts:${m}`),
    'social/settings.ts:update', 'social/settings.ts:delete', // versioned
    'social/article.ts:query', 'social/article.ts:queryByName', 'social/article.ts:queryByTitle', // table, GSI, LSI
    'social/article.ts:recentArticles', 'social/article.ts:articlesByName', 'social/score.ts:topScores', // patterns
    'social/article.ts:markFeatured', 'social/article.ts:clearFeatured', // sparse index
    'social/daily-stats.ts:increment', // counters
    'tenants/invoice.ts:queryByTenant', 'tenants/invoice.ts:update', // native index, an update of an attribute it copies
    'seeds/article.ts:getPositionRange', // sequence
    'social/vote.ts:query', // gathered over shards
    'seeds/vote-total.ts:getAll', 'seeds/vote-total.ts:sum', // every shard's item of a random shard
    'social/article.ts:queryFeaturedBetween', 'clicks/page-view.ts:queryBetween', // time buckets (and shards)
    'clicks/click.ts:queryAcrossTables', 'weekly/reading.ts:queryAcrossTables', // rotated tables
    'social/social-table.ts:userCollection', 'social/social-table.ts:transaction', 'social/social-table.ts:scanSegments', // the table class
    'social/article.ts:queryAll', 'social/article.ts:recentArticlesAll', 'tenants/invoice.ts:queryByTenantAll', // async iterators: the first page
  ];
  t.deepEqual(want.filter((m) => !documented.has(m)), []);
});

for (const example of examples) {
  test(`${example.table}/${example.file} ${example.method}: the example's request is what the method sends`, async (t) => {
    const sent: Array<{ command: string; input: unknown }> = [];
    const client = {
      send: async (command: { constructor: { name: string }; input: unknown }) => {
        sent.push({ command: command.constructor.name, input: command.input });
        return { Items: [], Responses: {} };
      },
    } as unknown as DynamoDBDocumentClient;
    await runnable(example)(new TABLES[example.table](client));
    const request = new Function(`return (${example.request});`)() as unknown;
    t.is(sent.length, example.count, example.call);
    t.deepEqual(sent[0], { command: example.command, input: request }, example.call);
  });
}
