#!/usr/bin/env node
// The `ddbgen` executable. `--version` is answered before the CLI (and so the compiler) is loaded,
// and `ddbgen local` starts without it.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
// `ddbgen local` with plain arguments starts the server without loading the rest of the CLI (a dev
// server and a test set-up wait for it); anything else goes through the CLI below
const local = args[0] === 'local' ? await import('../local/local-command.js') : undefined;
const plainLocal = local?.plainLocalOptions(args.slice(1));
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const manifest = new URL(import.meta.url.includes('/dist/') ? '../../../package.json' : '../../package.json', import.meta.url);
  process.stdout.write(`${(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version}\n`);
} else if (local && plainLocal) {
  process.exitCode = await local.localCommand({ cwd: process.cwd(), stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) }, plainLocal);
} else {
  // before anything large is loaded: V8's code cache for the compiler and the transpiler (code-cache.ts)
  const { enableCodeCache } = await import('./code-cache.js');
  enableCodeCache(process.cwd());
  const { main } = await import('./cli.js');
  const interactive = process.stderr.isTTY === true;
  process.exitCode = await main(args, {
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    interactive,
    color: interactive && !process.env['NO_COLOR'] && process.env['TERM'] !== 'dumb',
  });
}
