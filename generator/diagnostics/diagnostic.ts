// The one diagnostic shape shared by validation (DDB codes) and the lint (HK rules), and its
// text rendering: `file:line:column - error DDB030: message` (tsc's own layout; docs/guide/cli.md gives the VS
// Code problem matcher, as the built-in $tsc one takes only TS codes), with colour and a code frame
// on a terminal.

export type DiagnosticSeverity = 'error' | 'warn' | 'info';

export interface Diagnostic {
  /** Stable code: `DDB0xx` for schema validation, `HKxxx` for the hot-key lint. */
  readonly code: string;
  readonly severity: DiagnosticSeverity;
  readonly message: string;
  /** Schema path of the offending declaration, e.g. `Social.entities.Article.key.sk`. */
  readonly target: string;
  /** A concrete suggestion. */
  readonly fix: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

/** A diagnostic before its source location is known: `path` is relative to the table's declaration. */
export interface PendingDiagnostic extends Omit<Diagnostic, 'file' | 'line' | 'column'> {
  readonly path: readonly string[];
  /** Characters into the string literal at `path`, to point at a placeholder. */
  readonly offset?: number;
}

const LABEL: Record<DiagnosticSeverity, string> = { error: 'error', warn: 'warning', info: 'info' };

const SGR = { red: 31, yellow: 33, blue: 34, cyan: 36, grey: 90, bold: 1 } as const;
const COLOR: Record<DiagnosticSeverity, keyof typeof SGR> = { error: 'red', warn: 'yellow', info: 'blue' };

export interface DiagnosticStyle {
  /** ANSI colours (a terminal without NO_COLOR). */
  readonly color?: boolean;
  /** The schema file's text, for a code frame under the message; absent: no frame. */
  readonly source?: string;
}

/** The offending line with its neighbours and a caret under the column, like tsc's pretty output. */
function codeFrame(source: string, line: number, column: number, paint: (style: keyof typeof SGR, text: string) => string): string {
  const lines = source.split(/\r?\n/);
  const first = Math.max(1, line - 1);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  const rows: string[] = [];
  for (let n = first; n <= last; n++) {
    rows.push(`${paint('grey', `${String(n).padStart(width)} |`)} ${lines[n - 1]}`);
    if (n === line) rows.push(`${paint('grey', `${' '.repeat(width)} |`)} ${' '.repeat(Math.max(0, column - 1))}${paint('red', '^')}`);
  }
  return rows.join('\n');
}

export function formatDiagnostic(d: Diagnostic, style: DiagnosticStyle = {}): string {
  const paint = (name: keyof typeof SGR, text: string) => (style.color ? `\x1b[${SGR[name]}m${text}\x1b[0m` : text);
  const where = d.file ? `${paint('cyan', d.file)}:${paint('yellow', String(d.line ?? 1))}:${paint('yellow', String(d.column ?? 1))} - ` : '';
  const frame = style.source !== undefined && d.line !== undefined ? `\n${codeFrame(style.source, d.line, d.column ?? 1, paint)}` : '';
  return `${where}${paint(COLOR[d.severity], LABEL[d.severity])} ${paint('grey', `${d.code}:`)} ${d.message}${frame}\n    at ${d.target}\n    fix: ${d.fix}`;
}

export function summarize(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number; infos: number } {
  return {
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warn').length,
    infos: diagnostics.filter((d) => d.severity === 'info').length,
  };
}
