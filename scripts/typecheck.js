// `npm run typecheck`: the whole repository (tsconfig.json, no emit) checked by TypeScript 7's
// native compiler, tsgo from the optional dependency @typescript/native-preview, when it is
// installed: the same diagnostics in about a quarter of tsc's CPU time. Without it (or with
// DDBGEN_TYPE_CHECKER=typescript, as for ddbgen's own checks) tsc checks. tsgo is found as
// generate finds it (nativeCompiler, from the build). Exits with the checker's code.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { nativeCompiler } from '../dist/generator/emit/output/native-check.js';

const native = nativeCompiler();
const [command, args] = native ? [native.exe, []] : [process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc')]];
const result = spawnSync(command, [...args, '-p', 'tsconfig.json', ...process.argv.slice(2)], { stdio: 'inherit' });
if (result.error) throw result.error;
process.exit(result.status ?? 1);
