// `ddbgen iam`: the policies for given schemas (given/want), the formats and the CLI, and, over the
// generated Social code, requests changed to step outside a policy (another table, another
// partition, another action, more attributes, the old item back) are denied, as evaluated by
// test/support/iam-evaluator.ts. Every generated method against every policy: iam-requests.test.ts.
// DynamoDB Local enforces no IAM, so requests are captured and evaluated structurally.

import test from 'ava';
import { ts } from 'ts-morph';
import { defineTable, entity, gsi, lsi, t as types } from '../dsl/index.js';
import social from '../fixtures/social.js';
import clicks from '../fixtures/time-series.js';
import { main } from '../generator/cli/cli.js';
import { iamCdk, iamCloudFormation, iamJson, jsonArn, policyDocument } from '../generator/iam/iam-formats.js';
import { iamLiteral, iamPolicies, type TenantScope } from '../generator/iam/policy-model.js';
import { SocialTable } from '../out/social/index.js';
import { evaluate, requestsOf, type PolicyDocument } from './support/iam-evaluator.js';
import { recordingClient } from './support/recording-client.js';

const ACCOUNT_ARN = 'arn:aws:dynamodb:eu-west-1:123456789012:table';
const arnOf = (table: string, index?: string) => `${ACCOUNT_ARN}/${table}${index === undefined ? '' : `/index/${index}`}`;
const socialPartitionKey = (index?: string) => {
  const def = index === undefined ? undefined : social.indexes[index];
  return def?.kind === 'gsi' ? def.pk : social.key.pk;
};

test('literal key text is escaped for IAM string patterns; placeholders, shards and tenants become wildcards and variables', (t) => {
  const cases: Array<[string, string, { count: number; start?: number } | undefined, TenantScope | undefined, string]> = [
    ['User#<id>', '#', undefined, undefined, 'User#*'],
    ['A*?$#<id>', '#', undefined, undefined, 'A${*}${?}${$}#*'],
    ['Candidate.<candidateId>.<shard>', '.', { count: 10 }, undefined, 'Candidate.*.?'],
    ['Candidate.<candidateId>.<shard>', '.', { count: 101 }, undefined, 'Candidate.*.???'],
    ['Candidate.<candidateId>.<shard>', '.', { count: 5, start: 8 }, undefined, 'Candidate.*.??'],
    ['Tenant|<tenantId>|User|<id>', '|', undefined, { attribute: 'tenantId', tag: 'tenant' }, 'Tenant|${aws:PrincipalTag/tenant}|User|*'],
    ['User|<id>|<tenantId>', '|', undefined, { attribute: 'tenantId', tag: 'tenant' }, 'User|*|${aws:PrincipalTag/tenant}'],
    ['X*<id>', '*', undefined, undefined, 'X${*}*'],
  ];
  for (const [source, delimiter, shard, tenant, want] of cases) {
    const table = defineTable({
      name: 'App',
      delimiter,
      entities: { E: entity({ attributes: { id: types.string(), candidateId: types.string(), tenantId: types.string() }, key: { pk: source as never, sk: 'S', ...(shard ? { shard: { ...shard, by: 'id' } } : {}) } as never }) },
    });
    const policy = iamPolicies([table], tenant ? { tenant } : {}).policies.find((p) => p.name === 'AppE')!;
    t.deepEqual(policy.grants[0]!.leadingKeys, [want], source);
  }
  t.is(iamLiteral('a*b?c$d'), 'a${*}b${?}c${$}d');
});

const shop = defineTable({
  name: 'Shop',
  indexes: { byStatus: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', projection: ['total'] }), byDate: lsi({ sk: 'lsi1sk', projection: 'keys-only' }) },
  entities: {
    Order: entity({
      attributes: { tenantId: types.string(), orderId: types.string(), status: types.enum(['OPEN', 'PAID']), placedAt: types.timestamp(), total: types.number() },
      key: { pk: 'Tenant#<tenantId>#Order#<orderId>', sk: 'ORDER' },
      indexes: { byStatus: { pk: 'Tenant#<tenantId>#Status#<status>', sk: '<placedAt>' }, byDate: { sk: 'Date#<placedAt>' } },
    }),
    Plan: entity({ attributes: { planId: types.string() }, key: { pk: 'Plan#<planId>', sk: 'PLAN' } }),
  },
  patterns: { openOrders: { entity: 'Order', index: 'byStatus', sk: 'placedAt', op: 'gte' } },
});

test('given a schema, want: one policy per table role, entity and pattern, each statement exactly as the generated code needs', (t) => {
  const plan = iamPolicies([shop]);
  t.deepEqual(
    plan.policies.map((p) => `${p.name} (${p.role})`),
    ['ShopReadOnly (read-only)', 'ShopWriter (writer)', 'ShopOrder (entity)', 'ShopPlan (entity)', 'ShopOrderOpenOrders (pattern)'],
  );
  const pattern = plan.policies.find((p) => p.name === 'ShopOrderOpenOrders')!;
  t.deepEqual(policyDocument(pattern, jsonArn), {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'OpenOrdersQuery',
        Effect: 'Allow',
        Action: ['dynamodb:Query'],
        Resource: 'arn:aws:dynamodb:*:*:table/Shop/index/byStatus',
        Condition: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['Tenant#*#Status#*'] },
          Null: { 'dynamodb:LeadingKeys': 'false' },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['gsi1pk', 'gsi1sk', 'pk', 'sk', 'total'] },
          'StringEqualsIfExists': { 'dynamodb:Select': ['ALL_PROJECTED_ATTRIBUTES', 'SPECIFIC_ATTRIBUTES', 'COUNT'] },
        },
      },
    ],
  });
  const order = plan.policies.find((p) => p.name === 'ShopOrder')!;
  t.deepEqual(
    order.grants.map((g) => [g.sid, g.actions.join(' '), g.index ?? 'table', g.leadingKeys?.join(' '), g.returnValues?.join(' ') ?? '', g.attributes?.join(' ') ?? '']),
    [
      ['OrderItems', 'dynamodb:GetItem dynamodb:BatchGetItem dynamodb:UpdateItem dynamodb:BatchWriteItem dynamodb:ConditionCheckItem', 'table', 'Tenant#*#Order#*', '', ''],
      ['OrderPut', 'dynamodb:PutItem', 'table', 'Tenant#*#Order#*', 'NONE', ''],
      ['OrderDelete', 'dynamodb:DeleteItem', 'table', 'Tenant#*#Order#*', 'ALL_OLD NONE', ''],
      ['OrderQueryByStatus', 'dynamodb:Query', 'byStatus', 'Tenant#*#Status#*', '', 'gsi1pk gsi1sk pk sk total'],
      ['OrderQueryByDate', 'dynamodb:Query', 'byDate', 'Tenant#*#Order#*', '', 'lsi1sk pk sk'],
    ],
    'no table Query: Order has no sort-key parts and no pattern on the table',
  );
  const writer = plan.policies.find((p) => p.name === 'ShopWriter')!;
  t.deepEqual(
    writer.grants.map((g) => [g.sid, g.index ?? 'table', g.actions.join(' '), g.leadingKeys === undefined]),
    [
      ['TableReads', 'table', 'dynamodb:GetItem dynamodb:BatchGetItem dynamodb:Query dynamodb:Scan', true],
      ['QueryByStatus', 'byStatus', 'dynamodb:Query', true],
      ['QueryByDate', 'byDate', 'dynamodb:Query', true],
      ['TableWrites', 'table', 'dynamodb:PutItem dynamodb:UpdateItem dynamodb:DeleteItem dynamodb:BatchWriteItem dynamodb:ConditionCheckItem', true],
    ],
  );
});

test('given a tenant tag, want: every policy scoped to the caller\'s tenant; what cannot be scoped is left out and said', (t) => {
  const plan = iamPolicies([shop], { tenant: { attribute: 'tenantId', tag: 'tenant' } });
  t.deepEqual(plan.policies.map((p) => p.name), ['ShopReadOnly', 'ShopWriter', 'ShopOrder', 'ShopOrderOpenOrders']);
  const readOnly = plan.policies.find((p) => p.name === 'ShopReadOnly')!;
  t.deepEqual(
    readOnly.grants.map((g) => [g.sid, g.actions.join(' '), g.leadingKeys?.join(' ')]),
    [
      ['TableReads', 'dynamodb:GetItem dynamodb:BatchGetItem dynamodb:Query', 'Tenant#${aws:PrincipalTag/tenant}#Order#*'],
      ['QueryByStatus', 'dynamodb:Query', 'Tenant#${aws:PrincipalTag/tenant}#Status#*'],
      ['QueryByDate', 'dynamodb:Query', 'Tenant#${aws:PrincipalTag/tenant}#Order#*'],
    ],
  );
  t.deepEqual(plan.notes, [
    'Shop: tenant-scoped table roles leave Scan (scanSegments) out: a scan reads every partition',
    'Shop.Plan: its partition key Plan#<planId> does not name <tenantId>, so tenant-scoped policies leave its items out',
  ]);
});

test('given fixtures/social.ts, want per pattern: one Query on its resource, its partition-key template, and its projection', (t) => {
  const patterns = iamPolicies([social]).policies.filter((p) => p.role === 'pattern');
  t.deepEqual(
    patterns.map((p) => {
      const [grant, ...more] = p.grants;
      return [p.name, more.length, grant!.actions.join(' '), grant!.index ?? 'table', grant!.leadingKeys!.join(' '), grant!.attributes?.join(' ') ?? 'all', grant!.select?.join(' ') ?? 'any'];
    }),
    [
      ['SocialArticleRecentArticles', 0, 'dynamodb:Query', 'table', 'User.*', 'all', 'any'],
      ['SocialArticleArticlesByName', 0, 'dynamodb:Query', 'byName', 'ArticleName.*', 'all', 'any'],
      ['SocialArticleArticlesByTitlePrefix', 0, 'dynamodb:Query', 'byTitle', 'User.*', 'lsi1sk pk sk', 'ALL_PROJECTED_ATTRIBUTES SPECIFIC_ATTRIBUTES COUNT'],
      ['SocialScoreTopScores', 0, 'dynamodb:Query', 'table', 'Game.*.*', 'all', 'any'],
    ],
  );
});

test('formats: CloudFormation takes the table name as a parameter; CDK builds the ARNs from the stack', (t) => {
  const plan = iamPolicies([shop]);
  const template = iamCloudFormation(plan) as { Parameters: Record<string, unknown>; Resources: Record<string, { Type: string; Properties: { PolicyDocument: PolicyDocument } }> };
  t.deepEqual(template.Parameters, { ShopTableName: { Type: 'String', Default: 'Shop', Description: 'The physical name of table Shop' } });
  t.deepEqual(Object.keys(template.Resources), ['ShopReadOnlyPolicy', 'ShopWriterPolicy', 'ShopOrderPolicy', 'ShopPlanPolicy', 'ShopOrderOpenOrdersPolicy']);
  t.deepEqual(template.Resources['ShopOrderOpenOrdersPolicy']!.Properties.PolicyDocument.Statement[0]!.Resource, {
    'Fn::Sub': 'arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${ShopTableName}/index/byStatus',
  } as never);
  const cdk = iamCdk(plan);
  t.true(cdk.includes("export const shopPolicies = (scope: Construct, tableName = 'Shop') => {\n  const arn = (suffix = '') => Stack.of(scope).formatArn({ service: 'dynamodb', resource: 'table', resourceName: `${tableName}${suffix}` });\n  return {\n    readOnly: new ManagedPolicy(scope, 'ShopReadOnly', {"));
  t.true(cdk.includes("orderOpenOrders: new ManagedPolicy(scope, 'ShopOrderOpenOrders'"));
  t.true(cdk.includes("Resource: arn('/index/byStatus')"));
  t.deepEqual(ts.transpileModule(cdk, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } }).diagnostics, [], 'the module parses');
  t.is(iamJson(plan).policies.length, 5);
});

test('policy names stay unique when an entity, edge or pattern would take another policy\'s name', (t) => {
  const table = defineTable({
    name: 'App',
    entities: {
      Writer: entity({ attributes: { id: types.string(), at: types.timestamp() }, key: { pk: 'W#<id>', sk: 'W#<at>' } }),
      WriterRecent: entity({ attributes: { id: types.string() }, key: { pk: 'R#<id>', sk: 'R' } }),
    },
    patterns: { recent: { entity: 'Writer', sk: 'at', op: 'gte' } },
  });
  t.deepEqual(iamPolicies([table]).policies.map((p) => p.name), ['AppReadOnly', 'AppWriter', 'AppWriterEntity', 'AppWriterRecentEntity', 'AppWriterRecentPattern']);
});

test('a rotated table (one physical table per period): every format covers <name>_*', (t) => {
  const plan = iamPolicies([clicks]);
  const readOnly = plan.policies.find((p) => p.name === 'ClicksReadOnly')!;
  t.is(policyDocument(readOnly, jsonArn).Statement[0]!.Resource, 'arn:aws:dynamodb:*:*:table/Clicks_*');
  const template = iamCloudFormation(plan) as { Resources: Record<string, { Properties: { PolicyDocument: PolicyDocument } }> };
  t.deepEqual(template.Resources['ClicksReadOnlyPolicy']!.Properties.PolicyDocument.Statement[0]!.Resource, { 'Fn::Sub': 'arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${ClicksTableName}_*' } as never);
  t.true(iamCdk(plan).includes('resourceName: `${tableName}_*${suffix}`'));
});

test('the CLI prints the policies, says what a tenant scope leaves out, and refuses an unknown placeholder or format', async (t) => {
  let stdout = '';
  let stderr = '';
  const run = (...args: string[]) => {
    stdout = '';
    stderr = '';
    return main(['iam', 'fixtures/social.ts', ...args], { cwd: process.cwd(), stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  };
  t.is(await run(), 0, stderr);
  t.deepEqual(JSON.parse(stdout), iamJson(iamPolicies([social])));
  t.is(await run('--format', 'cloudformation', '--tenant-tag', 'userId=tenant'), 0, stderr);
  t.true(JSON.parse(stdout).Resources.SocialArticleRecentArticlesPolicy !== undefined);
  t.true(stderr.includes('ddbgen iam: Social.Fan: edge items live in the partitions of User, Actor, Series, not all of whose keys name <userId>, so tenant-scoped policies leave the edge out\n'), stderr);
  t.true(stderr.includes("ddbgen iam: SocialArticle: its partitions also hold items of User, Settings, DailyStats, edge Fan, edge Follow (e.g. User.acme): IAM sees only the partition key"), stderr);
  t.is(await run('--tenant-tag', 'nope'), 2);
  t.regex(stderr, /^ddbgen: --tenant-tag names <nope>, which no partition-key template holds; use one of "candidateId", /);
  t.is(await run('--format', 'yaml'), 2);
  t.regex(stderr, /^ddbgen: unknown --format "yaml": use json, cloudformation, cdk, resource-policy\n/);
});

const policies = iamJson(iamPolicies([social])).policies;
const tenantPolicies = iamJson(iamPolicies([social], { tenant: { attribute: 'userId', tag: 'tenant' } })).policies;
const documentOf = (name: string, from = policies) => from.find((p) => p.name === name)!.document as PolicyDocument;

const at = new Date(Date.UTC(2024, 0, 1));
const article = { userId: 'u1', articleId: 'a1', name: 'Hello', updatedAt: at, views: 0 };
const articleKey = { userId: 'u1', updatedAt: at, articleId: 'a1' };

type Call = (db: SocialTable) => Promise<unknown>;

/** The authorization requests one call of the generated code makes (at least one). */
async function requestsFor(call: Call, principal: Record<string, string> = {}) {
  const { client, sent } = recordingClient();
  await call(new SocialTable(client, { tableName: 'Social' })).catch(() => undefined); // the answers are empty: only the requests matter
  if (sent.length === 0) throw new Error('the call sent nothing');
  return sent.flatMap((command) => requestsOf(command, arnOf, socialPartitionKey, principal));
}

const denied: Array<[string, string, Call | ((db: SocialTable) => Promise<unknown>), ((r: ReturnType<typeof requestsOf>[number]) => ReturnType<typeof requestsOf>[number])?]> = [
  ['SocialArticleRecentArticles', 'another table', (db) => db.article.recentArticles({ userId: 'u1', updatedAt: [at, at] }), (r) => ({ ...r, resource: arnOf('Billing') })],
  ['SocialArticleRecentArticles', 'another index', (db) => db.article.articlesByName({ name: 'Hello', updatedAt: at })],
  ['SocialArticleRecentArticles', 'another partition', (db) => db.vote.query({ candidateId: 'c1' })],
  ['SocialArticleRecentArticles', 'another action', (db) => db.article.get(articleKey)],
  ['SocialArticleRecentArticles', 'a write', (db) => db.article.put(article)],
  ['SocialArticleArticlesByTitlePrefix', 'the full items through the LSI (Select ALL_ATTRIBUTES)', (db) => db.article.articlesByTitlePrefix({ userId: 'u1', name: 'He' }), (r) => ({ ...r, context: { ...r.context, 'dynamodb:Select': 'ALL_ATTRIBUTES' } })],
  ['SocialArticleArticlesByTitlePrefix', 'an attribute the LSI does not project', (db) => db.article.articlesByTitlePrefix({ userId: 'u1', name: 'He' }), (r) => ({ ...r, context: { ...r.context, 'dynamodb:Attributes': ['pk', 'views'] } })],
  ['SocialArticle', 'another entity\'s partition', (db) => db.vote.get({ candidateId: 'c1', votedAt: at, voterId: 'v1' })],
  ['SocialArticle', 'a batch that reaches another partition', (db) => db.score.batchGet([{ game: 'go', day: at, points: 1, playerId: 'p' }])],
  ['SocialArticle', 'a scan', (db) => db.scanSegments({ segments: 1 }).next()],
  ['SocialArticle', 'a put that returns the old item', (db) => db.article.put(article), (r) => ({ ...r, context: { ...r.context, 'dynamodb:ReturnValues': 'ALL_OLD' } })],
  ['SocialFan', 'another partition', (db) => db.vote.get({ candidateId: 'c1', votedAt: at, voterId: 'v1' })],
  ['SocialFan', 'another index', (db) => db.article.queryByName({ name: 'x' })],
  ['SocialReadOnly', 'a write', (db) => db.user.create({ id: 'u1', email: 'e', status: 'ACTIVE', joinedAt: at })],
  ['SocialReadOnly', 'an edge write', (db) => db.fan.add({ type: 'User', id: 'u1' }, { type: 'Actor', id: 'a1' }, { since: at })],
  ['SocialWriter', 'another table', (db) => db.user.get({ id: 'u1' }), (r) => ({ ...r, resource: arnOf('Social_copy') })],
];
for (const [policy, what, call, change] of denied) {
  test(`denied: ${policy} refuses ${what}`, async (t) => {
    const requests = (await requestsFor(call)).map(change ?? ((r) => r));
    t.true(requests.some((request) => evaluate([documentOf(policy)], request) === 'deny'), JSON.stringify(requests));
  });
}

test('tenant scope: the caller\'s own partitions are allowed, another tenant\'s or an untagged caller\'s are denied', async (t) => {
  const policy = documentOf('SocialArticle', tenantPolicies);
  const own = await requestsFor((db) => db.article.query({ userId: 'u1' }), { 'aws:PrincipalTag/tenant': 'u1' });
  t.true(own.every((r) => evaluate([policy], r) === 'allow'));
  const other = await requestsFor((db) => db.article.query({ userId: 'u2' }), { 'aws:PrincipalTag/tenant': 'u1' });
  t.true(other.every((r) => evaluate([policy], r) === 'deny'));
  const untagged = await requestsFor((db) => db.article.query({ userId: 'u1' }));
  t.true(untagged.every((r) => evaluate([policy], r) === 'deny'));
  const wildcard = await requestsFor((db) => db.article.query({ userId: '*' }), { 'aws:PrincipalTag/tenant': 'u1' });
  t.true(wildcard.every((r) => evaluate([policy], r) === 'deny'), 'a value is never a wildcard');
  const writes = await requestsFor((db) => db.transaction().article.create(article).commit(), { 'aws:PrincipalTag/tenant': 'u1' });
  t.true(writes.every((r) => evaluate([documentOf('SocialWriter', tenantPolicies)], r) === 'allow'));
  const scan = await requestsFor((db) => db.scanSegments({ segments: 1 }).next(), { 'aws:PrincipalTag/tenant': 'u1' });
  t.true(scan.every((r) => evaluate([documentOf('SocialReadOnly', tenantPolicies)], r) === 'deny'), 'no scan under a tenant scope');
});

test('the evaluator: an explicit deny wins; IfExists and set operators treat a missing key as AWS does', (t) => {
  const request = { action: 'dynamodb:Query', resource: arnOf('Social'), context: {} };
  const allow = { Version: '2012-10-17', Statement: [{ Effect: 'Allow' as const, Action: 'dynamodb:*', Resource: `${ACCOUNT_ARN}/Social` }] };
  t.is(evaluate([allow], request), 'allow');
  t.is(evaluate([allow, { Version: '2012-10-17', Statement: [{ Effect: 'Deny', Action: 'dynamodb:Query', Resource: '*' }] }], request), 'deny');
  const conditioned = (condition: Record<string, Record<string, string | string[]>>) => ({ Version: '2012-10-17', Statement: [{ ...allow.Statement[0]!, Condition: condition }] });
  t.is(evaluate([conditioned({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['User.*'] } })], request), 'allow', 'ForAllValues over a missing key holds');
  t.is(evaluate([conditioned({ Null: { 'dynamodb:LeadingKeys': 'false' } })], request), 'deny', 'so the policies add a Null check');
  t.is(evaluate([conditioned({ StringEqualsIfExists: { 'dynamodb:Select': ['COUNT'] } })], request), 'allow');
  t.is(evaluate([conditioned({ StringEquals: { 'dynamodb:Select': ['COUNT'] } })], request), 'deny');
  t.is(evaluate([conditioned({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['A${*}'] } })], { ...request, context: { 'dynamodb:LeadingKeys': ['A*'] } }), 'allow');
  t.is(evaluate([conditioned({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['A${*}'] } })], { ...request, context: { 'dynamodb:LeadingKeys': ['Ab'] } }), 'deny', '${*} is a literal star');
});

test('a native GSI: the entity policy grants Query on the whole index (LeadingKeys cannot narrow several attributes); a tenant scope leaves it out and says so', (t) => {
  const tenants = defineTable({
    name: 'Tenants',
    indexes: { byTenant: gsi({ pk: ['tenantId', 'region'], sk: ['createdAt'] }) },
    entities: { Order: entity({ attributes: { tenantId: types.string(), orderId: types.string(), region: types.string(), createdAt: types.timestamp() }, key: { pk: 'Tenant#<tenantId>', sk: 'Order#<orderId>' }, indexes: { byTenant: {} } }) },
  });
  const order = iamPolicies([tenants]).policies.find((p) => p.name === 'TenantsOrder')!;
  t.deepEqual(order.grants.find((g) => g.sid === 'OrderQueryByTenant'), { sid: 'OrderQueryByTenant', actions: ['dynamodb:Query'], index: 'byTenant' });
  const scoped = iamPolicies([tenants], { tenant: { attribute: 'tenantId', tag: 'tenantId' } });
  t.false(scoped.policies.find((p) => p.name === 'TenantsOrder')!.grants.some((g) => g.sid === 'OrderQueryByTenant'));
  t.true(scoped.notes.includes('Tenants.Order: native index byTenant is keyed by attributes, not a key string, so the tenant-scoped policy leaves queryByTenant out'));
});
