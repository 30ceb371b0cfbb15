// Synthetic schemas of N entities (8 attributes, 2 GSI mappings each) and the code that uses them:
// ddbgen's generated repositories, and a hand-written lib-dynamodb equivalent (the baseline), for
// the type-check and generation benchmarks.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeSynthetic(dir: string, entities: number): void {
  mkdirSync(dir, { recursive: true });
  const names = Array.from({ length: entities }, (_, i) => `Thing${i}`);
  const schema = [
    "import { defineTable, entity, gsi, t } from 'ddbgen';",
    '',
    'export default defineTable({',
    "  name: 'Synthetic',",
    "  indexes: { byOwner: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }), byState: gsi({ pk: 'gsi2pk', sk: 'gsi2sk', projection: 'keys-only' }) },",
    '  entities: {',
    ...names.map(
      (n) =>
        `    ${n}: entity({ attributes: { id: t.string(), ownerId: t.string(), state: t.enum(['A', 'B', 'C']), title: t.string(), count: t.number(), createdAt: t.timestamp(), tags: t.stringSet().optional(), note: t.string().optional() }, ` +
        `key: { pk: '${n}#<id>', sk: 'V' }, indexes: { byOwner: { pk: '${n}Owner#<ownerId>', sk: '<createdAt>' }, byState: { pk: '${n}State#<state>#<ownerId>', sk: '<createdAt>' } } }),`,
    ),
    '  },',
    '});',
    '',
  ].join('\n');
  writeFileSync(path.join(dir, 'schema.ts'), schema);

  const lower = (n: string) => n.charAt(0).toLowerCase() + n.slice(1);
  writeFileSync(
    path.join(dir, 'usage-ddbgen.ts'),
    [
      "import type { SyntheticTable } from './out/synthetic/index.js';",
      'export async function use(db: SyntheticTable): Promise<number> {',
      '  let n = 0;',
      ...names.flatMap((n) => [
        `  const ${lower(n)} = await db.${lower(n)}.get({ id: 'x' });`,
        `  await db.${lower(n)}.put({ id: 'x', ownerId: 'o', state: 'A', title: 't', count: 1, createdAt: new Date() });`,
        `  n += (await db.${lower(n)}.queryByOwner({ ownerId: 'o' }, { where: { gte: { createdAt: new Date(0) } } })).items.length;`,
        `  n += (await db.${lower(n)}.update({ id: 'x' }, { set: { title: 'u' }, add: { count: 1 } })).count + (${lower(n)}?.count ?? 0);`,
      ]),
      '  return n;',
      '}',
      '',
    ].join('\n'),
  );

  writeFileSync(
    path.join(dir, 'usage-baseline.ts'),
    [
      "import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';",
      ...names.flatMap((n) => [
        `export interface ${n} { id: string; ownerId: string; state: 'A' | 'B' | 'C'; title: string; count: number; createdAt: string; tags?: Set<string>; note?: string }`,
        `export async function get${n}(client: DynamoDBDocumentClient, id: string): Promise<${n} | undefined> { const r = await client.send(new GetCommand({ TableName: 'T', Key: { pk: '${n}#' + id, sk: 'V' } })); return r.Item as ${n} | undefined; }`,
        `export async function put${n}(client: DynamoDBDocumentClient, item: ${n}): Promise<void> { await client.send(new PutCommand({ TableName: 'T', Item: { ...item, pk: '${n}#' + item.id, sk: 'V', gsi1pk: '${n}Owner#' + item.ownerId, gsi1sk: item.createdAt } })); }`,
        `export async function query${n}ByOwner(client: DynamoDBDocumentClient, ownerId: string, since: string): Promise<${n}[]> { const r = await client.send(new QueryCommand({ TableName: 'T', IndexName: 'byOwner', KeyConditionExpression: '#p = :p AND #s >= :s', ExpressionAttributeNames: { '#p': 'gsi1pk', '#s': 'gsi1sk' }, ExpressionAttributeValues: { ':p': '${n}Owner#' + ownerId, ':s': since } })); return (r.Items ?? []) as ${n}[]; }`,
        `export async function update${n}(client: DynamoDBDocumentClient, id: string, title: string): Promise<${n}> { const r = await client.send(new UpdateCommand({ TableName: 'T', Key: { pk: '${n}#' + id, sk: 'V' }, UpdateExpression: 'SET #t = :t ADD #c :one', ExpressionAttributeNames: { '#t': 'title', '#c': 'count' }, ExpressionAttributeValues: { ':t': title, ':one': 1 }, ReturnValues: 'ALL_NEW' })); return r.Attributes as ${n}; }`,
      ]),
      'export async function use(client: DynamoDBDocumentClient): Promise<number> {',
      '  let n = 0;',
      ...names.flatMap((n) => [
        `  const ${lower(n)} = await get${n}(client, 'x');`,
        `  await put${n}(client, { id: 'x', ownerId: 'o', state: 'A', title: 't', count: 1, createdAt: new Date().toISOString() });`,
        `  n += (await query${n}ByOwner(client, 'o', new Date(0).toISOString())).length;`,
        `  n += (await update${n}(client, 'x', 'u')).count + (${lower(n)}?.count ?? 0);`,
      ]),
      '  return n;',
      '}',
      '',
    ].join('\n'),
  );
  for (const which of ['ddbgen', 'baseline']) {
    writeFileSync(
      path.join(dir, `tsconfig.${which}.json`),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: [] }, files: [`usage-${which}.ts`] }),
    );
  }
}
