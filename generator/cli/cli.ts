// The ddbgen command line. `main` is pure over its arguments and streams so tests run it in-process;
// bin.ts wires it to the real process. Exit codes: 0 ok; 1 invalid schema, stale output or
// generation failure (a filesystem failure is one line, see emit/write-output.ts); 2 usage error. Diagnostics go to stderr as `file:line:column - error CODE: …`.

import { terminalIo } from './terminal.js';
import { packageVersion } from '../package-root.js';
import { UsageError, type CliIo } from '../command-io.js';
import { ConfigError } from './config.js';
import { OutputError } from '../emit/output/write-output.js';
import { initProject } from './init.js';
import { ALL_CODES, renderPage } from '../diagnostics/pages.js';
import { closest } from '../diagnostics/closest.js';
import { COMMANDS, HELP, checkOptions, commandHelp, parse } from './command-line.js';
import { EXIT, NoSchemaError, quietIo, report, resolveInputs } from './command-support.js';
import { generate, generateOnce, outputFailed } from './generate-command.js';
import { iam, lint, plan, table, writeReport } from './report-commands.js';

export { UsageError, type CliIo } from '../command-io.js';
export { closest };

// The commands live in modules of their own: command-line.ts (options, commands, help),
// command-support.ts (what they share), generate-command.ts, report-commands.ts (lint, plan, report,
// table, iam), pull/pull-command.ts, diff, init, local, watch. The compiler (ts-morph), the schema
// loader and each command's own modules are imported when a command needs them, so --version, help
// and usage errors answer at once.

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
