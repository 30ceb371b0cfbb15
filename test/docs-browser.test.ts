// The documentation site: it is built once (the API pages by `npm run docs:api`, then `vitepress
// build docs`) and served from its static folder. Every page is checked as served, without a
// browser: it is an HTML page of the site, every internal link in it leads to a page that exists and
// every #anchor to an element of it (VitePress renders each page's whole content on the server, so
// the HTML holds every link and id). In headless Chromium at 1280 px (with the site's scripts) and at
// 400 px (as served) a sample of the pages is opened, and none scrolls sideways (code blocks and
// tables scroll inside themselves) or fails to load: every hand-written page (the guide, the recipes,
// the API reference, the home page) and a rotating tenth of the pages generated from one template
// (`codes/`, `rules/`), the tenth chosen by the day (DOCS_BROWSER_PAGES=all opens every page,
// DOCS_BROWSER_PAGES=<0-9> one tenth). The built-in search finds a diagnostic code and an API name,
// and the theme follows the system's dark or light setting. Screenshots of the home page, a guide
// page and an API page at both widths go to out/docs-screenshots/.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/chromium.js';

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'docs/.vitepress/dist');
const shots = path.join(root, 'out/docs-screenshots');
const WIDTHS = [1280, 400] as const;

let server: Server;
let origin: string;
let browser: Browser;
/** The tabs (never closed: the packaged Chromium runs as one process, which closing a tab would end): one runs the site's scripts, one shows its pages as served. */
let page: Page;
let served: Page;
/** Every page of the built site, by URL path (`/guide/lint.html`). */
let pages: string[];

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.png': 'image/png' };

test.before(async (t) => {
  // its own limit, generous for a busy machine (about 45 CPU-seconds of building): ava's 5 minutes without a test
  // finishing would otherwise count against it while the other test slot is busy as well
  t.timeout(600_000);
  const started = Date.now();
  await exec(process.execPath, ['--import', 'tsx', 'docs/.vitepress/api.ts'], { cwd: root, maxBuffer: 1 << 24 });
  await exec(process.execPath, [path.join(root, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'docs'], { cwd: root, maxBuffer: 1 << 24 });
  process.stdout.write(`docs-browser: site built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  pages = (readdirSync(dist, { recursive: true }) as string[])
    .map((f) => `/${f.split(path.sep).join('/')}`)
    .filter((f) => f.endsWith('.html') && f !== '/404.html')
    .sort();
  server = createServer((request, response) => {
    const url = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    let file = path.join(dist, url.endsWith('/') ? `${url}index.html` : url);
    if (!file.startsWith(dist) || !existsSync(file)) file = existsSync(`${file}.html`) ? `${file}.html` : path.join(dist, '404.html');
    // hashed assets are cached as a static host serves them, so each page load parses the site's scripts once
    const cache = url.startsWith('/assets/') ? { 'cache-control': 'public, max-age=31536000, immutable' } : {};
    response.writeHead(file.endsWith('404.html') ? 404 : 200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', ...cache });
    response.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  served = await browser.newPage({ viewport: { width: 400, height: 900 }, javaScriptEnabled: false });
  mkdirSync(shots, { recursive: true });
});

test.after.always(async () => {
  await browser?.close();
  server?.close();
});

/** The page's links (as written), its element ids, and how far it scrolls sideways: one round trip. */
async function inspect(page: Page): Promise<{ links: string[]; ids: string[]; overflow: number }> {
  const here = page.url();
  const found = await page.locator('html').evaluate((html) => ({
    hrefs: [...html.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? ''),
    ids: [...html.querySelectorAll('[id]')].map((e) => e.id),
    overflow: html.scrollWidth - html.clientWidth,
  }));
  return { links: found.hrefs.map((href) => new URL(href, here).href).filter((href) => href.startsWith(origin)), ids: found.ids, overflow: found.overflow };
}

/** A page's static HTML: its element ids and the href of each of its links, as written. */
function readPage(url: string): { ids: string[]; hrefs: string[] } {
  const html = readFileSync(path.join(dist, url), 'utf8');
  const attribute = (value: string) => value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return {
    ids: [...html.matchAll(/<[a-zA-Z][^>]*?\sid="([^"]*)"/g)].map((m) => attribute(m[1]!)),
    hrefs: [...html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)].map((m) => attribute(m[1]!)),
  };
}

/** Each page's element ids, from its HTML as served (every page), for the link check. */
const ids = new Map<string, Set<string>>();
/** Each internal link target (`/guide/keys.html#sharding`) with the first page linking to it: from every page's HTML, and from the sampled pages' DOM once their scripts ran. */
const links = new Map<string, string>();
const addLinks = (from: string, hrefs: readonly string[]) => {
  for (const href of hrefs) {
    const target = new URL(href, origin + from);
    if (target.origin !== origin) continue;
    const key = `${target.pathname}${target.hash}`;
    if (!links.has(key)) links.set(key, from);
  }
};

/** Opens each page of `share` in `tab` at `width`, inspecting it; what failed to load or scrolls sideways. */
async function visit(t: import('ava').ExecutionContext, share: readonly string[], tab: Page, width: number, seen?: (url: string, found: Awaited<ReturnType<typeof inspect>>) => void): Promise<{ failed: string[]; wide: string[] }> {
  const failed: string[] = [];
  const wide: string[] = [];
  const onError = (error: Error) => failed.push(`${tab.url()}: ${error.message}`);
  tab.on('pageerror', onError);
  const started = Date.now();
  for (const url of share) {
    const response = await tab.goto(origin + url, { waitUntil: tab === page ? 'load' : 'domcontentloaded' });
    if (response?.status() !== 200) failed.push(`${url}: HTTP ${response?.status()}`);
    const found = await inspect(tab);
    if (found.overflow > 1) wide.push(`${url} at ${width} px: ${found.overflow} px wider than the window`);
    seen?.(url, found);
  }
  tab.off('pageerror', onError);
  t.log(`${share.length} pages at ${width} px: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { failed, wide };
}

/**
 * The pages opened in the browser: every hand-written one, and of the pages generated from one
 * template (a diagnostic code's or a rule's: the same layout, message text aside) the tenth whose
 * place in the sorted list is the day's number modulo 10, so ten days open each of them.
 * DOCS_BROWSER_PAGES=all opens every page; =0 … =9 picks the tenth.
 */
function sample(all: readonly string[]): string[] {
  const chosen = process.env.DOCS_BROWSER_PAGES ?? String(Math.floor(Date.now() / 86_400_000) % 10);
  if (chosen === 'all') return [...all];
  if (!/^\d$/.test(chosen)) throw new Error(`DOCS_BROWSER_PAGES=${chosen}: all, or a tenth from 0 to 9`);
  const generated = all.filter((url) => /^\/(codes|rules)\/[^/]+\.html$/.test(url) && !url.endsWith('/index.html'));
  const tenth = new Set(generated.filter((_, i) => i % 10 === Number(chosen)));
  return all.filter((url) => !generated.includes(url) || tenth.has(url));
}

/** The sampled pages are visited in shares, a test each, so that each stays well under half its limit (t.timeout) even on a loaded machine. */
const SHARES = 4;
let opened: string[] = [];
const share = (k: number) => opened.filter((_, i) => i % SHARES === k);

test.serial('every page as served is a page of the site; the sample to open in the browser', (t) => {
  t.true(pages.length > 100, `${pages.length} pages`);
  for (const url of pages) {
    const found = readPage(url);
    t.true(found.ids.includes('app') && found.ids.includes('VPContent'), `${url}: a page of the site`);
    ids.set(url, new Set(found.ids));
    addLinks(url, found.hrefs);
  }
  opened = sample(pages);
  t.true(opened.includes('/index.html') && opened.some((url) => url.startsWith('/codes/')) && opened.some((url) => url.startsWith('/rules/')));
  t.log(`${opened.length} of ${pages.length} pages open in the browser (DOCS_BROWSER_PAGES=${process.env.DOCS_BROWSER_PAGES ?? `${Math.floor(Date.now() / 86_400_000) % 10}, the day's tenth`})`);
});

// At 1280 px with the site's scripts (a page that fails to hydrate fails here); at 400 px the pages
// as served, laid out by their CSS alone (the phone layout is media queries), which halves the cost
// of a load.
for (let k = 0; k < SHARES; k++) {
  test.serial(`the sampled pages load at 1280 px with their scripts, without sideways scrolling (share ${k + 1} of ${SHARES})`, async (t) => {
    t.timeout(300_000);
    t.true(share(k).length > 10, `${share(k).length} pages`);
    const { failed, wide } = await visit(t, share(k), page, 1280, (url, found) => addLinks(url, found.links));
    t.deepEqual(failed, []);
    t.deepEqual(wide, []);
  });
  test.serial(`the sampled pages as served lay out at 400 px without sideways scrolling (share ${k + 1} of ${SHARES})`, async (t) => {
    t.timeout(300_000);
    const { failed, wide } = await visit(t, share(k), served, 400);
    t.deepEqual(failed, []);
    t.deepEqual(wide, []);
  });
}

test.serial('every internal link leads to a page, and every #anchor to an element of it', (t) => {
  t.is(ids.size, pages.length, 'every page was read');
  const resolve = (pathname: string) => [pathname, pathname.endsWith('/') ? `${pathname}index.html` : `${pathname}.html`].find((c) => ids.has(c));
  const broken = [...links].flatMap(([key, from]) => {
    const [pathname, hash] = key.split('#') as [string, string | undefined];
    const target = resolve(pathname);
    if (!target) return [`${key} (from ${from}): no such page`];
    if (hash && !ids.get(target)!.has(decodeURIComponent(hash))) return [`${key} (from ${from}): no element #${hash}`];
    return [];
  });
  t.deepEqual(broken, []);
  t.true(links.size > 500, `${links.size} distinct internal links`);
});

test.serial('search finds a diagnostic code and an API name', async (t) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  /** The result links for `query` once one of them is `wanted` (the box keeps the last query, so its old results show first), or the last ones seen. */
  const search = async (query: string, wanted: RegExp) => {
    await page.goto(`${origin}/guide/getting-started.html`, { waitUntil: 'load' });
    await page.click('.DocSearch-Button');
    await page.fill('.search-input', query);
    let found: string[] = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const hrefs = await page.$$eval('#localsearch-list a.result', (results) => results.map((a) => a.getAttribute('href') ?? ''));
      found = hrefs.map((href) => {
        const url = new URL(href, origin);
        return url.pathname + url.hash;
      });
      if (found.some((href) => wanted.test(href))) break;
    }
    return found;
  };
  t.true((await search('HK003', /^\/rules\/HK003/)).some((href) => href.startsWith('/rules/HK003')), 'HK003 finds its rule page');
  const api = await search('ItemExistsError', /^\/api\/runtime\/errors\.html#itemexistserror$/);
  t.true(api.includes('/api/runtime/errors.html#itemexistserror'), `ItemExistsError finds its API entry: ${api.join(', ')}`);
});

test.serial('the theme follows the system: dark when it prefers dark, light when it prefers light', async (t) => {
  await page.setViewportSize({ width: 400, height: 900 });
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    const dark = await page.locator('html').evaluate((html) => html.classList.contains('dark'));
    const background = await page.locator('body').evaluate((body) => body.ownerDocument.defaultView!.getComputedStyle(body).backgroundColor);
    t.is(dark, scheme === 'dark', scheme);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    t.is(r! + g! + b! < 3 * 128, scheme === 'dark', `${scheme}: background ${background}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
});

test.serial('screenshots of the home page, a guide page and an API page at 1280 and 400 px', async (t) => {
  const shown = { home: '/index.html', guide: '/guide/lint.html', api: '/api/runtime/errors.html' };
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 400 ? 860 : 900 });
    for (const [name, url] of Object.entries(shown)) {
      await page.goto(origin + url, { waitUntil: 'load' });
      const file = path.join(shots, `${name}-${width}.png`);
      await page.screenshot({ path: file });
      t.true(existsSync(file), file);
    }
  }
});
