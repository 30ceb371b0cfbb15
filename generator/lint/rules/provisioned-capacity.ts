// HK018: on a provisioned table, the declared peak of the table and of each GSI (each has its own
// capacity; a GSI without one takes the table's) against what is provisioned.
import { HEADROOM, resourcePeaks, units } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const provisionedCapacity: LintRule = {
  id: 'HK018',
  name: 'provisioned-capacity',
  check: ({ table, spaces }) =>
    resourcePeaks(table, spaces).flatMap((r) => {
      if (!r.provisioned) return [];
      const dims = [
        { peak: r.write, have: r.provisioned.write, unit: 'WCU/s', field: 'write' },
        { peak: r.read, have: r.provisioned.read, unit: 'RCU/s', field: 'read' },
      ].filter((d) => d.peak > d.have * HEADROOM);
      if (!dims.length) return [];
      const over = dims.some((d) => d.peak > d.have);
      const where = r.resource === 'table' ? `table ${table.name}` : `GSI ${r.resource}`;
      const found = dims.map((d) => `declared peak ${units(d.peak)} ${d.unit} against ${units(d.have)} provisioned (${Math.round((d.peak / d.have) * 100)}%)`).join('; ');
      const need = dims.map((d) => `${d.field}: ${Math.ceil(d.peak / HEADROOM)}`).join(', ');
      const at = r.resource === 'table' ? 'capacity' : `indexes.${r.resource} capacity`;
      return [{ severity: over ? ('error' as const) : ('warn' as const), path: r.path, ...lintMessages.HK018(where, found, `provision ${at} { ${need} } (the peak / ${HEADROOM}), or use on-demand capacity`) }];
    }),
};
