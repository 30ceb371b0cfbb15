// Offline: the fingerprint an error prints for a key part marked pii (fixtures/saas.ts ApiKey's
// tokenHash) is keyed with the table's `piiSecret` (HMAC-SHA-256, the same in every process), or
// without one with a random key of the process — never the value, never an unkeyed hash of it that
// a guess could be checked against. A short or empty secret is refused when the table is made.
import { createHash, createHmac } from 'node:crypto';
import test from 'ava';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionFailedError, ConfigurationError, SaasTable } from '../../out/saas/index.js';

const SECRET = 'k'.repeat(32);
const tokenHash = '4155550123';
const key = { tenantId: 'acme', tokenHash, label: 'ci' };

/** A client that refuses every write as DynamoDB does a failed condition. */
const refusing = { send: async () => Promise.reject(Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' })) } as unknown as DynamoDBDocumentClient;

const messageOf = async (db: SaasTable) => (await db.apiKey.create(key).then(() => undefined, (error: unknown) => error)) as Error;

test('with piiSecret: the fingerprint is the first 32 bits of HMAC-SHA-256(secret, value)', async (t) => {
  const error = await messageOf(new SaasTable(refusing, { piiSecret: SECRET }));
  t.true(error instanceof ConditionFailedError);
  t.is(error.message, `ApiKey { tenantId: "acme", tokenHash: <pii ${createHmac('sha256', SECRET).update(tokenHash).digest('hex').slice(0, 8)}> }: the write's condition did not hold`);
  t.false(error.message.includes(tokenHash));
  const again = await messageOf(new SaasTable(refusing, { piiSecret: SECRET }));
  t.is(again.message, error.message, 'the same for another table object given the secret (as for another process)');
});

test('without piiSecret: a key of the process, not the unkeyed SHA-256', async (t) => {
  const error = await messageOf(new SaasTable(refusing));
  t.regex(error.message, /^ApiKey \{ tenantId: "acme", tokenHash: <pii [0-9a-f]{8}> \}: the write's condition did not hold$/);
  t.false(error.message.includes(createHash('sha256').update(tokenHash).digest('hex').slice(0, 8)));
  t.false(error.message.includes(createHmac('sha256', SECRET).update(tokenHash).digest('hex').slice(0, 8)));
  t.is((await messageOf(new SaasTable(refusing))).message, error.message, 'stable within the process');
});

test('a transaction\'s errors use the table\'s secret too; a short or empty secret is refused at construction', async (t) => {
  const error = (await new SaasTable(refusing, { piiSecret: SECRET }).transaction().apiKey.create(key).commit().then(() => undefined, (e: unknown) => e)) as Error;
  t.false(String(error.message).includes(tokenHash));
  t.throws(() => new SaasTable(refusing, { piiSecret: 'short' }), { instanceOf: ConfigurationError, message: /^piiSecret: the secret is 5 bytes; use at least 32 random bytes/ });
  t.throws(() => new SaasTable(refusing, { piiSecret: '' }), { instanceOf: ConfigurationError });
});
