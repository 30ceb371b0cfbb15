// What the commands of the CLI share: exit codes, diagnostics on stderr (with the schema lines on
// a terminal), --quiet, the inputs a command reads (arguments, config file, output folder), the
// schemas loaded and validated, and the lint run over them. Part of the CLI (cli.ts).

import path from 'node:path';
import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { SchemaTable } from '../load/load-schema.js';
import { EMIT_KINDS, type EmitKind } from '../emit/context.js';
import { existsSync, readFileSync } from 'node:fs';
import { UsageError, type CliIo } from '../command-io.js';
import type { Inputs } from './inputs.js';
import { projectRootOf } from '../project-root.js';
import { CONFIG_FILES, findConfig, loadConfig } from './config.js';

/** One diagnostic on stderr; on a terminal with colour and the schema lines it points at. */
export function show(io: CliIo, d: Diagnostic): void {
  let source: string | undefined;
  if (io.interactive && d.file !== undefined) {
    try {
      source = readFileSync(path.resolve(io.cwd, d.file), 'utf8');
    } catch {
      source = undefined;
    }
  }
  // on a terminal, the progress line (if any) is cleared first
  io.stderr(`${io.interactive ? '\r\x1b[K' : ''}${formatDiagnostic(d, { color: io.color === true, ...(source === undefined ? {} : { source }) })}\n`);
}

/** With --quiet: ddbgen's own status lines ("ddbgen: …" on stdout; which config, watching, regenerating on stderr) are left out. */
export function quietIo(io: CliIo): CliIo {
  return {
    ...io,
    quiet: true,
    stdout: (text) => !/^ddbgen( lint)?: /.test(text) && io.stdout(text),
    stderr: (text) => !/^(\[[\d:]+\] )?ddbgen: (using|watching|.* changed, regenerating)/.test(text) && io.stderr(text),
  };
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** No schema and no config: one line, exit 2 (no usage dump: the line says what to do). */
export class NoSchemaError extends Error {}

/** Schema files and output root from the arguments, else from ddbgen.config.ts. */
export async function resolveInputs(io: CliIo, positionals: string[], out: string | undefined, configPath?: string, emit?: string, noCache?: boolean): Promise<Inputs> {
  if (emit !== undefined && !EMIT_KINDS.includes(emit as EmitKind)) throw new UsageError(`unknown --emit "${emit}": use ts or js`, 'generate');
  const cache = noCache !== true;
  if (positionals.length) {
    const root = projectRootOf(io.cwd);
    return {
      files: positionals.map((f) => path.resolve(io.cwd, f)),
      out: path.resolve(io.cwd, out ?? 'out'),
      emit: (emit as EmitKind | undefined) ?? 'ts',
      cache,
      header: { root, defaultOut: path.join(root, 'out'), defaultEmit: 'ts' },
    };
  }
  const configFile = configPath !== undefined ? path.resolve(io.cwd, configPath) : findConfig(io.cwd);
  if (configPath !== undefined && !existsSync(configFile!)) throw new UsageError(`config file ${configPath} does not exist`, 'generate');
  if (!configFile) throw new NoSchemaError(`no schema given and no ddbgen.config.{${CONFIG_FILES.map((f) => f.split('.').pop()).join(',')}} in ${io.cwd} or any folder above it up to the project root (the nearest package.json or version-control root); run ddbgen init to create one, or pass a schema file`);
  const config = await loadConfig(configFile, io.cwd);
  io.stderr(`ddbgen: using ${path.relative(io.cwd, configFile) || configFile}\n`);
  const base = path.dirname(configFile);
  const root = projectRootOf(base);
  const defaultOut = path.resolve(base, config.out ?? 'out');
  return {
    files: config.schemas.map((f) => path.resolve(base, f)),
    out: out !== undefined ? path.resolve(io.cwd, out) : defaultOut,
    config: configFile,
    emit: (emit as EmitKind | undefined) ?? config.emit ?? 'ts',
    cache,
    // the config is named in the command unless running ddbgen at the project root finds it
    header: { root, fromConfig: { config: findConfig(root) === configFile ? undefined : configFile }, defaultOut, defaultEmit: config.emit ?? 'ts' },
    ...(config.lint ? { lint: config.lint } : {}),
  };
}

export function report(io: CliIo, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) show(io, d);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  if (errors) io.stderr(`\nddbgen: ${errors} error${errors === 1 ? '' : 's'}; nothing was written\n`);
}

export async function loadValid(io: CliIo, files: readonly string[], cache = true, locate: 'eager' | 'lazy' = 'eager', compiler = false): Promise<SchemaTable[] | undefined> {
  const { loadSchemas } = await import('../load/load-schema.js');
  const { tables, diagnostics } = await loadSchemas(files, io.cwd, { cache, locate, compiler });
  report(io, diagnostics);
  return diagnostics.some((d) => d.severity === 'error') ? undefined : tables;
}

/** Every table's lint findings, placed in its schema (the compiler that places them is loaded only when there are some). */
export async function lintTables(tables: readonly SchemaTable[], defaults: Inputs['lint']): Promise<Diagnostic[]> {
  const [{ lintTable }, { locatorLoaded }] = await Promise.all([import('../lint/run-lint.js'), import('../load/load-schema.js')]);
  const found = tables.map((t) => ({ t, pending: lintTable(t.table, defaults) }));
  if (found.some(({ pending }) => pending.length)) await locatorLoaded();
  return found.flatMap(({ t, pending }) => pending.map(t.place));
}
