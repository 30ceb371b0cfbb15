// ddbgen.config.{ts,mts,cts,js,mjs,cjs}: found by searching upward from the current folder to the
// project root (the nearest package.json or version-control root), loaded without a build step;
// `schemas` entries may be globs (relative to the config's folder).

import { existsSync, readFileSync } from 'node:fs';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { messages } from '../diagnostics/messages.js';
import path from 'node:path';
import type { DdbgenConfig } from '../../dsl/config.js';
import { isProjectBoundary } from '../project-root.js';

/** The file `ddbgen init` writes. */
export const CONFIG_FILE = 'ddbgen.config.ts';
/** The names a config may have, in the order they are looked for in each folder. */
export const CONFIG_FILES = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].map((ext) => `ddbgen.config.${ext}`);

/** A config that cannot be used; `diagnostics`, when given, place the problems at file:line:column. */
export class ConfigError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(message: string, diagnostics: readonly Diagnostic[] = []) {
    super(message);
    this.diagnostics = diagnostics;
  }
}

const CONFIG_KEYS = ['schemas', 'out', 'emit', 'lint'];

/** line:column of the first string literal `text` in `source` (the config's own text). */
function literalLocation(source: string, text: string): { line: number; column: number } {
  const found = [`'${text}'`, `"${text}"`, `\`${text}\``].map((quoted) => source.indexOf(quoted)).filter((i) => i >= 0);
  const at = found.length ? Math.min(...found) : 0;
  const before = source.slice(0, at).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

export function findConfig(from: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const candidate = CONFIG_FILES.map((name) => path.join(dir, name)).find((file) => existsSync(file));
    if (candidate) return candidate;
    if (isProjectBoundary(dir) || path.dirname(dir) === dir) return undefined;
  }
}

export async function loadConfig(file: string, cwd = process.cwd()): Promise<DdbgenConfig> {
  let config: unknown;
  try {
    // the loader and the glob matcher load only when a config is used (help and usage errors stay fast)
    const { schemaImporter } = await import('../load/load-schema.js');
    config = await schemaImporter(file).import(file, { default: true });
  } catch (error) {
    throw new ConfigError(`cannot load ${file}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const schemas = (config as { schemas?: unknown } | undefined)?.schemas;
  if (!Array.isArray(schemas) || schemas.length === 0 || !schemas.every((s) => typeof s === 'string')) {
    throw new ConfigError(`${file}: the default export needs schemas: ['path/to/schema.ts', …]`);
  }
  const unknown = Object.keys(config as object).filter((key) => !CONFIG_KEYS.includes(key));
  if (unknown.length) throw new ConfigError(`${file}: unknown key${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => `"${k}"`).join(', ')}; a config has ${CONFIG_KEYS.join(', ')}`);
  // the glob matcher loads only when a schema entry has a character a glob could use
  const { globSync, isDynamicPattern } = schemas.some((schema: string) => /[*?[\]{}()!+@\\]/.test(schema)) ? await import('tinyglobby') : { globSync: () => [], isDynamicPattern: () => false };
  const missing = schemas.filter((schema: string) => !isDynamicPattern(schema) && !existsSync(path.resolve(path.dirname(file), schema)));
  if (missing.length) {
    const source = readFileSync(file, 'utf8');
    const display = path.relative(cwd, file) || file;
    throw new ConfigError(
      `${file}: names schemas that do not exist`,
      missing.map((schema) => ({ code: 'DDB001', severity: 'error', ...messages.DDB001(schema, `no such file (named in ${path.basename(file)}, relative to its folder)`), target: `${path.basename(file)}.schemas`, file: display, ...literalLocation(source, schema) })),
    );
  }
  const base = path.dirname(file);
  const expanded = schemas.flatMap((pattern: string) => {
    if (!isDynamicPattern(pattern)) return [pattern];
    const matches = globSync(pattern, { cwd: base, onlyFiles: true }).sort();
    if (!matches.length) throw new ConfigError(`${file}: schemas pattern "${pattern}" matches no file in ${base}`);
    return matches;
  });
  const out = (config as { out?: unknown }).out;
  if (out !== undefined && typeof out !== 'string') throw new ConfigError(`${file}: out must be a folder path string`);
  const emit = (config as { emit?: unknown }).emit;
  if (emit !== undefined && emit !== 'ts' && emit !== 'js') throw new ConfigError(`${file}: emit must be 'ts' or 'js', not ${JSON.stringify(emit)}`);
  const lint = (config as { lint?: unknown }).lint;
  if (lint !== undefined) {
    const { RULE_IDS } = await import('../lint/rules/index.js');
    if (typeof lint !== 'object' || lint === null) throw new ConfigError(`${file}: lint must be an object of rule severities, e.g. { HK012: 'info' }`);
    for (const [rule, severity] of Object.entries(lint)) {
      if (!RULE_IDS.includes(rule)) throw new ConfigError(`${file}: lint names rule "${rule}", which does not exist (rules are ${RULE_IDS[0]}–${RULE_IDS[RULE_IDS.length - 1]})`);
      if (!['off', 'info', 'warn', 'error'].includes(severity as string)) throw new ConfigError(`${file}: lint severity "${String(severity)}" for ${rule} is not off, info, warn or error`);
    }
  }
  return { schemas: [...new Set(expanded)], ...(out === undefined ? {} : { out }), ...(emit === undefined ? {} : { emit }), ...(lint === undefined ? {} : { lint: lint as DdbgenConfig['lint'] }) };
}
