// `ddbgen diff`: loads two versions of the schemas (two files, or the current files against a git
// ref), pairs tables by name, classifies every change (compare-tables.ts), places each at
// file:line:column, marks the ones the new schema acknowledges in `migrations`, and prints text,
// JSON or SARIF. With --emit-migration, writes the migration program for the changes that move
// stored keys (emit-migration.ts).

import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { formatDiagnostic } from '../diagnostics/diagnostic.js';
import { messages } from '../diagnostics/messages.js';
import { lintSarif } from '../lint/output.js';
import { loadSchemas, type SchemaTable } from '../load/load-schema.js';
import { packageVersion } from '../package-root.js';
import { emitMigrations } from './emit-migration.js';
import { KEY_CODEC_VERSION } from '../../templates/runtime/codec.js';
import { acknowledges, CHANGE_CLASSES, CLASS_LABEL, compareTables, type ChangeClass, type KeyCodecVersion, type SchemaChange } from './compare-tables.js';
import type { LocatedChange, TablePair } from './located-change.js';

export type { LocatedChange, TablePair } from './located-change.js';

export interface DiffIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

export interface DiffOptions {
  /** Schema files: [old, new], or with `base` the current files. */
  readonly files: readonly string[];
  readonly base?: string;
  /** The key codec version that wrote the stored items (default: the current one). */
  readonly oldCodec?: KeyCodecVersion;
}

/** A problem with the inputs that is not the schema's: one line (or a located diagnostic), then the exit code. */
export class DiffInputError extends Error {
  readonly exitCode: 1 | 2;
  readonly diagnostic: Diagnostic | undefined;
  constructor(message: string, exitCode: 1 | 2, diagnostic?: Diagnostic) {
    super(message);
    this.exitCode = exitCode;
    this.diagnostic = diagnostic;
  }
}

function git(cwd: string, args: readonly string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The schema at `file` as committed at `ref`, written beside it (so its relative imports and
 * "ddbgen" resolve as the current file's do) under a hidden name; `dispose` removes it.
 */
export function schemaAtRef(file: string, ref: string, cwd = process.cwd()): { file: string; display: string; dispose: () => void } {
  const dir = path.dirname(file);
  let top: string;
  try {
    top = git(dir, ['rev-parse', '--show-toplevel']).trim();
  } catch {
    throw new DiffInputError(`--base needs a git repository, and ${dir} is not in one`, 2);
  }
  try {
    git(dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new DiffInputError(`git ref "${ref}" does not exist (git rev-parse found no commit by that name)`, 2);
  }
  const relative = path.relative(top, file).split(path.sep).join('/');
  let text: string;
  try {
    text = git(dir, ['show', `${ref}:${relative}`]);
  } catch (error) {
    const reason = ((error as { stderr?: string }).stderr ?? '').trim().split('\n')[0]?.replace(/^fatal: /, '') || 'git show failed';
    const { message, fix } = messages.DDB229(relative, ref, reason);
    // placed at the current file, the one the ref lacks
    throw new DiffInputError(message, 1, { code: 'DDB229', severity: 'error', message, fix, target: `${ref}:${relative}`, file: path.relative(cwd, file) || file, line: 1, column: 1 });
  }
  const temp = path.join(dir, `.ddbgen-base-${process.pid}-${path.basename(file)}`);
  writeFileSync(temp, text);
  return { file: temp, display: `${ref}:${relative}`, dispose: () => rmSync(temp, { force: true }) };
}

/** Every change between paired tables, located, with acknowledgements applied and stale ones reported. */
export function diffPairs(pairs: readonly TablePair[], oldCodec: KeyCodecVersion = KEY_CODEC_VERSION): LocatedChange[] {
  const out: LocatedChange[] = [];
  // a removed table (`tables.<name>`) is acknowledged by any table of the new version: the one it was renamed to
  const removals = pairs.filter((p) => !p.after).map((p) => `tables.${p.before!.table.name}`);
  const acknowledgedAnywhere = (change: string) => pairs.some((p) => (p.after?.table.migrations ?? []).some((m) => acknowledges(m.change, change)));
  for (const { before, after } of pairs) {
    const name = (after ?? before)!.table.name;
    const place = (c: SchemaChange, where: SchemaTable) => {
      const located = where.place({ code: c.code, severity: 'info', message: '', fix: '', target: '', path: c.change ? c.change.split('.') : [] });
      return { file: located.file, line: located.line, column: located.column };
    };
    if (!before || !after) {
      const added = !before;
      const c: SchemaChange = { code: 'DDB227', class: added ? 'safe' : 'destructive', change: added ? '' : `tables.${name}`, ...messages.DDB227(name, added), ...(added ? {} : { removed: true }) };
      out.push({ ...c, table: name, target: name, acknowledged: !added && acknowledgedAnywhere(c.change), ...place({ ...c, change: '' }, (after ?? before)!) });
      continue;
    }
    const entries = after.table.migrations ?? [];
    const changes = compareTables(before.table, after.table, oldCodec);
    for (const c of changes) {
      out.push({ ...c, table: name, target: `${name}.${c.change}`, acknowledged: entries.some((m) => acknowledges(m.change, c.change)), ...place(c, c.removed ? before : after) });
    }
    entries.forEach((entry, i) => {
      if (changes.some((c) => acknowledges(entry.change, c.change)) || removals.some((r) => acknowledges(entry.change, r))) return;
      const located = after.place({ code: 'DDB228', severity: 'warn', ...messages.DDB228(entry.change), target: `${name}.migrations.${i}`, path: ['migrations'] });
      out.push({ code: 'DDB228', class: 'review', change: `migrations.${i}`, ...messages.DDB228(entry.change), table: name, target: located.target, acknowledged: true, file: located.file, line: located.line, column: located.column });
    });
  }
  return out;
}

/** Whether a change fails `--check`: anything not safe that the new schema does not acknowledge. */
export const blocking = (c: LocatedChange) => c.class !== 'safe' && !c.acknowledged;

/** A change as a diagnostic: under --check a blocking change is an error, else a warning; safe ones are info. */
function asDiagnostic(c: LocatedChange, check: boolean): Diagnostic {
  const label = `${CLASS_LABEL[c.class]}${c.acknowledged && c.code !== 'DDB228' ? ', acknowledged' : ''}`;
  return {
    code: c.code,
    severity: blocking(c) ? (check ? 'error' : 'warn') : c.code === 'DDB228' ? 'warn' : 'info',
    message: `[${label}] ${c.message}`,
    target: c.target,
    fix: c.fix,
    ...(c.file === undefined ? {} : { file: c.file, line: c.line ?? 1, column: c.column ?? 1 }),
  };
}

export function diffSummary(changes: readonly LocatedChange[]) {
  const byClass = Object.fromEntries(CHANGE_CLASSES.map((k) => [k, changes.filter((c) => c.class === k && c.code !== 'DDB228').length])) as Record<ChangeClass, number>;
  return { changes: changes.filter((c) => c.code !== 'DDB228').length, byClass, unacknowledged: changes.filter(blocking).length };
}

export function diffJson(changes: readonly LocatedChange[]) {
  return {
    changes: changes.map((c) => ({
      code: c.code,
      class: c.class,
      change: c.change,
      table: c.table,
      target: c.target,
      message: c.message,
      fix: c.fix,
      acknowledged: c.acknowledged,
      file: c.file ?? null,
      line: c.line ?? null,
      column: c.column ?? null,
    })),
    summary: diffSummary(changes),
  };
}

export function diffText(changes: readonly LocatedChange[], check = false): { report: string; summary: string } {
  const { changes: count, byClass, unacknowledged } = diffSummary(changes);
  const classes = CHANGE_CLASSES.filter((k) => byClass[k]).map((k) => `${byClass[k]} ${CLASS_LABEL[k]}`);
  return {
    report: changes.map((c) => `${formatDiagnostic(asDiagnostic(c, check))}\n`).join(''),
    summary: `ddbgen diff: ${count} change${count === 1 ? '' : 's'}${classes.length ? ` (${classes.join(', ')})` : ''}; ${unacknowledged} not safe and not acknowledged\n`,
  };
}

/** SARIF 2.1.0, as the lint prints it; each change's rule is its diff code. */
export function diffSarif(changes: readonly LocatedChange[], check = false) {
  return lintSarif(changes.map((c) => asDiagnostic(c, check)), packageVersion());
}

/** Pairs tables of the two loads by name (a table in one only is an addition or a removal). */
function pairTables(before: readonly SchemaTable[], after: readonly SchemaTable[]): TablePair[] {
  const names = [...new Set([...after, ...before].map((t) => t.table.name))];
  return names.map((name) => ({ before: before.find((t) => t.table.name === name), after: after.find((t) => t.table.name === name) }));
}

export interface DiffResult {
  readonly pairs: TablePair[];
  readonly changes: LocatedChange[];
  /** Problems loading either version (exit 1). */
  readonly diagnostics: Diagnostic[];
}

/** Loads both versions and classifies. Temporary files for `--base` are removed before it returns. */
export async function diffSchemas(cwd: string, options: DiffOptions): Promise<DiffResult> {
  const disposals: Array<() => void> = [];
  try {
    let oldFiles: string[];
    let newFiles: string[];
    const displays = new Map<string, string>();
    if (options.base !== undefined) {
      newFiles = options.files.map((f) => path.resolve(cwd, f));
      oldFiles = newFiles.map((f) => {
        if (!existsSync(f)) throw new DiffInputError(`schema ${path.relative(cwd, f) || f} does not exist`, 1);
        const at = schemaAtRef(f, options.base!, cwd);
        disposals.push(at.dispose);
        displays.set(path.relative(cwd, at.file) || at.file, at.display);
        return at.file;
      });
    } else {
      oldFiles = [path.resolve(cwd, options.files[0]!)];
      newFiles = [path.resolve(cwd, options.files[1]!)];
    }
    const before = await loadSchemas(oldFiles, cwd);
    const after = await loadSchemas(newFiles, cwd);
    const rename = <T extends { file?: string }>(x: T): T => (x.file !== undefined && displays.has(x.file) ? { ...x, file: displays.get(x.file) } : x);
    const diagnostics = [...before.diagnostics, ...after.diagnostics].map(rename).map((d) => ({ ...d, message: [...displays].reduce((m, [temp, shown]) => m.split(temp).join(shown), d.message) }));
    if (diagnostics.some((d) => d.severity === 'error')) return { pairs: [], changes: [], diagnostics };
    const pairs = pairTables(before.tables, after.tables);
    return { pairs, changes: diffPairs(pairs, options.oldCodec).map(rename), diagnostics };
  } finally {
    for (const dispose of disposals) dispose();
  }
}

/** The `diff` command: exit 0 (no blocking change, or no --check), 1 (--check found one, or a schema is invalid), 2 (usage). */
export async function diffCommand(io: DiffIo, files: readonly string[], values: { base?: string; format?: string; check?: boolean; 'emit-migration'?: string; 'old-codec'?: string }): Promise<number> {
  const usage = (message: string) => (io.stderr(`ddbgen: ${message}\n`), 2);
  const codecs = Array.from({ length: KEY_CODEC_VERSION }, (_, i) => String(i + 1));
  if (values['old-codec'] !== undefined && !codecs.includes(values['old-codec'])) return usage(`unknown --old-codec "${values['old-codec']}": key codec versions are ${codecs.join(' and ')}`);
  const oldCodec = Number(values['old-codec'] ?? KEY_CODEC_VERSION) as KeyCodecVersion;
  if (values.format !== undefined && !['text', 'json', 'sarif'].includes(values.format)) return usage(`unknown --format "${values.format}": use text, json or sarif`);
  if (values.base === undefined && files.length !== 2) return usage('diff takes two schema files (old, then new), or --base REF and the current schema files');
  if (values.base !== undefined && files.length === 0) return usage('diff --base REF needs the schema files to compare (or a ddbgen.config.ts naming them)');
  let result: DiffResult;
  try {
    result = await diffSchemas(io.cwd, { files, oldCodec, ...(values.base === undefined ? {} : { base: values.base }) });
  } catch (error) {
    if (!(error instanceof DiffInputError)) throw error;
    io.stderr(error.diagnostic ? `${formatDiagnostic(error.diagnostic)}\n` : `ddbgen: ${error.message}\n`);
    return error.exitCode;
  }
  for (const d of result.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  if (result.diagnostics.some((d) => d.severity === 'error')) return 1;
  const { changes } = result;
  if (values.format === 'json') io.stdout(`${JSON.stringify(diffJson(changes), null, 2)}\n`);
  else if (values.format === 'sarif') io.stdout(`${JSON.stringify(diffSarif(changes, values.check === true), null, 2)}\n`);
  else {
    const { report, summary } = diffText(changes, values.check === true);
    io.stderr(report);
    io.stdout(summary);
  }
  if (values['emit-migration'] !== undefined) {
    const written = emitMigrations(result.pairs, changes, path.resolve(io.cwd, values['emit-migration']), oldCodec);
    for (const file of written) io.stdout(`ddbgen: wrote ${path.relative(io.cwd, file) || file} (run it with npx tsx; see its header)\n`);
    if (!written.length) io.stdout('ddbgen: no change rewrites keys or needs a backfill; no migration written\n');
  }
  return values.check && changes.some(blocking) ? 1 : 0;
}
