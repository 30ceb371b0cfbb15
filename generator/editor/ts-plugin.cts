// `ddbgen/ts-plugin`: a TypeScript language-service plugin (tsserver loads it from tsconfig's
// "plugins": [{ "name": "ddbgen/ts-plugin" }]) that brings ddbgen's validation and lint into the
// editor through the engine (editor-engine.ts): diagnostics appended to TypeScript's own, which are
// returned unchanged; completions inside key templates; hover with an example key and the lint's
// arithmetic; quick fixes. tsserver requires plugins as CommonJS, so this file is one (.cts); it
// loads the engine, an ES module, with import() on first use. The work runs off the request path:
// a request answers from the engine's cache at once, the check itself runs in a worker thread
// (analysis-worker.ts: tsserver's thread is never held by a schema, and a schema that loops is
// ended), and when a result that was missing is ready the plugin asks tsserver to check again
// (projectsUpdatedInBackground). The `typescript` module is
// the one tsserver passes in; the plugin never loads a TypeScript of its own. Nothing here throws
// at tsserver: any failure is logged to tsserver's log and TypeScript's answer stands.

import { createHash } from 'node:crypto';
import type * as TS from 'typescript';
import type { EditorDiagnostic } from './editor-answers.js';
import type { EditorEngine } from './editor-engine.js';

type EngineModule = typeof import('./editor-engine.js');

interface PluginConfig {
  /** Run the stale-output check (`ddbgen generate --check`) on saved schemas (default true). */
  readonly staleCheck?: boolean;
}

function init(modules: { typescript: typeof TS }): TS.server.PluginModule {
  const ts = modules.typescript;
  let engineModule: EngineModule | undefined;
  let loading: Promise<EngineModule> | undefined;
  let config: PluginConfig = {};

  function create(info: TS.server.PluginCreateInfo): TS.LanguageService {
    const ls = info.languageService;
    config = (info.config as PluginConfig | undefined) ?? {};
    const log = (text: string) => {
      try {
        info.project.projectService.logger.info(`[ddbgen] ${text}`);
      } catch {
        // no logger: nothing to do
      }
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** Asks tsserver to check the open files again (once for a burst of results). */
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        try {
          info.project.refreshDiagnostics();
        } catch (error) {
          log(`refresh failed: ${String(error)}`);
        }
      }, 5);
    };
    let engine: EditorEngine | undefined;
    const getEngine = (): EditorEngine | undefined => {
      if (engine) return engine;
      if (engineModule) {
        // each check in tsserver's log: the file, what was found, the text's SHA-1 and the time taken
        const onAnalyzed = (a: { file: string; diagnostics: readonly unknown[]; skipped?: string; took: number }, text: string) =>
          log(`checked ${a.file}: ${a.skipped ? `skipped (${a.skipped})` : `${a.diagnostics.length} diagnostics`}, text ${createHash('sha1').update(text).digest('hex')}, ${a.took.toFixed(0)} ms`);
        return (engine = new engineModule.EditorEngine({ onChange: refresh, log, onAnalyzed, staleCheck: config.staleCheck !== false, worker: true }));
      }
      if (!loading) {
        loading = import('./editor-engine.js');
        loading.then(
          (m) => {
            engineModule = m;
            refresh();
          },
          (error: unknown) => log(`cannot load the engine: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
        );
      }
      return undefined;
    };
    /** The engine and the file's text when ddbgen checks this file. */
    const schema = (fileName: string): { engine: EditorEngine; text: string; source: TS.SourceFile } | undefined => {
      const found = getEngine();
      if (!found) return undefined;
      const source = ls.getProgram()?.getSourceFile(fileName);
      if (!source || !found.isSchemaFile(fileName, source.text)) return undefined;
      return { engine: found, text: source.text, source };
    };
    const category = (d: EditorDiagnostic) => (d.severity === 'error' ? ts.DiagnosticCategory.Error : d.severity === 'warn' ? ts.DiagnosticCategory.Warning : ts.DiagnosticCategory.Message);

    const proxy: TS.LanguageService = Object.create(null);
    for (const key of Object.keys(ls) as Array<keyof TS.LanguageService>) {
      const member = ls[key];
      (proxy as unknown as Record<string, unknown>)[key] = typeof member === 'function' ? (...args: unknown[]) => (member as (...a: unknown[]) => unknown).apply(ls, args) : member;
    }

    proxy.getSemanticDiagnostics = (fileName) => {
      const own = ls.getSemanticDiagnostics(fileName);
      try {
        const found = schema(fileName);
        if (!found) return own;
        const { engine: e, text, source } = found;
        const added: TS.Diagnostic[] = e.diagnostics(fileName, text).map((d) => ({
          file: source,
          start: d.start,
          length: d.length,
          messageText: `${d.code}: ${d.message}\nfix: ${d.fix}\n${d.docs}`,
          category: category(d),
          code: engineModule!.numericCode(d.code),
          source: 'ddbgen',
        }));
        return added.length ? [...own, ...added] : own;
      } catch (error) {
        log(`diagnostics failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return own;
      }
    };

    proxy.getCompletionsAtPosition = (fileName, position, options, formatting) => {
      const own = ls.getCompletionsAtPosition(fileName, position, options, formatting);
      try {
        const found = schema(fileName);
        const items = found?.engine.completions(fileName, found.text, position);
        if (!items?.length) return own;
        const entries: TS.CompletionEntry[] = items.map((item, i) => ({
          name: item.name,
          kind: item.kind === 'literal' ? ts.ScriptElementKind.string : ts.ScriptElementKind.memberVariableElement,
          kindModifiers: '',
          sortText: `0${String(i).padStart(4, '0')}`,
          insertText: item.insertText,
          replacementSpan: { start: item.start, length: item.length },
          labelDetails: { description: item.detail },
          source: 'ddbgen',
        }));
        return own ? { ...own, entries: [...entries, ...own.entries] } : { isGlobalCompletion: false, isMemberCompletion: false, isNewIdentifierLocation: false, entries };
      } catch (error) {
        log(`completions failed: ${String(error)}`);
        return own;
      }
    };

    proxy.getCompletionEntryDetails = (fileName, position, name, formatOptions, source, preferences, data) => {
      try {
        if (source === 'ddbgen') {
          const found = schema(fileName);
          const item = found?.engine.completions(fileName, found.text, position)?.find((c) => c.name === name);
          if (item) return { name, kind: ts.ScriptElementKind.memberVariableElement, kindModifiers: '', displayParts: [{ kind: 'text', text: `${item.name}: ${item.detail}` }], documentation: [] };
        }
      } catch (error) {
        log(`completion details failed: ${String(error)}`);
      }
      return ls.getCompletionEntryDetails(fileName, position, name, formatOptions, source, preferences, data);
    };

    proxy.getQuickInfoAtPosition = (fileName, position, ...rest) => {
      const own = (ls.getQuickInfoAtPosition as (...a: unknown[]) => TS.QuickInfo | undefined)(fileName, position, ...rest);
      try {
        const found = schema(fileName);
        const hover = found?.engine.hover(fileName, found.text, position);
        if (!hover) return own;
        const part: TS.SymbolDisplayPart = { kind: 'text', text: hover.markdown };
        if (own) return { ...own, documentation: [...(own.documentation ?? []), ...(own.documentation?.length ? [{ kind: 'lineBreak', text: '\n\n' }] : []), part] };
        return { kind: ts.ScriptElementKind.string, kindModifiers: '', textSpan: { start: hover.start, length: hover.length }, displayParts: [{ kind: 'text', text: 'ddbgen key template' }], documentation: [part] };
      } catch (error) {
        log(`hover failed: ${String(error)}`);
        return own;
      }
    };

    proxy.getCodeFixesAtPosition = (fileName, start, end, errorCodes, formatOptions, preferences) => {
      const theirs = errorCodes.filter((c) => c < 90000 || c >= 92000);
      const own = theirs.length ? ls.getCodeFixesAtPosition(fileName, start, end, theirs, formatOptions, preferences) : [];
      try {
        const found = schema(fileName);
        if (!found) return own;
        const fixes = found.engine.fixes(fileName, found.text, start, end).filter((f) => f.codes.some((c) => errorCodes.includes(engineModule!.numericCode(c))));
        const added: TS.CodeFixAction[] = fixes.map((f) => ({
          fixName: `ddbgen ${f.codes.join(' ')}`,
          description: f.title,
          changes: f.edits ? [{ fileName, textChanges: f.edits.map((e) => ({ span: { start: e.start, length: e.end - e.start }, newText: e.newText })) }] : [],
          ...(f.command ? { commands: [{ type: f.command.name, file: f.command.file } as TS.CodeActionCommand] } : {}),
        }));
        return [...own, ...added];
      } catch (error) {
        log(`code fixes failed: ${String(error)}`);
        return own;
      }
    };

    proxy.getSupportedCodeFixes = (fileName) => {
      const own = typeof ls.getSupportedCodeFixes === 'function' ? ls.getSupportedCodeFixes(fileName) : [];
      try {
        return engineModule ? [...own, ...engineModule.FIXABLE_CODES.map((c) => String(engineModule!.numericCode(c)))] : own;
      } catch {
        return own;
      }
    };

    proxy.applyCodeActionCommand = ((action: TS.CodeActionCommand | TS.CodeActionCommand[] | string, ...rest: unknown[]) => {
      const command = (typeof action === 'string' ? rest[0] : action) as { type?: string; file?: string } | undefined;
      if (command && !Array.isArray(command) && command.type === 'ddbgen.generate' && typeof command.file === 'string') {
        const e = getEngine();
        if (!e) return Promise.resolve({ successMessage: 'ddbgen is still starting; try again' });
        return e.generate(command.file).then(({ ok, output }) => {
          if (!ok) throw new Error(`ddbgen generate failed:\n${output}`);
          return { successMessage: 'ddbgen generate: the output is up to date' };
        });
      }
      return (ls.applyCodeActionCommand as (...a: unknown[]) => unknown)(action, ...rest);
    }) as TS.LanguageService['applyCodeActionCommand'];

    return proxy;
  }

  return {
    create,
    onConfigurationChanged(next: PluginConfig) {
      config = next ?? {};
    },
  };
}

module.exports = init;
