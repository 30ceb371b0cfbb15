// `ddbgen pull`: describes a live table (or a NoSQL Workbench model), samples its items, infers the
// entities and writes a schema module in the DSL, with a report of what each inference covers and of
// the items that fit none. The module is validated by loading it before it is put in place, and a
// file the user edited since the last pull is never overwritten without --force: the new one is
// written beside it.

import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { UsageError, type CliIo } from '../command-io.js';
import { messages, pullWarnings } from '../diagnostics/messages.js';
import { typeText } from './infer-attributes.js';
import { checkFits } from './check-fits.js';
import { inferSchema } from './infer-schema.js';
import { PullError, type InferredEntity, type InferredSchema, type SampledItem } from './inferred-schema.js';
import { describeLiveTable, sampleItems, type Place, type Sample } from './read-table.js';
import { isUnedited, renderSchema } from './render-schema.js';
import type { PulledTable } from './table-description.js';
import type { TableDef } from '../../dsl/ir.js';
import { readWorkbench } from './workbench.js';

export interface PullValues {
  readonly table?: string;
  readonly endpoint?: string;
  readonly region?: string;
  readonly sample?: string;
  readonly 'max-rcu'?: string;
  readonly out?: string;
  readonly format?: string;
  readonly discriminator?: string;
  readonly force?: boolean;
  readonly workbench?: string;
}

const DEFAULT_SAMPLE = 2000;
const DEFAULT_MAX_RCU = 100;

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase() || 'table';

function positiveNumber(value: string | undefined, option: string, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new UsageError(`--${option} takes a positive ${integer ? 'whole ' : ''}number, got "${value}"`, 'pull');
  return n;
}

/** What was read and inferred, for the report. */
interface Pulled {
  readonly source: string;
  readonly table: PulledTable;
  readonly sample: readonly SampledItem[];
  readonly read?: Sample;
  readonly notes: readonly string[];
}

async function pullLive(io: CliIo, values: PullValues, json: boolean): Promise<Pulled> {
  const tableName = values.table!;
  const limit = positiveNumber(values.sample, 'sample', DEFAULT_SAMPLE, true);
  const maxRcu = positiveNumber(values['max-rcu'], 'max-rcu', DEFAULT_MAX_RCU, false);
  let sdk: typeof import('@aws-sdk/client-dynamodb');
  let documents: typeof import('@aws-sdk/lib-dynamodb');
  try {
    [sdk, documents] = await Promise.all([import('@aws-sdk/client-dynamodb'), import('@aws-sdk/lib-dynamodb')]);
  } catch {
    throw new PullError('the AWS SDK is not installed', 'nothing', 'npm install @aws-sdk/client-dynamodb @aws-sdk/lib-dynamodb (the generated code needs them too)');
  }
  const where = values.endpoint ?? `region ${values.region ?? process.env['AWS_REGION'] ?? process.env['AWS_DEFAULT_REGION'] ?? '(none set)'}`;
  const client = new sdk.DynamoDBClient({
    ...(values.endpoint ? { endpoint: values.endpoint } : {}),
    ...(values.region ? { region: values.region } : values.endpoint && !process.env['AWS_REGION'] ? { region: 'local' } : {}),
    maxAttempts: 2,
  });
  const place: Place = { table: tableName, where };
  try {
    const { table, notes } = await describeLiveTable(client, place);
    const progress = io.interactive && !json && !io.quiet;
    const described = () => `table ${tableName} (key ${table.pk.name}${table.sk ? ` / ${table.sk.name}` : ''}, ${table.indexes.length} index(es)) was described; no items were read`;
    const read = await sampleItems(documents.DynamoDBDocumentClient.from(client), place, { limit, maxRcu, ...(progress ? { onProgress: (n, units) => io.stderr(`\r\x1b[Kddbgen pull: sampled ${n.toLocaleString('en-US')} of up to ${limit.toLocaleString('en-US')} items (${units.toFixed(1)} RCU)`) } : {}) }, described);
    if (progress) io.stderr('\r\x1b[K');
    return { source: `table ${tableName} at ${where}`, table, sample: read.items.map((item) => ({ item })), read, notes };
  } finally {
    client.destroy();
  }
}

function pullWorkbench(values: PullValues, cwd: string): Pulled {
  const file = path.resolve(cwd, values.workbench!);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new PullError(`cannot read ${values.workbench}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'nothing', 'pass the path of a NoSQL Workbench model (Data modeler → Export model)');
  }
  const tables = readWorkbench(text, values.workbench!);
  const chosen = values.table === undefined ? (tables.length === 1 ? tables[0] : undefined) : tables.find((t) => t.table.name === values.table);
  if (!chosen) {
    const names = tables.map((t) => t.table.name).join(', ');
    throw new PullError(values.table === undefined ? `${values.workbench} models ${tables.length} tables (${names})` : `${values.workbench} models no table ${values.table} (it has ${names})`, `the model's tables: ${names}`, 'name one with --table');
  }
  return { source: `NoSQL Workbench model ${values.workbench}, table ${chosen.table.name}`, table: chosen.table, sample: chosen.sample, notes: [] };
}

/** Where the module goes: over the file only if pull wrote it and nobody edited it since (or --force), else beside it. */
function targetOf(out: string, force: boolean): { file: string; beside: boolean } {
  const edited = existsSync(out) && !force && !isUnedited(readFileSync(out, 'utf8'));
  return { file: edited ? out.replace(/(\.[cm]?[jt]s)?$/, (ext) => `.pulled${ext || '.ts'}`) : out, beside: edited };
}

/**
 * Loads the module's text where it will live (so it imports ddbgen and its neighbours as the real
 * file will): the table it describes, or its validation errors. Nothing stays on disk.
 */
async function loadPulled(io: CliIo, text: string, target: string): Promise<{ table?: TableDef; problems: Problem[] }> {
  const temporary = path.join(path.dirname(target), `.${path.basename(target, '.ts')}.ddbgen-pull-${randomUUID().slice(0, 8)}.ts`);
  writeFileSync(temporary, text);
  try {
    const { loadSchemas } = await import('../load/load-schema.js');
    const { tables, diagnostics } = await loadSchemas([temporary], io.cwd);
    const problems = diagnostics.filter((d) => d.severity === 'error').map((d) => ({ code: d.code, target: d.target, message: d.message }));
    return problems.length ? { problems } : { table: tables[0]!.table, problems };
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Puts the checked module in place (a whole file, by rename), unless it is there already. */
function place(text: string, target: { file: string; beside: boolean }): { file: string; beside: boolean; unchanged: boolean } {
  if (existsSync(target.file) && readFileSync(target.file, 'utf8') === text) return { ...target, unchanged: true };
  const temporary = path.join(path.dirname(target.file), `.${path.basename(target.file, '.ts')}.ddbgen-pull-${randomUUID().slice(0, 8)}.ts`);
  writeFileSync(temporary, text);
  renameSync(temporary, target.file);
  return { ...target, unchanged: false };
}

const count = (n: number) => n.toLocaleString('en-US');

/** A validation error of the written schema. */
export interface Problem {
  readonly code: string;
  readonly target: string;
  readonly message: string;
}

const problemText = (p: Problem) => `${p.code} ${p.target}: ${p.message}`;

/**
 * The entity a validation error of a pulled schema is about, to leave out: of two entities that can
 * build the same key (DDB040) the one with fewer items, else the one the error points at.
 */
export function entityToDrop(schema: InferredSchema, problem: Problem): InferredEntity | undefined {
  const byName = (name: string | undefined) => schema.entities.find((e) => e.name === name);
  const at = byName(/\.entities\.([^.]+)/.exec(problem.target)?.[1]);
  const pair = /^(\S+) and (\S+) can build the same key/.exec(problem.message);
  const both = pair ? [byName(pair[1]), byName(pair[2])].filter((e): e is InferredEntity => e !== undefined) : [];
  if (both.length === 2) return both.sort((a, b) => a.items - b.items)[0];
  return at;
}

/** The schema without one entity: its items listed as fitting none, with the reason, and a warning. */
export function dropEntity(schema: InferredSchema, entity: InferredEntity, why: string): InferredSchema {
  const shape = `${entity.key.pk.source}${entity.key.sk ? ` / ${entity.key.sk.source}` : ''}`;
  return {
    ...schema,
    entities: schema.entities.filter((e) => e !== entity),
    unmatched: [...schema.unmatched, ...entity.itemKeys.map((key) => ({ key, reason: `its keys are shaped "${shape}", an entity pull left out: ${why}` }))],
    warnings: [...schema.warnings, pullWarnings.entityDropped(entity.name, shape, entity.items, why)],
  };
}

function textReport(schema: InferredSchema, pulled: Pulled): string {
  const lines: string[] = [];
  const read = pulled.read;
  lines.push(`ddbgen pull: ${pulled.source}: ${count(schema.sampled)} item${schema.sampled === 1 ? '' : 's'} sampled${read ? ` (${read.units.toFixed(1)} RCU in ${read.pages} page${read.pages === 1 ? '' : 's'}${read.complete ? ', the whole table' : ''})` : ''}`);
  const f = schema.keyFormat;
  lines.push(`  keys: delimiter "${schema.delimiter}"${f ? `, escape ${f.escape}, integers ${f.integers}, casing ${f.casing}` : ", ddbgen's codec"}${schema.discriminator.length ? `; entities told apart by ${schema.discriminator.join(' / ')}` : ''}`);
  for (const warning of schema.warnings) lines.push(`  warning ${warning.code}: ${warning.message}`);
  const outliers = schema.entities.reduce((n, e) => n + e.outliers.length, 0);
  for (const e of schema.entities) {
    lines.push(`  ${e.name}: ${count(e.items)} item${e.items === 1 ? '' : 's'} (${((100 * e.items) / schema.sampled).toFixed(1)}%)${e.discriminator ? ` with ${Object.entries(e.discriminator).map(([a, v]) => `${a} = "${v}"`).join(', ')}` : ''}`);
    lines.push(`    key ${e.key.pk.source}${e.key.sk ? ` / ${e.key.sk.source}` : ''} (fits ${count(e.key.pk.fits)} of ${count(e.key.pk.of)})`);
    for (const m of e.indexes) lines.push(`    index ${m.index}: ${m.native ? "the items' own attributes" : `${m.pk?.source ?? ''}${m.pk && m.sk ? ' / ' : ''}${m.sk?.source ?? ''} (fits ${count((m.pk ?? m.sk)!.fits)} of ${count((m.pk ?? m.sk)!.of)})`}`);
    lines.push(`    attributes: ${e.attributes.map((a) => `${a.property}${a.storedAs ? ` (stored as ${a.storedAs})` : ''}${a.optional ? '?' : ''} ${typeText(a.type)} [${count(a.seen)}/${count(e.items)}]`).join(', ')}`);
    for (const u of e.undescribed) lines.push(`    kept as stored (passthrough): ${u.name}: ${u.reason}`);
    for (const note of e.notes) lines.push(`    note: ${note}`);
  }
  for (const note of [...pulled.notes, ...schema.notes]) lines.push(`  note: ${note}`);
  if (outliers) {
    lines.push(`  ${count(outliers)} item${outliers === 1 ? '' : 's'} of an entity differ${outliers === 1 ? 's' : ''} from the others (outliers: fix them, or widen the schema by hand):`);
    const all = schema.entities.flatMap((e) => e.outliers.map((o) => ({ ...o, entity: e.name })));
    for (const o of all.slice(0, 20)) lines.push(`    ${o.entity} ${JSON.stringify(o.key)}: ${o.reason}`);
    if (all.length > 20) lines.push(`    … and ${count(all.length - 20)} more (--format json lists them all)`);
  }
  if (schema.unmatched.length) {
    lines.push(`  ${count(schema.unmatched.length)} sampled item${schema.unmatched.length === 1 ? '' : 's'} fit no entity:`);
    for (const u of schema.unmatched.slice(0, 20)) lines.push(`    ${JSON.stringify(u.key)}: ${u.reason}`);
    if (schema.unmatched.length > 20) lines.push(`    … and ${count(schema.unmatched.length - 20)} more (--format json lists them all)`);
  } else lines.push('  every sampled item fits an entity');
  return `${lines.join('\n')}\n`;
}

function jsonReport(schema: InferredSchema, pulled: Pulled, written: { file: string; beside: boolean; unchanged: boolean } | undefined): string {
  return `${JSON.stringify(
    {
      source: pulled.source,
      table: pulled.table.name,
      sampled: schema.sampled,
      ...(pulled.read ? { read: { units: pulled.read.units, pages: pulled.read.pages, complete: pulled.read.complete } } : {}),
      delimiter: schema.delimiter,
      keyFormat: schema.keyFormat ?? null,
      discriminator: schema.discriminator,
      entities: schema.entities.map((e) => ({
        name: e.name,
        items: e.items,
        ...(e.discriminator ? { discriminator: e.discriminator } : {}),
        ...(e.facet !== undefined ? { facet: e.facet } : {}),
        key: e.key,
        indexes: e.indexes,
        attributes: e.attributes.map((a) => ({ name: a.property, ...(a.storedAs ? { storedAs: a.storedAs } : {}), type: typeText(a.type), optional: a.optional, seen: a.seen, ...(a.odd ? { odd: a.odd } : {}) })),
        undescribed: e.undescribed,
        notes: e.notes,
        warnings: e.warnings,
        outliers: e.outliers,
      })),
      warnings: schema.warnings,
      outliers: schema.entities.flatMap((e) => e.outliers.map((o) => ({ entity: e.name, ...o }))),
      unmatched: schema.unmatched,
      notes: [...pulled.notes, ...schema.notes],
      ...(written ? { written: { file: written.file, beside: written.beside, unchanged: written.unchanged } } : {}),
    },
    null,
    2,
  )}\n`;
}

/** What was read before a failure, for the JSON error object. */
function readSoFar(pulled: Pulled | undefined): Record<string, unknown> | null {
  if (!pulled) return null;
  return { source: pulled.source, table: pulled.table.name, sampled: pulled.sample.length, ...(pulled.read ? { units: pulled.read.units, pages: pulled.read.pages, complete: pulled.read.complete } : {}) };
}

export async function pullCommand(io: CliIo, positionals: readonly string[], values: PullValues): Promise<number> {
  const json = values.format === 'json';
  let pulled: Pulled | undefined;
  const fail = (code: string, message: string, inferred: string, fix: string, extra: Record<string, unknown> = {}) => {
    // --format json: a JSON error object on stdout too, so a script reading it always gets one
    if (json) io.stdout(`${JSON.stringify({ error: message, code, message, inferred, fix, read: readSoFar(pulled), ...extra }, null, 2)}\n`);
  };
  try {
    if (positionals.length) throw new UsageError(`pull takes no positional arguments (got ${positionals.join(' ')}): name the table with --table`, 'pull');
    if (values.workbench === undefined && values.table === undefined) throw new UsageError('pull needs --table NAME (or --workbench model.json)', 'pull');
    if (values.workbench !== undefined && (values.endpoint !== undefined || values.region !== undefined || values.sample !== undefined || values['max-rcu'] !== undefined)) {
      throw new UsageError('--workbench reads a model file: --endpoint, --region, --sample and --max-rcu are for a live table', 'pull');
    }
    if (values.format !== undefined && values.format !== 'text' && values.format !== 'json') throw new UsageError(`pull --format is text or json, not "${values.format}"`, 'pull');
    pulled = values.workbench !== undefined ? pullWorkbench(values, io.cwd) : await pullLive(io, values, json);
    let schema = inferSchema(pulled.table, pulled.sample, values.discriminator === undefined ? {} : { discriminator: values.discriminator });
    const out = path.resolve(io.cwd, values.out ?? `${kebab(pulled.table.name)}.ts`);
    const target = targetOf(out, values.force === true);
    const relative = path.relative(io.cwd, target.file) || target.file;
    // pull never fails over its own guesses: an inferred entity the schema cannot hold (two that can
    // build the same key) is left out, its items listed, and the rest written; what the schema claims
    // to fit is then checked once by the codec it loads to (the check may leave out more)
    let checked = false;
    for (;;) {
      const text = renderSchema(schema, pulled.source);
      const loaded = await loadPulled(io, text, target.file);
      if (loaded.problems.length) {
        const problem = loaded.problems.find((p) => entityToDrop(schema, p) !== undefined);
        const drop = problem && schema.entities.length > 1 ? entityToDrop(schema, problem) : undefined;
        if (drop) {
          schema = dropEntity(schema, drop, `${problem!.message} (${problem!.code}), and it has the fewer items`);
          continue;
        }
        const { message, fix } = messages.DDB303(loaded.problems.map(problemText));
        fail('DDB303', message, textReport(schema, pulled), fix, { problems: loaded.problems });
        io.stderr(`ddbgen pull: the inferred schema does not validate, so nothing was written:\n${loaded.problems.map((p) => `  ${problemText(p)}\n`).join('')}  what was inferred:\n${textReport(schema, pulled).replace(/^/gm, '  ')}`);
        io.stderr(`  fix: ${fix}\n`);
        return 1;
      }
      if (!checked) {
        checked = true;
        const held = checkFits(schema, loaded.table!, pulled.sample, dropEntity);
        if (held !== schema) {
          schema = held;
          continue;
        }
      }
      const written = place(text, target);
      io.stdout(json ? jsonReport(schema, pulled, written) : textReport(schema, pulled));
      const what = written.unchanged ? `${relative} is up to date` : written.beside ? `wrote ${relative} beside ${path.relative(io.cwd, out)}, which was edited since it was pulled (--force replaces it)` : `wrote ${relative}`;
      const warned = schema.warnings.length ? ` (${schema.warnings.length} warning${schema.warnings.length === 1 ? '' : 's'} in the report: read ${schema.warnings.length === 1 ? 'it' : 'them'} first)` : '';
      io.stderr(`ddbgen pull: ${what}${warned}; next: review it, then ddbgen generate ${relative}\n`);
      return 0;
    }
  } catch (error) {
    if (error instanceof UsageError) {
      fail('usage', error.message, 'nothing: the command line was not accepted', 'run ddbgen help pull for the usage');
      throw error;
    }
    if (!(error instanceof PullError)) {
      // a fault of pull itself: still an object a script can read, then the usual crash report
      fail('internal', error instanceof Error ? error.message : String(error), pulled ? 'the table was read; inference or writing failed' : 'nothing', 'report it with the command line and this message');
      throw error;
    }
    fail(error.code, error.message, error.inferred, error.fix);
    io.stderr(`ddbgen pull: ${error.message}\n  inferred so far: ${error.inferred}\n  fix: ${error.fix}\n  nothing was written\n`);
    return 1;
  }
}
