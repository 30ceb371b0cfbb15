// Property: a value the generated types forbid never reaches the client. Every generated method of
// every fixture (found by reflection, test/support/generated-methods.ts) runs with one attribute's
// sample replaced by a wrong-typed or hostile value (a number or a boolean for any attribute, a map
// such as `{ $ne: … }`, a list, null), as untyped code or a JSON body would pass it. Each method
// either refuses it with ddbgen's typed error before any request, or sends requests that hold no
// trace of it (the attribute was not one the method reads).
import test from 'ava';
import fc from 'fast-check';
import { DdbgenError } from '../out/social/runtime/errors.js';
import { FIXTURES, runEach, type Outcome } from './support/generated-methods.js';

const MARKER = 'hostile-marker';
const HOSTILE: readonly unknown[] = [987654.321, { $ne: MARKER }, [MARKER], null, true, { [MARKER]: { S: MARKER } }];

/** Whether `value` holds the hostile value anywhere (the marker, the odd number, a null where ddbgen never sends one, a stray boolean). */
function holds(value: unknown, hostile: unknown): boolean {
  if (value === hostile) return true;
  if (typeof value === 'string') return value.includes(MARKER) || (typeof hostile === 'number' && value.includes(String(hostile)));
  if (typeof value !== 'object' || value === null) return false;
  if (value instanceof Set || Array.isArray(value)) return [...value].some((v) => holds(v, hostile));
  return Object.values(value).some((v) => holds(v, hostile));
}

/** The parts of a request that carry values: items, keys and expression values. */
const valuesOf = (input: Record<string, unknown>) => [input['Item'], input['Key'], input['ExpressionAttributeValues'], input['RequestItems'], input['TransactItems'], input['ExclusiveStartKey']];

/** Booleans are sent legitimately (ConsistentRead, a boolean attribute's own value): a boolean is judged by the error alone. */
const traced = (hostile: unknown) => typeof hostile !== 'boolean';

for (const fixture of FIXTURES) {
  const kinds = new Map<string, Set<string>>();
  for (const owner of [...Object.values(fixture.table.entities), ...Object.values(fixture.table.edges)]) {
    for (const [name, def] of Object.entries(owner.attributes)) kinds.set(name, (kinds.get(name) ?? new Set()).add(def.kind));
  }
  const names = [...kinds.keys()];
  /** A value is hostile for an attribute unless the attribute's own type takes it (a number for a number attribute). */
  const fits = (name: string, hostile: unknown) => (typeof hostile === 'number' && kinds.get(name)!.has('number')) || (typeof hostile === 'boolean' && kinds.get(name)!.has('boolean'));
  test(`${fixture.folder}: wrong-typed and hostile values through every generated method are refused before any request`, async (t) => {
    t.timeout(300_000);
    const leaks: string[] = [];
    let refused = 0;
    const check = async (name: string, hostile: unknown) => {
      if (fits(name, hostile)) return;
      const outcomes: Outcome[] = await runEach(fixture, { [name]: hostile });
      for (const { unit, sent, error } of outcomes) {
        if (error instanceof DdbgenError || (error as { code?: unknown } | undefined)?.code !== undefined) {
          if (sent.length > 0 && sent.some((c) => valuesOf(c.input).some((v) => holds(v, hostile)))) leaks.push(`${unit.id} with ${name} = ${JSON.stringify(hostile)}: sent it, then threw ${String(error)}`);
          refused++;
          continue;
        }
        if (error !== undefined && !(error instanceof Error && /no item|not found/i.test(error.message))) {
          leaks.push(`${unit.id} with ${name} = ${JSON.stringify(hostile)}: threw a plain ${(error as Error)?.constructor?.name ?? typeof error}: ${String(error).slice(0, 200)}`);
        }
        if (traced(hostile) && sent.some((c) => valuesOf(c.input).some((v) => holds(v, hostile)))) leaks.push(`${unit.id} with ${name} = ${JSON.stringify(hostile)}: reached the client`);
      }
    };
    // every attribute once, with a hostile value its type refuses (rotating through them), then random pairs
    for (const [i, name] of names.entries()) await check(name, HOSTILE.find((h, j) => j >= i % HOSTILE.length && !fits(name, h)) ?? HOSTILE[1]);
    await fc.assert(fc.asyncProperty(fc.constantFrom(...names), fc.constantFrom(...HOSTILE), check), { numRuns: names.length, seed: 36 });
    t.deepEqual([...new Set(leaks)], []);
    t.true(refused > 0, 'some methods read the attribute and refused the value');
  });
}
