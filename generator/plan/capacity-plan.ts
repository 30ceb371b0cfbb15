// `ddbgen plan`: capacity per key space (an entity's items in the table and each GSI, each edge side)
// and per pattern, from the declared traffic: units per second, the hottest key's and hottest
// shard's load, minimum partitions, the total shard count a key needs, and per table and per GSI
// the declared peak against warm throughput (on-demand ramp) or provisioned capacity. A pure view
// model over the load model the lint uses, printed as text or JSON.

import type { TableDef, Throughput } from '../../dsl/ir.js';
import {
  HEADROOM,
  PARTITION_READ_UNITS,
  PARTITION_WRITE_UNITS,
  RAMP_STEP_MINUTES,
  keyLoad,
  keySpaces,
  minPartitions,
  rampDoublings,
  readUnitsPerItem,
  resourcePeaks,
  shardCount,
  shardLoad,
} from '../model/load-model.js';

export interface SpacePlan {
  /** Entity or edge name. */
  readonly entity: string;
  readonly index: string;
  readonly partitionKey: string;
  readonly distinctKeys: string;
  readonly writesPerSecond: number | null;
  readonly writeUnits: number | null;
  readonly readsPerSecond: number | null;
  readonly readUnits: number | null;
  /** The hottest logical key: all its shards together. */
  readonly hottestKey: { readonly writeUnits: number | null; readonly readUnits: number | null; readonly assumption: string | null };
  /** The hottest shard of a sharded key (null when the key has no shard). */
  readonly hottestShard: { readonly writeUnits: number | null; readonly readUnits: number | null } | null;
  readonly minPartitions: number | null;
  /** The key's current shard count, if it has `<shard>`. */
  readonly shards: number | null;
  /** The TOTAL shard count the hottest key's writes need (ceil(WCU / (1,000 × 0.8)), at least 2), when its shards come near a partition. */
  readonly suggestedShards: number | null;
}

export interface PatternPlan {
  readonly pattern: string;
  readonly entity: string;
  readonly index: string;
  readonly readsPerSecond: number | null;
  readonly consistent: boolean;
  readonly readUnits: number | null;
}

export interface ResourcePlan {
  /** `table` or a GSI's name. */
  readonly resource: string;
  readonly writeUnits: number;
  readonly readUnits: number;
  readonly minPartitions: number;
  readonly warmThroughput: Throughput;
  /** On-demand: minutes of doubling from the warm throughput to the peak (0 when within it). */
  readonly onDemandRampMinutes: number | null;
  readonly provisioned: Throughput | null;
  /** The table's on-demand maximum (onDemandMax), per dimension; null when none is set. */
  readonly onDemandMax: { readonly read: number | null; readonly write: number | null } | null;
}

export interface TablePlan {
  readonly table: string;
  readonly capacity: string;
  readonly spaces: readonly SpacePlan[];
  readonly patterns: readonly PatternPlan[];
  readonly resources: readonly ResourcePlan[];
  readonly totals: { readonly writeUnits: number; readonly readUnits: number; readonly minPartitions: number; readonly onDemandRampMinutes: number | null };
}

const round = (n: number) => Math.round(n * 100) / 100;
const orNull = (n: number | undefined) => (n === undefined ? null : round(n));

export function planTable(table: TableDef): TablePlan {
  const spaces = keySpaces(table);
  const onDemand = table.capacity.mode === 'on-demand';
  const spacePlans = spaces.map((space): SpacePlan => {
    const whole = keyLoad(space);
    const per = shardLoad(space);
    const w = space.writeLoad;
    const r = space.readLoad;
    const hotWrites = per.write !== undefined && per.write > PARTITION_WRITE_UNITS * HEADROOM;
    return {
      entity: space.owner,
      index: space.index,
      partitionKey: space.kind === 'entity' ? space.pk.source : space.label,
      distinctKeys: `${space.partitions.explain}${space.shard ? ` × ${space.shard.count} shards` : ''}`,
      writesPerSecond: space.writes ?? null,
      writeUnits: orNull(w),
      readsPerSecond: space.reads ?? null,
      readUnits: orNull(r),
      hottestKey: { writeUnits: orNull(whole.write), readUnits: orNull(whole.read), assumption: space.hotShare ? `${space.hotShare.text}: ${space.hotShare.source}` : null },
      hottestShard: space.shard ? { writeUnits: orNull(per.write), readUnits: orNull(per.read) } : null,
      minPartitions: w === undefined && r === undefined ? null : minPartitions(w ?? 0, r ?? 0),
      shards: space.shard?.count ?? null,
      suggestedShards: hotWrites ? shardCount(whole.write!, PARTITION_WRITE_UNITS) : null,
    };
  });
  const patterns = Object.values(table.patterns).map((p): PatternPlan => {
    const space = spaces.find((s) => s.kind === 'entity' && s.owner === p.entity && s.index === (p.index ?? 'table'));
    // GSIs serve only eventually consistent reads.
    const consistent = table.indexes[p.index ?? '']?.kind !== 'gsi' && (p.consistent ?? table.entities[p.entity]?.traffic?.consistent ?? false);
    return {
      pattern: p.name,
      entity: p.entity,
      index: p.index ?? 'table',
      readsPerSecond: p.readsPerSecond ?? null,
      consistent,
      readUnits: p.readsPerSecond === undefined || !space ? null : round(p.readsPerSecond * readUnitsPerItem(space.itemBytes, consistent)),
    };
  });
  const resources = resourcePeaks(table, spaces).map(
    (r): ResourcePlan => ({
      resource: r.resource,
      writeUnits: round(r.write),
      readUnits: round(r.read),
      minPartitions: minPartitions(r.write, r.read),
      warmThroughput: r.warm,
      onDemandRampMinutes: onDemand ? Math.max(rampDoublings(r.write, r.warm.write), rampDoublings(r.read, r.warm.read)) * RAMP_STEP_MINUTES : null,
      provisioned: r.provisioned ?? null,
      onDemandMax: r.resource === 'table' && onDemand && table.onDemandMax ? { read: table.onDemandMax.readRequestUnits ?? null, write: table.onDemandMax.writeRequestUnits ?? null } : null,
    }),
  );
  const writeUnits = resources.reduce((sum, r) => sum + r.writeUnits, 0);
  const readUnits = resources.reduce((sum, r) => sum + r.readUnits, 0);
  return {
    table: table.name,
    capacity: table.capacity.mode === 'provisioned' ? `provisioned ${table.capacity.read} RCU / ${table.capacity.write} WCU` : 'on-demand',
    spaces: spacePlans,
    patterns,
    resources,
    totals: {
      writeUnits: round(writeUnits),
      readUnits: round(readUnits),
      minPartitions: minPartitions(writeUnits, readUnits),
      onDemandRampMinutes: onDemand ? Math.max(0, ...resources.map((r) => r.onDemandRampMinutes ?? 0)) : null,
    },
  };
}

const show = (n: number | null) => (n === null ? '–' : n.toLocaleString('en-US'));
const withShard = (key: number | null, shard: number | null | undefined) => (shard === null || shard === undefined ? show(key) : `${show(key)} (${show(shard)}/shard)`);

/** "; at most 20,000 RRU / 6,000 WRU (onDemandMax)", with what the declared peak exceeds. */
function maxText(r: ResourcePlan): string {
  if (!r.onDemandMax) return '';
  const over = [
    ...(r.onDemandMax.read !== null && r.readUnits > r.onDemandMax.read ? ['reads'] : []),
    ...(r.onDemandMax.write !== null && r.writeUnits > r.onDemandMax.write ? ['writes'] : []),
  ];
  return `; at most ${show(r.onDemandMax.read)} RRU / ${show(r.onDemandMax.write)} WRU (onDemandMax)${over.length ? `: the declared ${over.join(' and ')} exceed it and will throttle` : ''}`;
}

/** The plan as a text table. */
export function planText(plan: TablePlan): string {
  const header = ['entity', 'index', 'partition key', 'distinct keys', 'writes/s', 'WCU/s', 'reads/s', 'RCU/s', 'hottest WCU', 'hottest RCU', 'min part.', 'shards'];
  const rows = plan.spaces.map((s) => [
    s.entity,
    s.index,
    s.partitionKey,
    s.distinctKeys,
    show(s.writesPerSecond),
    show(s.writeUnits),
    show(s.readsPerSecond),
    show(s.readUnits),
    withShard(s.hottestKey.writeUnits, s.hottestShard?.writeUnits),
    withShard(s.hottestKey.readUnits, s.hottestShard?.readUnits),
    show(s.minPartitions),
    s.suggestedShards === null ? show(s.shards) : `${s.shards === null ? '' : `${s.shards} `}→ ${s.suggestedShards}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [`${plan.table} (${plan.capacity})`, '', line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  if (plan.patterns.length) {
    out.push('', 'patterns:');
    for (const p of plan.patterns) out.push(`  ${p.pattern} (${p.entity} on ${p.index}): ${show(p.readsPerSecond)} reads/s, ${show(p.readUnits)} RCU/s${p.consistent ? ' (strongly consistent)' : ''}`);
  }
  out.push('', 'per table and GSI:');
  for (const r of plan.resources) {
    const name = r.resource === 'table' ? 'table' : `GSI ${r.resource}`;
    const against = r.provisioned
      ? `provisioned ${show(r.provisioned.read)} RCU / ${show(r.provisioned.write)} WCU`
      : `warm ${show(r.warmThroughput.read)} RRU / ${show(r.warmThroughput.write)} WRU${r.onDemandRampMinutes ? `: ${r.onDemandRampMinutes} min to ramp, or pre-warm` : ''}${maxText(r)}`;
    out.push(`  ${name}: ${show(r.writeUnits)} WCU/s, ${show(r.readUnits)} RCU/s, at least ${r.minPartitions} partition${r.minPartitions === 1 ? '' : 's'}; ${against}`);
  }
  out.push(
    '',
    `total: ${show(plan.totals.writeUnits)} WCU/s, ${show(plan.totals.readUnits)} RCU/s; at least ${plan.totals.minPartitions} partition${plan.totals.minPartitions === 1 ? '' : 's'}` +
      (plan.totals.onDemandRampMinutes ? `; on-demand needs ${plan.totals.onDemandRampMinutes} min to ramp, or pre-warming` : ''),
    `hottest-key figures use the stated share; "shards" gives the TOTAL count a key needs: ceil(hottest key's WCU / (${show(PARTITION_WRITE_UNITS)} × ${HEADROOM})), at least 2 (partition limits: ${show(PARTITION_WRITE_UNITS)} WCU, ${show(PARTITION_READ_UNITS)} RCU; read heat wants a cache or replicas).`,
  );
  return out.join('\n');
}
