// Every generated method of every fixture, run through a recording client, against the policies
// `ddbgen iam` emits for it (test/support/iam-evaluator.ts evaluates them). The methods are found by
// reflection: each repository, edge and table object of the generated table class, each public
// method its class declares (test/support/public-methods.ts), and each step of a transaction. A
// method runs as its doc `@example` is written, or from a recipe by method family with sample values
// of the schema; a method with neither fails the test, so a new method cannot go unchecked.
//
// For each request: the policies meant to send it allow it (its entity's or edge's policy, the
// pattern's for a pattern method, Writer, and ReadOnly for a read), every other policy denies it
// unless the plan says that policy reaches the request's entity (a shared partition, a native
// index), and each entity and edge policy grants exactly the actions, per resource, that its
// methods send. With a tenant scope, a caller tagged with the sample tenant is allowed what its
// tenant's partitions hold, and a caller of another tenant is denied every request.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { TableDef } from '../dsl/ir.js';
import { iamJson } from '../generator/iam/iam-formats.js';
import { iamPolicies, type IamPlan } from '../generator/iam/policy-model.js';
import { evaluate, type IamRequest, type PolicyDocument } from './support/iam-evaluator.js';
import { FIXTURES, meant, READS, resourceOf, run, show, type Fixture, type Unit } from './support/generated-methods.js';

const root = path.resolve(import.meta.dirname, '..');

test('every fixture\'s tables are checked', async (t) => {
  const declared = [];
  for (const file of readdirSync(path.join(root, 'fixtures')).filter((f) => f.endsWith('.ts'))) {
    const module = (await import(`../fixtures/${file.replace(/\.ts$/, '.js')}`)) as { default: TableDef | TableDef[] };
    declared.push(...[module.default].flat().map((table) => table.name));
  }
  t.deepEqual(declared.sort(), FIXTURES.map((f) => f.table.name).sort());
});

/** Whether a policy not meant for a request may still allow it: it reaches the owner's partitions (said in the plan), or it is a Query of the owner's own partitions. */
function excused(fixture: Fixture, plan: IamPlan, policyName: string, unit: Unit, request: IamRequest): boolean {
  const policy = plan.policies.find((p) => p.name === policyName)!;
  if (unit.owner !== undefined && policy.sharesWith.includes(unit.owner)) return true;
  const entityPolicy = `${fixture.table.name}${unit.owner}`;
  // a collection reads its entity's partition; a pattern's Query grant covers every Query of its entity's partitions
  if (unit.kind === 'table' && (policyName === entityPolicy || policyName === `${entityPolicy}Entity`)) return true;
  return policy.role === 'pattern' && request.action === 'dynamodb:Query' && policy.description.includes(`(${unit.owner}.`);
}

/** One run of every method per fixture, shared by the tests that read it (failures copied, as each test adds its own). */
const plainRuns = new Map<Fixture, ReturnType<typeof run>>();
const plainRun = async (fixture: Fixture) => {
  if (!plainRuns.has(fixture)) plainRuns.set(fixture, run(fixture));
  const { ran, failures } = await plainRuns.get(fixture)!;
  return { ran, failures: [...failures] };
};

for (const fixture of FIXTURES) {
  test(`${fixture.folder}: every generated method's requests are allowed by the policies meant to send them and denied by every other`, async (t) => {
    const plan = iamPolicies([fixture.table]);
    const documents = new Map(iamJson(plan).policies.map((p) => [p.name, p.document as PolicyDocument]));
    const { ran, failures } = await plainRun(fixture);
    for (const { unit, requests } of ran) {
      const reads = requests.every((r) => READS.has(r.action));
      const want = meant(fixture, plan, unit, reads);
      for (const request of requests) {
        for (const [name, document] of documents) {
          const verdict = evaluate([document], request);
          if (want.includes(name) && verdict !== 'allow') failures.push(`${unit.id}: ${name} denies ${show(request)}`);
          if (!want.includes(name) && verdict === 'allow' && !excused(fixture, plan, name, unit, request)) failures.push(`${unit.id}: ${name} allows ${show(request)}`);
        }
      }
    }
    t.deepEqual(failures, []);
    t.true(ran.length > 0);
  });

  test(`${fixture.folder}: each entity and edge policy grants exactly the actions, per resource, that its methods send`, async (t) => {
    const plan = iamPolicies([fixture.table]);
    const { ran } = await plainRun(fixture);
    const name = fixture.table.name;
    for (const policy of plan.policies.filter((p) => p.role === 'entity' || p.role === 'edge')) {
      const owner = `${policy.role === 'edge' ? 'edge ' : ''}${policy.name.slice(name.length).replace(/(Entity|Edge)$/, '')}`;
      const granted = [...new Set(policy.grants.flatMap((g) => g.actions.map((a) => `${g.index ?? 'table'} ${a}`)))].sort();
      const sent = [...new Set(ran.filter((r) => r.unit.owner === owner && r.unit.kind !== 'table').flatMap((r) => r.requests.map((q) => `${resourceOf(q).replace('/index/', '')} ${q.action}`)))].sort();
      t.deepEqual(granted, sent, policy.name);
    }
  });

  if (fixture.tenant) {
    test(`${fixture.folder}: scoped to tenant <${fixture.tenant}>, a caller is allowed its tenant's partitions and denied every request of another tenant`, async (t) => {
      const tenant = { attribute: fixture.tenant!, tag: 'tenant' };
      const plan = iamPolicies([fixture.table], { tenant });
      const documents = new Map(iamJson(plan).policies.map((p) => [p.name, p.document as PolicyDocument]));
      const own = `${fixture.tenant}-1`;
      const { ran, failures } = await run(fixture, { 'aws:PrincipalTag/tenant': own });
      // the sample tenant's partitions: a key with a part that is the tenant's sample value
      const holdsTenant = (request: IamRequest) => {
        const keys = request.context['dynamodb:LeadingKeys'];
        return Array.isArray(keys) && keys.length > 0 && keys.every((key: string) => key.split(fixture.table.delimiter).includes(own));
      };
      let allowedSome = false;
      for (const { unit, requests } of ran) {
        const want = meant(fixture, plan, unit, requests.every((r) => READS.has(r.action))).filter((name) => documents.has(name));
        for (const request of requests) {
          for (const name of want) {
            const verdict = evaluate([documents.get(name)!], request);
            allowedSome ||= verdict === 'allow';
            if (holdsTenant(request) && verdict !== 'allow' && plan.policies.find((p) => p.name === name)!.grants.some((g) => (g.index ?? 'table') === resourceOf(request).replace('/index/', '') && g.actions.includes(request.action))) {
              failures.push(`${unit.id}: ${name} denies its own tenant ${show(request)}`);
            }
            if (!holdsTenant(request) && verdict === 'allow' && !plan.policies.find((p) => p.name === name)!.sharesWith.includes(unit.owner ?? '')) failures.push(`${unit.id}: ${name} allows ${show(request)}, which is no partition of tenant ${own}`);
          }
        }
        // another tenant's caller: nothing at all
        for (const request of requests) {
          const intruder = { ...request, context: { ...request.context, 'aws:PrincipalTag/tenant': 'intruder' } };
          for (const [name, document] of documents) if (evaluate([document], intruder) === 'allow') failures.push(`${unit.id}: ${name} lets tenant "intruder" send ${show(request)}`);
        }
      }
      t.deepEqual(failures, []);
      t.true(allowedSome, 'some request is the tenant\'s own');
    });

    test(`${fixture.folder}: scoped to tenant <${fixture.tenant}>, a caller is denied every request for the tenant whose id is another value, the delimiter and its own id`, async (t) => {
      const tenant = { attribute: fixture.tenant!, tag: 'tenant' };
      const documents = iamJson(iamPolicies([fixture.table], { tenant })).policies.map((p) => [p.name, p.document as PolicyDocument] as const);
      const own = `${fixture.tenant}-1`;
      // the escaped delimiter lands right before the caller's id in every key that holds the tenant
      const hostile = { [fixture.tenant!]: `x${fixture.table.delimiter}${own}` };
      const { ran, failures } = await run(fixture, { 'aws:PrincipalTag/tenant': own }, hostile);
      for (const { unit, requests } of ran) {
        for (const request of requests) for (const [name, document] of documents) if (evaluate([document], request) === 'allow') failures.push(`${unit.id}: ${name} lets tenant ${own} send ${show(request)}`);
      }
      t.deepEqual(failures, []);
      t.true(ran.length > 0);
    });
  }
}
