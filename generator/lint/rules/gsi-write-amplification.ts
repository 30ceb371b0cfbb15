// HK009: a volatile attribute in a GSI key costs two index writes per change (delete + insert);
// many ALL projections multiply every write.
import { templateAttributes } from '../../model/key-segments.js';
import { units } from '../../model/load-model.js';
import { lintMessages } from '../../diagnostics/messages.js';
import type { Finding, LintRule } from '../rule.js';

const VOLATILE_KINDS = ['number', 'timestamp', 'enum', 'boolean'];

export const gsiWriteAmplification: LintRule = {
  id: 'HK009',
  name: 'gsi-write-amplification',
  check: ({ table }) => {
    const findings: Finding[] = [];
    for (const entity of Object.values(table.entities)) {
      const primary = new Set([...templateAttributes(entity.key.pk), ...(entity.key.sk ? templateAttributes(entity.key.sk) : [])]);
      for (const mapping of Object.values(entity.indexes)) {
        const index = table.indexes[mapping.index];
        if (index?.kind !== 'gsi') continue;
        const inputs = [...(mapping.pk ? templateAttributes(mapping.pk) : []), ...(mapping.sk ? templateAttributes(mapping.sk) : [])];
        const volatile = [...new Set(inputs)].filter((a) => !primary.has(a) && VOLATILE_KINDS.includes(entity.attributes[a]?.kind ?? ''));
        if (!volatile.length) continue;
        const writes = entity.traffic?.writesPerSecond;
        const amplified = writes === undefined ? '' : `; at the declared ${units(writes)} writes/s that is up to ${units(writes * 2)} index writes/s`;
        findings.push({
          severity: 'info',
          entity: entity.name,
          path: ['entities', entity.name, 'indexes', mapping.index],
          ...lintMessages.HK009(
            `${entity.name} in GSI ${index.name}`,
            `${volatile.join(', ')} (${volatile.map((a) => entity.attributes[a]!.kind).join(', ')}) ${volatile.length === 1 ? 'is' : 'are'} in the index key, so each change costs two index writes (delete + insert)${amplified}`,
            'keep frequently changing attributes out of index keys, or accept the cost where the index is sparse and changes are rare',
          ),
        });
      }
    }
    const all = Object.values(table.indexes).filter((i) => i.kind !== 'lsi' && i.projection === 'all');
    if (all.length >= 3) {
      findings.push({
        severity: 'warn',
        path: ['indexes'],
        ...lintMessages.HK009(`table ${table.name}`, `${all.length} GSIs project ALL (${all.map((i) => i.name).join(', ')}): every write is stored and paid ${all.length + 1} times`, "project 'keys-only' or the attributes each query needs, and read full items by key when needed"),
      });
    }
    return findings;
  },
};
