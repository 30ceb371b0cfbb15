// Every lint rule, in id order. Adding a rule: a file under rules/ named like the rule, an entry
// here, its message in the catalogue, a fixture triple under fixtures/lint/ and a row in docs/guide/lint.md.
import { constantPartitionKey } from './constant-partition-key.js';
import { declaredSkew } from './declared-skew.js';
import { gsiBackPressure } from './gsi-back-pressure.js';
import { gsiWriteAmplification } from './gsi-write-amplification.js';
import { itemSize } from './item-size.js';
import { lowCardinalityPartitionKey } from './low-cardinality-partition-key.js';
import { lsiCollectionSize } from './lsi-collection-size.js';
import { monotonicHotCollection } from './monotonic-hot-collection.js';
import { onDemandMaximum } from './on-demand-maximum.js';
import { nativeKeyNeedsShard } from './native-key-needs-shard.js';
import { onDemandRamp } from './on-demand-ramp.js';
import { piiInKey } from './pii-in-key.js';
import { provisionedCapacity } from './provisioned-capacity.js';
import { shardFanOut } from './shard-fan-out.js';
import { sharedPartitionReadCost } from './shared-partition-read-cost.js';
import { singleItemReadHotspot } from './single-item-read-hotspot.js';
import { singleItemWriteHotspot } from './single-item-write-hotspot.js';
import { syntheticCouldBeNative } from './synthetic-could-be-native.js';
import { tableQuota } from './table-quota.js';
import { timeBucketPartitionKey } from './time-bucket-partition-key.js';
import { ttlAttribute } from './ttl-attribute.js';
import { unescapedKeyValues } from './unescaped-key-values.js';
import { plainIntegerKey } from './plain-integer-key.js';
import { foldedKeyCase } from './folded-key-case.js';
import { underShardedKey } from './under-sharded-key.js';
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
  underShardedKey,
  provisionedCapacity,
  sharedPartitionReadCost,
  nativeKeyNeedsShard,
  syntheticCouldBeNative,
  onDemandMaximum,
  ttlAttribute,
  unescapedKeyValues,
  plainIntegerKey,
  foldedKeyCase,
];

export const RULE_IDS: readonly string[] = rules.map((r) => r.id);
