// `ddbgen iam [schema…] [--format json|cloudformation|cdk|resource-policy] [--account ID]
// [--tenant-tag ATTRIBUTE[=TAG]]`: the options checked, the policies built and printed. The CLI only
// loads the schemas and prints.

import type { TableDef } from '../../dsl/ir.js';
import { IAM_FORMATS, iamCdk, iamCloudFormation, iamJson, type IamFormat } from './iam-formats.js';
import { iamPolicies, partitionPlaceholders, type TenantScope } from './policy-model.js';
import { resourcePolicyJson } from './resource-policy.js';

/** A bad --format or --tenant-tag (a usage error). */
export class IamOptionError extends Error {}

const TAG_KEY = /^[A-Za-z0-9_.:/=+@-]{1,128}$/;

export function checkIamFormat(format: string | undefined): IamFormat {
  if (format === undefined) return 'json';
  if (!(IAM_FORMATS as readonly string[]).includes(format)) throw new IamOptionError(`unknown --format "${format}": use ${IAM_FORMATS.join(', ')}`);
  return format as IamFormat;
}

/** `tenantId` (tag tenantId) or `tenantId=org` (tag org), checked against the tables' partition keys. */
export function parseTenantTag(option: string | undefined, tables: readonly TableDef[]): TenantScope | undefined {
  if (option === undefined) return undefined;
  const equals = option.indexOf('=');
  const attribute = equals < 0 ? option : option.slice(0, equals);
  const tag = equals < 0 ? option : option.slice(equals + 1);
  const placeholders = partitionPlaceholders(tables);
  if (!placeholders.includes(attribute)) {
    throw new IamOptionError(`--tenant-tag names <${attribute}>, which no partition-key template holds; use one of ${placeholders.map((p) => `"${p}"`).join(', ')}`);
  }
  if (!TAG_KEY.test(tag)) throw new IamOptionError(`--tenant-tag: "${tag}" is not an IAM tag key (1 to 128 letters, digits or _ . : / = + - @)`);
  return { attribute, tag };
}

/** `--account`: the 12-digit account whose roles a resource policy names; required by resource-policy, refused by the other formats. */
export function checkAccount(format: IamFormat, account: string | undefined): string | undefined {
  if (format !== 'resource-policy') {
    if (account !== undefined) throw new IamOptionError('--account names the principals of --format resource-policy; the other formats take none');
    return undefined;
  }
  if (account === undefined) throw new IamOptionError('--format resource-policy names the roles allowed in the table\'s account: give --account with its 12-digit id');
  if (!/^\d{12}$/.test(account)) throw new IamOptionError(`--account: "${account}" is not an AWS account id (12 digits)`);
  return account;
}

/** The text to print and the notes (what a tenant scope left out, what the policies share or cannot exclude). */
export function iamCommandOutput(tables: readonly TableDef[], format: IamFormat, tenantTag: string | undefined, account?: string): { text: string; notes: readonly string[] } {
  const checkedAccount = checkAccount(format, account);
  const tenant = parseTenantTag(tenantTag, tables);
  const plan = iamPolicies(tables, tenant ? { tenant } : {});
  if (checkedAccount !== undefined) {
    const { text, notes } = resourcePolicyJson(plan, checkedAccount);
    return { text, notes: [...plan.notes, ...notes] };
  }
  const text = format === 'cdk' ? iamCdk(plan) : `${JSON.stringify(format === 'json' ? iamJson(plan) : iamCloudFormation(plan), null, 2)}\n`;
  return { text, notes: plan.notes };
}
