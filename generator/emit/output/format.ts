// Lays out a generated module as a formatter would (dprint's TypeScript plugin): lines wrap at 100
// columns, two-space indents, single quotes, trailing commas where a list spans lines. The
// emitters print flat code; this is the only place that decides where lines break.

import { randomUUID } from 'node:crypto';
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

/**
 * Code shown in a doc comment (an `@example`'s call, or the request it sends), laid out at its own
 * width; `wrap` surrounds it for the layout and is taken off after (`(` and `);` make an object a
 * statement), and each line is written after `linePrefix` (`// ` comments a request).
 */
export interface DocCode {
  readonly code: string;
  readonly width: number;
  readonly wrap?: readonly [open: string, close: string];
  readonly linePrefix?: string;
}

/**
 * The text of a DocCode laid out, its lines joined, with a `*\/` wherever the code has a comment's
 * end (as commentText escapes doc text); given dprint's formatText at a width. JavaScript source:
 * the layout worker evaluates it beside its formatter and this thread compiles the same text
 * (docCodeText), so the two lay a piece out alike.
 */
const DOC_CODE_TEXT = `(formatText, piece) => {
  const [open, close] = piece.wrap || ['', ''];
  let text = formatText(open + piece.code + close, piece.width).trimEnd();
  if (text.startsWith(open) && text.endsWith(close)) text = text.slice(open.length, text.length - close.length);
  return text.split('\\n').map((line) => (piece.linePrefix || '') + line.replace(/\\*\\//g, '*\\\\/')).join('\\n');
}`;

type DocCodeText = (formatText: (text: string, width: number) => string, piece: DocCode) => string;
const docCodeText = new Function(`return ${DOC_CODE_TEXT}`)() as DocCodeText;

/** What stands for each piece of doc code in a module printed for the layout worker: a line of its own no schema text can spell. */
const PIECE_MARK = `\u0000ddbgen-doc-code ${randomUUID()} `;
/** What stands for each doc comment in a module printed for the layout worker (a doc of its own, printed `/** mark *\/`). */
const COMMENT_MARK = `\u0000ddbgen-doc-comment ${randomUUID()} `;

/** What a module printed for the layout worker hands it besides its text: the pieces of doc code and the doc comments its marks stand for. */
interface ForLayout {
  readonly pieces: DocCode[];
  readonly comments: string[];
}

/** What the module being printed for the layout worker (printForLayout) holds so far, else undefined. */
let collecting: ForLayout | undefined;

/**
 * The text of a piece of doc code: within printForLayout, a mark the layout worker replaces by
 * the piece laid out (each line as ts-morph writes a doc line), so that this thread only prints;
 * elsewhere, the piece laid out at once.
 */
export function docCode(piece: DocCode): string {
  if (!collecting) return docCodeText((fileText, lineWidth) => formatModule('example.ts', fileText, lineWidth), piece);
  collecting.pieces.push(piece);
  return `${PIECE_MARK}${collecting.pieces.length - 1}\u0000`;
}

/**
 * Within printForLayout, the docs that stand for these doc comments (unindented, as
 * doc-comment.ts prints them): the layout worker puts each comment in its place, at its indent, so
 * that this thread does not write them out. Undefined elsewhere: the caller prints the docs itself.
 */
export function docCommentMarks(comments: readonly string[]): string[] | undefined {
  if (!collecting) return undefined;
  const { comments: collected } = collecting;
  return comments.map((comment) => `${COMMENT_MARK}${collected.push(comment) - 1}\u0000`);
}

/** A module printed by `print`, with the doc code (docCode) and doc comments (docCommentMarks) it holds, to be laid out with it by a Layout. */
export function printForLayout(print: () => string): { readonly text: string } & Readonly<ForLayout> {
  const outer = collecting;
  const held: ForLayout = (collecting = { pieces: [], comments: [] });
  try {
    return { text: print(), ...held };
  } finally {
    collecting = outer;
  }
}

/** Modules laid out by a worker thread while this thread goes on (startLayout). */
export interface Layout {
  /** Hands a module over to be laid out as formatModule lays it out, the marks of what it holds (printForLayout) replaced by the comments and pieces laid out. */
  readonly add: (filePath: string, text: string, held?: Readonly<ForLayout>) => void;
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
const { formatterModule, wasm, config, pieceMark, commentMark, port, flag } = workerData;
const docCodeText = ${DOC_CODE_TEXT};
let formatter;
const formatText = (fileText, lineWidth) => formatter.formatText({ filePath: 'example.ts', fileText, overrideConfig: { lineWidth } });
port.on('message', ({ id, filePath, text, pieces, comments }) => {
  let answer;
  try {
    formatter ??= (() => { const f = require(formatterModule).createFromBuffer(readFileSync(wasm)); f.setConfig(...config); return f; })();
    if (comments.length) {
      // each comment's mark is a doc of its own line, \`/** mark */\` after its indent: the comment's lines take its place, each after that indent
      const marks = new RegExp('^([ \\\\t]*)/\\\\*\\\\* ' + commentMark + '(\\\\d+)\\\\u0000 \\\\*/$', 'gm');
      text = text.replace(marks, (_, indent, n) => comments[Number(n)].split('\\n').map((line) => indent + line).join('\\n'));
    }
    if (pieces.length) {
      // each piece's mark stands alone on a doc line, \` * \` after its indent: the piece's lines take its place, written alike (\` *\` alone before an empty one)
      const marks = new RegExp('^([ \\\\t]*) \\\\* ' + pieceMark + '(\\\\d+)\\\\u0000$', 'gm');
      text = text.replace(marks, (_, indent, n) => docCodeText(formatText, pieces[Number(n)]).split('\\n').map((line) => indent + ' *' + (line ? ' ' + line : '')).join('\\n'));
    }
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
    const worker = new Worker(WORKER, { eval: true, workerData: { formatterModule, wasm: getPath(), config: CONFIG, pieceMark: PIECE_MARK, commentMark: COMMENT_MARK, port: port2, flag }, transferList: [port2] });
    worker.unref();
    port1.unref();
    shared = { worker, port: port1, flag, answered: 0 };
  }
  const { port, flag } = shared;
  const session = shared;
  let added = 0;
  return {
    add: (filePath, text, held = { pieces: [], comments: [] }) => port.postMessage({ id: added++, filePath, text, pieces: held.pieces, comments: held.comments }),
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
