// The README's `npm start` app (examples/social-app.ts): on DynamoDB Local where Java is on PATH,
// on `ddbgen local` where it is not, saying which, and printing the same reads and writes on both.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';

const root = path.resolve(import.meta.dirname, '..');

/** Runs the example app with `PATH` as given; its stdout, lines split. */
async function runExample(PATH: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import=tsx', 'examples/social-app.ts'], { cwd: root, env: { ...process.env, PATH }, timeout: 120_000 });
  return stdout.trimEnd().split('\n');
}

test('npm start: without Java on PATH the app runs on ddbgen local, says so, and prints what it prints on DynamoDB Local', async (t) => {
  // a PATH that holds node alone (on Debian java and node share /usr/bin)
  const bare = mkdtempSync(path.join(tmpdir(), 'ddbgen-no-java-'));
  t.teardown(() => rmSync(bare, { recursive: true, force: true }));
  symlinkSync(process.execPath, path.join(bare, 'node'));
  const [withJava, withoutJava] = await Promise.all([runExample(process.env['PATH'] ?? ''), runExample(bare)]);

  t.regex(withJava[0]!, /^DynamoDB Local \(Java, pid \d+\) started on http:\/\/127\.0\.0\.1:\d+$/);
  t.is(withJava.at(-1), 'DynamoDB Local stopped.');
  t.regex(withoutJava[0]!, /^ddbgen local \(no Java on PATH, so not DynamoDB Local\) started on http:\/\/127\.0\.0\.1:\d+$/);
  t.is(withoutJava.at(-1), 'ddbgen local stopped.');
  t.true(withoutJava.length > 40, 'the whole app ran');
  t.deepEqual(withoutJava.slice(1, -1), withJava.slice(1, -1), 'every read and write prints the same on both');
});
