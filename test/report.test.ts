// ddbgen report: the view model (golden), and the page as a person sees it in headless Chromium —
// its tables, its findings, heat bars that cross the limit line only when over it, and no request
// leaving the page, at 1280 px and at 400 px in the dark scheme. Screenshots go to out/report-1280.png and
// out/report-400-dark.png (git-ignored) for review.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { main } from '../generator/cli/cli.js';
import { loadSchemas } from '../generator/load/load-schema.js';
import { lintTable } from '../generator/lint/run-lint.js';
import { renderReport } from '../generator/report/render-report.js';
import { reportView } from '../generator/report/view-model.js';
import { launchChromium } from './support/chromium.js';

const root = path.resolve(import.meta.dirname, '..');
const schemas = ['fixtures/social.ts', 'fixtures/lint/seeds/election-votes.ts'];

test('the view model of the social design and the election seed (golden)', async (t) => {
  const { tables } = await loadSchemas(schemas.map((s) => path.join(root, s)), root);
  const diagnostics = tables.flatMap((x) => lintTable(x.table).map(x.place));
  const view = reportView(tables.map((x) => x.table), diagnostics, '0.0.0');
  t.snapshot(view);
  const social = view.tables[0]!;
  t.is(social.keys.find((k) => k.entity === 'Vote')?.samplePk, 'Candidate.candidateId-1.6', 'sample keys come from the codec, shard included');
  t.is(social.keys.find((k) => k.entity === 'Article' && k.index === 'table')?.sampleSk, 'Article.2024-05-06T07:08:09\\.010Z.articleId-1');
  const [bad, fixed] = view.tables.slice(1);
  t.true(bad!.heat.bars[0]!.over);
  t.is(bad!.heat.bars[0]!.shards, 7);
  t.false(fixed!.heat.bars[0]!.over);
});

test('table settings in the view model and the page: TimeToLiveSpecification and the rest, under their CloudFormation names', async (t) => {
  const { tables } = await loadSchemas([path.join(root, 'fixtures/sessions.ts')], root);
  const view = reportView(tables.map((x) => x.table), [], '0.0.0');
  t.deepEqual(view.tables[0]!.settings, [
    { property: 'TimeToLiveSpecification', value: 'expiresAt: items expire at it (epoch seconds); reads hide expired items until DynamoDB deletes them' },
    { property: 'PointInTimeRecoverySpecification', value: 'enabled, 7 days' },
    { property: 'DeletionProtectionEnabled', value: 'true' },
    { property: 'WarmThroughput', value: '15,000 RRU/s, 5,000 WRU/s' },
    { property: 'OnDemandThroughput', value: 'at most 20,000 RRU/s, 6,000 WRU/s' },
    { property: 'Tags', value: 'team=identity, cost-center=cc-42' },
  ]);
  const html = renderReport(view);
  t.true(html.includes('<tr><td><code>TimeToLiveSpecification</code></td><td>expiresAt: items expire at it (epoch seconds); reads hide expired items until DynamoDB deletes them</td></tr>'));
  const plain = await loadSchemas([path.join(root, 'fixtures/social.ts')], root);
  t.false(renderReport(reportView(plain.tables.map((x) => x.table), [], '0.0.0')).includes('Table settings'), 'no settings, no section');
});

test('the view model lists a native GSI by its attributes, renamed ones as index ← entity attribute', async (t) => {
  const { tables } = await loadSchemas([path.join(root, 'fixtures/tenants.ts')], root);
  const view = reportView(tables.map((x) => x.table), [], '0.0.0');
  t.deepEqual(
    view.tables[0]!.keys.filter((k) => k.index.endsWith('(native GSI)')).map((k) => `${k.entity} ${k.index}: ${k.pk} / ${k.sk} e.g. ${k.samplePk} / ${k.sampleSk}`),
    [
      'Order byTenant (native GSI): tenantId, region / status, createdAt e.g. tenantId-1, eu / OPEN, 2024-05-06T07:08:09.010Z',
      'Order byTotal (native GSI): tenantId / total e.g. tenantId-1 / 42',
      'Invoice byTenant (native GSI): tenantId ← orgId, region / status ← state, createdAt ← issuedAt e.g. orgId-1, eu / OPEN, 2024-05-06T07:08:09.010Z',
    ],
  );
});

test('edge rows show the layout the runtime writes: each half in its node entity\'s own partition, ids by the entities\' codecs', async (t) => {
  const { tables } = await loadSchemas([path.join(root, 'fixtures/fans.ts')], root);
  const view = reportView(tables.map((x) => x.table), [], '0.0.0');
  const edges = view.tables[0]!.keys.filter((k) => k.entity.startsWith('edge '));
  t.true(edges.length > 0);
  for (const row of edges) {
    // integer ids are zero-padded as the entities' keys encode them, never the ids' raw text
    t.regex(`${row.samplePk} ${row.sampleSk}`, /\b0{4,}\d+/, `${row.entity} ${row.index}: ${row.samplePk} / ${row.sampleSk}`);
    t.notRegex(row.pk, /<type>/, 'the partition is the node entity\'s own key template');
  }
});

test('the page in headless Chromium: tables, findings, heat bars against the limit, nothing fetched', async (t) => {
  t.timeout(120_000);
  const out = path.join(root, 'out');
  mkdirSync(out, { recursive: true });
  const file = path.join(out, 'report.html');
  const result = { stdout: '', stderr: '' };
  const code = await main(['report', ...schemas, '--out', file], { cwd: root, stdout: (s) => (result.stdout += s), stderr: (s) => (result.stderr += s) });
  t.is(code, 0, result.stderr);
  t.is(result.stdout, 'ddbgen: wrote out/report.html (3 tables, 8 findings)\n');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`file://${file}`);
    t.deepEqual(await page.locator('section.table h2').allInnerTexts(), ['Social (on-demand, delimiter .)', 'VotesBad (on-demand, delimiter #)', 'VotesFixed (on-demand, delimiter #)']);
    t.is(await page.locator('#table-Social table.keys tbody tr').count(), 15);
    t.is(await page.locator('#table-Social table.patterns tbody tr').count(), 4);
    t.is(await page.locator('#table-VotesBad .finding').count(), 2);
    t.is(await page.locator('#table-VotesBad .finding .error').count(), 1);
    const crossing = async (table: string) =>
      page.locator(`#table-${table} svg.heat`).evaluate((svg) => {
        const limit = Number(svg.querySelector('line.limit')!.getAttribute('x1'));
        return [...svg.querySelectorAll('rect.before')].map((r) => Number(r.getAttribute('x')) + Number(r.getAttribute('width')) > limit);
      });
    t.deepEqual(await crossing('VotesBad'), [true], 'the over-limit key crosses the line');
    t.deepEqual(await crossing('VotesFixed'), [false], 'after sharding it does not');
    const afterCrosses = await page.locator('#table-VotesBad svg.heat').evaluate((svg) => Number(svg.querySelector('rect.after')!.getAttribute('width')) + 240 > Number(svg.querySelector('line.limit')!.getAttribute('x1')));
    t.false(afterCrosses, 'the suggested shard count brings it under the line');
    t.is(await page.locator('#table-VotesFixed svg.heat rect.after').count(), 0, 'no second bar where sharding changes nothing');
    t.deepEqual(await page.locator('#table-VotesBad svg.heat g.bar text.value').allTextContents(), ['WCU/s, limit 1000', '5,000 WCU/s', '714.3 WCU/s with 7 shards']);
    t.deepEqual(await page.locator('#table-VotesBad svg.heat .tick text').allTextContents(), ['0 %', '25 %', '50 %', '75 %', '100 %', '125 %'], 'an axis in % of the limit');
    t.is(await page.locator('#table-VotesBad svg.heat text.limit-label').textContent(), 'partition limit (1,000 WCU/s · 3,000 RCU/s)');
    t.is(await page.locator('svg.edge circle').count(), 4);
    t.true(await page.locator('svg.edge line.link').evaluateAll((lines) => lines.length > 0 && lines.every((l) => l.getAttribute('marker-end')?.startsWith('url(#arrow-') === true)), 'links have arrowheads');
    t.true((await page.locator('svg.edge path.loop').count()) >= 1, 'self-edges are loops');
    const labelsOverlap = await page.locator('svg.edge').first().evaluate((svg) => {
      const boxes = [...svg.querySelectorAll('text.edge-label')].map((l) => l.getBoundingClientRect());
      return boxes.some((a, i) => boxes.slice(i + 1).some((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom));
    });
    t.false(labelsOverlap, 'edge labels do not overlap');
    await page.screenshot({ path: path.join(out, 'report-1280.png'), fullPage: true });
    t.deepEqual(requests.filter((url) => !url.startsWith('file://')), [], 'no request leaves the page');

    // a phone: nothing wider than the screen (tables scroll inside their box), in the dark scheme too
    const narrow = await browser.newPage({ viewport: { width: 400, height: 800 }, colorScheme: 'dark' });
    await narrow.goto(`file://${file}`);
    t.is(await narrow.locator('html').evaluate((html) => html.scrollWidth), 400, 'the page fits 400 px');
    t.true(await narrow.locator('svg.heat').first().evaluate((svg) => svg.getBoundingClientRect().width <= 400), 'the heat chart scales down');
    t.is(await narrow.locator('body').evaluate((body) => body.ownerDocument.defaultView!.getComputedStyle(body).backgroundColor), 'rgb(16, 24, 40)', 'the dark scheme');
    await narrow.screenshot({ path: path.join(out, 'report-400-dark.png'), fullPage: true });
  } finally {
    await browser.close();
  }
});
