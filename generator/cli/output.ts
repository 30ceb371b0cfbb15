// Writing generated files: only changed files are rewritten (each through a temporary file and a
// rename, so a reader never sees half a file), and files ddbgen wrote before but no longer
// generates are removed. Files without ddbgen's banner are never touched.

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BANNER } from '../emit/context.js';
import type { GeneratedFiles } from '../emit/generate.js';

export interface StaleFile {
  readonly file: string;
  readonly reason: 'missing' | 'changed' | 'no longer generated';
}

function listFiles(root: string, folder: string): string[] {
  const dir = path.join(root, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

function ownedLeftovers(root: string, files: GeneratedFiles): string[] {
  const folders = new Set([...files.keys()].map((f) => f.split('/')[0]!));
  return [...folders]
    .flatMap((folder) => listFiles(root, folder))
    .filter((file) => !files.has(file) && readFileSync(path.join(root, file), 'utf8').startsWith(BANNER));
}

/** Files whose content on disk differs from what would be generated. */
export function compareOutput(root: string, files: GeneratedFiles): StaleFile[] {
  const stale: StaleFile[] = [];
  for (const [file, text] of files) {
    const target = path.join(root, file);
    if (!existsSync(target)) stale.push({ file, reason: 'missing' });
    else if (readFileSync(target, 'utf8') !== text) stale.push({ file, reason: 'changed' });
  }
  for (const file of ownedLeftovers(root, files)) stale.push({ file, reason: 'no longer generated' });
  return stale.sort((a, b) => (a.file < b.file ? -1 : 1));
}

export function writeOutput(root: string, files: GeneratedFiles): { written: number; removed: number } {
  let written = 0;
  const leftovers = ownedLeftovers(root, files);
  for (const [file, text] of files) {
    const target = path.join(root, file);
    if (existsSync(target) && readFileSync(target, 'utf8') === text) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, target);
    written++;
  }
  for (const file of leftovers) rmSync(path.join(root, file));
  return { written, removed: leftovers.length };
}
