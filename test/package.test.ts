// End to end, as a new user: `npm pack`, install the tarball into fresh projects next to the AWS
// SDK (from the registry), run init / generate / lint / plan / table through npx, and compile an
// app that uses the generated code with the project's own tsc — an ESM project on TypeScript 6 and
// a CommonJS one on TypeScript 5.4, the lowest and highest versions supported.
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const npm = (args: string[], cwd: string) => exec('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, maxBuffer: 1 << 26, env: { ...process.env, npm_config_update_notifier: 'false' } });
const npx = (args: string[], cwd: string) => exec('npx', ['--no-install', ...args], { cwd, maxBuffer: 1 << 26 });

let tarball: string;
test.before(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-pack-'));
  await npm(['pack', '--pack-destination', dir, '--ignore-scripts'], root);
  tarball = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
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

for (const [kind, typescript] of [['module', '6'], ['commonjs', '5.4']] as const) {
  test.serial(`a fresh ${kind} project on TypeScript ${typescript}: install, init, generate, lint, plan, table, iam, compile`, async (t) => {
    t.timeout(300_000);
    const dir = mkdtempSync(path.join(tmpdir(), `ddbgen-user-${kind}-`));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'user-app', private: true, type: kind }, null, 2));
    await npm(['install', '--save-dev', tarball, `typescript@${typescript}`], dir);
    await npm(['install', '@aws-sdk/client-dynamodb@3', '@aws-sdk/lib-dynamodb@3'], dir);

    t.regex((await npx(['ddbgen', 'init'], dir)).stdout, /wrote schema\.ts and ddbgen\.config\.ts/);
    const nested = path.join(dir, 'src', 'deep');
    mkdirSync(nested, { recursive: true });
    const generated = await npx(['ddbgen', 'generate'], nested);
    t.regex(generated.stderr, /using \.\.\/\.\.\/ddbgen\.config\.ts/);
    t.regex(generated.stdout, /out\/app: \d+ files/);
    t.regex((await npx(['ddbgen', 'lint'], dir)).stdout, /^ddbgen lint: 0 errors/);
    t.regex((await npx(['ddbgen', 'plan'], dir)).stdout, /^App \(on-demand\)/);
    t.is(JSON.parse((await npx(['ddbgen', 'table', '--format', 'cloudformation'], dir)).stdout).Resources.AppTable.Type, 'AWS::DynamoDB::Table');
    t.is(JSON.parse((await npx(['ddbgen', 'iam'], dir)).stdout).policies[0].name, 'AppReadOnly');
    t.is((await npx(['ddbgen', 'generate', '--check'], dir)).stdout, 'ddbgen: out is up to date (1 table)\n');

    writeFileSync(path.join(dir, 'app.ts'), app);
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true }, include: ['app.ts', 'schema.ts', 'ddbgen.config.ts'] }),
    );
    const tsc = await npx(['tsc', '-p', 'tsconfig.json'], dir).catch((error: { stdout: string }) => error);
    t.is('stdout' in tsc ? tsc.stdout : '', '', 'the app, the schema and the config compile with the project\'s own tsc');
  });
}

test('the package ships only what is needed', async (t) => {
  const { stdout } = await exec('tar', ['tzf', tarball]);
  const files = stdout.trim().split('\n').map((f) => f.replace(/^package\//, ''));
  t.true(files.includes('bin/ddbgen.js'));
  t.true(files.includes('dist/dsl/index.js') && files.includes('dist/dsl/index.d.ts'));
  t.true(files.includes('templates/runtime/codec.ts'));
  t.false(files.some((f) => f.endsWith('.test.ts') || f.startsWith('test/') || f.startsWith('fixtures/') || f.startsWith('bench/')));
});
