// Shared wording for lint findings: where a key space is, and the sharding fix with its numbers.

import type { TableDef } from '../../dsl/ir.js';
import { HEADROOM, PARTITION_WRITE_UNITS, shardsNeeded, units, type KeySpace } from './analysis.js';

export function where(space: KeySpace): string {
  return space.index === 'table' ? `${space.entity.name} (table)` : `${space.entity.name} in GSI ${space.index}`;
}

/** "1,200 WCU/s and 4,000 RCU/s on the hottest key (assumed …)" from the parts that are known. */
export function loadText(write: number | undefined, read: number | undefined, source: string | undefined): string | undefined {
  const parts = [...(write !== undefined ? [`${units(write)} WCU/s`] : []), ...(read !== undefined ? [`${units(read)} RCU/s`] : [])];
  return parts.length ? `${parts.join(' and ')} on the hottest key${source ? ` (${source})` : ''}` : undefined;
}

/** The sharding fix: the template to write and N with its formula, or a generic one when load is unknown. */
export function shardFix(table: TableDef, space: KeySpace, write: number | undefined, read: number | undefined): string {
  const template = `${space.pk.source}${table.delimiter}<shard>`;
  if (write === undefined && read === undefined) {
    return `shard it: pk "${template}" with shard: { count: N, by: '<an attribute you read by>' }, N = ceil(peak WCU per key / (${PARTITION_WRITE_UNITS} × ${HEADROOM})) — declare traffic to get N`;
  }
  const n = shardsNeeded(write, read);
  const formula = write !== undefined ? `ceil(${units(write)} / (${PARTITION_WRITE_UNITS} × ${HEADROOM}))` : `ceil(${units(read!)} / (3000 × ${HEADROOM}))`;
  return `shard it: pk "${template}" with shard: { count: ${n} } (N = ${formula}); add by: '<attribute>' to keep single-item reads to one GetItem`;
}
