// The CLI, run in-process on temporary folders (and once as a real process through bin/).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { main } from '../generator/cli/cli.js';
import { createTableInput } from '../generator/emit/table/table-definition.js';
import { NO_CHECK } from '../generator/emit/context.js';
import social from '../fixtures/social.js';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { snippetProblems } from './support/snippet-check.js';

const root = path.resolve(import.meta.dirname, '..');
const fixture = (name: string) => path.join(root, 'fixtures', name);

async function run(args: string[], cwd = root) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { cwd, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

function temp(): string {
  return mkdtempSync(path.join(tmpdir(), 'ddbgen-cli-'));
}

test('--help, --version, help <command> and per-command --help', async (t) => {
  const help = await run(['--help']);
  t.is(help.code, 0);
  t.regex(help.stdout, /^ddbgen — DynamoDB single-table designs as typed TypeScript\n\nUsage:\n  ddbgen generate/);
  t.is((await run(['--version'])).stdout, `${JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version}\n`);
  const none = await run([]);
  t.is(none.code, 2);
  t.regex(none.stderr, /Usage:/);
  const generateHelp = await run(['generate', '--help']);
  t.is(generateHelp.code, 0);
  t.regex(generateHelp.stdout, /^Usage: ddbgen generate \[schema…\] \[--out DIR\] \[--emit ts\|js\] \[--check\] \[--watch\] \[--no-cache\]\n/);
  t.notRegex(generateHelp.stdout, /--format/, 'only the options generate takes');
  t.deepEqual(await run(['help', 'generate']), generateHelp);
  t.regex((await run(['table', '-h'])).stdout, /^Usage: ddbgen table .*\n[\s\S]*--format F/);
});

// given the arguments, want exactly this on stderr and exit 2: the one wrong thing, a "did you mean" when
// there is a close name, and where to read the usage — never the whole help.
const usageErrors: Array<[string[], string]> = [
  [['generat'], 'ddbgen: unknown command "generat"\n  did you mean ddbgen generate?\n  run ddbgen help for the usage\n'],
  [['lnit', 'schema.ts'], 'ddbgen: unknown command "lnit"\n  did you mean ddbgen lint schema.ts?\n  run ddbgen help for the usage\n'],
  [['frob'], 'ddbgen: unknown command "frob"\n  run ddbgen help for the usage\n'],
  [['help', 'tabel'], 'ddbgen: no command "tabel"\n  did you mean table?\n  run ddbgen help for the usage\n'],
  [['generate', '--chek'], 'ddbgen: unknown option --chek for generate\n  did you mean --check?\n  run ddbgen help generate for the usage\n'],
  [['generate', '--bogus'], 'ddbgen: unknown option --bogus for generate\n  run ddbgen help generate for the usage\n'],
  [['table', '--check'], 'ddbgen: table does not take --check\n  run ddbgen help table for the usage\n'],
  [['generate', '--format', 'json'], 'ddbgen: generate does not take --format\n  run ddbgen help generate for the usage\n'],
  [['lint', '--out', 'x'], 'ddbgen: lint does not take --out\n  run ddbgen help lint for the usage\n'],
  [['generate', '--output', 'x'], 'ddbgen: --output is called --out in ddbgen\n  run ddbgen help generate for the usage\n'],
  [['lint', fixture('social.ts'), '--format', 'jsno'], 'ddbgen: unknown --format "jsno": use text, json, sarif\n  did you mean json?\n  run ddbgen help lint for the usage\n'],
  [['table', fixture('social.ts'), '--format', 'yaml'], 'ddbgen: unknown --format "yaml": use create-table, cloudformation, cloudformation-yaml, cdk\n  run ddbgen help table for the usage\n'],
  [['generate', fixture('social.ts'), '--emit', 'jss'], 'ddbgen: unknown --emit "jss": use ts or js\n  run ddbgen help generate for the usage\n'],
  [['generate', '--watch', '--check'], 'ddbgen: --watch and --check do not go together\n  run ddbgen help generate for the usage\n'],
  [['init', 'extra'], 'ddbgen: init takes no arguments\n  run ddbgen help init for the usage\n'],
];
for (const [args, stderr] of usageErrors) {
  test(`usage error: ddbgen ${args.map((a) => path.basename(a)).join(' ')}`, async (t) => {
    t.deepEqual(await run(args, temp()), { code: 2, stdout: '', stderr });
  });
}

test('no schema and no config, or a missing config file', async (t) => {
  const dir = temp();
  const noConfig = await run(['generate'], dir);
  t.deepEqual(noConfig, { code: 2, stdout: '', stderr: `ddbgen: no schema given and no ddbgen.config.{ts,mts,cts,js,mjs,cjs} in ${dir} or any folder above it up to the project root (the nearest package.json or version-control root); run ddbgen init to create one, or pass a schema file
` });
  t.regex((await run(['lint', '-c', 'nope.config.ts'], dir)).stderr, /config file nope.config.ts does not exist/);
});

test('generate writes out/<table>; --check passes on fresh output and names every stale file', async (t) => {
  const dir = temp();
  const out = path.join(dir, 'out');
  const generated = await run(['generate', fixture('social.ts'), '--out', out], dir);
  t.is(generated.code, 0, generated.stderr);
  t.is(generated.stdout, 'ddbgen: out/social: 119 files, 119 written, 0 removed\n');
  t.true(readFileSync(path.join(out, 'social/user.ts'), 'utf8').startsWith('// generated by ddbgen - do not edit\n'));
  t.true(readFileSync(path.join(out, 'social/runtime/codec.js'), 'utf8').startsWith('// generated by ddbgen - do not edit\n'));
  t.true(readFileSync(path.join(out, 'social/runtime/codec.d.ts'), 'utf8').startsWith('// generated by ddbgen - do not edit\n'));
  const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  t.is(
    readFileSync(path.join(out, 'social/index.ts'), 'utf8').split('\n').slice(0, 4).join('\n'),
    // the schema lies outside the project (the temporary folder), so it is named by its absolute path; out is the default
    `// generated by ddbgen - do not edit\n// ddbgen ${version} from ${fixture('social.ts')}; regenerate with: npx ddbgen generate ${fixture('social.ts')}\n${NO_CHECK}\n/* eslint-disable */`,
    "the header names the version, the schema and the command, leaves the module's bodies to ddbgen's check and keeps eslint off the file",
  );
  t.deepEqual(await run(['generate', fixture('social.ts'), '--out', out, '--check'], dir), { code: 0, stdout: 'ddbgen: out is up to date (1 table)\n', stderr: '' });

  writeFileSync(path.join(out, 'social/user.ts'), '// edited\n');
  rmSync(path.join(out, 'social/score.ts'));
  // a file of an earlier release (its banner had an em dash) is ddbgen's own too
  writeFileSync(path.join(out, 'social/old.ts'), '// generated by ddbgen \u2014 do not edit\n');
  writeFileSync(path.join(out, 'social/mine.ts'), '// my own file\n');
  const stale = await run(['generate', fixture('social.ts'), '--out', out, '--check'], dir);
  t.is(stale.code, 1);
  t.is(
    stale.stderr,
    'stale: out/social/old.ts (no longer generated)\nstale: out/social/score.ts (missing)\nstale: out/social/user.ts (changed)\nddbgen: the output in out is stale; run ddbgen generate\n',
  );
  t.true(existsSync(path.join(out, 'social/old.ts')), '--check writes nothing');

  const again = await run(['generate', fixture('social.ts'), '--out', out], dir);
  t.is(again.stdout, 'ddbgen: out/social: 119 files, 2 written, 1 removed\n');
  t.false(existsSync(path.join(out, 'social/old.ts')));
  t.is(readFileSync(path.join(out, 'social/mine.ts'), 'utf8'), '// my own file\n', 'files without the banner are never touched');
});

test('an invalid schema reports every problem at file:line:column, each with its fix, and writes nothing (collisions too, while other entities have errors)', async (t) => {
  const dir = temp();
  const result = await run(['generate', fixture('invalid/many-problems.ts'), '--out', path.join(dir, 'out')], root);
  t.is(result.code, 1);
  t.is(result.stdout, '');
  t.is(
    result.stderr,
    [
      'fixtures/invalid/many-problems.ts:9:14 - error DDB023: index name "x" is not 3 to 255 letters, digits or _ starting with a letter',
      '    at Broken.indexes.x',
      '    fix: DynamoDB index names are 3 to 255 characters of a-z, A-Z, 0-9, _, - and . (AWS: "Supported data types and naming rules in Amazon DynamoDB"), and ddbgen names methods after the index (byName → queryByName), so use 3 to 255 letters, digits or _ starting with a letter: e.g. "byName"',
      'fixtures/invalid/many-problems.ts:14:24 - error DDB030: placeholder <idd> names no attribute of this entity',
      '    at Broken.entities.User.key.pk',
      '    fix: use one of "id", "nick", "tags", or declare "idd" in attributes',
      'fixtures/invalid/many-problems.ts:14:42 - error DDB033: "tags" is a list attribute, which cannot be part of a key',
      '    at Broken.entities.User.key.sk',
      '    fix: key parts are strings, enums, numbers, timestamps or booleans; key on a scalar attribute',
      'fixtures/invalid/many-problems.ts:14:49 - error DDB035: optional attribute "nick" is part of the primary key',
      '    at Broken.entities.User.key.sk',
      '    fix: make "nick" required, or move it to an index mapping (optional attributes make an index sparse)',
      'fixtures/invalid/many-problems.ts:18:46 - error DDB034: number "points" is in a key, but it has no min and max',
      '    at Broken.entities.Score.key.sk',
      '    fix: declare its range, e.g. t.number({ min: 0, max: 1e12, integer: true }): keys encode numbers fixed-width so they sort',
      'fixtures/invalid/many-problems.ts:19:18 - error DDB050: index "byPoints" is not declared on the table',
      '    at Broken.entities.Score.indexes.byPoints',
      '    fix: use one of "x", or declare it in the table\'s indexes',
      'fixtures/invalid/many-problems.ts:29:35 - error DDB080: traffic writesPerSecond is "5", a string where a number belongs',
      '    at Broken.entities.Settings.traffic.writesPerSecond',
      '    fix: traffic numbers are finite and not negative; hotKeyShare is a fraction from 0 to 1; leave a number out when unknown',
      'fixtures/invalid/many-problems.ts:27:7 - error DDB040: Profile and Settings can build the same key (Profile (USER#<userId> | <section>) vs Settings (USER#<userId> | SETTINGS)): one would overwrite the other',
      '    at Broken.entities.Settings.key',
      '    fix: give one of them a literal segment of its own, e.g. a sort key starting "Settings#"',
      '',
      'ddbgen: 8 errors; nothing was written',
      '',
    ].join('\n'),
  );
  t.false(existsSync(path.join(dir, 'out')));
});

test('bad edges: a type that is not an entity, one that cannot be a node, and bad traffic, each at file:line:column', async (t) => {
  const dir = temp();
  const result = await run(['generate', fixture('invalid/bad-edges.ts'), '--out', path.join(dir, 'out')], root);
  t.is(result.code, 1);
  t.deepEqual(
    result.stderr.split('\n').filter((line) => line.startsWith('fixtures/')),
    [
      'fixtures/invalid/bad-edges.ts:14:75 - error DDB080: traffic writesPerSecond is -5',
      'fixtures/invalid/bad-edges.ts:14:96 - error DDB080: traffic hotKeyShare is 2, above 1',
      'fixtures/invalid/bad-edges.ts:13:19 - error DDB140: node type "Movie" of edge Likes is not an entity of this table',
      'fixtures/invalid/bad-edges.ts:14:20 - error DDB141: entity Post\'s partition key "User.<userId>" cannot be a node key of edge Shares: its sort key "Post.<postId>" has placeholders, so the partition holds many Post items, not one node',
    ],
  );
  t.false(existsSync(path.join(dir, 'out')));
});

const broken: Array<[string, string, RegExp]> = [
  ['a module that throws', `import { t } from 'ddbgen';\nconst x = t.string();\nthrow new Error('boom');\n`, /^schema\.ts:3:7 - error DDB001: cannot load schema schema\.ts: boom\n/],
  ['a syntax error', `export default {{;\n`, /^schema\.ts:1:\d+ - error DDB001: cannot load schema schema\.ts: ParseError: /],
  ['no table exported', `export default { name: 'x' };\n`, /^schema\.ts:1:1 - error DDB002: the default export is an object that was not made by defineTable\n/],
  ['a missing file', '', /^nope\.ts:1:1 - error DDB001: cannot load schema nope\.ts: no such file\n/],
  ['no default export', `import { defineTable, entity, t } from 'ddbgen';\nexport const table = defineTable({ name: 'Abc', entities: { U: entity({ attributes: { id: t.string() }, key: { pk: 'U#<id>', sk: 'P' } }) } });\n`, /^schema\.ts:1:1 - error DDB002: the default export is missing \(the module has no default export\)\n/],
  [
    'an entity without a key',
    `import { defineTable, entity, t } from 'ddbgen';\nexport default defineTable({\n  name: 'Abc',\n  // @ts-expect-error: no key\n  entities: { U: entity({ attributes: { id: t.string() } }) },\n});\n`,
    /^schema\.ts:5:18 - error DDB103: an entity has no key\n    at schema\.ts\n    fix: give it key: \{ pk: '…', sk: '…' \}, e\.g\. key: \{ pk: 'User#<id>', sk: 'PROFILE' \}\n/,
  ],
  [
    'an entity declared twice',
    `import { defineTable, entity, t } from 'ddbgen';\nconst e = entity({ attributes: { id: t.string() }, key: { pk: 'A#<id>', sk: 'X' } });\nexport default defineTable({\n  name: 'App',\n  // @ts-ignore\n  entities: { A: e, A: e },\n});\n`,
    /^schema\.ts:6:21 - error DDB021: entity "A" is declared more than once\n/,
  ],
];
for (const [name, source, want] of broken) {
  test(`bad schema: ${name} is one clear diagnostic, no stack trace, exit 1`, async (t) => {
    const dir = temp();
    if (source) writeFileSync(path.join(dir, 'schema.ts'), source);
    const result = await run(['generate', source ? 'schema.ts' : 'nope.ts'], dir);
    t.is(result.code, 1);
    t.regex(result.stderr, want);
    t.notRegex(result.stderr, /\n\s+at .*\(.*:\d+:\d+\)/, 'no stack frames');
    t.false(existsSync(path.join(dir, 'out')));
  });
}

test('init writes a starter that generates through config discovery; init never overwrites', async (t) => {
  const dir = temp();
  const init = await run(['init'], dir);
  t.is(init.code, 0);
  t.regex(init.stdout, /wrote schema\.ts and ddbgen\.config\.ts/);
  const nested = path.join(dir, 'src', 'deep');
  mkdirSync(nested, { recursive: true });
  const generated = await run(['generate'], nested);
  t.is(generated.code, 0, generated.stderr);
  t.is(generated.stderr, 'ddbgen: using ../../ddbgen.config.ts\n');
  t.true(existsSync(path.join(dir, 'out', 'app', 'order.ts')));
  t.is((await run(['generate', '--check'], dir)).code, 0);
  const again = await run(['init'], dir);
  t.is(again.code, 1);
  t.is(again.stderr, 'ddbgen: schema.ts and ddbgen.config.ts already exist; init writes nothing over them\n');
});

test('table prints the CreateTable input, CloudFormation (JSON and YAML, schema-checked) and a CDK snippet', async (t) => {
  const plain = await run(['table', fixture('social.ts')]);
  t.is(plain.code, 0);
  t.deepEqual(JSON.parse(plain.stdout), { TableName: 'Social', ...createTableInput(social) });
  const cfn = JSON.parse((await run(['table', fixture('social.ts'), '--format', 'cloudformation'])).stdout);
  t.deepEqual(Object.keys(cfn.Resources), ['SocialTable']);
  const ajv = new Ajv({ allErrors: true });
  const schema = JSON.parse(readFileSync(path.join(root, 'test/support/cloudformation-dynamodb-table.schema.json'), 'utf8'));
  t.true(ajv.validate(schema, cfn), ajv.errorsText());
  const yaml = (await run(['table', fixture('social.ts'), '--format', 'cloudformation-yaml'])).stdout;
  t.deepEqual(parseYaml(yaml), cfn, 'the YAML says the same as the JSON');
  t.regex(yaml, /^AWSTemplateFormatVersion: '2010-09-09'$/m);
  t.snapshot(yaml, 'cloudformation-yaml');
  t.like(cfn.Resources.SocialTable, { Type: 'AWS::DynamoDB::Table', DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  const cdk = (await run(['table', fixture('social.ts'), '--format', 'cdk'])).stdout;
  t.snapshot(cdk, 'cdk');
  t.regex(cdk, /new Table\(scope, 'SocialTable', \{/, 'the same resource type as CloudFormation (Table, not TableV2 = AWS::DynamoDB::GlobalTable)');
  t.regex(cdk, /removalPolicy: RemovalPolicy\.RETAIN/);
  // every import is used (noUnusedLocals): the unresolved aws-cdk-lib modules do not hide an unused name
  t.deepEqual(snippetProblems(cdk), []);
  for (const format of ['cloudformation', 'cdk']) {
    const provisioned = (await run(['table', fixture('lint/seeds/election-votes.ts'), '--format', format])).stdout;
    t.notRegex(provisioned, /GlobalTable|TableV2/, `${format}: AWS::DynamoDB::Table`);
  }
});

test('table exports a native multi-attribute GSI: typed AttributeDefinitions, several HASH and RANGE elements, CDK partitionKeys / sortKeys', async (t) => {
  const cfn = JSON.parse((await run(['table', fixture('tenants.ts'), '--format', 'cloudformation'])).stdout);
  const ajv = new Ajv({ allErrors: true });
  t.true(ajv.validate(JSON.parse(readFileSync(path.join(root, 'test/support/cloudformation-dynamodb-table.schema.json'), 'utf8')), cfn), ajv.errorsText());
  const properties = cfn.Resources.TenantsTable.Properties;
  t.deepEqual(properties.AttributeDefinitions, [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'S' },
    { AttributeName: 'tenantId', AttributeType: 'S' },
    { AttributeName: 'region', AttributeType: 'S' },
    { AttributeName: 'status', AttributeType: 'S' },
    { AttributeName: 'createdAt', AttributeType: 'S' },
    { AttributeName: 'total', AttributeType: 'N' },
  ]);
  t.deepEqual(properties.GlobalSecondaryIndexes, [
    {
      IndexName: 'byTenant',
      KeySchema: [
        { AttributeName: 'tenantId', KeyType: 'HASH' },
        { AttributeName: 'region', KeyType: 'HASH' },
        { AttributeName: 'status', KeyType: 'RANGE' },
        { AttributeName: 'createdAt', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    },
    { IndexName: 'byTotal', KeySchema: [{ AttributeName: 'tenantId', KeyType: 'HASH' }, { AttributeName: 'total', KeyType: 'RANGE' }], Projection: { ProjectionType: 'KEYS_ONLY' } },
  ]);
  const cdk = (await run(['table', fixture('tenants.ts'), '--format', 'cdk'])).stdout;
  t.true(
    cdk.includes(
      [
        '  table.addGlobalSecondaryIndex({',
        "    indexName: 'byTenant',",
        "    partitionKeys: [{ name: 'tenantId', type: AttributeType.STRING }, { name: 'region', type: AttributeType.STRING }],",
        "    sortKeys: [{ name: 'status', type: AttributeType.STRING }, { name: 'createdAt', type: AttributeType.STRING }],",
        '    projectionType: ProjectionType.ALL,',
        '  });',
        '  table.addGlobalSecondaryIndex({',
        "    indexName: 'byTotal',",
        "    partitionKey: { name: 'tenantId', type: AttributeType.STRING },",
        "    sortKey: { name: 'total', type: AttributeType.NUMBER },",
        '    projectionType: ProjectionType.KEYS_ONLY,',
        '  });',
      ].join('\n'),
    ),
    cdk,
  );
  t.deepEqual(snippetProblems(cdk), []);
});

test('the installed command runs as a process with the same exit codes', async (t) => {
  const bin = path.join(root, 'bin', 'ddbgen.js');
  const version = await promisify(execFile)(process.execPath, [bin, '--version']);
  t.regex(version.stdout, /^\d+\.\d+\.\d+\n$/);
  const failed = await t.throwsAsync(promisify(execFile)(process.execPath, [bin, 'generate', 'does-not-exist.ts'], { cwd: temp() }));
  t.is((failed as unknown as { code: number }).code, 1);
  const usage = await t.throwsAsync(promisify(execFile)(process.execPath, [bin, 'nonsense']));
  t.is((usage as unknown as { code: number }).code, 2);
});

test('ddbgen.config.ts sets project-wide lint severities; a bad one is a clear config error', async (t) => {
  const dir = temp();
  writeFileSync(
    path.join(dir, 'schema.ts'),
    `import { defineTable, entity, t } from 'ddbgen';\nexport default defineTable({ name: 'Pii', entities: { U: entity({ attributes: { email: t.string({ pii: true }) }, key: { pk: 'E#<email>', sk: 'U' } }) } });\n`,
  );
  const config = (lint: string) => writeFileSync(path.join(dir, 'ddbgen.config.ts'), `import { defineConfig } from 'ddbgen';\nexport default defineConfig({ schemas: ['schema.ts'], lint: ${lint} });\n`);
  config('{}');
  t.regex((await run(['lint'], dir)).stdout, /0 errors, 1 warning, 0 info/);
  config("{ HK016: 'off' }");
  t.regex((await run(['lint'], dir)).stdout, /0 errors, 0 warnings, 0 info/);
  config("{ HK999: 'off' }");
  const bad = await run(['lint'], dir);
  t.is(bad.code, 1);
  t.regex(bad.stderr, /ddbgen\.config\.ts: lint names rule "HK999", which does not exist \(rules are HK001–HK026\)\n$/);
});

const badSchema = `import { defineTable, entity, t } from 'ddbgen';
export default defineTable({
  name: 'Bad',
  entities: { User: entity({ attributes: { id: t.string() }, key: { pk: 'User#<idd>', sk: 'PROFILE' } }) },
});
`;

test('a diagnostic piped is plain; on a terminal it has colour and a code frame (NO_COLOR: the frame, no colour)', async (t) => {
  const dir = temp();
  writeFileSync(path.join(dir, 'schema.ts'), badSchema);
  const capture = async (terminal: { interactive?: boolean; color?: boolean }) => {
    let stderr = '';
    const code = await main(['generate', 'schema.ts'], { cwd: dir, stdout: () => {}, stderr: (s) => (stderr += s), ...terminal });
    // progress lines (on a terminal) are rewritten in place and cleared: left out here
    return { code, first: stderr.replace(/\r\x1b\[K(ddbgen: [^\r\n]*…)?/g, '').split('\n').slice(0, 6).join('\n') };
  };
  const piped = await capture({});
  t.is(piped.code, 1);
  t.is(piped.first, `schema.ts:4:79 - error DDB030: placeholder <idd> names no attribute of this entity\n    at Bad.entities.User.key.pk\n    fix: use one of "id", or declare "idd" in attributes\n\nddbgen: 1 error; nothing was written\n`);
  const plainTerminal = await capture({ interactive: true, color: false });
  t.is(plainTerminal.first, [
    'schema.ts:4:79 - error DDB030: placeholder <idd> names no attribute of this entity',
    "3 |   name: 'Bad',",
    "4 |   entities: { User: entity({ attributes: { id: t.string() }, key: { pk: 'User#<idd>', sk: 'PROFILE' } }) },",
    `  | ${' '.repeat(78)}^`,
    '5 | });',
    '    at Bad.entities.User.key.pk',
  ].join('\n'));
  const coloured = await capture({ interactive: true, color: true });
  t.true(coloured.first.startsWith('\x1b[36mschema.ts\x1b[0m:\x1b[33m4\x1b[0m:\x1b[33m79\x1b[0m - \x1b[31merror\x1b[0m \x1b[90mDDB030:\x1b[0m placeholder'));
  t.is(coloured.first.replace(/\x1b\[\d+m/g, ''), plainTerminal.first, 'the same text under the colour');
});

test('--quiet leaves out the status lines, not the problems or the output asked for', async (t) => {
  const dir = temp();
  const loud = await run(['generate', fixture('social.ts'), '--out', path.join(dir, 'out')], dir);
  t.is(loud.stdout, 'ddbgen: out/social: 119 files, 119 written, 0 removed\n');
  t.deepEqual(await run(['generate', fixture('social.ts'), '--out', path.join(dir, 'out'), '--quiet'], dir), { code: 0, stdout: '', stderr: '' });
  const lint = await run(['lint', fixture('lint/seeds/election-votes.ts'), '-q'], dir);
  t.is(lint.code, 1);
  t.is(lint.stdout, '');
  t.regex(lint.stderr, /error HK/);
  t.is(JSON.parse((await run(['lint', fixture('social.ts'), '-q', '--format', 'json'], dir)).stdout).summary.errors, 0);
});

test('config discovery finds every ddbgen.config extension, and schemas take globs', async (t) => {
  for (const ext of ['mts', 'cts', 'js', 'mjs', 'cjs']) {
    const dir = temp();
    mkdirSync(path.join(dir, 'schemas', 'more'), { recursive: true });
    writeFileSync(path.join(dir, 'schemas', 'more', 'social.ts'), readFileSync(fixture('social.ts'), 'utf8').replace(/from '\.\.\/dsl\/index\.js'/g, "from 'ddbgen'"));
    const body = "{ schemas: ['schemas/**/*.ts'] }";
    writeFileSync(path.join(dir, `ddbgen.config.${ext}`), ext === 'cjs' || ext === 'cts' ? `module.exports = ${body};\n` : `export default ${body};\n`);
    const planned = await run(['plan'], dir);
    t.is(planned.code, 0, `${ext}: ${planned.stderr}`);
    t.is(planned.stderr, `ddbgen: using ddbgen.config.${ext}\n`);
    t.regex(planned.stdout, /^Social \(on-demand\)/);
  }
  const dir = temp();
  writeFileSync(path.join(dir, 'ddbgen.config.ts'), "export default { schemas: ['nothing/*.ts'] };\n");
  const none = await run(['plan'], dir);
  t.is(none.code, 1);
  t.is(none.stderr, `ddbgen: ${path.join(dir, 'ddbgen.config.ts')}: schemas pattern "nothing/*.ts" matches no file in ${dir}\n`);
});

test('progress: on a terminal one status line rewritten in place (each step as it goes) and cleared at the end; piped or --quiet, none', async (t) => {
  const dir = temp();
  let stderr = '';
  let stdout = '';
  const code = await main(['generate', fixture('social.ts'), '--out', path.join(dir, 'out')], { cwd: dir, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), interactive: true });
  t.is(code, 0, stderr);
  const lines = stderr.split('\r\x1b[K');
  const entities = Object.keys(social.entities).length;
  t.deepEqual(lines.slice(0, 4), ['', 'ddbgen: loading 1 schema…', '', `ddbgen: Social (table 1 of 1): rendering 1 of ${entities} entities…`]);
  t.true(lines.includes('ddbgen: Social (table 1 of 1): type-checking 66 files…'), stderr);
  // repeats of a step are thrown away within 100 ms, so which counts show depends on the machine's speed
  const step = new RegExp(`^ddbgen: Social \\(table 1 of 1\\): (rendering \\d+ of ${entities} entities|laying out \\d+ modules|type-checking 66 files|type-checking: \\d+ of 66 files checked)…$`);
  for (const line of lines.slice(4, -1)) t.regex(line, step);
  t.is(lines.at(-1), '', 'cleared at the end');
  t.is(stdout, 'ddbgen: out/social: 119 files, 119 written, 0 removed\n');
  // a one-entity schema proves the same for --quiet at a fraction of the cost
  writeFileSync(path.join(dir, 'small.ts'), badSchema.replace('User#<idd>', 'User#<id>'));
  let quiet = '';
  t.is(await main(['generate', 'small.ts', '--quiet'], { cwd: dir, stdout: () => {}, stderr: (s) => (quiet += s), interactive: true }), 0, quiet);
  t.is(quiet, '', '--quiet: no progress line either');
});

test('the guide\'s VS Code problem matcher (docs/guide/cli.md) picks up every diagnostic line as printed', async (t) => {
  const guide = readFileSync(path.join(root, 'docs/guide/cli.md'), 'utf8');
  const matcher = JSON.parse(/"problemMatcher": (\{[\s\S]*?\n\})/.exec(guide)![1]!) as { pattern: { regexp: string } };
  const regexp = new RegExp(matcher.pattern.regexp);
  const dir = temp();
  writeFileSync(path.join(dir, 'schema.ts'), badSchema);
  const { stderr } = await run(['generate', 'schema.ts'], dir);
  const lint = await run(['lint', fixture('lint/seeds/election-votes.ts')], root);
  const lines = [...stderr.split('\n'), ...lint.stderr.split('\n')].filter((l) => / - (error|warning|info) /.test(l));
  t.true(lines.length >= 3);
  t.deepEqual(regexp.exec(lines[0]!)?.slice(1), ['schema.ts', '4', '79', 'error', 'DDB030', 'placeholder <idd> names no attribute of this entity']);
  t.true(lines.every((l) => regexp.test(l)), lines.join('\n'));
});

test('a config naming a missing schema points at its own line; unknown config keys are named', async (t) => {
  const dir = temp();
  writeFileSync(path.join(dir, 'ddbgen.config.ts'), `import { defineConfig } from 'ddbgen';\nexport default defineConfig({\n  schemas: ['schema.ts',\n    'gone.ts'],\n});\n`);
  writeFileSync(path.join(dir, 'schema.ts'), `import { defineTable, entity, t } from 'ddbgen';\nexport default defineTable({ name: 'Abc', entities: { U: entity({ attributes: { id: t.string() }, key: { pk: 'U#<id>', sk: 'P' } }) } });\n`);
  const missing = await run(['lint'], dir);
  t.is(missing.code, 1);
  t.is(
    missing.stderr,
    'ddbgen.config.ts:4:5 - error DDB001: cannot load schema gone.ts: no such file (named in ddbgen.config.ts, relative to its folder)\n    at ddbgen.config.ts.schemas\n    fix: fix the error above so the module runs; a schema module must import from "ddbgen" and default-export defineTable(…)\n\nddbgen: 1 error; nothing was written\n',
  );
  writeFileSync(path.join(dir, 'ddbgen.config.ts'), `export default { schemas: ['schema.ts'], outDir: 'x', format: 'json' };\n`);
  const unknown = await run(['lint'], dir);
  t.is(unknown.code, 1);
  t.is(unknown.stderr, `ddbgen: ${path.join(dir, 'ddbgen.config.ts')}: unknown keys "outDir", "format"; a config has schemas, out, emit, lint\n`);
});
