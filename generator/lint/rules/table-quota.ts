// HK013: the default per-table quota (40,000 read and 40,000 write units), over the table and its
// GSIs together: the declared peak, or the provisioned capacity when that is higher.
import { TABLE_QUOTA_UNITS, resourcePeaks, units } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { LintRule } from '../rule.js';

export const tableQuota: LintRule = {
  id: 'HK013',
  name: 'table-quota',
  check: ({ table, spaces }) => {
    const peaks = resourcePeaks(table, spaces);
    const writes = peaks.reduce((sum, r) => sum + Math.max(r.write, r.provisioned?.write ?? 0), 0);
    const reads = peaks.reduce((sum, r) => sum + Math.max(r.read, r.provisioned?.read ?? 0), 0);
    const over = [writes > TABLE_QUOTA_UNITS ? `${units(writes)} write units/s` : undefined, reads > TABLE_QUOTA_UNITS ? `${units(reads)} read units/s` : undefined].filter(Boolean);
    return over.length ? [{ severity: 'error', path: ['capacity'], ...lintMessages.HK013(over.join(' and ')) }] : [];
  },
};
