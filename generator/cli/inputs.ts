// What `generate` works from, resolved from the arguments or ddbgen.config.ts (cli.ts), and watched
// for changes by `generate --watch` (watch.ts).

import type { Severity } from '../../dsl/ir.js';
import type { EmitKind } from '../emit/context.js';

/** The schema files, the output and the settings one run of `generate` uses. */
export interface Inputs {
  readonly files: string[];
  readonly out: string;
  /** The config file the inputs came from, if any (watched too). */
  readonly config?: string;
  /** Project-wide lint severities from the config. */
  readonly lint?: Readonly<Record<string, Severity>>;
  /** What generate writes: the flag's value, else the config's, else `ts`. */
  readonly emit: EmitKind;
  /** Reuse and keep the generation cache (off with --no-cache). */
  readonly cache: boolean;
  /** File headers: the project root their paths are relative to, what the table came from, and the output root and emit kind used without flags. */
  readonly header: { readonly root: string; readonly fromConfig?: { readonly config: string | undefined }; readonly defaultOut: string; readonly defaultEmit: EmitKind };
}
