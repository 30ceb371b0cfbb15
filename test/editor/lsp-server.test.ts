// `ddbgen lsp` end to end: the installed command (bin/ddbgen.js lsp --stdio) in a project made by
// `ddbgen init`, driven by a real JSON-RPC client (vscode-jsonrpc) as an editor drives it:
// initialize, didOpen, didChange, publishDiagnostics, completion, hover, codeAction (its edit
// applied and sent back), and the stale-output finding whose action runs the generator.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import rpc from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { main } from '../../generator/cli/cli.js';
import { root, starterProject, withHotKey } from '../support/editor-project.js';

interface Position {
  line: number;
  character: number;
}
interface Range {
  start: Position;
  end: Position;
}
interface Diagnostic {
  range: Range;
  severity: number;
  code: string;
  source: string;
  message: string;
  codeDescription?: { href: string };
}
interface TextEdit {
  range: Range;
  newText: string;
}
interface CodeAction {
  title: string;
  edit?: { changes: Record<string, TextEdit[]> };
  command?: { command: string; arguments: unknown[] };
}

const positionOf = (text: string, offset: number): Position => {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before.at(-1)!.length };
};
const offsetOf = (text: string, p: Position) => text.split('\n').slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
const apply = (text: string, edits: readonly TextEdit[]) =>
  edits
    .map((e) => ({ start: offsetOf(text, e.range.start), end: offsetOf(text, e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start)
    .reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);

/** A running `ddbgen lsp` and a client connected to it. */
async function startServer(cwd: string): Promise<{ connection: MessageConnection; child: ChildProcessWithoutNullStreams; published: Array<{ uri: string; version?: number; diagnostics: Diagnostic[] }>; stderr: () => string }> {
  const child = spawn(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'lsp', '--stdio'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const published: Array<{ uri: string; version?: number; diagnostics: Diagnostic[] }> = [];
  connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; version?: number; diagnostics: Diagnostic[] }) => {
    published.push(params);
  });
  connection.onNotification('window/logMessage', () => undefined);
  connection.onNotification('window/showMessage', () => undefined);
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(cwd).href, capabilities: {} });
  await connection.sendNotification('initialized', {});
  return { connection, child, published, stderr: () => stderr };
}

/** Waits until a publication for `uri` satisfies `test` (checked from `since` on). */
async function published(server: Awaited<ReturnType<typeof startServer>>, uri: string, test: (d: Diagnostic[], version?: number) => boolean, since = 0, timeout = 60_000): Promise<Diagnostic[]> {
  const until = Date.now() + timeout;
  for (;;) {
    const found = server.published.slice(since).findLast((p) => p.uri === uri && test(p.diagnostics, p.version));
    if (found) return found.diagnostics;
    if (Date.now() > until) throw new Error(`no matching publishDiagnostics; got ${JSON.stringify(server.published.slice(since))}\n${server.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function stop(server: Awaited<ReturnType<typeof startServer>>): Promise<void> {
  const exited = new Promise((r) => server.child.once('exit', r));
  await server.connection.sendRequest('shutdown');
  await server.connection.sendNotification('exit');
  const timer = setTimeout(() => server.child.kill(), 5000);
  await exited;
  clearTimeout(timer);
  server.connection.dispose();
}

test('didOpen and didChange publish the diagnostics; completion, hover and the code action that applies', async (t) => {
  t.timeout(120_000);
  const project = await starterProject('lsp');
  const server = await startServer(project.dir);
  try {
    const uri = pathToFileURL(project.schema).href;
    await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: project.text } });
    t.deepEqual(await published(server, uri, (_, v) => v === 1), []);

    const hot = withHotKey(project.text);
    await server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: hot }] });
    const diagnostics = await published(server, uri, (d, v) => v === 2 && d.length > 0);
    const hk001 = diagnostics.find((d) => d.code === 'HK001')!;
    const at = hot.indexOf("'ORDERS'");
    t.deepEqual(hk001.range, { start: positionOf(hot, at), end: positionOf(hot, at + "'ORDERS'".length) });
    t.is(hk001.severity, 1);
    t.is(hk001.source, 'ddbgen');
    t.regex(hk001.message, /^Order \(table\): partition key "ORDERS" has no placeholder, so every write goes to one key; 5,000 writes\/s × 1 × 1 WCU per 1 KB write = 5,000 WCU\/s on the hottest key/);
    t.regex(hk001.codeDescription!.href, /\/docs\/rules\/HK001\.md$/);

    const hover = await server.connection.sendRequest<{ contents: { kind: string; value: string }; range: Range }>('textDocument/hover', { textDocument: { uri }, position: positionOf(hot, at + 3) });
    t.is(hover.contents.kind, 'markdown');
    t.true(hover.contents.value.includes('Example key: `ORDERS`'));
    t.true(hover.contents.value.includes("= 5,000 WCU/s on the hottest key (share 1: assumed uniform over a constant), 500% of a partition's 1,000 WCU/s"));

    const actions = await server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: hk001.range, context: { diagnostics: [hk001] } });
    const shard = actions.find((a) => a.title.startsWith('Shard the key'))!;
    t.truthy(shard, JSON.stringify(actions));
    const fixed = apply(hot, shard.edit!.changes[uri]!);
    t.true(fixed.includes("pk: 'ORDERS#<shard>'") && fixed.includes('shard: { count: 7 }'));
    await server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: fixed }] });
    const after = await published(server, uri, (_, v) => v === 3);
    t.false(after.some((d) => d.code === 'HK001'), JSON.stringify(after));

    // completion in a half-typed placeholder (an incremental change, as editors send keystrokes)
    const sk = fixed.indexOf("'ORDER#<placedAt>#<orderId>'");
    const typing = `${fixed.slice(0, sk)}'ORDER#<pl'${fixed.slice(sk + "'ORDER#<placedAt>#<orderId>'".length)}`;
    await server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 4 }, contentChanges: [{ range: { start: positionOf(fixed, sk), end: positionOf(fixed, sk + "'ORDER#<placedAt>#<orderId>'".length) }, text: "'ORDER#<pl'" }] });
    t.deepEqual(await published(server, uri, (_, v) => v === 4), [], 'a half-typed template: no ddbgen diagnostics');
    const items = await server.connection.sendRequest<Array<{ label: string; detail: string; textEdit: TextEdit }>>('textDocument/completion', { textDocument: { uri }, position: positionOf(typing, typing.indexOf('<pl') + 3) });
    t.deepEqual(items.map((i) => [i.label, i.detail]), [['userId', 'string'], ['orderId', 'string'], ['placedAt', 'timestamp'], ['total', 'number 0..1000000000']]);
    t.is(apply(typing, [items.find((i) => i.label === 'placedAt')!.textEdit]).includes("'ORDER#<placedAt>'"), true);
  } finally {
    await stop(server);
  }
});

test('a schema module that never finishes loading freezes nothing: the server answers meanwhile and exits when asked', async (t) => {
  t.timeout(180_000);
  const project = await starterProject('lsp-loop');
  const server = await startServer(project.dir);
  try {
    const uri = pathToFileURL(project.schema).href;
    await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: project.text } });
    await published(server, uri, (_, v) => v === 1, 0, 120_000);
    // the module now loops at its top level: its check runs (and loops) on the worker thread
    const looping = `while (true) {}\n${project.text}`;
    await server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: looping }] });
    await new Promise((r) => setTimeout(r, 1000));
    const at = looping.indexOf("'USER#<userId>'") + 8;
    const answer = server.connection.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: positionOf(looping, at) });
    const late = new Promise<'late'>((r) => setTimeout(() => r('late'), 10_000));
    const hover = await Promise.race([answer, late]);
    t.not(hover, 'late', 'the hover was answered while the schema looped');
    t.true(hover !== 'late' && hover !== null && hover.contents.value.includes('Example key'), JSON.stringify(hover));
  } finally {
    await stop(server);
  }
});

test('stale output: DDB090 on the saved schema whose output no longer matches it, and the action that runs the generator clears it', async (t) => {
  t.timeout(180_000);
  const project = await starterProject('lsp-stale');
  const out: string[] = [];
  t.is(await main(['generate', '--quiet'], { cwd: project.dir, stdout: (s) => out.push(s), stderr: (s) => out.push(s) }), 0, out.join(''));
  const server = await startServer(project.dir);
  try {
    const uri = pathToFileURL(project.schema).href;
    // a new attribute, saved: the output was generated before it
    const edited = project.text.replace('        total: t.number({ min: 0, max: 1e9 }),', '        total: t.number({ min: 0, max: 1e9 }),\n        note: t.string().optional(),');
    writeFileSync(project.schema, edited);
    await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: edited } });
    const stale = (await published(server, uri, (d) => d.some((x) => x.code === 'DDB090'), 0, 90_000)).find((d) => d.code === 'DDB090')!;
    t.is(stale.message, 'the generated output in out/app no longer matches this schema (1 file changed): what generate --check reports\nfix: run npx ddbgen generate to regenerate it');
    const at = edited.indexOf('export default');
    t.deepEqual(stale.range, { start: positionOf(edited, at), end: positionOf(edited, at + 'export'.length) });
    const actions = await server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: stale.range, context: { diagnostics: [stale] } });
    const run = actions.find((a) => a.command?.command === 'ddbgen.generate')!;
    t.is(run.title, 'Run npx ddbgen generate');
    const since = server.published.length;
    const result = await server.connection.sendRequest<{ ok: boolean; output: string }>('workspace/executeCommand', { command: run.command!.command, arguments: run.command!.arguments });
    t.true(result.ok, result.output);
    t.true(readFileSync(path.join(project.dir, 'out/app/order.ts'), 'utf8').includes('note'));
    await published(server, uri, (d) => !d.some((x) => x.code === 'DDB090'), since);
    t.pass();
  } finally {
    await stop(server);
  }
});

test('ddbgen lsp in the command line: its help, and arguments it does not take', async (t) => {
  const run = async (args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await main(args, { cwd: root, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
    return { code, stdout, stderr };
  };
  const help = await run(['help', 'lsp']);
  t.is(help.code, 0);
  t.regex(help.stdout, /^Usage: ddbgen lsp \[--stdio\]\n\nA Language Server Protocol server over stdin and stdout/);
  t.regex((await run(['--help'])).stdout, /\n {2}ddbgen lsp {9}a language server: the design check in any editor\n/);
  t.deepEqual(await run(['lsp', 'schema.ts']), { code: 2, stdout: '', stderr: 'ddbgen: lsp takes no arguments (it talks over stdin and stdout)\n  run ddbgen help lsp for the usage\n' });
  t.is((await run(['lsp', '--check'])).stderr, 'ddbgen: lsp does not take --check\n  run ddbgen help lsp for the usage\n');
});
