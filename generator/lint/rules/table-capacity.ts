// HK012 / HK013: the table's declared peak against what a new on-demand table serves at once
// (4,000 WRU / 12,000 RRU, doubling at most every 30 minutes) and against the default per-table
// quota (40,000 units), summed over the table and its GSIs.
import { units, type KeySpace } from '../analysis.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export function declaredPeak(spaces: readonly KeySpace[]): { writes: number; reads: number } {
  let writes = 0;
  let reads = 0;
  for (const space of spaces) {
    writes += (space.writes ?? 0) * space.writeUnits;
    reads += (space.reads ?? 0) * space.readUnits;
  }
  return { writes, reads };
}

export const onDemandRamp: LintRule = {
  id: 'HK012',
  name: 'on-demand-ramp',
  check: ({ table, spaces }) => {
    if (table.capacity.mode !== 'on-demand') return [];
    const { writes, reads } = declaredPeak(spaces);
    const doublings = Math.max(writes > 4000 ? Math.ceil(Math.log2(writes / 4000)) : 0, reads > 12000 ? Math.ceil(Math.log2(reads / 12000)) : 0);
    if (doublings === 0) return [];
    const peak = [writes > 4000 ? `${units(writes)} WRU/s` : undefined, reads > 12000 ? `${units(reads)} RRU/s` : undefined].filter(Boolean).join(' and ');
    return [{ severity: 'warn', path: ['capacity'], ...lintMessages.HK012(peak, '4,000 WRU/s and 12,000 RRU/s', doublings) }];
  },
};

export const tableQuota: LintRule = {
  id: 'HK013',
  name: 'table-quota',
  check: ({ table, spaces }) => {
    const declared = declaredPeak(spaces);
    const writes = table.capacity.mode === 'provisioned' ? Math.max(declared.writes, table.capacity.write * (1 + Object.values(table.indexes).filter((i) => i.kind === 'gsi').length)) : declared.writes;
    const reads = table.capacity.mode === 'provisioned' ? Math.max(declared.reads, table.capacity.read * (1 + Object.values(table.indexes).filter((i) => i.kind === 'gsi').length)) : declared.reads;
    const over = [writes > 40000 ? `${units(writes)} write units/s` : undefined, reads > 40000 ? `${units(reads)} read units/s` : undefined].filter(Boolean);
    return over.length ? [{ severity: 'error', path: ['capacity'], ...lintMessages.HK013(over.join(' and ')) }] : [];
  },
};
