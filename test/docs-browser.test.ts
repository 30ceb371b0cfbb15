// The documentation site in a real browser: it is built once (the API pages by `npm run docs:api`,
// then `vitepress build docs`), served from its static folder, and every page is opened in headless
// Chromium at 1280 and 400 px wide. No page scrolls sideways (code blocks and tables scroll inside
// themselves), every internal link leads to a page that exists and every #anchor to an element of
// it, the built-in search finds a diagnostic code and an API name, and the theme follows the
// system's dark or light setting. Screenshots of the home page, a guide page and an API page at both
// widths go to out/docs-screenshots/.
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

test.before(async () => {
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

/** What the 1280 px pass found, for the link check: each page's element ids, and each internal link target with the first page linking to it. */
const ids = new Map<string, Set<string>>();
const links = new Map<string, string>();

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

/** The pages are visited in shares, a test each, so no test needs minutes on a loaded machine. */
const SHARES = 4;
const share = (k: number) => pages.filter((_, i) => i % SHARES === k);

// At 1280 px with the site's scripts (a page that fails to hydrate fails here); at 400 px the pages
// as served, laid out by their CSS alone (the phone layout is media queries), which halves the cost
// of a load.
for (let k = 0; k < SHARES; k++) {
  test.serial(`every page loads at 1280 px with its scripts, without sideways scrolling (share ${k + 1} of ${SHARES})`, async (t) => {
    t.timeout(300_000);
    t.true(pages.length > 100, `${pages.length} pages`);
    const { failed, wide } = await visit(t, share(k), page, 1280, (url, found) => {
      ids.set(url, new Set(found.ids));
      for (const link of found.links) {
        const target = new URL(link);
        const key = `${target.pathname}${target.hash}`;
        if (!links.has(key)) links.set(key, url);
      }
    });
    t.deepEqual(failed, []);
    t.deepEqual(wide, []);
  });
  test.serial(`every page as served lays out at 400 px without sideways scrolling (share ${k + 1} of ${SHARES})`, async (t) => {
    t.timeout(300_000);
    const { failed, wide } = await visit(t, share(k), served, 400);
    t.deepEqual(failed, []);
    t.deepEqual(wide, []);
  });
}

test.serial('every internal link leads to a page, and every #anchor to an element of it', (t) => {
  t.is(ids.size, pages.length, 'the 1280 px pass read every page');
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
