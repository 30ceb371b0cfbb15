// `ddbgen local` (and `startLocal`, exported as `ddbgen/local`): the local DynamoDB
// (local-dynamodb.ts) served over DynamoDB's JSON 1.0 HTTP protocol on 127.0.0.1, so any SDK, the
// AWS CLI and NoSQL Workbench can use it: POST / with `X-Amz-Target: DynamoDB_20120810.<Operation>`
// (or `DynamoDBStreams_20120810.<Operation>`), a JSON body, binary values in base64; errors as
// `{"__type": "…#<Name>", "message": "…"}` with status 400 (500 for an internal error). Any
// credentials are accepted and none are checked. With `persist`, the tables are kept in a folder:
// loaded at start, written atomically (a temporary file renamed over the old one) every few
// seconds after a change and on `stop()`.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { RequestError, wireMap } from '../../templates/runtime/in-memory/value.js';
import { LocalDynamoDB, type SavedTable } from './local-dynamodb.js';

export interface LocalOptions {
  /** The port to listen on (default 8000; 0 picks a free one). */
  readonly port?: number;
  /** A folder to keep the tables in across restarts (default: none, in memory only). */
  readonly persist?: string;
  /** The region named in ARNs (default 'local'). */
  readonly region?: string;
  /** How often a changed table set is written to `persist`, in milliseconds (default 5000). */
  readonly saveEveryMs?: number;
}

export interface LocalServer {
  /** The URL to give an SDK as its endpoint, e.g. `http://127.0.0.1:8000`. */
  readonly endpoint: string;
  readonly port: number;
  /** The engine behind the server (its tables can be inspected and its clock moved). */
  readonly dynamodb: LocalDynamoDB;
  /** Stops listening and, with `persist`, writes the tables once more. */
  stop(): Promise<void>;
}

const FILE = 'ddbgen-local.json';
/** Operations that change nothing: no write to the persisted copy follows them. */
const READS = /^(Get|Query|Scan|BatchGet|TransactGet|Describe|List)/;

/** The `__type` DynamoDB answers an error with. */
const errorType = (name: string) => (name === 'ValidationException' ? 'com.amazon.coral.validate#ValidationException' : `com.amazonaws.dynamodb.v20120810#${name}`);

/** A value as the JSON protocol writes it: bytes as base64, times as epoch seconds. */
function wireJson(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, given: unknown) {
    const raw = this[key];
    if (raw instanceof Uint8Array) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64');
    if (raw instanceof Date) return raw.getTime() / 1000;
    return given;
  });
}

/** Reads the saved tables of a folder (none when it holds no copy yet). */
function readSaved(folder: string): SavedTable[] {
  let text: string;
  try {
    text = readFileSync(path.join(folder, FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const saved = JSON.parse(text) as { tables: Array<{ table: SavedTable['table']; items: Array<Record<string, unknown>> }> };
  return saved.tables.map(({ table, items }) => ({ table, items: items.map((item) => wireMap(item)) }));
}

/** Writes the tables to the folder atomically: a temporary file, then renamed over the old copy. */
function writeSaved(folder: string, dynamodb: LocalDynamoDB): void {
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, wireJson({ version: 1, tables: dynamodb.save() }));
  renameSync(temporary, file);
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

let requests = 0;

function answer(response: ServerResponse, status: number, payload: unknown): void {
  const text = wireJson(payload);
  response.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': `DDBGENLOCAL${(++requests).toString(36).toUpperCase().padStart(12, '0')}`,
  });
  response.end(text);
}

function refuse(response: ServerResponse, error: RequestError): void {
  answer(response, error.type === 'InternalServerError' ? 500 : 400, { __type: errorType(error.type), message: error.message, ...error.carries });
}

/** Starts a local DynamoDB on 127.0.0.1 (with `persist`, loaded from that folder). */
export async function startLocal(options: LocalOptions = {}): Promise<LocalServer> {
  const dynamodb = new LocalDynamoDB(options.region === undefined ? {} : { region: options.region });
  const folder = options.persist === undefined ? undefined : path.resolve(options.persist);
  if (folder) dynamodb.load(readSaved(folder));
  let changed = false;

  const server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST') {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('healthy: ddbgen local\n');
        return;
      }
      const target = String(request.headers['x-amz-target'] ?? '');
      const match = /^(DynamoDB_20120810|DynamoDBStreams_20120810)\.(\w+)$/.exec(target);
      const text = await body(request);
      if (!match) return refuse(response, new RequestError('UnknownOperationException', `Unknown operation: ${target}`));
      let input: Record<string, unknown>;
      try {
        input = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
        if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new Error('not an object');
      } catch {
        return refuse(response, new RequestError('SerializationException', 'Start of structure or map found where not expected'));
      }
      try {
        const output = dynamodb.handle(match[2]!, input);
        if (!READS.test(match[2]!)) changed = true;
        answer(response, 200, output);
      } catch (error) {
        if (error instanceof RequestError) return refuse(response, error);
        refuse(response, new RequestError('InternalServerError', `Internal server error: ${error instanceof Error ? error.message : String(error)}`));
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8000, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const save = () => {
    if (folder && changed) {
      changed = false;
      writeSaved(folder, dynamodb);
    }
  };
  const timer = folder ? setInterval(save, options.saveEveryMs ?? 5000) : undefined;
  timer?.unref();
  let stopping: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    dynamodb,
    stop: () =>
      (stopping ??= new Promise<void>((resolve, reject) => {
        if (timer) clearInterval(timer);
        server.close((error) => {
          try {
            save();
          } catch (saveError) {
            return reject(saveError as Error);
          }
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      })),
  };
}
