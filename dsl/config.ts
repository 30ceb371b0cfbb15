// The shape of ddbgen.config.ts.

export interface DdbgenConfig {
  /** Schema modules, relative to the config file. */
  readonly schemas: readonly string[];
  /** Output root, relative to the config file. Default `out`. */
  readonly out?: string;
}

/**
 * Declares the project's schemas for `ddbgen` commands run without arguments.
 *
 * @example
 * // ddbgen.config.ts
 * export default defineConfig({ schemas: ['schema.ts'], out: 'src/generated' });
 */
export function defineConfig(config: DdbgenConfig): DdbgenConfig {
  return config;
}
