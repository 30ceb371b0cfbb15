// The ddbgen command line. `main` is pure over its arguments and streams so tests run it in-process;
// bin.ts wires it to the real process. Exit codes: 0 ok; 1 invalid schema, stale output or
// generation failure; 2 usage error. Diagnostics go to stderr as `file:line:column - error CODE: …`.

import { parseArgs } from 'node:util';
import path from 'node:path';
import type { Severity } from '../../dsl/ir.js';
import { formatDiagnostic, summarize, type Diagnostic } from '../diagnostics/diagnostic.js';
import { messages } from '../diagnostics/messages.js';
import { loadSchemas, type SchemaTable } from '../load/load-schema.js';
import { EMIT_KINDS, GeneratedCodeError, MissingSdkError, generateTable, type EmitKind, type GeneratedFiles } from '../emit/generate.js';
import { cacheFile, readCache, writeCache } from '../emit/generation-cache.js';
import { tableFolder } from '../emit/context.js';
import { createTableInput } from '../emit/table-definition.js';
import { cdkSnippet, cloudFormation, cloudFormationYaml } from '../emit/infrastructure.js';
import { watch } from './watch.js';
import { existsSync, writeFileSync } from 'node:fs';
import { renderReport } from '../report/render-report.js';
import { reportView } from '../report/view-model.js';
import { lintJson, lintSarif } from '../lint/output.js';
import { lintTable } from '../lint/run-lint.js';
import { planTable, planText } from '../plan/capacity-plan.js';
import { packageVersion } from '../package-root.js';
import { CONFIG_FILE, ConfigError, findConfig, loadConfig } from './config.js';
import { compareOutput, writeOutput } from './output.js';
import { initProject } from './init.js';
import { IamOptionError, checkIamFormat, iamCommandOutput } from '../iam/iam-command.js';

export interface CliIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const HELP = `ddbgen — DynamoDB single-table designs as typed TypeScript

Usage:
  ddbgen generate [schema…] [--out DIR] [--emit ts|js] [--check]
                                                    validate, lint and emit out/<table>/*.ts
  ddbgen lint [schema…] [--format text|json|sarif]  the hot-key lint (HK001–HK018)
  ddbgen plan [schema…] [--format text|json]        capacity per index and pattern, shard counts
  ddbgen report [schema…] [--out report.html]       one HTML page: keys, patterns, findings, heat, edges
  ddbgen table [schema…] [--format create-table|cloudformation|cloudformation-yaml|cdk]
                                                    print the table definition
  ddbgen iam [schema…] [--format json|cloudformation|cdk] [--tenant-tag ATTRIBUTE[=TAG]]
                                                    least-privilege IAM policies per role, entity and pattern
  ddbgen init                                       write a starter schema.ts and ddbgen.config.ts
  ddbgen --help | --version

Without schema arguments, ddbgen.config.ts (searched upward from the current folder to the
project root, or given with -c) names them.

Options:
  -c, --config FILE  the config file to use
  --out DIR     output root (default: the config's "out", else ./out); for report, the HTML file
  --emit E      ts (default): TypeScript sources; js: compiled .js + .d.ts
  --check       write nothing; exit 1 if the output on disk is stale
  --no-cache    render and check everything (the cache in node_modules/.cache/ddbgen makes a
                one-entity change re-render one module and re-check what it can affect)
  --watch       regenerate whenever a schema or the config changes (Ctrl-C stops)
  --format F    lint: text (default), json, sarif; plan: text, json;
                table: create-table (default), cloudformation, cloudformation-yaml, cdk;
                iam: json (default), cloudformation, cdk
  --tenant-tag A[=TAG]  iam: scope every policy to partitions whose key holds <A> equal to the
                caller's principal tag TAG (default: A)

Exit codes: 0 ok; 1 invalid schema, lint error or stale output; 2 usage error.`;

class UsageError extends Error {}

/** No schema and no config: one line, exit 2 (no usage dump: the line says what to do). */
class NoSchemaError extends Error {}

/** Flags users reach for from other tools, and the name ddbgen uses. */
const RENAMED: Record<string, string> = { '--output': '--out', '-o': '--out', '--outDir': '--out', '--config-file': '--config', '--project': '--config', '--verify': '--check' };

function parse(args: readonly string[]) {
  const renamed = args.find((a) => RENAMED[a.split('=')[0]!]);
  if (renamed) throw new UsageError(`${renamed.split('=')[0]} is called ${RENAMED[renamed.split('=')[0]!]} in ddbgen`);
  try {
    return parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        out: { type: 'string' },
        config: { type: 'string', short: 'c' },
        check: { type: 'boolean' },
        emit: { type: 'string' },
        'no-cache': { type: 'boolean' },
        watch: { type: 'boolean' },
        format: { type: 'string' },
        'tenant-tag': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/, ''));
  }
}

export interface Inputs {
  readonly files: string[];
  readonly out: string;
  /** The config file the inputs came from, if any (watched too). */
  readonly config?: string;
  /** Project-wide lint severities from the config. */
  readonly lint?: Readonly<Record<string, Severity>>;
  /** What generate writes: the flag's value, else the config's, else `ts`. */
  readonly emit: EmitKind;
  /** Reuse and keep the generation cache (off with --no-cache). */
  readonly cache: boolean;
}

/** Schema files and output root from the arguments, else from ddbgen.config.ts. */
async function resolveInputs(io: CliIo, positionals: string[], out: string | undefined, configPath?: string, emit?: string, noCache?: boolean): Promise<Inputs> {
  if (emit !== undefined && !EMIT_KINDS.includes(emit as EmitKind)) throw new UsageError(`unknown --emit "${emit}": use ts or js`);
  const cache = noCache !== true;
  if (positionals.length) return { files: positionals.map((f) => path.resolve(io.cwd, f)), out: path.resolve(io.cwd, out ?? 'out'), emit: (emit as EmitKind | undefined) ?? 'ts', cache };
  const configFile = configPath !== undefined ? path.resolve(io.cwd, configPath) : findConfig(io.cwd);
  if (configPath !== undefined && !existsSync(configFile!)) throw new UsageError(`config file ${configPath} does not exist`);
  if (!configFile) throw new NoSchemaError(`no schema given and no ${CONFIG_FILE} in ${io.cwd} or any folder above it up to the project root (the nearest package.json or version-control root); run ddbgen init to create one, or pass a schema file`);
  const config = await loadConfig(configFile);
  io.stderr(`ddbgen: using ${path.relative(io.cwd, configFile) || configFile}\n`);
  const base = path.dirname(configFile);
  return {
    files: config.schemas.map((f) => path.resolve(base, f)),
    out: out !== undefined ? path.resolve(io.cwd, out) : path.resolve(base, config.out ?? 'out'),
    config: configFile,
    emit: (emit as EmitKind | undefined) ?? config.emit ?? 'ts',
    cache,
    ...(config.lint ? { lint: config.lint } : {}),
  };
}

function report(io: CliIo, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  if (errors) io.stderr(`\nddbgen: ${errors} error${errors === 1 ? '' : 's'}; nothing was written\n`);
}

async function loadValid(io: CliIo, files: readonly string[], cache = true): Promise<SchemaTable[] | undefined> {
  const { tables, diagnostics } = await loadSchemas(files, io.cwd, { cache });
  report(io, diagnostics);
  return diagnostics.some((d) => d.severity === 'error') ? undefined : tables;
}

async function generate(io: CliIo, positionals: string[], values: { out?: string; check?: boolean; config?: string; emit?: string; 'no-cache'?: boolean }): Promise<number> {
  const inputs = await resolveInputs(io, positionals, values.out, values.config, values.emit, values['no-cache']);
  return generateOnce(io, inputs, values.check === true);
}

async function generateOnce(io: CliIo, inputs: Inputs, check: boolean): Promise<number> {
  const tables = await loadValid(io, inputs.files, inputs.cache);
  if (!tables) return EXIT.failed;
  const lint = tables.flatMap((t) => lintTable(t.table, inputs.lint).map(t.place));
  if (lint.some((d) => d.severity === 'error')) {
    report(io, lint);
    return EXIT.failed;
  }
  for (const d of lint.filter((x) => x.severity !== 'info')) io.stderr(`${formatDiagnostic(d)}\n`);
  const outputs: Array<{ table: SchemaTable; files: GeneratedFiles; save: () => void }> = [];
  for (const table of tables) {
    try {
      const folder = tableFolder(table.table);
      const cachePath = inputs.cache ? cacheFile(inputs.out, folder, inputs.emit) : undefined;
      const generation = generateTable(table.table, inputs.out, { emit: inputs.emit, ...(cachePath ? { cache: readCache(cachePath) } : {}) });
      outputs.push({ table, files: generation.files, save: () => cachePath && writeCache(cachePath, generation.cache) });
    } catch (error) {
      if (error instanceof MissingSdkError) {
        io.stderr(`ddbgen: ${error.message}\n`);
        return EXIT.failed;
      }
      if (!(error instanceof GeneratedCodeError)) throw error;
      const { message, fix } = messages.DDB099(error.diagnostics.join('; '));
      report(io, [{ code: 'DDB099', severity: 'error', message, fix, target: table.table.name, file: path.relative(io.cwd, table.file) }]);
      return EXIT.failed;
    }
  }
  const display = (p: string) => path.relative(io.cwd, p) || '.';
  if (check) {
    const stale = outputs.flatMap(({ files }) => compareOutput(inputs.out, files));
    if (stale.length) {
      for (const s of stale) io.stderr(`stale: ${display(path.join(inputs.out, s.file))} (${s.reason})\n`);
      io.stderr(`ddbgen: the output in ${display(inputs.out)} is stale; run ddbgen generate\n`);
      return EXIT.failed;
    }
    io.stdout(`ddbgen: ${display(inputs.out)} is up to date (${outputs.length} table${outputs.length === 1 ? '' : 's'})\n`);
    return EXIT.ok;
  }
  for (const { files, save } of outputs) {
    const result = writeOutput(inputs.out, files);
    save();
    const folder = [...files.keys()][0]!.split('/')[0]!;
    io.stdout(`ddbgen: ${display(path.join(inputs.out, folder))}: ${files.size} files, ${result.written} written, ${result.removed} removed\n`);
  }
  return EXIT.ok;
}

async function lint(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined): Promise<number> {
  if (format !== undefined && !['text', 'json', 'sarif'].includes(format)) throw new UsageError(`unknown --format "${format}": use text, json or sarif`);
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const { tables, diagnostics: invalid } = await loadSchemas(inputs.files, io.cwd);
  const diagnostics = [...invalid, ...tables.flatMap((t) => lintTable(t.table, inputs.lint).map(t.place))];
  const counts = summarize(diagnostics);
  if (format === 'json') io.stdout(`${JSON.stringify(lintJson(diagnostics), null, 2)}\n`);
  else if (format === 'sarif') io.stdout(`${JSON.stringify(lintSarif(diagnostics, packageVersion()), null, 2)}\n`);
  else {
    for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
    io.stdout(`ddbgen lint: ${counts.errors} error${counts.errors === 1 ? '' : 's'}, ${counts.warnings} warning${counts.warnings === 1 ? '' : 's'}, ${counts.infos} info\n`);
  }
  return counts.errors ? EXIT.failed : EXIT.ok;
}

async function plan(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined): Promise<number> {
  if (format !== undefined && format !== 'text' && format !== 'json') throw new UsageError(`unknown --format "${format}": use text or json`);
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const tables = await loadValid(io, inputs.files);
  if (!tables) return EXIT.failed;
  const plans = tables.map((t) => planTable(t.table));
  io.stdout(format === 'json' ? `${JSON.stringify(plans.length === 1 ? plans[0] : plans, null, 2)}\n` : `${plans.map(planText).join('\n\n')}\n`);
  return EXIT.ok;
}

async function writeReport(io: CliIo, positionals: string[], out: string | undefined, config: string | undefined): Promise<number> {
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const tables = await loadValid(io, inputs.files);
  if (!tables) return EXIT.failed;
  const diagnostics = tables.flatMap((t) => lintTable(t.table, inputs.lint).map(t.place));
  const html = renderReport(reportView(tables.map((t) => t.table), diagnostics, packageVersion()));
  const file = path.resolve(io.cwd, out ?? 'report.html');
  writeFileSync(file, html);
  io.stdout(`ddbgen: wrote ${path.relative(io.cwd, file) || file} (${tables.length} table${tables.length === 1 ? '' : 's'}, ${diagnostics.length} finding${diagnostics.length === 1 ? '' : 's'})\n`);
  return EXIT.ok;
}

async function table(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined): Promise<number> {
  const formats = ['create-table', 'cloudformation', 'cloudformation-yaml', 'cdk'];
  if (format !== undefined && !formats.includes(format)) throw new UsageError(`unknown --format "${format}": use ${formats.join(', ')}`);
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const tables = await loadValid(io, inputs.files);
  if (!tables) return EXIT.failed;
  const defs = tables.map((t) => t.table);
  if (format === 'cloudformation') io.stdout(`${JSON.stringify(cloudFormation(defs), null, 2)}\n`);
  else if (format === 'cloudformation-yaml') io.stdout(cloudFormationYaml(defs));
  else if (format === 'cdk') io.stdout(cdkSnippet(defs));
  else {
    const inputsOut = defs.map((t) => ({ TableName: t.name, ...createTableInput(t) }));
    io.stdout(`${JSON.stringify(inputsOut.length === 1 ? inputsOut[0] : inputsOut, null, 2)}\n`);
  }
  return EXIT.ok;
}

async function iam(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined, tenantTag: string | undefined): Promise<number> {
  try {
    const checked = checkIamFormat(format);
    const inputs = await resolveInputs(io, positionals, undefined, config);
    const tables = await loadValid(io, inputs.files);
    if (!tables) return EXIT.failed;
    const { text, notes } = iamCommandOutput(tables.map((t) => t.table), checked, tenantTag);
    for (const note of notes) io.stderr(`ddbgen iam: ${note}\n`);
    io.stdout(text);
    return EXIT.ok;
  } catch (error) {
    throw error instanceof IamOptionError ? new UsageError(error.message) : error;
  }
}

export async function main(args: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parse(args);
    if (values.version) {
      io.stdout(`${packageVersion()}\n`);
      return EXIT.ok;
    }
    const [command, ...rest] = positionals;
    if (values.help || command === undefined || command === 'help') {
      (command === undefined && !values.help ? io.stderr : io.stdout)(`${HELP}\n`);
      return command === undefined && !values.help ? EXIT.usage : EXIT.ok;
    }
    switch (command) {
      case 'generate':
        if (values.watch) {
          if (values.check) throw new UsageError('--watch and --check do not go together');
          return await watch(io, await resolveInputs(io, rest, values.out, values.config, values.emit, values['no-cache']), (inputs) => generateOnce(io, inputs, false));
        }
        return await generate(io, rest, values);
      case 'lint':
        return await lint(io, rest, values.format, values.config);
      case 'plan':
        return await plan(io, rest, values.format, values.config);
      case 'table':
        return await table(io, rest, values.format, values.config);
      case 'iam':
        return await iam(io, rest, values.format, values.config, values['tenant-tag']);
      case 'report':
        return await writeReport(io, rest, values.out, values.config);
      case 'init':
        if (rest.length) throw new UsageError('init takes no arguments');
        return initProject(io);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof NoSchemaError) {
      io.stderr(`ddbgen: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof UsageError) {
      io.stderr(`ddbgen: ${error.message}\n\n${HELP}\n`);
      return EXIT.usage;
    }
    if (error instanceof ConfigError) {
      io.stderr(`ddbgen: ${error.message}\n`);
      return EXIT.failed;
    }
    io.stderr(`ddbgen: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.failed;
  }
}
