// The user's project as ddbgen sees it: its root (the nearest package.json, where caches live in
// node_modules/.cache/ddbgen; never the system temp folder) and the boundary where the search for
// ddbgen.config.* stops (the nearest package.json or version-control root).

import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const VCS_ROOTS = ['.git', '.hg', '.svn', '.jj'];

/** The nearest folder at or above `from` holding a package.json, if any. */
export function packageRootOf(from: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** True when `dir` is a project root: it holds a package.json or a version-control folder. */
export function isProjectBoundary(dir: string): boolean {
  return existsSync(path.join(dir, 'package.json')) || VCS_ROOTS.some((name) => existsSync(path.join(dir, name)));
}

/** The project `from` is in: the nearest project root at or above it, else `from` itself. */
export function projectRootOf(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (isProjectBoundary(dir)) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from);
  }
}

/**
 * True when a cache folder or file is safe to read and write: a real folder or file (no symbolic
 * link), owned by this user, and not writable by others, so no other account can plant output.
 */
export function isPrivate(file: string): boolean {
  try {
    const stats = lstatSync(file);
    if (stats.isSymbolicLink() || !(stats.isDirectory() || stats.isFile())) return false;
    if (process.getuid !== undefined && stats.uid !== process.getuid()) return false;
    return (stats.mode & 0o002) === 0;
  } catch {
    return false;
  }
}

/**
 * `node_modules/.cache/ddbgen` (and `sub` inside it) of the project holding `from`, created when
 * missing; undefined when there is no package.json above `from` (no cache then) or when a folder on
 * the way is not private to this user.
 */
export function projectCacheDir(from: string, ...sub: string[]): string | undefined {
  const root = packageRootOf(from);
  if (root === undefined) return undefined;
  let dir = root;
  for (const name of ['node_modules', '.cache', 'ddbgen', ...sub]) {
    dir = path.join(dir, name);
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    // node_modules itself belongs to the package manager; from .cache on, every folder is checked
    if (name !== 'node_modules' && !isPrivate(dir)) return undefined;
  }
  return dir;
}

/**
 * Writes a file of a cache folder (created when missing, private) whole or not at all (a temporary
 * file beside it, renamed into place), readable by its owner alone. A file that cannot be written is left as it was: a cache
 * only costs the next run its speed.
 */
export function writeCacheFile(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/**
 * Makes the files of a cache folder private to this user (0600) where a tool wrote them with the
 * default mode (0644 under the usual umask): the folder is already private, and its files are kept
 * so too, as the generation cache writes its own. Symbolic links are left alone, never followed.
 */
export function keepFilesPrivate(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const stat = lstatSync(file);
      if (stat.isFile() && (stat.mode & 0o077) !== 0) chmodSync(file, 0o600);
    } catch {
      // gone meanwhile, or not ours: the cache folder's own checks refuse it next time
    }
  }
}
