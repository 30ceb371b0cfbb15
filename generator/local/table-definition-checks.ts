// The checks DynamoDB makes of a table's definition, in its order and words: the CreateTable and
// UpdateTable parameters (table and index names, billing mode and throughput, key schemas and
// attribute definitions, projections, stream view types), and the wording of a refused parameter
// that the control plane, PartiQL and the Streams API share.

import type { AttributeDefinition, GlobalSecondaryIndex, KeySchemaElement, LocalSecondaryIndex, ProvisionedThroughput, StreamSpecification } from '@aws-sdk/client-dynamodb';
import { RequestError, validation } from '../../templates/runtime/in-memory/value.js';

const NAME = /^[a-zA-Z0-9_.-]+$/;

/** DynamoDB's wording of a request that breaks the API's constraints ("1 validation error detected: …"). */
export function constraints(problems: readonly string[]): RequestError {
  return validation(`${problems.length} validation error${problems.length === 1 ? '' : 's'} detected: ${problems.join('; ')}`);
}

export function nameProblems(value: unknown, field: string, min = 3): string[] {
  if (value === undefined || value === null) return [`Value null at '${field}' failed to satisfy constraint: Member must not be null`];
  const text = String(value);
  const problems: string[] = [];
  if (!NAME.test(text)) problems.push(`Value '${text}' at '${field}' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+`);
  if (text.length < min) problems.push(`Value '${text}' at '${field}' failed to satisfy constraint: Member must have length greater than or equal to ${min}`);
  if (text.length > 255) problems.push(`Value '${text}' at '${field}' failed to satisfy constraint: Member must have length less than or equal to 255`);
  return problems;
}

export const invalid = (detail: string) => validation(`One or more parameter values were invalid: ${detail}`);

/** The billing mode a request sets, checked against the throughput it gives. */
export function checkBilling(mode: string | undefined, throughput: ProvisionedThroughput | undefined): 'PROVISIONED' | 'PAY_PER_REQUEST' {
  if (mode !== undefined && mode !== 'PROVISIONED' && mode !== 'PAY_PER_REQUEST') {
    throw constraints([`Value '${mode}' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]`]);
  }
  if (mode === 'PAY_PER_REQUEST') {
    if (throughput !== undefined) throw invalid('Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST');
    return 'PAY_PER_REQUEST';
  }
  if (throughput === undefined) throw invalid('ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED');
  checkUnits(throughput);
  return 'PROVISIONED';
}

function checkUnits(throughput: ProvisionedThroughput): void {
  for (const [field, value] of [['readCapacityUnits', throughput.ReadCapacityUnits], ['writeCapacityUnits', throughput.WriteCapacityUnits]] as const) {
    if (value === undefined || value === null) throw constraints([`Value null at 'provisionedThroughput.${field}' failed to satisfy constraint: Member must not be null`]);
    if (Number(value) < 1) throw constraints([`Value '${value}' at 'provisionedThroughput.${field}' failed to satisfy constraint: Member must have value greater than or equal to 1`]);
  }
}

export function checkIndexThroughput(index: GlobalSecondaryIndex, billingMode: string): void {
  if (billingMode === 'PROVISIONED' && index.ProvisionedThroughput === undefined) throw invalid(`ProvisionedThroughput must be specified for index: ${index.IndexName}`);
  if (billingMode === 'PAY_PER_REQUEST' && index.ProvisionedThroughput !== undefined) {
    throw invalid(`ProvisionedThroughput should not be specified for index: ${index.IndexName} when BillingMode is PAY_PER_REQUEST`);
  }
  if (index.ProvisionedThroughput) checkUnits(index.ProvisionedThroughput);
}

/** A key schema: one HASH first, at most one RANGE after it, every attribute defined as S, N or B. */
export function checkKeySchema(keys: readonly KeySchemaElement[], definitions: readonly AttributeDefinition[]): void {
  for (const definition of definitions) {
    if (!['S', 'N', 'B'].includes(definition.AttributeType as string)) {
      throw constraints([`Value '${definition.AttributeType}' at 'attributeDefinitions.${definitions.indexOf(definition) + 1}.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]`]);
    }
  }
  if (keys.length === 2 && keys[0]!.AttributeName === keys[1]!.AttributeName) throw validation('Invalid KeySchema: Some index key attribute have no definition');
  const missing = keys.filter((k) => !definitions.some((d) => d.AttributeName === k.AttributeName)).map((k) => k.AttributeName);
  if (missing.length) {
    throw invalid(`Some index key attributes are not defined in AttributeDefinitions. Keys: [${missing.join(', ')}], AttributeDefinitions: [${definitions.map((d) => d.AttributeName).join(', ')}]`);
  }
  if (keys[0]?.KeyType !== 'HASH') throw invalid('Invalid KeySchema: The first KeySchemaElement is not a HASH key type');
  if (keys.length === 2 && keys[1]!.KeyType !== 'RANGE') throw invalid('Invalid KeySchema: The second KeySchemaElement is not a RANGE key type');
}

export function checkIndex(index: GlobalSecondaryIndex | LocalSecondaryIndex, definitions: readonly AttributeDefinition[], kind: 'global' | 'local'): void {
  const problems = nameProblems(index.IndexName, `${kind}SecondaryIndexes.member.indexName`);
  if (problems.length) throw constraints(problems);
  if (!index.KeySchema?.length) throw constraints([`Value null at '${kind}SecondaryIndexes.member.keySchema' failed to satisfy constraint: Member must not be null`]);
  if (!index.Projection) throw constraints([`Value null at '${kind}SecondaryIndexes.member.projection' failed to satisfy constraint: Member must not be null`]);
  checkKeySchema(index.KeySchema, definitions);
  const type = index.Projection.ProjectionType;
  if (type === 'INCLUDE' && !index.Projection.NonKeyAttributes?.length) throw invalid('ProjectionType is INCLUDE, but NonKeyAttributes is not specified');
  if (type !== 'INCLUDE' && index.Projection.NonKeyAttributes !== undefined) throw invalid(`ProjectionType is ${type}, but NonKeyAttributes is specified`);
}

export function checkStream(spec: StreamSpecification | undefined): string | undefined {
  if (!spec?.StreamEnabled) return undefined;
  const view = spec.StreamViewType;
  if (view === undefined) throw invalid('You must specify a StreamViewType when enabling a stream');
  if (!['NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES', 'KEYS_ONLY'].includes(view)) {
    throw constraints([`Value '${view}' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]`]);
  }
  return view;
}
