// What one `generate` run leaves for the next, so a one-entity change re-renders one module and
// re-checks only what it can affect: each module's text under a hash of exactly what its emitter
// reads (and of ddbgen's own code), the compiler's build state, and the files it compiled. Kept in
// node_modules/.cache/ddbgen beside the nearest package.json (outside the output, never committed),
// written atomically; a cache that cannot be read is ignored, never trusted halfway.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot, packageVersion } from '../package-root.js';

export interface GenerationCache {
  /** Rendered module texts by the hash of their emitter's input. */
  readonly renders: Map<string, string>;
  /** The compiler's build state (tsbuildinfo text). */
  buildInfo?: string;
  /** A hash of every source, the compiler options, the SDK and the compiler the build state was made from. */
  sourcesHash?: string;
  /** For `emit: 'js'`: every compiled file of the last run, by path relative to the output root. */
  readonly compiled: Map<string, string>;
}

const FORMAT = 1;

export const emptyCache = (): GenerationCache => ({ renders: new Map(), compiled: new Map() });

let fingerprint: string | undefined;

/** A hash of ddbgen's version and of every source file of its generator, DSL and runtime: any change to ddbgen invalidates every cache. */
export function generatorFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash('sha256').update(`${FORMAT}\0${packageVersion()}\0`);
  const roots = ['generator', 'dsl', 'dist', path.join('templates', 'runtime')].map((d) => path.join(packageRoot, d)).filter((d) => existsSync(d));
  for (const root of roots) {
    const files = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|js|hbs)$/.test(e.name))
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
    for (const file of files) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  }
  return (fingerprint = hash.digest('hex'));
}

/** A hash of the files a compile starts from and of everything else it depends on (options, SDK and compiler versions). */
export function sourcesHash(files: ReadonlyMap<string, string>, context: unknown): string {
  const hash = createHash('sha256').update(JSON.stringify(context));
  for (const [file, text] of files) hash.update('\0').update(file).update('\0').update(text);
  return hash.digest('hex');
}

/** The hash under which a module rendered from `input` is cached. */
export function renderKey(module: string, input: unknown): string {
  return createHash('sha256').update(generatorFingerprint()).update('\0').update(module).update('\0').update(JSON.stringify(input)).digest('hex');
}

/** node_modules/.cache/ddbgen beside the nearest package.json above the output, else the system temp folder. */
export function cacheFile(outDir: string, folder: string, emit: string): string {
  let base = path.join(os.tmpdir(), 'ddbgen-cache');
  for (let dir = path.resolve(outDir); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) {
      base = path.join(dir, 'node_modules', '.cache', 'ddbgen');
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  const id = createHash('sha256').update(path.resolve(outDir, folder)).update('\0').update(emit).digest('hex').slice(0, 16);
  return path.join(base, `${folder}-${emit}-${id}.json`);
}

export function readCache(file: string): GenerationCache {
  try {
    if (!statSync(file).isFile()) return emptyCache();
    const data = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; fingerprint?: unknown; renders?: Record<string, string>; buildInfo?: string; sourcesHash?: string; compiled?: Record<string, string> };
    if (data.format !== FORMAT || data.fingerprint !== generatorFingerprint()) return emptyCache();
    return {
      renders: new Map(Object.entries(data.renders ?? {})),
      compiled: new Map(Object.entries(data.compiled ?? {})),
      ...(typeof data.buildInfo === 'string' && typeof data.sourcesHash === 'string' ? { buildInfo: data.buildInfo, sourcesHash: data.sourcesHash } : {}),
    };
  } catch {
    return emptyCache();
  }
}

export function writeCache(file: string, cache: GenerationCache): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(
      temporary,
      JSON.stringify({ format: FORMAT, fingerprint: generatorFingerprint(), renders: Object.fromEntries(cache.renders), buildInfo: cache.buildInfo, sourcesHash: cache.sourcesHash, compiled: Object.fromEntries(cache.compiled) }),
    );
    renameSync(temporary, file);
  } catch {
    // a cache that cannot be written only costs the next run its speed
  }
}
