// The example app behind `npm start`: uses the repositories generated from fixtures/social.ts and
// fixtures/fans.ts (seed 002's fan graph) against an embedded DynamoDB Local (or, without Java,
// `ddbgen local`), printing what it writes and reads.

import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { FansTable, UserKeys as FanUserKeys, fansTableDefinition } from '../out/fans/index.js';
import { ItemExistsError, KeyValueError, SocialTable, UserKeys, socialTableDefinition } from '../out/social/index.js';
import { startExampleDynamoDB } from './example-dynamodb.js';

const log = (label: string, value?: unknown) =>
  console.log(value === undefined ? label : `${label.padEnd(44)} ${JSON.stringify(value, (_, v) => (v instanceof Set ? [...v] : v))}`);

const local = await startExampleDynamoDB();
console.log(`${local.name} started on ${local.endpoint}\n`);
try {
  await local.createTable(socialTableDefinition('Social'));
  const db = new SocialTable(local.documents, { tableName: 'Social' });

  log('— users —');
  const ada = await db.user.create({ id: '1', email: 'ada@example.com', status: 'ACTIVE', joinedAt: new Date('2024-01-02T03:04:05Z') });
  log('created user 1', ada);
  await db.user.create({ id: '12', email: 'grace@example.com', status: 'ACTIVE', joinedAt: new Date('2024-02-03T00:00:00Z') });
  await db.user.create({ id: 'a.b', email: 'dots@example.com', status: 'BANNED', joinedAt: new Date('2024-03-04T00:00:00Z') });
  log('get user 1', await db.user.get({ id: '1' }));
  log('get user "a.b" (delimiter inside the id)', await db.user.get({ id: 'a.b' }));
  const raw = await local.documents.send(new GetCommand({ TableName: 'Social', Key: UserKeys.key({ id: 'a.b' }) }));
  log('its stored key (escaped, not split)', { pk: raw.Item?.['pk'], sk: raw.Item?.['sk'] });
  try {
    await db.user.create({ id: '1', email: 'again@example.com', status: 'ACTIVE', joinedAt: new Date() });
  } catch (error) {
    if (!(error instanceof ItemExistsError)) throw error;
    log('create user 1 again', `${error.name}: ${error.message}`);
  }
  log('update user 1', await db.user.update({ id: '1' }, { set: { bio: 'First programmer' } }));

  log('\n— articles of user 1, sorted by updatedAt —');
  for (let i = 1; i <= 5; i++) {
    await db.article.put({ userId: '1', articleId: `a${i}`, name: `Notes ${i}`, updatedAt: new Date(Date.UTC(2024, 0, i)), views: i * 10 });
  }
  await db.article.put({ userId: '12', articleId: 'x', name: 'Not user 1', updatedAt: new Date(Date.UTC(2024, 0, 3)), views: 0 });
  let cursor: string | undefined;
  let page = 0;
  do {
    const result = await db.article.query({ userId: '1' }, { limit: 2, order: 'desc', ...(cursor ? { cursor } : {}) });
    log(`page ${++page} (newest first, 2 per page)`, result.items.map((a) => `${a.articleId} ${a.updatedAt.toISOString().slice(0, 10)}`));
    cursor = result.cursor;
  } while (cursor);
  const recent = await db.article.query({ userId: '1' }, { where: { gte: { updatedAt: new Date(Date.UTC(2024, 0, 4)) } } });
  log('articles updated on or after 2024-01-04', recent.items.map((a) => a.articleId));
  const bumped = await db.article.update({ userId: '1', updatedAt: new Date(Date.UTC(2024, 0, 1)), articleId: 'a1' }, { add: { views: 1 } });
  log('add 1 view to a1', { views: bumped.views });
  const between = await db.article.recentArticles({ userId: '1', updatedAt: [new Date(Date.UTC(2024, 0, 2)), new Date(Date.UTC(2024, 0, 4))] });
  log('pattern recentArticles 01-02..01-04', between.items.map((a) => a.articleId));
  log('GSI byName "Notes 3" (any user)', (await db.article.queryByName({ name: 'Notes 3' })).items.map((a) => `${a.userId}/${a.articleId}`));
  log('LSI byTitle, keys-only projection', (await db.article.queryByTitle({ userId: '1' }, { limit: 2 })).items);
  await db.article.markFeatured({ userId: '1', updatedAt: new Date(Date.UTC(2024, 0, 5)), articleId: 'a5' }, { featuredAt: new Date('2024-02-10T00:00:00Z') });
  log('sparse GSI featured in 2024-02', (await db.article.queryFeatured({ featuredAt: new Date('2024-02-01T00:00:00Z') })).items.map((a) => a.articleId));
  const collection = await db.userCollection({ id: '1' });
  log('collection of user 1 (one query)', collection.items.map((entry) => entry.type));

  log('\n— scores: numbers in keys sort as numbers, negatives included —');
  const day = new Date('2024-05-01T12:00:00Z');
  for (const [playerId, points] of [['p1', 120], ['p2', -5], ['p3', 7], ['p4', -300], ['p5', 45]] as const) {
    await db.score.put({ game: 'chess', day, playerId, points });
  }
  const scores = await db.score.query({ game: 'chess', day }, { order: 'desc' });
  log('chess scores on 2024-05-01, highest first', scores.items.map((s) => `${s.playerId}:${s.points}`));

  log('\n— bad input fails before any request —');
  try {
    await db.score.put({ game: 'chess', day, playerId: 'p6', points: 5_000_000 });
  } catch (error) {
    if (!(error instanceof KeyValueError)) throw error;
    log(`${error.code}`, error.message);
  }
  try {
    await db.user.get({ id: '' });
  } catch (error) {
    if (!(error instanceof KeyValueError)) throw error;
    log(`${error.code}`, error.message);
  }
  log('delete user 12', await db.user.delete({ id: '12' }));
  log('get user 12', (await db.user.get({ id: '12' })) ?? null);

  log('\n— seed 002: a fan graph with integer ids (fixtures/fans.ts) —');
  await local.createTable(fansTableDefinition('Fans'));
  const fans = new FansTable(local.documents, { tableName: 'Fans' });
  const since = new Date('2013-07-11T00:00:00Z');
  await fans.user.put({ id: 1, name: 'Ada' });
  await fans.actor.put({ id: 2, name: 'Lee Min-ho' });
  for (const to of [{ type: 'User', id: 12 }, { type: 'Actor', id: 2 }, { type: 'User', id: 2 }, { type: 'User', id: 7 }] as const) {
    await fans.fan.add({ type: 'User', id: 1 }, to, { since });
  }
  log('users user 1 is a fan of (numeric order)', (await fans.fan.outgoing({ type: 'User', id: 1 }, { type: 'User' })).items.map((l) => l.id));
  log('fans of actor 2', (await fans.fan.incoming({ type: 'Actor', id: 2 })).items.map((l) => `${l.type} ${l.id}`));
  const userPk = FanUserKeys.key({ id: 1 }).pk;
  const rawUser = await local.documents.send(new QueryCommand({ TableName: 'Fans', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': userPk } }));
  log(`raw items of user 1 (pk ${userPk}): profile and FAN_OF in one partition`);
  // a stored item's attributes have no order (DynamoDB Local and ddbgen local list them differently): by name
  for (const item of rawUser.Items ?? []) log(`  ${String(item['sk'])}`, Object.fromEntries(Object.entries(item).filter(([name]) => name !== 'pk' && name !== 'sk').sort(([a], [b]) => (a < b ? -1 : 1))));
} finally {
  await local.stop();
  console.log(`\n${local.name.replace(/ \(.*/, '')} stopped.`);
}
