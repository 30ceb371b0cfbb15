// The checks DynamoDB makes of a data-plane request before it reads any table, in its order and
// words: the API's constraints on each parameter (table names, enums, Limit, Segment, the sizes of
// batches and transactions), reported together as "N validation errors detected: …", then the
// parameters a request needs, then whether every table it names exists ("Requested resource not
// found"). What follows (keys, expressions, items) is the engine's to check.

import { RequestError, validation } from '../../templates/runtime/in-memory/value.js';

type Input = Readonly<Record<string, unknown>>;

const NAME = /^[a-zA-Z0-9_.-]+$/;

const ENUMS: ReadonlyArray<readonly [field: string, parameter: string, values: readonly string[], operations: readonly string[]]> = [
  ['ReturnConsumedCapacity', 'returnConsumedCapacity', ['INDEXES', 'TOTAL', 'NONE'], ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan', 'BatchGetItem', 'BatchWriteItem', 'TransactGetItems', 'TransactWriteItems']],
  ['ReturnItemCollectionMetrics', 'returnItemCollectionMetrics', ['SIZE', 'NONE'], ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']],
  ['ReturnValues', 'returnValues', ['ALL_NEW', 'UPDATED_OLD', 'ALL_OLD', 'NONE', 'UPDATED_NEW'], ['PutItem', 'UpdateItem', 'DeleteItem']],
  ['Select', 'select', ['SPECIFIC_ATTRIBUTES', 'COUNT', 'ALL_ATTRIBUTES', 'ALL_PROJECTED_ATTRIBUTES'], ['Query', 'Scan']],
  ['ReturnValuesOnConditionCheckFailure', 'returnValuesOnConditionCheckFailure', ['ALL_OLD', 'NONE'], ['PutItem', 'UpdateItem', 'DeleteItem']],
];

const SINGLE_TABLE = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan']);

/** A value as DynamoDB echoes it in a constraint message (Java's toString of the request's shapes). */
function echo(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(echo).join(', ')}]`;
  if (typeof value === 'object' && value !== null) return `{${Object.entries(value).map(([k, v]) => `${k}=${echo(v)}`).join(', ')}}`;
  return String(value);
}

function tableNameProblems(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [`Value null at '${field}' failed to satisfy constraint: Member must not be null`];
  const text = String(value);
  const problems: string[] = [];
  if (text.length < 1) problems.push(`Value '${text}' at '${field}' failed to satisfy constraint: Member must have length greater than or equal to 1`);
  else if (!NAME.test(text)) problems.push(`Value '${text}' at '${field}' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+`);
  if (text.length > 255) problems.push(`Value '${text}' at '${field}' failed to satisfy constraint: Member must have length less than or equal to 255`);
  return problems;
}

/** The API's constraints on a request's parameters, each broken one named. */
function constraintProblems(operation: string, input: Input): string[] {
  const problems: string[] = [];
  if (SINGLE_TABLE.has(operation)) problems.push(...tableNameProblems(input.TableName, 'tableName'));
  for (const [field, parameter, values, operations] of ENUMS) {
    const value = input[field];
    if (value !== undefined && operations.includes(operation) && !values.includes(String(value))) {
      problems.push(`Value '${String(value)}' at '${parameter}' failed to satisfy constraint: Member must satisfy enum value set: [${values.join(', ')}]`);
    }
  }
  // DynamoDB words the two differently: a Query's names the parameter as given, without its value
  if (operation === 'Query' && input.Limit !== undefined && Number(input.Limit) < 1) problems.push(`Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1`);
  if (operation === 'Scan' && input.Limit !== undefined && Number(input.Limit) < 1) {
    problems.push(`Value '${String(input.Limit)}' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1`);
  }
  if (operation === 'Scan') {
    if (input.Segment !== undefined && Number(input.Segment) < 0) problems.push(`Value '${String(input.Segment)}' at 'segment' failed to satisfy constraint: Member must have value greater than or equal to 0`);
    if (input.Segment !== undefined && Number(input.Segment) > 999999) problems.push(`Value '${String(input.Segment)}' at 'segment' failed to satisfy constraint: Member must have value less than or equal to 999999`);
    if (input.TotalSegments !== undefined && Number(input.TotalSegments) < 1) problems.push(`Value '${String(input.TotalSegments)}' at 'totalSegments' failed to satisfy constraint: Member must have value greater than or equal to 1`);
    if (input.TotalSegments !== undefined && Number(input.TotalSegments) > 1000000) problems.push(`Value '${String(input.TotalSegments)}' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to 1000000`);
  }
  if (operation === 'TransactGetItems' || operation === 'TransactWriteItems') {
    const items = input.TransactItems;
    if (items === undefined || items === null) problems.push(`Value null at 'transactItems' failed to satisfy constraint: Member must not be null`);
    else if (Array.isArray(items) && items.length === 0) problems.push(`Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1`);
    else if (Array.isArray(items) && items.length > 100) problems.push(`Value '${echo(items)}' at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100`);
  }
  if (operation === 'BatchWriteItem' && typeof input.RequestItems === 'object' && input.RequestItems !== null) {
    const requests = input.RequestItems as Record<string, unknown[]>;
    if (Object.values(requests).some((list) => Array.isArray(list) && (list.length > 25 || list.length < 1))) {
      problems.push(`Value '${echo(requests)}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]`);
    }
  }
  if (operation === 'BatchGetItem' && typeof input.RequestItems === 'object' && input.RequestItems !== null) {
    for (const [name, request] of Object.entries(input.RequestItems as Record<string, { Keys?: unknown[] }>)) {
      if ((request?.Keys?.length ?? 0) > 100) problems.push(`Value at 'RequestItems.${name}.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100`);
    }
  }
  return problems;
}

/** The tables a request names. */
function tablesNamed(operation: string, input: Input): string[] {
  if (SINGLE_TABLE.has(operation)) return [String(input.TableName)];
  if (operation === 'BatchGetItem' || operation === 'BatchWriteItem') return Object.keys((input.RequestItems ?? {}) as object);
  if (operation === 'TransactGetItems' || operation === 'TransactWriteItems') {
    return ((input.TransactItems ?? []) as Array<Record<string, { TableName?: string } | undefined>>).flatMap((entry) => Object.values(entry ?? {}).map((action) => String(action?.TableName)));
  }
  return [];
}

/** Refuses a data-plane request as DynamoDB refuses it before looking at keys and expressions. */
export function checkRequest(operation: string, input: Input, exists: (table: string) => boolean): void {
  const problems = constraintProblems(operation, input);
  if (problems.length) throw validation(`${problems.length} validation error${problems.length === 1 ? '' : 's'} detected: ${problems.join('; ')}`);
  if ((operation === 'BatchGetItem' || operation === 'BatchWriteItem') && (input.RequestItems === undefined || Object.keys(input.RequestItems as object).length === 0)) {
    throw validation(`The requestItems parameter is required for ${operation}`);
  }
  if (operation === 'Scan') {
    if (input.Segment !== undefined && input.TotalSegments === undefined) throw validation('The TotalSegments parameter is required but was not present in the request when Segment parameter is present');
    if (input.TotalSegments !== undefined && input.Segment === undefined) throw validation('The Segment parameter is required but was not present in the request when parameter TotalSegments is present');
    if (input.Segment !== undefined && Number(input.Segment) >= Number(input.TotalSegments)) {
      throw validation(`The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: ${String(input.Segment)} is not less than TotalSegments: ${String(input.TotalSegments)}`);
    }
  }
  if ((operation === 'Query' || operation === 'Scan') && input.Select === 'SPECIFIC_ATTRIBUTES' && input.ProjectionExpression === undefined && input.AttributesToGet === undefined) {
    throw validation('One or more parameter values were invalid: Select type SPECIFIC_ATTRIBUTES requires either AttributesToGet or ProjectionExpression');
  }
  if (tablesNamed(operation, input).some((table) => !exists(table))) throw new RequestError('ResourceNotFoundException', 'Requested resource not found');
}
