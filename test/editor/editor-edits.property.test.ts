// Property: whatever a user does to a schema mid-edit (a random truncation, a deleted range, stray
// characters typed in), neither the tsserver plugin nor `ddbgen lsp` crashes or stops answering,
// and no diagnostic either returns lies outside the text it was computed for. Every fixture under
// fixtures/ is edited (DDBGEN_EDITOR_RUNS random edits each, default 1), through one tsserver and
// one language server for the whole property; after each edit both have finished checking it.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import fc from 'fast-check';
import rpc from 'vscode-jsonrpc/node';
import { declaresTable } from '../../generator/editor/schema-text.js';
import { TsServer, positionOf, root, starterProject, type TsDiagnostic } from '../support/editor-project.js';

const RUNS = Number(process.env['DDBGEN_EDITOR_RUNS'] ?? 1);
const fixtures = readdirSync(path.join(root, 'fixtures'), { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.ts'))
  .sort();

/** A random edit as a user makes one: cut the text short, delete a stretch, or type a few characters (brackets, quotes, delimiters) somewhere. */
const edit = (text: string) =>
  fc.oneof(
    fc.nat({ max: text.length }).map((at) => ({ what: `truncated at ${at}`, text: text.slice(0, at) })),
    fc.tuple(fc.nat({ max: text.length }), fc.integer({ min: 1, max: 60 })).map(([at, n]) => ({ what: `deleted ${n} at ${at}`, text: text.slice(0, at) + text.slice(at + n) })),
    fc.tuple(fc.nat({ max: text.length }), fc.string({ unit: fc.constantFrom(...`'"\`<>{}()[],:#.|\n x1`.split('')), minLength: 1, maxLength: 8 })).map(([at, typed]) => ({ what: `typed ${JSON.stringify(typed)} at ${at}`, text: text.slice(0, at) + typed + text.slice(at) })),
    // inside a key template: a placeholder cut open, as when typing one
    fc.nat().map((n) => {
      const templates = [...text.matchAll(/<[\w:]+>/g)];
      const found = templates[n % Math.max(1, templates.length)];
      if (!found) return { what: 'unchanged', text };
      const cut = found.index! + 1 + (n % found[0].length);
      return { what: `placeholder cut at ${cut}`, text: text.slice(0, cut) + text.slice(found.index! + found[0].length) };
    }),
  );

test('random edits of every fixture never crash the tsserver plugin or ddbgen lsp, and no diagnostic lies outside the file', async (t) => {
  t.timeout(280_000);
  const project = await starterProject('edits');
  mkdirSync(path.join(project.dir, 'fixtures'));
  const files = fixtures.map((f) => {
    const file = path.join(project.dir, 'fixtures', f.replace(/[\\/]/g, '-'));
    copyFileSync(path.join(root, 'fixtures', f), file);
    return file;
  });
  const ts = new TsServer(project.dir);
  const child = spawn(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'lsp', '--stdio'], { cwd: project.dir, stdio: ['pipe', 'pipe', 'pipe'] });
  let lspErrors = '';
  child.stderr.on('data', (d) => (lspErrors += d));
  const lsp = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const published = new Map<string, Array<{ version?: number; diagnostics: Array<{ range: { start: { line: number; character: number }; end: { line: number; character: number } } }> }>>();
  lsp.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number; diagnostics: [] }) => {
    published.set(p.uri, [...(published.get(p.uri) ?? []), p]);
  });
  lsp.onNotification('window/logMessage', (m: { message: string }) => {
    lspErrors += `${m.message}\n`;
  });
  lsp.listen();
  await lsp.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(project.dir).href, capabilities: {} });
  await lsp.sendNotification('initialized', {});
  let checked = 0;
  try {
    for (const file of files) {
      const original = readFileSync(file, 'utf8');
      const uri = pathToFileURL(file).href;
      let version = 1;
      let current = original;
      const seen = new Set([original]);
      ts.notify('open', { file, fileContent: original, scriptKindName: 'TS', projectRootPath: project.dir });
      await lsp.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version, text: original } });
      await fc
        .assert(
          fc.asyncProperty(edit(original), async (change) => {
            const lines = change.text.split('\n');
            const inside = (line: number, offset: number) => line >= 0 && line < lines.length && offset >= 0 && offset <= lines[line]!.length;
            // tsserver: the text replaced, checked, and checked again once the plugin's analysis of it is ready
            ts.replaceText(file, current, change.text);
            current = change.text;
            // a new text that declares a table is analysed after the first answer, and tsserver told to check again
            const analysed = declaresTable(file, change.text) && !seen.has(change.text);
            seen.add(change.text);
            // the first analysis waits for the plugin's cold start (its worker loads the compiler and the DSL): on a loaded 2-core machine, well past 30 s
            const refreshed = analysed ? ts.next((m) => m.event === 'projectsUpdatedInBackground', checked === 0 ? 120_000 : 30_000) : undefined;
            const first = await ts.semanticDiagnostics(file);
            const second = refreshed ? (await refreshed, await ts.semanticDiagnostics(file)) : [];
            for (const d of [...first, ...second].filter((x: TsDiagnostic) => x.source === 'ddbgen')) {
              t.true(inside(d.start.line - 1, d.start.offset - 1) && inside(d.end.line - 1, d.end.offset - 1), `${path.basename(file)}, ${change.what}: tsserver put ${JSON.stringify(d)} outside the text`);
              t.true(positionOf(change.text, d.start) <= positionOf(change.text, d.end));
            }
            // ddbgen lsp: the new version, and its publication
            version++;
            await lsp.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text: change.text }] });
            // the first answer of a file waits for the server's cold start, as above
            const until = Date.now() + (version === 2 ? 120_000 : 30_000);
            let publication;
            while (!(publication = published.get(uri)?.find((p) => p.version === version)) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
            t.truthy(publication, `${path.basename(file)}, ${change.what}: no publishDiagnostics for version ${version}; ${lspErrors}`);
            for (const d of publication?.diagnostics ?? []) t.true(inside(d.range.start.line, d.range.start.character) && inside(d.range.end.line, d.range.end.character), `${path.basename(file)}, ${change.what}: lsp put ${JSON.stringify(d.range)} outside the text`);
            checked++;
          }),
          { numRuns: RUNS },
        )
        // the property's own error (an assertion, a server's timeout) with the counterexample
        .catch((error: Error & { cause?: unknown }) => {
          throw error.cause instanceof Error ? Object.assign(error.cause, { message: `${error.cause.message}\n${error.message}` }) : error;
        });
      ts.notify('close', { file });
      await lsp.sendNotification('textDocument/didClose', { textDocument: { uri } });
    }
    // both still answer
    t.is(ts.process.exitCode, null, ts.stderr);
    t.is(child.exitCode, null, lspErrors);
    await ts.request('quickinfo', { file: project.schema, line: 1, offset: 1 }).catch(() => undefined);
    t.deepEqual(await lsp.sendRequest('textDocument/hover', { textDocument: { uri: pathToFileURL(files[0]!).href }, position: { line: 0, character: 0 } }), null);
    t.is(checked, files.length * RUNS);
  } finally {
    await ts.close();
    await lsp.sendRequest('shutdown').catch(() => undefined);
    await lsp.sendNotification('exit').catch(() => undefined);
    lsp.dispose();
  }
});
