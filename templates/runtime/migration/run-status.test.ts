// The coordinated run's status as text (the leases themselves run against DynamoDB Local in
// test/connected/migration-coordinated.test.ts).
import test from 'ava';
import { statusText, type MigrationStatus } from './run-status.js';

const status: MigrationStatus = {
  migration: 'library-0123456789ab',
  table: 'library-prod',
  segments: 16,
  done: 12,
  inProgress: 3,
  counts: { scanned: 75000, rewritten: 50000, backfilled: 0, current: 24000, superseded: 10, unchanged: 988, skipped: 2 },
  scanned: 75000,
  itemCount: 100000,
  workers: [{ worker: 'host#41#a1b2c3', segments: 2, scanned: 40000, heartbeatAgoSeconds: 1.5 }, { worker: 'host#42#d4e5f6', segments: 1, scanned: 35000, heartbeatAgoSeconds: 0.2 }],
  itemsPerSecond: 812,
  etaSeconds: 31,
  maxWcu: 800,
  leaseSeconds: 20,
  consumedWcu: 100020,
  skipped: [{ key: { pk: 'MEMBER#m99', sk: 'PROFILE' }, reason: 'Member: name is 98, not a string' }],
};

test('status text: progress, counts, rate and ETA, then each worker and skipped item', (t) => {
  t.is(
    statusText(status),
    `migration library-0123456789ab on table library-prod: 12 of 16 segments done, 3 in progress, 2 workers alive
items: 75000 scanned of ~100000 (75 %): 50000 rewritten, 0 backfilled, 24000 already done, 10 superseded, 988 unchanged, 2 skipped
rate: 812 items/s since the start, 100020 WCU consumed (cap 800 WCU/s); ETA 31 s
  worker host#41#a1b2c3: 2 segments, 40000 scanned, last heartbeat 1.5 s ago
  worker host#42#d4e5f6: 1 segment, 35000 scanned, last heartbeat 0.2 s ago
  skipped {"pk":"MEMBER#m99","sk":"PROFILE"}: Member: name is 98, not a string`,
  );
  t.regex(statusText({ ...status, done: 16, inProgress: 0, workers: [], etaSeconds: 0, skipped: [] }), /0 workers alive\n[^]*; finished$/);
  t.regex(statusText({ ...status, etaSeconds: undefined }), /ETA unknown until items are scanned/);
});
