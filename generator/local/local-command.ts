// `ddbgen local [--port 8000] [--persist DIR]`: the local DynamoDB (local-server.ts) until Ctrl-C
// (SIGINT) or SIGTERM, which write the tables to --persist's folder before the process ends.

import path from 'node:path';
import type { CliIo } from '../cli/cli.js';
import { startLocal } from './local-server.js';

/** Serves until the process is told to stop (or `signal` aborts); resolves to the exit code. */
export async function localCommand(io: CliIo, options: { readonly port: number; readonly persist?: string }, signal?: AbortSignal): Promise<number> {
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
