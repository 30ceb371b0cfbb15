// `ddbgen iam [schema…] [--format json|cloudformation|cdk] [--tenant-tag ATTRIBUTE[=TAG]]`: the
// options checked, the policies built and printed. The CLI only loads the schemas and prints.

import type { TableDef } from '../../dsl/ir.js';
import { IAM_FORMATS, iamCdk, iamCloudFormation, iamJson, type IamFormat } from './iam-formats.js';
import { iamPolicies, partitionPlaceholders, type TenantScope } from './policy-model.js';

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

/** The text to print and the notes (what a tenant scope left out). */
export function iamCommandOutput(tables: readonly TableDef[], format: IamFormat, tenantTag: string | undefined): { text: string; notes: readonly string[] } {
  const tenant = parseTenantTag(tenantTag, tables);
  const plan = iamPolicies(tables, tenant ? { tenant } : {});
  const text = format === 'cdk' ? iamCdk(plan) : `${JSON.stringify(format === 'json' ? iamJson(plan) : iamCloudFormation(plan), null, 2)}\n`;
  return { text, notes: plan.notes };
}
