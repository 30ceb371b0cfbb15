// The emitted program's command line in-process: --help, and each kind of usage error as one line
// with exit 2 before any client is made (the full program runs in test/connected/migration-*.test.ts).
import test from 'ava';
import { migrationMain, migrationUsage } from './cli.js';
import type { MigrationPlan } from './plan.js';

const plan = { id: 'shop-0123456789ab', tableName: 'Shop', entities: [], unchanged: [], edges: [], edgePrefixes: [], decode: () => ({}), maxWcu: 800 } as MigrationPlan;

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = ((text: string) => ((stdout += text), true)) as typeof process.stdout.write;
  process.stderr.write = ((text: string) => ((stderr += text), true)) as typeof process.stderr.write;
  try {
    return { code: await migrationMain(plan, argv, 'migrate-shop.ts'), stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

test.serial('--help prints every option with its default', async (t) => {
  const help = await run(['--help']);
  t.is(help.code, 0);
  t.is(help.stdout, migrationUsage('migrate-shop.ts', plan));
  for (const line of ['--table NAME         physical table (default Shop)', '--max-wcu N', '(default 800)', '--checkpoints DIR    checkpoint folder (default .ddbgen-checkpoints/shop-0123456789ab)', '--page-size N', '--endpoint URL', '--region R', '--lease-seconds S']) t.true(help.stdout.includes(line), line);
});

const usage: Array<[string[], string]> = [
  [['--segmnets', '4'], "Unknown option '--segmnets'"],
  [['--segments'], "Option '--segments <value>' argument missing"],
  [['--segments', '0'], '--segments must be a whole number from 1 to 1,000,000, got "0"'],
  [['--page-size', '2000'], '--page-size must be a whole number from 1 to 1,000, got "2000"'],
  [['--segments', '4', '--segment', '4'], '--segment 4 is not in 0..3'],
  [['--lease-seconds', '5'], '--lease-table and --lease-seconds need --coordinate (or the status or cleanup command)'],
  [['--coordinate', '--checkpoints', 'dir'], '--segment and --checkpoints are for a run in one process; coordinated workers share segments and checkpoints through the lease table'],
  [['statsu'], 'unknown command "statsu": the commands are status and cleanup'],
  [['status', '--format', 'xml'], 'unknown --format "xml": use text or json'],
];

for (const [argv, message] of usage) {
  test.serial(`usage error: ${argv.join(' ')}`, async (t) => {
    const result = await run(argv);
    t.is(result.code, 2);
    t.is(result.stdout, '');
    t.true(result.stderr.startsWith(`migrate-shop.ts: ${message}`), result.stderr);
    t.true(result.stderr.endsWith('\nrun npx tsx migrate-shop.ts --help for the options\n'));
    t.notRegex(result.stderr, /\n\s+at /, 'no stack trace');
  });
}
