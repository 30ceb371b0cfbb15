// Headless Chromium for the browser tests: Debian's /usr/bin/chromium when the machine has one, else
// the build that ships inside the @sparticuz/chromium npm package (unpacked to the temp folder on
// first use; it brings its own libraries and fonts), so `npm test` needs no system browser.
import { existsSync } from 'node:fs';
import packaged from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

const SYSTEM = '/usr/bin/chromium';
const QUIET = ['--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchChromium(): Promise<Browser> {
  if (existsSync(SYSTEM)) return chromium.launch({ executablePath: SYSTEM, args: ['--no-sandbox', '--disable-gpu', ...QUIET] });
  return chromium.launch({ executablePath: await packaged.executablePath(), args: [...packaged.args, ...QUIET] });
}
