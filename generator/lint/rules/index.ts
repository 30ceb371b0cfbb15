// Every lint rule, in id order. Adding a rule: a file under rules/, an entry here, its message in
// the catalogue, and a fixture pair under fixtures/lint/.
import { constantPartitionKey } from './constant-partition-key.js';
import { declaredSkew } from './declared-skew.js';
import { gsiBackPressure } from './gsi-back-pressure.js';
import { gsiWriteAmplification } from './gsi-write-amplification.js';
import { itemSize } from './item-size.js';
import { lowCardinalityPartitionKey } from './low-cardinality-partition-key.js';
import { lsiCollectionSize } from './lsi-collection-size.js';
import { monotonicHotCollection } from './monotonic-hot-collection.js';
import { piiInKey } from './pii-in-key.js';
import { shardFanOut } from './shard-fan-out.js';
import { singleItemReadHotspot, singleItemWriteHotspot } from './single-item-hotspot.js';
import { onDemandRamp, tableQuota } from './table-capacity.js';
import { timeBucketPartitionKey } from './time-bucket-partition-key.js';
import { writeContention } from './write-contention.js';
import type { LintRule } from '../rule.js';

export const rules: readonly LintRule[] = [
  constantPartitionKey,
  lowCardinalityPartitionKey,
  timeBucketPartitionKey,
  singleItemWriteHotspot,
  singleItemReadHotspot,
  monotonicHotCollection,
  declaredSkew,
  gsiBackPressure,
  gsiWriteAmplification,
  lsiCollectionSize,
  itemSize,
  onDemandRamp,
  tableQuota,
  writeContention,
  shardFanOut,
  piiInKey,
];

export const RULE_IDS: readonly string[] = rules.map((r) => r.id);
