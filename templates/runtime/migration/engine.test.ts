// The migration engine's parts that need no table: classifying items (entities, and edge items
// re-keyed across a key-codec or delimiter change) and the checkpoint rules (the write cap: capacity-bucket.test.ts). The whole engine runs against DynamoDB Local in test/connected/migration.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { KeyTemplate, type SegmentDef } from '../codec.js';
import type { EdgeModel } from '../edge.js';
import { CheckpointError, readCheckpoint } from './file-checkpoints.js';
import { classify } from './item-classification.js';
import { movedShard } from './item-rebuild.js';
import type { MigratedEdge, MigrationPlan } from './plan.js';
import { genericConversions } from '../item-mapping.js';
import type { EntityModel } from '../repository.js';

/** A minimal entity model: table keys only (what classify reads). */
function model(name: string, pk: SegmentDef[], sk: SegmentDef[]): EntityModel {
  const template = (segments: SegmentDef[], target: string) => new KeyTemplate({ entity: name, target, delimiter: '#', maxBytes: 1024, segments });
  return { ...genericConversions, name, pk: { attribute: 'pk', template: template(pk, `${name}.key.pk`) }, sk: { attribute: 'sk', template: template(sk, `${name}.key.sk`) }, indexes: [], codecs: {}, attributes: [], required: [], keyAttributes: ['pk', 'sk'], primaryParts: [] };
}

const oldUser = model('User', [{ kind: 'literal', text: 'User' }, { kind: 'string', attr: 'id' }], [{ kind: 'literal', text: 'PROFILE' }]);
const newUser = model('User', [{ kind: 'literal', text: 'Customer' }, { kind: 'string', attr: 'id' }], [{ kind: 'literal', text: 'PROFILE' }]);
const product = model('Product', [{ kind: 'literal', text: 'Product' }, { kind: 'string', attr: 'sku' }], [{ kind: 'literal', text: 'PRODUCT' }]);
const plan: MigrationPlan = {
  id: 'shop-1',
  tableName: 'Shop',
  entities: [{ name: 'User', kind: 'rewrite', from: oldUser, to: newUser, declared: {} }],
  unchanged: [product],
  edges: [],
  edgePrefixes: ['FOLLOWS#', 'FOLLOWED_BY#'],
  decode: (_entity, _codecs, stored) => ({ ...stored }),
  maxWcu: 100,
};

const given: Array<[Record<string, unknown>, string]> = [
  [{ pk: 'User#u1', sk: 'PROFILE' }, 'migrate User'],
  [{ pk: 'Customer#u1', sk: 'PROFILE' }, 'current'],
  [{ pk: 'Product#p1', sk: 'PRODUCT' }, 'unchanged'],
  [{ pk: 'User#u1', sk: 'FOLLOWS#User#u2' }, 'unchanged'],
  [{ pk: 'User#u1', sk: 'SETTINGS' }, 'skip: its keys match no entity of the old schema'],
  [{ pk: 'Junk', sk: 7 }, 'skip: its keys match no entity of the old schema'],
];
/** A classification as one line: `migrate User`, `move Fan: OLD KEY → NEW KEY; …`, `current`, `skip: why`. */
function described(what: ReturnType<typeof classify>): string {
  if ('entity' in what) return `migrate ${what.entity.name}`;
  if ('move' in what) {
    const key = (item: Readonly<Record<string, unknown>>) => `${String(item.pk)} ${String(item.sk)}`;
    return `move ${what.move.edge}: ${what.move.halves.map((h) => `${key(h.old)} → ${key(h.next)}${h.next.since === undefined ? '' : ` (since ${String(h.next.since)})`}`).join('; ')}`;
  }
  return 'leave' in what ? what.leave : `skip: ${what.skip}`;
}

for (const [stored, want] of given) {
  test(`classify ${JSON.stringify(stored)}: ${want}`, (t) => {
    t.is(described(classify(plan, stored)), want);
  });
}

// Edge Fan between User (integer ids 1..1e9: key codec v1 wrote id 1 as 000000000, v2 writes
// 0000000001) and Tag (string ids, the same in both), and Friend, a symmetric edge of Users.
function edgeModel(name: string, forward: string, inverse: string, delimiter: string, codecVersion: 1 | 2): EdgeModel {
  const node = (entity: string, id: SegmentDef) => new KeyTemplate({ entity, target: `${entity}.key.pk`, delimiter, maxBytes: 2048, segments: [{ kind: 'literal', text: entity }, id], codecVersion });
  return {
    name,
    nodes: { User: node('User', { kind: 'integer', attr: 'id', min: 1, max: 1e9 }), Tag: node('Tag', { kind: 'string', attr: 'name' }) },
    forward,
    inverse,
    delimiter,
    pk: 'pk',
    sk: 'sk',
    codecs: {},
    attributes: ['since'],
    keyAttributes: ['pk', 'sk'],
  };
}
const codecChange = (name: string, forward: string, inverse: string): MigratedEdge => ({ name, from: edgeModel(name, forward, inverse, '#', 1), to: edgeModel(name, forward, inverse, '#', 2), declared: {} });
const edgePlan: MigrationPlan = { ...plan, entities: [], unchanged: [], edges: [codecChange('Fan', 'FAN_OF', 'FANNED_BY'), codecChange('Friend', 'FRIEND', 'FRIEND')], edgePrefixes: [] };

const edgeItems: Array<[Record<string, unknown>, string]> = [
  [
    { pk: 'User#000000000', sk: 'FAN_OF#User#000000006', since: '2026' },
    'move Fan: User#000000000 FAN_OF#User#000000006 → User#0000000001 FAN_OF#User#0000000007 (since 2026); User#000000006 FANNED_BY#User#000000000 → User#0000000007 FANNED_BY#User#0000000001 (since 2026)',
  ],
  [{ pk: 'User#000000006', sk: 'FANNED_BY#User#000000000' }, 'move Fan: User#000000006 FANNED_BY#User#000000000 → User#0000000007 FANNED_BY#User#0000000001; User#000000000 FAN_OF#User#000000006 → User#0000000001 FAN_OF#User#0000000007'],
  [{ pk: 'Tag#rock', sk: 'FAN_OF#User#000000041' }, 'move Fan: Tag#rock FAN_OF#User#000000041 → Tag#rock FAN_OF#User#0000000042; User#000000041 FANNED_BY#Tag#rock → User#0000000042 FANNED_BY#Tag#rock'],
  [{ pk: 'Tag#rock', sk: 'FAN_OF#Tag#jazz' }, 'current'],
  [{ pk: 'User#0000000001', sk: 'FAN_OF#User#0000000007' }, 'current'],
  [{ pk: 'User#0000000007', sk: 'FANNED_BY#Tag#rock' }, 'current'],
  [{ pk: 'User#000000002', sk: 'FRIEND#User#000000002' }, 'move Friend: User#000000002 FRIEND#User#000000002 → User#0000000003 FRIEND#User#0000000003'],
  [{ pk: 'User#000000002', sk: 'FRIEND#User#000000004' }, 'move Friend: User#000000002 FRIEND#User#000000004 → User#0000000003 FRIEND#User#0000000005; User#000000004 FRIEND#User#000000002 → User#0000000005 FRIEND#User#0000000003'],
  [{ pk: 'User#000000000', sk: 'FAN_OF#Planet#000000001' }, 'skip: edge Fan: its keys name no node of the old schema or the new one'],
  [{ pk: 'User#000000000', sk: 'FAN_OF#User#12' }, 'skip: edge Fan: its keys name no node of the old schema or the new one'],
  [{ pk: 'Team#x', sk: 'FAN_OF#Tag#jazz' }, 'skip: edge Fan: its keys name no node of the old schema or the new one'],
  [{ pk: 'User#000000000', sk: 'PROFILE' }, 'skip: its keys match no entity of the old schema'],
];
for (const [stored, want] of edgeItems) {
  test(`classify edge item ${JSON.stringify(stored)}: ${want}`, (t) => {
    t.is(described(classify(edgePlan, stored)), want);
  });
}

test('a delimiter change moves every edge item, string ids too; the moved items are current', (t) => {
  const fan: MigratedEdge = { name: 'Fan', from: edgeModel('Fan', 'FAN_OF', 'FANNED_BY', '#', 2), to: edgeModel('Fan', 'FAN_OF', 'FANNED_BY', '|', 2), declared: {} };
  const delimiter: MigrationPlan = { ...edgePlan, edges: [fan] };
  t.is(described(classify(delimiter, { pk: 'Tag#a|b', sk: 'FAN_OF#Tag#c' })), 'move Fan: Tag#a|b FAN_OF#Tag#c → Tag|a\\|b FAN_OF|Tag|c; Tag#c FANNED_BY#Tag#a|b → Tag|c FANNED_BY|Tag|a\\|b');
  t.is(described(classify(delimiter, { pk: 'Tag|c', sk: 'FANNED_BY|Tag|a\\|b' })), 'current');
});

test('an edge whose inverse lives in a GSI is one item: its index keys move with it', (t) => {
  const model = (codecVersion: 1 | 2): EdgeModel => ({ ...edgeModel('Fan', 'FAN_OF', 'FANNED_BY', '#', codecVersion), inverseIndex: { name: 'byInverse', pk: 'gsi1pk', sk: 'gsi1sk' }, keyAttributes: ['pk', 'sk', 'gsi1pk', 'gsi1sk'] });
  const indexed: MigrationPlan = { ...edgePlan, edges: [{ name: 'Fan', from: model(1), to: model(2), declared: {} }] };
  const what = classify(indexed, { pk: 'User#000000000', sk: 'FAN_OF#Tag#rock', gsi1pk: 'Tag#rock', gsi1sk: 'FANNED_BY#User#000000000', since: '2026' });
  t.deepEqual('move' in what && what.move.halves, [
    { old: { pk: 'User#000000000', sk: 'FAN_OF#Tag#rock' }, next: { since: '2026', pk: 'User#0000000001', sk: 'FAN_OF#Tag#rock', gsi1pk: 'Tag#rock', gsi1sk: 'FANNED_BY#User#0000000001' } },
  ]);
  t.is(described(classify(indexed, { pk: 'Tag#rock', sk: 'FANNED_BY#User#000000000' })), 'skip: its keys match no entity of the old schema', 'no inverse items: FANNED_BY is no item label');
});

test('a partition key that two node types read is moved only when both readings move the same items', (t) => {
  const model = (codecVersion: 1 | 2): EdgeModel => {
    const node = (entity: string) => new KeyTemplate({ entity, target: `${entity}.key.pk`, delimiter: '#', maxBytes: 2048, segments: [{ kind: 'literal', text: 'Node' }, { kind: 'integer', attr: 'id', min: 1, max: 1e9 }], codecVersion });
    return { ...edgeModel('Fan', 'FAN_OF', 'FANNED_BY', '#', codecVersion), nodes: { User: node('User'), Group: node('Group') } };
  };
  const shared: MigrationPlan = { ...edgePlan, edges: [{ name: 'Fan', from: model(1), to: model(2), declared: {} }] };
  t.is(described(classify(shared, { pk: 'Node#000000000', sk: 'FAN_OF#User#000000001' })), 'skip: edge Fan: its partition key reads as a node of User and Group, which move it differently');
  const forwardOnly: MigrationPlan = { ...edgePlan, edges: [{ name: 'Fan', from: { ...model(1), inverse: undefined }, to: { ...model(2), inverse: undefined }, declared: {} }] };
  t.is(described(classify(forwardOnly, { pk: 'Node#000000000', sk: 'FAN_OF#User#000000001' })), 'move Fan: Node#000000000 FAN_OF#User#000000001 → Node#0000000001 FAN_OF#User#0000000002');
});

test('a renamed label moves only the halves that carry it', (t) => {
  const fan: MigratedEdge = { name: 'Fan', from: edgeModel('Fan', 'FAN_OF', 'FANNED_BY', '#', 2), to: edgeModel('Fan', 'LIKES', 'FANNED_BY', '#', 2), declared: {} };
  const renamed: MigrationPlan = { ...edgePlan, edges: [fan] };
  t.is(described(classify(renamed, { pk: 'Tag#a', sk: 'FAN_OF#Tag#b' })), 'move Fan: Tag#a FAN_OF#Tag#b → Tag#a LIKES#Tag#b');
  t.is(described(classify(renamed, { pk: 'Tag#b', sk: 'FANNED_BY#Tag#a' })), 'current');
  t.is(described(classify(renamed, { pk: 'Tag#a', sk: 'LIKES#Tag#b' })), 'current');
});

test('checkpoints: a foreign migration or another segment count is refused; none is a fresh start', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-checkpoints-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.is(readCheckpoint(path.join(dir, 'none'), 'shop-1', 0, 4), undefined);
  const counts = { scanned: 3, rewritten: 1, backfilled: 1, current: 0, superseded: 0, unchanged: 1, skipped: 0 };
  writeFileSync(path.join(dir, 'segment-1-of-4.json'), JSON.stringify({ migration: 'shop-1', segment: 1, segments: 4, done: false, counts, skipped: [] }));
  t.like(readCheckpoint(dir, 'shop-1', 1, 4), { counts });
  t.is(readCheckpoint(dir, 'shop-1', 2, 4), undefined);
  const foreign = t.throws(() => readCheckpoint(dir, 'shop-2', 1, 4), { instanceOf: CheckpointError });
  t.is(foreign.message, `${path.join(dir, 'segment-1-of-4.json')} belongs to migration shop-1, not shop-2; use another --checkpoints folder for this migration`);
  const other = t.throws(() => readCheckpoint(dir, 'shop-1', 0, 8), { instanceOf: CheckpointError });
  t.is(other.message, `${path.join(dir, 'segment-1-of-4.json')} was made with another --segments; resume with the same count, or use another --checkpoints folder`);
});

test('a random shard keeps its position when only the encoding changes, and folds onto a new count (s mod m)', (t) => {
  const eight = { shards: 8, shardStart: 0 };
  t.deepEqual([0, 3, 7].map((s) => movedShard(eight, s, eight)), [0, 3, 7]);
  t.deepEqual([0, 3, 5, 7].map((s) => movedShard(eight, s, { shards: 3, shardStart: 0 })), [0, 0, 2, 1]);
  t.deepEqual([1, 8].map((s) => movedShard({ shards: 8, shardStart: 1 }, s, { shards: 16, shardStart: 1 })), [1, 8], 'positions from a start of 1');
  t.is(movedShard({ shards: undefined, shardStart: 0 }, undefined, eight), 0, 'an unsharded key goes to the first shard');
  t.is(movedShard(eight, 5, { shards: undefined, shardStart: 0 }), undefined, 'no shard in the new key');
});
