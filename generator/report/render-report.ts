// Renders the report's view model with templates/report.html.hbs into one self-contained HTML file.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import { packageRoot } from '../package-root.js';
import type { ReportView } from './view-model.js';

let compiled: HandlebarsTemplateDelegate<ReportView> | undefined;

export function renderReport(view: ReportView): string {
  compiled ??= Handlebars.compile<ReportView>(readFileSync(path.join(packageRoot, 'templates', 'report.html.hbs'), 'utf8'), { strict: true });
  return compiled(view);
}
