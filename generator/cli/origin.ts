// The "regenerate with" command in each generated file's header. It is canonical for the table:
// built from that table's own schema file (or the config it came from), the output root and the
// emit kind, all as seen from the project root, so the same output gets the same header whichever
// other schemas were generated with it, in whatever order, from whichever folder of the project,
// and with absolute or relative paths; `generate --check` then compares like with like.

import path from 'node:path';
import type { EmitKind } from '../emit/context.js';

/** Where a table's output came from: one named schema file, or a config (undefined: the one found from the project root). */
export type Source = { readonly schema: string } | { readonly config: string | undefined };

export interface CommandInputs {
  /** The project root: the command is written to be run there. */
  readonly root: string;
  readonly source: Source;
  /** The output root, and the one used when --out is not given. */
  readonly out: string;
  readonly defaultOut: string;
  /** The emit kind, and the one used when --emit is not given. */
  readonly emit: EmitKind;
  readonly defaultEmit: EmitKind;
}

/** `file` as written in a command run at `root`: relative with `/` inside it, absolute outside it. */
export function projectPath(root: string, file: string): string {
  const relative = path.relative(root, file);
  if (relative === '') return '.';
  const outside = relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  return outside ? path.resolve(file) : relative.split(path.sep).join('/');
}

/** One word for a POSIX shell, quoted only when it needs to be. */
function shellWord(word: string): string {
  return /^[\w./@:=+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `npx ddbgen generate …`: the schema or config, then --out and --emit only where they differ from what is used without them. */
export function regenerateCommand(inputs: CommandInputs): string {
  const { root, source } = inputs;
  const args =
    'schema' in source ? [projectPath(root, source.schema)] : source.config === undefined ? [] : ['-c', projectPath(root, source.config)];
  if (path.resolve(inputs.out) !== path.resolve(inputs.defaultOut)) args.push('--out', projectPath(root, inputs.out));
  if (inputs.emit !== inputs.defaultEmit) args.push('--emit', inputs.emit);
  return ['npx ddbgen generate', ...args.map(shellWord)].join(' ');
}
