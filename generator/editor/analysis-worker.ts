// The editor engine's analyses, in a worker thread (EngineOptions.worker): loading the user's schema
// module, validating and linting it run here, so that the editor's own thread (tsserver's, or the
// language server's) keeps answering while a schema is checked, a collection of this heap never
// pauses it, and a schema that never finishes loading (an endless loop in the user's module) is
// ended by terminating this thread, never by a frozen editor. Each message is one text to check; the
// answer is the analysis as the engine computes it in process.

import { parentPort } from 'node:worker_threads';
import { enableCodeCache } from '../cli/code-cache.js';
import type { WorkerAnswer, WorkerRequest } from './analysis-thread.js';

const port = parentPort;
if (port) {
  // this thread loads the compiler again: through V8's code cache, as the CLI does (code-cache.ts)
  enableCodeCache(process.cwd());
  const { EditorEngine } = await import('./editor-engine.js');
  const engine = new EditorEngine({ staleCheck: false, maxEntries: 16, log: (text) => port.postMessage({ log: text } satisfies WorkerAnswer) });
  port.on('message', (request: WorkerRequest) => {
    void engine.analyzeWithStamps(request.file, request.text).then((analysis) => port.postMessage({ id: request.id, analysis: { ...analysis, stamps: analysis.stamps ?? [] } } satisfies WorkerAnswer));
  });
  // the engine's modules are loaded: from now on a check is timed
  port.postMessage({ ready: true } satisfies WorkerAnswer);
}
