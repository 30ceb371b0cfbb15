// `npm run bench:editor [-- --smoke]`: how fast the design check answers in the editor. A key
// template of a synthetic schema (bench/synthetic.ts: 20 and 100 entities of 8 attributes and 2
// GSI mappings) is edited, a new text each time (nothing cached), and the time until ddbgen's
// diagnostics for that text are ready is measured two ways: in the engine itself (what the
// tsserver plugin and the language server wait for), and end to end through `ddbgen lsp` (didChange
// to publishDiagnostics, over stdio). The sizes run interleaved, round by round; min, median and
// max are reported. Then the engine's heap after thousands of edits, to show it stays bounded.
// Writes section 12 of BENCHMARKS.md (and its goal rows); --smoke runs a few edits and writes nothing.

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import rpc from 'vscode-jsonrpc/node';
import { EditorEngine } from '../dist/generator/editor/editor-engine.js';
import { writeSynthetic } from './synthetic.js';
import { stats, type Stats } from './stats.js';

const smoke = process.argv.includes('--smoke');
const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '..');
const SIZES = [20, 100] as const;
const GOAL_MS: Record<number, number> = { 20: 150, 100: 500 };
const ROUNDS = smoke ? 1 : 10;
const EDITS_PER_ROUND = smoke ? 2 : 5;
const MEMORY_EDITS = smoke ? 50 : 2000;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:editor does)');

const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

/** The schemas, in a folder of the checkout (so 'ddbgen' resolves to it), each a file of its own. */
const dir = path.join(here, 'out', 'editor');
const schemas = new Map<number, { file: string; text: string }>();
for (const size of SIZES) {
  const folder = path.join(dir, `e${size}`);
  mkdirSync(folder, { recursive: true });
  writeSynthetic(folder, size);
  const file = path.join(folder, 'schema.ts');
  schemas.set(size, { file, text: readFileSync(file, 'utf8') });
}

let counter = 0;
/** The schema with one key template edited as by typing: a new literal each time, so no edit hits the cache. */
function edited(size: number): string {
  const { text } = schemas.get(size)!;
  const n = counter++;
  const entity = n % size;
  return text.replace(`key: { pk: 'Thing${entity}#<id>'`, `key: { pk: 'Thing${entity}v${n}#<id>'`);
}

// 1. the engine: analyze() of a new text, until its diagnostics are ready
const engine = new EditorEngine({ staleCheck: false });
for (const size of SIZES) for (let i = 0; i < 3; i++) await engine.analyze(schemas.get(size)!.file, edited(size)); // warm-up
const engineTimes = new Map<number, number[]>(SIZES.map((s) => [s, []]));
let diagnosticsSeen = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const size of round % 2 ? [...SIZES].reverse() : SIZES) {
    for (let i = 0; i < EDITS_PER_ROUND; i++) {
      const text = edited(size);
      const started = performance.now();
      const analysis = await engine.analyze(schemas.get(size)!.file, text);
      engineTimes.get(size)!.push(performance.now() - started);
      if (analysis.skipped || analysis.tables.length !== 1) throw new Error(`the edit was not checked: ${analysis.skipped ?? 'no table'}`);
      diagnosticsSeen += analysis.diagnostics.length;
    }
  }
}

// 2. end to end: ddbgen lsp over stdio, didChange → publishDiagnostics for that version
const child = spawn(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
const waiting = new Map<string, { version: number; resolve: () => void }>();
connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number }) => {
  const w = waiting.get(p.uri);
  if (w && p.version === w.version) w.resolve();
});
connection.onNotification('window/logMessage', () => undefined);
connection.listen();
await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
await connection.sendNotification('initialized', {});
const versions = new Map<number, number>();
async function lspEdit(size: number): Promise<number> {
  const { file } = schemas.get(size)!;
  const uri = pathToFileURL(file).href;
  const version = (versions.get(size) ?? 0) + 1;
  versions.set(size, version);
  const text = edited(size);
  const done = new Promise<void>((resolve) => waiting.set(uri, { version, resolve }));
  const started = performance.now();
  if (version === 1) await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version, text } });
  else await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
  await done;
  return performance.now() - started;
}
for (const size of SIZES) for (let i = 0; i < 3; i++) await lspEdit(size); // warm-up (and the open)
const lspTimes = new Map<number, number[]>(SIZES.map((s) => [s, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const size of round % 2 ? [...SIZES].reverse() : SIZES) for (let i = 0; i < EDITS_PER_ROUND; i++) lspTimes.get(size)!.push(await lspEdit(size));
}
await connection.sendRequest('shutdown');
await connection.sendNotification('exit');
connection.dispose();

// 3. memory: thousands of edits through one engine (its LRU holds 64 analyses)
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const memory: Array<{ edits: number; heap: number; rss: number }> = [{ edits: 0, heap: heap(), rss: process.memoryUsage().rss / 2 ** 20 }];
const memoryEngine = new EditorEngine({ staleCheck: false });
for (let i = 1; i <= MEMORY_EDITS; i++) {
  await memoryEngine.analyze(schemas.get(20)!.file, edited(20));
  if (i % Math.max(1, Math.floor(MEMORY_EDITS / 6)) === 0 || i === MEMORY_EDITS) memory.push({ edits: i, heap: heap(), rss: process.memoryUsage().rss / 2 ** 20 });
}

const load = os.loadavg().map((l) => l.toFixed(1)).join(', ');
const row = (label: string, values: number[]) => {
  const s = stats(values);
  return `| ${label} | ${ms(s.median)} ms | ${ms(s.min)} – ${ms(s.max)} |`;
};
const section = [
  '## 12. Editor diagnostics after an edit (the tsserver plugin\'s and `ddbgen lsp`\'s engine)',
  '',
  `\`npm run bench:editor\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}; load average at the end ${load} (1, 5, 15 min). A key template of the synthetic schema (8 attributes and 2 GSI mappings per entity) is edited to a new text each time, so no edit is answered from the cache; ${ROUNDS} rounds of ${EDITS_PER_ROUND} edits per size, the sizes interleaved. The engine: from the new text to its diagnostics (load from the unsaved text, validate, lint, place; what the plugin and the server wait for). End to end: \`ddbgen lsp\` over stdio, from didChange to the publishDiagnostics of that version.`,
  '',
  '| schema, measured | median | min – max |',
  '|---|---|---|',
  ...SIZES.map((size) => row(`${size} entities, engine`, engineTimes.get(size)!)),
  ...SIZES.map((size) => row(`${size} entities, \`ddbgen lsp\` end to end`, lspTimes.get(size)!)),
  '',
  `Memory across ${MEMORY_EDITS.toLocaleString('en-US')} edits of the 20-entity schema through one engine (heap after a full collection; the cache keeps the last 64 analyses):`,
  '',
  '| edits | heap used | resident |',
  '|---|---|---|',
  ...memory.map((m) => `| ${m.edits.toLocaleString('en-US')} | ${m.heap.toFixed(0)} MB | ${m.rss.toFixed(0)} MB |`),
  '',
].join('\n');
process.stdout.write(`${section}\n(${diagnosticsSeen} diagnostics checked)\n`);

if (!smoke) {
  const file = path.join(root, 'BENCHMARKS.md');
  let text = readFileSync(file, 'utf8');
  const start = text.indexOf('## 12. Editor diagnostics');
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + 1);
    text = text.slice(0, start) + section + (next >= 0 ? text.slice(next + 1) : '');
  } else text = `${text.trimEnd()}\n\n${section}`;
  const goals = SIZES.map((size) => {
    const engineStats = stats(engineTimes.get(size)!);
    const lspStats = stats(lspTimes.get(size)!);
    const goal = GOAL_MS[size]!;
    const medians = lspStats.median <= goal && engineStats.median <= goal;
    const met = medians && lspStats.max <= goal && engineStats.max <= goal;
    const cause = met
      ? 'section 12'
      : `section 12: ${medians ? `the medians are within it; the slowest edits (${ms(Math.max(engineStats.max, lspStats.max))} ms) came with a load average of ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores` : 'the medians are over it'}; next, run the check in a worker thread, so that neither a collection nor a slow schema holds the editor's process`;
    return `| editor diagnostics after an edit, ${size}-entity schema: median / max (engine; \`ddbgen lsp\` end to end) | ${ms(engineStats.median)} / ${ms(engineStats.max)} ms; ${ms(lspStats.median)} / ${ms(lspStats.max)} ms | ≤ ${goal} ms, median and max | ${met ? 'met' : medians ? 'median met, max missed' : 'missed'} | ${cause} |`;
  });
  const lines = text.split('\n').filter((l) => !l.startsWith('| editor diagnostics after an edit'));
  // the goals table: after its separator row, up to the first line that is not a row
  const separator = lines.findIndex((l, i) => i > lines.indexOf('## 0. Goals') && l.startsWith('|---'));
  const end = lines.findIndex((l, i) => i > separator && !l.startsWith('|'));
  lines.splice(end, 0, ...goals);
  writeFileSync(file, lines.join('\n'));
  process.stdout.write('BENCHMARKS.md: section 12 and its goal rows written\n');
}
