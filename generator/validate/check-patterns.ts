// The checks of a table's access patterns: each resolves to a key space it can read, and no
// index or pattern gives a generated repository a member it has already (get, put, query…).
// Part of validating a table (check-table.ts).

import type { TableDef } from '../../dsl/ir.js';
import { resolvePattern } from '../model/access-paths.js';
import { type Report } from './report.js';
import { IDENTIFIER } from './declared-names.js';

/** Member names every generated repository has, which an index or a pattern must not produce. */
const REPOSITORY_MEMBERS = ['get', 'put', 'putIf', 'create', 'replace', 'update', 'delete', 'batchGet', 'batchPut', 'batchDelete', 'getAll', 'sum', 'increment', 'context', 'constructor'];

/** The methods a query path gets (`query`, `queryByName`): the page, its iterator, a time-range read and a query across rotated tables. */
const queryMethods = (method: string) => [method, `${method}All`, `${method}Between`, `${method}AcrossTables`];

/**
 * The repository members each entity's indexes produce, beside the fixed ones and the table's own
 * query methods; an index whose name makes one that is already there (index `All` makes
 * `queryAll`, the table's iterator) is reported, and the names are the patterns' to avoid.
 */
function repositoryMembers(table: TableDef, report: Report): Map<string, Set<string>> {
  const taken = new Map<string, Set<string>>();
  for (const entity of Object.values(table.entities)) {
    const owners = new Map<string, string>([...REPOSITORY_MEMBERS, ...queryMethods('query')].map((n) => [n, `${entity.name}Repository`]));
    for (const index of [...Object.keys(entity.indexes), ...Object.keys(entity.nativeIndexes ?? {})]) {
      const suffix = index.charAt(0).toUpperCase() + index.slice(1);
      const produced = [...queryMethods(`query${suffix}`), `mark${suffix}`, `clear${suffix}`];
      const clash = produced.find((n) => owners.has(n));
      if (clash !== undefined) report('DDB024', ['entities', entity.name, 'indexes', index], [entity.name, index, clash, owners.get(clash)!]);
      for (const n of produced) if (!owners.has(n)) owners.set(n, `index ${index}`);
    }
    taken.set(entity.name, new Set(owners.keys()));
  }
  return taken;
}

export function validatePatterns(table: TableDef, report: Report): void {
  const taken = repositoryMembers(table, report);
  for (const pattern of Object.values(table.patterns)) {
    const at = ['patterns', pattern.name];
    if (!IDENTIFIER.test(pattern.name)) report('DDB020', at, [pattern.name, 'pattern']);
    const resolved = resolvePattern(table, pattern);
    if (resolved === 'entity') {
      report('DDB070', [...at, 'entity'], [`pattern "${pattern.name}" names entity "${pattern.entity}", which is not declared`, Object.keys(table.entities)]);
      continue;
    }
    const entity = table.entities[pattern.entity]!;
    const names = taken.get(entity.name)!;
    if (names.has(pattern.name) || names.has(`${pattern.name}All`)) {
      report('DDB071', at, [`pattern "${pattern.name}" would take the name of a generated ${entity.name}Repository method`, [`${pattern.name}Items`]]);
    }
    names.add(pattern.name).add(`${pattern.name}All`);
    if (resolved === 'index' && table.indexes[pattern.index!]?.kind === 'native-gsi') continue; // DDB248
    if (resolved === 'index') {
      report('DDB071', [...at, 'index'], [`pattern "${pattern.name}" uses index "${pattern.index}", which ${entity.name} does not map into`, Object.keys(entity.indexes)]);
      continue;
    }
    if (resolved === 'op-without-sk') {
      report('DDB072', [...at, 'op'], [`pattern "${pattern.name}" has op "${pattern.op}" but no sk attribute to apply it to`, ['sk: \'<attribute>\'']]);
      continue;
    }
    if (resolved === 'sk') {
      const path = pattern.index === undefined ? 'the table' : `index "${pattern.index}"`;
      const sortKey = pattern.index === undefined ? entity.key.sk : entity.indexes[pattern.index]?.sk;
      const options = sortKey ? sortKey.segments.flatMap((seg) => (seg.kind === 'placeholder' && seg.name !== 'shard' ? [seg.name] : [])) : [];
      report('DDB072', [...at, 'sk'], [`pattern "${pattern.name}" compares "${pattern.sk}", which is not part of ${entity.name}'s sort key on ${path}`, options]);
      continue;
    }
    if (resolved.op === 'beginsWith') {
      const attribute = entity.attributes[pattern.sk!]!;
      const truncated = resolved.path.sk!.segments.some((seg) => seg.kind === 'placeholder' && seg.name === pattern.sk && seg.truncate !== undefined);
      if (attribute.kind !== 'string' || truncated) {
        report('DDB073', [...at, 'op'], [`pattern "${pattern.name}" uses beginsWith on "${pattern.sk}", a ${attribute.kind}: only strings are stored as readable text in keys`, ['eq', 'between', 'gte', 'lte']]);
      } else if (resolved.path.partition.includes(pattern.sk!)) {
        report('DDB073', [...at, 'op'], [`pattern "${pattern.name}" uses beginsWith on "${pattern.sk}", which the partition key also holds: a text prefix gives no whole value to find the partition by`, ['eq', 'between', 'gte', 'lte']]);
      }
    }
  }
}
