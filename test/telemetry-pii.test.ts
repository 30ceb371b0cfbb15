// Telemetry never carries a key value or an attribute value (pii included): every generated method
// of every fixture (repositories, edges, collections, scans, each transaction step; found by
// reflection, test/support/generated-methods.ts) runs with telemetry on, every string attribute set
// to a marker of its own, through a recording client; then every span (name, attributes, events,
// status), every metric point's attributes and every EMF line is searched for any marker, the
// sample instant, and every string the methods sent inside a key, an item or an expression value
// (key strings built from the markers: `User.⟦id⟧`). Templates (`User.<id>`) and names are what
// telemetry is made of; values are not.
import test from 'ava';
import type { AttributeDef } from '../dsl/ir.js';
import { EmfWriter, openTelemetry } from '../out/social/index.js';
import { FIXTURES, runEach } from './support/generated-methods.js';
import { otelHarness } from './support/otel.js';

const marker = (name: string) => `zq${name}qz`;

/** Every string leaf of a value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value instanceof Set || Array.isArray(value)) for (const v of value) strings(v, out);
  else if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array)) for (const v of Object.values(value)) strings(v, out);
  return out;
}

for (const fixture of FIXTURES) {
  test(`telemetry of every generated method of ${fixture.folder} holds no key or attribute value`, async (t) => {
    const attributes: Array<[string, AttributeDef]> = [...Object.values(fixture.table.entities).flatMap((e) => Object.entries(e.attributes)), ...Object.values(fixture.table.edges).flatMap((e) => Object.entries(e.attributes))];
    const overrides = Object.fromEntries(attributes.filter(([, def]) => def.kind === 'string').map(([name]) => [name, marker(name)]));
    const otel = otelHarness();
    const lines: string[] = [];
    const emf = new EmfWriter({ write: (line) => lines.push(line) });
    const outcomes = await runEach(fixture, overrides, () => ({ telemetry: openTelemetry(otel.api, { tracer: otel.tracer, meter: otel.meter, sinks: [emf] }) }));
    emf.flush();
    const spans = otel.spans();
    const points = await otel.metrics();
    // every method that sent a request made a span named by what was called
    const named = new Set(spans.map((s) => s.name));
    const missing = outcomes.filter((o) => o.sent.length > 0).map((o) => o.unit.id).filter((id) => {
      const method = id.split('.').pop()!;
      return ![...named].some((name) => name.endsWith(`.${method}`) || (id.startsWith('db.transaction()') && name.endsWith('.transaction')));
    });
    t.deepEqual(missing, [], 'methods that sent requests without a span');
    t.true(spans.length >= outcomes.filter((o) => o.sent.length > 0).length);
    t.true(lines.length > 0);

    const telemetry = JSON.stringify({
      spans: spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })), status: s.status, links: s.links })),
      metrics: points.map((p) => ({ name: p.name, attributes: p.attributes })),
      emf: lines,
    });
    // what was sent inside keys, items and values: each a value (or built from values), none may be in telemetry
    const sentValues = new Set(
      outcomes.flatMap((o) =>
        o.sent.flatMap((c) => {
          const input = c.input as Record<string, unknown>;
          return strings([input['Key'], input['Item'], input['ExpressionAttributeValues'], input['RequestItems'], input['TransactItems'], input['ExclusiveStartKey']].map((v) => (v === undefined ? v : JSON.parse(JSON.stringify(v, (_k, x: unknown) => (x instanceof Set ? [...x] : x))))));
        }),
      ),
    );
    const markers = Object.values(overrides);
    t.true(markers.length > 0);
    const leaks = [...markers, '2024-01-15T09:30', ...[...sentValues].filter((v) => markers.some((m) => v.includes(m)))].filter((value) => telemetry.includes(value));
    t.deepEqual(leaks, [], 'values found in telemetry');
    // the values the methods sent did hold the markers: the search looked for what was there to find
    t.true([...sentValues].some((v) => markers.some((m) => v.includes(m))));
    await otel.shutdown();
  });
}
