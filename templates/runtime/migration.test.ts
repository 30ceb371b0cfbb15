// The migration engine's parts that need no table: the write cap (a simulated clock) and the
// checkpoint rules. The whole engine runs against DynamoDB Local in test/connected/migration.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import { KeyTemplate, type SegmentDef } from './codec.js';
import { CapacityMeter, CheckpointError, classify, readCheckpoint, type MigrationPlan } from './migration.js';
import type { EntityModel } from './repository.js';

/** A minimal entity model: table keys only (what classify reads). */
function model(name: string, pk: SegmentDef[], sk: SegmentDef[]): EntityModel {
  const template = (segments: SegmentDef[], target: string) => new KeyTemplate({ entity: name, target, delimiter: '#', maxBytes: 1024, segments });
  return { name, pk: { attribute: 'pk', template: template(pk, `${name}.key.pk`) }, sk: { attribute: 'sk', template: template(sk, `${name}.key.sk`) }, indexes: [], codecs: {}, attributes: [], required: [], keyAttributes: ['pk', 'sk'], primaryParts: [] };
}

const oldUser = model('User', [{ kind: 'literal', text: 'User' }, { kind: 'string', attr: 'id' }], [{ kind: 'literal', text: 'PROFILE' }]);
const newUser = model('User', [{ kind: 'literal', text: 'Customer' }, { kind: 'string', attr: 'id' }], [{ kind: 'literal', text: 'PROFILE' }]);
const product = model('Product', [{ kind: 'literal', text: 'Product' }, { kind: 'string', attr: 'sku' }], [{ kind: 'literal', text: 'PRODUCT' }]);
const plan: MigrationPlan = {
  id: 'shop-1',
  tableName: 'Shop',
  entities: [{ name: 'User', kind: 'rewrite', from: oldUser, to: newUser }],
  unchanged: [product],
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
for (const [stored, want] of given) {
  test(`classify ${JSON.stringify(stored)}: ${want}`, (t) => {
    const what = classify(plan, stored);
    t.is('entity' in what ? `migrate ${what.entity.name}` : 'leave' in what ? what.leave : `skip: ${what.skip}`, want);
  });
}

test('the meter never lets consumed units run ahead of the cap (plus one write in flight)', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 2000 }), fc.array(fc.double({ min: 0.5, max: 40, noNaN: true }), { minLength: 1, maxLength: 200 }), async (cap, writes) => {
      let clock = 0;
      const meter = new CapacityMeter(cap, () => clock, async (ms) => {
        clock += ms;
      });
      for (const units of writes) {
        await meter.acquire();
        meter.charge(units);
        // everything consumed so far, minus the last write (it was admitted before its cost was known)
        if (meter.consumed - units > (cap * clock) / 1000 + 1e-6) return false;
      }
      return true;
    }),
  );
  t.pass();
});

test('the meter waits exactly as long as the debt takes to repay', async (t) => {
  let clock = 0;
  const waits: number[] = [];
  const meter = new CapacityMeter(100, () => clock, async (ms) => {
    waits.push(ms);
    clock += ms;
  });
  await meter.acquire();
  t.deepEqual(waits, [1], 'starts empty: the first write waits until the bucket is not empty');
  meter.charge(50);
  await meter.acquire();
  t.deepEqual(waits, [1, 500], '49.9 units of debt at 100 per second');
  t.is(meter.consumed, 50);
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
