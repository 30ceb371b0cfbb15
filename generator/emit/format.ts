// Lays out a generated module as a formatter would (dprint's TypeScript plugin): lines wrap at 100
// columns, two-space indents, single quotes, trailing commas where a list spans lines. The
// emitters print flat code; this is the only place that decides where lines break.

import { readFileSync } from 'node:fs';
import { createFromBuffer, type Formatter } from '@dprint/formatter';
import { getPath } from '@dprint/typescript';

export const LINE_WIDTH = 100;

let formatter: Formatter | undefined;

function load(): Formatter {
  if (!formatter) {
    formatter = createFromBuffer(readFileSync(getPath()));
    formatter.setConfig(
      { lineWidth: LINE_WIDTH, indentWidth: 2, useTabs: false, newLineKind: 'lf' },
      {
        quoteStyle: 'alwaysSingle',
        semiColons: 'prefer',
        'typeLiteral.separatorKind.singleLine': 'semiColon',
        'typeLiteral.separatorKind.multiLine': 'semiColon',
        trailingCommas: 'onlyMultiLine',
        'arrowFunction.useParentheses': 'force',
        operatorPosition: 'nextLine',
        'module.sortImportDeclarations': 'maintain',
        'importDeclaration.sortNamedImports': 'maintain',
        'exportDeclaration.sortNamedExports': 'maintain',
      },
    );
  }
  return formatter;
}

/** The module's text laid out (in `width` columns, the output's by default); `filePath` only names it in an error. */
export function formatModule(filePath: string, text: string, width = LINE_WIDTH): string {
  return load().formatText({ filePath, fileText: text, ...(width === LINE_WIDTH ? {} : { overrideConfig: { lineWidth: width } }) });
}
