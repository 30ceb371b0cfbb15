// `ddbgen generate` (and --check): the schemas loaded and validated, each table's output generated
// (from the generation cache where nothing changed) and written, or compared with what is on disk;
// progress on a terminal, the heap bounded for large outputs. Part of the CLI (cli.ts).

import { setFlagsFromString } from 'node:v8';
import path from 'node:path';
import { messages } from '../diagnostics/messages.js';
import type { SchemaTable } from '../load/load-schema.js';
import type { GeneratedFiles } from '../emit/generate.js';
import { cacheFile, checkStateDir, readCache, writeCache } from '../emit/output/generation-cache.js';
import { tableFolder, type Origin } from '../emit/context.js';
import { packageVersion } from '../package-root.js';
import { type CliIo } from '../command-io.js';
import type { Inputs } from './inputs.js';
import { projectPath, regenerateCommand } from './origin.js';
import { OutputError, compareOutput, describeFailure, writeOutput } from '../emit/output/write-output.js';
import { EXIT, lintTables, loadValid, report, resolveInputs, show } from './command-support.js';

export async function generate(io: CliIo, positionals: string[], values: { out?: string; check?: boolean; config?: string; emit?: string; 'no-cache'?: boolean }): Promise<number> {
  const inputs = await resolveInputs(io, positionals, values.out, values.config, values.emit, values['no-cache']);
  return generateOnce(io, inputs, values.check === true);
}

/** On a terminal, one status line rewritten in place (cleared with an empty text); elsewhere nothing. */
function progress(io: CliIo, text: string): void {
  if (io.interactive && !io.quiet) io.stderr(`\r\x1b[K${text ? `ddbgen: ${text}…` : ''}`);
}

/** `show` for a stream of steps: each new kind of step at once (its first word), repeats of a kind at most every 100 ms. */
function throttled(show: (text: string) => void): (text: string) => void {
  let kind = '';
  let last = 0;
  return (text) => {
    const now = Date.now();
    const next = text.split(/[\s:]/)[0]!;
    if (next === kind && now - last < 100) return;
    kind = next;
    last = now;
    show(text);
  };
}

/** One line for a filesystem failure: what, where, why, and that nothing changed. */
export function outputFailed(io: CliIo, error: OutputError): number {
  io.stderr(`ddbgen: cannot ${error.verb} ${path.relative(io.cwd, error.target) || '.'}: ${describeFailure(error.failure, io.cwd)}; ${error.verb === 'write' ? 'nothing was written, the previous output is unchanged' : 'nothing was written'}\n`);
  return EXIT.failed;
}

export async function generateOnce(io: CliIo, inputs: Inputs, check: boolean): Promise<number> {
  try {
    return await generateChecked(io, inputs, check);
  } catch (error) {
    if (error instanceof OutputError) return outputFailed(io, error);
    throw error;
  }
}

/** A generated file's origin: the version, the table's schema file and its canonical command (see origin.ts). */
function tableOrigin(inputs: Inputs, schema: string): Origin {
  const { root, fromConfig, defaultOut, defaultEmit } = inputs.header;
  const source = fromConfig ?? { schema };
  return {
    version: packageVersion(),
    schema: projectPath(root, schema),
    command: regenerateCommand({ root, source, out: inputs.out, defaultOut, emit: inputs.emit, defaultEmit }),
  };
}

async function generateChecked(io: CliIo, inputs: Inputs, check: boolean): Promise<number> {
  progress(io, `loading ${inputs.files.length} schema${inputs.files.length === 1 ? '' : 's'}`);
  // the compiler transpiles the schema: generate loads it anyway to emit
  const tables = await loadValid(io, inputs.files, inputs.cache, 'lazy', true);
  progress(io, '');
  if (!tables) return EXIT.failed;
  boundHeapGrowth(tables);
  const lint = await lintTables(tables, inputs.lint);
  if (lint.some((d) => d.severity === 'error')) {
    report(io, lint);
    return EXIT.failed;
  }
  for (const d of lint.filter((x) => x.severity !== 'info')) show(io, d);
  const { GeneratedCodeError, MissingSdkError, generateTable } = await import('../emit/generate.js');
  const outputs: Array<{ table: SchemaTable; files: GeneratedFiles; save: () => void }> = [];
  for (const [i, table] of tables.entries()) {
    const step = throttled((text: string) => progress(io, `${table.table.name} (table ${i + 1} of ${tables.length}): ${text}`));
    try {
      const folder = tableFolder(table.table);
      const cachePath = inputs.cache ? cacheFile(inputs.out, folder, inputs.emit) : undefined;
      const checkState = cachePath ? checkStateDir(inputs.out, folder, inputs.emit) : undefined;
      const origin = tableOrigin(inputs, table.file);
      const generation = generateTable(table.table, inputs.out, {
        emit: inputs.emit,
        origin,
        ...(cachePath ? { cache: readCache(cachePath) } : { keepCache: false }),
        ...(checkState ? { checkState } : {}),
        ...(io.interactive && !io.quiet ? { progress: step } : {}),
      });
      outputs.push({ table, files: generation.files, save: () => cachePath && writeCache(cachePath, generation.cache) });
    } catch (error) {
      progress(io, '');
      if (error instanceof MissingSdkError) {
        io.stderr(`ddbgen: ${error.message}\n`);
        return EXIT.failed;
      }
      if (!(error instanceof GeneratedCodeError)) throw error;
      // every compiler error, one per line: a schema may hit several bugs at once
      const { message, fix } = messages.DDB099(`${error.diagnostics.length} error${error.diagnostics.length === 1 ? '' : 's'}\n${error.diagnostics.map((d) => `      ${d.replace(/\n/g, '\n      ')}`).join('\n')}`);
      report(io, [{ code: 'DDB099', severity: 'error', message, fix, target: table.table.name, file: path.relative(io.cwd, table.file) }]);
      return EXIT.failed;
    }
  }
  progress(io, '');
  const display = (p: string) => path.relative(io.cwd, p) || '.';
  if (check) {
    const stale = outputs.flatMap(({ files }) => compareOutput(inputs.out, files, io.fs));
    if (stale.length) {
      const headerOnly = new Map<string, number>();
      for (const s of stale) {
        if (s.reason !== 'header names another command') io.stderr(`stale: ${display(path.join(inputs.out, s.file))} (${s.reason})\n`);
        else headerOnly.set(s.file.split('/')[0]!, (headerOnly.get(s.file.split('/')[0]!) ?? 0) + 1);
      }
      // files that differ only in the header's command: one line per table folder
      for (const [folder, count] of headerOnly) io.stderr(`stale: ${display(path.join(inputs.out, folder))}/ (${count} file${count === 1 ? '' : 's'} whose header names another command)\n`);
      io.stderr(`ddbgen: the output in ${display(inputs.out)} is stale; run ddbgen generate\n`);
      return EXIT.failed;
    }
    io.stdout(`ddbgen: ${display(inputs.out)} is up to date (${outputs.length} table${outputs.length === 1 ? '' : 's'})\n`);
    return EXIT.ok;
  }
  const results = writeOutput(inputs.out, outputs.map((o) => o.files), io.fs);
  outputs.forEach(({ files, save }, i) => {
    save();
    const folder = [...files.keys()][0]!.split('/')[0]!;
    io.stdout(`ddbgen: ${display(path.join(inputs.out, folder))}: ${files.size} files, ${results[i]!.written} written, ${results[i]!.removed} removed\n`);
  });
  return EXIT.ok;
}

/** How many entities make an output large enough to bound the heap's growth for (boundHeapGrowth). */
const LARGE_OUTPUT_ENTITIES = 200;

/**
 * V8 lets a heap that allocates fast grow to several times what it holds after a collection, and
 * generation makes and drops each module's structures: a 500-entity run peaked at 502–509 MB, with
 * growth bounded to a quarter of the live heap at 427–458 MB, for under a second more of 12. A
 * small output pays the bound (5 % of the starter's time) and needs none, so only a large one
 * gets it. V8 reads the flag at each collection; it holds for the rest of the process.
 */
function boundHeapGrowth(tables: readonly SchemaTable[]): void {
  if (tables.reduce((n, t) => n + Object.keys(t.table.entities).length, 0) >= LARGE_OUTPUT_ENTITIES) setFlagsFromString('--heap-growing-percent=25');
}
