// End to end, as a new user: `npm pack`, install the tarball into a fresh project next to the AWS
// SDK (from the registry), run init through npx and generate / lint / plan / table / iam through the
// installed bin (what npx runs, without npm's start-up each time), then compile an
// app that uses the generated code with each TypeScript version's own `tsc --init` defaults, in
// CommonJS and ESM packages, under erasableSyntaxOnly, and with node10, node16 and bundler
// resolution of `import … from 'ddbgen'`. Everything is installed once (the TypeScript versions
// under aliases) and each setup is a folder linking to those node_modules.
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import rpc from 'vscode-jsonrpc/node';
import { TSCONFIG, TsServer, withHotKey } from './support/editor-project.js';

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const npm = (args: string[], cwd: string) => exec('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, maxBuffer: 1 << 26, env: { ...process.env, npm_config_update_notifier: 'false' } });
const npx = (args: string[], cwd: string) => exec('npx', ['--no-install', ...args], { cwd, maxBuffer: 1 << 26 });
/** The installed bin as npx runs it (node_modules/.bin/ddbgen), without npm's own start-up: about 2 CPU-seconds a call, paid once, by init. */
const ddbgen = (args: string[], cwd: string) => exec(path.join(project, 'node_modules', '.bin', 'ddbgen'), args, { cwd, maxBuffer: 1 << 26 });

/** The TypeScript versions of the matrix, installed side by side under these aliases. */
const TYPESCRIPT = { '5.4': 'ts5.4', '5.9': 'ts5.9', '6': 'ts6', '7': 'ts7' } as const;
type Version = keyof typeof TYPESCRIPT;

let tarball: string;
let project: string;
test.before(async (t) => {
  t.timeout(600_000); // installs from the registry: its own limit, not ava's 5 minutes without a test finishing
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-pack-'));
  await npm(['pack', '--pack-destination', dir, '--ignore-scripts'], root);
  tarball = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
  project = mkdtempSync(path.join(tmpdir(), 'ddbgen-user-'));
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'user-app', private: true, type: 'module' }, null, 2));
  const typescripts = Object.entries(TYPESCRIPT).map(([version, alias]) => `${alias}@npm:typescript@${version}`);
  await npm(['install', '--save-dev', tarball, ...typescripts], project);
  await npm(['install', '@aws-sdk/client-dynamodb@3', '@aws-sdk/lib-dynamodb@3'], project);
});

const app = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AppTable, ItemExistsError } from './out/app/index.js';

const db = new AppTable(DynamoDBDocumentClient.from(new DynamoDBClient({})), { tableName: 'app-prod' });
export async function demo(): Promise<number> {
  try {
    await db.user.create({ id: 'u1', email: 'a@example.com', createdAt: new Date() });
  } catch (error) {
    if (!(error instanceof ItemExistsError)) throw error;
  }
  const page = await db.order.query({ userId: 'u1' }, { where: { gte: { placedAt: new Date('2024-01-01') } }, limit: 10 });
  return page.items.reduce((sum, order) => sum + order.total, 0);
}
`;

test.serial('a fresh project: install, init, generate from a subfolder, lint, plan, table, iam, check', async (t) => {
  t.timeout(300_000);
  t.regex((await npx(['ddbgen', 'init'], project)).stdout, /wrote schema\.ts and ddbgen\.config\.ts/);
  const nested = path.join(project, 'src', 'deep');
  mkdirSync(nested, { recursive: true });
  const generated = await ddbgen(['generate'], nested);
  t.regex(generated.stderr, /using \.\.\/\.\.\/ddbgen\.config\.ts/);
  t.regex(generated.stdout, /out\/app: \d+ files/);
  t.regex((await ddbgen(['lint'], project)).stdout, /^ddbgen lint: 0 errors/);
  t.regex((await ddbgen(['plan'], project)).stdout, /^App \(on-demand\)/);
  t.is(JSON.parse((await ddbgen(['table', '--format', 'cloudformation'], project)).stdout).Resources.AppTable.Type, 'AWS::DynamoDB::Table');
  t.is(JSON.parse((await ddbgen(['iam'], project)).stdout).policies[0].name, 'AppReadOnly');
  t.is((await ddbgen(['generate', '--check'], project)).stdout, 'ddbgen: out is up to date (1 table)\n');
  writeFileSync(path.join(project, 'app.ts'), app);
});

/** A project folder of the given package type with the app, schema, config and output, and `tsc --init`'s tsconfig of that version, adjusted. */
async function setup(name: string, type: 'module' | 'commonjs', version: Version, adjust: Record<string, unknown> = {}): Promise<string> {
  const dir = path.join(project, 'setups', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type }));
  symlinkSync(path.join(project, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  for (const f of ['app.ts', 'schema.ts', 'ddbgen.config.ts', 'out']) cpSync(path.join(project, f), path.join(dir, f), { recursive: true });
  await exec(process.execPath, [tsc(version), '--init'], { cwd: dir });
  if (Object.keys(adjust).length) {
    const file = path.join(dir, 'tsconfig.json');
    const text = Object.keys(adjust).reduce((json, key) => json.replace(new RegExp(`^\\s*"${key}":.*\\n`, 'm'), ''), readFileSync(file, 'utf8'));
    writeFileSync(file, text.replace('"compilerOptions": {', `"compilerOptions": {\n    ${Object.entries(adjust).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)},`).join(' ')}`));
  }
  return dir;
}

const tsc = (version: Version) => path.join(project, 'node_modules', TYPESCRIPT[version], 'bin', 'tsc');

/** `tsc -p .` over the whole folder (the app, schema.ts, ddbgen.config.ts and out/): its output, '' when clean. */
async function compile(dir: string, version: Version): Promise<string> {
  const result = await exec(process.execPath, [tsc(version), '-p', '.', '--noEmit'], { cwd: dir, maxBuffer: 1 << 26 }).catch((error: { stdout: string }) => error);
  return result.stdout;
}

// CommonJS only with 5.4's defaults: from 5.9 on, `tsc --init` sets verbatimModuleSyntax with module
// nodenext, under which a CommonJS package's own `import` lines are errors (TS1295) with or without ddbgen.
const setups: Array<[string, 'module' | 'commonjs', Version, Record<string, unknown>?]> = [
  ['ts5.4-commonjs', 'commonjs', '5.4'],
  ['ts5.4-esm', 'module', '5.4'],
  ['ts5.9-esm', 'module', '5.9'],
  ['ts5.9-esm-erasable', 'module', '5.9', { erasableSyntaxOnly: true }],
  ['ts6-esm', 'module', '6'],
  ['ts6-esm-bundler', 'module', '6', { module: 'esnext', moduleResolution: 'bundler' }],
  ['ts6-esm-node16', 'module', '6', { module: 'node16', moduleResolution: 'node16' }],
  ['ts7-esm', 'module', '7'],
];
for (const [name, type, version, adjust] of setups) {
  test.serial(`${name}: the app, schema and output compile under TypeScript ${version}'s tsc --init defaults${adjust ? ` with ${JSON.stringify(adjust)}` : ''}`, async (t) => {
    t.timeout(180_000);
    const dir = await setup(name, type, version, adjust);
    t.is(await compile(dir, version), '');
  });
}

test('the package ships only what is needed, with top-level main and types for node10 resolution', async (t) => {
  const { stdout } = await exec('tar', ['tzf', tarball]);
  const files = stdout.trim().split('\n').map((f) => f.replace(/^package\//, ''));
  t.true(files.includes('bin/ddbgen.js'));
  t.true(files.includes('dist/dsl/index.js') && files.includes('dist/dsl/index.d.ts'));
  t.true(['esm/codec.js', 'esm/codec.d.ts', 'cjs/codec.js', 'manifest.json'].every((f) => files.includes(`dist/runtime/${f}`)), 'the runtime compiled at build time');
  t.false(files.some((f) => f.startsWith('templates/runtime/')), 'not its sources');
  t.false(files.some((f) => f.endsWith('.test.ts') || f.startsWith('test/') || f.startsWith('fixtures/') || f.startsWith('bench/')));
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string; types: string };
  t.true(files.includes(manifest.main.replace(/^\.\//, '')) && files.includes(manifest.types.replace(/^\.\//, '')));
});

// The editor guide's set-ups from the installed package: the plugin line in tsconfig, loaded by the
// tsserver of the TypeScript versions VS Code runs as a workspace version, and `ddbgen lsp` from the
// installed bin; each shows HK001 at a hot key typed into the starter schema.
for (const version of ['5.9', '6'] as const) {
  test.serial(`the installed ddbgen/ts-plugin, loaded by TypeScript ${version}'s tsserver from the tsconfig line, shows HK001 at a hot key in the starter schema`, async (t) => {
    t.timeout(150_000);
    const dir = path.join(project, 'setups', `editor-ts${version}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'editor', private: true, type: 'module' }));
    symlinkSync(path.join(project, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    for (const f of ['schema.ts', 'ddbgen.config.ts']) cpSync(path.join(project, f), path.join(dir, f));
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    const schema = path.join(dir, 'schema.ts');
    const text = readFileSync(schema, 'utf8');
    const server = new TsServer(dir, path.join(project, 'node_modules', TYPESCRIPT[version], 'lib', 'tsserver.js'));
    try {
      server.notify('open', { file: schema, fileContent: text, scriptKindName: 'TS', projectRootPath: dir });
      t.deepEqual(await server.settled(schema, text, 120_000), [], 'the starter is clean');
      const hot = withHotKey(text);
      server.replaceText(schema, text, hot);
      const found = (await server.settled(schema, hot)).filter((d) => d.source === 'ddbgen');
      const hk001 = found.find((d) => d.text.startsWith('HK001:'));
      t.deepEqual(hk001?.start, { line: hot.slice(0, hot.indexOf("'ORDERS'")).split('\n').length, offset: hot.slice(0, hot.indexOf("'ORDERS'")).split('\n').at(-1)!.length + 1 }, JSON.stringify(found) + server.stderr);
    } finally {
      await server.close();
    }
  });
}

test.serial('the installed `ddbgen lsp` publishes HK001 for a hot key in the starter schema', async (t) => {
  t.timeout(150_000);
  const bin = path.join(project, 'node_modules', 'ddbgen', 'bin', 'ddbgen.js');
  const child = spawn(process.execPath, [bin, 'lsp', '--stdio'], { cwd: project, stdio: ['pipe', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.on('data', (d) => (log += d));
  const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const published: Array<{ uri: string; diagnostics: Array<{ code: string; range: { start: { line: number } } }> }> = [];
  connection.onNotification('textDocument/publishDiagnostics', (p: (typeof published)[number]) => void published.push(p));
  connection.onNotification('window/logMessage', (m: { message: string }) => void (log += `${m.message}\n`));
  connection.listen();
  try {
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(project).href, capabilities: {} });
    await connection.sendNotification('initialized', {});
    const schema = path.join(project, 'schema.ts');
    const hot = withHotKey(readFileSync(schema, 'utf8'));
    const uri = pathToFileURL(schema).href;
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: hot } });
    const until = Date.now() + 120_000;
    while (!published.some((p) => p.uri === uri && p.diagnostics.some((d) => d.code === 'HK001')) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const hk001 = published.flatMap((p) => p.diagnostics).find((d) => d.code === 'HK001');
    t.is(hk001?.range.start.line, hot.slice(0, hot.indexOf("'ORDERS'")).split('\n').length - 1, log);
  } finally {
    await connection.sendRequest('shutdown').catch(() => undefined);
    await connection.sendNotification('exit').catch(() => undefined);
    connection.dispose();
    child.kill();
  }
});
