// Section 6: footprint and import time: the same model bundled in every contender, the social fixture's
// whole output, the apps per feature set, and what each family of options costs a get/put/query app.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { APPS, OPTION_FAMILIES, SUBJECTS, appFootprint, appSizes, footprint, optionCosts, type Footprint } from '../footprint.js';
import { fmt, goals, readVersion, section, verdict } from '../report.js';
import { here, size, smoke } from '../run-options.js';
import { stats } from '../stats.js';

/** Section 6: bundle sizes and import times, with the goals of the README app and the social fixture. */
export async function footprintAndImport(): Promise<void> {
  const contenders: Array<[string, string]> = [
    ['hand-written lib-dynamodb (baseline)', 'baseline'],
    ['ddbgen generated', 'ddbgen'],
    [`ElectroDB ${readVersion('electrodb')}`, 'electrodb'],
    [`DynamoDB-Toolbox ${readVersion('dynamodb-toolbox')}`, 'toolbox'],
    [`OneTable ${readVersion('dynamodb-onetable')}`, 'onetable'],
  ];
  const bundles = path.join(here, 'out', 'bundles');
  const sizes = new Map<string, { min: number; gz: number }>();
  for (const [, file] of contenders) {
    const result = await build({ entryPoints: [path.join(here, 'models', `${file}.ts`)], bundle: true, minify: true, write: false, format: 'cjs', platform: 'node', external: ['@aws-sdk/*', '@smithy/*'] });
    const bytes = result.outputFiles[0]!.contents;
    mkdirSync(bundles, { recursive: true });
    writeFileSync(path.join(bundles, `${file}.cjs`), bytes);
    sizes.set(file, { min: bytes.length, gz: gzipSync(bytes).length });
  }
  // A new Node process that imports the bundle (and the SDK it imports) and builds the model, rounds in rotating order.
  const importTimes = new Map<string, number[]>(contenders.map(([, f]) => [f, []]));
  for (let round = 0; round < (size(3, 15)); round++) {
    for (let i = 0; i < contenders.length; i++) {
      const file = contenders[(i + round) % contenders.length]![1];
      const start = process.hrtime.bigint();
      execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(path.join(bundles, `${file}.cjs`))}); (m.createModel ?? m.default.createModel)('T');`], { stdio: 'ignore' });
      importTimes.get(file)!.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  const base = importTimes.get('baseline')!;
  const lines = contenders.map(([label, file]) => {
    const size = sizes.get(file)!;
    const times = importTimes.get(file)!;
    return `| ${label} | ${fmt(size.min / 1024, 1)} kB | ${fmt(size.gz / 1024, 1)} kB | ${fmt(stats(times).median, 0)} ms | ${fmt(stats(times.map((t, i) => t / base[i]!)).median)}× |`;
  });
  // The social fixture (nine entities, edges, shards, counters, sparse indexes) and a one-entity table: all of the
  // generated code and the runtime it uses, as an app's bundle keeps it (bench/footprint.ts).
  const social = await footprint(SUBJECTS[0]!);
  const single = await footprint(SUBJECTS[1]!);
  // the apps whose bytes the goal weighs: the README app's and the social fixture's get/put/query
  const goalApps = APPS.filter((app) => app.features === 'get/put/query' && app.subject !== SUBJECTS[1]);
  // --smoke: those apps alone, and one family of options below (the same code for every app and family; each app costs a fresh process and four bundles)
  const apps = await appSizes(size(3, 9), smoke ? goalApps : APPS);
  const gzipped = (subject: number, features: string) => apps.apps.find((a) => a.subject === SUBJECTS[subject]!.label && a.features === features)?.gzipped;
  const [readmeApp, socialApp] = [gzipped(2, 'get/put/query'), gzipped(0, 'get/put/query')];
  // what the get/put/query apps would weigh without the code each family of options can reach (bench/footprint.ts, optionCosts)
  const families = await Promise.all(goalApps.map(async (app) => ({ app, rows: optionCosts(await appFootprint(app), smoke ? OPTION_FAMILIES.slice(0, 1) : OPTION_FAMILIES) })));
  const readmeFloor = families.find((f) => f.app.subject === SUBJECTS[2])!.rows.at(-1)!.gzipped;
  const familyTable = [
    `| family of options (what the calls can reach whether they pass it or not) | ${families.map((f) => `${f.app.subject.label} without it`).join(' | ')} |`,
    `|---|${families.map(() => '---|').join('')}`,
    ...families[0]!.rows.map((row, i) => `| ${row.label} | ${families.map((f) => `${fmt(f.rows[i]!.gzipped / 1024, 1)} KiB`).join(' | ')} |`),
  ].join('\n');
  if (readmeApp !== undefined && socialApp !== undefined) {
    goals.push({
      measure: 'bundle of a small app (get/put/query; esbuild, minified, gzipped): the README app / social',
      measured:
        `${fmt(readmeApp / 1024, 1)} / ${fmt(socialApp / 1024, 1)} KiB (the README app through the table class: ${fmt((gzipped(2, 'get/put/query through the table class') ?? 0) / 1024, 1)}; ` +
        `one entity: ${fmt((gzipped(1, 'get/put/query') ?? 0) / 1024, 1)}, get/put alone ${fmt((gzipped(1, 'get/put') ?? 0) / 1024, 1)})`,
      goal: '≤ 8 KiB / ≤ 15 KiB',
      met: readmeApp <= 8 * 1024 && socialApp <= 15 * 1024,
      note:
        'section 6: the function forms over create<Table>Context, which esbuild shakes to the operations imported; `put` sends the request alone (a put on a condition is `putIf`), unsigned cursors carry a 64-bit digest instead of SHA-256, and HMAC comes with entities that mark pii. ' +
        "The social goal is met. The README app's 8 KiB is below what its calls need: without the code a query's `where`, its cursors (made and read) and a put's conditions can reach, all together, it would weigh " +
        `${fmt(readmeFloor / 1024, 1)} KiB (the table below), and those are what the README teaches (\`where\`, \`limit\`, \`page.cursor\`). What remains is the guarantees themselves: the key codec, the value checks, the 400 KB check and the typed errors. ` +
        'Bundle bytes cost an app its start-up, which section 13 measures directly (ddbgen added to a Lambda handler\'s cold start); the better goal is that one, with footprint tests that fail when a bundle regains code it does not use',
    });
  }
  const largest = social.modules.slice(0, 6).map((m) => `${m.file} ${fmt(m.bytes / 1024, 1)} kB`);
  const runtimeBytes = (result: Footprint) => result.modules.filter((m) => m.file.startsWith('runtime/')).reduce((sum, m) => sum + m.bytes, 0);
  const socialText =
    `The social fixture (\`fixtures/social.ts\`: nine entities, two edges, sharded keys, counters, sparse indexes), its whole generated output reached from \`SocialTable\` with the runtime modules it imports, bundled the same way (ESM, minified, SDK external; \`npx tsx bench/footprint.ts\` lists every module, who imports it and its heaviest declarations): ` +
    `${fmt(social.minified / 1024, 1)} kB minified (runtime ${fmt(runtimeBytes(social) / 1024, 1)} kB, generated modules ${fmt((social.minified - runtimeBytes(social)) / 1024, 1)} kB; largest: ${largest.join(', ')}), ${fmt(social.gzipped / 1024, 1)} kB gzipped. ` +
    `Target ≤ 10 kB gzipped — ${verdict(social.gzipped <= 10 * 1024)}. ` +
    `A one-entity table with a query (\`bench/one-entity.ts\`): ${fmt(single.minified / 1024, 1)} kB minified (runtime ${fmt(runtimeBytes(single) / 1024, 1)} kB), ${fmt(single.gzipped / 1024, 1)} kB gzipped.` +
    '\n\nApps per feature set (`bench/footprint.ts`, `APPS`): a handler that gets and puts, one that also queries, the same through the table class, and the README\'s app (the init starter\'s orders got, put and queried as the README writes it); bundled the same way, with the runtime modules that keep code in the bundle; ' +
    `node start to first request is a new Node process importing the bundle (and the SDK) until the handler hands its first command to a stub client, every bundle once per round in rotating order, median of ${size(3, 9)} rounds (ratio: within a round, to a get and put written by hand against lib-dynamodb). ` +
    'Goal: ≤ 8 KiB gzipped for the README\'s get/put/query app (the init starter\'s orders, in the function forms the README teaches), ≤ 15 KiB for the social fixture\'s.\n\n' +
    apps.text +
    '\n\nWhat the get/put/query apps would weigh (gzipped, reminified) without the top-level declarations of their bundle that only one family of options reaches (`npx tsx bench/footprint.ts` prints the same; a family is named by the function it starts from: `decodeCursor`, `encodeCursor`, `planSortCondition`, `planPut`; a put on a condition is `putIf`, so the apps\' `put` reaches no `planPut`):\n\n' +
    familyTable;
  section(
    '6. Footprint and import time',
    'The same model (users, articles with a GSI on the name, a follow edge) in each contender, bundled and minified with esbuild (CommonJS, as the peers ship) with the SDK external (`bench/models/`); ' +
      `import time is a new Node process importing the bundle (and so the SDK) and building the model, median of ${size(3, 15)} rounds in rotating order:\n\n` +
      `| contender | minified | gzipped | node start + import | ratio to baseline |\n|---|---|---|---|---|\n${lines.join('\n')}\n\n${socialText}`,
  );
}
