// Locates ddbgen's own package folder, whether running from source (tsx) or from dist/.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'ddbgen') return dir;
    if (path.dirname(dir) === dir) throw new Error(`ddbgen: cannot find its package.json above ${start}`);
  }
}

export const packageRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)));

/** The runtime helpers compiled when ddbgen is built (compile-runtime.ts): dist/runtime. */
export const compiledRuntimeDir = path.join(packageRoot, 'dist', 'runtime');

/** True when this code runs from TypeScript sources rather than the built dist/. */
export const runningFromSource = fileURLToPath(import.meta.url).endsWith('.ts');

export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}
