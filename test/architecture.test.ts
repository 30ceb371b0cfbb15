// The layers as a checked fact: dependency-cruiser with .dependency-cruiser.cjs over the generator,
// the DSL and the runtime finds no import of a higher layer, no module outside every layer and no
// import circle. The rules themselves are proved on a small tree of their own: each violation is found.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';

const root = path.resolve(import.meta.dirname, '..');
const depcruise = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  readonly type: string;
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string; readonly severity: string };
}

/** Cruises `folders` of `cwd` with the repository's rules: the violations. */
async function cruise(cwd: string, folders: string[]): Promise<Violation[]> {
  const args = [depcruise, ...folders, '--config', path.join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd, maxBuffer: 1 << 26 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations.filter((v) => v.rule.severity !== 'ignore');
}

test('the generator, the DSL and the runtime import downward only, with no circle', async (t) => {
  const violations = await cruise(root, ['generator', 'dsl', 'templates/runtime']);
  t.deepEqual(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`), []);
});

test('the rules find an upward import, a circle, a module outside the layers and one engine importing the other', async (t) => {
  const tree = mkdtempSync(path.join(tmpdir(), 'ddbgen-layers-'));
  t.teardown(() => rmSync(tree, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), text);
  };
  cpSync(path.join(root, 'tsconfig.json'), path.join(tree, 'tsconfig.json'));
  write('generator/validate/check.ts', "import { main } from '../cli/cli.js';\nexport const check = () => main;\n");
  write('generator/cli/cli.ts', "export const main = 1;\n");
  write('generator/emit/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
  write('generator/emit/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
  write('generator/stray/c.ts', "import { a } from '../emit/a.js';\nexport const c = a;\n");
  // the app runtime ships without the engines; the engines import the app runtime and their own folder, never each other
  write('templates/runtime/codec.ts', "export const codec = 1;\n");
  write('templates/runtime/write.ts', "import { engine } from './in-memory/engine.js';\nexport const write = engine;\n");
  write('templates/runtime/in-memory/engine.ts', "import { codec } from '../codec.js';\nimport { value } from './value.js';\nexport const engine = codec + value;\n");
  write('templates/runtime/in-memory/value.ts', "export const value = 1;\n");
  write('templates/runtime/migration/lease.ts', "import { engine } from '../in-memory/engine.js';\nexport const lease = engine;\n");
  const found = (await cruise(tree, ['generator', 'templates'])).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
  t.deepEqual(found, [
    'no-circular: generator/emit/a.ts → generator/emit/b.ts',
    'no-engine-to-engine-import: templates/runtime/migration/lease.ts → templates/runtime/in-memory/engine.ts',
    'no-unlayered-module: generator/stray/c.ts → generator/emit/a.ts',
    'no-upward-import-from-foundation: templates/runtime/write.ts → templates/runtime/in-memory/engine.ts',
    'no-upward-import-from-validate: generator/validate/check.ts → generator/cli/cli.ts',
  ]);
});
