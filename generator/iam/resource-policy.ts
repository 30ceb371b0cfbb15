// Resource-based policies, from the same statements as the identity policies: what `ddbgen iam
// --format resource-policy` prints and `ddbgen table --format cloudformation --resource-policy`
// puts in the table's ResourcePolicy. DynamoDB attaches them to tables and streams only, so an
// index's statements live in its table's policy (Resource `…/index/<name>`). The table's policy
// holds every identity policy's statements, each allowed only to the role named like the policy
// (`aws:PrincipalArn`, in the table's account), and one Deny of every data action it grants to
// any other principal (AWS services and the account's service-linked roles, such as global-table
// replication's, excepted), so that no broader identity
// policy — an administrator's `dynamodb:*`, a role of another account — reads or writes the items.
// The stream's policy does the same for the stream consumer. Control-plane actions (DescribeTable,
// PutResourcePolicy, DeleteResourcePolicy, …) are not denied: an administrator can still change or
// remove the policy.

import type { TableDef } from '../../dsl/ir.js';
import { grantConditions, physicalName, resourceSuffix, type ArnWriter } from './iam-formats.js';
import { iamPolicies, type IamPlan, type PolicyModel } from './policy-model.js';

/** How the principals are written: the table's account, and the role a policy is for. */
export interface Principals {
  /** `arn:aws:iam::<account>:root`: the account whose roles the statements name. */
  readonly account: unknown;
  /** `arn:aws:iam::<account>:role/<policy name>`. */
  readonly role: (policy: PolicyModel) => unknown;
  /** `arn:aws:iam::<account>:role/aws-service-role/*`: the account's service-linked roles (global-table replication), never denied. */
  readonly serviceRoles: unknown;
}

export interface ResourcePolicy {
  readonly table: TableDef;
  readonly resource: 'table' | 'stream';
  /** The roles the policy allows, by policy name. */
  readonly roles: readonly string[];
  readonly document: { readonly Version: string; readonly Statement: readonly unknown[] };
}

/** DynamoDB's limit on a resource-based policy, in bytes of its JSON (whitespace counts). */
export const RESOURCE_POLICY_MAX_BYTES = 20 * 1024;

function policyFor(table: TableDef, resource: 'table' | 'stream', policies: readonly PolicyModel[], arn: ArnWriter, principals: Principals): ResourcePolicy | undefined {
  const grants = policies.flatMap((policy) => policy.grants.filter((g) => (g.stream === true) === (resource === 'stream')).map((grant) => ({ policy, grant })));
  if (grants.length === 0) return undefined;
  // grants alike (the same actions, resource and conditions: entities sharing a partition, ReadOnly's reads in Writer) are one statement naming every role that has them
  const alike = new Map<string, { sid: string; actions: readonly string[]; resource: unknown; conditions: Record<string, unknown>; roles: PolicyModel[] }>();
  for (const { policy, grant } of grants) {
    const resource = arn(table, resourceSuffix(grant, table));
    const conditions = grantConditions(grant);
    const id = JSON.stringify([grant.actions, resource, conditions]);
    const found = alike.get(id);
    if (found) found.roles.push(policy);
    else alike.set(id, { sid: `${policy.name}${grant.sid}`, actions: grant.actions, resource, conditions, roles: [policy] });
  }
  const allows = [...alike.values()].map((a) => ({
    Sid: a.sid,
    Effect: 'Allow',
    Principal: { AWS: principals.account },
    Action: a.actions,
    Resource: a.resource,
    Condition: { ...a.conditions, ArnEquals: { 'aws:PrincipalArn': a.roles.length === 1 ? principals.role(a.roles[0]!) : a.roles.map(principals.role) } },
  }));
  const roles = [...new Set(grants.map((g) => g.policy))];
  const deny = {
    Sid: 'DenyOtherPrincipals',
    Effect: 'Deny',
    Principal: '*',
    Action: [...new Set(grants.flatMap((g) => g.grant.actions))].sort(),
    Resource: resource === 'stream' ? arn(table, '/stream/*') : [arn(table, ''), arn(table, '/index/*')],
    Condition: { ArnNotLike: { 'aws:PrincipalArn': [...roles.map(principals.role), principals.serviceRoles] }, Bool: { 'aws:PrincipalIsAWSService': 'false' } },
  };
  return { table, resource, roles: roles.map((p) => p.name), document: { Version: '2012-10-17', Statement: [...allows, deny] } };
}

/** The JSON a policy's size is measured on (DynamoDB counts whitespace, so it is sent without). */
export const policyBytes = (policy: ResourcePolicy) => Buffer.byteLength(JSON.stringify(policy.document));

/**
 * The table's and (when it has one) the stream's resource-based policy, per table of the plan. A
 * policy above DynamoDB's 20 KB keeps its Deny only (the roles' identity policies still allow them
 * their statements), and a note says so.
 */
export function resourcePolicies(plan: IamPlan, arn: ArnWriter, principals: Principals): { policies: ResourcePolicy[]; notes: string[] } {
  const notes: string[] = [];
  const tables = [...new Set(plan.policies.map((p) => p.table))];
  const policies = tables.flatMap((table) => {
    const ofTable = plan.policies.filter((p) => p.table === table);
    return (['table', 'stream'] as const).flatMap((resource) => {
      const policy = policyFor(table, resource, ofTable, arn, principals);
      if (!policy) return [];
      const bytes = policyBytes(policy);
      if (bytes <= RESOURCE_POLICY_MAX_BYTES) return [policy];
      notes.push(`${table.name}: the ${resource}'s resource policy would be ${bytes} bytes, above DynamoDB's ${RESOURCE_POLICY_MAX_BYTES}: it keeps only its Deny of other principals, and the roles' access comes from their identity policies`);
      return [{ ...policy, document: { ...policy.document, Statement: policy.document.Statement.slice(-1) } }];
    });
  });
  return { policies, notes };
}

/** Principals in one account, for JSON (`--account`). */
export const accountPrincipals = (account: string): Principals => ({
  account: `arn:aws:iam::${account}:root`,
  role: (policy) => `arn:aws:iam::${account}:role/${policy.name}`,
  serviceRoles: `arn:aws:iam::${account}:role/aws-service-role/*`,
});

/** Principals in the stack's account, for a CloudFormation template. */
export const stackPrincipals: Principals = {
  account: { 'Fn::Sub': 'arn:${AWS::Partition}:iam::${AWS::AccountId}:root' },
  role: (policy) => ({ 'Fn::Sub': `arn:\${AWS::Partition}:iam::\${AWS::AccountId}:role/${policy.name}` }),
  serviceRoles: { 'Fn::Sub': 'arn:${AWS::Partition}:iam::${AWS::AccountId}:role/aws-service-role/*' },
};

/** `{ resourcePolicies: [{ table, resource, roles, document }] }` for `ddbgen iam --format resource-policy --account ID`: ARNs in that account, any region. */
export function resourcePolicyJson(plan: IamPlan, account: string): { text: string; notes: string[] } {
  const arn: ArnWriter = (table, suffix) => `arn:aws:dynamodb:*:${account}:table/${physicalName(table, table.name)}${suffix}`;
  const { policies, notes } = resourcePolicies(plan, arn, accountPrincipals(account));
  const out = policies.map((p) => ({ table: p.table.name, resource: p.resource, roles: p.roles, document: p.document }));
  return { text: `${JSON.stringify({ resourcePolicies: out }, null, 2)}\n`, notes };
}

type Template = { Resources: Record<string, { Properties: Record<string, unknown> }> };

/**
 * The CloudFormation template of `ddbgen table` with each table's resource policy in its
 * `ResourcePolicy` and its stream's in `StreamSpecification.ResourcePolicy` (ARNs and roles in the
 * stack's account and region). The template's resources are named `<Table>Table`.
 */
export function withResourcePolicies(template: Template, tables: readonly TableDef[]): { template: Template; notes: string[] } {
  const arn: ArnWriter = (table, suffix) => ({ 'Fn::Sub': `arn:\${AWS::Partition}:dynamodb:\${AWS::Region}:\${AWS::AccountId}:table/${physicalName(table, table.name)}${suffix}` });
  const { policies, notes } = resourcePolicies(iamPolicies(tables), arn, stackPrincipals);
  const resources = { ...template.Resources };
  for (const policy of policies) {
    const resource = resources[`${policy.table.name}Table`]!;
    const properties = { ...resource.Properties };
    if (policy.resource === 'table') properties['ResourcePolicy'] = { PolicyDocument: policy.document };
    else properties['StreamSpecification'] = { ...(properties['StreamSpecification'] as object), ResourcePolicy: { PolicyDocument: policy.document } };
    resources[`${policy.table.name}Table`] = { ...resource, Properties: properties };
  }
  return { template: { ...template, Resources: resources }, notes };
}
