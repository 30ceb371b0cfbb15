// The ddbgen command line. `main` is pure over its arguments and streams so tests run it in-process;
// bin.ts wires it to the real process. Exit codes: 0 ok; 1 invalid schema, stale output or
// generation failure (a filesystem failure is one line, see emit/write-output.ts); 2 usage error. Diagnostics go to stderr as `file:line:column - error CODE: …`.

import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import path from 'node:path';
import type { Severity } from '../../dsl/ir.js';
import { formatDiagnostic, summarize, type Diagnostic } from '../diagnostics/diagnostic.js';
import { terminalIo } from './terminal.js';
import { lintMessages, messages } from '../diagnostics/messages.js';
import type { SchemaTable } from '../load/load-schema.js';
import type { GeneratedFiles } from '../emit/generate.js';
import { cacheFile, readCache, writeCache } from '../emit/generation-cache.js';
import { EMIT_KINDS, tableFolder, type EmitKind, type Origin } from '../emit/context.js';
import * as nodeFs from 'node:fs';
import { existsSync, readFileSync } from 'node:fs';
import { packageVersion } from '../package-root.js';
import { UsageError, type CliIo } from '../command-io.js';
import type { Inputs } from './inputs.js';

export { UsageError, type CliIo } from '../command-io.js';
import { projectRootOf } from '../project-root.js';
import { projectPath, regenerateCommand } from './origin.js';
import { CONFIG_FILES, ConfigError, findConfig, loadConfig } from './config.js';
import { OutputError, compareOutput, describeFailure, isFolder, writeFileAtomically, writeOutput, type OutputFs } from '../emit/write-output.js';
import { initProject } from './init.js';
import { ALL_CODES, renderPage } from '../diagnostics/pages.js';
import { closest } from '../diagnostics/closest.js';

export { closest };
// The compiler (ts-morph), the schema loader and each command's own modules are imported when a
// command needs them, so --version, help and usage errors answer at once.


/** One diagnostic on stderr; on a terminal with colour and the schema lines it points at. */
function show(io: CliIo, d: Diagnostic): void {
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
function quietIo(io: CliIo): CliIo {
  return {
    ...io,
    quiet: true,
    stdout: (text) => !/^ddbgen( lint)?: /.test(text) && io.stdout(text),
    stderr: (text) => !/^(\[[\d:]+\] )?ddbgen: (using|watching|.* changed, regenerating)/.test(text) && io.stderr(text),
  };
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Every option, with the commands that take it (an option given to any other command is a usage error). */
const OPTIONS = {
  out: { type: 'string', commands: ['generate', 'report', 'pull'], help: '--out DIR     generate: output root (default: the config\'s "out", else ./out); report: the HTML file (a folder: report.html in it); pull: the schema file (default <table>.ts)' },
  config: { type: 'string', short: 'c', commands: ['generate', 'lint', 'plan', 'report', 'table', 'iam', 'diff'], help: '-c, --config FILE  the config file to use (default: ddbgen.config.* searched upward)' },
  check: { type: 'boolean', commands: ['generate', 'diff'], help: '--check       generate: write nothing, exit 1 if the output on disk is stale; diff: exit 1 on a change not safe and not acknowledged' },
  emit: { type: 'string', commands: ['generate'], help: '--emit ts|js  ts (default): TypeScript sources; js: compiled .js + .d.ts' },
  'no-cache': { type: 'boolean', commands: ['generate'], help: "--no-cache    render and check everything, the schema transpiled afresh (no generation cache in node_modules/.cache/ddbgen; V8's code cache of ddbgen's own dependencies is kept)" },
  watch: { type: 'boolean', commands: ['generate'], help: '--watch       regenerate whenever a schema, a module it imports or the config changes' },
  format: { type: 'string', commands: ['lint', 'plan', 'table', 'iam', 'diff', 'pull'], help: '--format F    the output format (see above)' },
  account: { type: 'string', commands: ['iam'], help: '--account ID  resource-policy: the 12-digit account whose roles (named like the policies) the policies allow' },
  'resource-policy': { type: 'boolean', commands: ['table'], help: "--resource-policy  cloudformation: the table's and stream's resource-based policies (ddbgen iam --format resource-policy) in the template" },
  'tenant-tag': { type: 'string', commands: ['iam'], help: "--tenant-tag A[=TAG]  scope every policy to partitions whose key holds <A> equal to the caller's principal tag TAG (default: A)" },
  base: { type: 'string', commands: ['diff'], help: '--base REF    the old schema is the same file at git ref REF' },
  'emit-migration': { type: 'string', commands: ['diff'], help: '--emit-migration DIR  write the migration program for changes that move stored keys' },
  'old-codec': { type: 'string', commands: ['diff'], help: '--old-codec N  the key codec version the stored items were written with (1: output generated before codec v2; default: the current one)' },
  table: { type: 'string', commands: ['pull'], help: '--table NAME  pull: the DynamoDB table to describe and sample' },
  endpoint: { type: 'string', commands: ['pull'], help: '--endpoint URL  pull: the DynamoDB endpoint (e.g. DynamoDB Local at http://localhost:8000)' },
  region: { type: 'string', commands: ['pull'], help: '--region R    pull: the AWS region (default: AWS_REGION)' },
  sample: { type: 'string', commands: ['pull'], help: '--sample N    pull: items to sample at most (default 2000)' },
  'max-rcu': { type: 'string', commands: ['pull'], help: '--max-rcu R   pull: read units per second the sample may consume (default 100)' },
  discriminator: { type: 'string', commands: ['pull'], help: '--discriminator ATTR  pull: the attribute that names each item\'s entity (default: __edb_e__, _et or _type when the items carry one)' },
  force: { type: 'boolean', commands: ['pull'], help: '--force       pull: replace the schema file even if it was edited since it was pulled' },
  workbench: { type: 'string', commands: ['pull'], help: '--workbench FILE  pull: read a NoSQL Workbench data model (exported JSON) instead of a live table' },
  port: { type: 'string', commands: ['local'], help: '--port N      local: the port to listen on, on 127.0.0.1 (default 8000; 0: a free one)' },
  stdio: { type: 'boolean', commands: ['lsp'], help: '--stdio       lsp: speak the protocol over stdin and stdout (the default and only transport; editors pass it)' },
  persist: { type: 'string', commands: ['local'], help: '--persist DIR  local: keep the tables in DIR across restarts (loaded at start, written every few seconds after a change and on a clean shutdown)' },
  observed: { type: 'string', commands: ['lint', 'report'], help: "--observed FILE  lint, report: observed traffic (ddbgen's EMF lines, an OTLP JSON metrics export, or a Contributor Insights report) held against the declared" },
  quiet: { type: 'boolean', short: 'q', commands: ['generate', 'lint', 'plan', 'report', 'table', 'iam', 'diff', 'init', 'pull'], help: '-q, --quiet   print only problems (and the requested output), no status lines' },
  help: { type: 'boolean', short: 'h', commands: [], help: '-h, --help    this text' },
  version: { type: 'boolean', short: 'v', commands: [], help: '-v, --version the version' },
} as const;
type OptionName = keyof typeof OPTIONS;

/** The commands: one line for the overview, a usage line and a paragraph for `ddbgen help <command>`. */
const COMMANDS: Record<string, { readonly usage: string; readonly summary: string; readonly detail: string }> = {
  generate: {
    usage: 'ddbgen generate [schema…] [--out DIR] [--emit ts|js] [--check] [--watch] [--no-cache]',
    summary: 'validate, lint and emit out/<table>/*.ts',
    detail: 'Validates the schemas, runs the hot-key lint (an error stops it) and writes one folder per table. Only changed files are rewritten; files ddbgen wrote before and no longer generates are removed.',
  },
  lint: {
    usage: 'ddbgen lint [schema…] [--format text|json|sarif] [--observed FILE]',
    summary: `the hot-key lint (${Object.keys(lintMessages)[0]}–${Object.keys(lintMessages).at(-1)})`,
    detail:
      'Prints every finding; exit 1 when any is an error. json and sarif go to stdout for tools. With --observed FILE (the EMF lines the generated code\'s EmfWriter wrote, an OTLP JSON metrics export, or a Contributor Insights GetInsightRuleReport answer), the observed traffic is held against the declared: a pattern at 10× its declared rate (HK101), an unexpected hot key (HK102), a GSI writing more than its table (HK103), and the lint again on the observed rates; text prints the figures side by side.',
  },
  plan: { usage: 'ddbgen plan [schema…] [--format text|json]', summary: 'capacity per index and pattern, shard counts', detail: 'The declared load per key space against the partition limits.' },
  report: {
    usage: 'ddbgen report [schema…] [--out report.html] [--observed FILE]',
    summary: 'one HTML page: keys, patterns, findings, heat, edges',
    detail: 'A self-contained page (no request leaves it) to share in a review. With --observed FILE (as for ddbgen lint), it draws the declared units against the observed per key space, and the observed findings.',
  },
  table: {
    usage: 'ddbgen table [schema…] [--format create-table|cloudformation|cloudformation-yaml|cdk] [--resource-policy]',
    summary: 'print the table definition',
    detail: 'The CreateTable input (default), a CloudFormation template (JSON or YAML) or a CDK function; CloudFormation and CDK both make an AWS::DynamoDB::Table kept on stack deletion (Retain). With --resource-policy, the CloudFormation table carries its resource-based policies.',
  },
  iam: {
    usage: 'ddbgen iam [schema…] [--format json|cloudformation|cdk|resource-policy] [--account ID] [--tenant-tag ATTRIBUTE[=TAG]]',
    summary: 'least-privilege IAM policies per role, entity and pattern',
    detail: "json (default), cloudformation or cdk: identity policies. resource-policy (with --account): the table's and its stream's resource-based policies, each statement allowed to the role named like its policy, everyone else denied the items.",
  },
  diff: {
    usage: 'ddbgen diff <old> <new> | --base REF [schema…] [--format text|json|sarif] [--check] [--emit-migration DIR] [--old-codec 1]',
    summary: 'classify schema changes by what they do to stored items',
    detail: 'Compares two schema files, or the current ones with the same files at git ref REF. Every change is classed safe, needs a backfill, rewrites keys, needs table recreation, destructive, needs a split deploy or needs review. With --check, exits 1 while a change that is not safe is not acknowledged in the schema\'s migrations.',
  },
  pull: {
    usage: 'ddbgen pull --table NAME [--endpoint URL] [--region R] [--sample N] [--max-rcu R] [--out FILE] [--format text|json] [--discriminator ATTR] [--force] | --workbench model.json [--table NAME]',
    summary: 'write a schema for a table that already holds items',
    detail: 'Describes the table (keys, indexes, TTL, stream, point-in-time recovery, tags, capacity), samples its items by parallel Scan segments within --max-rcu, infers the entities (by a discriminator attribute, else by the shape of their keys), their key templates in the stored format, index mappings and attribute types, and writes a schema module with the coverage of every inference. Items that fit no entity are listed. A file edited since it was pulled is not replaced without --force: the new one is written beside it.',
  },
  local: {
    usage: 'ddbgen local [--port 8000] [--persist DIR]',
    summary: "a local DynamoDB on DynamoDB's HTTP protocol",
    detail: "Serves ddbgen's in-memory DynamoDB on http://127.0.0.1:PORT over DynamoDB's JSON protocol (the data plane, CreateTable, DescribeTable, ListTables, UpdateTable, DeleteTable, Time to Live, tags and the Streams API), for any SDK, the AWS CLI or NoSQL Workbench; any credentials are accepted. In memory unless --persist names a folder. Stops on Ctrl-C (SIGINT) or SIGTERM, writing the tables first.",
  },
  lsp: {
    usage: 'ddbgen lsp [--stdio]',
    summary: 'a language server: the design check in any editor',
    detail: "A Language Server Protocol server over stdin and stdout for editors that do not run TypeScript plugins (Neovim, Zed, Helix, JetBrains, VS Code with TypeScript 7): diagnostics as generate prints them at their spans, completions in key templates, hover with an example key and the lint's arithmetic, quick fixes. It checks the schemas the config names and any module whose default export is defineTable(…), from the editor's unsaved text; it runs the schema module as generate does, so use it in trusted workspaces only.",
  },
  init: { usage: 'ddbgen init', summary: 'write a starter schema.ts and ddbgen.config.ts', detail: 'Never overwrites a file.' },
  explain: { usage: 'ddbgen explain CODE', summary: 'what a diagnostic code means, why, an example and the fix', detail: 'CODE is a validation code (DDB030) or a lint rule (HK003); prints its page from docs/.' },
  help: { usage: 'ddbgen help [command]', summary: 'this overview, or one command\'s options', detail: '' },
};

const HELP = `ddbgen — DynamoDB single-table designs as typed TypeScript

Usage:
${Object.values(COMMANDS).map((c) => `  ${c.usage.split(' [')[0]!.padEnd(18)} ${c.summary}`).join('\n')}
  ddbgen --version

Without schema arguments, ddbgen.config.{ts,mts,cts,js,mjs,cjs} (searched upward from the current
folder, or given with -c) names them. "ddbgen help <command>" shows a command's options.

Exit codes: 0 ok; 1 invalid schema, lint error, stale output or a write the filesystem refused
(nothing is written then); 2 usage error.`;

function commandHelp(name: string): string {
  const command = COMMANDS[name]!;
  const options = (Object.keys(OPTIONS) as OptionName[]).filter((o) => (OPTIONS[o].commands as readonly string[]).includes(name) || o === 'help');
  return `Usage: ${command.usage}\n\n${command.detail}${command.detail ? '\n\n' : ''}Options:\n${options.map((o) => `  ${OPTIONS[o].help}`).join('\n')}`;
}


/** No schema and no config: one line, exit 2 (no usage dump: the line says what to do). */
class NoSchemaError extends Error {}

/** Flags users reach for from other tools, and the name ddbgen uses. */
const RENAMED: Record<string, string> = { '--output': '--out', '-o': '--out', '--outDir': '--out', '--config-file': '--config', '--project': '--config', '--verify': '--check' };

function parse(args: readonly string[]) {
  const command = args.find((a) => !a.startsWith('-'));
  const renamed = args.find((a) => RENAMED[a.split('=')[0]!]);
  if (renamed) throw new UsageError(`${renamed.split('=')[0]} is called ${RENAMED[renamed.split('=')[0]!]} in ddbgen`, command);
  const options = Object.fromEntries(Object.entries(OPTIONS).map(([name, o]) => [name, { type: o.type, ...('short' in o ? { short: o.short } : {}) }])) as {
    [K in OptionName]: { type: (typeof OPTIONS)[K]['type']; short?: string };
  };
  try {
    return parseArgs({ args: [...args], allowPositionals: true, strict: true, options });
  } catch (error) {
    const flag = /option '([^']+)'/i.exec((error as Error).message)?.[1]?.split(' ')[0];
    if (flag && /^Unknown option/.test((error as Error).message)) {
      const names = (Object.keys(OPTIONS) as OptionName[]).filter((o) => command === undefined || (OPTIONS[o].commands as readonly string[]).includes(command)).map((o) => `--${o}`);
      const suggestion = closest(flag.replace(/=.*$/, ''), names);
      throw new UsageError(`unknown option ${flag}${command && COMMANDS[command] ? ` for ${command}` : ''}`, command, suggestion);
    }
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/, '').replace(/^Option '([^']+)' argument missing$/, '$1 needs a value'), command);
  }
}

function formatError(command: string, format: string, formats: readonly string[]): UsageError {
  return new UsageError(`unknown --format "${format}": use ${formats.join(', ')}`, command, closest(format, formats));
}

/** Every option given must belong to the command (so `table --check` is an error, not ignored). */
function checkOptions(command: string, values: Partial<Record<OptionName, unknown>>): void {
  for (const name of Object.keys(values) as OptionName[]) {
    if (name === 'help' || values[name] === undefined) continue;
    if (!(OPTIONS[name].commands as readonly string[]).includes(command)) throw new UsageError(`${command} does not take --${name}`, command);
  }
}


/** Schema files and output root from the arguments, else from ddbgen.config.ts. */
async function resolveInputs(io: CliIo, positionals: string[], out: string | undefined, configPath?: string, emit?: string, noCache?: boolean): Promise<Inputs> {
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

function report(io: CliIo, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) show(io, d);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  if (errors) io.stderr(`\nddbgen: ${errors} error${errors === 1 ? '' : 's'}; nothing was written\n`);
}

async function loadValid(io: CliIo, files: readonly string[], cache = true, locate: 'eager' | 'lazy' = 'eager'): Promise<SchemaTable[] | undefined> {
  const { loadSchemas } = await import('../load/load-schema.js');
  const { tables, diagnostics } = await loadSchemas(files, io.cwd, { cache, locate });
  report(io, diagnostics);
  return diagnostics.some((d) => d.severity === 'error') ? undefined : tables;
}

async function generate(io: CliIo, positionals: string[], values: { out?: string; check?: boolean; config?: string; emit?: string; 'no-cache'?: boolean }): Promise<number> {
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
function outputFailed(io: CliIo, error: OutputError): number {
  io.stderr(`ddbgen: cannot ${error.verb} ${path.relative(io.cwd, error.target) || '.'}: ${describeFailure(error.failure, io.cwd)}; ${error.verb === 'write' ? 'nothing was written, the previous output is unchanged' : 'nothing was written'}\n`);
  return EXIT.failed;
}

async function generateOnce(io: CliIo, inputs: Inputs, check: boolean): Promise<number> {
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
  const tables = await loadValid(io, inputs.files, inputs.cache, 'lazy');
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
      const origin = tableOrigin(inputs, table.file);
      const generation = generateTable(table.table, inputs.out, { emit: inputs.emit, origin, ...(cachePath ? { cache: readCache(cachePath) } : { keepCache: false }), ...(io.interactive && !io.quiet ? { progress: step } : {}) });
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

/** Every table's lint findings, placed in its schema (the compiler that places them is loaded only when there are some). */
async function lintTables(tables: readonly SchemaTable[], defaults: Inputs['lint']): Promise<Diagnostic[]> {
  const [{ lintTable }, { locatorLoaded }] = await Promise.all([import('../lint/run-lint.js'), import('../load/load-schema.js')]);
  const found = tables.map((t) => ({ t, pending: lintTable(t.table, defaults) }));
  if (found.some(({ pending }) => pending.length)) await locatorLoaded();
  return found.flatMap(({ t, pending }) => pending.map(t.place));
}

/** The observed-traffic file of --observed, read; a file that cannot be read is shown (DDB310/DDB311) and undefined returned. */
async function readObservedFile(io: CliIo, file: string, command: string) {
  const { readObserved, ObservedFileError } = await import('../lint/observed-input.js');
  const full = path.resolve(io.cwd, file);
  if (!existsSync(full)) throw new UsageError(`--observed ${file}: no such file`, command);
  try {
    return readObserved(path.relative(io.cwd, full) || full, readFileSync(full, 'utf8'));
  } catch (error) {
    if (error instanceof ObservedFileError) {
      show(io, error.diagnostic);
      return undefined;
    }
    throw error;
  }
}

/** The tables observed traffic is about: those its table names name, else the only one. */
function observedTables<T extends { table: { name: string } }>(tables: readonly T[], names: readonly string[]): T[] {
  const named = tables.filter((t) => names.includes(t.table.name));
  return named.length ? named : tables.length === 1 ? [...tables] : [];
}

/** The lint against observed traffic, per observed table: placed diagnostics (HK101–HK103, the lint again), and the figures as text. */
async function lintObserved(tables: readonly SchemaTable[], observed: import('../lint/observed-input.js').ObservedTraffic, defaults: Inputs['lint']) {
  const [{ observedLint, observedText }, { locatorLoaded }] = await Promise.all([import('../lint/observed.js'), import('../load/load-schema.js')]);
  await locatorLoaded();
  const diagnostics: Diagnostic[] = [];
  const texts: string[] = [];
  const results: Array<{ table: SchemaTable['table']; result: ReturnType<typeof observedLint> }> = [];
  for (const t of observedTables(tables, observed.tables)) {
    const result = observedLint(t.table, observed, defaults);
    diagnostics.push(...result.diagnostics.map(t.place));
    for (const name of result.unknown) {
      const text = messages.DDB312(observed.file, name, [...Object.keys(t.table.entities), ...Object.keys(t.table.edges)].join(', '));
      diagnostics.push({ code: 'DDB312', severity: 'warn', message: text.message, fix: text.fix, target: 'observed', file: observed.file, line: 1, column: 1 });
    }
    texts.push(observedText(t.table, observed, result));
    results.push({ table: t.table, result });
  }
  return { diagnostics, text: texts.join('\n'), results };
}

async function lint(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined, observedFile?: string): Promise<number> {
  if (format !== undefined && !['text', 'json', 'sarif'].includes(format)) throw formatError('lint', format, ['text', 'json', 'sarif']);
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const [{ loadSchemas }, { lintJson, lintSarif }] = await Promise.all([import('../load/load-schema.js'), import('../lint/output.js')]);
  const observed = observedFile === undefined ? undefined : await readObservedFile(io, observedFile, 'lint');
  if (observedFile !== undefined && observed === undefined) return EXIT.failed;
  const { tables, diagnostics: invalid } = await loadSchemas(inputs.files, io.cwd, { locate: 'lazy' });
  const held = observed === undefined || invalid.some((d) => d.severity === 'error') ? undefined : await lintObserved(tables, observed, inputs.lint);
  const diagnostics = [...invalid, ...(await lintTables(tables, inputs.lint)), ...(held?.diagnostics ?? [])];
  const counts = summarize(diagnostics);
  if (format === 'json') io.stdout(`${JSON.stringify(lintJson(diagnostics), null, 2)}\n`);
  else if (format === 'sarif') io.stdout(`${JSON.stringify(lintSarif(diagnostics, packageVersion()), null, 2)}\n`);
  else {
    for (const d of diagnostics) show(io, d);
    if (held) io.stdout(held.text);
    io.stdout(`ddbgen lint: ${counts.errors} error${counts.errors === 1 ? '' : 's'}, ${counts.warnings} warning${counts.warnings === 1 ? '' : 's'}, ${counts.infos} info\n`);
  }
  return counts.errors ? EXIT.failed : EXIT.ok;
}

async function plan(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined): Promise<number> {
  if (format !== undefined && format !== 'text' && format !== 'json') throw formatError('plan', format, ['text', 'json']);
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const tables = await loadValid(io, inputs.files, true, 'lazy');
  if (!tables) return EXIT.failed;
  const { planTable, planText } = await import('../plan/capacity-plan.js');
  const plans = tables.map((t) => planTable(t.table));
  io.stdout(format === 'json' ? `${JSON.stringify(plans.length === 1 ? plans[0] : plans, null, 2)}\n` : `${plans.map(planText).join('\n\n')}\n`);
  return EXIT.ok;
}

async function writeReport(io: CliIo, positionals: string[], out: string | undefined, config: string | undefined, observedFile?: string): Promise<number> {
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const observed = observedFile === undefined ? undefined : await readObservedFile(io, observedFile, 'report');
  if (observedFile !== undefined && observed === undefined) return EXIT.failed;
  const tables = await loadValid(io, inputs.files, true, 'lazy');
  if (!tables) return EXIT.failed;
  const [{ renderReport }, { reportView }] = await Promise.all([import('../report/render-report.js'), import('../report/view-model.js')]);
  const held = observed === undefined ? undefined : await lintObserved(tables, observed, inputs.lint);
  const diagnostics = [...(await lintTables(tables, inputs.lint)), ...(held?.diagnostics ?? [])];
  const views = new Map((held?.results ?? []).map(({ table, result }) => [table.name, { file: observed!.file, seconds: observed!.seconds, format: observed!.format, rows: result.rows, patterns: result.patterns }]));
  const html = renderReport(reportView(tables.map((t) => t.table), diagnostics, packageVersion(), views));
  const named = path.resolve(io.cwd, out ?? 'report.html');
  // --out naming a folder puts report.html in it
  const file = isFolder(io.fs ?? nodeFs, named) ? path.join(named, 'report.html') : named;
  writeFileAtomically(file, html, io.fs);
  io.stdout(`ddbgen: wrote ${path.relative(io.cwd, file) || file} (${tables.length} table${tables.length === 1 ? '' : 's'}, ${diagnostics.length} finding${diagnostics.length === 1 ? '' : 's'})\n`);
  return EXIT.ok;
}

async function table(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined, resourcePolicy: boolean): Promise<number> {
  const formats = ['create-table', 'cloudformation', 'cloudformation-yaml', 'cdk'];
  if (format !== undefined && !formats.includes(format)) throw formatError('table', format, formats);
  if (resourcePolicy && format !== 'cloudformation' && format !== 'cloudformation-yaml') throw new UsageError('--resource-policy puts the resource-based policies in a CloudFormation template: use it with --format cloudformation or cloudformation-yaml', 'table');
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const tables = await loadValid(io, inputs.files);
  if (!tables) return EXIT.failed;
  const defs = tables.map((t) => t.table);
  const [{ cdkSnippet, cloudFormation, cloudFormationYaml }, { createTableInput }] = await Promise.all([import('../emit/infrastructure.js'), import('../emit/table-definition.js')]);
  if (format === 'cloudformation' || format === 'cloudformation-yaml') {
    let template = cloudFormation(defs);
    if (resourcePolicy) {
      const { withResourcePolicies } = await import('../iam/resource-policy.js');
      const added = withResourcePolicies(template as Parameters<typeof withResourcePolicies>[0], defs);
      for (const note of added.notes) io.stderr(`ddbgen table: ${note}\n`);
      template = added.template;
    }
    io.stdout(format === 'cloudformation' ? `${JSON.stringify(template, null, 2)}\n` : cloudFormationYaml(template));
  }
  else if (format === 'cdk') io.stdout(cdkSnippet(defs));
  else {
    const inputsOut = defs.map((t) => ({ TableName: t.name, ...createTableInput(t) }));
    io.stdout(`${JSON.stringify(inputsOut.length === 1 ? inputsOut[0] : inputsOut, null, 2)}\n`);
  }
  return EXIT.ok;
}

async function iam(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined, tenantTag: string | undefined, account: string | undefined): Promise<number> {
  const { IamOptionError, checkIamFormat, iamCommandOutput } = await import('../iam/iam-command.js');
  try {
    const checked = checkIamFormat(format);
    const inputs = await resolveInputs(io, positionals, undefined, config);
    const tables = await loadValid(io, inputs.files);
    if (!tables) return EXIT.failed;
    const { text, notes } = iamCommandOutput(tables.map((t) => t.table), checked, tenantTag, account);
    for (const note of notes) io.stderr(`ddbgen iam: ${note}\n`);
    io.stdout(text);
    return EXIT.ok;
  } catch (error) {
    throw error instanceof IamOptionError ? new UsageError(error.message, 'iam') : error;
  }
}

export async function main(args: readonly string[], given: CliIo): Promise<number> {
  // everything any command writes goes through here: schema, file and argument text cannot steer the terminal
  const io = terminalIo(given);
  try {
    const { values, positionals } = parse(args);
    if (values.version) {
      io.stdout(`${packageVersion()}\n`);
      return EXIT.ok;
    }
    const [command, ...rest] = positionals;
    if (command === undefined) {
      (values.help ? io.stdout : io.stderr)(`${HELP}\n`);
      return values.help ? EXIT.ok : EXIT.usage;
    }
    if (!COMMANDS[command]) {
      const suggestion = closest(command, Object.keys(COMMANDS));
      throw new UsageError(`unknown command "${command}"`, undefined, suggestion && `ddbgen ${[suggestion, ...rest].join(' ')}`);
    }
    if (command === 'help') {
      const topic = rest[0];
      if (topic !== undefined && !COMMANDS[topic]) throw new UsageError(`no command "${topic}"`, undefined, closest(topic, Object.keys(COMMANDS)));
      io.stdout(`${topic === undefined ? HELP : commandHelp(topic)}\n`);
      return EXIT.ok;
    }
    if (values.help) {
      io.stdout(`${commandHelp(command)}\n`);
      return EXIT.ok;
    }
    checkOptions(command, values);
    const out = values.quiet ? quietIo(io) : io;
    return await run(command, rest, values, out);
  } catch (error) {
    if (error instanceof NoSchemaError) {
      io.stderr(`ddbgen: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof UsageError) {
      const hint = error.suggestion ? `\n  did you mean ${error.suggestion}?` : '';
      io.stderr(`ddbgen: ${error.message}${hint}\n  run ddbgen help${error.command && COMMANDS[error.command] ? ` ${error.command}` : ''} for the usage\n`);
      return EXIT.usage;
    }
    if (error instanceof OutputError) return outputFailed(io, error);
    if (error instanceof ConfigError) {
      if (error.diagnostics.length) report(io, error.diagnostics);
      else io.stderr(`ddbgen: ${error.message}\n`);
      return EXIT.failed;
    }
    io.stderr(`ddbgen: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.failed;
  }
}

/** Runs one command whose options have been checked. */
async function run(command: string, rest: string[], values: ReturnType<typeof parse>['values'], io: CliIo): Promise<number> {
  switch (command) {
    case 'generate':
      if (values.watch) {
        if (values.check) throw new UsageError('--watch and --check do not go together', command);
        const { watch } = await import('./watch.js');
        return await watch(io, await resolveInputs(io, rest, values.out, values.config, values.emit, values['no-cache']), (inputs) => generateOnce(io, inputs, false));
      }
      return await generate(io, rest, values);
    case 'lint':
      return await lint(io, rest, values.format, values.config, values.observed);
    case 'plan':
      return await plan(io, rest, values.format, values.config);
    case 'table':
      return await table(io, rest, values.format, values.config, values['resource-policy'] === true);
    case 'iam':
      return await iam(io, rest, values.format, values.config, values['tenant-tag'], values.account);
    case 'report':
      return await writeReport(io, rest, values.out, values.config, values.observed);
    case 'diff': {
      const { diffCommand } = await import('../diff/schema-diff.js');
      return await diffCommand(io, values.base !== undefined && !rest.length ? (await resolveInputs(io, rest, undefined, values.config)).files : rest, values);
    }
    case 'pull': {
      const { pullCommand } = await import('../pull/pull-command.js');
      return await pullCommand(io, rest, values);
    }
    case 'local': {
      if (rest.length) throw new UsageError('local takes no arguments', command);
      const port = values.port === undefined ? 8000 : Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port takes a port number (0 to 65535), got "${values.port}"`, command);
      const { localCommand } = await import('../local/local-command.js');
      return await localCommand(io, { port, ...(values.persist === undefined ? {} : { persist: values.persist }) });
    }
    case 'lsp': {
      if (rest.length) throw new UsageError('lsp takes no arguments (it talks over stdin and stdout)', command);
      const { startLspServer } = await import('../editor/lsp-server.js');
      return await startLspServer();
    }
    case 'init':
      if (rest.length) throw new UsageError('init takes no arguments', command);
      return initProject(io);
    case 'explain': {
      if (rest.length !== 1) throw new UsageError('explain takes one code, e.g. ddbgen explain HK003', command);
      const page = renderPage(rest[0]!);
      if (page === undefined) throw new UsageError(`no code "${rest[0]}"`, command, closest(rest[0]!, ALL_CODES));
      io.stdout(page);
      return EXIT.ok;
    }
    default:
      throw new UsageError(`${command} is not implemented`, command);
  }
}
