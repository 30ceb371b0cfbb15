// The shape of a lint rule: an id from DESIGN.md §5, a name (its file), and a check over the IR
// and its key spaces that returns findings with a severity, a schema path and a fix.

import type { TableDef } from '../../dsl/ir.js';
import type { DiagnosticSeverity } from '../diagnostics/diagnostic.js';
import type { KeySpace } from '../model/load-model.js';
import type { ShardChange } from './describe.js';

export interface LintContext {
  readonly table: TableDef;
  readonly spaces: readonly KeySpace[];
}

export interface Finding {
  readonly severity: DiagnosticSeverity;
  /** Entity or edge the finding is about, for entity-level severity overrides. */
  readonly entity?: string;
  readonly path: readonly string[];
  readonly offset?: number;
  readonly message: string;
  readonly fix: string;
  /** The schema change the fix describes, when it is one (tests apply it and lint again). */
  readonly change?: ShardChange;
}

export interface LintRule {
  readonly id: string;
  readonly name: string;
  check(context: LintContext): Finding[];
}
