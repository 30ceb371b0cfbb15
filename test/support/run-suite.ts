// `npm test`: ava with one DynamoDB Local for the whole run. The JVM is spawned first and ava at
// once beside it (it answers within two seconds, long before the first connected file asks); its
// endpoint and pid go to every test file in RUN_LOCAL, where useDynamoDbLocal hands it to the files
// whose tests each use tables of their own, instead of each starting a JVM (about 2 CPU-seconds and
// 1.6 s of a test slot each). A file that lists or deletes every table (docs-site) still starts
// its own. The arguments go to ava as given (`npm test -- test/connected/fans.test.ts`); ava's exit
// code is this one's, and the JVM is stopped when ava ends (or killed on SIGINT and SIGTERM, as
// every DynamoDB Local the tests start).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { RUN_LOCAL, spawnDynamoDbLocal } from './dynamodb-local.js';

const root = path.resolve(import.meta.dirname, '../..');
const local = await spawnDynamoDbLocal();
// a JVM that fails to start fails the files that use it, each with its output, as before
local.ready.catch(() => undefined);
const ava = spawn(process.execPath, [path.join(root, 'node_modules/ava/entrypoints/cli.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, [RUN_LOCAL]: JSON.stringify({ endpoint: local.endpoint, pid: local.pid }) },
});
const code = await new Promise<number>((resolve) => ava.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
await local.stop();
process.exit(code);
