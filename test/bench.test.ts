// Smoke test: the benchmark suite still runs end to end in its quick mode (numbers are not
// asserted here: speed goals live in BENCHMARKS.md, not in timed tests).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';

const root = path.resolve(import.meta.dirname, '..');

test('npm run bench -- --quick runs every section', async (t) => {
  t.timeout(300_000);
  const { stdout } = await promisify(execFile)('npm', ['run', 'bench', '--', '--quick'], { cwd: root, maxBuffer: 1 << 26 });
  for (const heading of ['## 1. Client-side overhead', '## 2. Through the real SDK', '## 5. End to end on DynamoDB Local', '## 3. Type-check cost', '## 4. Generation', '## 6. Footprint']) t.true(stdout.includes(heading), heading);
  t.regex(stdout, /With 30 % of every batch returned as UnprocessedItems: (\d+) of \1 items landed/);
});
