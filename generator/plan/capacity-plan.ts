// `ddbgen plan`: capacity per key space (table and each GSI, per entity), per pattern and per edge,
// from the declared traffic: units per second, the hottest key's load, minimum partitions,
// suggested shard counts, and the on-demand ramp. A pure view model, printed as text or JSON.

import type { EdgeDef, TableDef } from '../../dsl/ir.js';
import { HEADROOM, hottestReadUnits, hottestWriteUnits, keySpaces, shardsNeeded } from '../lint/analysis.js';
import { declaredPeak } from '../lint/rules/table-capacity.js';

export interface SpacePlan {
  readonly entity: string;
  readonly index: string;
  readonly partitionKey: string;
  readonly distinctKeys: string;
  readonly writesPerSecond: number | null;
  readonly writeUnits: number | null;
  readonly readsPerSecond: number | null;
  readonly readUnits: number | null;
  readonly hottestKey: { readonly writeUnits: number | null; readonly readUnits: number | null; readonly assumption: string | null };
  readonly minPartitions: number | null;
  readonly suggestedShards: number | null;
}

export interface PatternPlan {
  readonly pattern: string;
  readonly entity: string;
  readonly index: string;
  readonly readsPerSecond: number | null;
  readonly readUnits: number | null;
}

/**
 * An edge's declared load. Edge items hold two keys and a few attributes (under 1 KB): a
 * relationship with both halves is a transaction writing 2 items at 2 units each; with the inverse
 * in a GSI it is one put and its index entry; without an inverse, one put. A link read is one
 * eventually consistent Query page (0.5 units per 4 KB).
 */
export interface EdgePlan {
  readonly edge: string;
  /** Relationships added or removed per second. */
  readonly writesPerSecond: number | null;
  /** Both halves. */
  readonly writeUnits: number | null;
  /** `outgoing` / `incoming` reads per second. */
  readonly readsPerSecond: number | null;
  readonly readUnits: number | null;
  /** The hottest node's partition (`hotKeyShare` of the edge's traffic): the half it holds of each write, and its reads. */
  readonly hottestNode: { readonly writeUnits: number | null; readonly readUnits: number | null; readonly share: number | null };
}

export interface TablePlan {
  readonly table: string;
  readonly capacity: string;
  readonly spaces: readonly SpacePlan[];
  readonly patterns: readonly PatternPlan[];
  readonly edges: readonly EdgePlan[];
  readonly totals: { readonly writeUnits: number; readonly readUnits: number; readonly minPartitions: number; readonly onDemandRampMinutes: number | null };
}

const round = (n: number) => Math.round(n * 10) / 10;

const EDGE_LINK_READ_UNITS = 0.5;

function planEdge(edge: EdgeDef): EdgePlan {
  const { writesPerSecond, readsPerSecond, hotKeyShare } = edge.traffic ?? {};
  const transactional = edge.inverse !== undefined && edge.inverseIndex === undefined;
  // Units per relationship written, and the part of them that lands in one node's partition.
  const [perWrite, perNode] = transactional ? [4, 2] : edge.inverseIndex !== undefined ? [2, 1] : [1, 1];
  const times = (rate: number | undefined, units: number) => (rate === undefined ? null : round(rate * units));
  return {
    edge: edge.name,
    writesPerSecond: writesPerSecond ?? null,
    writeUnits: times(writesPerSecond, perWrite),
    readsPerSecond: readsPerSecond ?? null,
    readUnits: times(readsPerSecond, EDGE_LINK_READ_UNITS),
    hottestNode: {
      writeUnits: hotKeyShare === undefined ? null : times(writesPerSecond, perNode * hotKeyShare),
      readUnits: hotKeyShare === undefined ? null : times(readsPerSecond, EDGE_LINK_READ_UNITS * hotKeyShare),
      share: hotKeyShare ?? null,
    },
  };
}

export function planTable(table: TableDef): TablePlan {
  const spaces = keySpaces(table);
  const spacePlans = spaces.map((space): SpacePlan => {
    const w = space.writes === undefined ? null : space.writes * space.writeUnits;
    const r = space.reads === undefined ? null : space.reads * space.readUnits;
    const hw = hottestWriteUnits(space) ?? null;
    const hr = hottestReadUnits(space) ?? null;
    return {
      entity: space.entity.name,
      index: space.index,
      partitionKey: space.pk.source,
      distinctKeys: space.partitions.explain,
      writesPerSecond: space.writes ?? null,
      writeUnits: w === null ? null : round(w),
      readsPerSecond: space.reads ?? null,
      readUnits: r === null ? null : round(r),
      hottestKey: { writeUnits: hw === null ? null : round(hw), readUnits: hr === null ? null : round(hr), assumption: space.hotShare?.source ?? null },
      minPartitions: w === null && r === null ? null : Math.max(1, Math.ceil(Math.max((w ?? 0) / 1000, (r ?? 0) / 3000))),
      suggestedShards: hw === null && hr === null ? null : shardsNeeded(hw ?? undefined, hr ?? undefined),
    };
  });
  const patterns = Object.values(table.patterns).map((p): PatternPlan => {
    const space = spaces.find((s) => s.entity.name === p.entity && s.index === (p.index ?? 'table'));
    return {
      pattern: p.name,
      entity: p.entity,
      index: p.index ?? 'table',
      readsPerSecond: p.readsPerSecond ?? null,
      readUnits: p.readsPerSecond === undefined || !space ? null : round(p.readsPerSecond * space.readUnits),
    };
  });
  const edges = Object.values(table.edges).map(planEdge);
  const entities = declaredPeak(spaces);
  const peak = { writes: entities.writes + edges.reduce((sum, e) => sum + (e.writeUnits ?? 0), 0), reads: entities.reads + edges.reduce((sum, e) => sum + (e.readUnits ?? 0), 0) };
  const doublings = Math.max(peak.writes > 4000 ? Math.ceil(Math.log2(peak.writes / 4000)) : 0, peak.reads > 12000 ? Math.ceil(Math.log2(peak.reads / 12000)) : 0);
  return {
    table: table.name,
    capacity: table.capacity.mode === 'provisioned' ? `provisioned ${table.capacity.read} RCU / ${table.capacity.write} WCU` : 'on-demand',
    spaces: spacePlans,
    patterns,
    edges,
    totals: {
      writeUnits: round(peak.writes),
      readUnits: round(peak.reads),
      minPartitions: Math.max(1, Math.ceil(Math.max(peak.writes / 1000, peak.reads / 3000))),
      onDemandRampMinutes: table.capacity.mode === 'on-demand' ? doublings * 30 : null,
    },
  };
}

const show = (n: number | null) => (n === null ? '–' : n.toLocaleString('en-US'));

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
    show(s.hottestKey.writeUnits),
    show(s.hottestKey.readUnits),
    show(s.minPartitions),
    show(s.suggestedShards),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [`${plan.table} (${plan.capacity})`, '', line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  if (plan.patterns.length) {
    out.push('', 'patterns:');
    for (const p of plan.patterns) out.push(`  ${p.pattern} (${p.entity} on ${p.index}): ${show(p.readsPerSecond)} reads/s, ${show(p.readUnits)} RCU/s`);
  }
  if (plan.edges.length) {
    out.push('', 'edges:');
    for (const e of plan.edges) {
      const hottest = e.hottestNode.share === null ? '' : `; hottest node (hotKeyShare ${e.hottestNode.share}): ${show(e.hottestNode.writeUnits)} WCU/s, ${show(e.hottestNode.readUnits)} RCU/s`;
      out.push(`  ${e.edge}: ${show(e.writesPerSecond)} relationships/s, ${show(e.writeUnits)} WCU/s (both halves); ${show(e.readsPerSecond)} link reads/s, ${show(e.readUnits)} RCU/s${hottest}`);
    }
  }
  out.push(
    '',
    `total: ${show(plan.totals.writeUnits)} WCU/s, ${show(plan.totals.readUnits)} RCU/s (eventually consistent reads); at least ${plan.totals.minPartitions} partition${plan.totals.minPartitions === 1 ? '' : 's'}` +
      (plan.totals.onDemandRampMinutes ? `; on-demand needs ${plan.totals.onDemandRampMinutes} min to ramp from 4,000 WRU / 12,000 RRU, or pre-warming` : ''),
    `hottest-key figures use the stated assumption; shard counts keep each key within ${HEADROOM * 100}% of a partition (1,000 WCU, 3,000 RCU).`,
  );
  return out.join('\n');
}
