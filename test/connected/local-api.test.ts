// Tests that need DynamoDB Local itself, not only its answers to items: its Time to Live API
// (UpdateTimeToLive, DescribeTimeToLive), what DescribeTable reports of a native multi-attribute
// index, and clients of their own on its endpoint (requests counted by SDK middleware). The rest of
// ttl, native-indexes and security runs on the generated in-memory table; this file shares one JVM.
import { randomUUID } from 'node:crypto';
import anyTest, { type TestFn } from 'ava';
import { DescribeTableCommand, DescribeTimeToLiveCommand, UpdateTimeToLiveCommand, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { CursorError, SocialTable, socialTableDefinition, type Article } from '../../out/social/index.js';
// the unsigned checksum's digest is public: a forger computes it as the runtime does
import { digest } from '../../out/social/runtime/cursor.js';
import { SessionsTable, sessionsTableDefinition, sessionsTableSettings, type Session } from '../../out/sessions/index.js';
import { tenantsTableDefinition } from '../../out/tenants/index.js';
import { clientFor, useDynamoDbLocal, type LocalDynamo } from '../support/dynamodb-local.js';

const test = anyTest as TestFn;
let local: LocalDynamo;

test.before(async () => {
  local = await useDynamoDbLocal();
});
test.after.always(async () => {
  await local?.stop();
});

/** Creates a fresh table (`name-<uuid>`) and returns its name. */
async function freshTable(name: string, definition: (tableName: string) => CreateTableCommandInput): Promise<string> {
  const tableName = `${name}-${randomUUID()}`;
  await local.createTable(definition(tableName));
  return tableName;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const session = (sessionId: string, expiresAt: Date, extra: Partial<Session> = {}): Session => ({ userId: 'u1', sessionId, device: 'phone', createdAt: new Date(Date.UTC(2026, 0, Number(sessionId.replace(/\D/g, '')) || 1)), expiresAt, ...extra });

test('the table takes its settings: TTL is enabled by the generated UpdateTimeToLive input; the TTL attribute is stored as epoch seconds', async (t) => {
  const tableName = await freshTable('sessions', sessionsTableDefinition);
  const db = new SessionsTable(local.documents, { tableName });
  const { timeToLive } = sessionsTableSettings(tableName);
  await local.client.send(new UpdateTimeToLiveCommand(timeToLive));
  const described = await local.client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  t.is(described.TimeToLiveDescription?.AttributeName, 'expiresAt');
  t.true(['ENABLED', 'ENABLING'].includes(described.TimeToLiveDescription?.TimeToLiveStatus ?? ''), described.TimeToLiveDescription?.TimeToLiveStatus);
  const at = new Date('2030-05-06T07:08:09.999Z');
  await db.session.put(session('s1', at));
  const raw = await local.documents.send(new GetCommand({ TableName: tableName, Key: { pk: 'User#u1', sk: 'Session#s1' } }));
  t.is(raw.Item?.expiresAt, seconds(at), 'a number of seconds, as DynamoDB TTL reads it');
  t.is(raw.Item?.createdAt, '2026-01-01T00:00:00.000Z', 'other timestamps stay ISO-8601 text');
  t.deepEqual((await db.session.get({ userId: 'u1', sessionId: 's1' }))?.expiresAt, new Date('2030-05-06T07:08:09.000Z'), 'read back as a Date (whole seconds)');
  await db.invite.put({ code: 'c1', email: 'a@example.com', expiresAt: new Date('2030-05-06T07:08:59.999Z') });
  const invite = await local.documents.send(new GetCommand({ TableName: tableName, Key: { pk: 'Invite#c1', sk: 'INVITE' } }));
  t.is(invite.Item?.expiresAt, seconds(new Date('2030-05-06T07:08:00.000Z')), "a minute unit stores the minute's start");
});

test('DynamoDB Local creates the native index with several HASH and RANGE elements and typed attributes', async (t) => {
  const tableName = await freshTable('tenants', tenantsTableDefinition);
  const described = await local.client.send(new DescribeTableCommand({ TableName: tableName }));
  const byTenant = described.Table!.GlobalSecondaryIndexes!.find((g) => g.IndexName === 'byTenant')!;
  t.deepEqual(byTenant.KeySchema, [
    { AttributeName: 'tenantId', KeyType: 'HASH' },
    { AttributeName: 'region', KeyType: 'HASH' },
    { AttributeName: 'status', KeyType: 'RANGE' },
    { AttributeName: 'createdAt', KeyType: 'RANGE' },
  ]);
  t.deepEqual(
    described.Table!.AttributeDefinitions!.filter((d) => ['tenantId', 'total'].includes(d.AttributeName!)),
    [{ AttributeName: 'tenantId', AttributeType: 'S' }, { AttributeName: 'total', AttributeType: 'N' }],
  );
});

/** A SocialTable on its own client, counting the requests it sends. */
function countedTable(tableName: string, options: ConstructorParameters<typeof SocialTable>[1] = {}) {
  const documents = DynamoDBDocumentClient.from(clientFor(local.endpoint));
  const counter = { sent: 0 };
  documents.middlewareStack.add((next) => async (args) => (counter.sent++, next(args)), { step: 'initialize', name: 'countRequests' });
  return { db: new SocialTable(documents, { tableName, ...options }), counter };
}

const article = (userId: string, articleId: string, d: number): Article => ({ userId, articleId, name: `n-${articleId}`, updatedAt: new Date(Date.UTC(2024, 0, d)), views: 0 });

test('an unsigned cursor edited by hand, or forged for another partition, is a CursorError before any request', async (t) => {
  const tableName = await freshTable('social', socialTableDefinition);
  const { db, counter } = countedTable(tableName);
  await db.article.batchPut([1, 2, 3].map((d) => article('mine', `a${d}`, d)));
  await db.article.batchPut([1, 2, 3].map((d) => article('victim', `v${d}`, d)));
  const { cursor } = await db.article.query({ userId: 'mine' }, { limit: 1 });
  const [header, body] = cursor!.split('.') as [string, string];
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { p: Record<string, string> };
  const forge = (p: Record<string, string>) => {
    const text = Buffer.from(JSON.stringify({ ...payload, p })).toString('base64url');
    return `${header}.${text}.${digest(`${header}.${text}`)}`;
  };
  const before = counter.sent;
  const cases: Array<[string, string, RegExp]> = [
    ['one character changed', `${cursor!.slice(0, 10)}${cursor![10] === 'A' ? 'B' : 'A'}${cursor!.slice(11)}`, /checksum does not match|not a ddbgen cursor|not base64url|not UTF-8/],
    ['truncated', cursor!.slice(0, -5), /checksum does not match/],
    ['another partition', forge({ ...payload.p, pk: 'User.victim' }), /in another partition than this query reads/],
    ['another entity', forge({ ...payload.p, sk: 'PROFILE' }), /outside this query's key condition/],
    ['not a key', forge({ ...payload.p, gsi1pk: 'x' }), /exactly this query's key attributes/],
  ];
  for (const [name, value, message] of cases) await t.throwsAsync(db.article.query({ userId: 'mine' }, { limit: 1, cursor: value }), { instanceOf: CursorError, message }, name);
  t.is(counter.sent, before, 'no request reached DynamoDB');
  t.deepEqual((await db.article.query({ userId: 'mine' }, { cursor: cursor! })).items.map((a) => a.articleId), ['a2', 'a3']);
});

test('cursors: one secret on two tables does not let a cursor cross; encrypted cursors page through', async (t) => {
  const tableName = await freshTable('social', socialTableDefinition);
  const secret = 'a-secret-of-at-least-32-bytes-for-tests';
  const other = `social-${randomUUID()}`;
  await local.createTable(socialTableDefinition(other));
  const here = countedTable(tableName, { cursor: { secret } }).db;
  const there = countedTable(other, { cursor: { secret } }).db;
  await here.article.batchPut([1, 2].map((d) => article('u', `a${d}`, d)));
  await there.article.batchPut([1, 2].map((d) => article('u', `a${d}`, d)));
  const { cursor } = await here.article.query({ userId: 'u' }, { limit: 1 });
  await t.throwsAsync(there.article.query({ userId: 'u' }, { limit: 1, cursor: cursor! }), { instanceOf: CursorError, message: /made for another table/ });
  t.throws(() => new SocialTable(local.documents, { cursor: { secret: '' } }), { message: /cursor.secret: the secret of key "0" is 0 bytes/ });
  const sealed = countedTable(tableName, { cursor: { secret, encrypt: true } }).db;
  const first = await sealed.article.query({ userId: 'u' }, { limit: 1 });
  t.false(Buffer.from(first.cursor!.split('.')[1]!, 'base64url').toString('latin1').includes('User.u'), 'the position is not readable');
  t.deepEqual((await sealed.article.query({ userId: 'u' }, { cursor: first.cursor! })).items.map((a) => a.articleId), ['a2']);
});
