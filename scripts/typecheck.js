// `npm run typecheck`: the whole repository (tsconfig.json, no emit) checked by TypeScript 7's
// native compiler, tsgo from the optional dependency @typescript/native-preview, when it is
// installed: the same diagnostics in about a quarter of tsc's CPU time. Without it (or with
// DDBGEN_TYPE_CHECKER=typescript, as for ddbgen's own checks) tsc checks. Exits with the checker's code.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

function tsgo() {
  if (process.env.DDBGEN_TYPE_CHECKER === 'typescript') return undefined;
  try {
    const manifest = require.resolve('@typescript/native-preview/package.json');
    const platform = createRequire(manifest).resolve(`@typescript/native-preview-${process.platform}-${process.arch}/package.json`);
    return path.join(path.dirname(platform), 'lib', process.platform === 'win32' ? 'tsgo.exe' : 'tsgo');
  } catch {
    return undefined;
  }
}

const native = tsgo();
const [command, args] = native ? [native, []] : [process.execPath, [require.resolve('typescript/bin/tsc')]];
const result = spawnSync(command, [...args, '-p', 'tsconfig.json', ...process.argv.slice(2)], { stdio: 'inherit' });
if (result.error) throw result.error;
process.exit(result.status ?? 1);
