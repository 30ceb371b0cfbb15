// Offline: every `@example` of the generated social repositories is run as written over a client
// that records what it is sent, and the recorded command must be the one the example says it sends,
// with exactly the input it shows. This keeps examples from drifting from the methods.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SocialTable } from '../../out/social/index.js';

const OUT = new URL('../../out/social/', import.meta.url).pathname;

interface Example {
  readonly file: string;
  readonly method: string;
  readonly call: string;
  readonly command: string;
  readonly request: string;
}

/** The `@example` blocks of a generated module: the call, and the request under `// sends X:`. */
function examplesIn(file: string): Example[] {
  const examples: Example[] = [];
  for (const match of readFileSync(join(OUT, file), 'utf8').matchAll(/\/\*\*\n((?:\s*\*.*\n)*?)\s*\*\/\n\s*(?:async\s+)?(\w+)\s*[(<]/g)) {
    const lines = match[1]!.split('\n').map((line) => line.replace(/^\s*\* ?/, ''));
    const start = lines.indexOf('@example');
    if (start < 0) continue;
    const end = lines.findIndex((line, i) => i > start && line.startsWith('@'));
    const body = lines.slice(start + 1, end < 0 ? undefined : end);
    const sends = body.findIndex((line) => line.startsWith('// sends '));
    if (sends < 0) continue;
    examples.push({
      file,
      method: match[2]!,
      call: body.slice(0, sends).join('\n'),
      command: /^\/\/ sends (\w+):$/.exec(body[sends]!)![1]!,
      request: body.slice(sends + 1).map((line) => line.replace(/^\/\/ ?/, '')).join('\n'),
    });
  }
  return examples;
}

// overloads repeat their documentation: one example per method
const examples = [
  ...new Map(
    readdirSync(OUT)
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .flatMap(examplesIn)
      .map((e) => [`${e.file}:${e.method}`, e] as const),
  ).values(),
];

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (db: SocialTable) => Promise<unknown>;

test('the social repositories document every method family with an example', (t) => {
  const documented = new Set(examples.map((e) => `${e.file}:${e.method}`));
  const want = [
    'article.ts:get', 'article.ts:put', 'article.ts:create', 'article.ts:replace', 'article.ts:update', 'article.ts:delete',
    'article.ts:batchGet', 'article.ts:batchPut', 'article.ts:batchDelete', 'article.ts:query', 'article.ts:queryByName',
    'settings.ts:update', 'settings.ts:delete',
  ];
  t.deepEqual(want.filter((m) => !documented.has(m)), []);
});

for (const example of examples) {
  test(`${example.file} ${example.method}: the example's request is what the method sends`, async (t) => {
    const sent: Array<{ command: string; input: unknown }> = [];
    const client = {
      send: async (command: { constructor: { name: string }; input: unknown }) => {
        sent.push({ command: command.constructor.name, input: command.input });
        return { Items: [], Responses: {} };
      },
    } as unknown as DynamoDBDocumentClient;
    await new AsyncFunction('db', example.call)(new SocialTable(client));
    const request = new Function(`return (${example.request});`)() as unknown;
    t.deepEqual(sent, [{ command: example.command, input: request }], example.call);
  });
}
