// What the editor engine answers with (editor-engine.ts), as the plugin, the language server and the
// analysis worker pass it on: diagnostics placed in the editor's text, quick fixes, completions and
// hovers, and the numbers editors give ddbgen's codes.

import type { TableDef } from '../../dsl/ir.js';
import type { DiagnosticSeverity } from '../diagnostics/diagnostic.js';
import { lintMessages } from '../diagnostics/messages.js';

/** A diagnostic placed in the editor's text: `start` and `length` in UTF-16 code units, inside the text. */
export interface EditorDiagnostic {
  readonly code: string;
  readonly severity: DiagnosticSeverity;
  readonly message: string;
  readonly fix: string;
  /** Schema path, e.g. `App.entities.Order.key.pk`. */
  readonly target: string;
  /** The code's page (what it reports, why, an example and the fix). */
  readonly docs: string;
  readonly start: number;
  readonly length: number;
}

export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

/** `ddbgen generate` for this schema, as the quick fix for stale output runs it. */
export interface GenerateCommand {
  readonly name: 'ddbgen.generate';
  readonly file: string;
}

/** A quick fix for one diagnostic: text edits, or a command. */
export interface EditorFix {
  readonly title: string;
  /** The codes of the diagnostics it fixes (one change can silence several rules at one key). */
  readonly codes: readonly string[];
  readonly start: number;
  readonly length: number;
  readonly edits?: readonly TextEdit[];
  readonly command?: GenerateCommand;
}

export interface Analysis {
  readonly file: string;
  readonly hash: string;
  readonly diagnostics: readonly EditorDiagnostic[];
  readonly fixes: readonly EditorFix[];
  /**
   * Why nothing was checked: the text does not parse, a key template is half typed, a newer text
   * came first, or loading the module took longer than `timeoutMs` (its worker was ended).
   */
  readonly skipped?: 'syntax' | 'editing' | 'superseded' | 'timeout';
  /** The tables the text declares (for hover and completions), when it loaded. */
  readonly tables: readonly TableDef[];
  /** Milliseconds the analysis took. */
  readonly took: number;
}

export interface EditorCompletion {
  readonly name: string;
  /** `attribute`, `shard` or `literal` (a segment other entities use). */
  readonly kind: 'attribute' | 'shard' | 'literal';
  /** The attribute's kind (`string`, `number 0..1000`), or the entities that use the literal. */
  readonly detail: string;
  readonly insertText: string;
  /** What the completion replaces (the partly typed name). */
  readonly start: number;
  readonly length: number;
}

export interface EditorHover {
  readonly start: number;
  readonly length: number;
  /** Markdown. */
  readonly markdown: string;
}

/** An editor's number for a code (TypeScript diagnostics carry numbers): DDB030 → 90030, HK001 → 91001. */
export function numericCode(code: string): number {
  const match = /^(DDB|HK)(\d{3})$/.exec(code);
  if (!match) return 90000;
  return (match[1] === 'DDB' ? 90000 : 91000) + Number(match[2]);
}

/** The code for an editor's number (numericCode's inverse), or undefined for other numbers. */
export function codeOfNumber(value: number): string | undefined {
  if (value >= 90000 && value < 91000) return `DDB${String(value - 90000).padStart(3, '0')}`;
  if (value >= 91000 && value < 92000) return `HK${String(value - 91000).padStart(3, '0')}`;
  return undefined;
}

/** The codes whose findings can have a quick fix (tsserver's supported code fixes list them, numbered). */
export const FIXABLE_CODES: readonly string[] = ['DDB030', 'DDB034', 'DDB090', ...Object.keys(lintMessages)];
