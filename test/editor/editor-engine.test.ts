// The editor engine in process: the cache by content hash and its bound, a change on disk to a
// module the schema imports, the quick fix that gives a number in a key its range, texts mid-edit,
// the literal-segment completions, and that checking writes nothing into the project.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { codeOfNumber, numericCode, type EditorDiagnostic } from '../../generator/editor/editor-answers.js';
import { EditorEngine } from '../../generator/editor/editor-engine.js';
import { applyEdits, shifted } from '../../generator/editor/schema-text.js';
import { starterProject, withHotKey } from '../support/editor-project.js';

const codes = (a: { diagnostics: ReadonlyArray<{ code: string }> }) => a.diagnostics.map((d) => d.code);

test('results are cached by content hash in a bounded LRU; a new text is checked afresh; nothing is written into the project', async (t) => {
  const { dir, schema, text } = await starterProject('engine-cache');
  const engine = new EditorEngine({ maxEntries: 3, staleCheck: false });
  const jiti = path.join(dir, 'node_modules', '.cache', 'ddbgen', 'jiti');
  const transpile = path.join(dir, 'node_modules', '.cache', 'ddbgen', 'transpile');
  const cached = () => [...(existsSync(jiti) ? readdirSync(jiti).filter((f) => f.includes('schema')) : []), ...(existsSync(transpile) ? readdirSync(transpile) : [])];
  const first = await engine.analyze(schema, text);
  t.deepEqual(codes(first), []);
  t.is(await engine.analyze(schema, text), first, 'the same text: the same analysis');
  t.is(engine.peek(schema, text), first);
  for (let i = 1; i <= 4; i++) await engine.analyze(schema, `${text}\n// edit ${i}\n`);
  t.is(engine.cacheSize, 3);
  t.is(engine.peek(schema, text), undefined, 'the least recently used analysis went first');
  t.deepEqual(cached(), [], 'no transpile cache is written for editor texts (only the config\'s, as the CLI reads it)');
});

test('texts asked while others wait: an older text is superseded by a newer one, the same text asked twice is answered twice', async (t) => {
  const { schema, text } = await starterProject('engine-queue');
  const engine = new EditorEngine({ staleCheck: false });
  const hot = withHotKey(text);
  // an editor's didChange that changes nothing (or a save) asks for the text already waiting: both get its analysis
  const [once, twice] = await Promise.all([engine.analyze(schema, hot), engine.analyze(schema, hot)]);
  t.deepEqual([once.skipped, twice.skipped], [undefined, undefined]);
  t.true(codes(twice).includes('HK001'));
  // a newer text asked before the older one's turn: the older is not checked, the newer is
  const older = `${text}\n// older\n`;
  const newer = `${hot}\n// newer\n`;
  const [first, second] = await Promise.all([engine.analyze(schema, older), engine.analyze(schema, newer)]);
  t.is(first.skipped, 'superseded');
  t.is(engine.peek(schema, older), undefined);
  t.true(codes(second).includes('HK001'));
  // and back to the older text, asked twice while the newer one's repeat waits: every call answered
  const again = await Promise.all([engine.analyze(schema, newer), engine.analyze(schema, older), engine.analyze(schema, older)]);
  t.deepEqual(again.map((a) => a.skipped), [undefined, undefined, undefined], 'the newer text was cached, so it answers at once');
});

test('a module the schema imports changed on disk: the cached analysis is not used again', async (t) => {
  const { dir, schema, text } = await starterProject('engine-imports');
  writeFileSync(path.join(dir, 'load.ts'), 'export const writes = 5000;\n');
  const importing = `import { writes } from './load.js';\n${text.replace("sk: 'ORDER#<placedAt>#<orderId>' },", "sk: 'ORDER#<placedAt>#<orderId>' },\n      traffic: { writesPerSecond: writes },").replace("pk: 'USER#<userId>', sk: 'ORDER#", "pk: 'ORDERS', sk: 'ORDER#")}`;
  const engine = new EditorEngine({ staleCheck: false });
  const hot = await engine.analyze(schema, importing);
  t.true(hot.diagnostics.some((d) => d.code === 'HK001' && d.severity === 'error' && d.message.includes('5,000 writes/s')));
  await new Promise((r) => setTimeout(r, 20));
  writeFileSync(path.join(dir, 'load.ts'), 'export const writes = 200;\n');
  t.is(engine.peek(schema, importing), undefined);
  const cooler = await engine.analyze(schema, importing);
  t.true(cooler.diagnostics.some((d) => d.code === 'HK001' && d.severity === 'info' && d.message.includes('200 writes/s')), JSON.stringify(cooler.diagnostics));
});

test('DDB034: a number in a key without a range gets one from the quick fix, and the finding goes away', async (t) => {
  const { schema, text } = await starterProject('engine-range');
  const unranged = text.replace('total: t.number({ min: 0, max: 1e9 })', 'total: t.number({ integer: true })').replace("sk: 'ORDER#<placedAt>#<orderId>'", "sk: 'ORDER#<total>#<orderId>'");
  const engine = new EditorEngine({ staleCheck: false });
  const found = await engine.analyze(schema, unranged);
  const d034 = found.diagnostics.find((d) => d.code === 'DDB034')!;
  t.is(unranged.slice(d034.start, d034.start + d034.length), '<total>');
  t.is(d034.message, 'number "total" is in a key, but it has no min and max');
  const [fix] = engine.fixes(schema, unranged, d034.start, d034.start + d034.length).filter((f) => f.codes.includes('DDB034'));
  t.is(fix!.title, 'Give Order.total a range: min: 0, max: 1e12 (numbers in keys are encoded fixed-width)');
  const fixed = applyEdits(unranged, fix!.edits!);
  t.true(fixed.includes('total: t.number({ min: 0, max: 1e12, integer: true })'));
  t.false(codes(await engine.analyze(schema, fixed)).includes('DDB034'));
  // and from t.number() with no options at all
  const bare = unranged.replace('t.number({ integer: true })', 't.number()');
  const again = await engine.analyze(schema, bare);
  const bareFix = engine.fixes(schema, bare, 0, bare.length).find((f) => f.codes.includes('DDB034'))!;
  t.true(applyEdits(bare, bareFix.edits!).includes('total: t.number({ min: 0, max: 1e12 })'));
  t.true(again.diagnostics.some((d) => d.code === 'DDB034'));
});

test('mid-edit: a syntax error, a half-typed placeholder or a module that throws gives no ddbgen diagnostics, and nothing rejects', async (t) => {
  const { schema, text } = await starterProject('engine-midedit');
  const engine = new EditorEngine({ staleCheck: false });
  const hot = text.replace("pk: 'USER#<userId>', sk: 'ORDER#", "pk: 'ORDERS', sk: 'ORDER#");
  const cases = {
    syntax: hot.slice(0, hot.indexOf('Order: entity') + 20),
    editing: hot.replace("sk: 'ORDER#<placedAt>#<orderId>'", "sk: 'ORDER#<placedAt>#<ord'"),
    throws: hot.replace("name: 'App',", "name: (() => { throw new Error('half typed'); })(),"),
  };
  for (const [name, edited] of Object.entries(cases)) {
    const analysis = await engine.analyze(schema, edited);
    t.deepEqual(codes(analysis), [], name);
  }
  t.is((await engine.analyze(schema, cases.syntax)).skipped, 'syntax');
  t.is((await engine.analyze(schema, cases.editing)).skipped, 'editing');
  t.deepEqual(engine.diagnostics(schema, cases.throws), []);
  // an emptied schema the config names is what generate reports too: no table exported (at the very start, inside the text)
  t.deepEqual((await engine.analyze(schema, '')).diagnostics.map((d) => [d.code, d.start, d.length]), [['DDB002', 0, 0]]);
});

test('DDB103: an entity without a key is placed at its entity() call in the text being edited, whatever the transpiler did to lines', async (t) => {
  const { schema, text } = await starterProject('engine-no-key');
  const engine = new EditorEngine({ staleCheck: false });
  /** Each diagnostic's code and start, and where it should be: the start of the `entity(` call of the entity at `which` (0: User, 1: Order). */
  const check = async (edited: string, which: 0 | 1) => {
    const calls = [...edited.matchAll(/entity\(\{/g)].map((m) => m.index);
    t.deepEqual((await engine.analyze(schema, edited)).diagnostics.map((d) => [d.code, d.start]), [['DDB103', calls[which]]], edited);
  };
  const orderKey = "key: { pk: 'USER#<userId>', sk: 'ORDER#<placedAt>#<orderId>' },";
  // the key deleted; a key without pk; a key that is a string; both entities without one (entity() refuses the first it meets)
  await check(text.replace(orderKey, ''), 1);
  await check(text.replace(orderKey, "key: { sk: 'ORDER' },"), 1);
  await check(text.replace(orderKey, "key: 'USER#<userId>',"), 1);
  await check(text.replace(orderKey, '').replace("key: { pk: 'USER#<id>', sk: 'PROFILE' },", ''), 0);
});

test('completions at the start of a segment offer the literal segments other entities use; codes map to numbers and back', async (t) => {
  const { schema, text } = await starterProject('engine-literals');
  const engine = new EditorEngine({ staleCheck: false });
  await engine.analyze(schema, text);
  const typing = text.replace("pk: 'USER#<userId>', sk: 'ORDER#", "pk: 'US', sk: 'ORDER#");
  const at = typing.indexOf("pk: 'US'") + "pk: 'US".length;
  const items = engine.completions(schema, typing, at)!;
  t.deepEqual(items.map((i) => [i.name, i.kind, i.detail, typing.slice(i.start, i.start + i.length)]), [['USER', 'literal', 'used by User', 'US']]);
  t.is(engine.completions(schema, typing, typing.indexOf("name: 'App'") + 7), undefined, 'outside a key template: none');
  t.deepEqual([numericCode('HK001'), numericCode('DDB030'), codeOfNumber(91001), codeOfNumber(90030), codeOfNumber(2322)], [91001, 90030, 'HK001', 'DDB030', undefined]);
});

test('while a new text is checked, the last diagnostics are carried over the edit: kept before it, moved after it, dropped where it touched them', (t) => {
  const before = "pk: 'ORDERS', sk: 'A#<b>', gsi: 'HOT'";
  const after = "pk: 'ORDERS', sk: 'A#<bc>#<d>', gsi: 'HOT'";
  const at = (text: string, code: string, start: number, length: number): EditorDiagnostic => ({ code, severity: 'error', message: text, fix: '', target: '', docs: '', start, length });
  const diagnostics = [at('pk', 'HK001', before.indexOf("'ORDERS'"), 8), at('b', 'DDB030', before.indexOf('<b>'), 3), at('gsi', 'HK008', before.indexOf("'HOT'"), 5)];
  const moved = shifted(diagnostics, before, after);
  t.deepEqual(moved.map((d) => [d.code, after.slice(d.start, d.start + d.length)]), [['HK001', "'ORDERS'"], ['HK008', "'HOT'"]]);
  t.deepEqual(shifted(diagnostics, before, ''), []);
});

test('in a worker thread: the same analysis as in process, the caller\'s thread free meanwhile, and a schema that loops ended at the timeout', async (t) => {
  const { schema, text } = await starterProject('engine-worker');
  const hot = text.replace("pk: 'USER#<userId>', sk: 'ORDER#", "pk: 'ORDERS', sk: 'ORDER#");
  const local = new EditorEngine({ staleCheck: false });
  const logged: string[] = [];
  // a worker's first check may take six times the timeout (it starts the worker): 48 s, enough on a loaded machine
  const engine = new EditorEngine({ staleCheck: false, worker: true, timeoutMs: 8000, log: (line) => logged.push(line) });
  t.teardown(() => engine.dispose());
  const inWorker = await engine.analyze(schema, hot);
  const inProcess = await local.analyze(schema, hot);
  t.deepEqual(codes(inWorker), codes(inProcess));
  t.true(codes(inWorker).includes('HK001'));
  t.deepEqual(inWorker.diagnostics, inProcess.diagnostics);
  t.deepEqual(inWorker.fixes, inProcess.fixes);
  t.is(engine.peek(schema, hot), inWorker, 'cached by content hash, as in process');
  // a schema that computes for a while: this thread's timers keep firing while it is checked
  const slow = `const until = Date.now() + 600; while (Date.now() < until) {}\n${hot}`;
  let ticks = 0;
  const ticking = setInterval(() => ticks++, 10);
  const checked = await engine.analyze(schema, slow);
  clearInterval(ticking);
  t.true(codes(checked).includes('HK001'));
  t.true(ticks >= 20, `the caller's thread ran ${ticks} timer ticks in 600 ms of checking`);
  // a schema that never finishes loading: no ddbgen diagnostics for it, a line in the log, and the next text is checked by a fresh worker
  const looping = `while (true) {}\n${hot}`;
  const ended = await engine.analyze(schema, looping);
  t.is(ended.skipped, 'timeout');
  t.deepEqual(ended.diagnostics, []);
  t.true(logged.some((line) => line.includes('took longer than 8000 ms')), logged.join('\n'));
  t.is((await engine.analyze(schema, looping)).skipped, 'timeout', 'the text that looped is not run again');
  const after = await engine.analyze(schema, `${hot}\n// fixed\n`);
  t.deepEqual(codes(after), codes(inProcess));
});
