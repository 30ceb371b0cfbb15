// `npm run docs`: rewrites docs/codes/*.md and docs/rules/*.md from the catalogue, removing pages of
// codes that no longer exist; fails naming codes that have no explanation yet.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../package-root.js';
import { renderPages } from './pages.js';

const { pages, missing } = renderPages();
for (const folder of ['docs/codes', 'docs/rules']) {
  mkdirSync(path.join(packageRoot, folder), { recursive: true });
  for (const name of readdirSync(path.join(packageRoot, folder))) if (!pages.has(`${folder}/${name}`)) rmSync(path.join(packageRoot, folder, name));
}
for (const [file, text] of pages) writeFileSync(path.join(packageRoot, file), text);
process.stdout.write(`ddbgen docs: ${pages.size} pages written\n`);
if (missing.length) {
  process.stderr.write(`ddbgen docs: no explanation in generator/diagnostics/explanations.ts for ${missing.join(', ')}\n`);
  process.exitCode = 1;
}
