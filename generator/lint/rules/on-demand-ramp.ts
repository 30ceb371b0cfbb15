// HK012: on-demand, the table and each GSI separately serve at once only their warm throughput
// (default 4,000 WRU / 12,000 RRU) and double at most every 30 minutes; each ramps on its own.
import { RAMP_STEP_MINUTES, rampDoublings, resourcePeaks, units } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const onDemandRamp: LintRule = {
  id: 'HK012',
  name: 'on-demand-ramp',
  check: ({ table, spaces }) => {
    if (table.capacity.mode !== 'on-demand') return [];
    return resourcePeaks(table, spaces).flatMap((r) => {
      const doublings = Math.max(rampDoublings(r.write, r.warm.write), rampDoublings(r.read, r.warm.read));
      if (doublings === 0) return [];
      const peak = [r.write > r.warm.write ? `${units(r.write)} WRU/s` : undefined, r.read > r.warm.read ? `${units(r.read)} RRU/s` : undefined].filter(Boolean).join(' and ');
      const where = r.resource === 'table' ? `table ${table.name}` : `GSI ${r.resource}`;
      return [{
        severity: 'warn' as const,
        path: r.path,
        ...lintMessages.HK012(where, peak, `${units(r.warm.write)} WRU/s and ${units(r.warm.read)} RRU/s`, doublings, doublings * RAMP_STEP_MINUTES),
      }];
    });
  },
};
