// Validates a table's IR and returns every problem at once (validate/check-table.ts), the names its
// output declares judged in full (emit/generated-names.ts: the emitters list the declarations when
// the screen of validate/name-rules.ts cannot decide). It lives above validate and emit because it
// joins them; the loader (load-schema.ts) screens names first and runs the emitters only when the
// screen cannot decide.

import type { TableDef } from '../../dsl/ir.js';
import type { PendingDiagnostic } from '../diagnostics/diagnostic.js';
import { nameProblems } from '../emit/generated-names.js';
import { checkTable } from '../validate/check-table.js';

export { DYNAMODB_NAME, unprintableText, type Report } from '../validate/check-table.js';

export function validateTable(table: TableDef): PendingDiagnostic[] {
  return checkTable(table, nameProblems);
}
