// Every code block of the documentation site and the README is a test (test/support/docs-site.ts
// reads them):
// each TypeScript block type-checks against this package (`ddbgen` resolves to it through
// node_modules, the generated tables are the fixtures' output, `./out/app/` what `ddbgen init`'s
// schema generates), all in one program; a block that shows `// sends <Command>:` sends exactly
// that request; a `run` block run against DynamoDB Local prints exactly the output shown after it;
// a ```console block's `$ npx ddbgen …` commands print what follows them. After an intended change,
// `DOCS_UPDATE=1 npx ava test/docs-site.test.ts` writes what the code sends and prints into the
// pages instead (review the diff).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { format } from 'node:util';
import { DeleteTableCommand, ListTablesCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import test from 'ava';
import ts from 'typescript';
import { sendsText } from '../generator/emit/examples/doc-examples.js';
import { main } from '../generator/cli/cli.js';
import { exampleOf } from './support/doc-examples.js';
import { useClient } from './support/docs-client.js';
import { consoleCommands, editPages, placeOf, examplesDir, moduleText, root, writeExamples, LOCAL_ENDPOINT, type TsBlock } from './support/docs-site.js';
import { startDynamoDbLocal, type LocalDynamo } from './support/dynamodb-local.js';
import { recordingClient } from './support/recording-client.js';

const blocks = writeExamples();
const UPDATE = process.env.DOCS_UPDATE === '1';
const edits: Parameters<typeof editPages>[0][number][] = [];
test.after.always(() => {
  if (UPDATE) editPages(edits);
});
const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length);
const where = (block: TsBlock) => placeOf(block.page, block.line);

test.before(async () => {
  // the app of the getting-started path: `ddbgen init`'s schema, generated as a user would
  const project = mkdtempSync(path.join(tmpdir(), 'ddbgen-docs-init-'));
  const quiet = { stdout: () => undefined, stderr: (s: string) => process.stderr.write(s) };
  if ((await main(['init'], { cwd: project, ...quiet })) !== 0) throw new Error('ddbgen init failed');
  if ((await main(['generate', path.join(project, 'schema.ts'), '--out', path.join(root, 'out'), '--quiet'], { cwd: root, ...quiet })) !== 0) throw new Error('generating the init schema failed');
  rmSync(project, { recursive: true, force: true });
});

test.serial('every TypeScript block of the site type-checks against the package (one program)', (t) => {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const program = ts.createProgram({ rootNames: blocks.map((b) => b.file), options, host: ts.createCompilerHost(options) });
  const byFile = new Map(blocks.map((b) => [b.file, b]));
  const problems = ts.getPreEmitDiagnostics(program).flatMap((d) => {
    const block = d.file && byFile.get(d.file.fileName);
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return [`TS${d.code}: ${text}`];
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    if (!block) return [`${path.relative(root, d.file.fileName)}:${line + 1} TS${d.code}: ${text}`];
    const at = line < block.offset ? `docs/.vitepress/preludes/${block.prelude}.ts:${line + 1}` : placeOf(block.page, block.line + line - block.offset);
    return [`${at} TS${d.code}: ${text}`];
  });
  t.deepEqual(problems, []);
  t.true(blocks.length > 0);
});

/** Imports a block's module (it runs as written), with console.log captured. */
async function runModule(file: string): Promise<string> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void lines.push(format(...args));
  try {
    await import(`${file}?${Date.now()}`);
  } finally {
    console.log = log;
  }
  return lines.join('\n');
}

for (const block of blocks) {
  const lines = block.code.split('\n');
  const example = exampleOf('block', lines, where(block));
  if (!example) continue;
  test.serial(`${where(block)} sends the request it shows`, async (t) => {
    const { client, sent } = recordingClient();
    useClient({ documents: client, createTable: async () => undefined });
    try {
      await runModule(block.file);
    } finally {
      useClient(undefined);
    }
    const sends = lines.findIndex((line) => line.startsWith('// sends '));
    const per = /\(one per ([^)]+)\)/.exec(lines[sends]!)?.[1] ?? '…';
    const actual = sent[0] && sendsText({ command: sent[0].name, input: sent[0].input, ...(sent.length > 1 ? { count: sent.length, per } : {}) });
    if (UPDATE && actual) {
      edits.push({ page: block.page, from: block.line + sends, to: block.line + lines.length - 1, text: actual, indent: block.indent });
      return t.pass();
    }
    const shown = new Function(`return (${example.request});`)() as unknown;
    t.is(sent.length, example.count, `the call sends ${sent.length} requests; the first:\n${actual}`);
    t.deepEqual({ command: sent[0]?.name, input: sent[0]?.input }, { command: example.command, input: shown }, `what the call sends:\n${actual}`);
  });
}

const runs = blocks.filter((b) => b.run);
let local: LocalDynamo | undefined;
test.after.always(async () => {
  await local?.stop();
});

for (const block of runs) {
  test.serial(`${where(block)} prints what the page shows (on DynamoDB Local)`, async (t) => {
    t.timeout(240_000);
    local ??= await startDynamoDbLocal();
    const { TableNames = [] } = await local.client.send(new ListTablesCommand({}));
    for (const name of TableNames) {
      await local.client.send(new UpdateTableCommand({ TableName: name, DeletionProtectionEnabled: false }));
      await local.client.send(new DeleteTableCommand({ TableName: name }));
    }
    const file = path.join(examplesDir, `${path.basename(block.file, '.ts')}.run.ts`);
    writeFileSync(file, moduleText(block, block.prelude, local.endpoint).text);
    useClient(local);
    try {
      const printed = (await runModule(file)).trimEnd();
      if (UPDATE) {
        edits.push({ page: block.page, from: block.outputLine!, to: block.outputLine! + lineCount(block.output!) - 1, text: printed, indent: block.indent });
        return t.pass();
      }
      t.is(printed, block.output!.trimEnd(), `${LOCAL_ENDPOINT} is ${local.endpoint} here`);
    } finally {
      useClient(undefined);
    }
  });
}

for (const command of consoleCommands()) {
  test.serial(`${placeOf(command.page, command.line)} ddbgen ${command.args.join(' ')} prints what the page shows`, async (t) => {
    let printed = '';
    await main([...command.args], { cwd: root, stdout: (s) => (printed += s), stderr: (s) => (printed += s) });
    if (UPDATE) {
      edits.push({ page: command.page, from: command.line + 1, to: command.line + lineCount(command.output), text: printed.trimEnd(), indent: '' });
      return t.pass();
    }
    t.is(printed.trimEnd(), command.output.trimEnd());
  });
}
