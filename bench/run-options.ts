// What a run of bench/run.ts measures, read from its arguments: --smoke (every section once at a tiny
// size), --quick, --only 1,3; and where the bench and the repository are.
import path from 'node:path';

/** --smoke: every section once at a tiny size, to prove the benchmark still runs and its correctness gates pass (the test suite's smoke test; no number means anything). */
export const smoke = process.argv.includes('--smoke');
export const quick = smoke || process.argv.includes('--quick');
/** --only 1,3: run only these sections (numbered as in BENCHMARKS.md) and print them; BENCHMARKS.md is left as it is. */
export const onlyArg = process.argv.indexOf('--only');
export const only = onlyArg === -1 ? undefined : process.argv[onlyArg + 1]!.split(',').map(Number);
export const want = (section: number) => only === undefined || only.includes(section);
/** A size: the full run's, --quick's, or a twentieth of --quick's for --smoke. */
export const size = (quickSize: number, full: number) => (smoke ? Math.max(1, Math.ceil(quickSize / 20)) : quick ? quickSize : full);
export const here = path.dirname(new URL(import.meta.url).pathname);
export const root = path.resolve(here, '..');
