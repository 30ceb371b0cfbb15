// The TypeScript plugin end to end, as a new user meets it: a project made by `ddbgen init` with
// the plugin line from the guide in its tsconfig, a real tsserver process (TypeScript's own
// node_modules/typescript/lib/tsserver.js) that loads the plugin by name, and the requests an
// editor sends: open, change, geterr (the semanticDiag event), completions, quickinfo,
// getCodeFixes; a fix is applied with change requests and the finding goes away.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { TsServer, lineOffset, positionOf, starterProject, withHotKey, type TsDiagnostic } from '../support/editor-project.js';

const ddbgen = (d: TsDiagnostic[]) => d.filter((x) => x.source === 'ddbgen');
const codes = (d: TsDiagnostic[]) => ddbgen(d).map((x) => /^(\w+):/.exec(x.text)?.[1]);

let server: TsServer;
let project: Awaited<ReturnType<typeof starterProject>>;
test.before(async () => {
  project = await starterProject('tsp');
  server = new TsServer(project.dir);
  await server.request('configure', { preferences: { includeCompletionsWithInsertText: true } });
});
test.after.always(async () => {
  await server?.close();
});

interface CodeFix {
  readonly description: string;
  readonly changes: Array<{ fileName: string; textChanges: Array<{ start: { line: number; offset: number }; end: { line: number; offset: number }; newText: string }> }>;
}

/** Applies a code fix's text changes to `text` (last first), as the editor does. */
function applyFix(text: string, fix: CodeFix): string {
  const changes = fix.changes.flatMap((c) => c.textChanges).map((c) => ({ start: positionOf(text, c.start), end: positionOf(text, c.end), newText: c.newText }));
  return changes.sort((a, b) => b.start - a.start).reduce((t, c) => t.slice(0, c.start) + c.newText + t.slice(c.end), text);
}

test.serial('the starter schema: a hot key typed in shows HK001 at the key with the arithmetic, hover explains it, and the quick fix applies and clears it', async (t) => {
  t.timeout(120_000);
  const { schema, text } = project;
  server.notify('open', { file: schema, fileContent: text, scriptKindName: 'TS', projectRootPath: project.dir });
  // the starter is clean: TypeScript's own diagnostics, none of ddbgen's

  const clean = await server.settled(schema, text);
  t.deepEqual(clean, []);

  const hot = withHotKey(text);
  server.replaceText(schema, text, hot);
  const found = await server.settled(schema, hot);
  const hk001 = ddbgen(found).find((d) => d.text.startsWith('HK001'))!;
  const literal = hot.indexOf("'ORDERS'");
  t.deepEqual([hk001.start, hk001.end], [lineOffset(hot, literal), lineOffset(hot, literal + "'ORDERS'".length)], 'the span is the key template');
  t.is(hk001.category, 'error');
  t.is(hk001.code, 91001);
  t.true(hk001.text.includes('partition key "ORDERS" has no placeholder, so every write goes to one key; 5,000 writes/s × 1 × 1 WCU per 1 KB write = 5,000 WCU/s on the hottest key'), hk001.text);
  t.regex(hk001.text, /\nfix: shard it: pk "ORDERS#<shard>" with shard: \{ count: 7 \}/);
  t.regex(hk001.text, /https:\/\/unpkg\.com\/ddbgen@[^/]+\/docs\/rules\/HK001\.md$/);

  const info = await server.request<{ documentation: string | Array<{ text: string }> }>('quickinfo', { file: schema, ...lineOffset(hot, literal + 2) });
  const documentation = typeof info.documentation === 'string' ? info.documentation : info.documentation.map((p) => p.text).join('');
  t.true(documentation.includes('Example key: `ORDERS`'), documentation);
  t.true(documentation.includes("5,000 WCU/s on the hottest key (share 1: assumed uniform over a constant), 500% of a partition's 1,000 WCU/s"), documentation);

  const fixes = await server.request<CodeFix[]>('getCodeFixes', { file: schema, startLine: hk001.start.line, startOffset: hk001.start.offset, endLine: hk001.end.line, endOffset: hk001.end.offset, errorCodes: [hk001.code] });
  const shard = fixes.find((f) => f.description.startsWith('Shard the key'));
  t.truthy(shard, JSON.stringify(fixes));
  const fixed = applyFix(hot, shard!);
  t.true(fixed.includes("key: { pk: 'ORDERS#<shard>', sk: 'ORDER#<placedAt>#<orderId>', shard: { count: 7 } }"), fixed);
  // the edits go in last first, so that each one's position still holds
  const edits = [...shard!.changes[0]!.textChanges].sort((a, b) => positionOf(hot, b.start) - positionOf(hot, a.start));
  for (const change of edits) server.notify('change', { file: schema, line: change.start.line, offset: change.start.offset, endLine: change.end.line, endOffset: change.end.offset, insertString: change.newText });
  const after = await server.settled(schema, fixed);
  t.false(codes(after).includes('HK001'));
  // the server holds exactly the fixed text: a no-op check through its own view of the file
  const view = lineOffset(fixed, fixed.indexOf("'ORDERS#<shard>'") + 2);
  const shardedInfo = await server.request<{ documentation: string | Array<{ text: string }> }>('quickinfo', { file: schema, ...view });
  t.regex(JSON.stringify(shardedInfo.documentation), /Example key: `ORDERS#\d`/);
  server.replaceText(schema, fixed, text);
});

test.serial('a hot key typed without traffic: HK001 as a warning that says the load is unknown, and a quick fix with the least shard count that applies', async (t) => {
  t.timeout(120_000);
  const { schema, text } = project;
  const hot = text.replace("pk: 'USER#<userId>', sk: 'ORDER#", "pk: 'ORDERS', sk: 'ORDER#");
  server.replaceText(schema, text, hot);
  const found = await server.settled(schema, hot);
  const hk001 = ddbgen(found).find((d) => d.text.startsWith('HK001'))!;
  t.is(hk001.category, 'warning');
  t.true(hk001.text.startsWith('HK001: Order (table): partition key "ORDERS" has no placeholder, so every write goes to one key; no traffic is declared, so its load is unknown\nfix: declare traffic'), hk001.text);
  const fixes = await server.request<CodeFix[]>('getCodeFixes', { file: schema, startLine: hk001.start.line, startOffset: hk001.start.offset, endLine: hk001.end.line, endOffset: hk001.end.offset, errorCodes: [hk001.code] });
  const shard = fixes.find((f) => f.description.startsWith('Shard the key with the least count, 2'))!;
  t.truthy(shard, JSON.stringify(fixes));
  const fixed = applyFix(hot, shard);
  t.true(fixed.includes("key: { pk: 'ORDERS#<shard>', sk: 'ORDER#<placedAt>#<orderId>', shard: { count: 2 } }"), fixed);
  server.replaceText(schema, hot, fixed);
  t.deepEqual(ddbgen(await server.settled(schema, fixed)), []);
  server.replaceText(schema, fixed, text);
});

test.serial('TypeScript diagnostics are returned unchanged beside ddbgen\'s; a syntax error mid-edit yields none of ddbgen\'s and the server keeps answering', async (t) => {
  t.timeout(120_000);
  const { schema, text } = project;
  const hot = `${withHotKey(text)}\nconst wrong: number = 'not a number';\nexport { wrong };\n`;
  server.replaceText(schema, text, hot);
  const both = await server.settled(schema, hot);
  const typescript = both.filter((d) => d.source !== 'ddbgen');
  t.deepEqual(typescript.map((d) => d.code), [2322]);
  t.is(typescript[0]!.text, "Type 'string' is not assignable to type 'number'.");

  // an unterminated string: TypeScript reports the syntax, ddbgen says nothing about this text
  const broken = hot.replace("sk: 'ORDER#<placedAt>#<orderId>'", "sk: 'ORDER#<placedAt>#<orderId>");
  server.replaceText(schema, hot, broken);
  await new Promise((r) => setTimeout(r, 300));
  const syntactic = await server.request<unknown[]>('syntacticDiagnosticsSync', { file: schema });
  t.true(syntactic.length > 0);
  t.deepEqual(ddbgen(await server.settled(schema, broken)), []);

  // a half-typed placeholder: no ddbgen diagnostics, completions offer the attributes
  const typing = hot.replace("sk: 'ORDER#<placedAt>#<orderId>'", "sk: 'ORDER#<pl'");
  server.replaceText(schema, broken, typing);
  t.deepEqual(ddbgen(await server.settled(schema, typing)), []);
  const at = lineOffset(typing, typing.indexOf('<pl') + 3);
  const completions = await server.request<{ entries: Array<{ name: string; insertText?: string; labelDetails?: { description?: string }; replacementSpan?: unknown }> }>('completionInfo', { file: schema, ...at, triggerCharacter: undefined });
  const names = completions.entries.filter((e) => e.labelDetails?.description !== undefined).map((e) => [e.name, e.labelDetails!.description]);
  // a sort key: the entity's attributes (no <shard>, which belongs in a partition key)
  t.deepEqual(names, [
    ['userId', 'string'],
    ['orderId', 'string'],
    ['placedAt', 'timestamp'],
    ['total', 'number 0..1000000000'],
  ]);
  t.is(completions.entries.find((e) => e.name === 'placedAt')!.insertText, 'placedAt>');
  server.replaceText(schema, typing, text);
  t.deepEqual(ddbgen(await server.settled(schema, text)), []);
});

test.serial('a placeholder naming no attribute: DDB030 at the placeholder, renamed to the closest attribute by the quick fix', async (t) => {
  t.timeout(120_000);
  const { schema, text } = project;
  const typo = text.replace("sk: 'ORDER#<placedAt>#<orderId>'", "sk: 'ORDER#<placedAt>#<ordrId>'");
  server.replaceText(schema, text, typo);
  const found = await server.settled(schema, typo);
  const d030 = ddbgen(found).find((d) => d.text.startsWith('DDB030'))!;
  const at = typo.indexOf('<ordrId>');
  t.deepEqual([d030.start, d030.end], [lineOffset(typo, at), lineOffset(typo, at + '<ordrId>'.length)]);
  t.is(d030.code, 90030);
  // editors ask for fixes only for codes the server says it can fix (VS Code does)
  const supported = await server.request<string[]>('getSupportedCodeFixes', { file: schema });
  t.true(['90030', '90034', '90090', '91001'].every((c) => supported.includes(c)), JSON.stringify(supported.slice(-30)));
  const fixes = await server.request<CodeFix[]>('getCodeFixes', { file: schema, startLine: d030.start.line, startOffset: d030.start.offset, endLine: d030.end.line, endOffset: d030.end.offset, errorCodes: [d030.code] });
  const rename = fixes.find((f) => f.description.startsWith('Rename <ordrId> to <orderId>'))!;
  t.truthy(rename, JSON.stringify(fixes));
  t.is(applyFix(typo, rename), text);
  server.replaceText(schema, typo, text);
  t.deepEqual(ddbgen(await server.settled(schema, text)), []);
});

test.serial('a module whose default export is defineTable(…) is checked even when the config does not name it; other modules are not', async (t) => {
  t.timeout(120_000);
  const other = path.join(project.dir, 'second.ts');
  const text = "import { defineTable, entity, t } from 'ddbgen';\n\nexport default defineTable({\n  name: 'Second',\n  entities: {\n    Hot: entity({ attributes: { id: t.string() }, key: { pk: 'HOT', sk: '<id>' }, traffic: { writesPerSecond: 3000 } }),\n  },\n});\n";
  writeFileSync(other, text);
  server.notify('open', { file: other, fileContent: text, scriptKindName: 'TS', projectRootPath: project.dir });
  const found = await server.settled(other, text);
  t.true(ddbgen(found).some((d) => d.text.includes('3,000 writes/s')));
  const plain = path.join(project.dir, 'plain.ts');
  const plainText = "export const pk = 'HOT';\nexport default { name: 'NotATable' };\n";
  writeFileSync(plain, plainText);
  server.notify('open', { file: plain, fileContent: plainText, scriptKindName: 'TS', projectRootPath: project.dir });
  await new Promise((r) => setTimeout(r, 500));
  t.deepEqual(ddbgen(await server.semanticDiagnostics(plain)), []);
  server.notify('close', { file: other });
  server.notify('close', { file: plain });
});
