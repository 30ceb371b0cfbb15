// The `@example` blocks of generated modules, read back from their doc comments: the call as
// written and what it says it sends (`// sends GetCommand:` and the input, or `// sends 4
// QueryCommand requests (one per shard); the first:`). Used to run every example offline.
import { readFileSync } from 'node:fs';

export interface Example {
  /** The method the comment documents. */
  readonly method: string;
  readonly call: string;
  readonly command: string;
  /** How many requests alike the call sends (one per shard, time bucket or table); the example shows the first. */
  readonly count: number;
  readonly request: string;
}

/** `// sends GetCommand:` or `// sends 4 QueryCommand requests (one per shard); the first:`. */
const SENDS = /^\/\/ sends (?:(\d+) (\w+) requests \(one per [^)]+\); the first|(\w+)):$/;

/** An example's lines read as the call and what it says it sends (undefined: no `// sends` line). */
export function exampleOf(method: string, body: readonly string[], where: string): Example | undefined {
  const sends = body.findIndex((line) => line.startsWith('// sends '));
  if (sends < 0) return undefined;
  const header = SENDS.exec(body[sends]!);
  if (!header) throw new Error(`${where}: cannot read ${body[sends]}`);
  return {
    method,
    call: body.slice(0, sends).join('\n'),
    command: header[2] ?? header[3]!,
    count: header[1] === undefined ? 1 : Number(header[1]),
    request: body.slice(sends + 1).map((line) => line.replace(/^\/\/ ?/, '')).join('\n'),
  };
}

/** The `@example` blocks of a generated module: the call, and the request under `// sends X:`. */
export function examplesIn(file: string): Example[] {
  const examples: Example[] = [];
  // a method (`get(key)`, `update<R>(…)`) or a repository member typed by its shape (`get: GetMethod<…>`)
  for (const match of readFileSync(file, 'utf8').matchAll(/\/\*\*\n((?:\s*\*.*\n)*?)\s*\*\/\n\s*(?:async\s+)?(\w+)\s*[(<:]/g)) {
    const lines = match[1]!.split('\n').map((line) => line.replace(/^\s*\* ?/, ''));
    const start = lines.indexOf('@example');
    if (start < 0) continue;
    const end = lines.findIndex((line, i) => i > start && line.startsWith('@'));
    const example = exampleOf(match[2]!, lines.slice(start + 1, end < 0 ? undefined : end), `${file} ${match[2]}`);
    if (example) examples.push(example);
  }
  return examples;
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (db: unknown) => Promise<unknown>;

/** An example's call as a function of `db` (it awaits, or iterates, as written). */
export const runnable = (example: Example): ((db: unknown) => Promise<unknown>) => new AsyncFunction('db', example.call);
