// Lint output formats: the JSON shape of DESIGN.md §5 and SARIF 2.1.0 for code-scanning uploads.

import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { summarize } from '../diagnostics/diagnostic.js';
import { rules } from './rules/index.js';
import { explanation, pageUri, renderPage } from '../diagnostics/pages.js';

export interface LintJsonDiagnostic {
  readonly rule: string;
  readonly severity: Diagnostic['severity'];
  readonly message: string;
  readonly file: string | null;
  readonly line: number | null;
  readonly column: number | null;
  readonly target: string;
  readonly fix: string;
}

export function lintJson(diagnostics: readonly Diagnostic[]) {
  return {
    diagnostics: diagnostics.map(
      (d): LintJsonDiagnostic => ({ rule: d.code, severity: d.severity, message: d.message, file: d.file ?? null, line: d.line ?? null, column: d.column ?? null, target: d.target, fix: d.fix }),
    ),
    summary: summarize(diagnostics),
  };
}

/** The rules of `ddbgen lint --observed` (observed.ts), which hold observed traffic against the declared. */
export const OBSERVED_RULES = [
  { id: 'HK101', name: 'observed-rate-over-declared' },
  { id: 'HK102', name: 'observed-hot-key' },
  { id: 'HK103', name: 'observed-gsi-write-cost' },
] as const;

const LEVEL = { error: 'error', warn: 'warning', info: 'note' } as const;

/** A SARIF 2.1.0 log with one run; paths are relative to the project root (%SRCROOT%). */
export function lintSarif(diagnostics: readonly Diagnostic[], version: string) {
  const known = [...rules, ...OBSERVED_RULES];
  const ruleIds = [...known.map((r) => r.id), ...new Set(diagnostics.map((d) => d.code).filter((c) => !known.some((r) => r.id === c)))];
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'ddbgen',
            version,
            informationUri: 'https://www.npmjs.com/package/ddbgen',
            rules: ruleIds.map((id) => {
              const rule = known.find((r) => r.id === id);
              const page = explanation(id);
              return {
                id,
                name: rule?.name ?? 'schema-validation',
                shortDescription: { text: page ? `${id}: ${page.title}` : rule ? `${id} ${rule.name.replace(/-/g, ' ')}` : `${id} schema validation` },
                ...(page ? { fullDescription: { text: page.why }, help: { text: `Fix: ${page.fix}`, markdown: renderPage(id)! }, helpUri: pageUri(id, version) } : {}),
              };
            }),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: './' } },
        results: diagnostics.map((d) => ({
          ruleId: d.code,
          ruleIndex: ruleIds.indexOf(d.code),
          level: LEVEL[d.severity],
          message: { text: `${d.message}. Fix: ${d.fix}` },
          locations: [
            {
              ...(d.file ? { physicalLocation: { artifactLocation: { uri: d.file.split('\\').join('/'), uriBaseId: '%SRCROOT%' }, region: { startLine: d.line ?? 1, startColumn: d.column ?? 1 } } } : {}),
              logicalLocations: [{ fullyQualifiedName: d.target, kind: 'member' }],
            },
          ],
          properties: { fix: d.fix, target: d.target },
        })),
      },
    ],
  };
}
