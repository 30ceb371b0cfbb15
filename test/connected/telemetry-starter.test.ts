// The "done when", as a new user would do it: `ddbgen init`, declare the access pattern the
// app serves (at a rate), `ddbgen generate`, turn telemetry on in the context the README's function forms take,
// run a load against DynamoDB Local, see a span per access pattern with its consumed capacity in an
// OpenTelemetry exporter, and `ddbgen lint --observed` on that run (its EMF lines, and its OTLP
// JSON export) names the pattern whose rate exceeds its declaration.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { main } from '../../generator/cli/cli.js';
import { clientFor, useDynamoDbLocal } from '../support/dynamodb-local.js';
import { otelHarness } from '../support/otel.js';

const root = path.resolve(import.meta.dirname, '../..');

/** What the user adds to the starter schema: the pattern the app serves, declared at 1 read/s. */
const DECLARED = `  patterns: {
    recentOrders: { entity: 'Order', sk: 'placedAt', op: 'gte', order: 'desc', readsPerSecond: 1 },
  },
});
`;

async function cli(args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { cwd, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

test('the starter app with telemetry on: a span per pattern with its units, and lint --observed names the pattern over its declaration', async (t) => {
  // inside the repository, so the generated code finds the AWS SDK in node_modules
  const project = path.join(root, 'out', `telemetry-starter-${randomUUID().slice(0, 8)}`);
  mkdirSync(project, { recursive: true });
  t.teardown(() => rmSync(project, { recursive: true, force: true }));
  t.is((await cli(['init'], project)).code, 0);
  const schemaFile = path.join(project, 'schema.ts');
  writeFileSync(schemaFile, readFileSync(schemaFile, 'utf8').replace(/\}\);\n$/, DECLARED));
  const generated = await cli(['generate'], project);
  t.is(generated.code, 0, generated.stderr);
  const app = (await import(path.join(project, 'out', 'app', 'index.ts'))) as typeof import('../../out/social/index.js') & Record<string, any>;

  const local = await useDynamoDbLocal();
  t.teardown(() => local.stop());
  const tableName = `starter-${randomUUID()}`;
  await local.createTable(app['appTableDefinition'](tableName));
  const otel = otelHarness();
  const lines: string[] = [];
  const emf = new app.EmfWriter({ write: (line: string) => lines.push(line) });
  // the one option a user adds to the context the README's function forms take: telemetry
  const db = app['createAppContext'](DynamoDBDocumentClient.from(clientFor(local.endpoint)), { tableName, telemetry: app.openTelemetry(otel.api, { tracer: otel.tracer, meter: otel.meter, sinks: [emf] }) });

  // the starter's function forms (its schema, not the social fixture's types)
  const forms = app as unknown as Record<string, ((...args: unknown[]) => Promise<unknown>) | undefined>;
  // the load: users and their orders, then the app's reads, as fast as DynamoDB Local answers
  const started = Date.now();
  for (let u = 0; u < 10; u++) {
    await forms['userPut']!(db, { id: `u${u}`, email: `u${u}@example.com`, createdAt: new Date(Date.UTC(2024, 0, 1)) });
    for (let o = 0; o < 5; o++) await forms['orderPut']!(db, { userId: `u${u}`, orderId: `o${o}`, placedAt: new Date(Date.UTC(2024, 0, 1 + o)), total: 10 * o });
  }
  for (let i = 0; i < 200; i++) {
    await forms['orderRecentOrders']!(db, { userId: `u${i % 10}`, placedAt: new Date(Date.UTC(2024, 0, 2)) });
    if (i % 4 === 0) await forms['userGet']!(db, { id: `u${i % 10}` });
  }
  const seconds = (Date.now() - started) / 1000;
  emf.flush();

  // a span per call, named by the pattern, each with the units DynamoDB Local reported
  const spans = otel.spans();
  const byName = (name: string) => spans.filter((s) => s.name === name);
  t.is(byName('Order.recentOrders').length, 200);
  t.is(byName('User.get').length, 50);
  t.is(byName('Order.put').length, 50);
  for (const span of [...byName('Order.recentOrders'), ...byName('User.get'), ...byName('Order.put')]) {
    const capacity = (span.attributes['aws.dynamodb.consumed_capacity'] as string[]).map((c) => JSON.parse(c) as { CapacityUnits: number });
    t.true(capacity.length === 1 && capacity[0]!.CapacityUnits > 0, span.name);
    t.is((span.attributes['ddbgen.read_units'] as number) + (span.attributes['ddbgen.write_units'] as number), capacity[0]!.CapacityUnits);
  }
  t.like(byName('Order.recentOrders')[0]!.attributes, { 'ddbgen.pattern': 'recentOrders', 'ddbgen.entity': 'Order', 'ddbgen.key_space': 'USER#<userId> / ORDER#<placedAt>#<orderId>', 'db.operation.name': 'Query', 'aws.dynamodb.count': 4 });

  // lint --observed on the run's EMF lines: recentOrders at 200 reads in a few seconds, declared at 1/s
  const emfFile = path.join(project, 'run.emf');
  writeFileSync(emfFile, `${lines.join('\n')}\n`);
  const linted = await cli(['lint', '--observed', 'run.emf'], project);
  t.is(linted.code, 1, linted.stderr);
  t.regex(linted.stderr, /schema\.ts:\d+:\d+ - error HK101: pattern recentOrders \(Order\): observed 200 reads in [\d.]+ s = [\d,.]+\/s, [\d,.]+× its declared readsPerSecond: 1 \(10× or more breaks the declaration\)\n {4}at App\.patterns\.recentOrders/);
  t.true(seconds < 200, 'the load ran at more than 1 read/s');
  t.regex(linted.stdout, /recentOrders +Order +1 +[\d,.]+ +reads/);
  // and on its OTLP export
  writeFileSync(path.join(project, 'run.otlp.json'), await otel.otlpJson());
  const fromOtlp = await cli(['lint', '--observed', 'run.otlp.json'], project);
  t.is(fromOtlp.code, 1);
  t.regex(fromOtlp.stderr, /error HK101: pattern recentOrders \(Order\): observed 200 reads in/);
  // the recorded run the Telemetry guide shows, refreshed when asked to
  if (process.env['DOCS_UPDATE'] === '1') {
    writeFileSync(path.join(root, 'examples', 'telemetry', 'recorded-run.emf'), `${lines.join('\n')}\n`);
    writeFileSync(path.join(root, 'examples', 'telemetry', 'schema.ts'), readFileSync(schemaFile, 'utf8'));
  }
});
