// HK022: an on-demand table's declared peak against its onDemandMax (OnDemandThroughput): requests
// beyond the maximum throttle with ThrottlingException, whatever the partitions could serve.
import { HEADROOM, resourcePeaks, units } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const onDemandMaximum: LintRule = {
  id: 'HK022',
  name: 'on-demand-maximum',
  check: ({ table, spaces }) => {
    const max = table.onDemandMax;
    if (table.capacity.mode !== 'on-demand' || !max) return [];
    const peak = resourcePeaks(table, spaces).find((r) => r.resource === 'table')!;
    const dims = [
      { peak: peak.read, max: max.readRequestUnits, unit: 'RRU/s', field: 'readRequestUnits' },
      { peak: peak.write, max: max.writeRequestUnits, unit: 'WRU/s', field: 'writeRequestUnits' },
    ].filter((d): d is typeof d & { max: number } => typeof d.max === 'number' && d.max > 0 && d.peak > d.max * HEADROOM); // an invalid maximum is DDB253's
    if (!dims.length) return [];
    const found = dims.map((d) => `declared peak ${units(d.peak)} ${d.unit} against an on-demand maximum of ${units(d.max)} (${Math.round((d.peak / d.max) * 100)}%)`).join('; ');
    const raise = dims.map((d) => `${d.field}: ${Math.ceil(d.peak / HEADROOM)}`).join(', ');
    return [{ severity: dims.some((d) => d.peak > d.max) ? ('error' as const) : ('warn' as const), path: ['onDemandMax'], ...lintMessages.HK022(`table ${table.name}`, found, raise) }];
  },
};
