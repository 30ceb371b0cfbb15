// Writes the migration program for the changes that move stored items (rewritten keys, index
// backfills): both schema versions' generated code (old/ and new/, so each item is parsed with the
// old codec and built with the new), the migration runtime beside the new code, and
// migrate-<table>.ts, which names the entities, the migration's identity and its default write cap.

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TableDef } from '../../dsl/ir.js';
import { writeOutput } from '../cli/output.js';
import { BANNER, camelCase, entityFile, quote, tableFolder } from '../emit/context.js';
import { generateTable } from '../emit/generate.js';
import { planTable } from '../plan/capacity-plan.js';
import { KEY_CODEC_VERSION } from '../../templates/runtime/codec.js';
import type { KeyCodecVersion } from './compare-tables.js';
import type { LocatedChange, TablePair } from './schema-diff.js';

/** 80 % of one partition's 1,000 WCU/s: a rewrite that lands on one partition still cannot throttle it. */
const PARTITION_CAP = 800;

/**
 * The default write cap of a migration, in WCU/s: the spare write capacity of the table (provisioned
 * units, or on-demand's 4,000 WRU warm start, less the declared write load) halved, and never more
 * than 80 % of one partition.
 */
export function defaultMaxWcu(table: TableDef): number {
  const declared = planTable(table).totals.writeUnits;
  const capacity = table.capacity.mode === 'provisioned' ? table.capacity.write : 4000;
  return Math.max(1, Math.min(PARTITION_CAP, Math.floor((capacity - declared) / 2)));
}

/** The migration's identity: its table, both versions' IR and the old key codec. A checkpoint of another migration has another id. */
export function migrationId(before: TableDef, after: TableDef, oldCodec: KeyCodecVersion = KEY_CODEC_VERSION): string {
  const inputs = oldCodec === KEY_CODEC_VERSION ? [before, after] : [before, after, { keyCodec: oldCodec }];
  return `${tableFolder(after)}-${createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 12)}`;
}

function program(before: TableDef, after: TableDef, entities: ReadonlyArray<{ name: string; kind: 'rewrite' | 'backfill'; reasons: string[] }>, oldCodec: KeyCodecVersion): string {
  const folder = tableFolder(after);
  const migrated = new Set(entities.map((e) => e.name));
  const unchanged = Object.values(before.entities).filter((e) => !migrated.has(e.name) && after.entities[e.name]);
  const imports = [
    `import { migrationMain, type MigrationPlan } from './new/${folder}/runtime/migration.js';`,
    `import { fromStored } from './old/${folder}/runtime/item.js';`,
    ...entities.flatMap((e) => {
      const module = entityFile(after.entities[e.name]!).replace(/\.ts$/, '.js');
      return [`import { ${camelCase(e.name)}Model as old${e.name} } from './old/${folder}/${module}';`, `import { ${camelCase(e.name)}Model as new${e.name} } from './new/${folder}/${module}';`];
    }),
    ...unchanged.map((e) => `import { ${camelCase(e.name)}Model as old${e.name} } from './old/${folder}/${entityFile(e).replace(/\.ts$/, '.js')}';`),
  ];
  return `${BANNER}

// Migrates the stored items of table ${after.name}:
${entities.map((e) => `//   ${e.name}: ${e.kind === 'rewrite' ? 'rewrites keys' : 'backfills index attributes'} (${e.reasons.join('; ')})`).join('\n')}
${oldCodec === KEY_CODEC_VERSION ? '' : `// The stored keys were written by key codec v${oldCodec}: old/ reads them as v${oldCodec}, new/ writes v${KEY_CODEC_VERSION}.\n`}//
// Run every segment here, or each segment in its own process or machine (same --segments):
//   npx tsx migrate-${folder}.ts --segments 8 [--segment 3] [--table NAME] [--checkpoints DIR] [--max-wcu N]
// A stopped run resumes from its checkpoints; re-running a finished segment changes nothing.

${imports.join('\n')}

export const plan: MigrationPlan = {
  id: ${quote(migrationId(before, after, oldCodec))},
  tableName: ${quote(after.name)},
  entities: [
${entities.map((e) => `    { name: '${e.name}', kind: '${e.kind}', from: old${e.name}, to: new${e.name} },`).join('\n')}
  ],
  unchanged: [${unchanged.map((e) => `old${e.name}`).join(', ')}],
  edgePrefixes: [${Object.values(before.edges).flatMap((e) => [e.forward, ...(e.inverse === undefined ? [] : [e.inverse])]).map((label) => quote(label + before.delimiter)).join(', ')}],
  decode: fromStored,
  maxWcu: ${defaultMaxWcu(after)},
};

process.exitCode = await migrationMain(plan, process.argv.slice(2));
`;
}

/**
 * Writes one migration folder per table with items to move; returns the program files written.
 * With `oldCodec` 1 the old schema's copy reads (and builds) keys as key codec v1 wrote them.
 */
export function emitMigrations(pairs: readonly TablePair[], changes: readonly LocatedChange[], dir: string, oldCodec: KeyCodecVersion = KEY_CODEC_VERSION): string[] {
  const written: string[] = [];
  for (const { before, after } of pairs) {
    if (!before || !after) continue;
    const moves = changes.filter((c) => c.table === after.table.name && c.migrate);
    if (!moves.length) continue;
    const entities = [...new Set(moves.map((c) => c.migrate!.entity))].map((name) => {
      const own = moves.filter((c) => c.migrate!.entity === name);
      return { name, kind: own.some((c) => c.migrate!.kind === 'rewrite') ? ('rewrite' as const) : ('backfill' as const), reasons: own.map((c) => c.change) };
    });
    const folder = tableFolder(after.table);
    const root = path.join(dir, folder);
    // the program reads items with the old code's fromStored and runs the new code's migration engine
    writeOutput(path.join(root, 'old'), [generateTable(before.table, path.join(root, 'old'), { runtime: ['item'], keepCache: false, ...(oldCodec === 1 ? { keyCodec: 1 as const } : {}) }).files]);
    writeOutput(path.join(root, 'new'), [generateTable(after.table, path.join(root, 'new'), { runtime: ['migration'], keepCache: false }).files]);
    const file = path.join(root, `migrate-${folder}.ts`);
    writeFileSync(file, program(before.table, after.table, entities, oldCodec));
    written.push(file);
  }
  return written;
}
