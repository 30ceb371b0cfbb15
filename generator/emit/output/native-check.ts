// The type check of a table's generated files by TypeScript 7's native compiler (`tsgo`, from the
// optional dependency @typescript/native-preview), used when it is installed: the files are
// written to a private temporary folder laid out as under the output root, with a tsconfig holding
// the in-memory check's options and a package.json giving the output folder's module format, and
// tsgo's errors are read back in compileGenerated's form (`file:line message`). It checks the
// files in a fraction of the compiler API's time and memory, outside ddbgen's process, and for
// `emit: 'js'` writes the .js + .d.ts of the checked modules. Without it (or with
// DDBGEN_TYPE_CHECKER=typescript) type-check.ts checks and compiles them with the compiler API,
// re-checking only what a change can affect.

import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { ts } from 'ts-morph';
import { packageRoot } from '../../package-root.js';
import { keepFilesPrivate } from '../../project-root.js';

export interface NativeCompiler {
  /** The tsgo executable. */
  readonly exe: string;
  /** Its version, part of what a cached check depends on. */
  readonly version: string;
}

let found: NativeCompiler | null | undefined;

/** tsgo from @typescript/native-preview beside ddbgen, or undefined when it is not installed (or DDBGEN_TYPE_CHECKER=typescript). */
export function nativeCompiler(): NativeCompiler | undefined {
  if (process.env['DDBGEN_TYPE_CHECKER'] === 'typescript') return undefined;
  if (found === undefined) {
    try {
      const manifest = createRequire(path.join(packageRoot, 'package.json')).resolve('@typescript/native-preview/package.json');
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
      // the executable is in the platform's package, as the package's own launcher finds it
      const platform = createRequire(manifest).resolve(`@typescript/native-preview-${process.platform}-${process.arch}/package.json`);
      found = { exe: path.join(path.dirname(platform), 'lib', process.platform === 'win32' ? 'tsgo.exe' : 'tsgo'), version };
    } catch {
      found = null;
    }
  }
  return found ?? undefined;
}

/** The tsconfig spelling of the compiler options, or undefined when one of them has none here (then the compiler API checks). */
export function tsconfigOptions(options: ts.CompilerOptions, enums: { target: Record<number, string>; module: Record<number, string>; moduleResolution: Record<number, string> }): Record<string, unknown> | undefined {
  const json: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === 'boolean') json[name] = value;
    else if (name === 'target' || name === 'module' || name === 'moduleResolution') json[name] = enums[name][value as number]?.toLowerCase();
    else if (name === 'lib' && Array.isArray(value)) json[name] = (value as string[]).map((lib) => lib.replace(/^lib\./, '').replace(/\.d\.ts$/, ''));
    else if ((name === 'types' && Array.isArray(value)) || (name === 'paths' && typeof value === 'object')) json[name] = value;
    else return undefined;
    if (json[name] === undefined) return undefined;
  }
  return json;
}

/** A diagnostic line of `tsc --pretty false`: `file(line,column): error TSnnnn: message`, or `error TSnnnn: message` for the program. */
const DIAGNOSTIC = /^(?:(.+)\((\d+),\d+\): )?(error|warning|message) TS\d+: (.*)$/;

/** The files laid out for tsgo in a private temporary folder, with their tsconfig and package.json. */
interface Prepared {
  readonly dir: string;
  readonly args: readonly string[];
}

function prepare(files: ReadonlyMap<string, string>, options: Record<string, unknown>, relativeTo: string, format: 'esm' | 'cjs', docs = true): Prepared {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-check-'));
  const names: string[] = [];
  for (const [file, text] of files) {
    const name = path.relative(relativeTo, file);
    mkdirSync(path.join(dir, path.dirname(name)), { recursive: true });
    writeFileSync(path.join(dir, name), docs ? text : withoutDocComments(text));
    names.push(name.split(path.sep).join('/'));
  }
  return project(dir, options, names, format);
}

/** The folder's tsconfig (the options, the files by name) and package.json (the output folder's module format), private; tsgo's arguments for it. */
function project(dir: string, options: Record<string, unknown>, names: readonly string[], format: 'esm' | 'cjs'): Prepared {
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, type: format === 'esm' ? 'module' : 'commonjs' }), { mode: 0o600 });
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: names }), { mode: 0o600 });
  return { dir, args: ['-p', dir, '--pretty', 'false'] };
}

/** What a kept folder (prepareKept) holds besides the files checked. */
const LOCK_PREFIX = 'lock-';
const MANIFEST = 'files.json';
/** tsgo's build state, one per module format of the output folder (the same files are other modules in the other). */
const buildState = (format: 'esm' | 'cjs') => `check-${format}.tsbuildinfo`;
const BUILD_STATES: ReadonlySet<string> = new Set([buildState('esm'), buildState('cjs')]);

/** A process that may still hold a kept folder: `pid` runs, or could not be asked. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes a kept folder for this run, or says it is held (undefined): the run makes a lock file of
 * its own (`lock-<pid>-<random>`), then lists the folder, and holds it only where no other lock is
 * of a process that runs (one whose pid is not written yet counts for a minute). Of two runs that
 * try at once, each makes its file before it lists, so the later lister sees the other's and lets
 * go: never two holders (both may let go; each then checks in a temporary folder). A lock of a
 * process that has ended (a killed run) is removed. Nothing is ever taken from a running process.
 * Returns the lock file, which `release` removes.
 */
export function takeKeptFolder(dir: string): string | undefined {
  const own = path.join(dir, `${LOCK_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(own, String(process.pid), { flag: 'wx', mode: 0o600 });
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (!name.startsWith(LOCK_PREFIX) || file === own) continue;
      let held: boolean;
      try {
        const pid = Number(readFileSync(file, 'utf8'));
        held = Number.isInteger(pid) && pid > 0 ? running(pid) : Date.now() - statSync(file).mtimeMs < 60_000;
      } catch {
        continue; // removed meanwhile: its run let go
      }
      if (held) {
        rmSync(own, { force: true });
        return undefined;
      }
      rmSync(file, { force: true });
    }
    return own;
  } catch {
    rmSync(own, { force: true });
    return undefined;
  }
}

/** Text whose global declarations tsgo's build state does not follow (a change to one is not re-checked where it is used): such a set of files is checked afresh. */
const GLOBAL_DECLARATION = /^[ \t]*declare\s+(?:global|module)\b/m;

/**
 * Where a check is kept between runs (prepareKept): the folder, and what names each module's text
 * apart from its layout (generate's render keys, by absolute path: a module rendered from the same
 * input by the same ddbgen is the same code, laid out or not, so the text tsgo checked before its
 * layout stands for the laid-out text a later run takes from the cache). Files without one are
 * known by a hash of their text.
 */
export interface KeptCheck {
  readonly dir: string;
  readonly identities?: ReadonlyMap<string, string>;
}

/** What names each file a kept folder holds, as its last finished check wrote them (undefined: unknown). */
function readManifest(file: string): Record<string, string> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return Object.values(value).every((hash) => typeof hash === 'string') ? (value as Record<string, string>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * prepare, in a folder kept between runs (generate with its cache: `dir`, private to this user)
 * instead of a temporary one, with tsgo's build state (`incremental`): only the files whose
 * identity (KeptCheck) changed are written again, files no longer checked are removed, and tsgo
 * re-checks the files that changed and those whose imports' declarations did (an entity changed:
 * its module and the table-level modules that import it, not the other entities). The identities
 * of what the folder holds are written once tsgo has run, and removed while a run changes it, so
 * an interrupted run leaves a folder that the next one clears; tsgo itself re-reads every file and
 * trusts its build state only for texts whose hash it recorded (so a tsgo left running by a killed
 * run, which writes nothing but that state, cannot make a later answer wrong). Undefined when a
 * file declares globals (GLOBAL_DECLARATION), another run holds the folder (takeKeptFolder) or it
 * cannot be used: the check is made in a temporary folder then.
 */
function prepareKept({ dir, identities }: KeptCheck, files: ReadonlyMap<string, string>, options: Record<string, unknown>, relativeTo: string, format: 'esm' | 'cjs'): (Prepared & { readonly release: (ran: boolean) => void }) | undefined {
  if ([...files.values()].some((text) => GLOBAL_DECLARATION.test(text))) return undefined;
  const lock = takeKeptFolder(dir);
  if (lock === undefined) return undefined;
  const manifestFile = path.join(dir, MANIFEST);
  try {
    const before = readManifest(manifestFile);
    rmSync(manifestFile, { force: true });
    if (!before) for (const entry of readdirSync(dir)) if (!entry.startsWith(LOCK_PREFIX) && !BUILD_STATES.has(entry)) rmSync(path.join(dir, entry), { recursive: true, force: true });
    const after: Record<string, string> = {};
    for (const [file, text] of files) {
      const name = path.relative(relativeTo, file).split(path.sep).join('/');
      const identity = identities?.get(file);
      const checked = identity === undefined ? withoutDocComments(text) : undefined;
      after[name] = identity === undefined ? `text ${createHash('sha1').update(checked!).digest('hex')}` : `module ${identity}`;
      if (before?.[name] === after[name]) continue;
      mkdirSync(path.join(dir, path.dirname(name)), { recursive: true, mode: 0o700 });
      writeFileSync(path.join(dir, name), checked ?? withoutDocComments(text), { mode: 0o600 });
    }
    for (const name of Object.keys(before ?? {})) {
      const stale = path.resolve(dir, name);
      if (!(name in after) && stale.startsWith(dir + path.sep)) rmSync(stale, { force: true });
    }
    return {
      ...project(dir, { ...options, incremental: true, tsBuildInfoFile: `./${buildState(format)}` }, Object.keys(after), format),
      release: (ran) => {
        try {
          // a run that did not finish may have left its build state half written: the next starts without it
          if (ran) writeFileSync(manifestFile, JSON.stringify(after), { mode: 0o600 });
          else rmSync(path.join(dir, buildState(format)), { force: true });
          keepFilesPrivate(dir);
        } finally {
          rmSync(lock, { force: true });
        }
      },
    };
  } catch {
    rmSync(lock, { force: true });
    return undefined;
  }
}

/** A doc comment opening a line: what the emitters print above a declaration. */
const DOC_COMMENT = /^[ \t]*\/\*\*[\s\S]*?\*\//gm;

/**
 * The text with the doc comments that open a line reduced to their line breaks: types and lines
 * as before, without the comments tsgo would parse and keep (about a tenth of its memory on a
 * large output). The emitters print no template literal or line continuation, so no string can
 * open a line; and a check that finds an error is made again on the text as written.
 */
export function withoutDocComments(text: string): string {
  return text.replace(DOC_COMMENT, (comment) => comment.replace(/[^\n]+/g, ''));
}

/**
 * The soft memory limit tsgo runs under unless the environment sets one (GOMEMLIMIT, read by Go's
 * runtime): it collects sooner as its heap nears the limit, which a small check never reaches. The
 * check of a 500-entity output peaked at 446–524 MB without it and at 460–461 MB with it, for about
 * half a second more of a 12-second generation; a check that needs more than the limit still
 * runs, spending more of its time collecting.
 */
export const TSGO_MEMORY_LIMIT = '384MiB';

/** The environment tsgo runs in: this process's, with TSGO_MEMORY_LIMIT as GOMEMLIMIT unless it sets one. */
export function tsgoEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, GOMEMLIMIT: process.env['GOMEMLIMIT'] ?? TSGO_MEMORY_LIMIT };
}

/** What a tsgo run left. */
interface Run {
  readonly stdout: string;
  readonly status: number | null;
  /** It did not run or was killed. */
  readonly failed: boolean;
}

/** tsgo's errors in compileGenerated's words, or undefined when it could not run. */
function errorsOf(run: Run): string[] | undefined {
  if (run.failed || (run.status !== 0 && !DIAGNOSTIC.test(run.stdout.split('\n')[0] ?? ''))) return undefined;
  const errors = new Set<string>();
  let current: { where: string; message: string; error: boolean } | undefined;
  const flush = () => current?.error && errors.add(`${current.where} ${current.message}`);
  for (const line of run.stdout.split('\n')) {
    const match = DIAGNOSTIC.exec(line);
    if (match) {
      flush();
      current = { where: match[1] === undefined ? '' : `${match[1].split('/').join(path.sep)}:${match[2]}`, message: match[4]!, error: match[3] === 'error' };
    } else if (current && line !== '') current.message += `\n${line}`;
  }
  flush();
  return [...errors];
}

/** tsgo run to its end on a prepared folder. */
function runIn(compiler: NativeCompiler, { dir, args }: Prepared): Run {
  const run = spawnSync(compiler.exe, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28, env: tsgoEnvironment() });
  return { stdout: run.stdout ?? '', status: run.status, failed: run.error !== undefined || run.signal !== null };
}

/**
 * Type-checks the files (absolute path → text, all under `relativeTo`) with tsgo and returns the
 * errors as compileGenerated words them, relative to `relativeTo`; undefined when tsgo could not
 * run at all (the caller checks with the compiler API instead).
 */
export function checkNatively(compiler: NativeCompiler, files: ReadonlyMap<string, string>, options: Record<string, unknown>, relativeTo: string, format: 'esm' | 'cjs'): string[] | undefined {
  const prepared = prepare(files, options, relativeTo, format);
  try {
    return errorsOf(runIn(compiler, prepared));
  } finally {
    rmSync(prepared.dir, { recursive: true, force: true });
  }
}

/** How much TypeScript one emitting tsgo run reads: its memory grows with it (a 500-entity output at once took 600–740 MB). */
const EMIT_BATCH_CHARS = 2_000_000;

/** Where an emitting run writes, inside its temporary folder. */
const EMITTED = 'emitted';

/**
 * The .js and .d.ts of each module (absolute path → text, all under `relativeTo`; declaration
 * files among them are read, not emitted), by tsgo without a type check (`noCheck`, the caller
 * has checked them) or import resolution (`noResolve`): every module is written from its own text
 * alone, as isolatedDeclarations allows, so tsgo reads them in batches of bounded size, one after
 * another. Undefined when tsgo could not run or reported anything (the caller compiles with the
 * compiler API instead).
 */
export function emitNatively(compiler: NativeCompiler, files: ReadonlyMap<string, string>, options: Record<string, unknown>, relativeTo: string, format: 'esm' | 'cjs', batchChars = EMIT_BATCH_CHARS): Map<string, string> | undefined {
  const emitOptions = { ...options, noEmit: false, declaration: true, noCheck: true, noResolve: true, rootDir: '.', outDir: EMITTED };
  const emitted = new Map<string, string>();
  const batches: Array<Map<string, string>> = [];
  let size = Infinity;
  for (const [file, text] of files) {
    if (file.endsWith('.d.ts')) continue;
    if (size + text.length > batchChars) {
      batches.push(new Map());
      size = 0;
    }
    batches[batches.length - 1]!.set(file, text);
    size += text.length;
  }
  for (const batch of batches) {
    const prepared = prepare(batch, emitOptions, relativeTo, format);
    try {
      const run = runIn(compiler, prepared);
      if (run.failed || run.status !== 0) return undefined;
      for (const file of batch.keys()) {
        const stem = path.relative(relativeTo, file).replace(/\.ts$/, '');
        for (const extension of ['.js', '.d.ts']) emitted.set(path.join(relativeTo, stem + extension), readFileSync(path.join(prepared.dir, EMITTED, stem + extension), 'utf8'));
      }
    } catch {
      return undefined;
    } finally {
      rmSync(prepared.dir, { recursive: true, force: true });
    }
  }
  return emitted;
}

/** A check by tsgo under way (startNativeCheck). */
export interface NativeCheck {
  /** Blocks until it is done: the errors, as checkNatively gives them (undefined: tsgo could not run, or did not answer in time). */
  readonly wait: () => string[] | undefined;
  /** Its answer is not needed (it is let finish, and its folder removed, or a kept one released). */
  readonly cancel: () => void;
}

/** How long a waiting main thread trusts the worker: a check of thousands of files by tsgo takes seconds. */
const WORKER_PATIENCE_MS = 10 * 60 * 1000;

/**
 * The worker: runs tsgo and hands back what it printed, then wakes the main thread, whatever
 * happens. Plain JavaScript evaluated in the worker (no module of ddbgen to load there, so no
 * loader can fail it and leave the main thread waiting).
 */
const WORKER = `
const { spawnSync } = require('node:child_process');
const { workerData } = require('node:worker_threads');
const { exe, args, cwd, env, port, flag } = workerData;
let answer = { stdout: '', status: null, failed: true };
try {
  const run = spawnSync(exe, args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  answer = { stdout: run.stdout || '', status: run.status, failed: run.error !== undefined || run.signal !== null };
} finally {
  port.postMessage(answer);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}
`;

/**
 * checkNatively with tsgo running beside this thread (spawned from a worker thread), so it checks
 * while this thread goes on: generate lays the modules out meanwhile (layout moves lines, never
 * types, so the unformatted text has the formatted text's errors, at other lines) and checks it
 * without its doc comments (withoutDocComments). `wait` blocks until it is done without an
 * event-loop turn, so generation stays synchronous. With `kept`, the check is made in its folder
 * with tsgo's build state from the last run (prepareKept), when no other run holds it.
 */
export function startNativeCheck(compiler: NativeCompiler, files: ReadonlyMap<string, string>, options: Record<string, unknown>, relativeTo: string, format: 'esm' | 'cjs', keep?: KeptCheck): NativeCheck {
  const kept = keep === undefined ? undefined : prepareKept(keep, files, options, relativeTo, format);
  const { dir, args } = kept ?? prepare(files, options, relativeTo, format, false);
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER, { eval: true, workerData: { exe: compiler.exe, args, cwd: dir, env: tsgoEnvironment(), port: port2, flag }, transferList: [port2] });
  worker.unref();
  let answer: { value: string[] | undefined } | undefined;
  const done = (ran: boolean) => {
    port1.close();
    void worker.terminate();
    if (kept) kept.release(ran);
    else rmSync(dir, { recursive: true, force: true });
  };
  const check: NativeCheck = {
    wait: () => {
      if (!answer) {
        const woke = Atomics.wait(flag, 0, 0, WORKER_PATIENCE_MS) !== 'timed-out';
        const message = woke ? (receiveMessageOnPort(port1)?.message as Run | undefined) : undefined;
        answer = { value: message ? errorsOf(message) : undefined };
        done(answer.value !== undefined);
      }
      return answer.value;
    },
    // tsgo may still be reading the folder: it is removed once the check is done
    cancel: () => void check.wait(),
  };
  return check;
}
