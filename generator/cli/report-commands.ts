// The commands that read a schema and report on it without generating code: `lint` (with
// --observed traffic), `plan`, `report` (the HTML report), `table` (the CloudFormation or
// CreateTable definition) and `iam`. Part of the CLI (cli.ts).

import path from 'node:path';
import { summarize, type Diagnostic } from '../diagnostics/diagnostic.js';
import { messages } from '../diagnostics/messages.js';
import type { SchemaTable } from '../load/load-schema.js';
import * as nodeFs from 'node:fs';
import { existsSync, readFileSync } from 'node:fs';
import { packageVersion } from '../package-root.js';
import { UsageError, type CliIo } from '../command-io.js';
import type { Inputs } from './inputs.js';
import { isFolder, writeFileAtomically } from '../emit/output/write-output.js';
import { formatError } from './command-line.js';
import { EXIT, lintTables, loadValid, resolveInputs, show } from './command-support.js';

/** The observed-traffic file of --observed, read; a file that cannot be read is shown (DDB310/DDB311) and undefined returned. */
async function readObservedFile(io: CliIo, file: string, command: string) {
  const { readObserved, ObservedFileError } = await import('../lint/observed-input.js');
  const full = path.resolve(io.cwd, file);
  if (!existsSync(full)) throw new UsageError(`--observed ${file}: no such file`, command);
  try {
    return readObserved(path.relative(io.cwd, full) || full, readFileSync(full, 'utf8'));
  } catch (error) {
    if (error instanceof ObservedFileError) {
      show(io, error.diagnostic);
      return undefined;
    }
    throw error;
  }
}

/** The tables observed traffic is about: those its table names name, else the only one. */
function observedTables<T extends { table: { name: string } }>(tables: readonly T[], names: readonly string[]): T[] {
  const named = tables.filter((t) => names.includes(t.table.name));
  return named.length ? named : tables.length === 1 ? [...tables] : [];
}

/** The lint against observed traffic, per observed table: placed diagnostics (HK101–HK103, the lint again), and the figures as text. */
async function lintObserved(tables: readonly SchemaTable[], observed: import('../lint/observed-input.js').ObservedTraffic, defaults: Inputs['lint']) {
  const [{ observedLint, observedText }, { locatorLoaded }] = await Promise.all([import('../lint/observed.js'), import('../load/load-schema.js')]);
  await locatorLoaded();
  const diagnostics: Diagnostic[] = [];
  const texts: string[] = [];
  const results: Array<{ table: SchemaTable['table']; result: ReturnType<typeof observedLint> }> = [];
  for (const t of observedTables(tables, observed.tables)) {
    const result = observedLint(t.table, observed, defaults);
    diagnostics.push(...result.diagnostics.map(t.place));
    for (const name of result.unknown) {
      const text = messages.DDB312(observed.file, name, [...Object.keys(t.table.entities), ...Object.keys(t.table.edges)].join(', '));
      diagnostics.push({ code: 'DDB312', severity: 'warn', message: text.message, fix: text.fix, target: 'observed', file: observed.file, line: 1, column: 1 });
    }
    texts.push(observedText(t.table, observed, result));
    results.push({ table: t.table, result });
  }
  return { diagnostics, text: texts.join('\n'), results };
}

export async function lint(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined, observedFile?: string): Promise<number> {
  if (format !== undefined && !['text', 'json', 'sarif'].includes(format)) throw formatError('lint', format, ['text', 'json', 'sarif']);
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const [{ loadSchemas }, { lintJson, lintSarif }] = await Promise.all([import('../load/load-schema.js'), import('../lint/output.js')]);
  const observed = observedFile === undefined ? undefined : await readObservedFile(io, observedFile, 'lint');
  if (observedFile !== undefined && observed === undefined) return EXIT.failed;
  const { tables, diagnostics: invalid } = await loadSchemas(inputs.files, io.cwd, { locate: 'lazy' });
  const held = observed === undefined || invalid.some((d) => d.severity === 'error') ? undefined : await lintObserved(tables, observed, inputs.lint);
  const diagnostics = [...invalid, ...(await lintTables(tables, inputs.lint)), ...(held?.diagnostics ?? [])];
  const counts = summarize(diagnostics);
  if (format === 'json') io.stdout(`${JSON.stringify(lintJson(diagnostics), null, 2)}\n`);
  else if (format === 'sarif') io.stdout(`${JSON.stringify(lintSarif(diagnostics, packageVersion()), null, 2)}\n`);
  else {
    for (const d of diagnostics) show(io, d);
    if (held) io.stdout(held.text);
    io.stdout(`ddbgen lint: ${counts.errors} error${counts.errors === 1 ? '' : 's'}, ${counts.warnings} warning${counts.warnings === 1 ? '' : 's'}, ${counts.infos} info\n`);
  }
  return counts.errors ? EXIT.failed : EXIT.ok;
}

export async function plan(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined): Promise<number> {
  if (format !== undefined && format !== 'text' && format !== 'json') throw formatError('plan', format, ['text', 'json']);
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const tables = await loadValid(io, inputs.files, true, 'lazy');
  if (!tables) return EXIT.failed;
  const { planTable, planText } = await import('../plan/capacity-plan.js');
  const plans = tables.map((t) => planTable(t.table));
  io.stdout(format === 'json' ? `${JSON.stringify(plans.length === 1 ? plans[0] : plans, null, 2)}\n` : `${plans.map(planText).join('\n\n')}\n`);
  return EXIT.ok;
}

export async function writeReport(io: CliIo, positionals: string[], out: string | undefined, config: string | undefined, observedFile?: string): Promise<number> {
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const observed = observedFile === undefined ? undefined : await readObservedFile(io, observedFile, 'report');
  if (observedFile !== undefined && observed === undefined) return EXIT.failed;
  const tables = await loadValid(io, inputs.files, true, 'lazy');
  if (!tables) return EXIT.failed;
  const [{ renderReport }, { reportView }] = await Promise.all([import('../report/render-report.js'), import('../report/view-model.js')]);
  const held = observed === undefined ? undefined : await lintObserved(tables, observed, inputs.lint);
  const diagnostics = [...(await lintTables(tables, inputs.lint)), ...(held?.diagnostics ?? [])];
  const views = new Map((held?.results ?? []).map(({ table, result }) => [table.name, { file: observed!.file, seconds: observed!.seconds, format: observed!.format, rows: result.rows, patterns: result.patterns }]));
  const html = renderReport(reportView(tables.map((t) => t.table), diagnostics, packageVersion(), views));
  const named = path.resolve(io.cwd, out ?? 'report.html');
  // --out naming a folder puts report.html in it
  const file = isFolder(io.fs ?? nodeFs, named) ? path.join(named, 'report.html') : named;
  writeFileAtomically(file, html, io.fs);
  io.stdout(`ddbgen: wrote ${path.relative(io.cwd, file) || file} (${tables.length} table${tables.length === 1 ? '' : 's'}, ${diagnostics.length} finding${diagnostics.length === 1 ? '' : 's'})\n`);
  return EXIT.ok;
}

export async function table(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined, resourcePolicy: boolean): Promise<number> {
  const formats = ['create-table', 'cloudformation', 'cloudformation-yaml', 'cdk'];
  if (format !== undefined && !formats.includes(format)) throw formatError('table', format, formats);
  if (resourcePolicy && format !== 'cloudformation' && format !== 'cloudformation-yaml') throw new UsageError('--resource-policy puts the resource-based policies in a CloudFormation template: use it with --format cloudformation or cloudformation-yaml', 'table');
  const inputs = await resolveInputs(io, positionals, undefined, config);
  const tables = await loadValid(io, inputs.files);
  if (!tables) return EXIT.failed;
  const defs = tables.map((t) => t.table);
  const [{ cdkSnippet, cloudFormation, cloudFormationYaml }, { createTableInput }] = await Promise.all([import('../emit/integrations/infrastructure.js'), import('../emit/table/table-definition.js')]);
  if (format === 'cloudformation' || format === 'cloudformation-yaml') {
    let template = cloudFormation(defs);
    if (resourcePolicy) {
      const { withResourcePolicies } = await import('../iam/resource-policy.js');
      const added = withResourcePolicies(template as Parameters<typeof withResourcePolicies>[0], defs);
      for (const note of added.notes) io.stderr(`ddbgen table: ${note}\n`);
      template = added.template;
    }
    io.stdout(format === 'cloudformation' ? `${JSON.stringify(template, null, 2)}\n` : cloudFormationYaml(template));
  }
  else if (format === 'cdk') io.stdout(cdkSnippet(defs));
  else {
    const inputsOut = defs.map((t) => ({ TableName: t.name, ...createTableInput(t) }));
    io.stdout(`${JSON.stringify(inputsOut.length === 1 ? inputsOut[0] : inputsOut, null, 2)}\n`);
  }
  return EXIT.ok;
}

export async function iam(io: CliIo, positionals: string[], format: string | undefined, config: string | undefined, tenantTag: string | undefined, account: string | undefined): Promise<number> {
  const { IamOptionError, checkIamFormat, iamCommandOutput } = await import('../iam/iam-command.js');
  try {
    const checked = checkIamFormat(format);
    const inputs = await resolveInputs(io, positionals, undefined, config);
    const tables = await loadValid(io, inputs.files);
    if (!tables) return EXIT.failed;
    const { text, notes } = iamCommandOutput(tables.map((t) => t.table), checked, tenantTag, account);
    for (const note of notes) io.stderr(`ddbgen iam: ${note}\n`);
    io.stdout(text);
    return EXIT.ok;
  } catch (error) {
    throw error instanceof IamOptionError ? new UsageError(error.message, 'iam') : error;
  }
}
