// Edges offline: the exact TransactWriteItems input, and a model-based test against a fake
// DynamoDB that applies transactions atomically and injects failures: after every command, a
// forward item exists if and only if its inverse exists.
import test from 'ava';
import fc from 'fast-check';
import { TransactWriteCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SocialTable } from '../../out/social/index.js';

const since = new Date('2024-01-01T00:00:00Z');

test('add and remove send one transaction with both halves, conditions and a token', async (t) => {
  const inputs: unknown[] = [];
  const client = { send: async (command: { input: unknown }) => (inputs.push(command.input), {}) } as unknown as DynamoDBDocumentClient;
  const db = new SocialTable(client, { tableName: 'social-test' });
  await db.fan.add({ type: 'User', id: 'u.1' }, { type: 'Series', id: 's' }, { since }, { token: 'tok' });
  await db.fan.remove({ type: 'User', id: 'u.1' }, { type: 'Series', id: 's' }, { token: 'tok2' });
  t.deepEqual(inputs, [
    {
      ClientRequestToken: 'tok',
      TransactItems: [
        {
          Put: {
            TableName: 'social-test',
            Item: { since: '2024-01-01T00:00:00.000Z', pk: 'User.u\\.1', sk: 'FAN_OF.Series.s' },
            ConditionExpression: 'attribute_not_exists(#n0)',
            ExpressionAttributeNames: { '#n0': 'pk' },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          Put: {
            TableName: 'social-test',
            Item: { since: '2024-01-01T00:00:00.000Z', pk: 'Series.s', sk: 'FANNED_BY.User.u\\.1' },
            ConditionExpression: 'attribute_not_exists(#n0)',
            ExpressionAttributeNames: { '#n0': 'pk' },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
      ],
    },
    {
      ClientRequestToken: 'tok2',
      TransactItems: [
        { Delete: { TableName: 'social-test', Key: { pk: 'User.u\\.1', sk: 'FAN_OF.Series.s' } } },
        { Delete: { TableName: 'social-test', Key: { pk: 'Series.s', sk: 'FANNED_BY.User.u\\.1' } } },
      ],
    },
  ]);
});

/** A fake table: TransactWriteItems all-or-nothing with conditions; failures injected by `fault`. */
function fakeTable(fault: () => 'conflict' | 'network' | undefined) {
  const items = new Map<string, Record<string, unknown>>();
  const id = (key: Record<string, unknown>) => `${key['pk']}|${key['sk']}`;
  const client = {
    send: async (command: unknown) => {
      if (command instanceof GetCommand) return { Item: items.get(id(command.input.Key!)) };
      if (!(command instanceof TransactWriteCommand)) throw new Error('unexpected');
      const f = fault();
      if (f === 'network') throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
      const actions = command.input.TransactItems!;
      if (f === 'conflict') throw Object.assign(new Error('conflict'), { name: 'TransactionCanceledException', CancellationReasons: actions.map(() => ({ Code: 'TransactionConflict' })) });
      const reasons = actions.map((a) => (a.Put && items.has(id(a.Put.Item!)) ? { Code: 'ConditionalCheckFailed' } : { Code: 'None' }));
      if (reasons.some((r) => r.Code !== 'None')) throw Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: reasons });
      for (const a of actions) {
        if (a.Put) items.set(id(a.Put.Item!), a.Put.Item!);
        if (a.Delete) items.delete(id(a.Delete.Key!));
      }
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { items, db: new SocialTable(client, { tableName: 'social-test', transactionRetry: { sleep: async () => undefined, maxAttempts: 3 } }) };
}

test('model: whatever fails, a forward item exists if and only if its inverse does', async (t) => {
  const node = fc.record({ type: fc.constantFrom<'User' | 'Actor' | 'Series'>('User', 'Actor', 'Series'), id: fc.constantFrom('1', '2', 'a.b', '1.2') });
  const command = fc.tuple(fc.constantFrom('add', 'remove'), node, node, fc.constantFrom<'conflict' | 'network' | undefined>(undefined, undefined, 'conflict', 'network'));
  await fc.assert(
    fc.asyncProperty(fc.array(command, { maxLength: 30 }), async (commands) => {
      let next: 'conflict' | 'network' | undefined;
      const { items, db } = fakeTable(() => {
        const f = next;
        if (f === 'conflict') next = undefined; // a conflict clears on retry
        return f;
      });
      const model = new Set<string>();
      for (const [op, from, to, f] of commands) {
        next = f;
        const pair = `${from.type}.${from.id}>${to.type}.${to.id}`;
        try {
          if (op === 'add') await db.fan.add(from, to, { since });
          else await db.fan.remove(from, to);
          if (op === 'add') model.add(pair);
          else model.delete(pair);
        } catch (error) {
          if ((error as Error).name !== 'TimeoutError') throw error;
        }
        const forward = [...items.values()].filter((i) => String(i['sk']).startsWith('FAN_OF.'));
        const inverse = [...items.values()].filter((i) => String(i['sk']).startsWith('FANNED_BY.'));
        const mirror = (i: Record<string, unknown>) => {
          const [, type, ...id] = String(i['sk']).split(/(?<!\\)\./);
          return `${type}.${id.join('.')}|${String(i['sk']).startsWith('FAN_OF.') ? 'FANNED_BY' : 'FAN_OF'}.${i['pk']}`;
        };
        const keys = new Set([...items.values()].map((i) => `${i['pk']}|${i['sk']}`));
        if (![...forward, ...inverse].every((i) => keys.has(mirror(i)))) return false;
        if (forward.length !== model.size) return false;
      }
      return true;
    }),
    { numRuns: 150 },
  );
  t.pass();
});
