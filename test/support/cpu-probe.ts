// Per-file CPU of a test run: `npx ava --node-arguments=--import=./test/support/cpu-probe.ts` (or
// `npm test -- --node-arguments=…`) with DDBGEN_TEST_CPU naming a file. Each ava worker appends one
// JSON line when it exits: its test file, its own CPU and its waited-for children's (tsc, tsgo, the
// CLI, Chromium: the utime, stime, cutime and cstime of /proc/self/stat), in seconds. The run's
// shared DynamoDB Local and ava's main process are not in it. Linux only; without the variable it
// does nothing.
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const out = process.env.DDBGEN_TEST_CPU;
if (out && process.platform === 'linux') {
  const started = Date.now();
  process.once('exit', () => {
    // the fields after the command's closing parenthesis: utime is the 14th of the line, the 12th here
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    const [utime = 0, stime = 0, cutime = 0, cstime = 0] = fields.slice(11, 15).map((ticks) => ticks / 100);
    let file = '?';
    try {
      const options = createRequire(path.resolve('node_modules/ava/package.json'))('./lib/worker/options.cjs');
      file = path.relative(process.cwd(), options.get().file.startsWith('file:') ? new URL(options.get().file).pathname : options.get().file);
    } catch {}
    const self = utime + stime;
    const children = cutime + cstime;
    appendFileSync(out, `${JSON.stringify({ file, cpu: +(self + children).toFixed(2), self: +self.toFixed(2), children: +children.toFixed(2), wall: (Date.now() - started) / 1000 })}\n`);
  });
}
