// `ddbgen local [--port 8000] [--persist DIR]`: the local DynamoDB (local-server.ts) until Ctrl-C
// (SIGINT) or SIGTERM, which write the tables to --persist's folder before the process ends.

import path from 'node:path';
import type { CliIo } from '../command-io.js';
import { startLocal } from './local-server.js';

export interface LocalCommandOptions {
  readonly port: number;
  readonly persist?: string;
}

/**
 * The options of `ddbgen local …` when its arguments are plainly right (`--port N`, `--persist DIR`,
 * each at most once): the executable then starts the server without loading the rest of the CLI.
 * Anything else (help, a typo, a bad port) is undefined and left to the CLI, which words the error.
 */
export function plainLocalOptions(args: readonly string[]): LocalCommandOptions | undefined {
  const given = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const match = /^--(port|persist)(?:=(.*))?$/.exec(args[i]!);
    if (!match || given.has(match[1]!)) return undefined;
    const value = match[2] ?? args[++i];
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    given.set(match[1]!, value);
  }
  const port = given.has('port') ? Number(given.get('port')) : 8000;
  if (!/^\d+$/.test(given.get('port') ?? '8000') || port > 65535) return undefined;
  return { port, ...(given.has('persist') ? { persist: given.get('persist')! } : {}) };
}

/** Serves until the process is told to stop (or `signal` aborts); resolves to the exit code. */
export async function localCommand(io: CliIo, options: LocalCommandOptions, signal?: AbortSignal): Promise<number> {
  const started = performance.now();
  const persist = options.persist === undefined ? undefined : path.resolve(io.cwd, options.persist);
  const server = await startLocal({ port: options.port, ...(persist === undefined ? {} : { persist }) });
  const shown = persist === undefined ? undefined : path.relative(io.cwd, persist).startsWith('..') ? persist : path.relative(io.cwd, persist) || '.';
  const where = shown === undefined ? 'in memory' : `kept in ${shown}`;
  io.stdout(`ddbgen: local DynamoDB on ${server.endpoint} (${where}; ready in ${Math.round(performance.now() - started)} ms; Ctrl-C to stop)\n`);
  return new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.stop().then(
        () => resolve(0),
        (error: unknown) => {
          io.stderr(`ddbgen: the tables could not be written to ${persist}: ${error instanceof Error ? error.message : String(error)}\n`);
          resolve(1);
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
