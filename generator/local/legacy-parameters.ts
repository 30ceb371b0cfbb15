// DynamoDB's legacy request parameters (AttributesToGet, KeyConditions, QueryFilter, ScanFilter,
// Expected, AttributeUpdates, ConditionalOperator) rewritten as the expressions they mean, so
// the engine answers them as it answers expressions. A request that mixes the two kinds is
// refused as DynamoDB refuses it.

import { validation } from '../../templates/runtime/in-memory/value.js';

type Input = Readonly<Record<string, unknown>>;

interface Condition {
  readonly ComparisonOperator?: string;
  readonly AttributeValueList?: readonly unknown[];
}

interface Expected extends Condition {
  readonly Value?: unknown;
  readonly Exists?: boolean;
}

/** Names and values given to the expressions a translation writes (`#l0`, `:l0`, …). */
class Placeholders {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly byName = new Map<string, string>();
  private count = 0;

  name(attribute: string): string {
    let alias = this.byName.get(attribute);
    if (!alias) {
      alias = `#l${this.byName.size}`;
      this.byName.set(attribute, alias);
      this.names[alias] = attribute;
    }
    return alias;
  }

  value(value: unknown): string {
    const alias = `:l${this.count++}`;
    this.values[alias] = value;
    return alias;
  }
}

const ARGUMENTS: Readonly<Record<string, readonly [number, number]>> = {
  EQ: [1, 1], NE: [1, 1], LE: [1, 1], LT: [1, 1], GE: [1, 1], GT: [1, 1],
  NOT_NULL: [0, 0], NULL: [0, 0], CONTAINS: [1, 1], NOT_CONTAINS: [1, 1], BEGINS_WITH: [1, 1],
  IN: [1, Infinity], BETWEEN: [2, 2],
};
const OPERATORS: Readonly<Record<string, string>> = { EQ: '=', NE: '<>', LE: '<=', LT: '<', GE: '>=', GT: '>' };

/** One attribute's legacy condition as an expression. */
function conditionText(attribute: string, condition: Condition, p: Placeholders): string {
  const op = condition.ComparisonOperator;
  const list = condition.AttributeValueList ?? [];
  const counts = op === undefined ? undefined : ARGUMENTS[op];
  if (!counts) throw validation(`1 validation error detected: Value '${String(op)}' at 'comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]`);
  if (list.length < counts[0] || list.length > counts[1]) throw validation(`One or more parameter values were invalid: Invalid number of argument(s) for the ${op} ComparisonOperator`);
  const name = p.name(attribute);
  const values = list.map((v) => p.value(v));
  switch (op) {
    case 'NOT_NULL':
      return `attribute_exists(${name})`;
    case 'NULL':
      return `attribute_not_exists(${name})`;
    case 'CONTAINS':
      return `contains(${name}, ${values[0]})`;
    case 'NOT_CONTAINS':
      return `NOT contains(${name}, ${values[0]})`;
    case 'BEGINS_WITH':
      return `begins_with(${name}, ${values[0]})`;
    case 'IN':
      return `${name} IN (${values.join(', ')})`;
    case 'BETWEEN':
      return `${name} BETWEEN ${values[0]} AND ${values[1]}`;
    default:
      return `${name} ${OPERATORS[op!]} ${values[0]}`;
  }
}

function conditionsText(conditions: Readonly<Record<string, Condition>>, operator: unknown, p: Placeholders): string {
  const join = operator === 'OR' ? ' OR ' : ' AND ';
  return Object.entries(conditions).map(([attribute, condition]) => `(${conditionText(attribute, condition, p)})`).join(join);
}

function expectedText(expected: Readonly<Record<string, Expected>>, operator: unknown, p: Placeholders): string {
  const parts = Object.entries(expected).map(([attribute, e]) => {
    if (e.ComparisonOperator !== undefined) {
      if (e.Value !== undefined) throw validation('One or more parameter values were invalid: Value and AttributeValueList cannot be used together for Attribute: ' + attribute);
      return `(${conditionText(attribute, e, p)})`;
    }
    if (e.Exists === false) {
      if (e.Value !== undefined) throw validation('One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: ' + attribute);
      return `(attribute_not_exists(${p.name(attribute)}))`;
    }
    if (e.Value === undefined) throw validation('One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: ' + attribute);
    return `(${p.name(attribute)} = ${p.value(e.Value)})`;
  });
  return parts.join(operator === 'OR' ? ' OR ' : ' AND ');
}

function updatesText(updates: Readonly<Record<string, { Action?: string; Value?: unknown }>>, p: Placeholders): string {
  const sections: Record<'SET' | 'REMOVE' | 'ADD' | 'DELETE', string[]> = { SET: [], REMOVE: [], ADD: [], DELETE: [] };
  for (const [attribute, update] of Object.entries(updates)) {
    const name = p.name(attribute);
    const action = update.Action ?? 'PUT';
    if (action === 'PUT') {
      if (update.Value === undefined) throw validation('One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified');
      sections.SET.push(`${name} = ${p.value(update.Value)}`);
    } else if (action === 'DELETE') {
      if (update.Value === undefined) sections.REMOVE.push(name);
      else sections.DELETE.push(`${name} ${p.value(update.Value)}`);
    } else if (action === 'ADD') {
      if (update.Value === undefined) throw validation('One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified');
      const list = (update.Value as { L?: unknown[] }).L;
      if (list !== undefined) sections.SET.push(`${name} = list_append(if_not_exists(${name}, ${p.value({ L: [] })}), ${p.value(update.Value)})`);
      else sections.ADD.push(`${name} ${p.value(update.Value)}`);
    } else throw validation(`1 validation error detected: Value '${action}' at 'attributeUpdates.${attribute}.member.action' failed to satisfy constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]`);
  }
  return (Object.keys(sections) as Array<keyof typeof sections>)
    .filter((section) => sections[section].length > 0)
    .map((section) => `${section} ${sections[section].join(', ')}`)
    .join(' ');
}

const LEGACY: Readonly<Record<string, readonly string[]>> = {
  GetItem: ['AttributesToGet'],
  PutItem: ['Expected', 'ConditionalOperator'],
  DeleteItem: ['Expected', 'ConditionalOperator'],
  UpdateItem: ['AttributeUpdates', 'Expected', 'ConditionalOperator'],
  Query: ['AttributesToGet', 'KeyConditions', 'QueryFilter', 'ConditionalOperator'],
  Scan: ['AttributesToGet', 'ScanFilter', 'ConditionalOperator'],
};
const EXPRESSIONS = ['ProjectionExpression', 'KeyConditionExpression', 'FilterExpression', 'ConditionExpression', 'UpdateExpression'];

/** A request with its legacy parameters (if any) rewritten as expressions; other requests as they are. */
export function translateLegacy(operation: string, input: Input): Input {
  if (operation === 'BatchGetItem' && input.RequestItems && typeof input.RequestItems === 'object') {
    const items = Object.fromEntries(Object.entries(input.RequestItems as Record<string, Input>).map(([table, request]) => [table, translate(['AttributesToGet'], request)]));
    return { ...input, RequestItems: items };
  }
  const legacy = LEGACY[operation];
  return legacy ? translate(legacy, input) : input;
}

function translate(legacy: readonly string[], input: Input): Input {
  const given = legacy.filter((name) => input[name] !== undefined);
  if (given.length === 0) return input;
  const expressions = EXPRESSIONS.filter((name) => input[name] !== undefined);
  if (expressions.length > 0) {
    throw validation(`Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {${given.join(', ')}} Expression parameters: {${expressions.join(', ')}}`);
  }
  if (input.ExpressionAttributeNames !== undefined) throw validation('ExpressionAttributeNames can only be specified when using expressions');
  if (input.ExpressionAttributeValues !== undefined) throw validation('ExpressionAttributeValues can only be specified when using expressions');
  const p = new Placeholders();
  const out: Record<string, unknown> = { ...input };
  for (const name of [...legacy, 'ConditionalOperator']) delete out[name];
  const operator = input.ConditionalOperator;
  if (input.AttributesToGet !== undefined) {
    const names = input.AttributesToGet as string[];
    out.ProjectionExpression = names.map((n) => p.name(n)).join(', ');
  }
  if (input.KeyConditions !== undefined) out.KeyConditionExpression = conditionsText(input.KeyConditions as Record<string, Condition>, 'AND', p);
  const filter = (input.QueryFilter ?? input.ScanFilter) as Record<string, Condition> | undefined;
  if (filter !== undefined && Object.keys(filter).length > 0) out.FilterExpression = conditionsText(filter, operator, p);
  if (input.Expected !== undefined && Object.keys(input.Expected as object).length > 0) out.ConditionExpression = expectedText(input.Expected as Record<string, Expected>, operator, p);
  if (input.AttributeUpdates !== undefined && Object.keys(input.AttributeUpdates as object).length > 0) out.UpdateExpression = updatesText(input.AttributeUpdates as Record<string, { Action?: string; Value?: unknown }>, p);
  if (Object.keys(p.names).length) out.ExpressionAttributeNames = p.names;
  if (Object.keys(p.values).length) out.ExpressionAttributeValues = p.values;
  return out;
}
