// The one diagnostic shape shared by validation (DDB codes) and the lint (HK rules), and its
// text rendering: `file:line:column - error DDB030: message`, the format editors and CI parse.

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

export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${d.file}:${d.line ?? 1}:${d.column ?? 1} - ` : '';
  return `${where}${LABEL[d.severity]} ${d.code}: ${d.message}\n    at ${d.target}\n    fix: ${d.fix}`;
}

export function summarize(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number; infos: number } {
  return {
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warn').length,
    infos: diagnostics.filter((d) => d.severity === 'info').length,
  };
}
