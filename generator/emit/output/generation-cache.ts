// What one `generate` run leaves for the next, so a one-entity change re-renders one module and
// re-checks only what it can affect: each module's text under a hash of exactly what its emitter
// reads (and of ddbgen's own code), the compiler's build state, and the files it compiled. Kept in
// node_modules/.cache/ddbgen beside the nearest package.json (outside the output, never committed;
// no package.json, no cache), written atomically and privately. What is read back is checked before
// use: a file another account could have written, a digest that does not match, or content that is
// not ddbgen output drops the whole cache, never trusted halfway.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot, packageVersion } from '../../package-root.js';
import { isPrivate, projectCacheDir, writeCacheFile } from '../../project-root.js';
import { BANNER } from '../context.js';

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

const FORMAT = 2;

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

/** What names one table's output in the cache: its folder, how it is emitted, and a hash of where it is. */
const outputId = (outDir: string, folder: string, emit: string) => `${folder}-${emit}-${createHash('sha256').update(path.resolve(outDir, folder)).update('\0').update(emit).digest('hex').slice(0, 16)}`;

/** The cache file of one table's output in node_modules/.cache/ddbgen of the project holding the output; undefined when there is no such project. */
export function cacheFile(outDir: string, folder: string, emit: string): string | undefined {
  const base = projectCacheDir(outDir);
  return base === undefined ? undefined : path.join(base, `${outputId(outDir, folder, emit)}.json`);
}

/** The folder (node_modules/.cache/ddbgen/check/…, private, created) where tsgo keeps one table's type check between runs (native-check.ts); undefined when there is no such project. */
export function checkStateDir(outDir: string, folder: string, emit: string): string | undefined {
  return projectCacheDir(outDir, 'check', outputId(outDir, folder, emit));
}

const digest = (body: string) => createHash('sha256').update(body).digest('hex');

const isTextRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((text) => typeof text === 'string' && text.startsWith(BANNER));

/** The cache in `file`, or an empty one when the file is missing, not private to this user, altered, or not ddbgen's. */
export function readCache(file: string): GenerationCache {
  try {
    if (!isPrivate(file) || !isPrivate(path.dirname(file))) return emptyCache();
    const text = readFileSync(file, 'utf8');
    const newline = text.indexOf('\n');
    const body = text.slice(newline + 1);
    if (newline !== 64 || text.slice(0, 64) !== digest(body)) return emptyCache();
    const data = JSON.parse(body) as { format?: unknown; fingerprint?: unknown; renders?: unknown; buildInfo?: unknown; sourcesHash?: unknown; compiled?: unknown };
    if (data.format !== FORMAT || data.fingerprint !== generatorFingerprint() || !isTextRecord(data.renders) || !isTextRecord(data.compiled)) return emptyCache();
    return {
      renders: new Map(Object.entries(data.renders)),
      compiled: new Map(Object.entries(data.compiled)),
      ...(typeof data.buildInfo === 'string' && typeof data.sourcesHash === 'string' ? { buildInfo: data.buildInfo, sourcesHash: data.sourcesHash } : {}),
    };
  } catch {
    return emptyCache();
  }
}

/** Writes the cache atomically, readable and writable by this user only, its body under a SHA-256 digest. */
export function writeCache(file: string, cache: GenerationCache): void {
  const body = JSON.stringify({ format: FORMAT, fingerprint: generatorFingerprint(), renders: Object.fromEntries(cache.renders), buildInfo: cache.buildInfo, sourcesHash: cache.sourcesHash, compiled: Object.fromEntries(cache.compiled) });
  writeCacheFile(file, `${digest(body)}\n${body}`);
}
