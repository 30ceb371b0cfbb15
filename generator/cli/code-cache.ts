// V8's code cache for the CommonJS modules ddbgen loads (the compiler TypeScript, ts-morph, the
// schema transpiler): compiling typescript.js alone costs a new process a quarter to half a second,
// and the cache halves what loading it costs. On Node 22.1 and later this is Node's own
// module.enableCompileCache; on older Node, large CommonJS files are compiled through vm.Script
// with the cached data of an earlier run, which is written when the process exits. The cache lives
// in node_modules/.cache/ddbgen/v8 of the project (a folder private to this user, never the
// system temp folder: a planted cache would be code run by ddbgen), one file per module keyed by a
// hash of its text, so a changed module never meets the code of its old text. It holds ddbgen's
// own dependencies, never the user's schema, so it does not change what any command outputs.

import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { projectCacheDir } from '../project-root.js';

/** Files smaller than this compile in a few milliseconds: reading and checking their cache would cost as much. */
const LARGE = 64 * 1024;

interface CjsModule {
  exports: unknown;
  filename: string;
  require(id: string): unknown;
  _compile(content: string, filename: string): unknown;
}

interface ModuleInternals {
  prototype: CjsModule;
  wrap(content: string): string;
  _resolveFilename(request: string, parent: CjsModule, isMain: boolean, options?: unknown): string;
  _resolveLookupPaths(request: string, parent: CjsModule): string[] | null;
  _extensions: unknown;
  _cache: unknown;
}

/** The code cache folder of the project holding `cwd`, or undefined (no package.json, or not private). */
export function codeCacheDir(cwd: string): string | undefined {
  return projectCacheDir(cwd, 'v8');
}

let enabled = false;

/** Turns the code cache on for this process (once; without a cache folder, nothing changes). */
export function enableCodeCache(cwd: string): void {
  if (enabled || process.env['DDBGEN_CODE_CACHE'] === '0') return;
  const dir = codeCacheDir(cwd);
  if (!dir) return;
  enabled = true;
  const native = (Module as unknown as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (native) {
    native(dir);
    return;
  }
  const internals = Module as unknown as ModuleInternals;
  const compile = internals.prototype._compile;
  const pending: Array<{ script: vm.Script; file: string }> = [];
  internals.prototype._compile = function (this: CjsModule, content: string, filename: string) {
    if (content.length < LARGE || !filename.includes(`${path.sep}node_modules${path.sep}`)) return compile.call(this, content, filename);
    const file = path.join(dir, `${createHash('sha256').update(filename).update('\0').update(content).digest('hex').slice(0, 40)}.v8`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(internals.wrap(content), { filename, ...(cachedData ? { cachedData } : {}) });
    if (!cachedData || script.cachedDataRejected) pending.push({ script, file });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    const module = this;
    const require = Object.assign((id: string) => module.require(id), {
      resolve: Object.assign((request: string, options?: unknown) => internals._resolveFilename(request, module, false, options), {
        paths: (request: string) => internals._resolveLookupPaths(request, module),
      }),
      main: (process as unknown as { mainModule?: unknown }).mainModule,
      extensions: internals._extensions,
      cache: internals._cache,
    });
    return wrapper.call(module.exports, module.exports, require, module, filename, path.dirname(filename));
  };
  // the code V8 compiled while the process ran (lazily compiled functions too) goes into the cache
  process.once('exit', () => {
    for (const { script, file } of pending) {
      try {
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        renameSync(temporary, file);
      } catch {
        // a cache that cannot be written costs the next run its compile, nothing else
      }
    }
  });
}
