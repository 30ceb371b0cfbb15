// The shape of ddbgen.config.ts.

import type { Severity } from './ir.js';

export interface DdbgenConfig {
  /** Schema modules, relative to the config file. */
  readonly schemas: readonly string[];
  /** Output root, relative to the config file. Default `out`. */
  readonly out?: string;
  /**
   * What `generate` writes: `'ts'` (default) TypeScript sources that the app compiles with the rest
   * of its code; `'js'` the same modules compiled and type-checked by ddbgen, as `.js` + `.d.ts`, so
   * the app's type check reads only declarations and plain Node can run them (ES modules when the
   * output folder's package.json says `"type": "module"`, else CommonJS).
   */
  readonly emit?: 'ts' | 'js';
  /** Project-wide lint severities, e.g. `{ HK012: 'info' }`; a table's or entity's own `lint` wins. */
  readonly lint?: Readonly<Record<string, Severity>>;
}

/**
 * Declares the project's schemas for `ddbgen` commands run without arguments.
 *
 * @example
 * // ddbgen.config.ts
 * export default defineConfig({ schemas: ['schema.ts'], out: 'src/generated', emit: 'js', lint: { HK012: 'info' } });
 */
export function defineConfig(config: DdbgenConfig): DdbgenConfig {
  return config;
}
