// The generated create<Table>InMemory of the fixtures: the table as the schema declares it, with no
// configuration — its stream for the generated handler, its Time to Live for the test clock, its
// name as the table class is given it.
import test from 'ava';
import { createFansInMemory } from '../../out/fans/in-memory.js';
import { FansTable, handleFansStream } from '../../out/fans/index.js';
import { createSessionsInMemory } from '../../out/sessions/in-memory.js';
import { SessionsTable } from '../../out/sessions/index.js';
import { createSocialInMemory } from '../../out/social/in-memory.js';
import { SocialTable } from '../../out/social/index.js';

test("createFansInMemory has the Fans stream: handleFansStream runs over its records in order", async (t) => {
  const memory = createFansInMemory();
  const db = new FansTable(memory);
  await db.user.put({ id: 1, name: 'Ada' });
  await db.user.update({ id: 1 }, { set: { name: 'Ada L.' } });
  await db.fan.add({ type: 'User', id: 1 }, { type: 'Actor', id: 2 }, { since: new Date('2013-07-11T00:00:00Z') });
  await db.user.delete({ id: 1 });
  const seen: string[] = [];
  const handler = handleFansStream({
    User: { insert: (c) => void seen.push(`+${c.newItem.name}`), modify: (c) => void seen.push(`${c.oldItem.name}→${c.newItem.name}`), remove: (c) => void seen.push(`-${c.oldItem.name}`) },
    Actor: 'ignore',
    Series: 'ignore',
    Fan: (c) => void seen.push(`${c.side} ${c.event}`),
    unknown: 'ignore',
  });
  t.deepEqual(await handler({ Records: memory.takeStreamRecords() }), { batchItemFailures: [] });
  t.deepEqual(seen, ['+Ada', 'Ada→Ada L.', 'forward insert', 'inverse insert', '-Ada L.']);
  t.deepEqual(memory.takeStreamRecords(), [], 'taken once');
});

test('createSessionsInMemory knows the TTL attribute: a sweep on the test clock deletes what expired', async (t) => {
  const memory = createSessionsInMemory({ now: new Date('2030-01-01T00:00:00Z') });
  const db = new SessionsTable(memory);
  const session = (sessionId: string, minutes: number) => ({ sessionId, userId: 'u1', device: 'd1', createdAt: new Date('2030-01-01T00:00:00Z'), expiresAt: new Date(Date.UTC(2030, 0, 1, 0, minutes)) });
  await db.session.put(session('short', 5));
  await db.session.put(session('long', 60));
  memory.advanceTime(10 * 60_000);
  t.is(memory.sweepExpired(), 1);
  t.deepEqual(memory.items().map((item) => item.sessionId), ['long']);
  t.is(await db.session.get({ userId: 'u1', sessionId: 'short' }, { includeExpired: true }), undefined);
});

test('a table name given to both: the generated table and its class agree; another name is not found', async (t) => {
  const memory = createSocialInMemory({ tableName: 'Social-test' });
  await new SocialTable(memory, { tableName: 'Social-test' }).actor.put({ id: 'a', name: 'A' });
  t.deepEqual(memory.items(), [{ pk: 'Actor.a', sk: 'PROFILE', id: 'a', name: 'A' }]);
  await t.throwsAsync(new SocialTable(memory).actor.get({ id: 'a' }), { name: 'ResourceNotFoundException', message: 'Cannot do operations on a non-existent table' });
});
