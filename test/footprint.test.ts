// Lambda-sized output: an app bundles only the operations it imports, and the app the README
// teaches (the init starter's orders: get, put and query in the function forms) stays within its
// budget. The function forms of the
// operations (`orderGet(context, key)`) reach no batch, scan, transaction, gather, edge or stream
// code, and a get/put app no cursor code past the check of its options; the table class, which
// carries every operation, is the control that shows the check sees them. Bundled with esbuild as
// bench/footprint.ts does, modules read from the unminified bundle's declarations (no byte counts).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { APPS, appFootprint, type App } from '../bench/footprint.js';

const base = mkdtempSync(path.join(tmpdir(), 'ddbgen-footprint-'));
// an ES module package, as bench/ is: the runtime modules are written as ES modules, which a bundler
// shakes statement by statement (CommonJS ones it keeps whole)
writeFileSync(path.join(base, 'package.json'), JSON.stringify({ type: 'module' }));
const app = (subject: string, features: string): App => APPS.find((a) => a.subject.label === subject && a.features === features)!;
/** What a get/put app must not carry (`runtime/x.js` as the bundle names them). */
const OPTIONAL = ['batch', 'edge', 'gather', 'scan', 'stream', 'transaction', 'rotation', 'native-index'].map((m) => `runtime/${m}.js`);
/**
 * The gzipped bytes a get/put/query app may weigh (BENCHMARKS.md section 6): what it weighs today with a little room,
 * lowered as the runtime apps share is cut (the goals: 8 KiB for a small schema's app, 15 KiB for the social fixture's).
 */
const GET_PUT_QUERY_BUDGET: Readonly<Record<string, number>> = { 'one entity': 11.2 * 1024, 'social fixture': 14.0 * 1024 };
const names = (result: Awaited<ReturnType<typeof appFootprint>>, file: string) => result.declarations.filter((d) => d.file === file).map((d) => d.name);
/** The key codec's modules: `runtime/codec.js`, the entry generated code imports, and the modules it names. */
const CODEC = ['codec', 'key-definition', 'key-escape', 'key-reader', 'key-writer', 'shard-hash', 'sortable-number', 'sortable-timestamp', 'utf8'].map((m) => `runtime/${m}.js`);
/** The declarations a bundle keeps of the key codec, whichever of its modules holds them. */
const codecNames = (result: Awaited<ReturnType<typeof appFootprint>>) => CODEC.flatMap((file) => names(result, file));

for (const subject of ['one entity', 'social fixture']) {
  test(`${subject}: a get/put app keeps no batch, scan, transaction, gather, edge or stream code, nor cursor encoding or encryption`, async (t) => {
    t.timeout(120_000);
    const result = await appFootprint(app(subject, 'get/put'), base);
    t.deepEqual(result.runtime.filter((m) => OPTIONAL.includes(m)), []);
    t.deepEqual(names(result, 'runtime/cursor.js').filter((n) => /encodeCursor|decodeCursor|aesKey|checksum/.test(n)), []);
    t.false(result.text.includes('AES-GCM'));
    // SHA-256 only where something is hashed: the social fixture's pii (error fingerprints); nothing of the shop's
    t.is(names(result, 'runtime/hmac.js').includes('sha256'), subject === 'social fixture');
    // its put sends the request alone: no condition rendering, no planned put (a put on a condition is putIf, which it does not import)
    t.false(result.runtime.includes('runtime/condition.js'));
    t.deepEqual(names(result, 'runtime/write.js').filter((n) => /^(planPut|putItem|sendWrite)$/.test(n)), []);
    // keys built straight by the generated codecs: no KeyTemplate, no key parsing or interpreting, no generic record conversion
    t.deepEqual(codecNames(result).filter((n) => /^(KeyTemplate|keyShape|readKey|decodeSegment|encodeSegment|buildKey|keyPrefixBy)$/.test(n)), []);
    t.deepEqual(names(result, 'runtime/item-mapping.js').filter((n) => /^(genericRecord|genericItem)$/.test(n)), []);
    // what it does keep: the key codec (the part writers the generated codecs call) and the two requests
    t.true(result.runtime.includes('runtime/key-writer.js') && codecNames(result).includes('stringPart'));
    t.true(/\bGetCommand\b/.test(result.text) && /\bPutCommand\b/.test(result.text));
  });

  test(`${subject}: a get/put/query app adds the query and its cursor, still no batch, scan, transaction, gather, edge or stream code`, async (t) => {
    t.timeout(120_000);
    const result = await appFootprint(app(subject, 'get/put/query'), base);
    t.deepEqual(result.runtime.filter((m) => OPTIONAL.includes(m)), []);
    t.true(result.runtime.includes('runtime/key-condition.js'));
    // its partial keys written by the kinds' functions the codecs name, records told apart by their written-out patterns
    t.deepEqual(codecNames(result).filter((n) => /^(KeyTemplate|keyShape|decodeSegment|encodeSegment|buildKey)$/.test(n)), []);
    t.true(names(result, 'runtime/cursor.js').includes('encodeCursor'));
    // its cursors are unsigned: no signing or encryption (protectCursors brings them, and this app does not call it)
    t.deepEqual(names(result, 'runtime/cursor.js').filter((n) => /SIGNED|ENCRYPTED|aesKey|protectCursors/.test(n)), []);
    t.false(result.text.includes('AES-GCM'));
    // HMAC and SHA-256 only where the fingerprints of pii values are keyed (the social fixture's users), never for unsigned cursors
    t.is(names(result, 'runtime/hmac.js').includes('hmacSha256'), subject === 'social fixture');
    t.is(names(result, 'runtime/hmac.js').includes('sha256'), subject === 'social fixture');
    // and within its budget: more is code it does not use come back
    const budget = GET_PUT_QUERY_BUDGET[subject]!;
    t.true(result.gzipped <= budget, `${result.gzipped} bytes gzipped, over the budget of ${budget}`);
  });

  test(`${subject}: the table class carries every operation (the control: the checks above see batches and transactions when they are there)`, async (t) => {
    t.timeout(120_000);
    const result = await appFootprint(app(subject, 'get/put/query through the table class'), base);
    for (const module of ['runtime/batch.js', 'runtime/transaction.js', 'runtime/scan.js']) t.true(result.runtime.includes(module), module);
    t.true(names(result, 'runtime/cursor.js').includes('ENCRYPTED') && result.text.includes('AES-GCM'), 'the class signs and encrypts cursors when its options say so');
    if (subject === 'social fixture') t.true(result.runtime.includes('runtime/edge.js'));
  });
}

/**
 * The gzipped bytes the README's app may weigh (the function forms over `createAppContext`; BENCHMARKS.md section 6):
 * what it weighs today with a little room, lowered as the runtime an app shares is cut (the goal is 8 KiB). More is a
 * regression: code the app does not use came back.
 */
export const README_APP_BUDGET = 11.2 * 1024;

test('the README app (get/put/query of orders, as the README writes it) keeps no batch, scan, transaction, gather, edge or stream code, and stays within its budget', async (t) => {
  t.timeout(120_000);
  const result = await appFootprint(app('README app', 'get/put/query'), base);
  t.deepEqual(result.runtime.filter((m) => OPTIONAL.includes(m)), []);
  // no operation it does not call: the user's and the order's other operations are dropped
  const generated = result.declarations.filter((d) => !d.file.startsWith('runtime/') && d.file !== '(entry)').map((d) => d.name);
  t.deepEqual(generated.filter((n) => /^(user|order)[A-Z]/.test(n) && !/^order(Get|Put|Query|Pk|Sk|Model|ToRecord|FromRecord)$/.test(n)), []);
  // no request of an operation it does not call is made (an import of the SDK's command names alone is not code)
  t.false(/new (BatchWriteCommand|BatchGetCommand|ScanCommand|TransactWriteCommand|TransactGetCommand)\(/.test(result.text));
  t.false(result.text.includes('AES-GCM'));
  // no SHA-256: its cursors are unsigned, and the order has no pii to fingerprint (the user's email is, and the app does not use users)
  t.deepEqual(names(result, 'runtime/hmac.js').filter((n) => /sha256|hmacSha256/.test(n)), []);
  t.true(result.gzipped <= README_APP_BUDGET, `${result.gzipped} bytes gzipped, over the budget of ${README_APP_BUDGET}`);
  // the control: the same app through the table class keeps them all, and weighs more than the budget
  const table = await appFootprint(app('README app', 'get/put/query through the table class'), base);
  for (const module of ['runtime/batch.js', 'runtime/transaction.js', 'runtime/scan.js']) t.true(table.runtime.includes(module), module);
  t.true(/new ScanCommand\(/.test(table.text));
  t.true(table.gzipped > README_APP_BUDGET);
});

test('the README teaches the function forms: its code imports operations and createAppContext from the output, and constructs no table class', (t) => {
  const readme = readFileSync(path.join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const code = [...readme.matchAll(/```ts[^\n]*\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((block) => block.includes('./out/app/') || /\b(order|user)[A-Z]\w*\(db\b/.test(block));
  t.true(code.length > 0, 'the README shows code using the generated output');
  const imports = code.flatMap((block) => [...block.matchAll(/import \{([^}]*)\} from '\.\/out\/app\/index\.js'/g)].flatMap((m) => m[1]!.split(',').map((n) => n.trim())));
  t.true(imports.includes('createAppContext'));
  t.deepEqual(imports.filter((n) => n.endsWith('Table')), []);
  t.false(code.some((block) => /new AppTable\(/.test(block)));
});
