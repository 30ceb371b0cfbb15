// Lays out a generated module as a formatter would (dprint's TypeScript plugin): lines wrap at 100
// columns, two-space indents, single quotes, trailing commas where a list spans lines. The
// emitters print flat code; this is the only place that decides where lines break.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { createFromBuffer, type Formatter } from '@dprint/formatter';
import { getPath } from '@dprint/typescript';

export const LINE_WIDTH = 100;

let formatter: Formatter | undefined;

/** dprint's settings: the whole configuration first, then the TypeScript plugin's. */
const CONFIG = [
  { lineWidth: LINE_WIDTH, indentWidth: 2, useTabs: false, newLineKind: 'lf' },
  {
    quoteStyle: 'alwaysSingle',
    semiColons: 'prefer',
    'typeLiteral.separatorKind.singleLine': 'semiColon',
    'typeLiteral.separatorKind.multiLine': 'semiColon',
    trailingCommas: 'onlyMultiLine',
    'arrowFunction.useParentheses': 'force',
    operatorPosition: 'nextLine',
    'module.sortImportDeclarations': 'maintain',
    'importDeclaration.sortNamedImports': 'maintain',
    'exportDeclaration.sortNamedExports': 'maintain',
  },
] as const;

function load(): Formatter {
  if (!formatter) {
    formatter = createFromBuffer(readFileSync(getPath()));
    formatter.setConfig(...(CONFIG as unknown as Parameters<Formatter['setConfig']>));
  }
  return formatter;
}

/** The module's text laid out (in `width` columns, the output's by default); `filePath` only names it in an error. */
export function formatModule(filePath: string, text: string, width = LINE_WIDTH): string {
  return load().formatText({ filePath, fileText: text, ...(width === LINE_WIDTH ? {} : { overrideConfig: { lineWidth: width } }) });
}

/** Modules laid out by a worker thread while this thread goes on (startLayout). */
export interface Layout {
  /** Hands a module over to be laid out as formatModule lays it out. */
  readonly add: (filePath: string, text: string) => void;
  /** Blocks until every module handed over is laid out: their texts, in the order handed over (dprint's error, thrown, if one failed). */
  readonly finish: () => string[];
}

/** How long a waiting main thread trusts the worker for one module. */
const LAYOUT_PATIENCE_MS = 5 * 60 * 1000;

/**
 * The worker: dprint, the same build and settings, laying out each module it is handed, then
 * waking the main thread. Plain JavaScript (the formatter's own CommonJS, by absolute path), so no
 * loader of ddbgen's can fail it.
 */
const WORKER = `
const { readFileSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const { formatterModule, wasm, config, port, flag } = workerData;
let formatter;
port.on('message', ({ id, filePath, text }) => {
  let answer;
  try {
    formatter ??= (() => { const f = require(formatterModule).createFromBuffer(readFileSync(wasm)); f.setConfig(...config); return f; })();
    answer = { id, text: formatter.formatText({ filePath, fileText: text }) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
  Atomics.add(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

/** The layout worker of this process, started at the first generation and kept (idle, not keeping the process alive) for the next. */
let shared: { worker: Worker; port: MessagePort; flag: Int32Array; answered: number } | undefined;

/**
 * A worker thread laying modules out (as formatModule does) while this thread makes the next ones:
 * generation prints and lays out at once, on two cores. `finish` waits without an event-loop turn,
 * so generation stays synchronous. The worker (and the formatter it compiled) serves every
 * generation of the process in turn.
 */
export function startLayout(): Layout {
  if (!shared) {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    const formatterModule = createRequire(import.meta.url).resolve('@dprint/formatter');
    const worker = new Worker(WORKER, { eval: true, workerData: { formatterModule, wasm: getPath(), config: CONFIG, port: port2, flag }, transferList: [port2] });
    worker.unref();
    port1.unref();
    shared = { worker, port: port1, flag, answered: 0 };
  }
  const { port, flag } = shared;
  const session = shared;
  let added = 0;
  return {
    add: (filePath, text) => port.postMessage({ id: added++, filePath, text }),
    finish: () => {
      const texts: string[] = new Array<string>(added);
      let received = 0;
      let failure: string | undefined;
      while (received < added) {
        const message = receiveMessageOnPort(port)?.message as { id: number; text?: string; error?: string } | undefined;
        if (message) {
          received++;
          session.answered++;
          if (message.error !== undefined) failure ??= message.error;
          else texts[message.id] = message.text!;
          continue;
        }
        const seen = Atomics.load(flag, 0);
        if (seen <= session.answered && Atomics.wait(flag, 0, seen, LAYOUT_PATIENCE_MS) === 'timed-out') {
          // a worker that stopped answering is let go: the next generation starts another
          void session.worker.terminate();
          if (shared === session) shared = undefined;
          throw new Error('internal: the layout worker did not answer');
        }
      }
      if (failure !== undefined) throw new Error(failure);
      return texts;
    },
  };
}
