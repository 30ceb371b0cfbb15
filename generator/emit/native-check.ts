// The type check of a table's generated files by TypeScript 7's native compiler (`tsgo`, from the
// optional dependency @typescript/native-preview), used when it is installed: the files are
// written to a private temporary folder laid out as under the output root, with a tsconfig holding
// the in-memory check's options and a package.json giving the output folder's module format, and
// tsgo's errors are read back in compileGenerated's form (`file:line message`). It checks the
// files in a fraction of the compiler API's time and memory, outside ddbgen's process. Without it
// (or with DDBGEN_TYPE_CHECKER=typescript) type-check.ts checks them with the compiler API,
// re-checking only what a change can affect.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ts } from 'ts-morph';
import { packageRoot } from '../package-root.js';

export interface NativeCompiler {
  /** The tsgo executable. */
  readonly exe: string;
  /** Its version, part of what a cached check depends on. */
  readonly version: string;
}

let found: NativeCompiler | null | undefined;

/** tsgo from @typescript/native-preview beside ddbgen, or undefined when it is not installed (or DDBGEN_TYPE_CHECKER=typescript). */
export function nativeCompiler(): NativeCompiler | undefined {
  if (process.env['DDBGEN_TYPE_CHECKER'] === 'typescript') return undefined;
  if (found === undefined) {
    try {
      const manifest = createRequire(path.join(packageRoot, 'package.json')).resolve('@typescript/native-preview/package.json');
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
      // the executable is in the platform's package, as the package's own launcher finds it
      const platform = createRequire(manifest).resolve(`@typescript/native-preview-${process.platform}-${process.arch}/package.json`);
      found = { exe: path.join(path.dirname(platform), 'lib', process.platform === 'win32' ? 'tsgo.exe' : 'tsgo'), version };
    } catch {
      found = null;
    }
  }
  return found ?? undefined;
}

/** The tsconfig spelling of the compiler options, or undefined when one of them has none here (then the compiler API checks). */
export function tsconfigOptions(options: ts.CompilerOptions, enums: { target: Record<number, string>; module: Record<number, string>; moduleResolution: Record<number, string> }): Record<string, unknown> | undefined {
  const json: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === 'boolean') json[name] = value;
    else if (name === 'target' || name === 'module' || name === 'moduleResolution') json[name] = enums[name][value as number]?.toLowerCase();
    else if (name === 'lib' && Array.isArray(value)) json[name] = (value as string[]).map((lib) => lib.replace(/^lib\./, '').replace(/\.d\.ts$/, ''));
    else if ((name === 'types' && Array.isArray(value)) || (name === 'paths' && typeof value === 'object')) json[name] = value;
    else return undefined;
    if (json[name] === undefined) return undefined;
  }
  return json;
}

/** A diagnostic line of `tsc --pretty false`: `file(line,column): error TSnnnn: message`, or `error TSnnnn: message` for the program. */
const DIAGNOSTIC = /^(?:(.+)\((\d+),\d+\): )?(error|warning|message) TS\d+: (.*)$/;

/**
 * Type-checks the files (absolute path → text, all under `relativeTo`) with tsgo and returns the
 * errors as compileGenerated words them, relative to `relativeTo`; undefined when tsgo could not
 * run at all (the caller checks with the compiler API instead).
 */
export function checkNatively(compiler: NativeCompiler, files: ReadonlyMap<string, string>, options: Record<string, unknown>, relativeTo: string, format: 'esm' | 'cjs'): string[] | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-check-'));
  try {
    const names: string[] = [];
    for (const [file, text] of files) {
      const name = path.relative(relativeTo, file);
      mkdirSync(path.join(dir, path.dirname(name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
      names.push(name.split(path.sep).join('/'));
    }
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, type: format === 'esm' ? 'module' : 'commonjs' }));
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: names }));
    const run = spawnSync(compiler.exe, ['-p', dir, '--pretty', 'false'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
    if (run.error || run.signal || (run.status !== 0 && !DIAGNOSTIC.test(run.stdout.split('\n')[0] ?? ''))) return undefined;
    const errors = new Set<string>();
    let current: { where: string; message: string; error: boolean } | undefined;
    const flush = () => current?.error && errors.add(`${current.where} ${current.message}`);
    for (const line of run.stdout.split('\n')) {
      const match = DIAGNOSTIC.exec(line);
      if (match) {
        flush();
        current = { where: match[1] === undefined ? '' : `${match[1].split('/').join(path.sep)}:${match[2]}`, message: match[4]!, error: match[3] === 'error' };
      } else if (current && line !== '') current.message += `\n${line}`;
    }
    flush();
    return [...errors];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
