// `ddbgen lsp`: a Language Server Protocol server over stdio (vscode-languageserver), for editors
// that do not run TypeScript plugins: VS Code with the TypeScript 7 native preview, Neovim, Zed,
// Helix, JetBrains. The same engine as the plugin (editor-engine.ts) behind publishDiagnostics,
// completion, hover, codeAction and the ddbgen.generate command, for the same files (those the
// config names, and modules whose default export is defineTable(…)). Each change is analysed off
// the request (the engine works one text at a time and skips texts already replaced); a failure is
// logged to the client, never fatal.

import { fileURLToPath, pathToFileURL } from 'node:url';
import lsp from 'vscode-languageserver/node';
import type { CodeAction, CompletionItem, Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { packageVersion } from '../package-root.js';
import type { EditorDiagnostic } from './editor-answers.js';
import { EditorEngine } from './editor-engine.js';

const { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, DiagnosticSeverity, CodeActionKind, CompletionItemKind, MarkupKind } = lsp;

export const GENERATE_COMMAND = 'ddbgen.generate';

/** The file of a `file:` URI; undefined for other schemes (unsaved buffers, remote files). */
const fileOf = (uri: string) => {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
};

const SEVERITY = { error: DiagnosticSeverity.Error, warn: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information } as const;

/** Serves the protocol on the given streams (stdin and stdout by default) until the client exits. */
export function startLspServer(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<number> {
  const connection = createConnection(ProposedFeatures.all, input, output);
  const documents = new TextDocuments(TextDocument);
  const log = (text: string) => {
    try {
      connection.console.log(text);
    } catch {
      // the connection is gone: nothing to tell
    }
  };
  /** Publishes the diagnostics of one open document, if its analysis is ready for its current text. */
  const publish = (document: TextDocument, ready: readonly EditorDiagnostic[]) => {
    const diagnostics: LspDiagnostic[] = ready.map((d) => ({
      range: { start: document.positionAt(d.start), end: document.positionAt(d.start + d.length) },
      severity: SEVERITY[d.severity],
      code: d.code,
      codeDescription: { href: d.docs },
      source: 'ddbgen',
      message: `${d.message}\nfix: ${d.fix}`,
    }));
    void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
  };
  /** Checks a document (off the request: the engine's answer comes when it is ready) and publishes what it finds. */
  const check = (document: TextDocument) => {
    const file = fileOf(document.uri);
    const text = document.getText();
    const version = document.version;
    if (!file || !engine.isSchemaFile(file, text)) {
      publish(document, []);
      return;
    }
    void engine.analyze(file, text).then((analysis) => {
      const current = documents.get(document.uri);
      if (!current || current.version !== version || analysis.skipped === 'superseded') return;
      publish(current, engine.diagnostics(file, text));
    });
  };
  const engine: EditorEngine = new EditorEngine({
    log,
    // the checks run in a worker thread: this one keeps answering completions and hovers meanwhile,
    // and a schema module that never finishes loading is ended at the timeout, never a frozen server
    worker: true,
    // a result that was not ready (the config, the stale-output check): check the file's documents again
    onChange: (file) => {
      for (const document of documents.all()) if (fileOf(document.uri) === file) check(document);
    },
  });
  /** The document, its file and text for a request, when ddbgen checks it. */
  const schemaAt = (uri: string) => {
    const document = documents.get(uri);
    const file = fileOf(uri);
    if (!document || !file) return undefined;
    const text = document.getText();
    return engine.isSchemaFile(file, text) ? { document, file, text } : undefined;
  };

  connection.onInitialize(() => {
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: ['<', '#', '.', ':', '|', '/', '-', '_', "'", '"'] },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        executeCommandProvider: { commands: [GENERATE_COMMAND] },
      },
      serverInfo: { name: 'ddbgen', version: packageVersion() },
    };
  });

  documents.onDidChangeContent(({ document }) => check(document));
  documents.onDidSave(({ document }) => check(document));
  documents.onDidClose(({ document }) => void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] }));

  connection.onCompletion(({ textDocument, position }): CompletionItem[] => {
    try {
      const at = schemaAt(textDocument.uri);
      if (!at) return [];
      const items = engine.completions(at.file, at.text, at.document.offsetAt(position)) ?? [];
      return items.map((item, i) => ({
        label: item.name,
        kind: item.kind === 'literal' ? CompletionItemKind.Constant : item.kind === 'shard' ? CompletionItemKind.Keyword : CompletionItemKind.Field,
        detail: item.detail,
        labelDetails: { description: item.detail },
        sortText: String(i).padStart(4, '0'),
        textEdit: { range: { start: at.document.positionAt(item.start), end: at.document.positionAt(item.start + item.length) }, newText: item.insertText },
      }));
    } catch (error) {
      log(`ddbgen: completion failed: ${String(error)}`);
      return [];
    }
  });

  connection.onHover(({ textDocument, position }) => {
    try {
      const at = schemaAt(textDocument.uri);
      const hover = at && engine.hover(at.file, at.text, at.document.offsetAt(position));
      if (!at || !hover) return null;
      return { contents: { kind: MarkupKind.Markdown, value: hover.markdown }, range: { start: at.document.positionAt(hover.start), end: at.document.positionAt(hover.start + hover.length) } };
    } catch (error) {
      log(`ddbgen: hover failed: ${String(error)}`);
      return null;
    }
  });

  connection.onCodeAction(({ textDocument, range, context }): CodeAction[] => {
    try {
      const at = schemaAt(textDocument.uri);
      if (!at) return [];
      const start = at.document.offsetAt(range.start);
      const end = at.document.offsetAt(range.end);
      return engine.fixes(at.file, at.text, start, end).map((fix) => {
        const diagnostics = context.diagnostics.filter((d) => d.source === 'ddbgen' && fix.codes.includes(String(d.code)));
        const action: CodeAction = { title: fix.title, kind: CodeActionKind.QuickFix, ...(diagnostics.length ? { diagnostics } : {}), isPreferred: true };
        if (fix.edits) {
          action.edit = { changes: { [textDocument.uri]: fix.edits.map((e) => ({ range: { start: at.document.positionAt(e.start), end: at.document.positionAt(e.end) }, newText: e.newText })) } };
        }
        if (fix.command) action.command = { title: fix.title, command: GENERATE_COMMAND, arguments: [pathToFileURL(fix.command.file).href] };
        return action;
      });
    } catch (error) {
      log(`ddbgen: code actions failed: ${String(error)}`);
      return [];
    }
  });

  connection.onExecuteCommand(async ({ command, arguments: args }) => {
    if (command !== GENERATE_COMMAND) return null;
    const file = typeof args?.[0] === 'string' ? (fileOf(args[0]) ?? args[0]) : undefined;
    if (!file) {
      void connection.window.showErrorMessage('ddbgen.generate needs the schema file (its URI) as its argument');
      return null;
    }
    const { ok, output } = await engine.generate(file);
    if (ok) void connection.window.showInformationMessage('ddbgen generate: the output is up to date');
    else void connection.window.showErrorMessage(`ddbgen generate failed: ${output.trim()}`);
    return { ok, output };
  });

  // a bug in a handler is logged; the server keeps serving
  process.on('uncaughtException', (error) => log(`ddbgen: ${error.stack ?? error.message}`));
  process.on('unhandledRejection', (error) => log(`ddbgen: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));

  documents.listen(connection);
  connection.listen();
  return new Promise((resolve) =>
    connection.onExit(() => {
      engine.dispose();
      resolve(0);
    }),
  );
}
