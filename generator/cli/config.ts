// ddbgen.config.ts: found by searching upward from the current folder, loaded without a build step.

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DdbgenConfig } from '../../dsl/config.js';
import { schemaImporter } from '../load/load-schema.js';

export const CONFIG_FILE = 'ddbgen.config.ts';

export class ConfigError extends Error {}

export function findConfig(from: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export async function loadConfig(file: string): Promise<DdbgenConfig> {
  let config: unknown;
  try {
    config = await schemaImporter().import(file, { default: true });
  } catch (error) {
    throw new ConfigError(`cannot load ${file}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const schemas = (config as { schemas?: unknown } | undefined)?.schemas;
  if (!Array.isArray(schemas) || schemas.length === 0 || !schemas.every((s) => typeof s === 'string')) {
    throw new ConfigError(`${file}: the default export needs schemas: ['path/to/schema.ts', …]`);
  }
  const out = (config as { out?: unknown }).out;
  if (out !== undefined && typeof out !== 'string') throw new ConfigError(`${file}: out must be a folder path string`);
  return { schemas, ...(out === undefined ? {} : { out }) };
}
