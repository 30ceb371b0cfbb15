// `ddbgen local` as a user runs it: the executable, its ready line, an item written through the
// SDK, a clean stop (SIGINT) that keeps the tables in --persist's folder, a restart that finds them;
// and its arguments, read without the rest of the CLI when they are plain.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { plainLocalOptions } from '../../generator/local/local-command.js';

const bin = path.resolve(import.meta.dirname, '../../bin/ddbgen.js');

const plain: Array<[string[], ReturnType<typeof plainLocalOptions>]> = [
  [[], { port: 8000 }],
  [['--port', '0'], { port: 0 }],
  [['--port=8124', '--persist', 'data'], { port: 8124, persist: 'data' }],
  [['--persist=./db', '--port', '65535'], { port: 65535, persist: './db' }],
  // left to the CLI, which words the error or the help
  [['--port', '65536'], undefined],
  [['--port', 'abc'], undefined],
  [['--port', '-1'], undefined],
  [['--port'], undefined],
  [['--persist'], undefined],
  [['--port', '1', '--port', '2'], undefined],
  [['--help'], undefined],
  [['extra'], undefined],
  [['--persist', ''], undefined],
];
for (const [args, want] of plain) {
  test(`plain arguments: ${JSON.stringify(args)} → ${JSON.stringify(want)}`, (t) => {
    t.deepEqual(plainLocalOptions(args), want);
  });
}

/** Starts `ddbgen local` with `args`; resolves with the process and its endpoint once it prints its ready line. */
function start(args: string[]): Promise<{ child: ChildProcess; endpoint: string; line: string }> {
  const child = spawn(process.execPath, [bin, 'local', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const match = /on (http:\/\/127\.0\.0\.1:\d+) /.exec(out);
      if (match) resolve({ child, endpoint: match[1]!, line: out.trim() });
    });
    child.once('exit', (code) => reject(new Error(`ddbgen local exited (${code}) before it was ready: ${out}`)));
  });
}

const stopped = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

test('npx ddbgen local --persist DIR: items written through the SDK are there after Ctrl-C and a restart', async (t) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'ddbgen-local-cli-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const first = await start(['--port', '0', '--persist', folder]);
  t.teardown(() => void first.child.kill('SIGKILL'));
  t.regex(first.line, /^ddbgen: local DynamoDB on http:\/\/127\.0\.0\.1:\d+ \(kept in .+; ready in \d+ ms; Ctrl-C to stop\)$/);
  const client = new DynamoDBClient({ endpoint: first.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  await client.send(new CreateTableCommand({ TableName: 'Music', AttributeDefinitions: [{ AttributeName: 'artist', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'artist', KeyType: 'HASH' }], BillingMode: 'PAY_PER_REQUEST' }));
  await client.send(new PutItemCommand({ TableName: 'Music', Item: { artist: { S: 'Nina' }, year: { N: '1958.000000000000000000000000000000001' } } }));
  client.destroy();
  const exit = stopped(first.child);
  first.child.kill('SIGINT');
  t.is(await exit, 0, 'a clean stop');
  t.deepEqual(readdirSync(folder), ['ddbgen-local.json']);

  const second = await start(['--port=0', `--persist=${folder}`]);
  t.teardown(() => void second.child.kill('SIGKILL'));
  const again = new DynamoDBClient({ endpoint: second.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  t.deepEqual((await again.send(new GetItemCommand({ TableName: 'Music', Key: { artist: { S: 'Nina' } } }))).Item, { artist: { S: 'Nina' }, year: { N: '1958.000000000000000000000000000000001' } });
  again.destroy();
  const exitAgain = stopped(second.child);
  second.child.kill('SIGTERM');
  t.is(await exitAgain, 0);
});

test('ddbgen local --port abc: the CLI\'s usage error, exit 2, nothing started', async (t) => {
  const child = spawn(process.execPath, [bin, 'local', '--port', 'abc'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk));
  t.is(await stopped(child), 2);
  t.regex(err, /--port takes a port number \(0 to 65535\), got "abc"/);
});
