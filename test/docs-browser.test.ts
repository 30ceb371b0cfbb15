// The documentation site: it is built once (the API pages by `npm run docs:api`, then `vitepress
// build docs`) and served from its static folder. Every page is checked as served, without a
// browser: it is an HTML page of the site, every internal link in it leads to a page that exists and
// every #anchor to an element of it (VitePress renders each page's whole content on the server, so
// the HTML holds every link and id). In headless Chromium a sample of the pages is opened at 1280 px
// with the site's scripts and at 400 px as served (without scripts), and none scrolls sideways (code
// blocks and tables scroll inside themselves) or fails to load. At 1280 px the first page of the
// sample is loaded in full (its HTML hydrated by the site's scripts) and the others are reached as a
// reader's click reaches them, by the site's router inside that one app: each page's module is
// fetched and rendered by the client, which is what a full load runs after the shared app starts,
// without starting the app again for every page. The sample, chosen by the day's number N (days
// since 1970, UTC): the home page; the hand-written pages (the guide, the recipes, the API reference,
// the indexes of `codes/` and `rules/`) whose place in the sorted list is N modulo 3, so every one
// opens within three days; and the pages generated from one template (`codes/`, `rules/`: the same
// layout, message text aside) whose place in their sorted list is N modulo 10, so every one opens
// within ten days. DOCS_BROWSER_PAGES=all opens every page; DOCS_BROWSER_PAGES=<number> takes that
// number for N (DOCS_BROWSER_PAGES=0, 1 and 2 open the three thirds of the hand-written pages). The
// built-in search finds a diagnostic code and an API name, and the theme follows the system's dark
// or light setting. Screenshots of the home page, a guide page and an API page at both widths go to
// out/docs-screenshots/.
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

/** A page's static HTML: its element ids, the href of each of its links, as written, and the class VitePress gives its content (`_guide_lint`; none on the home page). */
function readPage(url: string): { ids: string[]; hrefs: string[]; content: string | undefined } {
  const html = readFileSync(path.join(dist, url), 'utf8');
  const attribute = (value: string) => value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return {
    ids: [...html.matchAll(/<[a-zA-Z][^>]*?\sid="([^"]*)"/g)].map((m) => attribute(m[1]!)),
    hrefs: [...html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)].map((m) => attribute(m[1]!)),
    content: /\sclass="vp-doc (_[^\s"]+)/.exec(html)?.[1],
  };
}

/** Each page's content class, from its HTML as served: the router has shown the page once its content carries it (see navigate). */
const contentClass = new Map<string, string | undefined>();

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

/** Loads `url` in full in `tab`, until `until`; what went wrong (its HTTP status), or undefined. */
async function load(tab: Page, url: string, until: 'load' | 'domcontentloaded'): Promise<string | undefined> {
  const response = await tab.goto(origin + url, { waitUntil: until });
  return response?.status() === 200 ? undefined : `HTTP ${response?.status()}`;
}

/**
 * Shows `url` in the app that `tab` has loaded, as a click on a link to it does (the router takes
 * every same-origin click on a link, at the window): the page's module is fetched and rendered by the
 * client. Settles when the content carries the page's class and holds what the page's component
 * rendered (the class is on VitePress's wrapper, which stays when the page's own component fails to
 * render: Vue only logs that), or the router showed its not-found page (a module that failed to
 * load); a page without a content class (the home page) is loaded in full.
 */
async function navigate(tab: Page, url: string): Promise<string | undefined> {
  const content = contentClass.get(url);
  if (content === undefined) return load(tab, url, 'load');
  const href = url.replace(/\/index\.html$/, '/');
  const shown = await tab.evaluate(
    async ({ href, content }) => {
      // the page's globals, typed here (the project's lib has no DOM)
      const { document, location, CSS } = globalThis as unknown as {
        document: { createElement(tag: 'a'): { href: string; click(): void; remove(): void }; body: { append(node: unknown): void }; querySelector(selector: string): unknown };
        location: { pathname: string; href: string };
        CSS: { escape(text: string): string };
      };
      const link = document.createElement('a');
      link.href = href;
      document.body.append(link);
      link.click();
      link.remove();
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
        if (location.pathname === new URL(href, location.href).pathname && document.querySelector(`.vp-doc.${CSS.escape(content)} > *`)) return 'shown';
        if (document.querySelector('.NotFound')) return 'not found';
      }
      return 'not shown within 30 s';
    },
    { href, content },
  );
  return shown === 'shown' ? undefined : `the router: ${shown}`;
}

/**
 * Opens each page of `share` in `tab` at `width`, inspecting it; what failed to load or scrolls
 * sideways. The tab with scripts loads the first page in full and reaches the others through the
 * router; the tab without scripts loads each page as served.
 */
async function visit(t: import('ava').ExecutionContext, share: readonly string[], tab: Page, width: number, seen?: (url: string, found: Awaited<ReturnType<typeof inspect>>) => void): Promise<{ failed: string[]; wide: string[] }> {
  const failed: string[] = [];
  const wide: string[] = [];
  const onError = (error: Error) => failed.push(`${tab.url()}: ${error.message}`);
  tab.on('pageerror', onError);
  const started = Date.now();
  for (const [i, url] of share.entries()) {
    const problem = tab !== page ? await load(tab, url, 'domcontentloaded') : i === 0 ? await load(tab, url, 'load') : await navigate(tab, url);
    if (problem) failed.push(`${url}: ${problem}`);
    const found = await inspect(tab);
    if (found.overflow > 1) wide.push(`${url} at ${width} px: ${found.overflow} px wider than the window`);
    seen?.(url, found);
  }
  tab.off('pageerror', onError);
  t.log(`${share.length} pages at ${width} px: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { failed, wide };
}

/**
 * The pages opened in the browser (see the header): the home page; the hand-written pages whose
 * place in their sorted list is N modulo 3; the pages generated from one template (a diagnostic
 * code's or a rule's) whose place in theirs is N modulo 10. N is the day's number (taken modulo
 * 30, which keeps both remainders), or DOCS_BROWSER_PAGES=<number>; DOCS_BROWSER_PAGES=all opens
 * every page.
 */
function sample(all: readonly string[]): string[] {
  const chosen = process.env.DOCS_BROWSER_PAGES ?? String(Math.floor(Date.now() / 86_400_000) % 30);
  if (chosen === 'all') return [...all];
  if (!/^\d+$/.test(chosen)) throw new Error(`DOCS_BROWSER_PAGES=${chosen}: all, or a number N`);
  const n = Number(chosen);
  const isGenerated = (url: string) => /^\/(codes|rules)\/[^/]+\.html$/.test(url) && !url.endsWith('/index.html');
  const generated = all.filter(isGenerated).filter((_, i) => i % 10 === n % 10);
  const written = all.filter((url) => !isGenerated(url) && url !== '/index.html').filter((_, i) => i % 3 === n % 3);
  return all.filter((url) => url === '/index.html' || generated.includes(url) || written.includes(url));
}

let opened: string[] = [];

test.serial('every page as served is a page of the site; the sample to open in the browser', (t) => {
  t.true(pages.length > 100, `${pages.length} pages`);
  for (const url of pages) {
    const found = readPage(url);
    t.true(found.ids.includes('app') && found.ids.includes('VPContent'), `${url}: a page of the site`);
    ids.set(url, new Set(found.ids));
    contentClass.set(url, found.content);
    addLinks(url, found.hrefs);
  }
  t.is(contentClass.get('/index.html'), undefined, 'the home page is the one without a content class');
  t.true(pages.every((url) => url === '/index.html' || contentClass.get(url)), 'every other page has its content class');
  opened = sample(pages);
  t.true(opened.includes('/index.html') && ['/guide/', '/api/', '/codes/', '/rules/'].every((folder) => opened.some((url) => url.startsWith(folder))));
  t.log(`${opened.length} of ${pages.length} pages open in the browser (DOCS_BROWSER_PAGES=${process.env.DOCS_BROWSER_PAGES ?? `${Math.floor(Date.now() / 86_400_000) % 30}, the day's`})`);
});

// At 1280 px with the site's scripts (a page whose module fails to load or whose component fails to
// render fails here, and the first page's hydration is checked by its full load); at 400 px the
// pages as served, laid out by their CSS alone (the phone layout is media queries).
test.serial('the sampled pages load at 1280 px with their scripts, without sideways scrolling', async (t) => {
  t.timeout(300_000);
  const { failed, wide } = await visit(t, opened, page, 1280, (url, found) => addLinks(url, found.links));
  t.deepEqual(failed, []);
  t.deepEqual(wide, []);
});

test.serial('the sampled pages as served lay out at 400 px without sideways scrolling', async (t) => {
  t.timeout(300_000);
  const { failed, wide } = await visit(t, opened, served, 400);
  t.deepEqual(failed, []);
  t.deepEqual(wide, []);
});

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
  await page.goto(`${origin}/guide/getting-started.html`, { waitUntil: 'load' });
  t.true((await search('HK003', /^\/rules\/HK003/)).some((href) => href.startsWith('/rules/HK003')), 'HK003 finds its rule page');
  await page.keyboard.press('Escape');
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
    // the home page is loaded in full, the others reached through the router as a reader's click reaches them
    for (const [name, url] of Object.entries(shown)) {
      t.is(await navigate(page, url), undefined, url);
      const file = path.join(shots, `${name}-${width}.png`);
      await page.screenshot({ path: file });
      t.true(existsSync(file), file);
    }
  }
});
