// What a ddbgen command is given to talk to its user (the CLI's streams and options, injected so
// tests run commands in process), and the error a command throws for arguments it cannot use. The
// CLI (cli/cli.ts) and the commands that live beside their layer (pull, local) share them.
import type * as nodeFs from 'node:fs';

/** The filesystem calls output writing makes; tests inject failures through it. */
export type OutputFs = Pick<
  typeof nodeFs,
  'existsSync' | 'lstatSync' | 'statSync' | 'readdirSync' | 'readFileSync' | 'readlinkSync' | 'writeFileSync' | 'mkdirSync' | 'linkSync' | 'copyFileSync' | 'symlinkSync' | 'renameSync' | 'rmSync' | 'chmodSync' | 'realpathSync'
>;

/** A command's streams and settings: the process's in `bin.ts`, a test's own in process. */
export interface CliIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** stderr is a terminal: progress lines, and code frames under diagnostics. */
  readonly interactive?: boolean;
  /** ANSI colours (a terminal, and no NO_COLOR). */
  readonly color?: boolean;
  /** --quiet: no status lines and no progress line. */
  readonly quiet?: boolean;
  /** The filesystem output is written through (default node:fs); tests inject failures here. */
  readonly fs?: OutputFs;
}

/** Arguments a command cannot use: one line and exit 2, with the command's help hinted. */
export class UsageError extends Error {
  /** The command whose usage applies, for the "ddbgen help <command>" hint. */
  readonly command: string | undefined;
  readonly suggestion: string | undefined;
  constructor(message: string, command?: string, suggestion?: string) {
    super(message);
    this.command = command;
    this.suggestion = suggestion;
  }
}
