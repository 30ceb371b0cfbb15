// The engine behind the editor integrations (ts-plugin.cts for tsserver, lsp-server.ts for `ddbgen
// lsp`): it loads a schema module from the editor's unsaved text with the loader `generate` uses
// (load-schema.ts, evaluating the text in place of the file: the modules it imports are read from
// disk, as generate reads them), validates and lints it in memory (nothing is emitted or written),
// places every diagnostic at its exact span in that text, and answers completions, hover and quick
// fixes from the result. Results are cached by content hash in a bounded LRU. A text that does not
// parse, or whose key template is half typed, yields no ddbgen diagnostics; no call throws.
//
// The stale-output check (DDB090) is `ddbgen generate --check` itself, run in a child process for a
// schema whose saved text is what the editor holds and whose output folder exists.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TransformOptions } from 'jiti';
import { Node, Project, ts } from 'ts-morph';
import type { AttributeDef, EntityDef, Severity, TableDef, TemplateDef } from '../../dsl/ir.js';
import type { Diagnostic, DiagnosticSeverity } from '../diagnostics/diagnostic.js';
import { distance } from '../diagnostics/closest.js';
import { lintMessages, messages } from '../diagnostics/messages.js';
import { pageUri } from '../diagnostics/pages.js';
import { tableFolder } from '../emit/context.js';
import type { ShardChange } from '../lint/describe.js';
import { loadStatement } from '../lint/describe.js';
import { lintFindings } from '../lint/run-lint.js';
import { locatorLoaded, loadSchemas, schemaImporter } from '../load/load-schema.js';
import { SchemaLocator, unwrap } from '../load/locate.js';
import { KEYABLE_KINDS } from '../model/key-segments.js';
import { keySpaces, type EntitySpace } from '../model/load-model.js';
import { packageRoot, packageVersion } from '../package-root.js';
import { projectRootOf } from '../project-root.js';
import { sampleKey, sampleValues } from '../report/view-model.js';
import { findConfig, loadConfig } from '../cli/config.js';

/** A diagnostic placed in the editor's text: `start` and `length` in UTF-16 code units, inside the text. */
export interface EditorDiagnostic {
  readonly code: string;
  readonly severity: DiagnosticSeverity;
  readonly message: string;
  readonly fix: string;
  /** Schema path, e.g. `App.entities.Order.key.pk`. */
  readonly target: string;
  /** The code's page (what it reports, why, an example and the fix). */
  readonly docs: string;
  readonly start: number;
  readonly length: number;
}

export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

/** `ddbgen generate` for this schema, as the quick fix for stale output runs it. */
export interface GenerateCommand {
  readonly name: 'ddbgen.generate';
  readonly file: string;
}

/** A quick fix for one diagnostic: text edits, or a command. */
export interface EditorFix {
  readonly title: string;
  /** The codes of the diagnostics it fixes (one change can silence several rules at one key). */
  readonly codes: readonly string[];
  readonly start: number;
  readonly length: number;
  readonly edits?: readonly TextEdit[];
  readonly command?: GenerateCommand;
}

export interface Analysis {
  readonly file: string;
  readonly hash: string;
  readonly diagnostics: readonly EditorDiagnostic[];
  readonly fixes: readonly EditorFix[];
  /**
   * Why nothing was checked: the text does not parse, a key template is half typed, a newer text
   * came first, or loading the module took longer than `timeoutMs` (its worker was ended).
   */
  readonly skipped?: 'syntax' | 'editing' | 'superseded' | 'timeout';
  /** The tables the text declares (for hover and completions), when it loaded. */
  readonly tables: readonly TableDef[];
  /** Milliseconds the analysis took. */
  readonly took: number;
}

export interface EditorCompletion {
  readonly name: string;
  /** `attribute`, `shard` or `literal` (a segment other entities use). */
  readonly kind: 'attribute' | 'shard' | 'literal';
  /** The attribute's kind (`string`, `number 0..1000`), or the entities that use the literal. */
  readonly detail: string;
  readonly insertText: string;
  /** What the completion replaces (the partly typed name). */
  readonly start: number;
  readonly length: number;
}

export interface EditorHover {
  readonly start: number;
  readonly length: number;
  /** Markdown. */
  readonly markdown: string;
}

export interface EngineOptions {
  /** Analyses kept (LRU); default 64. */
  readonly maxEntries?: number;
  /** Run the stale-output check (default true; it spawns `ddbgen generate --check`). */
  readonly staleCheck?: boolean;
  /** Called when a result that was not ready before is ready (the editor should ask for diagnostics again). */
  readonly onChange?: (file: string) => void;
  /** Where failures of the engine itself go (never thrown at the editor). */
  readonly log?: (text: string) => void;
  /** Called when a text has been checked (the plugin writes it to tsserver's log). */
  readonly onAnalyzed?: (analysis: Analysis, text: string) => void;
  /**
   * Check in a worker thread (analysis-worker.ts) instead of the caller's: the editor's thread keeps
   * answering meanwhile, and a schema whose module does not finish loading within `timeoutMs` has
   * its worker ended (no diagnostics for that text; the next text gets a fresh worker). Default false.
   */
  readonly worker?: boolean;
  /**
   * With `worker`: how long one check may take, in milliseconds (default 10,000); a worker's first
   * check, which also loads the DSL, the schema's packages and the lint, may take five times as long,
   * and one sent while the worker starts six times (it loads the compiler as well).
   */
  readonly timeoutMs?: number;
}

/** A text for the analysis worker to check. */
export interface WorkerRequest {
  readonly id: number;
  readonly file: string;
  readonly text: string;
}

/** The analysis worker's answer to a request, or a line for the engine's log. */
export type WorkerAnswer = { readonly id: number; readonly analysis: Analysis & { readonly stamps: readonly Stamp[] } } | { readonly log: string } | { readonly ready: true };

/** An editor's number for a code (TypeScript diagnostics carry numbers): DDB030 → 90030, HK001 → 91001. */
export function numericCode(code: string): number {
  const match = /^(DDB|HK)(\d{3})$/.exec(code);
  if (!match) return 90000;
  return (match[1] === 'DDB' ? 90000 : 91000) + Number(match[2]);
}

/** The code for an editor's number (numericCode's inverse), or undefined for other numbers. */
export function codeOfNumber(value: number): string | undefined {
  if (value >= 90000 && value < 91000) return `DDB${String(value - 90000).padStart(3, '0')}`;
  if (value >= 91000 && value < 92000) return `HK${String(value - 91000).padStart(3, '0')}`;
  return undefined;
}

/** The codes whose findings can have a quick fix (tsserver's supported code fixes list them, numbered). */
export const FIXABLE_CODES: readonly string[] = ['DDB030', 'DDB034', 'DDB090', ...Object.keys(lintMessages)];

const hashOf = (...parts: string[]) => createHash('sha1').update(parts.join('\0')).digest('hex');

/** The line starts of a text, for line:column → offset. */
function lineStarts(text: string): number[] {
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
function parse(file: string, text: string): { source: ts.SourceFile; syntaxErrors: number; editing: boolean } {
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

/** A ddbgen config and what it names, read once per change of the config file. */
interface ConfigInfo {
  readonly file: string;
  readonly stamp: string;
  readonly schemas: ReadonlySet<string>;
  readonly out: string;
  readonly lint: Readonly<Record<string, Severity>>;
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
interface TemplateSite {
  readonly literal: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral;
  readonly entity: string;
  /** `key` or `indexes.<name>`. */
  readonly keyPath: readonly string[];
  readonly part: 'pk' | 'sk';
  /** The table's index in an exported array (-1: one table), when known. */
}

function templateSite(source: ts.SourceFile, offset: number): TemplateSite | undefined {
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

/** An attribute's kind as completions show it: `number 0..1e12`, `enum ACTIVE | BANNED`. */
function kindText(def: AttributeDef): string {
  const optional = def.optional ? ' (optional)' : '';
  switch (def.kind) {
    case 'number':
      return `number${def.min !== undefined || def.max !== undefined ? ` ${def.min ?? '?'}..${def.max ?? '?'}` : ' (no min/max: give a range to key on it)'}${def.integer ? ', integer' : ''}${optional}`;
    case 'enum':
      return `enum ${def.values.join(' | ')}${optional}`;
    case 'string':
      return `string${def.cardinality !== undefined ? `, ${def.cardinality} values` : ''}${def.pii ? ', pii' : ''}${optional}`;
    default:
      return `${def.kind}${optional}`;
  }
}

/** The attributes an entity declares, read from the text (`name: t.kind(…)`) so that completions work mid-edit. */
function attributesInText(source: ts.SourceFile, entity: string): Array<{ name: string; kind: string }> | undefined {
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

/** Keeps at most `max` entries, the least recently used going first. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  get size(): number {
    return this.map.size;
  }
}

/** A module jiti loaded for a schema: its path and modification time (a change on disk invalidates the analysis). */
export type Stamp = readonly [file: string, mtime: number];

/** The worker's module beside this one (its TypeScript source when this runs from source, under tsx). */
const workerUrl = new URL(import.meta.url.endsWith('.ts') ? './analysis-worker.ts' : './analysis-worker.js', import.meta.url);

/** What the worker made of a text: its analysis, or why there is none. */
type Checked = (Analysis & { readonly stamps: readonly Stamp[] }) | 'timeout' | 'stopped';

/** One analysis worker thread: a text in, its analysis out; ended when a check takes longer than allowed. */
class AnalysisWorker {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (answer: Checked) => void>();
  private next = 0;
  /** Checks answered: the first also loads what every later one reuses. */
  private answered = 0;
  /** Whether the worker has loaded the engine (until then, a check's time includes the worker's start). */
  private ready = false;
  ended = false;

  constructor(log: (text: string) => void) {
    // from source (under tsx, as the tests run), the worker registers tsx before it loads the TypeScript
    this.worker = workerUrl.pathname.endsWith('.ts')
      ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); });`, { eval: true })
      : new Worker(workerUrl);
    // an idle worker does not keep the process alive (a language server exits when its client goes)
    this.worker.unref();
    this.worker.on('message', (answer: WorkerAnswer) => {
      if ('ready' in answer) return void (this.ready = true);
      if ('log' in answer) return log(answer.log);
      this.answered++;
      this.waiting.get(answer.id)?.(answer.analysis);
      this.waiting.delete(answer.id);
    });
    const fail = (why: string) => {
      if (!this.ended) log(`ddbgen: the analysis worker stopped: ${why}`);
      this.end();
    };
    this.worker.on('error', (error) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));
    this.worker.on('exit', (code) => fail(`exit code ${code}`));
  }

  /** The analysis of this text; 'timeout' when the worker did not answer within `timeoutMs` (it is ended then), 'stopped' when it failed. */
  check(file: string, text: string, timeoutMs: number): Promise<Checked> {
    const id = this.next++;
    // timed from when it is sent, so that no check waits for ever: a worker's first check also loads
    // the DSL and the lint (five times the time), and one sent while the worker starts, the compiler too (six)
    const allowed = timeoutMs * (!this.ready ? 6 : this.answered === 0 ? 5 : 1);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        this.end();
        resolve('timeout');
      }, allowed);
      this.waiting.set(id, (analysis) => {
        clearTimeout(timer);
        resolve(analysis);
      });
      this.worker.postMessage({ id, file, text } satisfies WorkerRequest);
    });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    void this.worker.terminate();
    // whoever still waits gets no analysis rather than waiting for ever
    for (const done of this.waiting.values()) done('stopped');
    this.waiting.clear();
  }
}

const mtimeOf = (file: string) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
};

/** Files the DSL consists of: kept in the module cache across analyses (everything else a schema imports is read afresh). */
const KEPT = [path.join(packageRoot, 'dist') + path.sep, path.join(packageRoot, 'dsl') + path.sep, path.join(packageRoot, 'templates') + path.sep];
const kept = (file: string) => file.includes(`${path.sep}node_modules${path.sep}`) || KEPT.some((dir) => file.startsWith(dir));

/** The evaluation in progress in this process (each one reads and prunes Node's require cache). */
let evaluations: Promise<void> = Promise.resolve();

export class EditorEngine {
  private readonly results: Lru<Analysis & { readonly stamps: readonly Stamp[] }>;
  private readonly lastGood: Lru<readonly TableDef[]>;
  private readonly parsed = new Lru<ReturnType<typeof parse>>(16);
  private readonly configs = new Map<string, ConfigInfo | 'loading' | undefined>();
  private readonly configLoads = new Map<string, Promise<ConfigInfo>>();
  private readonly stale = new Lru<{ key: string; diagnostic?: EditorDiagnostic; fix?: EditorFix } | 'running'>(64);
  /** The newest text asked of each file and not yet answered: one entry per call, so that an answer forgets only its own. */
  private readonly pending = new Map<string, { readonly text: string }>();
  /** The diagnostics last answered for each file, and the text they were for. */
  private readonly shown = new Lru<{ text: string; diagnostics: readonly EditorDiagnostic[] }>(64);
  private queue: Promise<void> = Promise.resolve();
  private readonly options: EngineOptions;
  /** jiti with a module cache: the DSL loads once; the schema's own imports are dropped after each analysis. */
  private importer: ReturnType<typeof schemaImporter> | undefined;
  private readonly requireCache: Record<string, unknown> = createRequire(import.meta.url).cache as Record<string, unknown>;
  private readonly projects = new Map<string, Project>();
  private worker: AnalysisWorker | undefined;

  constructor(options: EngineOptions = {}) {
    this.options = options;
    this.results = new Lru(options.maxEntries ?? 64);
    this.lastGood = new Lru(options.maxEntries ?? 64);
  }

  private log(text: string): void {
    try {
      this.options.log?.(text);
    } catch {
      // a logger that fails is no reason to fail
    }
  }

  private parsedText(file: string, text: string): ReturnType<typeof parse> {
    const key = hashOf(file, text);
    let result = this.parsed.get(key);
    if (!result) this.parsed.set(key, (result = parse(file, text)));
    return result;
  }

  /** The config that applies to `file` (searched upward, as the CLI does), once loaded; loading starts on first use. */
  private config(file: string): ConfigInfo | undefined {
    const found = this.configLoad(file);
    return found && found !== 'loading' ? found : undefined;
  }

  /** The config that applies to `file`, 'loading' while it is read (onChange follows), undefined when there is none. */
  private configLoad(file: string): ConfigInfo | 'loading' | undefined {
    const configFile = findConfig(path.dirname(file));
    if (!configFile) return undefined;
    const known = this.configs.get(configFile);
    const stamp = String(mtimeOf(configFile));
    if (known && known !== 'loading' && known.stamp === stamp) return known;
    if (known === 'loading') return 'loading';
    this.configs.set(configFile, 'loading');
    const loading = loadConfig(configFile)
      .then((config): ConfigInfo => {
        const base = path.dirname(configFile);
        return { file: configFile, stamp, schemas: new Set(config.schemas.map((s) => path.resolve(base, s))), out: path.resolve(base, config.out ?? 'out'), lint: config.lint ?? {} };
      })
      .catch((error: unknown): ConfigInfo => {
        this.log(`ddbgen: cannot read ${configFile}: ${error instanceof Error ? error.message : String(error)}`);
        return { file: configFile, stamp, schemas: new Set(), out: path.join(path.dirname(configFile), 'out'), lint: {} };
      })
      .then((info) => {
        this.configs.set(configFile, info);
        this.configLoads.delete(configFile);
        this.options.onChange?.(file);
        return info;
      });
    this.configLoads.set(configFile, loading);
    return 'loading';
  }

  /** The config that applies to `file`, once read. */
  private async configReady(file: string): Promise<ConfigInfo | undefined> {
    const found = this.configLoad(file);
    if (found !== 'loading') return found;
    const configFile = findConfig(path.dirname(file));
    return configFile ? this.configLoads.get(configFile) : undefined;
  }

  /** Whether ddbgen checks this file: the config names it, or its default export is defineTable(…). */
  isSchemaFile(file: string, text: string): boolean {
    try {
      if (!/\.[cm]?[jt]sx?$/.test(file) || file.endsWith('.d.ts')) return false;
      if (this.config(file)?.schemas.has(path.resolve(file))) return true;
      return exportsTable(this.parsedText(file, text).source);
    } catch (error) {
      this.log(`ddbgen: ${String(error)}`);
      return false;
    }
  }

  /** The analysis of exactly this text, when it is ready (and the modules it imported have not changed since). */
  peek(file: string, text: string): Analysis | undefined {
    const found = this.results.get(this.keyOf(file, text));
    if (!found) return undefined;
    if (found.stamps.some(([f, mtime]) => mtimeOf(f) !== mtime)) return undefined;
    return found;
  }

  private keyOf(file: string, text: string): string {
    const config = findConfig(path.dirname(file));
    return hashOf(file, text, config ?? '', config ? String(mtimeOf(config)) : '');
  }

  /** The analysis of this text: from the cache, else computed (one at a time, the newest text of each file first). Never rejects. */
  analyze(file: string, text: string): Promise<Analysis> {
    return this.analyzeWithStamps(file, text);
  }

  /** `analyze`, with the modules the text imported and their modification times (what the worker answers). */
  analyzeWithStamps(file: string, text: string): Promise<Analysis & { readonly stamps?: readonly Stamp[] }> {
    const ready = this.peek(file, text);
    if (ready) return Promise.resolve(ready);
    // the same text asked again while it waits (an editor's didChange that changes nothing, a save) is
    // answered by the same analysis: only a different, newer text supersedes it
    const asked = { text };
    this.pending.set(file, asked);
    const run = this.queue.then(async (): Promise<Analysis> => {
      // a newer text of this file is waiting: this one is out of date before it is checked
      if (this.pending.get(file)?.text !== text) return { file, hash: '', diagnostics: [], fixes: [], tables: [], skipped: 'superseded', took: 0 };
      return this.peek(file, text) ?? (await (this.options.worker ? this.computeInWorker(file, text) : this.compute(file, text)));
    });
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    const answered = () => {
      if (this.pending.get(file) === asked) this.pending.delete(file);
    };
    return run.then(
      (analysis) => {
        answered();
        return analysis;
      },
      (error: unknown) => {
        answered();
        this.log(`ddbgen: analysis failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return { file, hash: '', diagnostics: [], fixes: [], tables: [], took: 0 };
      },
    );
  }

  /** Diagnostics for this text now: the cached analysis (plus a stale-output finding), or none while it is computed (onChange says when it is ready). */
  diagnostics(file: string, text: string): readonly EditorDiagnostic[] {
    try {
      const ready = this.peek(file, text);
      if (!ready) {
        void this.analyze(file, text).then(() => this.options.onChange?.(file));
        // meanwhile the last answer for the file, moved with the edit (no flicker while typing), unless the text is mid-edit
        const parsed = this.parsedText(file, text);
        const last = this.shown.get(file);
        return last && !parsed.syntaxErrors && !parsed.editing ? shifted(last.diagnostics, last.text, text) : [];
      }
      const stale = this.staleFinding(file, text, ready);
      const diagnostics = stale?.diagnostic ? [...ready.diagnostics, stale.diagnostic] : ready.diagnostics;
      this.shown.set(file, { text, diagnostics });
      return diagnostics;
    } catch (error) {
      this.log(`ddbgen: ${String(error)}`);
      return [];
    }
  }

  /** Quick fixes whose diagnostic overlaps start..end. */
  fixes(file: string, text: string, start: number, end: number): readonly EditorFix[] {
    try {
      const ready = this.peek(file, text);
      if (!ready) return [];
      const stale = this.staleFinding(file, text, ready);
      const all = stale?.fix ? [...ready.fixes, stale.fix] : ready.fixes;
      return all.filter((f) => f.start <= end && start <= f.start + f.length);
    } catch (error) {
      this.log(`ddbgen: ${String(error)}`);
      return [];
    }
  }

  private project(file: string): Project {
    const root = projectRootOf(path.dirname(file));
    let project = this.projects.get(root);
    if (!project) {
      project = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: true } });
      if (this.projects.size > 8) this.projects.clear();
      this.projects.set(root, project);
    }
    return project;
  }

  /** jiti's default transform (babel), for modules the engine does not transpile itself. */
  private babel: ReturnType<typeof schemaImporter> | undefined;

  /**
   * The schema text is transpiled by the TypeScript compiler already loaded (ts.transpileModule to
   * CommonJS, as jiti runs it): a tenth of jiti's babel transform's time on a 100-entity schema.
   * Modules with top-level await, and JavaScript modules, go through jiti's own transform.
   */
  private transform(options: TransformOptions): { code: string } {
    const file = options.filename ?? '';
    if (/\.[cm]?tsx?$/.test(file) && !/(^|[^\w$.])await\b/.test(options.source)) {
      const { outputText } = ts.transpileModule(options.source, {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: false, inlineSourceMap: false, jsx: ts.JsxEmit.React, verbatimModuleSyntax: false },
        reportDiagnostics: false,
      });
      return { code: outputText };
    }
    this.babel ??= schemaImporter(undefined, false);
    return { code: this.babel.transform(options) };
  }

  private evaluate(file: string, text: string | undefined, stamps: Stamp[]): Promise<unknown> {
    // Node's require cache is one per process: evaluations (of every engine in it) take turns
    const turn = evaluations.then(() => this.evaluateNow(file, text, stamps));
    evaluations = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  private async evaluateNow(file: string, text: string | undefined, stamps: Stamp[]): Promise<unknown> {
    // no transpile cache on disk (each edit is a new text: nothing is written), the DSL kept loaded
    this.importer ??= schemaImporter(file, false, { moduleCache: true, transform: (options) => this.transform(options) });
    const before = new Set(Object.keys(this.requireCache));
    try {
      return text === undefined ? await this.importer.import(file) : await this.importer.evalModule(text, { filename: file, id: file, async: true });
    } finally {
      // the schema's own imports are read afresh next time (the DSL and packages stay loaded)
      for (const key of Object.keys(this.requireCache)) {
        if (before.has(key) || kept(key)) continue;
        if (key !== file) stamps.push([key, mtimeOf(key)]);
        delete this.requireCache[key];
      }
    }
  }

  /** The analysis worker, started when none runs. */
  private running(): AnalysisWorker {
    if (!this.worker || this.worker.ended) this.worker = new AnalysisWorker((line) => this.log(line));
    return this.worker;
  }

  /** Ends the analysis worker, if one runs (a language server's shutdown; the engine starts another when asked again). */
  dispose(): void {
    this.worker?.end();
    this.worker = undefined;
  }

  private async computeInWorker(file: string, text: string): Promise<Analysis & { stamps: readonly Stamp[] }> {
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    const found = await this.running().check(file, text, timeoutMs);
    if (found === 'timeout') this.log(`ddbgen: checking ${file} took longer than ${timeoutMs} ms (does the schema module, or a module it imports, loop?); its worker was ended, no ddbgen diagnostics for this text`);
    // a text that timed out is not checked again (it would loop again); one whose check failed is, by a fresh worker
    const analysis =
      found === 'timeout' ? { file, hash: this.keyOf(file, text), diagnostics: [], fixes: [], tables: [], skipped: 'timeout' as const, took: timeoutMs, stamps: [] }
      : found === 'stopped' ? { file, hash: '', diagnostics: [], fixes: [], tables: [], took: 0, stamps: [] }
      : found;
    return this.record(analysis, text);
  }

  /** Keeps an analysis (by its hash; one without a hash, a failed check, is not kept) and tells onAnalyzed. */
  private record<A extends Analysis & { readonly stamps: readonly Stamp[] }>(analysis: A, text: string): A {
    if (analysis.hash) this.results.set(analysis.hash, analysis);
    if (analysis.tables.length) this.lastGood.set(analysis.file, analysis.tables);
    try {
      this.options.onAnalyzed?.(analysis, text);
    } catch (error) {
      this.log(`ddbgen: ${String(error)}`);
    }
    return analysis;
  }

  private async compute(file: string, text: string): Promise<Analysis & { stamps: readonly Stamp[] }> {
    const started = performance.now();
    const key = this.keyOf(file, text);
    const stamps: Stamp[] = [];
    const finish = (result: Omit<Analysis, 'file' | 'hash' | 'took'>): Analysis & { stamps: readonly Stamp[] } => this.record({ file, hash: key, ...result, took: performance.now() - started, stamps }, text);
    const { syntaxErrors, editing } = this.parsedText(file, text);
    if (syntaxErrors) return finish({ diagnostics: [], fixes: [], tables: [], skipped: 'syntax' });
    if (editing) return finish({ diagnostics: [], fixes: [], tables: [], skipped: 'editing' });
    // the config's lint severities apply to the schemas it names (read first, as the CLI reads it)
    const config = await this.configReady(file);
    const lintDefaults = config?.schemas.has(path.resolve(file)) ? config.lint : {};
    const cwd = projectRootOf(path.dirname(file));
    const loaded = await loadSchemas([file], cwd, { sources: new Map([[file, text]]), evaluate: (f, t) => this.evaluate(f, t, stamps), locate: 'lazy' });
    await locatorLoaded();
    const starts = lineStarts(text);
    const offsetOf = (d: Diagnostic) => {
      const line = Math.max(1, Math.min(d.line ?? 1, starts.length));
      return Math.min(text.length, starts[line - 1]! + Math.max(0, (d.column ?? 1) - 1));
    };
    const version = packageVersion();
    const placed = (d: Diagnostic): EditorDiagnostic => {
      const span = spanAt(text, offsetOf(d));
      return { code: d.code, severity: d.severity, message: d.message, fix: d.fix, target: d.target, docs: pageUri(d.code, version), ...span };
    };
    // a module that throws mid-edit (an identifier half typed) is TypeScript's to report; ddbgen stays quiet
    if (loaded.diagnostics.some((d) => d.code === 'DDB001')) return finish({ diagnostics: [], fixes: [], tables: [] });
    const diagnostics: EditorDiagnostic[] = [];
    const fixes: EditorFix[] = [];
    // the module as the loader parsed it (one parse places the diagnostics and finds what the fixes edit)
    const first = loaded.tables[0];
    const locator = first?.locator?.() ?? new SchemaLocator(file, this.project(file), text);
    for (const d of loaded.diagnostics) {
      const at = placed(d);
      diagnostics.push(at);
      const table = loaded.tables.find((t) => d.target === t.table.name || d.target.startsWith(`${t.table.name}.`)) ?? first;
      if (table) fixes.push(...validationFixes(d, at, table.table, table.locator?.() ?? locator, table.tableIndex, text));
    }
    for (const { table, place, tableIndex, locator: parsedBy } of loaded.tables) {
      const locator = parsedBy?.() ?? new SchemaLocator(file, this.project(file), text);
      for (const { diagnostic, change } of lintFindings(table, lintDefaults)) {
        const at = placed(place(diagnostic));
        diagnostics.push(at);
        // no declared load to size it: the least count the lint allows (2), from its own fix
        const unsized = !change && diagnostic.severity !== 'info' ? /for write heat shard it: pk "([^"]+)" with shard: \{ count: N(, random: true)? \}, N = [^;]*, at least 2/.exec(diagnostic.fix) : null;
        const keyPath = diagnostic.path.at(-1) === 'pk' ? diagnostic.path.slice(0, -1) : undefined;
        if (unsized && keyPath) {
          const fix = shardFix({ target: keyPath, pk: unsized[1]!, shard: { count: 2, ...(unsized[2] ? { random: true } : {}) } }, at, locator, tableIndex, text);
          if (fix) fixes.push({ ...fix, title: `${fix.title.replace('as the lint computed', 'with the least count, 2')} (declare traffic for the lint to size it)` });
        }
        if (change && diagnostic.severity !== 'info') {
          const fix = shardFix(change, at, locator, tableIndex, text);
          // one change may silence several rules at the same key: one fix, naming them all
          const same = fix && fixes.findIndex((f) => f.title === fix.title && f.start === fix.start);
          if (fix && same !== undefined && same >= 0) fixes[same] = { ...fixes[same]!, codes: [...fixes[same]!.codes, at.code] };
          else if (fix) fixes.push(fix);
        }
      }
    }
    return finish({ diagnostics, fixes, tables: loaded.tables.map((t) => t.table) });
  }

  /** The stale-output finding for a saved schema whose output exists; starts `generate --check` when the answer is not known. */
  private staleFinding(file: string, text: string, analysis: Analysis): { diagnostic?: EditorDiagnostic; fix?: EditorFix } | undefined {
    if (this.options.staleCheck === false || analysis.skipped || analysis.tables.length === 0) return undefined;
    if (analysis.diagnostics.some((d) => d.severity === 'error')) return undefined;
    let saved: string;
    try {
      saved = readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    if (saved !== text) return undefined;
    // which command generates this schema depends on the config: wait for it (onChange follows)
    const loading = this.configLoad(file);
    if (loading === 'loading') return undefined;
    const config = loading;
    const named = config?.schemas.has(path.resolve(file)) ? config : undefined;
    const root = projectRootOf(path.dirname(file));
    const out = named ? named.out : path.join(root, 'out');
    const folders = analysis.tables.map((t) => path.join(out, tableFolder(t)));
    if (!folders.some((f) => existsSync(f))) return undefined;
    const key = hashOf(analysis.hash, ...folders.map(folderStamp));
    const known = this.stale.get(file);
    if (known !== undefined && known !== 'running' && known.key === key) return known;
    if (known === 'running') return undefined;
    this.stale.set(file, 'running');
    const args = named ? ['generate', '--check', '-c', named.file] : ['generate', '--check', path.relative(root, file)];
    runDdbgen(args, root)
      .then(({ code, output }) => {
        const names = folders.map((f) => path.relative(root, f));
        const lines = output.split('\n').filter((l) => l.startsWith('stale: ') && names.some((n) => l.slice(7).startsWith(`${n}/`) || l.slice(7).startsWith(`${n} `)));
        let result: { key: string; diagnostic?: EditorDiagnostic; fix?: EditorFix } = { key };
        if (code === 1 && lines.length) {
          const span = spanAt(text, exportOffset(this.parsedText(file, text).source));
          const command = `npx ddbgen generate ${named ? (findConfig(root) === named.file ? '' : `-c ${path.relative(root, named.file)}`) : path.relative(root, file)}`.trim();
          const counts = summarizeStale(lines);
          const { message, fix } = messages.DDB090(names.join(', '), counts, command);
          const diagnostic: EditorDiagnostic = { code: 'DDB090', severity: 'warn', message, fix, target: analysis.tables.map((t) => t.name).join(', '), docs: pageUri('DDB090', packageVersion()), ...span };
          result = { key, diagnostic, fix: { title: `Run ${command}`, codes: ['DDB090'], ...span, command: { name: 'ddbgen.generate', file } } };
        }
        this.stale.set(file, result);
        this.options.onChange?.(file);
      })
      .catch((error: unknown) => {
        this.log(`ddbgen: generate --check failed: ${String(error)}`);
        this.stale.set(file, { key });
      });
    return undefined;
  }

  /** Runs `ddbgen generate` for this schema (its config when the config names it), as the stale-output fix does. */
  async generate(file: string): Promise<{ ok: boolean; output: string }> {
    try {
      const root = projectRootOf(path.dirname(file));
      const config = await this.configReady(file);
      const args = config?.schemas.has(path.resolve(file)) ? ['generate', '-c', config.file] : ['generate', path.relative(root, file)];
      const { code, output } = await runDdbgen(args, root);
      this.stale.set(file, 'running');
      this.stale.set(file, { key: '' });
      this.options.onChange?.(file);
      return { ok: code === 0, output };
    } catch (error) {
      return { ok: false, output: String(error) };
    }
  }

  /** Completions inside a key-template string: attribute names after `<`, else literal segments other entities use. */
  completions(file: string, text: string, offset: number): readonly EditorCompletion[] | undefined {
    try {
      const { source } = this.parsedText(file, text);
      const site = templateSite(source, offset);
      if (!site) return undefined;
      const contentStart = site.literal.getStart(source) + 1;
      const before = text.slice(contentStart, offset);
      const tables = this.lastGood.get(file) ?? this.peek(file, text)?.tables ?? [];
      const table = tables.find((t) => t.entities[site.entity]) ?? tables[0];
      const delimiter = table?.delimiter ?? (/\bdelimiter:\s*['"](.)['"]/.exec(text)?.[1] ?? '#');
      const open = /<([\w$]*)$/.exec(before);
      if (open) {
        const typed = open[1]!;
        const start = offset - typed.length;
        const closes = text[offset + (/^[\w$]*/.exec(text.slice(offset))?.[0].length ?? 0)] === '>';
        const after = /^[\w$]*/.exec(text.slice(offset))?.[0].length ?? 0;
        const fromText = attributesInText(source, site.entity);
        const declared = table?.entities[site.entity]?.attributes;
        const attributes = fromText ?? Object.entries(declared ?? {}).map(([name, def]) => ({ name, kind: def.kind }));
        const items: EditorCompletion[] = attributes.map(({ name, kind }) => {
          const def = declared?.[name];
          return { name, kind: 'attribute' as const, detail: def ? kindText(def) : kind, insertText: closes ? name : `${name}>`, start, length: typed.length + after };
        });
        if (site.part === 'pk') items.push({ name: 'shard', kind: 'shard', detail: 'the shard suffix (needs shard: { count } on this key)', insertText: closes ? 'shard' : 'shard>', start, length: typed.length + after });
        return items;
      }
      // at the start of a segment: literal segments the other entities use (keeps prefixes consistent)
      const segmentStart = before.lastIndexOf(delimiter) + 1;
      const typed = before.slice(segmentStart);
      if (typed.includes('<')) return [];
      const literals = new Map<string, Set<string>>();
      for (const t of tables) {
        for (const entity of Object.values(t.entities)) {
          if (entity.name === site.entity) continue;
          for (const template of entityTemplates(entity)) {
            for (const segment of template.segments) if (segment.kind === 'literal' && segment.text && segment.text.startsWith(typed)) (literals.get(segment.text) ?? literals.set(segment.text, new Set()).get(segment.text)!).add(entity.name);
          }
        }
      }
      return [...literals].map(([name, users]) => ({ name, kind: 'literal' as const, detail: `used by ${[...users].join(', ')}`, insertText: name, start: offset - typed.length, length: typed.length }));
    } catch (error) {
      this.log(`ddbgen: ${String(error)}`);
      return undefined;
    }
  }

  /** Hover on a key template: an example key built by the real codec, and the lint's arithmetic for its key space. */
  hover(file: string, text: string, offset: number): EditorHover | undefined {
    try {
      const { source } = this.parsedText(file, text);
      const site = templateSite(source, offset);
      if (!site) return undefined;
      const tables = this.peek(file, text)?.tables.length ? this.peek(file, text)!.tables : (this.lastGood.get(file) ?? []);
      const table = tables.find((t) => t.entities[site.entity]);
      const entity = table?.entities[site.entity];
      if (!table || !entity) return undefined;
      const mapping = site.keyPath[0] === 'key' ? entity.key : entity.indexes[site.keyPath[1]!];
      const template: TemplateDef | undefined = mapping?.[site.part];
      if (!template || template.source !== site.literal.text) return undefined;
      const where = `${entity.name} ${[...site.keyPath, site.part].join('.')}`;
      const lines = [`**ddbgen** · ${where} \`${template.source}\``];
      const example = sampleKey(entity, template, `${entity.name}.${[...site.keyPath, site.part].join('.')}`, table.delimiter, mapping?.shard);
      if (example) {
        const values = sampleValues(entity);
        const used = template.segments.flatMap((s) => (s.kind === 'placeholder' && s.name !== 'shard' ? [`${s.name} = ${show(values[s.name])}`] : []));
        lines.push('', `Example key: \`${example}\``, '', `built by the key codec from ${used.length ? used.join(', ') : 'no values (a constant key)'}${mapping?.shard ? ', shard suffix of the example item' : ''}`);
      }
      if (site.part === 'pk') {
        const index = site.keyPath[0] === 'key' ? 'table' : site.keyPath[1]!;
        const space = keySpaces(table).find((s): s is EntitySpace => s.kind === 'entity' && s.owner === entity.name && s.index === index);
        if (space) {
          lines.push('', `Partitions: ${space.partitions.explain}`);
          if (space.writes !== undefined || space.reads !== undefined) lines.push('', `Load (${space.label}): ${loadStatement(space)}`);
          else lines.push('', 'No traffic is declared for this entity: declare traffic: { writesPerSecond, readsPerSecond } to see the load on its hottest key.');
        }
      }
      const start = site.literal.getStart(source);
      return { start, length: site.literal.getEnd() - start, markdown: lines.join('\n') };
    } catch (error) {
      this.log(`ddbgen: ${String(error)}`);
      return undefined;
    }
  }

  /** Cached analyses (for tests and the benchmark's memory figure). */
  get cacheSize(): number {
    return this.results.size;
  }
}

const show = (value: unknown) => (value instanceof Date ? value.toISOString() : JSON.stringify(value));

function entityTemplates(entity: EntityDef): TemplateDef[] {
  return [entity.key.pk, entity.key.sk, ...Object.values(entity.indexes).flatMap((m) => [m.pk, m.sk])].filter((t): t is TemplateDef => t !== undefined);
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
function exportOffset(source: ts.SourceFile): number {
  const exported = source.statements.find((s) => ts.isExportAssignment(s));
  return exported ? exported.getStart(source) : 0;
}

/** A stamp of a table's output folder: its files' names and modification times. */
function folderStamp(folder: string): string {
  try {
    return readdirSync(folder, { recursive: true })
      .map((f) => `${String(f)}:${mtimeOf(path.join(folder, String(f)))}`)
      .sort()
      .join('|');
  } catch {
    return 'none';
  }
}

/** "2 files changed, 1 missing" from generate --check's `stale:` lines. */
function summarizeStale(lines: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const reason = /\(([^)]*)\)$/.exec(line)?.[1] ?? 'changed';
    const key = /whose header/.test(reason) ? 'with another command in their header' : reason;
    counts.set(key, (counts.get(key) ?? 0) + (Number(/^(\d+) files?/.exec(reason)?.[1]) || 1));
  }
  return [...counts].map(([reason, n]) => `${n} file${n === 1 ? '' : 's'} ${reason}`).join(', ');
}

/** Runs the installed ddbgen command (this package's bin) in `cwd`. */
function runDdbgen(args: readonly string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(packageRoot, 'bin', 'ddbgen.js'), ...args, '--quiet'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Fixes for validation codes with a mechanical fix: a placeholder renamed to the closest attribute (DDB030), a range for a number in a key (DDB034). */
function validationFixes(d: Diagnostic, at: EditorDiagnostic, table: TableDef, locator: SchemaLocator, tableIndex: number, source: string): EditorFix[] {
  const [, entityName] = d.target.split('.').slice(1);
  const entity = entityName === undefined ? undefined : table.entities[entityName];
  if (!entity) return [];
  if (d.code === 'DDB030' && source[at.start] === '<') {
    const name = /^<([^:>]*)/.exec(source.slice(at.start, at.start + at.length))?.[1] ?? '';
    const keyable = Object.entries(entity.attributes).filter(([, a]) => (KEYABLE_KINDS as readonly string[]).includes(a.kind)).map(([n]) => n);
    const ranked = keyable.map((c) => ({ c, d: distance(name.toLowerCase(), c.toLowerCase()) })).sort((a, b) => a.d - b.d);
    const best = ranked[0];
    if (!best || best.d > Math.max(2, Math.ceil(name.length / 2))) return [];
    return [{ title: `Rename <${name}> to <${best.c}>, the closest attribute of ${entity.name}`, codes: [d.code], start: at.start, length: at.length, edits: [{ start: at.start + 1, end: at.start + 1 + name.length, newText: best.c }] }];
  }
  if (d.code === 'DDB034' && source[at.start] === '<') {
    const name = /^<([^:>]*)/.exec(source.slice(at.start, at.start + at.length))?.[1] ?? '';
    const def = entity.attributes[name];
    if (def?.kind !== 'number' || (def.min !== undefined && def.max !== undefined)) return [];
    const declared = locator.nodeAt(tableIndex, ['entities', entity.name, 'attributes', name]);
    const edit = declared && numberRangeEdit(declared, def.min, def.max);
    return edit ? [{ title: `Give ${entity.name}.${name} a range: ${edit.added} (numbers in keys are encoded fixed-width)`, codes: [d.code], start: at.start, length: at.length, edits: [edit.edit] }] : [];
  }
  return [];
}

/** The edit that gives `t.number(…)` at `declared` a min and a max: `{ min: 0, max: 1e12 }` for the ones missing. */
function numberRangeEdit(declared: Node, min: number | undefined, max: number | undefined): { edit: TextEdit; added: string } | undefined {
  let call: Node | undefined = Node.isPropertyAssignment(declared) ? declared.getInitializer() : undefined;
  // through modifiers such as .optional(): t.number(…).optional()
  for (let i = 0; call && i < 5; i++) {
    if (!Node.isCallExpression(call)) return undefined;
    const callee = call.getExpression();
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === 'number') break;
    call = Node.isPropertyAccessExpression(callee) ? callee.getExpression() : undefined;
  }
  if (!call || !Node.isCallExpression(call)) return undefined;
  const missing = [...(min === undefined ? [`min: 0`] : []), ...(max === undefined ? [`max: ${min !== undefined && min > 1e12 ? min * 10 : '1e12'}`] : [])];
  if (!missing.length) return undefined;
  const added = missing.join(', ');
  const [options] = call.getArguments();
  if (!options) {
    const close = call.getEnd() - 1;
    return { edit: { start: close, end: close, newText: `{ ${added} }` }, added };
  }
  if (!Node.isObjectLiteralExpression(options)) return undefined;
  const properties = options.getProperties();
  if (!properties.length) return { edit: { start: options.getStart(), end: options.getEnd(), newText: `{ ${added} }` }, added };
  const first = properties[0]!.getStart();
  return { edit: { start: first, end: first, newText: `${added}, ` }, added };
}

/** The quick fix for a lint finding whose fix is a schema change: the key's pk and shard set to what the lint computed. */
function shardFix(change: ShardChange, at: EditorDiagnostic, locator: SchemaLocator, tableIndex: number, text: string): EditorFix | undefined {
  const keyNode = locator.nodeAt(tableIndex, change.target);
  const object = unwrap(keyNode);
  if (!object || !Node.isObjectLiteralExpression(object)) return undefined;
  const edits: TextEdit[] = [];
  const pk = object.getProperty('pk');
  const shard = `{ count: ${change.shard.count}${change.shard.random ? ', random: true' : ''} }`;
  if (!pk || !Node.isPropertyAssignment(pk)) return undefined;
  const value = pk.getInitializer();
  if (!value || !(Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value))) return undefined;
  if (value.getLiteralValue() !== change.pk) {
    const quote = text[value.getStart()] ?? "'";
    edits.push({ start: value.getStart(), end: value.getEnd(), newText: `${quote}${change.pk.replace(new RegExp(`[\\\\${quote}]`, 'g'), (c) => `\\${c}`)}${quote}` });
  }
  const existing = object.getProperty('shard');
  if (existing && Node.isPropertyAssignment(existing) && existing.getInitializer()) {
    const init = existing.getInitializer()!;
    edits.push({ start: init.getStart(), end: init.getEnd(), newText: shard });
  } else if (!existing) {
    const last = object.getProperties().at(-1)!;
    edits.push({ start: last.getEnd(), end: last.getEnd(), newText: `, shard: ${shard}` });
  } else return undefined;
  edits.sort((a, b) => b.start - a.start);
  return { title: `Shard the key as the lint computed: pk "${change.pk}" with shard: ${shard}`, codes: [at.code], start: at.start, length: at.length, edits };
}

/** Applies edits to a text (for tests, and the LSP's resolved actions): edits must not overlap. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => `${t.slice(0, e.start)}${e.newText}${t.slice(e.end)}`, text);
}

