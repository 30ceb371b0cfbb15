// Validates a table's IR and returns every problem at once (check-table.ts), the names its output
// declares judged in full (generated-names.ts: the emitters list the declarations when the screen
// of name-rules.ts cannot decide). The loader uses check-table.ts with the screen first, and loads
// this only when the screen cannot decide.

import type { TableDef } from '../../dsl/ir.js';
import type { PendingDiagnostic } from '../diagnostics/diagnostic.js';
import { checkTable } from './check-table.js';
import { nameProblems } from './generated-names.js';

export { DYNAMODB_NAME, unprintableText, type Report } from './check-table.js';

export function validateTable(table: TableDef): PendingDiagnostic[] {
  return checkTable(table, nameProblems);
}
