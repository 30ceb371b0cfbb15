// A small IAM policy evaluator for the tests of `ddbgen iam`: identity policies, and resource-based
// policies within one account, as AWS documents their evaluation (an explicit Deny in any policy
// wins, else an Allow in an identity or a resource-based policy whose Principal names the caller,
// else an implicit deny). A Principal is `*`, an account (`arn:aws:iam::<id>:root`: any principal
// of that account, `aws:PrincipalAccount`) or a principal's ARN (`aws:PrincipalArn`). ArnEquals /
// ArnLike match like StringLike, their Not forms negated; Bool compares the text.
// Actions and resources match with `*` / `?` wildcards; conditions take StringEquals, StringLike,
// their negations StringNotEquals and StringNotLike (true when the value matches none of the
// policy's values, and when the key is absent), Null, the ForAllValues: / ForAnyValue: set
// prefixes and the IfExists suffix, over single- and
// multi-valued request keys, with policy variables (`${aws:PrincipalTag/…}`, `${*}`, `${?}`, `${$}`).
// Also: the authorization requests a DynamoDB command makes, from the SDK command's input.

export interface PolicyStatement {
  readonly Sid?: string;
  readonly Effect: 'Allow' | 'Deny';
  /** Resource-based policies only. */
  readonly Principal?: '*' | { readonly AWS: string | readonly string[] };
  readonly Action: string | readonly string[];
  readonly Resource: string | readonly string[];
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

export interface PolicyDocument {
  readonly Version: string;
  readonly Statement: readonly PolicyStatement[];
}

/** One authorization request: an action on a resource with its condition keys (arrays are multi-valued keys). */
export interface IamRequest {
  readonly action: string;
  readonly resource: string;
  readonly context: Readonly<Record<string, string | readonly string[] | undefined>>;
}

const list = <T>(value: T | readonly T[]): readonly T[] => (Array.isArray(value) ? value : [value as T]);

/** A pattern (policy text) as a regular expression: `*` and `?` are wildcards when `wildcards`, variables are substituted as literal text; undefined when a variable has no value. */
function compile(pattern: string, context: IamRequest['context'], wildcards: boolean): RegExp | undefined {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '$' && pattern[i + 1] === '{') {
      const end = pattern.indexOf('}', i);
      const name = pattern.slice(i + 2, end);
      const value = ['*', '?', '$'].includes(name) ? name : context[name];
      if (typeof value !== 'string') return undefined;
      source += value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i = end;
    } else if (wildcards && ch === '*') source += '[\\s\\S]*';
    else if (wildcards && ch === '?') source += '[\\s\\S]';
    else source += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, wildcards ? 's' : '');
}

const matches = (pattern: string, value: string, context: IamRequest['context'], wildcards = true, ignoreCase = false) =>
  compile(ignoreCase ? pattern.toLowerCase() : pattern, context, wildcards)?.test(ignoreCase ? value.toLowerCase() : value) ?? false;

function conditionHolds(operator: string, key: string, policyValues: readonly string[], request: IamRequest): boolean {
  const present = request.context[key];
  const [set, base0] = operator.includes(':') ? (operator.split(':') as [string, string]) : ['', operator];
  const ifExists = base0.endsWith('IfExists');
  const base1 = ifExists ? base0.slice(0, -'IfExists'.length) : base0;
  if (base1 === 'Null') return policyValues.includes(present === undefined || (Array.isArray(present) && present.length === 0) ? 'true' : 'false');
  const negated = ['StringNotEquals', 'StringNotLike', 'ArnNotEquals', 'ArnNotLike'].includes(base1);
  const base = negated ? base1.replace('Not', '') : base1;
  const positive = (value: string) =>
    policyValues.some((p) => {
      if (base === 'StringEquals' || base === 'Bool') return matches(p, value, request.context, false);
      if (base === 'StringLike' || base === 'ArnEquals' || base === 'ArnLike') return matches(p, value, request.context, true);
      throw new Error(`the evaluator does not know condition operator ${operator}`);
    });
  // a negated operator holds for a value that matches none of the policy's values
  const match = (value: string) => (negated ? !positive(value) : positive(value));
  if (set === 'ForAllValues') return present === undefined || list(present).every(match);
  if (set === 'ForAnyValue') return present !== undefined && list(present).some(match);
  if (present === undefined) return negated || ifExists;
  return typeof present === 'string' && match(present);
}

/** Whether a resource-based statement's Principal names the caller (an identity statement has none and always does). */
function principalMatches(statement: PolicyStatement, request: IamRequest): boolean {
  const principal = statement.Principal;
  if (principal === undefined || principal === '*') return true;
  return list(principal.AWS).some((arn) => {
    const account = /^arn:aws:iam::(\d{12}):root$/.exec(arn)?.[1];
    return account !== undefined ? request.context['aws:PrincipalAccount'] === account : request.context['aws:PrincipalArn'] === arn;
  });
}

function statementApplies(statement: PolicyStatement, request: IamRequest): boolean {
  if (!principalMatches(statement, request)) return false;
  if (!list(statement.Action).some((a) => matches(a, request.action, {}, true, true))) return false;
  if (!list(statement.Resource).some((r) => matches(r, request.resource, request.context))) return false;
  return Object.entries(statement.Condition ?? {}).every(([operator, keys]) => Object.entries(keys).every(([key, values]) => conditionHolds(operator, key, list(values), request)));
}

/** `allow` when some statement (of identity or resource-based policies, one account) allows the request and none denies it. */
export function evaluate(documents: readonly PolicyDocument[], request: IamRequest): 'allow' | 'deny' {
  const applying = documents.flatMap((d) => d.Statement).filter((s) => statementApplies(s, request));
  return applying.length > 0 && applying.every((s) => s.Effect === 'Allow') ? 'allow' : 'deny';
}

/** A DynamoDB command as the SDK sends it: its class name and input. */
export interface SentCommand {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

type Item = Record<string, unknown>;

/**
 * The authorization requests DynamoDB makes for a command: one per command, one per item of a
 * transaction (Put → PutItem, Update → UpdateItem, Delete → DeleteItem, ConditionCheck →
 * ConditionCheckItem). `partitionKey` names the partition-key attribute of the table and of each index.
 */
export function requestsOf(command: SentCommand, arnOf: (table: string, index?: string) => string, partitionKey: (index?: string) => string, principal: Record<string, string> = {}): IamRequest[] {
  const input = command.input;
  const base = (action: string, table: string, index: string | undefined, context: IamRequest['context']): IamRequest => ({
    action: `dynamodb:${action}`,
    resource: arnOf(table, index),
    context: { ...principal, ...Object.fromEntries(Object.entries(context).filter(([, v]) => v !== undefined)) },
  });
  const pkOf = (record: Item | undefined) => String(record?.[partitionKey()]);
  const projection = (expression: unknown, names: unknown) =>
    typeof expression === 'string' ? expression.split(',').map((part) => part.trim()).map((name) => (names as Record<string, string> | undefined)?.[name] ?? name) : undefined;
  const write = (action: string, item: Item, record: Item | undefined) =>
    base(action, item['TableName'] as string, undefined, { 'dynamodb:LeadingKeys': [pkOf(record)], 'dynamodb:ReturnValues': item['ReturnValues'] as string | undefined });
  switch (command.name) {
    case 'GetCommand':
      return [base('GetItem', input['TableName'] as string, undefined, { 'dynamodb:LeadingKeys': [pkOf(input['Key'] as Item)], 'dynamodb:Attributes': projection(input['ProjectionExpression'], input['ExpressionAttributeNames']) })];
    case 'PutCommand':
      return [write('PutItem', input, input['Item'] as Item)];
    case 'UpdateCommand':
      return [write('UpdateItem', input, input['Key'] as Item)];
    case 'DeleteCommand':
      return [write('DeleteItem', input, input['Key'] as Item)];
    case 'QueryCommand': {
      const index = input['IndexName'] as string | undefined;
      const names = input['ExpressionAttributeNames'] as Record<string, string>;
      const values = input['ExpressionAttributeValues'] as Record<string, unknown>;
      // the partition-key clause: `#nX = :vY` where #nX names the partition key of the table or index
      const clause = [...String(input['KeyConditionExpression']).matchAll(/(#\w+) = (:\w+)/g)].find(([, name]) => names[name!] === partitionKey(index));
      return [
        base('Query', input['TableName'] as string, index, {
          'dynamodb:LeadingKeys': clause ? [String(values[clause[2]!])] : undefined,
          'dynamodb:Attributes': projection(input['ProjectionExpression'], names),
          'dynamodb:Select': input['Select'] as string | undefined,
        }),
      ];
    }
    case 'ScanCommand':
      return [base('Scan', input['TableName'] as string, input['IndexName'] as string | undefined, { 'dynamodb:Select': input['Select'] as string | undefined })];
    case 'BatchGetCommand':
      return Object.entries(input['RequestItems'] as Record<string, { Keys: Item[] }>).map(([table, request]) => base('BatchGetItem', table, undefined, { 'dynamodb:LeadingKeys': request.Keys.map(pkOf) }));
    case 'BatchWriteCommand':
      return Object.entries(input['RequestItems'] as Record<string, Array<{ PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }>>).map(([table, requests]) =>
        base('BatchWriteItem', table, undefined, { 'dynamodb:LeadingKeys': requests.map((r) => pkOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key)) }),
      );
    case 'TransactWriteCommand':
      return (input['TransactItems'] as Array<Record<string, Item>>).map((entry) => {
        const [kind, item] = Object.entries(entry)[0]!;
        const action = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' }[kind]!;
        return write(action, item, (item['Item'] ?? item['Key']) as Item);
      });
    default:
      throw new Error(`the evaluator does not know command ${command.name}`);
  }
}
