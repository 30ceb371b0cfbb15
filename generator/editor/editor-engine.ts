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

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Project } from 'ts-morph';
import type { Severity, TableDef } from '../../dsl/ir.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { messages } from '../diagnostics/messages.js';
import { pageUri } from '../diagnostics/pages.js';
import { tableFolder } from '../emit/context.js';
import { lintFindings } from '../lint/run-lint.js';
import { babelTransform, freshEvaluation, locatorLoaded, loadSchemas, schemaImporter } from '../load/load-schema.js';
import { schemaTransform } from '../load/schema-transpile.js';
import { SchemaLocator } from '../load/locate.js';
import { packageVersion } from '../package-root.js';
import { projectRootOf } from '../project-root.js';
import { findConfig, loadConfig } from '../cli/config.js';
import { AnalysisWorker, type Stamp } from './analysis-thread.js';
import type { Analysis, EditorCompletion, EditorDiagnostic, EditorFix, EditorHover } from './editor-answers.js';
import { folderStamp, mtimeOf, runDdbgen, summarizeStale } from './output-check.js';
import { shardFix, validationFixes } from './quick-fixes.js';
import { exportOffset, exportsTable, lineStarts, parse, shifted, spanAt } from './schema-text.js';
import { templateCompletions, templateHover } from './template-answers.js';

// the plugin loads this module alone, when it first needs the engine, and numbers the codes it reports and fixes
export { FIXABLE_CODES, numericCode } from './editor-answers.js';

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

const hashOf = (...parts: string[]) => createHash('sha1').update(parts.join('\0')).digest('hex');

/** A ddbgen config and what it names, read once per change of the config file. */
interface ConfigInfo {
  readonly file: string;
  readonly stamp: string;
  readonly schemas: ReadonlySet<string>;
  readonly out: string;
  readonly lint: Readonly<Record<string, Severity>>;
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

  private evaluate(file: string, text: string | undefined, stamps: Stamp[]): Promise<unknown> {
    // no transpile cache on disk (each edit is a new text: nothing is written), the DSL kept loaded
    // the compiler transpiles even text that does not parse: the editor shows its syntax errors itself
    const importer = (this.importer ??= schemaImporter(file, false, { moduleCache: true, transform: schemaTransform(babelTransform, false, { unparsable: 'compiler' }) }));
    return freshEvaluation(
      async () => (text === undefined ? importer.import(file) : importer.evalModule(text, { filename: file, id: file, async: true })),
      (dropped) => {
        if (dropped !== file) stamps.push([dropped, mtimeOf(dropped)]);
      },
    );
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
      return templateCompletions(this.parsedText(file, text).source, text, offset, () => this.lastGood.get(file) ?? this.peek(file, text)?.tables ?? []);
    } catch (error) {
      this.log(`ddbgen: ${String(error)}`);
      return undefined;
    }
  }

  /** Hover on a key template: an example key built by the real codec, and the lint's arithmetic for its key space. */
  hover(file: string, text: string, offset: number): EditorHover | undefined {
    try {
      return templateHover(this.parsedText(file, text).source, offset, () => (this.peek(file, text)?.tables.length ? this.peek(file, text)!.tables : (this.lastGood.get(file) ?? [])));
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
