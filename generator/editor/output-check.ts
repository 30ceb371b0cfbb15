// The pieces of the editor's stale-output check (DDB090; editor-engine.ts runs it): modification
// stamps of files and of an output folder, the installed `ddbgen` command run in a child process
// (`generate --check`, and `generate` for the fix), and the summary of the files it found stale.

import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../package-root.js';

/** A file's modification time in milliseconds; -1 when it cannot be read. */
export const mtimeOf = (file: string) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
};

/** A stamp of a table's output folder: its files' names and modification times. */
export function folderStamp(folder: string): string {
  try {
    return readdirSync(folder, { recursive: true })
      .map((f) => `${String(f)}:${mtimeOf(path.join(folder, String(f)))}`)
      .sort()
      .join('|');
  } catch {
    return 'none';
  }
}

/** "2 files changed, 1 missing" from generate --check's `stale:` lines. */
export function summarizeStale(lines: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const reason = /\(([^)]*)\)$/.exec(line)?.[1] ?? 'changed';
    const key = /whose header/.test(reason) ? 'with another command in their header' : reason;
    counts.set(key, (counts.get(key) ?? 0) + (Number(/^(\d+) files?/.exec(reason)?.[1]) || 1));
  }
  return [...counts].map(([reason, n]) => `${n} file${n === 1 ? '' : 's'} ${reason}`).join(', ');
}

/** Runs the installed ddbgen command (this package's bin) in `cwd`. */
export function runDdbgen(args: readonly string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(packageRoot, 'bin', 'ddbgen.js'), ...args, '--quiet'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
