// Writing output all or nothing (generator/emit/output/write-output.ts): the folder is staged beside the output
// and swapped in; a filesystem that refuses (read-only files, a file where a folder should be, a
// failure mid-write, a failed swap) leaves the previous output byte for byte as it was and no
// staging folder or temporary file behind. Failures are injected through the fs the writer takes;
// the CLI turns them into one line and exit 1.
import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { main } from '../generator/cli/cli.js';
import { BANNER } from '../generator/emit/context.js';
import { OutputError, writeOutput, type OutputFs } from '../generator/emit/output/write-output.js';

const root = path.resolve(import.meta.dirname, '..');
const generated = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([file, text]) => [file, `${BANNER}\n${text}`]));
const first = generated({ 'app/a.ts': 'a1', 'app/b.ts': 'b1', 'app/runtime/r.ts': 'r1', 'app/gone.ts': 'g1' });
const second = generated({ 'app/a.ts': 'a2', 'app/b.ts': 'b1', 'app/runtime/r.ts': 'r2', 'app/new.ts': 'n2' });

/** Every file below `dir` with its content, and every entry's name (staging folders and temporary files included). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const name = path.relative(dir, path.join(entry.parentPath, entry.name));
    out[name] = entry.isFile() ? readFileSync(path.join(dir, name), 'utf8') : '(folder)';
  }
  return out;
}

/** node:fs, except that `fail` may throw a real-looking errno error for a call. */
function failing(fail: (call: string, target: string) => string | undefined): OutputFs {
  const wrap = <K extends keyof OutputFs>(name: K) =>
    ((...args: unknown[]) => {
      const target = String(['renameSync', 'linkSync', 'copyFileSync', 'symlinkSync'].includes(name) ? args[1] : args[0]);
      const code = fail(name, target);
      if (code) {
        throw Object.assign(new Error(`${code}: ${code === 'EACCES' ? 'permission denied' : 'no space left on device'}, ${name.replace(/Sync$/, '')} '${target}'`), { code, path: target, syscall: name.replace(/Sync$/, '') });
      }
      return (fs[name] as (...a: unknown[]) => unknown)(...args);
    }) as OutputFs[K];
  return Object.fromEntries((['existsSync', 'lstatSync', 'statSync', 'readdirSync', 'readFileSync', 'readlinkSync', 'writeFileSync', 'mkdirSync', 'linkSync', 'copyFileSync', 'symlinkSync', 'renameSync', 'rmSync', 'chmodSync', 'realpathSync'] as const).map((n) => [n, wrap(n)])) as unknown as OutputFs;
}

function previousOutput() {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-output-'));
  const out = path.join(dir, 'out');
  writeOutput(out, [first]);
  writeFileSync(path.join(out, 'app/mine.ts'), '// my own file\n');
  return { dir, out, before: snapshot(out) };
}

test('a write replaces changed files, removes files no longer generated, keeps unchanged and foreign files as the same files', (t) => {
  const { out } = previousOutput();
  const unchanged = statSync(path.join(out, 'app/b.ts'));
  const mine = statSync(path.join(out, 'app/mine.ts'));
  t.deepEqual(writeOutput(out, [second]), [{ written: 3, removed: 1 }]);
  t.deepEqual(snapshot(out), {
    app: '(folder)',
    'app/a.ts': `${BANNER}\na2`,
    'app/b.ts': `${BANNER}\nb1`,
    'app/mine.ts': '// my own file\n',
    'app/new.ts': `${BANNER}\nn2`,
    'app/runtime': '(folder)',
    'app/runtime/r.ts': `${BANNER}\nr2`,
  });
  t.is(statSync(path.join(out, 'app/b.ts')).ino, unchanged.ino);
  t.is(statSync(path.join(out, 'app/b.ts')).mtimeMs, unchanged.mtimeMs);
  t.is(statSync(path.join(out, 'app/mine.ts')).ino, mine.ino);
  const folder = statSync(path.join(out, 'app')).ino;
  t.deepEqual(writeOutput(out, [second]), [{ written: 0, removed: 0 }]);
  t.is(statSync(path.join(out, 'app')).ino, folder, 'nothing changed: the folder is not touched');
});

/** The first call `matches` accepts fails with `code`; later ones (putting things back) succeed. */
const once = (code: string, matches: (call: string, target: string) => boolean) => {
  let done = false;
  return (call: string, target: string) => (!done && matches(call, target) ? ((done = true), code) : undefined);
};

const failures: Array<[string, () => (call: string, target: string) => string | undefined, RegExp]> = [
  ['an unreadable file of the user\'s in the folder', () => (call, target) => ((call === 'linkSync' || call === 'copyFileSync') && target.endsWith('mine.ts') ? 'EACCES' : undefined), /^EACCES/],
  ['a failure mid-write (the second new file)', () => {
    let writes = 0;
    return (call: string) => (call === 'writeFileSync' && ++writes === 2 ? 'ENOSPC' : undefined);
  }, /^ENOSPC/],
  ['a read-only output root (no staging folder beside the output)', () => (call, target) => (call === 'mkdirSync' && target.includes('.app.ddbgen-') ? 'EACCES' : undefined), /^EACCES/],
  ['the swap itself refused', () => once('EACCES', (call, target) => call === 'renameSync' && path.basename(target) === 'app'), /^EACCES/],
];

for (const [name, fail, code] of failures) {
  test(`all or nothing: ${name}`, (t) => {
    const { out, before } = previousOutput();
    const error = t.throws(() => writeOutput(out, [second], failing(fail())), { instanceOf: OutputError });
    t.regex(error.failure.message, code);
    t.is(error.target, path.join(out, 'app'));
    t.deepEqual(snapshot(out), before, 'the previous output is untouched, nothing is left behind');
  });
}

test('all or nothing across tables: when the second table fails, the first is put back too', (t) => {
  const { out } = previousOutput();
  writeOutput(out, [generated({ 'other/x.ts': 'x1' })]);
  const before = snapshot(out);
  const error = t.throws(() => writeOutput(out, [second, generated({ 'other/x.ts': 'x2' })], failing(once('EACCES', (call, target) => call === 'renameSync' && path.basename(target) === 'other'))), { instanceOf: OutputError });
  t.is(error.target, path.join(out, 'other'));
  t.deepEqual(snapshot(out), before);
});

test('a file where the output folder should be', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-output-'));
  writeFileSync(path.join(dir, 'out'), 'a file');
  const error = t.throws(() => writeOutput(path.join(dir, 'out'), [first]), { instanceOf: OutputError });
  t.is(error.failure.code, 'ENOTDIR');
  mkdirSync(path.join(dir, 'out2'));
  writeFileSync(path.join(dir, 'out2/app'), 'a file');
  t.is(t.throws(() => writeOutput(path.join(dir, 'out2'), [first]), { instanceOf: OutputError }).failure.code, 'ENOTDIR');
  t.deepEqual(snapshot(dir), { out: 'a file', out2: '(folder)', 'out2/app': 'a file' });
});

const run = async (args: string[], cwd: string, io: Partial<{ fs: OutputFs }> = {}) => {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { cwd, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), ...io });
  return { code, stdout, stderr };
};

test('the CLI: --out naming a file, and a write refused mid-way, are one line and exit 1', async (t) => {
  t.timeout(300_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-output-'));
  writeFileSync(path.join(dir, 'out'), 'a file');
  t.deepEqual(await run(['generate', path.join(root, 'fixtures/social.ts'), '--out', 'out', '--no-cache'], dir), {
    code: 1,
    stdout: '',
    stderr: "ddbgen: cannot write out: ENOTDIR: not a directory (scandir out); nothing was written, the previous output is unchanged\n",
  });
  let writes = 0;
  const refused = await run(['generate', path.join(root, 'fixtures/social.ts'), '--out', 'fresh', '--no-cache'], dir, { fs: failing((call) => (call === 'writeFileSync' && ++writes === 5 ? 'EACCES' : undefined)) });
  t.is(refused.code, 1);
  t.regex(refused.stderr, /^ddbgen: cannot write fresh\/social: EACCES: permission denied \(writeFile fresh\/\.social\.ddbgen-[^/]+\/[\w/.-]+\); nothing was written, the previous output is unchanged\n$/);
  t.deepEqual(snapshot(dir), { out: 'a file', fresh: '(folder)' });
});

test('report --out naming a folder writes report.html in it; an unwritable place is one line', async (t) => {
  t.timeout(300_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-output-'));
  mkdirSync(path.join(dir, 'site'));
  const written = await run(['report', path.join(root, 'fixtures/social.ts'), '--out', 'site'], dir);
  t.is(written.code, 0, written.stderr);
  t.regex(written.stdout, /^ddbgen: wrote site\/report\.html /);
  t.true(readFileSync(path.join(dir, 'site/report.html'), 'utf8').startsWith('<!doctype html>'));
  const missing = await run(['report', path.join(root, 'fixtures/social.ts'), '--out', 'nowhere/report.html'], dir);
  t.is(missing.code, 1);
  t.regex(missing.stderr, /^ddbgen: cannot write nowhere\/report\.html: ENOENT: no such file or directory \(open nowhere\/\.report\.html\.ddbgen-[\w-]+\); nothing was written, the previous output is unchanged\n$/);
  t.deepEqual(snapshot(dir), { site: '(folder)', 'site/report.html': readFileSync(path.join(dir, 'site/report.html'), 'utf8') });
});

test('generated modules are Latin-1 text outside their examples, so V8 keeps each at one byte per character', (t) => {
  // one character past Latin-1 makes V8 hold the whole text at two bytes per character: twice the memory of
  // every module in a large generate. The examples may show any character a request sends.
  const root = path.join(import.meta.dirname, '..', 'out');
  let checked = 0;
  for (const table of ['social', 'tenants', 'seeds', 'saas']) {
    for (const file of readdirSync(path.join(root, table))) {
      if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
      const outsideExamples = readFileSync(path.join(root, table, file), 'utf8').split('\n').filter((line) => !line.trimStart().startsWith('* //') && !line.trimStart().startsWith('* await '));
      const wide = outsideExamples.filter((line) => /[^\u0000-\u00ff]/.test(line));
      t.deepEqual(wide, [], `${table}/${file}`);
      checked++;
    }
  }
  t.true(checked > 20);
  t.true(BANNER.split('').every((c) => c.charCodeAt(0) < 128), 'the banner is ASCII');
});
