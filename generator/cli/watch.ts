// `ddbgen generate --watch`: regenerate when a schema, a module it imports from the same folders, or
// the config changes; debounced; a broken save reports its problems and keeps the last good output
// (generation writes nothing unless everything is valid); Ctrl-C stops cleanly.

import { watch as watchFiles, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { CliIo, Inputs } from './cli.js';

const DEBOUNCE_MS = 150;

export async function watch(io: CliIo, inputs: Inputs, run: (inputs: Inputs) => Promise<number>, signal?: AbortSignal): Promise<number> {
  await run(inputs);
  const folders = [...new Set([...inputs.files, ...(inputs.config ? [inputs.config] : [])].map((f) => path.dirname(f)))];
  const outside = path.resolve(inputs.out) + path.sep;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  const trigger = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(async () => {
      if (running) {
        again = true;
        return;
      }
      io.stderr(`ddbgen: change detected, regenerating\n`);
      running = run(inputs);
      await running;
      running = undefined;
      if (again) {
        again = false;
        trigger();
      }
    }, DEBOUNCE_MS);
  };
  const watchers: FSWatcher[] = folders.map((folder) =>
    watchFiles(folder, { recursive: false }, (_event, name) => {
      if (!name || !/\.(c|m)?(t|j)s$/.test(String(name))) return;
      if (path.resolve(folder, String(name)).startsWith(outside)) return;
      trigger();
    }),
  );
  io.stderr(`ddbgen: watching ${folders.map((f) => path.relative(io.cwd, f) || '.').join(', ')} (Ctrl-C to stop)\n`);
  return new Promise<number>((resolve) => {
    const stop = () => {
      for (const w of watchers) w.close();
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
