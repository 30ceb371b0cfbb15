// `ddbgen iam` on fixtures/saas.ts, whose entity names are not their key literals: the requests the
// generated code sends are evaluated against the emitted policies (test/support/iam-evaluator.ts).
// Each test is one way a LeadingKeys pattern can be wrong: built from names instead of templates
// (edges), a `*` that also covers a longer template (Usr#<userId> vs Usr#<userId>#admin) or an
// escaped delimiter (a value holding `#`), actions a random-shard entity never sends, and a tenant
// placeholder after another placeholder (Doc#<docId>#<tenantId>: tenant `x#acme` is not acme).
import test from 'ava';
import fc from 'fast-check';
import saas from '../fixtures/saas.js';
import { globLanguage, globOf, keyLanguage, KeyLanguages } from '../generator/iam/key-language.js';
import type { KeyTemplate, SegmentDef } from '../templates/runtime/codec.js';
import { iamJson } from '../generator/iam/iam-formats.js';
import { iamPolicies } from '../generator/iam/policy-model.js';
import { SaasTable } from '../out/saas/index.js';
import { evaluate, requestsOf, type IamRequest, type PolicyDocument } from './support/iam-evaluator.js';
import { recordingClient } from './support/recording-client.js';

const arnOf = (table: string, index?: string) => `arn:aws:dynamodb:eu-west-1:123456789012:table/${table}${index === undefined ? '' : `/index/${index}`}`;
const partitionKey = (index?: string) => {
  const def = index === undefined ? undefined : saas.indexes[index];
  return def?.kind === 'gsi' ? def.pk : saas.key.pk;
};

const plain = iamJson(iamPolicies([saas])).policies;
const tenantScoped = iamJson(iamPolicies([saas], { tenant: { attribute: 'tenantId', tag: 'tenantId' } })).policies;
const policy = (name: string, from = plain) => {
  const found = from.find((p) => p.name === name);
  if (!found) throw new Error(`no policy ${name}: ${from.map((p) => p.name).join(', ')}`);
  return found.document as PolicyDocument;
};

/** The authorization requests one call makes (it must send something). */
async function requests(call: (db: SaasTable) => Promise<unknown>, tenant?: string): Promise<IamRequest[]> {
  const { client, sent } = recordingClient();
  await call(new SaasTable(client));
  if (sent.length === 0) throw new Error('the call sent nothing');
  return sent.flatMap((command) => requestsOf(command, arnOf, partitionKey, tenant === undefined ? {} : { 'aws:PrincipalTag/tenantId': tenant }));
}

const verdicts = (document: PolicyDocument, list: readonly IamRequest[]) => list.map((r) => `${evaluate([document], r)} ${r.action} ${JSON.stringify(r.context['dynamodb:LeadingKeys'])}`);
const allAllowed = (document: PolicyDocument, list: readonly IamRequest[]) => verdicts(document, list).filter((v) => !v.startsWith('allow'));
const anyAllowed = (document: PolicyDocument, list: readonly IamRequest[]) => verdicts(document, list).filter((v) => v.startsWith('allow'));

const account = { type: 'Account' as const, id: 'a1' };
const team = { type: 'Team' as const, id: 't1' };

test('an edge policy is built from its nodes\' key templates (Acct#…, Grp#…), not their names: every edge method is allowed', async (t) => {
  const edge = policy('SaasMembership');
  for (const call of [
    (db: SaasTable) => db.membership.add(account, team),
    (db: SaasTable) => db.membership.remove(account, team),
    (db: SaasTable) => db.membership.get(account, team),
    (db: SaasTable) => db.membership.outgoing(account),
    (db: SaasTable) => db.membership.incoming(team),
    (db: SaasTable) => db.membership.count('outgoing', account),
  ]) {
    t.deepEqual(allAllowed(edge, await requests(call)), [], String(call));
  }
  t.deepEqual(anyAllowed(edge, await requests((db) => db.user.get({ userId: 'Account' }))), [], 'no other entity\'s partition');
});

test('a `*` that would cover a longer template of another entity is narrowed: User cannot reach Usr#u1#admin, AdminGrant cannot reach Usr#x\\#admin', async (t) => {
  t.deepEqual(anyAllowed(policy('SaasUser'), await requests((db) => db.adminGrant.get({ userId: 'u1' }))), [], 'GetItem on the grant');
  t.deepEqual(anyAllowed(policy('SaasUser'), await requests((db) => db.adminGrant.put({ userId: 'u1', scope: 'all' }))), [], 'PutItem on the grant');
  t.deepEqual(anyAllowed(policy('SaasAdminGrant'), await requests((db) => db.user.get({ userId: 'x#admin' }))), [], 'the user whose id ends in #admin');
  t.deepEqual(allAllowed(policy('SaasUser'), await requests((db) => db.user.get({ userId: 'u1' }))), []);
  t.deepEqual(allAllowed(policy('SaasAdminGrant'), await requests((db) => db.adminGrant.get({ userId: 'u1' }))), []);
});

test('a random-shard entity is granted exactly what its methods send: Query, BatchGetItem, PutItem, BatchWriteItem, UpdateItem', async (t) => {
  const tally = policy('SaasTally');
  for (const call of [
    (db: SaasTable) => db.tally.query({ metric: 'm' }),
    (db: SaasTable) => db.tally.getAll({ metric: 'm' }),
    (db: SaasTable) => db.tally.sum({ metric: 'm' }),
    (db: SaasTable) => db.tally.put({ metric: 'm', count: 1 }),
    (db: SaasTable) => db.tally.batchPut([{ metric: 'm', count: 1 }]),
    (db: SaasTable) => db.tally.increment({ metric: 'm' }, { count: 1 }),
  ]) {
    t.deepEqual(allAllowed(tally, await requests(call)), [], String(call));
  }
  const actions = new Set(tally.Statement.filter((s) => s.Effect === 'Allow').flatMap((s) => s.Action));
  t.deepEqual([...actions].sort(), ['dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
});

test('a tenant placeholder after another placeholder: tenant acme reaches Doc#d1#acme, never Doc#d1#x\\#acme (tenant x#acme)', async (t) => {
  for (const name of ['SaasDoc', 'SaasReadOnly', 'SaasWriter']) {
    const scoped = policy(name, tenantScoped);
    t.deepEqual(allAllowed(scoped, await requests((db) => db.doc.get({ docId: 'd1', tenantId: 'acme' }), 'acme')), [], name);
    t.deepEqual(anyAllowed(scoped, await requests((db) => db.doc.get({ docId: 'd1', tenantId: 'x#acme' }), 'acme')), [], name);
    t.deepEqual(anyAllowed(scoped, await requests((db) => db.doc.get({ docId: 'd1', tenantId: 'globex' }), 'acme')), [], name);
  }
});

test('the key languages hold every key the codec builds, hostile values included, and each key matches its template\'s IAM pattern', async (t) => {
  const languages = new KeyLanguages([]);
  for (const module of [await import('../out/saas/index.js'), await import('../out/social/index.js'), await import('../out/seeds/index.js'), await import('../out/clicks/index.js')]) {
    const templates = Object.entries(module as Record<string, unknown>).flatMap(([name, value]) =>
      name.endsWith('Keys') && value && typeof value === 'object' ? Object.values(value).filter((v): v is KeyTemplate => typeof (v as KeyTemplate | undefined)?.build === 'function' && (v as KeyTemplate).def !== undefined) : [],
    );
    for (const template of templates) {
      const form = { segments: template.def.segments, delimiter: template.def.delimiter };
      const language = keyLanguage(form);
      const glob = globLanguage(globOf(form));
      const text = fc.string({ unit: fc.constantFrom('a', 'Z', '1', '\\', '\u0000', '#', '.', '*', '?', '$', ' ', 'é', template.def.delimiter), minLength: 1, maxLength: 6 }).filter((s) => s.trim() !== '');
      const value = (segment: SegmentDef): fc.Arbitrary<unknown> | undefined => {
        switch (segment.kind) {
          case 'string':
            return text;
          case 'enum':
            return fc.constantFrom(...segment.values);
          case 'integer':
            return fc.integer({ min: Math.max(segment.min, -1e9), max: Math.min(segment.max, 1e9) });
          case 'float':
            return fc.double({ min: segment.min, max: segment.max, noNaN: true });
          case 'timestamp':
            return fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0)), noInvalidDate: true });
          case 'boolean':
            return fc.boolean();
          default:
            return undefined;
        }
      };
      // a calculated shard hashes its `by` values, which the key needs too
      const valued = template.def.segments.flatMap((s) => (s.kind === 'literal' ? [] : s.kind === 'shard' ? s.by : [s]));
      const parts = Object.fromEntries(valued.map((s) => [s.attr, value(s)!]));
      fc.assert(
        fc.property(fc.record(parts), (values) => {
          const key = template.build(values);
          return languages.accepts(language, key) && languages.accepts(glob, key);
        }),
        { numRuns: 100 },
      );
    }
    t.true(templates.length > 0);
  }
  // and the other way: keys the codec never writes are outside the language
  const user = keyLanguage({ segments: [{ kind: 'literal', text: 'Usr' }, { kind: 'string', attr: 'userId' }], delimiter: '#' });
  t.deepEqual(['Usr#a', 'Usr#a\\#b', 'Usr#a\\\\', 'Usr#a#b', 'Usr#', 'Usr#a\\', 'Usr#a\\x'].map((key) => languages.accepts(user, key)), [true, true, true, false, false, false, false]);
});

test('given fixtures/saas.ts, want: the exclusions, and what the policies share or also refuse said in the notes', (t) => {
  const plan = iamPolicies([saas]);
  const grant = (policy: string) => plan.policies.find((p) => p.name === policy)!.grants[0]!;
  t.deepEqual([grant('SaasUser').leadingKeys, grant('SaasUser').excludedKeys], [['Usr#*'], ['Usr#*#admin']]);
  t.deepEqual([grant('SaasAdminGrant').leadingKeys, grant('SaasAdminGrant').excludedKeys], [['Usr#*#admin'], ['Usr#*\\#admin']]);
  t.deepEqual([grant('SaasMembership').leadingKeys, grant('SaasMembership').excludedKeys], [['Acct#*', 'Grp#*'], undefined]);
  t.deepEqual(plan.notes, [
    'SaasAccount: its partitions also hold items of edge Membership (e.g. Acct#x): IAM sees only the partition key, so it reaches them too',
    'SaasTeam: its partitions also hold items of edge Membership (e.g. Grp#x): IAM sees only the partition key, so it reaches them too',
    'SaasUser: refuses User\'s keys that match Usr#*#admin, such as Usr#\\#admin (userId "#admin"): an IAM pattern cannot tell a value\'s escaped "#" from a separator',
    'SaasAdminGrant: refuses AdminGrant\'s keys that match Usr#*\\#admin, such as Usr#\\\\#admin (userId "\\\\"): an IAM pattern cannot tell a value\'s escaped "#" from a separator',
    'SaasApiKey: its partitions also hold items of Invoice (e.g. Ten#x): IAM sees only the partition key, so it reaches them too',
    'SaasInvoice: its partitions also hold items of ApiKey (e.g. Ten#x): IAM sees only the partition key, so it reaches them too',
    'SaasInvoice (index byDate): its partitions also hold items of ApiKey (e.g. Ten#x): IAM sees only the partition key, so it reaches them too',
    'SaasMembership: its partitions also hold items of Account, Team (e.g. Acct#x): IAM sees only the partition key, so it reaches them too',
  ]);
  t.deepEqual(plan.policies.find((p) => p.name === 'SaasMembership')!.sharesWith, ['Account', 'Team']);
  const scoped = iamPolicies([saas], { tenant: { attribute: 'tenantId', tag: 'tenantId' } });
  t.deepEqual(scoped.policies.find((p) => p.name === 'SaasDoc')!.grants[0]!.excludedKeys, ['Doc#*\\#${aws:PrincipalTag/tenantId}']);
  t.true(scoped.notes.includes('SaasDoc: refuses Doc\'s keys that match Doc#*\\#${aws:PrincipalTag/tenantId}, such as Doc#\\\\#acme (docId "\\\\", tenantId "acme"): an IAM pattern cannot tell a value\'s escaped "#" from a separator'));
});
