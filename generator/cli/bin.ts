#!/usr/bin/env node
// The `ddbgen` executable. `--version` is answered before the CLI (and so the compiler) is loaded.
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const manifest = new URL(import.meta.url.includes('/dist/') ? '../../../package.json' : '../../package.json', import.meta.url);
  process.stdout.write(`${(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version}\n`);
} else {
  // V8 lets a heap that allocates fast grow to several times what it holds after a collection;
  // generation makes and drops each module's structures, so a large schema's process reserved
  // about twice its live heap (a 500-entity run peaked at 502–509 MB; with growth bounded to a
  // quarter, 427–458 MB, for under a second more of 12). V8 reads it at each collection.
  setFlagsFromString('--heap-growing-percent=25');
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
