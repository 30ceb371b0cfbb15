// The editor tests' set-up: a fresh project as a new user has it after `npm install ddbgen` and
// `npx ddbgen init` (ddbgen linked to this checkout, the starter schema and config, a tsconfig with
// the plugin line from docs/guide/editor.md), and clients for the two servers: a real tsserver
// process (TypeScript's own, with the plugin loaded by name from the tsconfig) and `ddbgen lsp`.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../generator/cli/cli.js';

export const root = path.resolve(import.meta.dirname, '../..');

/** The plugin line as the guide gives it. */
export const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, plugins: [{ name: 'ddbgen/ts-plugin' }] },
};

/** A new project with ddbgen installed (linked), `ddbgen init` run in it, and the plugin in its tsconfig. */
export async function starterProject(prefix: string): Promise<{ dir: string; schema: string; text: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), `editor-${prefix}-`));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'user-app', private: true, type: 'module' }));
  mkdirSync(path.join(dir, 'node_modules', '@aws-sdk'), { recursive: true });
  symlinkSync(root, path.join(dir, 'node_modules', 'ddbgen'), 'dir');
  for (const sdk of ['client-dynamodb', 'lib-dynamodb']) symlinkSync(path.join(root, 'node_modules', '@aws-sdk', sdk), path.join(dir, 'node_modules', '@aws-sdk', sdk), 'dir');
  const out: string[] = [];
  const code = await main(['init'], { cwd: dir, stdout: (t) => out.push(t), stderr: (t) => out.push(t) });
  if (code !== 0) throw new Error(`ddbgen init failed: ${out.join('')}`);
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  const schema = path.join(dir, 'schema.ts');
  return { dir, schema, text: readFileSync(schema, 'utf8') };
}

/** The starter schema with a hot key typed in: every Order in one partition, at 5,000 writes a second. */
export function withHotKey(text: string): string {
  const hot = text.replace("key: { pk: 'USER#<userId>', sk: 'ORDER#<placedAt>#<orderId>' },", "key: { pk: 'ORDERS', sk: 'ORDER#<placedAt>#<orderId>' },\n      traffic: { writesPerSecond: 5000 },");
  if (hot === text) throw new Error('the starter schema changed: update withHotKey');
  return hot;
}

/** 1-based line and offset of a position, as tsserver counts them. */
export function lineOffset(text: string, position: number): { line: number; offset: number } {
  const before = text.slice(0, position).split('\n');
  return { line: before.length, offset: before.at(-1)!.length + 1 };
}

/** The position of a 1-based line and offset. */
export function positionOf(text: string, at: { line: number; offset: number }): number {
  const lines = text.split('\n');
  return lines.slice(0, at.line - 1).reduce((n, l) => n + l.length + 1, 0) + at.offset - 1;
}

interface Message {
  readonly type: 'response' | 'event';
  readonly request_seq?: number;
  readonly success?: boolean;
  readonly message?: string;
  readonly command?: string;
  readonly event?: string;
  readonly body?: unknown;
}

export interface TsDiagnostic {
  readonly start: { line: number; offset: number };
  readonly end: { line: number; offset: number };
  readonly text: string;
  readonly code: number;
  readonly category: string;
  readonly source?: string;
}

/** A tsserver process speaking its protocol (requests as JSON lines, answers framed by Content-Length). */
export class TsServer {
  readonly process: ChildProcessWithoutNullStreams;
  private seq = 0;
  private buffer = Buffer.alloc(0);
  private readonly waiting = new Map<number, (m: Message) => void>();
  private readonly listeners = new Set<(m: Message) => void>();
  readonly events: Message[] = [];
  stderr = '';

  /** tsserver's log, where the plugin notes each text it has checked. */
  readonly logFile: string;

  /** A tsserver in `cwd`: TypeScript's own from this checkout, or the one at `tsserver` (an installed version's lib/tsserver.js). */
  constructor(cwd: string, tsserver = path.join(root, 'node_modules/typescript/lib/tsserver.js')) {
    this.logFile = path.join(cwd, 'tsserver.log');
    const args = [tsserver, '--disableAutomaticTypingAcquisition', '--useNodeIpc=false', '--logVerbosity', 'normal', '--logFile', this.logFile];
    this.process = spawn(process.execPath, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.process.stderr.on('data', (d) => (this.stderr += d));
    this.process.stdout.on('data', (chunk: Buffer) => this.read(chunk));
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const header = this.buffer.indexOf('\r\n\r\n');
      if (header < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(this.buffer.subarray(0, header).toString())?.[1]);
      if (this.buffer.length < header + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(header + 4, header + 4 + length).toString()) as Message;
      this.buffer = this.buffer.subarray(header + 4 + length);
      if (message.type === 'response' && message.request_seq !== undefined) {
        this.waiting.get(message.request_seq)?.(message);
        this.waiting.delete(message.request_seq);
      } else if (message.type === 'event') {
        this.events.push(message);
        for (const listener of this.listeners) listener(message);
      }
    }
  }

  /** Sends a request; resolves to the response's body (rejects on failure). */
  request<T = unknown>(command: string, args: unknown, timeout = 60_000): Promise<T> {
    const seq = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`tsserver: no answer to ${command} in ${timeout} ms; stderr: ${this.stderr}`)), timeout);
      this.waiting.set(seq, (m) => {
        clearTimeout(timer);
        if (m.success) resolve(m.body as T);
        else reject(new Error(`tsserver ${command}: ${m.message}`));
      });
      this.process.stdin.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`);
    });
  }

  /** Sends a request that has no response (open, change, geterr answer with events). */
  notify(command: string, args: unknown): void {
    this.process.stdin.write(`${JSON.stringify({ seq: ++this.seq, type: 'request', command, arguments: args })}\n`);
  }

  /** The next event matching `test`. */
  next(test: (m: Message) => boolean, timeout = 60_000): Promise<Message> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`tsserver: no matching event in ${timeout} ms; stderr: ${this.stderr}`));
      }, timeout);
      const listener = (m: Message) => {
        if (!test(m)) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(m);
      };
      this.listeners.add(listener);
    });
  }

  /** geterr for one file: its semantic diagnostics. */
  async semanticDiagnostics(file: string): Promise<TsDiagnostic[]> {
    const event = this.next((m) => m.event === 'semanticDiag' && (m.body as { file: string }).file === file);
    this.notify('geterr', { files: [file], delay: 0 });
    return ((await event).body as { diagnostics: TsDiagnostic[] }).diagnostics;
  }

  /** geterr until the semantic diagnostics satisfy `done` (the plugin answers from its cache and asks for a new check when a result is ready). */
  async diagnosticsUntil(file: string, done: (d: TsDiagnostic[]) => boolean, timeout = 60_000): Promise<TsDiagnostic[]> {
    const until = Date.now() + timeout;
    for (;;) {
      const diagnostics = await this.semanticDiagnostics(file);
      if (done(diagnostics)) return diagnostics;
      if (Date.now() > until) throw new Error(`diagnostics never matched; last: ${JSON.stringify(diagnostics)}\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * The semantic diagnostics of `file` once the plugin has checked `text` (its log says so): the
   * answers before that carry the last check's findings moved with the edit.
   */
  async settled(file: string, text: string, timeout = 60_000): Promise<TsDiagnostic[]> {
    const line = `checked ${file}: `;
    const hash = `, text ${createHash('sha1').update(text).digest('hex')}, `;
    const until = Date.now() + timeout;
    for (let i = 0; ; i++) {
      // asking for diagnostics asks for the check (again while the plugin itself is still loading)
      if (i % 10 === 0) await this.semanticDiagnostics(file);
      const log = existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
      if (log.split('\n').some((l) => l.includes(line) && l.includes(hash))) return this.semanticDiagnostics(file);
      if (Date.now() > until) throw new Error(`the plugin never checked this text of ${file}; ${this.stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Replaces the whole text of an open file (as an editor's change). */
  replaceText(file: string, before: string, after: string): void {
    const end = lineOffset(before, before.length);
    this.notify('change', { file, line: 1, offset: 1, endLine: end.line, endOffset: end.offset, insertString: after });
  }

  async close(): Promise<void> {
    if (this.process.exitCode !== null) return;
    const exited = new Promise((r) => this.process.once('exit', r));
    this.notify('exit', {});
    const timer = setTimeout(() => this.process.kill(), 5000);
    await exited;
    clearTimeout(timer);
  }
}
