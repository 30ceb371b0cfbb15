// Validates native multi-attribute GSIs and the entities' mappings into them: key size (1–4 + 0–4
// distinct attributes), attributes the entity lacks or cannot key on, renames of names that are no
// key attribute, one stored type per key attribute across every entity, no synthetic-key fields or
// names, no renamed copy over an own attribute, and no declared pattern on a native index.

import type { TableDef } from '../../dsl/ir.js';
import { NATIVE_KEY_ATTRIBUTES, nativeIndexes, scalarType } from '../model/native-keys.js';
import type { Report } from './report.js';

export function validateNativeIndexes(table: TableDef, report: Report): void {
  const natives = nativeIndexes(table);
  const synthetic = new Map<string, string>([[table.key.pk, "the table's partition key"], ...(table.key.sk === undefined ? [] : [[table.key.sk, "the table's sort key"] as const])]);
  for (const index of Object.values(table.indexes)) {
    if (index.kind === 'gsi') synthetic.set(index.pk, `the partition key of GSI "${index.name}"`);
    if (index.kind !== 'native-gsi' && index.sk !== undefined) synthetic.set(index.sk, `the sort key of ${index.kind === 'lsi' ? 'LSI' : 'GSI'} "${index.name}"`);
  }
  for (const index of natives) {
    for (const part of ['pk', 'sk'] as const) {
      const names = index[part];
      const repeated = names.filter((n, i) => names.indexOf(n) !== i || (part === 'sk' && index.pk.includes(n)));
      const kind = part === 'pk' ? 'partition' : 'sort';
      if (part === 'pk' && names.length === 0) report('DDB240', ['indexes', index.name, part], [index.name, kind, 'names no attribute']);
      else if (names.length > NATIVE_KEY_ATTRIBUTES) report('DDB240', ['indexes', index.name, part], [index.name, kind, `names ${names.length} attributes (${names.join(', ')})`]);
      else if (repeated.length) report('DDB240', ['indexes', index.name, part], [index.name, kind, `names "${repeated[0]}" twice`]);
    }
    for (const key of [...index.pk, ...index.sk]) {
      const other = synthetic.get(key);
      if (other) report('DDB246', ['indexes', index.name], [key, index.name, other]);
    }
  }

  for (const entity of Object.values(table.entities)) {
    for (const mapping of Object.values(entity.nativeIndexes ?? {})) {
      const index = table.indexes[mapping.index];
      if (index?.kind !== 'native-gsi') continue;
      const at = ['entities', entity.name, 'indexes', mapping.index];
      if (mapping.synthetic?.length) report('DDB245', [...at, mapping.synthetic[0]!], [entity.name, index.name, mapping.synthetic]);
      const keys = [...index.pk, ...index.sk];
      for (const name of mapping.stray ?? []) report('DDB243', [...at, 'attributes', name], [entity.name, name, index.name, keys]);
      for (const [key, source] of Object.entries(mapping.attributes)) {
        const path = key === source ? at : [...at, 'attributes', key];
        const def = entity.attributes[source];
        if (!def) report('DDB242', path, [entity.name, source, key, index.name, Object.keys(entity.attributes).filter((a) => entity.attributes[a] && scalarType(entity.attributes[a]!))]);
        else if (!scalarType(def)) report('DDB241', path, [entity.name, source, def.kind, key, index.name]);
        if (key !== source && entity.attributes[key]) report('DDB247', path, [entity.name, key, source, index.name]);
      }
    }
  }

  // One stored type per key attribute: every entity that writes an attribute of that name, mapped or not.
  for (const index of natives) {
    for (const key of [...index.pk, ...index.sk]) {
      const uses: Array<{ type: string; text: string; path: readonly string[] }> = [];
      for (const entity of Object.values(table.entities)) {
        const mapping = entity.nativeIndexes?.[index.name];
        const source = mapping ? mapping.attributes[key] ?? key : key;
        const def = entity.attributes[source];
        const type = def && scalarType(def, source === table.ttl);
        if (!type || (mapping === undefined && entity.attributes[key] === undefined)) continue;
        uses.push({ type, text: `${type} in ${entity.name}${source === key ? '' : ` (from ${source})`}`, path: mapping ? ['entities', entity.name, 'indexes', index.name] : ['entities', entity.name, 'attributes', key] });
      }
      const types = new Set(uses.map((u) => u.type));
      if (types.size > 1) report('DDB244', ['indexes', index.name], [key, index.name, uses.map((u) => u.text).join(', ')]);
    }
  }

  for (const pattern of Object.values(table.patterns)) {
    if (pattern.index !== undefined && table.indexes[pattern.index]?.kind === 'native-gsi') report('DDB248', ['patterns', pattern.name, 'index'], [pattern.name, pattern.index]);
  }
}
