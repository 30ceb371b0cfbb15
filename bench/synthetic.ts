// Synthetic schemas of N entities (8 attributes, 2 GSI mappings each) and the code that uses them,
// the same 4 typed calls per entity written five ways: ddbgen's generated repositories (as .ts, and
// as .js + .d.ts with --emit js), a hand-written lib-dynamodb equivalent (the baseline), ElectroDB
// and DynamoDB-Toolbox v2; for the type-check and generation benchmarks.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The usage files, one tsconfig.<variant>.json each. */
export const VARIANTS = ['baseline', 'ddbgen', 'ddbgen-js', 'electrodb', 'toolbox'] as const;

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

  // The same calls against the --emit js output (generated into out-js/).
  writeFileSync(path.join(dir, 'usage-ddbgen-js.ts'), readFileSync(path.join(dir, 'usage-ddbgen.ts'), 'utf8').replace('./out/synthetic/index.js', './out-js/synthetic/index.js'));

  const attributes =
    `{ id: { type: 'string', required: true }, ownerId: { type: 'string', required: true }, state: { type: ['A', 'B', 'C'] as const, required: true }, title: { type: 'string', required: true }, ` +
    `count: { type: 'number', required: true }, createdAt: { type: 'string', required: true }, tags: { type: 'set', items: 'string' }, note: { type: 'string' } }`;
  writeFileSync(
    path.join(dir, 'usage-electrodb.ts'),
    [
      "import { Entity } from 'electrodb';",
      "import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';",
      ...names.map(
        (n) =>
          `export const make${n} = (client: DynamoDBDocumentClient) => new Entity({ model: { entity: '${n}', version: '1', service: 'syn' }, attributes: ${attributes}, indexes: { ` +
          `primary: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } }, byOwner: { index: 'byOwner', pk: { field: 'gsi1pk', composite: ['ownerId'] }, sk: { field: 'gsi1sk', composite: ['createdAt'] } }, ` +
          `byState: { index: 'byState', pk: { field: 'gsi2pk', composite: ['state', 'ownerId'] }, sk: { field: 'gsi2sk', composite: ['createdAt'] } } } }, { client, table: 'T' });`,
      ),
      'export async function use(client: DynamoDBDocumentClient): Promise<number> {',
      '  let n = 0;',
      ...names.flatMap((n) => [
        `  const ${lower(n)}Entity = make${n}(client);`,
        `  const ${lower(n)} = (await ${lower(n)}Entity.get({ id: 'x' }).go()).data;`,
        `  await ${lower(n)}Entity.put({ id: 'x', ownerId: 'o', state: 'A', title: 't', count: 1, createdAt: new Date().toISOString() }).go();`,
        `  n += (await ${lower(n)}Entity.query.byOwner({ ownerId: 'o' }).gte({ createdAt: new Date(0).toISOString() }).go()).data.length;`,
        `  n += ((await ${lower(n)}Entity.patch({ id: 'x' }).set({ title: 'u' }).add({ count: 1 }).go({ response: 'all_new' })).data.count ?? 0) + (${lower(n)}?.count ?? 0);`,
      ]),
      '  return n;',
      '}',
      '',
    ].join('\n'),
  );

  writeFileSync(
    path.join(dir, 'usage-toolbox.ts'),
    [
      "import { $add, Entity, GetItemCommand, item, number, PutItemCommand, QueryCommand, set, string, Table, UpdateItemCommand } from 'dynamodb-toolbox';",
      "import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';",
      'export const makeTable = (documentClient: DynamoDBDocumentClient) => new Table({ name: \'T\', partitionKey: { name: \'pk\', type: \'string\' }, sortKey: { name: \'sk\', type: \'string\' }, documentClient, indexes: { ' +
        "byOwner: { type: 'global', partitionKey: { name: 'gsi1pk', type: 'string' }, sortKey: { name: 'gsi1sk', type: 'string' } }, byState: { type: 'global', partitionKey: { name: 'gsi2pk', type: 'string' }, sortKey: { name: 'gsi2sk', type: 'string' } } } });",
      ...names.map(
        (n) =>
          `export const make${n} = (table: ReturnType<typeof makeTable>) => new Entity({ name: '${n}', table, timestamps: false, schema: item({ id: string().key(), ownerId: string(), state: string().enum('A', 'B', 'C'), title: string(), count: number(), createdAt: string(), tags: set(string()).optional(), note: string().optional() }).and((prev) => ({ ` +
          `gsi1pk: string().hidden().link<typeof prev>(({ ownerId }) => \`${n}Owner#\${ownerId}\`), gsi1sk: string().hidden().link<typeof prev>(({ createdAt }) => createdAt), ` +
          `gsi2pk: string().hidden().link<typeof prev>(({ state, ownerId }) => \`${n}State#\${state}#\${ownerId}\`), gsi2sk: string().hidden().link<typeof prev>(({ createdAt }) => createdAt) })), ` +
          `computeKey: ({ id }: { id: string }) => ({ pk: \`${n}#\${id}\`, sk: 'V' }) });`,
      ),
      'export async function use(client: DynamoDBDocumentClient): Promise<number> {',
      '  const table = makeTable(client);',
      '  let n = 0;',
      ...names.flatMap((n) => [
        `  const ${lower(n)}Entity = make${n}(table);`,
        `  const ${lower(n)} = (await ${lower(n)}Entity.build(GetItemCommand).key({ id: 'x' }).send()).Item;`,
        `  await ${lower(n)}Entity.build(PutItemCommand).item({ id: 'x', ownerId: 'o', state: 'A', title: 't', count: 1, createdAt: new Date().toISOString() }).send();`,
        `  n += ((await table.build(QueryCommand).entities(${lower(n)}Entity).query({ index: 'byOwner', partition: '${n}Owner#o', range: { gte: new Date(0).toISOString() } }).send()).Items ?? []).length;`,
        `  n += ((await ${lower(n)}Entity.build(UpdateItemCommand).item({ id: 'x', title: 'u', count: $add(1) }).options({ returnValues: 'ALL_NEW' }).send()).Attributes?.count ?? 0) + (${lower(n)}?.count ?? 0);`,
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
  for (const which of VARIANTS) {
    writeFileSync(
      path.join(dir, `tsconfig.${which}.json`),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: [] }, files: [`usage-${which}.ts`] }),
    );
  }
}
