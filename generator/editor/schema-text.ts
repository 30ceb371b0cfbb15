// What the editor's text of a schema module says before anything runs: its parse and whether a key
// template is half typed, whether it default-exports a table, where a key template sits and which
// attributes an entity declares (for completions mid-edit), the span a finding covers, and the
// diagnostics of an earlier text carried over an edit.

import { ts } from 'ts-morph';
import type { EditorDiagnostic, TextEdit } from './editor-answers.js';

/** The line starts of a text, for line:column → offset. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** The span a diagnostic at `offset` covers: a placeholder `<…>`, a string literal, a word, or one character; always inside the text. */
export function spanAt(text: string, offset: number): { start: number; length: number } {
  const start = Math.max(0, Math.min(offset, text.length));
  const c = text[start];
  let end = start + (start < text.length ? 1 : 0);
  if (c === '<') {
    const close = text.indexOf('>', start);
    const line = text.indexOf('\n', start);
    if (close > 0 && (line < 0 || close < line)) end = close + 1;
  } else if (c === "'" || c === '"' || c === '`') {
    for (let i = start + 1; i < text.length && text[i] !== '\n'; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === c) {
        end = i + 1;
        break;
      }
    }
  } else if (c !== undefined && /[\w$]/.test(c)) {
    while (end < text.length && /[\w$]/.test(text[end]!)) end++;
  }
  return { start, length: end - start };
}

/** The TypeScript parse of a text (the compiler ts-morph bundles); its syntax errors, and whether a key template is half typed. */
export function parse(file: string, text: string): { source: ts.SourceFile; syntaxErrors: number; editing: boolean } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const syntaxErrors = ((source as unknown as { parseDiagnostics?: readonly unknown[] }).parseDiagnostics ?? []).length;
  let editing = false;
  const visit = (node: ts.Node): void => {
    if (editing) return;
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.text.includes('<')) {
      // a `<` with no `>` after it: the placeholder is being typed
      if (/<[^>]*$/.test(node.text)) editing = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { source, syntaxErrors, editing };
}

/** Whether the default export is `defineTable(…)` (directly, through a same-file constant, or an array of them). */
export function exportsTable(source: ts.SourceFile): boolean {
  const constants = new Map<string, ts.Expression>();
  let exported: ts.Expression | undefined;
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) constants.set(d.name.text, d.initializer);
    } else if (ts.isExportAssignment(statement) && !statement.isExportEquals) exported = statement.expression;
  }
  const isTable = (node: ts.Expression | undefined, depth = 0): boolean => {
    if (!node || depth > 10) return false;
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return isTable(node.expression, depth + 1);
    if (ts.isIdentifier(node)) return isTable(constants.get(node.text), depth + 1);
    if (ts.isArrayLiteralExpression(node)) return node.elements.length > 0 && node.elements.every((e) => isTable(e, depth + 1));
    if (!ts.isCallExpression(node)) return false;
    const callee = node.expression;
    return (ts.isIdentifier(callee) && callee.text === 'defineTable') || (ts.isPropertyAccessExpression(callee) && callee.name.text === 'defineTable');
  };
  return isTable(exported);
}

/** Whether a module's text default-exports defineTable(…) (the files ddbgen checks without a config naming them). */
export function declaresTable(file: string, text: string): boolean {
  return exportsTable(parse(file, text).source);
}

/** The property-name path from the module's top down to `node` (`['entities', 'Order', 'key', 'pk']`), through calls and arrays. */
function propertyPath(node: ts.Node): string[] {
  const names: string[] = [];
  for (let current: ts.Node | undefined = node; current; current = current.parent) {
    if (ts.isPropertyAssignment(current)) {
      const name = current.name;
      names.unshift(ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name) || ts.isNumericLiteral(name) ? name.text : name.getText());
    }
  }
  return names;
}

/** The string literal whose text holds `offset` (between its quotes, or after an unterminated one's opening quote), if any. */
function literalAt(source: ts.SourceFile, offset: number): ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | undefined {
  let found: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | undefined;
  const visit = (node: ts.Node): void => {
    const start = node.getStart(source);
    if (offset < start || offset > node.getEnd()) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const raw = node.getText(source);
      const terminated = raw.length > 1 && raw.endsWith(raw[0]!);
      if (offset > start && (offset < node.getEnd() || !terminated)) found = node;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Where a template string sits: its entity, and which key (`key.pk`, `indexes.byName.sk`). */
export interface TemplateSite {
  readonly literal: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral;
  readonly entity: string;
  /** `key` or `indexes.<name>`. */
  readonly keyPath: readonly string[];
  readonly part: 'pk' | 'sk';
  /** The table's index in an exported array (-1: one table), when known. */
}

export function templateSite(source: ts.SourceFile, offset: number): TemplateSite | undefined {
  const literal = literalAt(source, offset);
  if (!literal) return undefined;
  const names = propertyPath(literal);
  const at = names.lastIndexOf('entities');
  if (at < 0) return undefined;
  const [entity, ...rest] = names.slice(at + 1);
  const part = rest[rest.length - 1];
  if (!entity || (part !== 'pk' && part !== 'sk')) return undefined;
  const keyPath = rest.slice(0, -1);
  if (!(keyPath.length === 1 && keyPath[0] === 'key') && !(keyPath.length === 2 && keyPath[0] === 'indexes')) return undefined;
  return { literal, entity, keyPath, part };
}

/** The attributes an entity declares, read from the text (`name: t.kind(…)`) so that completions work mid-edit. */
export function attributesInText(source: ts.SourceFile, entity: string): Array<{ name: string; kind: string }> | undefined {
  let result: Array<{ name: string; kind: string }> | undefined;
  const visit = (node: ts.Node): void => {
    if (result) return;
    if (ts.isPropertyAssignment(node) && propertyPath(node).join('.').endsWith(`entities.${entity}.attributes`) && ts.isObjectLiteralExpression(node.initializer)) {
      result = node.initializer.properties.flatMap((p) => {
        if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) return [];
        const name = p.name.getText(source).replace(/^['"`]|['"`]$/g, '');
        const kind = /\bt\.(\w+)\(/.exec(ts.isPropertyAssignment(p) ? p.initializer.getText(source) : '')?.[1] ?? 'attribute';
        return [{ name, kind }];
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return result;
}

/**
 * Diagnostics of `before` carried over to `after`: the edit is the span between their common prefix
 * and suffix; diagnostics before it stay, those after it move by the length it added, and those
 * that touch it are dropped.
 */
export function shifted(diagnostics: readonly EditorDiagnostic[], before: string, after: string): EditorDiagnostic[] {
  let prefix = 0;
  const shortest = Math.min(before.length, after.length);
  while (prefix < shortest && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < shortest - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  const editEnd = before.length - suffix;
  const delta = after.length - before.length;
  return diagnostics.flatMap((d) => {
    if (d.start + d.length <= prefix && d.start + d.length <= after.length) return [d];
    if (d.start >= editEnd && d.start + delta >= 0 && d.start + delta + d.length <= after.length) return [{ ...d, start: d.start + delta }];
    return [];
  });
}

/** Offset of the default export, where findings about the module as a whole go. */
export function exportOffset(source: ts.SourceFile): number {
  const exported = source.statements.find((s) => ts.isExportAssignment(s));
  return exported ? exported.getStart(source) : 0;
}

/** Applies edits to a text (for tests, and the LSP's resolved actions): edits must not overlap. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => `${t.slice(0, e.start)}${e.newText}${t.slice(e.end)}`, text);
}
