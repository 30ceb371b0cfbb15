// `ddbgen generate --watch`: regenerate when a file of the schemas' own import graph (the schemas and
// the local modules they import, followed transitively) or the config changes, and nothing else (an
// edit to the app's own code does not trigger it); debounced; each run stamped with the time; a broken
// save reports its problems and keeps the last good output (generation writes nothing unless
// everything is valid); Ctrl-C stops cleanly.

import { existsSync, readFileSync, statSync, watch as watchFiles, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import type { CliIo } from '../command-io.js';
import type { Inputs } from './inputs.js';

const DEBOUNCE_MS = 150;

/** The local file a relative import specifier names (TypeScript's `.js` → `.ts` mapping included), if it exists. */
function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(c|m)?js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`, `${stem}.tsx`, ...['ts', 'mts', 'js', 'mjs'].map((ext) => path.join(base, `index.${ext}`))];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

/** The files and their local imports, transitively; package imports (ddbgen, the SDK) are not followed. */
export function importGraph(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...entries];
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const imported of info.importedFiles) {
      const local = resolveLocal(file, imported.fileName);
      if (local) pending.push(local);
    }
  }
  return seen;
}

const clock = () => new Date().toTimeString().slice(0, 8);

export async function watch(io: CliIo, inputs: Inputs, run: (inputs: Inputs) => Promise<number>, signal?: AbortSignal): Promise<number> {
  await run(inputs);
  const roots = [...inputs.files, ...(inputs.config ? [inputs.config] : [])];
  let graph = importGraph(roots);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let changed = '';
  const trigger = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(async () => {
      if (running) {
        again = true;
        return;
      }
      io.stderr(`[${clock()}] ddbgen: ${changed} changed, regenerating\n`);
      running = run(inputs);
      await running;
      running = undefined;
      graph = importGraph(roots); // a save may add or drop an import
      if (again) {
        again = false;
        trigger();
      }
    }, DEBOUNCE_MS);
  };
  const watchers = new Map<string, FSWatcher>();
  const watchFolders = () => {
    for (const folder of new Set([...graph].map((f) => path.dirname(f)))) {
      if (watchers.has(folder)) continue;
      watchers.set(
        folder,
        watchFiles(folder, { recursive: false }, (_event, name) => {
          if (!name) return;
          const file = path.resolve(folder, String(name));
          if (!graph.has(file)) return;
          changed = path.relative(io.cwd, file) || file;
          trigger();
        }),
      );
    }
  };
  watchFolders();
  const refresh = setInterval(watchFolders, 1000);
  io.stderr(`[${clock()}] ddbgen: watching ${graph.size} file${graph.size === 1 ? '' : 's'} (the schemas, their imports and the config; Ctrl-C to stop)\n`);
  return new Promise<number>((resolve) => {
    const stop = () => {
      for (const w of watchers.values()) w.close();
      clearInterval(refresh);
      if (timer) clearTimeout(timer);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
