// Property: every schema drawn over the whole DSL (test/support/schema-space.ts) either generates
// output that compiles under strict settings, or is refused by validation with documented, located
// codes: never DDB099, a stack trace or a partial output. A small seeded run is part of npm test;
// `npm run fuzz` runs many more (DDBGEN_FUZZ_RUNS, DDBGEN_FUZZ_SEED). A failing seed becomes a
// given/want case in test/seams.test.ts.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import type { TableDef } from '../dsl/ir.js';
import { messages } from '../generator/diagnostics/messages.js';
import { generateTable, type Generation } from '../generator/emit/generate.js';
import { validateTable } from '../generator/load/validate-table.js';
import { schemaOf, schemaSpec } from './support/schema-space.js';

const runs = Number(process.env['DDBGEN_FUZZ_RUNS'] ?? 12);
const seed = Number(process.env['DDBGEN_FUZZ_SEED'] ?? 2911);

test(`schema space: ${runs} random schemas (seed ${seed}) generate and compile, or are refused with located, documented codes`, (t) => {
  t.timeout(runs * 30_000);
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'ddbgen-space-')), 'out');
  let previous: Generation | undefined;
  const tally = { compiled: 0, refused: 0 };
  const codes = new Map<string, number>();
  fc.assert(
    fc.property(schemaSpec, (spec) => {
      const table: TableDef = schemaOf(spec);
      const problems = validateTable(table);
      for (const p of problems) codes.set(p.code, (codes.get(p.code) ?? 0) + 1);
      if (problems.length > 0) {
        tally.refused++;
        for (const p of problems) {
          if (p.code === 'DDB099' || !(p.code in messages)) throw new Error(`${p.code} is not a documented validation code: ${p.message}`);
          if (!existsSync(path.join('docs', 'codes', `${p.code}.md`))) throw new Error(`${p.code} has no docs page`);
          if (p.path.length === 0 || p.fix.length === 0) throw new Error(`${p.code} has no schema path or fix: ${p.message}`);
        }
        return;
      }
      try {
        previous = generateTable(table, out, previous ? { cache: previous.cache } : {});
      } catch (error) {
        throw new Error(`a valid schema did not generate: ${(error as Error).message.slice(0, 2000)}`);
      }
      tally.compiled++;
    }),
    { numRuns: runs, seed },
  );
  t.log(`${tally.compiled} compiled, ${tally.refused} refused (${[...codes].map(([c, n]) => `${c}×${n}`).join(', ') || 'no codes'})`);
  t.true(tally.compiled >= Math.ceil(runs / 2), `most drawn schemas are valid and compile (${tally.compiled} of ${runs})`);
});
