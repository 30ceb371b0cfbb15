// Writing generated output all or nothing. Each table's folder is assembled in a staging folder
// beside it (unchanged files and files without ddbgen's banner are hard-linked in, so they keep
// their identity and time stamps; changed files are written; files ddbgen wrote before but no longer
// generates are left out), then every table's folder is swapped in by renames. Any filesystem
// failure removes the staging folders, puts back what was already swapped, and surfaces as one
// OutputError: the previous output is untouched and no temporary file is left behind.

import * as nodeFs from 'node:fs';
import path from 'node:path';
import type { OutputFs } from '../../command-io.js';
import { BANNER, isGeneratedText } from '../context.js';
import type { GeneratedFiles } from '../generate.js';

export type { OutputFs } from '../../command-io.js';

/** A filesystem call failed; `target` is the output it was for. */
export class OutputError extends Error {
  readonly target: string;
  readonly failure: NodeJS.ErrnoException;
  readonly verb: 'read' | 'write';
  constructor(target: string, failure: NodeJS.ErrnoException, verb: 'read' | 'write' = 'write') {
    super(`cannot ${verb} ${target}: ${failure.message}`, { cause: failure });
    this.target = target;
    this.failure = failure;
    this.verb = verb;
  }
}

/** `EACCES: permission denied (open out/social/user.ts)`: Node's reason, with the path relative to `cwd`. */
export function describeFailure(failure: NodeJS.ErrnoException, cwd: string): string {
  const reason = /^[A-Z]+: ([^,]+)/.exec(failure.message)?.[1] ?? failure.message;
  const where = failure.path ? ` (${failure.syscall ? `${failure.syscall} ` : ''}${path.relative(cwd, failure.path) || '.'})` : '';
  return `${failure.code ?? 'error'}: ${reason}${where}`;
}

export interface StaleFile {
  readonly file: string;
  readonly reason: 'missing' | 'changed' | 'header names another command' | 'no longer generated';
}

/** A generated file's text without its header's origin line (the line after the banner). */
const withoutOrigin = (text: string) => (text.startsWith(`${BANNER}\n//`) ? `${BANNER}${text.slice(text.indexOf('\n', BANNER.length + 1))}` : text);

/** A generated file's text on disk, or undefined when there is none. */
function readIfFile(fs: OutputFs, file: string): string | undefined {
  try {
    return fs.statSync(file).isFile() ? fs.readFileSync(file, 'utf8') : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Every entry below `dir` (relative, `/`-separated), folders before their contents. */
function listEntries(fs: OutputFs, dir: string): Array<{ name: string; kind: 'file' | 'link' | 'folder' }> {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => ({
      name: path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
      kind: entry.isDirectory() ? ('folder' as const) : entry.isSymbolicLink() ? ('link' as const) : ('file' as const),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The table folders `files` go to (`social`). */
const foldersOf = (files: GeneratedFiles) => [...new Set([...files.keys()].map((f) => f.split('/')[0]!))];

/** Files ddbgen wrote in these folders before (they carry the banner) that it no longer generates. */
function ownedLeftovers(fs: OutputFs, root: string, files: GeneratedFiles): string[] {
  return foldersOf(files).flatMap((folder) => {
    const dir = path.join(root, folder);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return [];
    return listEntries(fs, dir)
      .filter((entry) => entry.kind === 'file')
      .map((entry) => `${folder}/${entry.name}`)
      .filter((file) => !files.has(file) && isGeneratedText(readIfFile(fs, path.join(root, file))));
  });
}

/** Files whose content on disk differs from what would be generated; OutputError when the output cannot be read. */
export function compareOutput(root: string, files: GeneratedFiles, fs: OutputFs = nodeFs): StaleFile[] {
  try {
    return staleFiles(root, files, fs);
  } catch (error) {
    throw new OutputError(path.join(root, foldersOf(files)[0] ?? ''), error as NodeJS.ErrnoException, 'read');
  }
}

function staleFiles(root: string, files: GeneratedFiles, fs: OutputFs): StaleFile[] {
  const stale: StaleFile[] = [];
  for (const [file, text] of files) {
    const current = readIfFile(fs, path.join(root, file));
    if (current === undefined) stale.push({ file, reason: 'missing' });
    else if (current !== text) stale.push({ file, reason: withoutOrigin(current) === withoutOrigin(text) ? 'header names another command' : 'changed' });
  }
  for (const file of ownedLeftovers(fs, root, files)) stale.push({ file, reason: 'no longer generated' });
  return stale.sort((a, b) => (a.file < b.file ? -1 : 1));
}

interface Staged {
  readonly folder: string;
  /** The table folder (its real path when it is a symbolic link). */
  readonly target: string;
  readonly staging: string;
  readonly exists: boolean;
  written: number;
  removed: number;
}

const unique = () => `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

/** Builds the new content of one table folder in a staging folder beside it (registered in `staged` first, so a failure cleans it up). */
function stage(fs: OutputFs, root: string, folder: string, files: GeneratedFiles, staged: Staged[]): void {
  const dir = path.join(root, folder);
  const exists = fs.existsSync(dir);
  if (exists && !fs.statSync(dir).isDirectory()) fs.readdirSync(dir); // fails with ENOTDIR, naming the file in the way
  const target = exists ? fs.realpathSync(dir) : dir;
  const entry: Staged = { folder, target, exists, staging: path.join(path.dirname(target), `.${path.basename(target)}.ddbgen-${unique()}`), written: 0, removed: 0 };
  fs.mkdirSync(entry.staging);
  staged.push(entry);
  const leftovers = new Set(ownedLeftovers(fs, root, files));
  entry.removed = leftovers.size;
  const fresh = new Map([...files].filter(([file]) => file.startsWith(`${folder}/`)).map(([file, text]) => [file.slice(folder.length + 1), text]));
  if (exists) {
    for (const { name, kind } of listEntries(fs, target)) {
      const from = path.join(target, name);
      const to = path.join(entry.staging, name);
      if (kind === 'folder') fs.mkdirSync(to, { recursive: true });
      else if (kind === 'link') fs.symlinkSync(fs.readlinkSync(from), to);
      else if (leftovers.has(`${folder}/${name}`)) continue;
      else if (!fresh.has(name) || readIfFile(fs, from) === fresh.get(name)) {
        // the user's own file, or a generated one that did not change: the very same file
        try {
          fs.linkSync(from, to);
        } catch {
          fs.copyFileSync(from, to);
        }
        fresh.delete(name);
      }
    }
  }
  for (const [name, text] of fresh) {
    fs.mkdirSync(path.dirname(path.join(entry.staging, name)), { recursive: true });
    fs.writeFileSync(path.join(entry.staging, name), text);
    entry.written++;
  }
  if (exists) fs.chmodSync(entry.staging, fs.statSync(target).mode & 0o7777);
}

/** Runs every step, even when one fails (putting things back must not stop half-way). */
function allOf(steps: ReadonlyArray<() => void>): void {
  for (const step of steps) {
    try {
      step();
    } catch {
      // the other steps still run
    }
  }
}

/**
 * Writes every table's files under `root`, all or nothing: folders whose content does not change
 * are not touched. Throws OutputError (the previous output intact, nothing left behind) when the
 * filesystem refuses.
 */
export function writeOutput(root: string, outputs: readonly GeneratedFiles[], fs: OutputFs = nodeFs): Array<{ written: number; removed: number }> {
  const staged: Staged[] = [];
  const swapped: Array<{ entry: Staged; backup: string | undefined }> = [];
  let step = root;
  try {
    if (fs.existsSync(root) && !fs.statSync(root).isDirectory()) fs.readdirSync(root); // fails with ENOTDIR: --out names a file
    fs.mkdirSync(root, { recursive: true });
    for (const files of outputs) {
      for (const folder of foldersOf(files)) {
        step = path.join(root, folder);
        stage(fs, root, folder, files, staged);
      }
    }
    for (const entry of staged) {
      step = path.join(root, entry.folder);
      if (entry.written === 0 && entry.removed === 0 && entry.exists) continue;
      const backup = entry.exists ? `${entry.staging}.previous` : undefined;
      if (backup) fs.renameSync(entry.target, backup);
      try {
        fs.renameSync(entry.staging, entry.target);
      } catch (error) {
        if (backup) fs.renameSync(backup, entry.target);
        throw error;
      }
      swapped.push({ entry, backup });
    }
  } catch (error) {
    // put each previous folder back; the new ones become staging folders, removed with the rest
    allOf(swapped.reverse().flatMap(({ entry, backup }) => [() => fs.renameSync(entry.target, entry.staging), ...(backup ? [() => fs.renameSync(backup, entry.target)] : [])]));
    allOf(staged.map((entry) => () => fs.rmSync(entry.staging, { recursive: true, force: true })));
    throw new OutputError(step, error as NodeJS.ErrnoException);
  }
  allOf([
    ...swapped.flatMap(({ backup }) => (backup ? [() => fs.rmSync(backup, { recursive: true, force: true })] : [])),
    ...staged.map((entry) => () => fs.rmSync(entry.staging, { recursive: true, force: true })),
  ]);
  const byFolder = new Map(staged.map((entry) => [entry.folder, entry]));
  return outputs.map((files) => {
    const mine = foldersOf(files).map((folder) => byFolder.get(folder)!);
    return { written: mine.reduce((n, e) => n + e.written, 0), removed: mine.reduce((n, e) => n + e.removed, 0) };
  });
}

/** True when `file` is an existing folder. */
export function isFolder(fs: OutputFs, file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** Writes one file through a temporary file beside it and a rename; OutputError (nothing left behind) when the filesystem refuses. */
export function writeFileAtomically(file: string, text: string, fs: OutputFs = nodeFs): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.ddbgen-${unique()}`);
  try {
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, file);
  } catch (error) {
    allOf([() => fs.rmSync(temporary, { force: true })]);
    throw new OutputError(file, error as NodeJS.ErrnoException);
  }
}
