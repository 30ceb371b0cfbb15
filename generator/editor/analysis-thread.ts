// The engine's side of its analysis worker (analysis-worker.ts is the worker's): one worker thread
// that checks a text and answers with its analysis, ended when a check takes longer than allowed,
// so that a schema whose module does not finish loading never holds the editor.

import { Worker } from 'node:worker_threads';
import type { Analysis } from './editor-answers.js';

/** A text for the analysis worker to check. */
export interface WorkerRequest {
  readonly id: number;
  readonly file: string;
  readonly text: string;
}

/** The analysis worker's answer to a request, or a line for the engine's log. */
export type WorkerAnswer = { readonly id: number; readonly analysis: Analysis & { readonly stamps: readonly Stamp[] } } | { readonly log: string } | { readonly ready: true };

/** A module jiti loaded for a schema: its path and modification time (a change on disk invalidates the analysis). */
export type Stamp = readonly [file: string, mtime: number];

/** The worker's module beside this one (its TypeScript source when this runs from source, under tsx). */
const workerUrl = new URL(import.meta.url.endsWith('.ts') ? './analysis-worker.ts' : './analysis-worker.js', import.meta.url);

/** What the worker made of a text: its analysis, or why there is none. */
export type Checked = (Analysis & { readonly stamps: readonly Stamp[] }) | 'timeout' | 'stopped';

/** One analysis worker thread: a text in, its analysis out; ended when a check takes longer than allowed. */
export class AnalysisWorker {
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
