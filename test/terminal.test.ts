// Text the CLI writes cannot steer a terminal or a CI log: control characters from a schema, a file
// or an argument (ESC, BEL, a lone carriage return, C1 controls, bidirectional marks) are written as
// `\uXXXX` on every path — a usage error, a diagnostic's message and `at` path, notes — while
// ddbgen's own colours and progress line pass on a terminal. (generator/cli/terminal.ts)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { main } from '../generator/cli/cli.js';
import { terminalText } from '../generator/cli/terminal.js';

const root = path.resolve(import.meta.dirname, '..');
const HOSTILE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

async function run(args: string[], cwd = root, terminal = false) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { cwd, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), ...(terminal ? { interactive: true, color: true } : {}) });
  return { code, stdout, stderr };
}

test('given text, want: every unsafe character as its \\u escape; newlines, tabs and printable text as they are', (t) => {
  const cases: Array<[string, string]> = [
    ['plain: User#<id> — é ✓\n\tnext', 'plain: User#<id> — é ✓\n\tnext'],
    ['\x1b]0;pwned\x07\x1b[2J', '\\u001b]0;pwned\\u0007\\u001b[2J'],
    ['over\rwrite', 'over\\u000dwrite'],
    ['\u009b31m C1 CSI', '\\u009b31m C1 CSI'],
    ['abc\u202edcba', 'abc\\u202edcba'],
    ['\x7f\x00', '\\u007f\\u0000'],
  ];
  for (const [given, want] of cases) t.is(terminalText(given), want, JSON.stringify(given));
  // ddbgen's own colours and progress line only when allowed, and nothing else that looks like them
  t.is(terminalText('\x1b[31merror\x1b[0m', { colour: true }), '\x1b[31merror\x1b[0m');
  t.is(terminalText('\x1b[31merror\x1b[0m'), '\\u001b[31merror\\u001b[0m');
  t.is(terminalText('\x1b[8mhidden\x1b[0m', { colour: true }), '\\u001b[8mhidden\x1b[0m', 'concealed text is not a colour ddbgen writes');
  t.is(terminalText('\r\x1b[Kddbgen: loading…', { progress: true }), '\r\x1b[Kddbgen: loading…');
  t.is(terminalText('\r\x1b[2K', { progress: true }), '\\u000d\\u001b[2K');
});

test('ddbgen explain with an escape sequence for a code: the usage error shows it escaped', async (t) => {
  const result = await run(['explain', '\x1b]0;pwned\x07\x1b[2J']);
  t.is(result.code, 2);
  t.is(result.stderr, 'ddbgen: no code "\\u001b]0;pwned\\u0007\\u001b[2J"\n  run ddbgen help explain for the usage\n');
});

test('an entity named with ESC and BEL: its diagnostic, `at` path and fix print them escaped, on a terminal too', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-terminal-'));
  try {
    const name = 'User\x1b]0;pwned\x07\x1b[2J';
    writeFileSync(
      path.join(dir, 'schema.ts'),
      `import { defineTable, entity, t } from 'ddbgen';\nexport default defineTable({ name: 'App', entities: { ${JSON.stringify(name)}: entity({ attributes: { id: t.string() }, key: { pk: 'U#<id>', sk: 'P' } }) } });\n`,
    );
    for (const terminal of [false, true]) {
      const result = await run(['lint', 'schema.ts'], dir, terminal);
      t.is(result.code, 1);
      t.true(result.stderr.includes('DDB020'), result.stderr);
      t.true(result.stderr.includes('User\\u001b]0;pwned\\u0007\\u001b[2J'), result.stderr);
      t.regex(result.stderr, /\n {4}at App\.entities\.User\\u001b\]0;pwned\\u0007\\u001b\[2J/);
      // what is left unescaped on a terminal is ddbgen's own colouring only
      t.false(HOSTILE.test(result.stderr.replace(/\x1b\[(?:0|1|31|33|34|36|90)m|\r\x1b\[K/g, '')), JSON.stringify(result.stderr));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
