// What the CLI writes, made safe for a terminal or a CI log: every character that could steer the
// terminal instead of being read — C0 controls but newline and tab (ESC, BEL, a lone carriage
// return), DEL, C1 controls (U+009B is a CSI on its own) and the bidirectional formatting marks that
// reorder what a reader sees — is written as its `\uXXXX` escape, which is also how JSON and
// TypeScript string literals spell it, so JSON output stays valid and means the same. The only
// sequences let through are the ones ddbgen itself writes: its colours when colour is on, and the
// progress line's carriage return and erase when stderr is a terminal. `main` wraps its output
// streams with `terminalIo` once, so no path of any command can write a schema's, a file's or an
// argument's text raw.

import type { CliIo } from '../command-io.js';

/** ddbgen's own SGR colours (diagnostic.ts) and the reset. */
const OWN_COLOURS = /\x1b\[(?:0|1|31|33|34|36|90)m/y;
/** The progress line's return-and-erase. */
const OWN_PROGRESS = /\r\x1b\[K/y;
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const escape = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every unsafe character escaped, but the sequences `allowed` names (ddbgen's own). */
export function terminalText(text: string, allowed: { readonly colour?: boolean; readonly progress?: boolean } = {}): string {
  if (!UNSAFE.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const own = [allowed.colour ? OWN_COLOURS : undefined, allowed.progress ? OWN_PROGRESS : undefined].find((re) => {
      if (!re) return false;
      re.lastIndex = i;
      return re.test(text);
    });
    if (own) {
      const end = own.lastIndex;
      out += text.slice(i, end);
      i = end - 1;
      continue;
    }
    const ch = text[i]!;
    out += UNSAFE.test(ch) ? escape(ch) : ch;
  }
  return out;
}

/** The CLI's streams, writing only terminal-safe text (ddbgen's colours and progress line kept where `io` has them). */
export function terminalIo(io: CliIo): CliIo {
  const allowed = { colour: io.color === true, progress: io.interactive === true };
  return { ...io, stdout: (text) => io.stdout(terminalText(text, allowed)), stderr: (text) => io.stderr(terminalText(text, allowed)) };
}
