// The in-memory compiler pass over generated files (type-check.ts): with build state (a cache kept
// for the next run) or without (a plain program), the same files give the same errors, each named
// by file and line, and the same compiled files. TypeScript 7's tsgo (native-check.ts, installed
// here as the optional dependency) words the same errors the same way.

import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import { ts } from 'ts-morph';
import { checkNatively, emitNatively, nativeCompiler, startNativeCheck, takeKeptFolder, tsconfigOptions, TSGO_MEMORY_LIMIT, tsgoEnvironment, withoutDocComments } from '../generator/emit/output/native-check.js';
import { baseCompilerOptions, compileGenerated } from '../generator/emit/output/type-check.js';

const root = path.resolve(import.meta.dirname, '..', 'out', 'test-type-check');

/** Two generated modules: `a.ts` exports a number, `b.ts` (given) uses it. */
const files = (b: string) =>
  new Map([
    [path.join(root, 'shop', 'a.ts'), 'export const answer: number = 42;\n'],
    [path.join(root, 'shop', 'b.ts'), `import { answer } from './a.js';\n${b}`],
  ]);

for (const incremental of [true, false]) {
  test(`${incremental ? 'with' : 'without'} build state: an error names its file and line; clean files compile`, (t) => {
    const broken = compileGenerated({ files: files('export const text: string = answer;\n'), options: baseCompilerOptions, incremental }, root);
    t.deepEqual(broken.errors, ["shop/b.ts:2 Type 'number' is not assignable to type 'string'."]);
    t.is(broken.checked, 2);

    const compiled = compileGenerated({ files: files('export const twice = answer * 2;\n'), options: { ...baseCompilerOptions, noEmit: false, declaration: true }, incremental }, root);
    t.deepEqual(compiled.errors, []);
    t.deepEqual([...compiled.emitted.keys()].map((file) => path.relative(root, file)).sort(), ['shop/a.d.ts', 'shop/a.js', 'shop/b.d.ts', 'shop/b.js']);
    t.is(compiled.emitted.get(path.join(root, 'shop', 'b.d.ts')), "export declare const twice: number;\n");
    t.is(compiled.buildInfo === undefined, !incremental, 'build state only when asked for');
  });
}

test('tsgo gives the errors the compiler API gives, in its words and places; clean files pass', (t) => {
  const compiler = nativeCompiler();
  if (!compiler) return t.fail('@typescript/native-preview (an optional dependency) is not installed');
  const options = tsconfigOptions(baseCompilerOptions, { target: ts.ScriptTarget, module: ts.ModuleKind, moduleResolution: ts.ModuleResolutionKind })!;
  t.deepEqual(options, { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022'], types: [], strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, noUnusedLocals: true, noImplicitOverride: true, skipLibCheck: true, noEmit: true });
  t.is(tsconfigOptions({ ...baseCompilerOptions, outDir: 'x' }, { target: ts.ScriptTarget, module: ts.ModuleKind, moduleResolution: ts.ModuleResolutionKind }), undefined, 'an option it cannot spell: the compiler API checks');
  const sources = [
    'export const text: string = answer;\n',
    // a chained message (several lines) and an error in the program, not a file
    'const unused = 1;\nexport const pair: { a: { b: string } } = { a: { b: answer } };\n',
    'export const twice = answer * 2;\n',
  ];
  for (const b of sources) {
    const given = files(b);
    for (const format of ['esm', 'cjs'] as const) {
      t.deepEqual(checkNatively(compiler, given, options, root, format), compileGenerated({ files: given, options: baseCompilerOptions, incremental: false }, root).errors, `${format}: ${b}`);
    }
  }
});

test('tsgo in a worker thread (startNativeCheck) answers as checkNatively does, while this thread goes on; a cancelled check is let go', (t) => {
  const compiler = nativeCompiler();
  if (!compiler) return t.fail('@typescript/native-preview (an optional dependency) is not installed');
  const options = tsconfigOptions(baseCompilerOptions, { target: ts.ScriptTarget, module: ts.ModuleKind, moduleResolution: ts.ModuleResolutionKind })!;
  const broken = files('const unused = 1;\nexport const text: string = answer;\n');
  const check = startNativeCheck(compiler, broken, options, root, 'esm');
  const meanwhile = checkNatively(compiler, files('export const twice = answer * 2;\n'), options, root, 'esm');
  t.deepEqual(meanwhile, []);
  const errors = check.wait();
  t.deepEqual(errors, checkNatively(compiler, broken, options, root, 'esm'));
  t.is(errors!.length, 2, errors!.join('\n'));
  t.is(check.wait(), errors, 'asked again: the same answer');
  startNativeCheck(compiler, broken, options, root, 'esm').cancel();
  // it checks the text without its doc comments, and names an error at the same line
  const documented = files('/**\n * The answer, as text.\n * @example text\n */\nexport const text: string = answer;\n');
  t.deepEqual(startNativeCheck(compiler, documented, options, root, 'esm').wait(), ["shop/b.ts:6 Type 'number' is not assignable to type 'string'."]);
});

test('a kept folder: tsgo checks there with its build state, each answer as a fresh check gives it; changed files rewritten, dropped ones removed, a held folder left alone', (t) => {
  const compiler = nativeCompiler();
  if (!compiler) return t.fail('@typescript/native-preview (an optional dependency) is not installed');
  const options = tsconfigOptions(baseCompilerOptions, { target: ts.ScriptTarget, module: ts.ModuleKind, moduleResolution: ts.ModuleResolutionKind })!;
  const kept = mkdtempSync(path.join(tmpdir(), 'ddbgen-kept-check-'));
  t.teardown(() => rmSync(kept, { recursive: true, force: true }));
  const check = (given: Map<string, string>) => startNativeCheck(compiler, given, options, root, 'esm', { dir: kept }).wait();
  const fresh = (given: Map<string, string>) => checkNatively(compiler, given, options, root, 'esm');
  const held = () => readdirSync(kept, { recursive: true }).map(String).filter((f) => f.endsWith('.ts')).sort();
  const locks = () => readdirSync(kept).filter((f) => f.startsWith('lock-'));
  const withA = (a: string, b: string) => new Map([...files(b)].map(([file, text]) => [file, file.endsWith('a.ts') ? a : text]));

  // each step's answer is a fresh check's: a clean program, an error in b, a's type changed under an unchanged b
  const steps = [
    files('export const twice = answer * 2;\n'),
    files('const unused = 1;\nexport const text: string = answer;\n'),
    files('export const twice = answer * 2;\n'),
    withA("export const answer: string = 'forty-two';\n", 'export const twice = answer * 2;\n'),
    files('export const twice = answer * 2;\n'),
  ];
  for (const [i, given] of steps.entries()) t.deepEqual(check(given), fresh(given), `step ${i + 1}`);
  t.is(check(steps[3]!)!.length, 1, 'a change in a module is seen by the modules that import it');
  t.deepEqual(held(), ['shop/a.ts', 'shop/b.ts']);
  t.true(existsSync(path.join(kept, 'check-esm.tsbuildinfo')) && existsSync(path.join(kept, 'files.json')), 'the build state and the hashes of what it holds');
  t.deepEqual(locks(), [], 'released');
  for (const f of readdirSync(kept)) if (statSync(path.join(kept, f)).isFile()) t.is(statSync(path.join(kept, f)).mode & 0o077, 0, `${f} is private to this user`);

  // a module no longer checked is removed: one that still imports it fails as it would fresh
  const c = path.join(root, 'shop', 'c.ts');
  t.deepEqual(check(new Map([...files('export const twice = answer * 2;\n'), [c, 'export const c = 1;\n']])), []);
  t.deepEqual(held(), ['shop/a.ts', 'shop/b.ts', 'shop/c.ts']);
  const orphaned = files("import { c } from './c.js';\nexport const twice = answer * c;\n");
  t.deepEqual(check(orphaned), fresh(orphaned));
  t.is(check(orphaned)!.length, 1, 'the dropped module is not found');
  t.deepEqual(held(), ['shop/a.ts', 'shop/b.ts']);

  // an interrupted run (no hashes left): what the folder holds is cleared before the check
  rmSync(path.join(kept, 'files.json'));
  writeFileSync(path.join(kept, 'shop', 'c.ts'), 'export const c = 1;\n');
  t.deepEqual(check(orphaned), fresh(orphaned));
  t.deepEqual(held(), ['shop/a.ts', 'shop/b.ts']);

  // held by a running process: checked in a temporary folder, the kept one untouched
  const manifest = readFileSync(path.join(kept, 'files.json'), 'utf8');
  const other = path.join(kept, 'lock-other-run');
  writeFileSync(other, String(process.pid));
  t.deepEqual(check(steps[1]!), fresh(steps[1]!));
  t.is(readFileSync(path.join(kept, 'files.json'), 'utf8'), manifest);
  t.deepEqual(locks(), ['lock-other-run'], 'the other run\'s lock is kept, this one\'s removed');
  // held by a process that has ended: taken over
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  writeFileSync(other, ended);
  t.deepEqual(check(steps[1]!), fresh(steps[1]!));
  t.not(readFileSync(path.join(kept, 'files.json'), 'utf8'), manifest, 'checked in the kept folder');
  t.deepEqual(locks(), []);

  // a file that declares globals (whose changes tsgo's build state does not follow): checked afresh, the kept folder untouched
  const global = new Map([...steps[0]!, [path.join(root, 'shop', 'g.ts'), 'export {};\ndeclare global {\n  interface Array<T> { extra(): T }\n}\n']]);
  const before = readFileSync(path.join(kept, 'files.json'), 'utf8');
  t.deepEqual(check(global), fresh(global));
  t.is(readFileSync(path.join(kept, 'files.json'), 'utf8'), before);

  // a module known by its identity (generate's render key) is not written again while its identity stands, whatever its layout
  const a = path.join(root, 'shop', 'a.ts');
  const identified = (text: string) => startNativeCheck(compiler, new Map([...steps[0]!].map(([file, source]) => [file, file === a ? text : source])), options, root, 'esm', { dir: kept, identities: new Map([[a, 'a-render']]) }).wait();
  t.deepEqual(identified('export const answer: number = 42;\n'), []);
  t.deepEqual(identified('export const answer: number =\n  42;\n'), []);
  t.is(readFileSync(path.join(kept, 'shop', 'a.ts'), 'utf8'), 'export const answer: number = 42;\n', 'the text checked first stands for the same module laid out');

  // the output folder's module format changed: the same files are other modules, checked with a build state of their own
  t.deepEqual(startNativeCheck(compiler, steps[1]!, options, root, 'cjs', { dir: kept }).wait(), checkNatively(compiler, steps[1]!, options, root, 'cjs'));
  t.true(existsSync(path.join(kept, 'check-cjs.tsbuildinfo')) && existsSync(path.join(kept, 'check-esm.tsbuildinfo')));

  // tsgo could not run: no answer, and the build state is dropped for the next run
  t.is(startNativeCheck({ exe: path.join(root, 'no-such-tsgo'), version: '0' }, steps[0]!, options, root, 'esm', { dir: kept }).wait(), undefined);
  t.false(existsSync(path.join(kept, 'check-esm.tsbuildinfo')));
  t.deepEqual(locks(), []);
  t.deepEqual(check(steps[3]!), fresh(steps[3]!), 'and the next run checks afresh');
});

test('takeKeptFolder: of runs that try at once, never two hold a folder, and a killed run\'s lock is taken over', async (t) => {
  // each run, a process of its own on the built module, tries at the same moment and holds what it takes for 150 ms
  const built = pathToFileURL(path.resolve(import.meta.dirname, '..', 'dist', 'generator', 'emit', 'output', 'native-check.js')).href;
  const run = `import { takeKeptFolder } from ${JSON.stringify(built)};
const [dir, at] = process.argv.slice(1);
while (Date.now() < Number(at));
const lock = takeKeptFolder(dir);
const from = Date.now();
if (lock) { while (Date.now() < from + 150); (await import('node:fs')).rmSync(lock, { force: true }); }
process.stdout.write(JSON.stringify({ took: lock !== undefined, from, to: Date.now() }));`;
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  for (let trial = 0; trial < 4; trial++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-kept-lock-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, 'lock-killed-run'), ended);
    const at = String(Date.now() + 1000);
    const runs = await Promise.all(
      Array.from({ length: 3 }, () => new Promise<{ took: boolean; from: number; to: number }>((resolve, reject) => {
        execFile(process.execPath, ['--input-type=module', '-e', run, dir, at], (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))));
      })),
    );
    const holders = runs.filter((r) => r.took).sort((a, b) => a.from - b.from);
    for (let i = 1; i < holders.length; i++) t.true(holders[i]!.from >= holders[i - 1]!.to, `trial ${trial}: two runs held the folder at once: ${JSON.stringify(runs)}`);
    // runs that see each other's locks may all let go (each then checks in a temporary folder): the killed run's lock stays for the next
    t.deepEqual(readdirSync(dir), holders.length ? [] : ['lock-killed-run'], `trial ${trial}: every run released its own lock; a run that held the folder removed the killed run's`);
    const alone = takeKeptFolder(dir);
    t.truthy(alone, `trial ${trial}: a run alone takes the folder`);
    t.deepEqual(readdirSync(dir), [path.basename(alone!)]);
    rmSync(alone!);
  }
});

test('tsgo writes the .js + .d.ts the compiler API writes, in one batch or one module per batch, and gives up (undefined) when it cannot run', (t) => {
  const compiler = nativeCompiler();
  if (!compiler) return t.fail('@typescript/native-preview (an optional dependency) is not installed');
  const options = tsconfigOptions(baseCompilerOptions, { target: ts.ScriptTarget, module: ts.ModuleKind, moduleResolution: ts.ModuleResolutionKind })!;
  const given = files('/** Twice the answer. */\nexport const twice = (n: number = answer): number => n * 2;\nexport type Pair = { a: number };\n');
  const compiled = compileGenerated({ files: given, options: { ...baseCompilerOptions, noEmit: false, declaration: true }, incremental: false }, root).emitted;
  t.is(compiled.size, 4);
  t.deepEqual(emitNatively(compiler, given, options, root, 'esm'), compiled);
  t.deepEqual(emitNatively(compiler, given, options, root, 'esm', 1), compiled, 'each module in its own batch');
  t.regex(emitNatively(compiler, given, options, root, 'cjs')!.get(path.join(root, 'shop', 'b.js'))!, /require\("\.\/a\.js"\)/, 'CommonJS in a CommonJS scope');
  t.is(emitNatively({ exe: path.join(root, 'no-such-tsgo'), version: '0' }, given, options, root, 'esm'), undefined);
});

test.serial('tsgo runs under a soft memory limit (GOMEMLIMIT) unless the environment sets one', (t) => {
  const given = process.env['GOMEMLIMIT'];
  try {
    delete process.env['GOMEMLIMIT'];
    t.is(tsgoEnvironment()['GOMEMLIMIT'], TSGO_MEMORY_LIMIT);
    t.is(TSGO_MEMORY_LIMIT, '384MiB');
    process.env['GOMEMLIMIT'] = '1GiB';
    t.is(tsgoEnvironment()['GOMEMLIMIT'], '1GiB');
    t.is(tsgoEnvironment()['PATH'], process.env['PATH'], 'the rest of the environment as it is');
  } finally {
    if (given === undefined) delete process.env['GOMEMLIMIT'];
    else process.env['GOMEMLIMIT'] = given;
  }
});

test('withoutDocComments keeps the lines and the code, and leaves other comments', (t) => {
  const cases: Array<[given: string, want: string]> = [
    ['/** One line. */\nexport const a = 1;\n', '\nexport const a = 1;\n'],
    ['class C {\n  /**\n   * Two\n   * lines.\n   */\n  m(): void {}\n}\n', 'class C {\n\n\n\n\n  m(): void {}\n}\n'],
    ['const k = [/* @__PURE__ */ f()];\n// a line comment\n', 'const k = [/* @__PURE__ */ f()];\n// a line comment\n'],
    ["const s = 'a /** b */ c';\n", "const s = 'a /** b */ c';\n"],
    ['/** A. */\n/** B. */\nlet x;\n', '\n\nlet x;\n'],
  ];
  for (const [given, want] of cases) t.is(withoutDocComments(given), want, given);
});
