// Offline behaviour of the stream decoder and handler: records of entities, edges and no declared
// owner told apart by their keys, images converted as the repositories read items (Lambda's base64
// binary included), TTL removals, view types, records that cannot be decoded, and handlers run in
// order with the first failure reported as Lambda's batchItemFailures.
import test from 'ava';
import { KeyTemplate, type SegmentDef } from './codec.js';
import type { EdgeModel } from './edge.js';
import { genericConversions } from './item-mapping.js';
import type { EntityModel } from './repository.js';
import { piiFingerprint } from './pii-fingerprint.js';
import { base64Bytes, nativeValue, streamDecoder, streamHandler, StreamRecordError, type StreamModel, type StreamRecord, type StreamViewType } from './stream.js';

const tpl = (entity: string, target: string, segments: SegmentDef[]) => new KeyTemplate({ entity, target, delimiter: '.', maxBytes: 1024, segments });
const lit = (text: string): SegmentDef => ({ kind: 'literal', text });
const id: SegmentDef = { kind: 'integer', attr: 'id', min: 1, max: 1e9 };

const entity = (name: string, extra: Partial<EntityModel> = {}): EntityModel => ({
  ...genericConversions,
  name,
  pk: { attribute: 'pk', template: tpl(name, `${name}.key.pk`, [lit(name), id]) },
  sk: { attribute: 'sk', template: tpl(name, `${name}.key.sk`, [lit('PROFILE')]) },
  indexes: [],
  codecs: {},
  attributes: ['id', 'name'],
  required: ['id', 'name'],
  keyAttributes: ['pk', 'sk'],
  primaryParts: ['id'],
  ...extra,
});
const user = entity('User', {
  codecs: { joinedAt: 'timestamp', tags: 'set', expiresAt: { epochSeconds: 'second' } },
  types: { id: { kind: 'number', min: 1, max: 1e9, integer: true }, name: { kind: 'string' }, joinedAt: { kind: 'timestamp' }, tags: { kind: 'stringSet' }, status: { kind: 'enum', values: ['ACTIVE', 'BANNED'] }, score: { kind: 'number' }, expiresAt: { kind: 'timestamp' } },
  attributes: ['id', 'name', 'joinedAt', 'tags', 'status', 'score', 'expiresAt'],
});
const post: EntityModel = {
  ...entity('Post'),
  pk: { attribute: 'pk', template: tpl('Post', 'Post.key.pk', [lit('User'), id]) },
  sk: { attribute: 'sk', template: tpl('Post', 'Post.key.sk', [lit('Post'), { kind: 'timestamp', attr: 'day', unit: 'day' }, { kind: 'string', attr: 'slug' }]) },
  codecs: { day: 'timestamp' },
  attributes: ['id', 'day', 'slug'],
  required: ['id', 'day', 'slug'],
  primaryParts: ['id', 'day', 'slug'],
};
const actor = entity('Actor');
const fan: EdgeModel = { name: 'Fan', nodes: { User: user.pk.template as KeyTemplate, Actor: actor.pk.template as KeyTemplate }, forward: 'FAN_OF', inverse: 'FANNED_BY', delimiter: '.', pk: 'pk', sk: 'sk', codecs: { since: 'timestamp' }, attributes: ['since'], keyAttributes: ['pk', 'sk'] };
const model = (view: StreamViewType): StreamModel => ({ table: 'Fans', view, pk: 'pk', sk: 'sk', entities: [{ type: 'User', model: user }, { type: 'Post', model: post }, { type: 'Actor', model: actor }], edges: [fan] });

const S = (s: string) => ({ S: s });
const N = (n: string) => ({ N: n });
const keys = (pk: string, sk: string) => ({ pk: S(pk), sk: S(sk) });
const record = (eventName: string, dynamodb: StreamRecord['dynamodb'], extra: Partial<StreamRecord> = {}): StreamRecord => ({ eventName, dynamodb: { SequenceNumber: '100', ...dynamodb }, ...extra });
const ttl = { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } };

const ada = { ...keys('User.0000000001', 'PROFILE'), id: N('1'), name: S('Ada'), joinedAt: S('2024-05-06T07:08:09.010Z'), tags: { SS: ['a', 'b'] } };
const adaItem = { id: 1, name: 'Ada', joinedAt: new Date('2024-05-06T07:08:09.010Z'), tags: new Set(['a', 'b']) };
const since = S('2013-07-11T00:00:00.000Z');

const decoded: Array<[string, StreamViewType, StreamRecord, unknown]> = [
  ['an entity insert: key parts parsed by its templates, the new image read as the repository reads items', 'new-and-old-images',
    record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: ada }),
    { entity: 'User', event: 'insert', expired: false, sequenceNumber: '100', key: { id: 1 }, newItem: adaItem }],
  ['a modify carries both images', 'new-and-old-images',
    record('MODIFY', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: { ...ada, name: S('Ada L.') }, OldImage: ada }),
    { entity: 'User', event: 'modify', expired: false, sequenceNumber: '100', key: { id: 1 }, newItem: { ...adaItem, name: 'Ada L.' }, oldItem: adaItem }],
  ['a removal by a request is not expired', 'new-and-old-images',
    record('REMOVE', { Keys: keys('User.0000000001', 'PROFILE'), OldImage: ada }, { userIdentity: null }),
    { entity: 'User', event: 'remove', expired: false, sequenceNumber: '100', key: { id: 1 }, oldItem: adaItem }],
  ['a removal by Time to Live (Lambda spelling) is expired', 'new-and-old-images',
    record('REMOVE', { Keys: keys('User.0000000001', 'PROFILE'), OldImage: ada }, ttl),
    { entity: 'User', event: 'remove', expired: true, sequenceNumber: '100', key: { id: 1 }, oldItem: adaItem }],
  ['a removal by Time to Live (Streams API spelling) is expired', 'old-image',
    record('REMOVE', { Keys: keys('User.0000000001', 'PROFILE'), OldImage: ada }, { userIdentity: { Type: 'Service', PrincipalId: 'dynamodb.amazonaws.com' } }),
    { entity: 'User', event: 'remove', expired: true, sequenceNumber: '100', key: { id: 1 }, oldItem: adaItem }],
  ['keys-only: the key alone, whatever images the record has', 'keys-only',
    record('MODIFY', { Keys: keys('Actor.0000000002', 'PROFILE'), NewImage: { name: S('Lee') } }),
    { entity: 'Actor', event: 'modify', expired: false, sequenceNumber: '100', key: { id: 2 } }],
  ['new-image: no old item on a modify', 'new-image',
    record('MODIFY', { Keys: keys('Actor.0000000002', 'PROFILE'), NewImage: { ...keys('Actor.0000000002', 'PROFILE'), id: N('2'), name: S('Lee') } }),
    { entity: 'Actor', event: 'modify', expired: false, sequenceNumber: '100', key: { id: 2 }, newItem: { id: 2, name: 'Lee' } }],
  ['the partition shared by User and Post: the sort-key template tells them apart; key parts exact from the image', 'new-image',
    record('INSERT', { Keys: keys('User.0000000001', 'Post.2024-05-06.hello\\.world'), NewImage: { ...keys('User.0000000001', 'Post.2024-05-06.hello\\.world'), id: N('1'), day: S('2024-05-06T10:00:00.000Z'), slug: S('hello.world') } }),
    { entity: 'Post', event: 'insert', expired: false, sequenceNumber: '100', key: { id: 1, day: new Date('2024-05-06T10:00:00.000Z'), slug: 'hello.world' }, newItem: { id: 1, day: new Date('2024-05-06T10:00:00.000Z'), slug: 'hello.world' } }],
  ['keys-only keeps what the key holds: the day, truncated', 'keys-only',
    record('REMOVE', { Keys: keys('User.0000000001', 'Post.2024-05-06.x') }),
    { entity: 'Post', event: 'remove', expired: false, sequenceNumber: '100', key: { id: 1, day: new Date('2024-05-06T00:00:00.000Z'), slug: 'x' } }],
  ["an edge's forward item: from is the partition's node, to the sort key's", 'new-and-old-images',
    record('INSERT', { Keys: keys('User.0000000001', 'FAN_OF.Actor.0000000002'), NewImage: { ...keys('User.0000000001', 'FAN_OF.Actor.0000000002'), since } }),
    { entity: 'Fan', side: 'forward', event: 'insert', expired: false, sequenceNumber: '100', key: { from: { type: 'User', id: 1 }, to: { type: 'Actor', id: 2 } }, newItem: { since: new Date('2013-07-11T00:00:00.000Z') } }],
  ["an edge's inverse item: the same relationship, seen from the other node", 'new-and-old-images',
    record('REMOVE', { Keys: keys('Actor.0000000002', 'FANNED_BY.User.0000000001'), OldImage: { ...keys('Actor.0000000002', 'FANNED_BY.User.0000000001'), since } }),
    { entity: 'Fan', side: 'inverse', event: 'remove', expired: false, sequenceNumber: '100', key: { from: { type: 'User', id: 1 }, to: { type: 'Actor', id: 2 } }, oldItem: { since: new Date('2013-07-11T00:00:00.000Z') } }],
  ['keys no entity or edge builds: the unknown branch, keys and images as stored', 'new-image',
    record('INSERT', { Keys: keys('Order.7', 'X'), NewImage: { ...keys('Order.7', 'X'), total: N('12.5') } }),
    { entity: undefined, event: 'insert', expired: false, sequenceNumber: '100', key: { pk: 'Order.7', sk: 'X' }, newItem: { pk: 'Order.7', sk: 'X', total: 12.5 } }],
  ['a key that is almost a User key (id out of range) is unknown, not a guess', 'keys-only',
    record('INSERT', { Keys: keys('User.12345678901', 'PROFILE') }),
    { entity: undefined, event: 'insert', expired: false, sequenceNumber: '100', key: { pk: 'User.12345678901', sk: 'PROFILE' } }],
];

for (const [name, view, given, want] of decoded) {
  test(`decode: ${name}`, (t) => {
    t.deepEqual(streamDecoder(model(view))(given), want);
  });
}

const failures: Array<[string, StreamViewType, StreamRecord, string]> = [
  ['an unknown event name', 'keys-only', record('UPSERT', { Keys: keys('User.0000000001', 'PROFILE') }),
    'Fans stream record 100 cannot be decoded: eventName is "UPSERT", not INSERT, MODIFY or REMOVE'],
  ['an event name that is a property of every object', 'keys-only', record('constructor', { Keys: keys('User.0000000001', 'PROFILE') }),
    'Fans stream record 100 cannot be decoded: eventName is "constructor", not INSERT, MODIFY or REMOVE'],
  ['no keys', 'keys-only', record('INSERT', {}),
    'Fans stream record 100 cannot be decoded: it has no dynamodb.Keys'],
  ['an image the view type promises is missing', 'new-and-old-images', record('MODIFY', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: ada }),
    `Fans stream record 100 (User { id: 1 }) cannot be decoded: it has no OldImage, which a NEW_AND_OLD_IMAGES stream carries on MODIFY: the table's stream view type is not the schema's stream: 'new-and-old-images'`],
  ['a timestamp attribute that is not one', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: { ...ada, joinedAt: N('5') } }),
    'Fans stream record 100 (User { id: 1 }) cannot be decoded: NewImage.joinedAt: must be a timestamp stored as ISO-8601 text (YYYY-MM-DDTHH:mm:ss.sssZ), not a number'],
  ['a text that new Date() would read loosely is no timestamp', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: { ...ada, joinedAt: S('Invoice 5') } }),
    'Fans stream record 100 (User { id: 1 }) cannot be decoded: NewImage.joinedAt: must be a timestamp stored as ISO-8601 text (YYYY-MM-DDTHH:mm:ss.sssZ), not a string'],
  ['a string where a number is declared', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: { ...ada, score: S('12') } }),
    'Fans stream record 100 (User { id: 1 }) cannot be decoded: NewImage.score: must be a finite number, not a string'],
  ['a value outside its enum', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: { ...ada, status: S('DELETED') } }),
    'Fans stream record 100 (User { id: 1 }) cannot be decoded: NewImage.status: must be one of "ACTIVE", "BANNED", not a string'],
  ['a map where a string is declared', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: { ...ada, name: { M: { first: S('Ada') } } } }),
    'Fans stream record 100 (User { id: 1 }) cannot be decoded: NewImage.name: must be a string, not a map'],
  ['a time to live that is no number', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: { ...ada, expiresAt: S('soon') } }),
    'Fans stream record 100 (User { id: 1 }) cannot be decoded: NewImage.expiresAt is not a time to live (User stores expiresAt as epoch seconds), it is a string'],
  ['a required attribute is missing', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: (({ name: _, ...rest }) => rest)(ada) }),
    'Fans stream record 100 (User { id: 1 }) cannot be decoded: NewImage.name is missing, and User declares it required'],
  ['a record that is null', 'keys-only', null as never,
    'Fans stream record cannot be decoded: it is null, not a stream record (an object with eventName and dynamodb)'],
  ['an image value that is null', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: { ...ada, name: null as never } }),
    'Fans stream record 100 (User { id: 1 }) cannot be decoded: NewImage.name is not a DynamoDB attribute value (an object with one of S, N, B, BOOL, NULL, SS, NS, BS, L, M)'],
  ['a map that is null', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: { ...ada, name: { M: null as never } } }),
    'Fans stream record 100 (User { id: 1 }) cannot be decoded: NewImage.name is a M that does not hold a map'],
  ['a list that is text', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: { ...ada, name: { L: 'x' as never } } }),
    'Fans stream record 100 (User { id: 1 }) cannot be decoded: NewImage.name is a L that does not hold a list'],
  ['an image that is no map', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: 'x' as never }),
    'Fans stream record 100 cannot be decoded: its dynamodb.NewImage is not a map of attribute values'],
  ['a value that is no attribute value', 'new-image', record('INSERT', { Keys: keys('User.0000000001', 'PROFILE'), NewImage: { ...ada, name: {} } }),
    'Fans stream record 100 (User { id: 1 }) cannot be decoded: NewImage.name is not a DynamoDB attribute value (none of S, N, B, BOOL, NULL, SS, NS, BS, L, M)'],
  ['a number that is not one', 'keys-only', record('INSERT', { Keys: { pk: N('x') } }),
    'Fans stream record 100 cannot be decoded: Keys.pk is an N that is not a number'],
];

for (const [name, view, given, message] of failures) {
  test(`decode fails and says why: ${name}`, (t) => {
    const error = t.throws(() => streamDecoder(model(view))(given), { instanceOf: StreamRecordError });
    t.is(error?.message, message);
    t.is(error?.code, 'STREAM_RECORD');
    t.is(error?.sequenceNumber, given === null ? undefined : '100');
    t.false(JSON.stringify(error).includes('User.0000000001'), 'logging the error prints no stored data');
  });
}

test('a pii key part is named by its fingerprint; the stored keys are there, not enumerable', (t) => {
  const secret: StreamModel = { ...model('keys-only'), entities: [{ type: 'User', model: { ...user, pii: ['id'], fingerprint: piiFingerprint } }] };
  const error = t.throws(() => streamDecoder(secret)(record('MODIFY', { Keys: keys('User.0000000001', 'PROFILE') }, { eventName: 'UPDATE' })), { instanceOf: StreamRecordError });
  t.is(error?.message, 'Fans stream record 100 cannot be decoded: eventName is "UPDATE", not INSERT, MODIFY or REMOVE');
  const missing = t.throws(() => streamDecoder({ ...secret, view: 'new-image' })(record('INSERT', { Keys: keys('User.0000000001', 'PROFILE') })), { instanceOf: StreamRecordError });
  t.regex(missing!.message, /^Fans stream record 100 \(User \{ id: <pii [0-9a-f]{8}> \}\) cannot be decoded: it has no NewImage/);
  t.deepEqual(missing!.keys, { pk: 'User.0000000001', sk: 'PROFILE' });
  t.false(Object.keys(missing!).includes('keys'));
});

test('attribute values convert as the DocumentClient reads them; binary from bytes or base64 text', (t) => {
  const given: Array<[Parameters<typeof nativeValue>[0], unknown]> = [
    [{ S: 'x' }, 'x'],
    [{ N: '-1.5e3' }, -1500],
    [{ N: '12345678901234567890' }, 12345678901234567890n],
    [{ BOOL: false }, false],
    [{ NULL: true }, null],
    [{ B: new Uint8Array([1, 2]) }, new Uint8Array([1, 2])],
    [{ B: 'AQID/w==' }, new Uint8Array([1, 2, 3, 255])],
    [{ SS: ['a'] }, new Set(['a'])],
    [{ NS: ['1', '2'] }, new Set([1, 2])],
    [{ BS: ['AQ=='] }, new Set([new Uint8Array([1])])],
    [{ L: [{ S: 'a' }, { N: '1' }] }, ['a', 1]],
    [{ M: { a: { M: { b: { BOOL: true } } } } }, { a: { b: true } }],
  ];
  for (const [value, want] of given) t.deepEqual(nativeValue(value, 'v'), want, JSON.stringify(value));
});

test('base64 decoding matches Node for every length, and refuses what is not base64', (t) => {
  for (let length = 0; length < 40; length++) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + length) % 256);
    const text = Buffer.from(bytes).toString('base64');
    t.deepEqual(base64Bytes(text), bytes, text);
  }
  t.is(base64Bytes('a*b='), undefined);
  t.is(base64Bytes('abcde'), undefined);
});

type Change = { entity: string | undefined; event: string; key: unknown };

test('the handler runs records in order and reports the first failure as batchItemFailures, running nothing after it', async (t) => {
  const seen: string[] = [];
  const errors: unknown[] = [];
  const decode = streamDecoder<Change & { event: 'insert' | 'modify' | 'remove' }>(model('keys-only'));
  const handle = streamHandler(
    decode,
    {
      User: (change: Change) => void seen.push(`User ${change.event}`),
      Actor: { insert: 'ignore', modify: () => void seen.push('Actor modify'), remove: () => { throw new Error('actor removal failed'); } },
      unknown: (change: Change) => void seen.push(`unknown ${JSON.stringify(change.key)}`),
    } as never,
    { onError: (error) => errors.push(error) },
  );
  const batch = (ids: string[], names: string[], pks: string[]) => ({ Records: ids.map((n, i) => ({ eventName: names[i]!, dynamodb: { SequenceNumber: n, Keys: keys(pks[i]!, 'PROFILE') } })) });
  t.deepEqual(await handle(batch(['1', '2', '3', '4'], ['INSERT', 'INSERT', 'MODIFY', 'REMOVE'], ['User.0000000001', 'Actor.0000000002', 'Actor.0000000002', 'Order.1'])), { batchItemFailures: [] });
  t.deepEqual(seen, ['User insert', 'Actor modify', 'unknown {"pk":"Order.1","sk":"PROFILE"}']);
  seen.length = 0;
  t.deepEqual(await handle(batch(['5', '6', '7'], ['MODIFY', 'REMOVE', 'INSERT'], ['User.0000000001', 'Actor.0000000002', 'User.0000000003'])), { batchItemFailures: [{ itemIdentifier: '6' }] });
  t.deepEqual(seen, ['User modify'], 'record 7 is not run: Lambda retries from record 6');
  t.is((errors[0] as Error).message, 'actor removal failed');
  t.deepEqual(await handle(batch(['8'], ['UPSERT'], ['User.0000000001'])), { batchItemFailures: [{ itemIdentifier: '8' }] }, 'a record that cannot be decoded fails too');
  t.true(errors[1] instanceof StreamRecordError);
  await t.throwsAsync(handle({ Records: [{ eventName: 'REMOVE', dynamodb: { Keys: keys('Actor.0000000002', 'PROFILE') } }] }), { message: 'actor removal failed' }, 'without a sequence number the whole batch fails');
});
