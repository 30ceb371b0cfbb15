// Runs every rule over a table and applies severity overrides (table-level `lint`, then the
// entity's own), returning diagnostics with the rule id as their code.

import type { Severity, TableDef } from '../../dsl/ir.js';
import type { PendingDiagnostic } from '../diagnostics/diagnostic.js';
import { keySpaces } from '../model/load-model.js';
import type { ShardChange } from './describe.js';
import { rules } from './rules/index.js';

/** Lints a table; `defaults` are project-wide severities (ddbgen.config.ts), below the table's and entities' own. */
export function lintTable(table: TableDef, defaults: Readonly<Record<string, Severity>> = {}): PendingDiagnostic[] {
  return lintFindings(table, defaults).map((f) => f.diagnostic);
}

/** lintTable's diagnostics, each with the schema change its fix describes when it is one (the editor's quick fix applies it). */
export function lintFindings(table: TableDef, defaults: Readonly<Record<string, Severity>> = {}): Array<{ diagnostic: PendingDiagnostic; change?: ShardChange }> {
  const context = { table, spaces: keySpaces(table) };
  const out: Array<{ diagnostic: PendingDiagnostic; change?: ShardChange }> = [];
  for (const rule of rules) {
    for (const finding of rule.check(context)) {
      const override = (finding.entity !== undefined ? table.entities[finding.entity]?.lint?.[rule.id] : undefined) ?? table.lint[rule.id] ?? defaults[rule.id];
      if (override === 'off') continue;
      const diagnostic: PendingDiagnostic = {
        code: rule.id,
        severity: override ?? finding.severity,
        message: finding.message,
        fix: finding.fix,
        target: [table.name, ...finding.path].join('.'),
        path: finding.path,
        ...(finding.offset === undefined ? {} : { offset: finding.offset }),
      };
      out.push({ diagnostic, ...(finding.change ? { change: finding.change } : {}) });
    }
  }
  return out;
}
