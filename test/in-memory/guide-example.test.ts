// The guide's testing page (docs/guide/testing.md) shows examples/testing-your-app.test.ts (which npm test runs) as it is.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';

const root = path.resolve(import.meta.dirname, '../..');

test("the guide's test of an app on the in-memory table is examples/testing-your-app.test.ts, verbatim", (t) => {
  const readme = readFileSync(path.join(root, 'docs/guide/testing.md'), 'utf8');
  const example = readFileSync(path.join(root, 'examples/testing-your-app.test.ts'), 'utf8');
  const code = example.slice(example.indexOf("import test from 'ava';")).replaceAll("'../out/social/", "'./out/social/");
  t.true(readme.includes(`\`\`\`ts\n${code}\`\`\``), 'the testing page shows the example the suite runs');
});
