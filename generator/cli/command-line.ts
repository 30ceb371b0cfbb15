// The command line ddbgen reads: its options (and their old names), its commands with their usage
// and help, and the checks of which options a command takes. Part of the CLI (cli.ts).

import { parseArgs } from 'node:util';
import { lintMessages } from '../diagnostics/messages.js';
import { UsageError } from '../command-io.js';
import { closest } from '../diagnostics/closest.js';

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
export const COMMANDS: Record<string, { readonly usage: string; readonly summary: string; readonly detail: string }> = {
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

export const HELP = `ddbgen — DynamoDB single-table designs as typed TypeScript

Usage:
${Object.values(COMMANDS).map((c) => `  ${c.usage.split(' [')[0]!.padEnd(18)} ${c.summary}`).join('\n')}
  ddbgen --version

Without schema arguments, ddbgen.config.{ts,mts,cts,js,mjs,cjs} (searched upward from the current
folder, or given with -c) names them. "ddbgen help <command>" shows a command's options.

Exit codes: 0 ok; 1 invalid schema, lint error, stale output or a write the filesystem refused
(nothing is written then); 2 usage error.`;

export function commandHelp(name: string): string {
  const command = COMMANDS[name]!;
  const options = (Object.keys(OPTIONS) as OptionName[]).filter((o) => (OPTIONS[o].commands as readonly string[]).includes(name) || o === 'help');
  return `Usage: ${command.usage}\n\n${command.detail}${command.detail ? '\n\n' : ''}Options:\n${options.map((o) => `  ${OPTIONS[o].help}`).join('\n')}`;
}

/** Flags users reach for from other tools, and the name ddbgen uses. */
const RENAMED: Record<string, string> = { '--output': '--out', '-o': '--out', '--outDir': '--out', '--config-file': '--config', '--project': '--config', '--verify': '--check' };

export function parse(args: readonly string[]) {
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

export function formatError(command: string, format: string, formats: readonly string[]): UsageError {
  return new UsageError(`unknown --format "${format}": use ${formats.join(', ')}`, command, closest(format, formats));
}

/** Every option given must belong to the command (so `table --check` is an error, not ignored). */
export function checkOptions(command: string, values: Partial<Record<OptionName, unknown>>): void {
  for (const name of Object.keys(values) as OptionName[]) {
    if (name === 'help' || values[name] === undefined) continue;
    if (!(OPTIONS[name].commands as readonly string[]).includes(command)) throw new UsageError(`${command} does not take --${name}`, command);
  }
}
