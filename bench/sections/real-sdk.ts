// Section 2: through the real SDK with canned HTTP responses (marshalling, middleware, no network),
// with client-dynamodb and every AttributeValue written by hand as the floor of per-entity marshalling.
import { Readable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { DynamoDBClient, PutItemCommand as PutItemCommandWire, QueryCommand as QueryCommandWire, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { PutItemCommand, QueryCommand as ToolboxQuery } from 'dynamodb-toolbox';
import { BenchTable } from '../bench-output.js';
import { article, electroSchema, marshalledArticles, oneTableArticle, toolboxEntity, toolboxTable } from '../article-contenders.js';
import { gate, recording, sameWork, sideBySide } from '../measure.js';
import { createModel as expertModel } from '../models/baseline.js';
import { fmt, goals, readVersion, section, table, verdict } from '../report.js';
import { size } from '../run-options.js';

/** Section 2: put and query through the SDK against canned HTTP responses. */
export async function throughRealSdk(): Promise<void> {
  const cannedLowLevel = (body: unknown) => {
    const text = JSON.stringify(body);
    return new DynamoDBClient({
      region: 'local',
      endpoint: 'http://127.0.0.1:9',
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      requestHandler: {
        handle: async () => ({ response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: Readable.from([Buffer.from(text)]) } }),
      } as never,
    });
  };
  const cannedClient = (body: unknown) => DynamoDBDocumentClient.from(cannedLowLevel(body));
  const putSdk = cannedClient({});
  const querySdk = cannedClient({ Items: marshalledArticles, Count: 100, ScannedCount: 100 });
  const ddbgenPutSdk = new BenchTable(putSdk, { tableName: 'T' });
  const expertPutSdk = expertModel('T', putSdk);
  const expertQuerySdk = expertModel('T', querySdk);
  await sameWork('put through the SDK', putSdk, (client) => expertModel('T', client).putArticle(article), (client) => new BenchTable(client, { tableName: 'T' }).article.put(article));
  await sameWork('query through the SDK', querySdk, (client) => expertModel('T', client).articlesOf('u1'), (client) => new BenchTable(client, { tableName: 'T' }).article.query({ userId: 'u1' }));
  const ddbgenQuerySdk = new BenchTable(querySdk, { tableName: 'T' });
  // What skipping the DocumentClient can buy: the same requests as client-dynamodb commands with each
  // AttributeValue written by hand (a lower bound for generated per-entity marshalling).
  const wirePutSdk = cannedLowLevel({});
  const wireQuerySdk = cannedLowLevel({ Items: marshalledArticles, Count: 100, ScannedCount: 100 });
  const wirePut = (a: typeof article) => {
    const updatedAt = a.updatedAt.toISOString();
    return wirePutSdk.send(
      new PutItemCommandWire({
        TableName: 'T',
        Item: { userId: { S: a.userId }, articleId: { S: a.articleId }, name: { S: a.name }, updatedAt: { S: updatedAt }, views: { N: String(a.views) }, gsi1pk: { S: `NAME#${a.name}` }, gsi1sk: { S: updatedAt }, pk: { S: `USER#${a.userId}` }, sk: { S: `ARTICLE#${a.articleId}` } },
      }),
    );
  };
  const wireQuery = async (userId: string) => {
    const result = await wireQuerySdk.send(
      new QueryCommandWire({ TableName: 'T', KeyConditionExpression: '#n0 = :v0 AND begins_with(#n1, :v1)', ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' }, ExpressionAttributeValues: { ':v0': { S: `USER#${userId}` }, ':v1': { S: 'ARTICLE#' } } }),
    );
    const items: Array<typeof article> = [];
    for (const stored of result.Items ?? []) items.push({ userId: stored['userId']!.S!, articleId: stored['articleId']!.S!, name: stored['name']!.S!, updatedAt: new Date(stored['updatedAt']!.S!), views: Number(stored['views']!.N) });
    return { items };
  };
  {
    // gate: the wire put stores the item the baseline stores; the wire query maps the items the baseline maps
    const sent = recording(putSdk);
    await expertModel('T', sent.client).putArticle(article);
    let wireItem: unknown;
    const original = wirePutSdk.send.bind(wirePutSdk);
    wirePutSdk.send = ((command: { input: { Item: Record<string, AttributeValue> } }) => ((wireItem = unmarshall(command.input.Item)), original(command as never))) as never;
    await wirePut(article);
    wirePutSdk.send = original;
    const baselineItem = (sent.sent[0] as [string, { Item: unknown }])[1].Item;
    if (!isDeepStrictEqual(wireItem, baselineItem)) throw new Error(`the wire put stores ${JSON.stringify(wireItem)}, the baseline ${JSON.stringify(baselineItem)}`);
    const [wireItems, baselineItems] = [await wireQuery('u1'), await expertQuerySdk.articlesOf('u1')];
    if (!isDeepStrictEqual(wireItems, baselineItems)) throw new Error('the wire query maps other items than the baseline');
  }
  const electroPutSdk = electroSchema(putSdk);
  const electroQuerySdk = electroSchema(cannedClient({ Items: marshalledArticles.map((m) => ({ ...m, __edb_e__: { S: 'article' }, __edb_v__: { S: '1' } })), Count: 100 }));
  const toolboxPutSdk = toolboxEntity(putSdk);
  const toolboxQueryClientSdk = cannedClient({ Items: marshalledArticles.map((m) => ({ ...m, _et: { S: 'Article' } })), Count: 100 });
  const toolboxQuerySdk = toolboxEntity(toolboxQueryClientSdk);
  const oneTablePutSdk = oneTableArticle(cannedLowLevel({}));
  const oneTableQuerySdk = oneTableArticle(cannedLowLevel({ Items: marshalledArticles.map((m) => ({ ...m, _type: { S: 'Article' } })), Count: 100 }));
  const sdkIterations = size(100, 1500);
  const sdkRounds = size(3, 21); // the SDK's own cost dominates and varies: more rounds for a stable ratio
  const sdkPut = await sideBySide(
    {
      'hand-written lib-dynamodb (baseline)': () => expertPutSdk.putArticle(article),
      'ddbgen generated': () => ddbgenPutSdk.article.put(article),
      'hand-written client-dynamodb, AttributeValues by hand': () => wirePut(article),
      [`ElectroDB ${readVersion('electrodb')}`]: () => electroPutSdk.put({ ...article, updatedAt: article.updatedAt.toISOString() }).go(),
      [`DynamoDB-Toolbox ${readVersion('dynamodb-toolbox')}`]: () => toolboxPutSdk.build(PutItemCommand).item({ ...article, updatedAt: article.updatedAt.toISOString() }).send(),
      [`OneTable ${readVersion('dynamodb-onetable')}`]: () => oneTablePutSdk.create({ ...article, updatedAt: article.updatedAt.toISOString() }),
    },
    sdkIterations,
    sdkRounds,
  );
  const sdkQuery = await sideBySide(
    await gate({
      'hand-written lib-dynamodb (baseline)': () => expertQuerySdk.articlesOf('u1'),
      'ddbgen generated': () => ddbgenQuerySdk.article.query({ userId: 'u1' }),
      'hand-written client-dynamodb, AttributeValues by hand': () => wireQuery('u1'),
      [`ElectroDB ${readVersion('electrodb')}`]: () => electroQuerySdk.query.primary({ userId: 'u1' }).go({ pages: 1 }),
      [`DynamoDB-Toolbox ${readVersion('dynamodb-toolbox')}`]: () => toolboxTable(toolboxQueryClientSdk).build(ToolboxQuery).entities(toolboxQuerySdk).query({ partition: 'USER#u1', range: { beginsWith: 'ARTICLE#' } }).send(),
      [`OneTable ${readVersion('dynamodb-onetable')}`]: () => oneTableQuerySdk.find({ userId: 'u1' }),
    }, 100),
    Math.ceil(sdkIterations / 4),
    sdkRounds,
  );
  section(
    '2. Through the real SDK, with canned HTTP responses (marshalling, middleware, no network)',
    `Put:\n\n${table(sdkPut)}\n\nQuery returning 100 items:\n\n${table(sdkQuery)}\n\n` +
      `Target: ddbgen ≤ 0.8× the baseline — put ${verdict(sdkPut[1]!.ratio.median <= 0.8)} (${fmt(sdkPut[1]!.ratio.median)}×), query ${verdict(sdkQuery[1]!.ratio.median <= 0.8)} (${fmt(sdkQuery[1]!.ratio.median)}×). ` +
      `The DocumentClient's share is what the hand-marshalled client-dynamodb rows leave out: put ${fmt(sdkPut[2]!.ratio.median)}×, query ${fmt(sdkQuery[2]!.ratio.median)}× of the baseline; the rest is the SDK's own middleware, signing and HTTP handling, which every contender pays.`,
  );
  goals.push({
    measure: 'put / 100-item query through the real SDK (canned HTTP) vs hand-written lib-dynamodb',
    measured: `${fmt(sdkPut[1]!.ratio.median)}× / ${fmt(sdkQuery[1]!.ratio.median)}×`,
    goal: '≤ 0.8× both',
    met: sdkPut[1]!.ratio.median <= 0.8 && sdkQuery[1]!.ratio.median <= 0.8,
    note:
      `out of reach for any client of the SDK: client-dynamodb commands with every AttributeValue written by hand, the floor for generated per-entity marshalling, reach ${fmt(sdkPut[2]!.ratio.median)}× / ${fmt(sdkQuery[2]!.ratio.median)}× (section 2). ` +
      "The SDK's own work (serialising, signing, its logger middleware, reading the response) is the rest of the time, and a CPU profile of 3000 queries shows the client-dynamodb path costing more than the DocumentClient's: the logger middleware filters an AttributeValue-shaped output by its schema (schemaLogFilter 1.28 s against 0.47 s) while the DocumentClient's unmarshalling took 0.08 s. " +
      'Per-entity AttributeValue code would save at most that tenth on a put and lose on a query, so the DocumentClient path stays; the goal this supports is ≤ 1.0× (no cost over hand-written lib-dynamodb code)',
  });
}
