// Requests as DynamoDB's API takes them, sent in order to DynamoDB Local and to the in-memory table
// (differential.test.ts): answers and errors compared one by one, then the tables item by item.
// Each case builds its command for a table name; `unordered` marks answers whose item order
// DynamoDB leaves open (scans), compared as sets.
import type { Outcome } from '../support/differential.js';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, NumberValue, PutCommand, QueryCommand, ScanCommand, TransactGetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

export interface CommandCase {
  readonly name: string;
  /** One request. */
  readonly command?: (table: string) => object;
  /** Several requests whose answers make one outcome (every page of a scan). */
  readonly run?: (send: (command: object) => Promise<unknown>, table: string) => Promise<unknown>;
  readonly unordered?: boolean;
  /** Megabytes through DynamoDB Local: run by npm run test:differential only. */
  readonly large?: boolean;
  /** A difference the testing guide lists: what it is, and the part of both outcomes left out of the comparison. */
  readonly deliberate?: { readonly note: string; readonly leaveOut: (outcome: Outcome) => Outcome };
}

/** Leaves ConsumedCapacity out of an answer. */
const withoutCapacity = (outcome: Outcome): Outcome => ('ok' in outcome ? { ok: { ...(outcome.ok as object), ConsumedCapacity: undefined } } : outcome);
const transactionCapacity = {
  note: 'DynamoDB Local charges a transaction by its largest item; the in-memory table charges every item, as DynamoDB documents (2 write units per KB per item, and read units for a request repeated with its token)',
  leaveOut: withoutCapacity,
};

const indexPaging = {
  note: "a query of an index counts its 1 MB on the index entries it reads, as DynamoDB documents (the data read; an index's read units are the projected attributes' sizes); DynamoDB Local counts the table's whole items",
  // the same items in the same order, as far as DynamoDB Local's page goes
  leaveOut: (outcome: Outcome): Outcome => ('ok' in outcome ? { ok: { first: ((outcome.ok as { Items?: unknown[] }).Items ?? []).slice(0, 6) } } : outcome),
};

/** A transaction with a token, of every kind of action: sent twice by the cases, as a retry would. */
const tokenedWrites = (T: string) =>
  new TransactWriteCommand({ ClientRequestToken: T.slice(-36), ReturnConsumedCapacity: 'TOTAL', TransactItems: [
    { Put: { TableName: T, Item: { pk: 't', sk: '1', n: 1 } } },
    { Update: { TableName: T, Key: { pk: 't', sk: '2' }, UpdateExpression: 'ADD n :n', ExpressionAttributeValues: { ':n': 2 } } },
    { ConditionCheck: { TableName: T, Key: { pk: 'c', sk: 'c' }, ConditionExpression: 'attribute_exists(pk)' } },
    { Delete: { TableName: T, Key: { pk: 'q', sk: 'b' } } },
  ] });

/** Every page of a scan (of one segment, or of the whole table), as one list of items. */
const fullScan = (input: Record<string, unknown>) => async (send: (command: object) => Promise<unknown>, T: string) => {
  const items: unknown[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = (await send(new ScanCommand({ TableName: T, ...input, ...(start ? { ExclusiveStartKey: start } : {}) } as never))) as { Items?: unknown[]; LastEvaluatedKey?: Record<string, unknown> };
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return { Items: items };
};

const big = (n: number) => 'x'.repeat(n);
/** An item of `total` bytes: its keys, `v` (of `bytes` bytes) and padding. */
const sized = (sk: string, v: unknown, bytes: number, total: number) => ({ pk: 'a', sk, v, x: big(total - 3 - (2 + Buffer.byteLength(sk)) - (1 + bytes) - 1) });
/** Values whose size a rule of thumb gets wrong, with the bytes DynamoDB Local counts them for. */
const sizedValues: ReadonlyArray<readonly [string, unknown, number]> = [
  ['zero', 0, 1],
  ['minus one', -1, 3],
  ['one and a half', 1.5, 3],
  ['-1e-30', -1e-30, 3],
  ['1.1e4', 11000, 3],
  ['38 digits in 19 pairs', NumberValue.from('-12345678901234567890123456789012345678'), 21],
  ['38 digits in 20 pairs', NumberValue.from('-1.2345678901234567890123456789012345678'), 21],
  ['a lone surrogate', 'a\ud800', 2],
];
const item = { pk: 'c', sk: 'c', n: 5, s: 'abc', l: [1, 'x'], m: { a: 1 }, ss: new Set(['a', 'b']), b: new Uint8Array([1, 2]), nul: null, t: true };
const check = (name: string, expression: string, values?: Record<string, unknown>): CommandCase => ({
  name: `condition ${name}`,
  command: (T) => new PutCommand({ TableName: T, Item: item, ConditionExpression: expression, ...(values ? { ExpressionAttributeValues: values } : {}), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
});
/** A key past its size: DynamoDB's message names which key and limit (and for an index key, the index and the size); DynamoDB Local's does not. */
const keySizeWords = {
  note: "a key past its size is refused in DynamoDB's words ('Size of hashkey has exceeded the maximum size limit of2048 bytes', 'Aggregated size of all range keys has exceeded the size limit of 1024 bytes', 'Size limit exceeded for Index Key gsi1pk Actual Size: 2049 bytes Max Size: 2048 bytes IndexName: byName'); DynamoDB Local words them otherwise",
  leaveOut: (outcome: Outcome) => ('error' in outcome ? { error: { ...(outcome.error as object), message: undefined } } : outcome),
};
/** A number of more than 38 digits, given or computed: DynamoDB's words are the in-memory table's, DynamoDB Local's are its own. */
const thirtyNineDigits = {
  note: "DynamoDB refuses a number of more than 38 digits with 'Attempting to store more than 38 significant digits in a Number', as the in-memory table does; DynamoDB Local says 'DynamoDB only supports precision up to 38 digits'",
  leaveOut: keySizeWords.leaveOut,
};
const put = (name: string, Item: Record<string, unknown>, extra: object = {}): CommandCase => ({ name, command: (T) => new PutCommand({ TableName: T, Item, ...extra }) });
const update = (name: string, Key: Record<string, unknown>, UpdateExpression: string, values?: Record<string, unknown>, extra: object = {}): CommandCase => ({
  name,
  command: (T) => new UpdateCommand({ TableName: T, Key, UpdateExpression, ...(values ? { ExpressionAttributeValues: values } : {}), ...extra }),
});
const query = (name: string, input: Record<string, unknown>): CommandCase => ({ name, command: (T) => new QueryCommand({ TableName: T, ...input } as never) });

/** The Social table's definition (fixtures/social.ts): three GSIs (ALL, INCLUDE, KEYS_ONLY) and a KEYS_ONLY LSI. */
export const commandCases: readonly CommandCase[] = [
  // items and their keys
  put('put an item of every type', item),
  put('put a big item', { pk: 'a', sk: 'b', x: big(400 * 1024) }),
  put('put exactly 400 KB', { pk: 'a', sk: 'size', x: big(400 * 1024 - 9) }),
  put('put 400 KB and a byte', { pk: 'a', sk: 'size', x: big(400 * 1024 - 8) }),
  // numbers and strings at the limit, each counted as DynamoDB Local counts it (templates/runtime/item-size.ts)
  ...sizedValues.flatMap(([label, v, bytes]) => [
    put(`put exactly 400 KB with ${label}`, sized(`at ${label}`, v, bytes, 400 * 1024)),
    put(`put 400 KB and a byte with ${label}`, sized(`past ${label}`, v, bytes, 400 * 1024 + 1)),
  ]),
  put('put an empty partition key', { pk: '', sk: 'b' }),
  put('put an empty sort key', { pk: 'a', sk: '' }),
  { ...put('put a 2049-byte partition key', { pk: 'p'.repeat(2049), sk: 'b' }), deliberate: keySizeWords },
  put('put a 2048-byte partition key', { pk: 'p'.repeat(2048), sk: 'b' }),
  { ...put('put a 1025-byte sort key', { pk: 'a', sk: 's'.repeat(1025) }), deliberate: keySizeWords },
  put('put a 1024-byte sort key of 2-byte characters', { pk: 'a', sk: 'é'.repeat(512) }),
  put('put a number partition key', { pk: 1, sk: 'b' }),
  put('put without a sort key', { pk: 'a' }),
  put('put an empty GSI key', { pk: 'a', sk: 'b', gsi1pk: '' }),
  put('put a number GSI key', { pk: 'a', sk: 'b', gsi1pk: 5 }),
  put('put an empty LSI key', { pk: 'a', sk: 'b', lsi1sk: '' }),
  { ...put('put a 2049-byte GSI key', { pk: 'a', sk: 'b', gsi1pk: 'p'.repeat(2049) }), deliberate: keySizeWords },
  put('put to a table that does not exist', { pk: 'a', sk: 'b' }, { TableName: 'no-such-table' }),
  put('put numbers as DynamoDB stores them', { pk: 'n', sk: 'n', a: NumberValue.from('1.50'), b: NumberValue.from('1E+5'), c: 1e-7, d: -0, e: NumberValue.from('12345678901234567890123456789012345678') }),
  {
    ...put('put 39 digits', { pk: 'n', sk: 'x', n: NumberValue.from('123456789012345678901234567890123456789') }),
    deliberate: thirtyNineDigits,
  },
  put('put 1E126', { pk: 'n', sk: 'x', n: NumberValue.from('1E126') }),
  put('put 1E-131', { pk: 'n', sk: 'x', n: NumberValue.from('1E-131') }),
  put('put nested empty strings', { pk: 'a', sk: 'e', s: '', m: { e: '' }, l: [''] }),
  { name: 'get numbers back', command: (T) => new GetCommand({ TableName: T, Key: { pk: 'n', sk: 'n' }, ReturnConsumedCapacity: 'TOTAL' }) },
  { name: 'numbers in a failed condition', command: (T) => new PutCommand({ TableName: T, Item: { pk: 'n', sk: 'n' }, ConditionExpression: 'attribute_not_exists(pk)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }) },
  // returned values and capacity
  put('put ALL_OLD with capacity', { pk: 'c', sk: 'c', n: 5 }, { ReturnValues: 'ALL_OLD', ReturnConsumedCapacity: 'TOTAL' }),
  put('put back the item of every type', item, { ReturnValues: 'ALL_OLD', ReturnConsumedCapacity: 'INDEXES' }),
  put('put ALL_NEW', { pk: 'a', sk: 'b' }, { ReturnValues: 'ALL_NEW' }),
  put('put into three indexes', { pk: 'i', sk: '1', gsi1pk: 'G', gsi1sk: '1', gsi2pk: 'F', gsi2sk: '1', gsi3pk: 'K', gsi3sk: '1', lsi1sk: 'L', name: 'n', views: 3, extra: 'e' }, { ReturnConsumedCapacity: 'INDEXES' }),
  put('put over an item in three indexes', { pk: 'i', sk: '1', gsi1pk: 'G', gsi1sk: '2', name: 'm' }, { ReturnConsumedCapacity: 'TOTAL', ReturnValues: 'ALL_OLD' }),
  { name: 'get with a projection', command: (T) => new GetCommand({ TableName: T, Key: { pk: 'a', sk: 'e' }, ProjectionExpression: 'pk, s, m.e, l[0], nope', ReturnConsumedCapacity: 'INDEXES' }) },
  { name: 'get strongly consistent', command: (T) => new GetCommand({ TableName: T, Key: { pk: 'c', sk: 'c' }, ConsistentRead: true, ReturnConsumedCapacity: 'TOTAL' }) },
  { name: 'get a missing item', command: (T) => new GetCommand({ TableName: T, Key: { pk: 'zz', sk: 'c' }, ReturnConsumedCapacity: 'TOTAL' }) },
  { name: 'get without the sort key', command: (T) => new GetCommand({ TableName: T, Key: { pk: 'a' } }) },
  { name: 'get with an extra attribute', command: (T) => new GetCommand({ TableName: T, Key: { pk: 'a', sk: 'b', x: 1 } }) },
  { name: 'get a key of the wrong type', command: (T) => new GetCommand({ TableName: T, Key: { pk: 'a', sk: 2 } }) },
  { name: 'delete a key of the wrong type', command: (T) => new DeleteCommand({ TableName: T, Key: { pk: 'a', sk: 2 } }) },
  { name: 'delete without the sort key', command: (T) => new DeleteCommand({ TableName: T, Key: { pk: 'a' } }) },
  // expression rules
  put('unused value', { pk: 'a', sk: 'b' }, { ConditionExpression: 'attribute_exists(#p)', ExpressionAttributeNames: { '#p': 'pk' }, ExpressionAttributeValues: { ':x': 1 } }),
  put('unused name', { pk: 'a', sk: 'b' }, { ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeNames: { '#p': 'pk' } }),
  put('undefined value', { pk: 'a', sk: 'b' }, { ConditionExpression: 'n = :x' }),
  put('undefined name', { pk: 'a', sk: 'b' }, { ConditionExpression: '#q = :x', ExpressionAttributeValues: { ':x': 1 } }),
  put('syntax error', { pk: 'a', sk: 'b' }, { ConditionExpression: 'n = = :x', ExpressionAttributeValues: { ':x': 1 } }),
  put('names without an expression', { pk: 'a', sk: 'b' }, { ExpressionAttributeNames: { '#a': 'x' } }),
  put('values without an expression', { pk: 'a', sk: 'b' }, { ExpressionAttributeValues: { ':a': 1 } }),
  check('missing <>', 'zz <> :v', { ':v': 1 }),
  check('missing =', 'zz = :v', { ':v': 1 }),
  check('NOT missing =', 'NOT zz = :v', { ':v': 1 }),
  check('type mismatch <', 'n < :v', { ':v': 'x' }),
  check('size of a string', 'size(s) = :v', { ':v': 3 }),
  check('size of a number', 'size(n) = :v', { ':v': 1 }),
  check('contains in a set', 'contains(ss, :v)', { ':v': 'a' }),
  check('contains in a list', 'contains(l, :v)', { ':v': 'x' }),
  check('begins_with a number', 'begins_with(n, :v)', { ':v': 5 }),
  check('begins_with bytes', 'begins_with(b, :v)', { ':v': new Uint8Array([1]) }),
  check('attribute_type', 'attribute_type(ss, :v)', { ':v': 'SS' }),
  check('attribute_type of no type', 'attribute_type(ss, :v)', { ':v': 'XX' }),
  check('BETWEEN reversed', 'n BETWEEN :a AND :b', { ':a': 9, ':b': 1 }),
  check('IN', 'n IN (:a, :b)', { ':a': 1, ':b': 5 }),
  check('nested paths', 'm.a = :a AND l[1] = :b', { ':a': 1, ':b': 'x' }),
  check('sets equal in any order', 'ss = :a', { ':a': new Set(['b', 'a']) }),
  check('booleans do not order', 't < :a', { ':a': true }),
  check('redundant parentheses', '((n = :a))', { ':a': 1 }),
  check('a function name in capitals', 'ATTRIBUTE_EXISTS(n)'),
  check('OR binds looser than AND', 'n = :a OR n = :b AND n = :c', { ':a': 5, ':b': 1, ':c': 2 }),
  check('101 IN operands', `n IN (${Array.from({ length: 101 }, (_, i) => `:a${i}`).join(',')})`, Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`:a${i}`, i]))),
  // updates
  update('update a key attribute', { pk: 'c', sk: 'c' }, 'SET sk = :v', { ':v': 'c' }),
  update('update overlapping paths', { pk: 'c', sk: 'c' }, 'SET m.e = :v, m = :w', { ':v': 'c', ':w': {} }),
  update('update ADD a string', { pk: 'c', sk: 'c' }, 'ADD s :v', { ':v': 'c' }),
  update('update ADD to a string', { pk: 'c', sk: 'c' }, 'ADD s :v', { ':v': 1 }),
  update('update + on a missing attribute', { pk: 'c', sk: 'c' }, 'SET q = q + :v', { ':v': 1 }),
  update('update a missing parent', { pk: 'c', sk: 'c' }, 'SET zz.y = :v', { ':v': 1 }),
  update('update 0.1 + 0.2', { pk: 'c', sk: 'c' }, 'SET f = :a + :b', { ':a': 0.1, ':b': 0.2 }, { ReturnValues: 'UPDATED_NEW' }),
  { ...update('update past 38 digits', { pk: 'c', sk: 'c' }, 'SET g = :a + :b', { ':a': NumberValue.from('1E+20'), ':b': NumberValue.from('1E-30') }), deliberate: thirtyNineDigits },
  update('update to overflow', { pk: 'c', sk: 'c' }, 'SET g = :a + :b', { ':a': NumberValue.from('9E+125'), ':b': NumberValue.from('9E+125') }),
  // an invalid number among the expression's values is named by its placeholder; in a key or an item, it is not
  update('update with a value that underflows', { pk: 'c', sk: 'c' }, 'SET g = :a, h = :b', { ':a': 1, ':b': NumberValue.from('1E-131') }),
  update('update with a value that overflows', { pk: 'c', sk: 'c' }, 'ADD g :a', { ':a': NumberValue.from('-1E+126') }),
  { ...update('update with a value of 39 digits', { pk: 'c', sk: 'c' }, 'SET g = :a', { ':a': NumberValue.from('1.23456789012345678901234567890123456789') }), deliberate: thirtyNineDigits },
  update('update with a value that is no number', { pk: 'c', sk: 'c' }, 'SET g = :a', { ':a': NumberValue.from('1e') }),
  update('update with a nested value that underflows', { pk: 'c', sk: 'c' }, 'SET g = :a', { ':a': { m: [new Set([NumberValue.from('-1E-131')])] } }),
  update('update with an unused value that underflows', { pk: 'c', sk: 'c' }, 'SET g = :a', { ':a': 1, ':b': NumberValue.from('1E-131') }),
  put('put an item that underflows', { pk: 'c', sk: 'u', n: NumberValue.from('1E-131') }),
  { name: 'get a key that overflows', command: (T) => new GetCommand({ TableName: T, Key: { pk: 'c', sk: NumberValue.from('1E+126') } }) },
  check('with a value that underflows', 'n = :v', { ':v': NumberValue.from('1E-131') }),
  query('query with a value that underflows', { KeyConditionExpression: 'pk = :p AND sk = :s', ExpressionAttributeValues: { ':p': 'c', ':s': NumberValue.from('1E-131') } }),
  // a number in a message is printed as it was given
  query('query between bounds given out of order', { KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b', ExpressionAttributeValues: { ':p': 'c', ':a': 'z', ':b': 'a' } }),
  check('between numbers given out of order', 'n BETWEEN :a AND :b', { ':a': 1, ':b': -1e-30 }),
  check('between numbers written their own way', 'n BETWEEN :a AND :b', { ':a': NumberValue.from('1e5'), ':b': NumberValue.from('+0.00012') }),
  check('between a number and a string', 'n BETWEEN :a AND :b', { ':a': NumberValue.from('2E0'), ':b': 'x' }),
  query('filter between numbers written their own way', { KeyConditionExpression: 'pk = :p', FilterExpression: 'n BETWEEN :a AND :b', ExpressionAttributeValues: { ':p': 'c', ':a': NumberValue.from('1.50'), ':b': NumberValue.from('-12345678901234567890') } }),
  update('update list index and map member', { pk: 'c', sk: 'c' }, 'SET l[5] = :v, m.x = :v', { ':v': 'z' }, { ReturnValues: 'ALL_NEW' }),
  update('update UPDATED_NEW of nested paths', { pk: 'c', sk: 'c' }, 'SET m.z = :a, l[0] = :a', { ':a': 7 }, { ReturnValues: 'UPDATED_NEW' }),
  update('update UPDATED_OLD of nested paths', { pk: 'c', sk: 'c' }, 'SET m.a = :a, l[1] = :a', { ':a': 8 }, { ReturnValues: 'UPDATED_OLD' }),
  update('update REMOVE list elements', { pk: 'c', sk: 'c' }, 'REMOVE l[0], l[7]', undefined, { ReturnValues: 'UPDATED_OLD' }),
  update('update a new item', { pk: 'new', sk: 'b' }, 'SET a = :v ADD c :n, ss :ss', { ':v': 'z', ':n': 5, ':ss': new Set(['x', 'y']) }, { ReturnValues: 'ALL_NEW', ReturnConsumedCapacity: 'TOTAL' }),
  update('update DELETE every element', { pk: 'new', sk: 'b' }, 'DELETE ss :ss', { ':ss': new Set(['x', 'y']) }, { ReturnValues: 'UPDATED_NEW' }),
  update('update if_not_exists and list_append', { pk: 'c', sk: 'c' }, 'SET n = if_not_exists(n, :a), q = if_not_exists(q, :a), r = list_append(:l, l)', { ':a': 0, ':l': ['y'] }, { ReturnValues: 'UPDATED_NEW' }),
  update('update a GSI key to empty', { pk: 'new', sk: 'b' }, 'SET gsi1pk = :v', { ':v': '' }),
  update('update REMOVE on no item', { pk: 'nothing', sk: 'b' }, 'REMOVE zz', undefined, { ReturnValues: 'ALL_NEW' }),
  update('update with a failed condition', { pk: 'none', sk: 'b' }, 'SET a = :v', { ':v': 1 }, { ConditionExpression: 'attribute_exists(pk)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
  update('update past 400 KB', { pk: 'new', sk: 'b' }, 'SET big = :v', { ':v': big(410000) }),
  update('update SET twice', { pk: 'c', sk: 'c' }, 'SET a = :a SET b = :a', { ':a': 1 }),
  update('update into indexes', { pk: 'i', sk: '1' }, 'SET gsi2pk = :f, gsi2sk = :s, #v = :v REMOVE gsi1pk', { ':f': 'F', ':s': '2', ':v': 4 }, { ExpressionAttributeNames: { '#v': 'views' }, ReturnValues: 'ALL_OLD', ReturnConsumedCapacity: 'INDEXES' }),
  { name: 'delete ALL_OLD', command: (T) => new DeleteCommand({ TableName: T, Key: { pk: 'new', sk: 'b' }, ReturnValues: 'ALL_OLD', ReturnConsumedCapacity: 'TOTAL' }) },
  { name: 'delete ALL_NEW', command: (T) => new DeleteCommand({ TableName: T, Key: { pk: 'new', sk: 'b' }, ReturnValues: 'ALL_NEW' as never }) },
  { name: 'delete a missing item with capacity', command: (T) => new DeleteCommand({ TableName: T, Key: { pk: 'zzz', sk: 'b' }, ReturnConsumedCapacity: 'TOTAL' }) },
  // queries
  {
    name: 'batch of sort keys in byte order',
    command: (T) => new BatchWriteCommand({ RequestItems: { [T]: ['b', 'a', '\u{1F600}', '\uFF5E', 'a#2', 'A', 'a#10', 'Z', '\u00E9', 'e'].map((sk, i) => ({ PutRequest: { Item: { pk: 'q', sk, i, keep: i % 2 === 0, gsi1pk: 'G', gsi1sk: `${i % 3}.${i}`, gsi2pk: 'T', gsi2sk: String(i % 2), gsi3pk: 'K', gsi3sk: sk, lsi1sk: `T${9 - i}` } } })) } }),
  },
  query('query a partition', { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'q' }, ReturnConsumedCapacity: 'TOTAL' }),
  query('query backwards with a limit', { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'q' }, ScanIndexForward: false, Limit: 3 }),
  query('query from a start key', { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'q' }, ExclusiveStartKey: { pk: 'q', sk: 'a#10' }, Limit: 4 }),
  query('query backwards from a start key', { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'q' }, ExclusiveStartKey: { pk: 'q', sk: 'b' }, ScanIndexForward: false }),
  query('query the last item with a limit', { KeyConditionExpression: 'pk = :p AND sk >= :s', ExpressionAttributeValues: { ':p': 'q', ':s': '\u{1F600}' }, Limit: 1 }),
  query('query with a filter after the limit', { KeyConditionExpression: 'pk = :p', FilterExpression: 'keep = :k', ExpressionAttributeValues: { ':p': 'q', ':k': true }, Limit: 4 }),
  query('query begins_with', { KeyConditionExpression: 'pk = :p AND begins_with(sk, :a)', ExpressionAttributeValues: { ':p': 'q', ':a': 'a' } }),
  query('query BETWEEN', { KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b', ExpressionAttributeValues: { ':p': 'q', ':a': 'Z', ':b': 'e' } }),
  query('query < and a projection', { KeyConditionExpression: 'pk = :p AND sk < :a', ExpressionAttributeValues: { ':p': 'q', ':a': 'a#2' }, ProjectionExpression: 'sk, i' }),
  query('query COUNT', { KeyConditionExpression: 'pk = :p', Select: 'COUNT', FilterExpression: 'i > :i', ExpressionAttributeValues: { ':p': 'q', ':i': 3 } }),
  query('query a GSI (ALL)', { IndexName: 'byName', KeyConditionExpression: 'gsi1pk = :g', ExpressionAttributeValues: { ':g': 'G' } }),
  // items with equal index keys come back in an order DynamoDB does not define
  { ...query('query an INCLUDE GSI with ties on its sort key', { IndexName: 'featured', KeyConditionExpression: 'gsi2pk = :g', ExpressionAttributeValues: { ':g': 'T' } }), unordered: true },
  query('query a GSI page by page', { IndexName: 'byName', KeyConditionExpression: 'gsi1pk = :g', ExpressionAttributeValues: { ':g': 'G' }, Limit: 4 }),
  query('query a GSI from a start key', { IndexName: 'byName', KeyConditionExpression: 'gsi1pk = :g', ExpressionAttributeValues: { ':g': 'G' }, ExclusiveStartKey: { pk: 'q', sk: 'a#10', gsi1pk: 'G', gsi1sk: '0.6' } }),
  query('query a KEYS_ONLY GSI', { IndexName: 'followers', KeyConditionExpression: 'gsi3pk = :g AND gsi3sk > :s', ExpressionAttributeValues: { ':g': 'K', ':s': 'a' }, ReturnConsumedCapacity: 'INDEXES' }),
  query('query an INCLUDE GSI', { IndexName: 'featured', KeyConditionExpression: 'gsi2pk = :g', ExpressionAttributeValues: { ':g': 'F' } }),
  query('query a KEYS_ONLY LSI', { IndexName: 'byTitle', KeyConditionExpression: 'pk = :p AND lsi1sk <= :t', ExpressionAttributeValues: { ':p': 'q', ':t': 'T5' } }),
  query('query a KEYS_ONLY LSI for every attribute', { IndexName: 'byTitle', Select: 'ALL_ATTRIBUTES', KeyConditionExpression: 'pk = :p AND lsi1sk <= :t', ExpressionAttributeValues: { ':p': 'q', ':t': 'T2' } }),
  query('query a KEYS_ONLY GSI for every attribute', { IndexName: 'followers', Select: 'ALL_ATTRIBUTES', KeyConditionExpression: 'gsi3pk = :g', ExpressionAttributeValues: { ':g': 'a' } }),
  query('query an index that does not exist', { IndexName: 'nope', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'a' } }),
  query('query a GSI strongly consistent', { IndexName: 'byName', ConsistentRead: true, KeyConditionExpression: 'gsi1pk = :p', ExpressionAttributeValues: { ':p': 'a' } }),
  query('query with limit 0', { Limit: 0, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'a' } }),
  query('query filtering on the sort key', { KeyConditionExpression: 'pk = :p', FilterExpression: 'sk = :p', ExpressionAttributeValues: { ':p': 'a' } }),
  {
    ...query('query without the partition key', { KeyConditionExpression: 'sk = :p', ExpressionAttributeValues: { ':p': 'a' } }),
    deliberate: {
      note: "DynamoDB names the key element a key condition misses ('Query condition missed key schema element: pk'), as the in-memory table does; DynamoDB Local names none",
      leaveOut: (outcome: Outcome) => ('error' in outcome ? { error: { ...(outcome.error as object), message: String((outcome.error as { message?: unknown }).message).replace(/: pk$/, '') } } : outcome),
    },
  },
  query('query from a start key outside the range', { KeyConditionExpression: 'pk = :p AND sk > :s', ExpressionAttributeValues: { ':p': 'q', ':s': 'b' }, ExclusiveStartKey: { pk: 'q', sk: 'a' } }),
  query('query from a start key without its sort key', { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'a' }, ExclusiveStartKey: { pk: 'a' } }),
  {
    name: 'batch of big items',
    command: (T) => new BatchWriteCommand({ RequestItems: { [T]: Array.from({ length: 6 }, (_, i) => ({ PutRequest: { Item: { pk: 'big', sk: String(i), data: big(300 * 1024) } } })) } }),
  },
  query('query stops at 1 MB', { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'big' }, ProjectionExpression: 'sk', ReturnConsumedCapacity: 'TOTAL' }),
  query('query stops at 1 MB, then the rest', { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'big' }, ProjectionExpression: 'sk', ExclusiveStartKey: { pk: 'big', sk: '3' } }),
  // scans
  { name: 'scan the table', run: fullScan({ ProjectionExpression: 'pk, sk' }), unordered: true },
  { name: 'scan with a filter, 3 items a page', run: fullScan({ FilterExpression: 'attribute_exists(i)', ProjectionExpression: 'pk, sk, i', Limit: 3 }), unordered: true },
  { name: 'scan a KEYS_ONLY GSI', run: fullScan({ IndexName: 'followers' }), unordered: true },
  {
    name: 'scan in 3 segments',
    run: async (send, T) => ({ Items: (await Promise.all([0, 1, 2].map((Segment) => fullScan({ Segment, TotalSegments: 3, ProjectionExpression: 'pk, sk', Limit: 2 })(send, T)))).flatMap((page) => page.Items) }),
    unordered: true,
  },
  {
    name: 'scan a KEYS_ONLY GSI filtered on an attribute it does not project',
    run: fullScan({ IndexName: 'followers', FilterExpression: 'attribute_exists(i)' }),
    unordered: true,
    deliberate: {
      note: 'DynamoDB Local filters a global index on the whole item; DynamoDB (and the in-memory table) only on what the index projects',
      leaveOut: () => ({ ok: 'left out' }),
    },
  },
  query('query a KEYS_ONLY LSI filtered on what it does not project', { IndexName: 'byTitle', KeyConditionExpression: 'pk = :p', FilterExpression: 'i > :i AND zz = :i', ExpressionAttributeValues: { ':p': 'q', ':i': 4 } }),
  query('query a KEYS_ONLY LSI for what it does not project', { IndexName: 'byTitle', KeyConditionExpression: 'pk = :p', ProjectionExpression: 'sk, i, keep', ExpressionAttributeValues: { ':p': 'q' }, Limit: 3 }),
  query('query an INCLUDE GSI filtered on what it does not project', { IndexName: 'featured', KeyConditionExpression: 'gsi2pk = :p', FilterExpression: 'i > :i', ExpressionAttributeValues: { ':p': 'T', ':i': 4 } }),
  query('query a KEYS_ONLY GSI for what it does not project', { IndexName: 'followers', KeyConditionExpression: 'gsi3pk = :p', ProjectionExpression: 'sk, i', ExpressionAttributeValues: { ':p': 'K' } }),
  { name: 'scan a KEYS_ONLY GSI for what it does not project', command: (T) => new ScanCommand({ TableName: T, IndexName: 'followers', ProjectionExpression: 'sk, i' }) },
  { name: 'scan a KEYS_ONLY LSI filtered and projected on what it does not project', run: fullScan({ IndexName: 'byTitle', FilterExpression: 'i > :i', ExpressionAttributeValues: { ':i': 4 }, ProjectionExpression: 'sk, i' }), unordered: true },
  { name: 'scan a KEYS_ONLY LSI filtered on what it does not project, 2 items a page', run: fullScan({ IndexName: 'byTitle', FilterExpression: 'attribute_exists(i)', Limit: 2, ReturnConsumedCapacity: 'INDEXES' }), unordered: true },
  { name: 'scan segment 4 of 4', command: (T) => new ScanCommand({ TableName: T, Segment: 4, TotalSegments: 4 }) },
  { name: 'scan a segment without the total', command: (T) => new ScanCommand({ TableName: T, Segment: 0 }) },
  // batches
  { name: 'batch write 26', command: (T) => new BatchWriteCommand({ RequestItems: { [T]: Array.from({ length: 26 }, (_, i) => ({ PutRequest: { Item: { pk: 'w', sk: String(i) } } })) } }) },
  { name: 'batch write one key twice', command: (T) => new BatchWriteCommand({ RequestItems: { [T]: [{ PutRequest: { Item: { pk: 'w', sk: '1' } } }, { DeleteRequest: { Key: { pk: 'w', sk: '1' } } }] } }) },
  { name: 'batch write nothing', command: (T) => new BatchWriteCommand({ RequestItems: { [T]: [] } }) },
  { name: 'batch write a big item', command: (T) => new BatchWriteCommand({ RequestItems: { [T]: [{ PutRequest: { Item: { pk: 'w', sk: '1' } } }, { PutRequest: { Item: { pk: 'w', sk: '2', x: big(410000) } } }] } }) },
  { name: 'batch write to no table', command: () => new BatchWriteCommand({ RequestItems: { 'no-such-table': [{ PutRequest: { Item: { pk: 'w', sk: '1' } } }] } }) },
  { name: 'batch write with capacity', command: (T) => new BatchWriteCommand({ RequestItems: { [T]: [{ PutRequest: { Item: { pk: 'w', sk: '1' } } }, { DeleteRequest: { Key: { pk: 'q', sk: 'A' } } }] }, ReturnConsumedCapacity: 'TOTAL' }) },
  {
    name: 'batch delete of a missing item, with capacity',
    deliberate: { note: 'DynamoDB Local charges 2 write units for deleting a missing item in a batch (1 alone); the in-memory table charges 1 either way', leaveOut: withoutCapacity },
    command: (T) => new BatchWriteCommand({ RequestItems: { [T]: [{ DeleteRequest: { Key: { pk: 'missing', sk: 'x' } } }] }, ReturnConsumedCapacity: 'TOTAL' }),
  },
  { name: 'transaction of 4 MB and more', command: (T) => new TransactWriteCommand({ TransactItems: Array.from({ length: 11 }, (_, i) => ({ Put: { TableName: T, Item: { pk: 'tx4', sk: String(i), x: big(390 * 1024) } } })) }) },
  {
    name: 'batch of 25 items of 390 KB',
    large: true,
    command: (T) => new BatchWriteCommand({ RequestItems: { [T]: Array.from({ length: 25 }, (_, i) => ({ PutRequest: { Item: { pk: 'g16', sk: String(i), x: big(390 * 1024) } } })) } }),
  },
  {
    name: 'another batch of 25 items of 390 KB',
    large: true,
    command: (T) => new BatchWriteCommand({ RequestItems: { [T]: Array.from({ length: 25 }, (_, i) => ({ PutRequest: { Item: { pk: 'g16', sk: String(25 + i), x: big(390 * 1024) } } })) } }),
  },
  {
    name: 'batch get of 19 MB: 16 MB answered, the rest unprocessed',
    large: true,
    run: async (send, T) => {
      const result = (await send(new BatchGetCommand({ RequestItems: { [T]: { Keys: Array.from({ length: 50 }, (_, i) => ({ pk: 'g16', sk: String(i) })), ProjectionExpression: 'sk' } } }))) as { Responses: Record<string, Array<{ sk: string }>>; UnprocessedKeys: Record<string, { Keys: unknown[] }> };
      return { answered: result.Responses[T]!.length, unprocessed: result.UnprocessedKeys[T]!.Keys.length };
    },
  },
  // 13 items of 200 KB whose entries in the keys-only LSI and the INCLUDE GSI are a few bytes
  {
    name: 'batch of 13 items of 200 KB in two indexes',
    large: true,
    command: (T) => new BatchWriteCommand({ RequestItems: { [T]: Array.from({ length: 13 }, (_, i) => ({ PutRequest: { Item: { pk: 'idx', sk: String(i).padStart(2, '0'), lsi1sk: String(i).padStart(2, '0'), gsi2pk: 'idx', gsi2sk: String(i).padStart(2, '0'), name: 'n', x: big(200 * 1024) } } })) } }),
  },
  ...(['byTitle', 'featured'] as const).map((index): CommandCase => ({
    name: `query of ${index === 'byTitle' ? 'a keys-only LSI' : 'an INCLUDE GSI'} over 2.6 MB of items and a few bytes of entries`,
    large: true,
    command: (T) => new QueryCommand({ TableName: T, IndexName: index, KeyConditionExpression: index === 'byTitle' ? 'pk = :p' : 'gsi2pk = :p', ExpressionAttributeValues: { ':p': 'idx' }, ReturnConsumedCapacity: 'INDEXES' }),
    deliberate: indexPaging,
  })),
  {
    name: 'query of a keys-only LSI that fetches the items: 1 MB of them',
    large: true,
    command: (T) => new QueryCommand({ TableName: T, IndexName: 'byTitle', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'idx' }, Select: 'ALL_ATTRIBUTES' }),
  },
  { name: 'batch get 101', command: (T) => new BatchGetCommand({ RequestItems: { [T]: { Keys: Array.from({ length: 101 }, (_, i) => ({ pk: 'b', sk: String(i) })) } } }) },
  { name: 'batch get one key twice', command: (T) => new BatchGetCommand({ RequestItems: { [T]: { Keys: [{ pk: 'a', sk: 'b' }, { pk: 'a', sk: 'b' }] } } }) },
  { name: 'batch get with capacity', command: (T) => new BatchGetCommand({ RequestItems: { [T]: { Keys: [{ pk: 'c', sk: 'c' }, { pk: 'zz', sk: 'b' }, { pk: 'q', sk: 'b' }] } }, ReturnConsumedCapacity: 'TOTAL' }), unordered: true },
  { name: 'batch get with a projection', command: (T) => new BatchGetCommand({ RequestItems: { [T]: { Keys: [{ pk: 'q', sk: 'a' }, { pk: 'q', sk: 'b' }], ProjectionExpression: '#i', ExpressionAttributeNames: { '#i': 'i' } } } }), unordered: true },
  // transactions
  { name: 'transaction of 101', command: (T) => new TransactWriteCommand({ TransactItems: Array.from({ length: 101 }, (_, i) => ({ Put: { TableName: T, Item: { pk: 't', sk: String(i) } } })) }) },
  { name: 'transaction writing one item twice', command: (T) => new TransactWriteCommand({ TransactItems: [{ Put: { TableName: T, Item: { pk: 't', sk: '1' } } }, { Delete: { TableName: T, Key: { pk: 't', sk: '1' } } }] }) },
  {
    name: 'transaction cancelled by a check',
    command: (T) => new TransactWriteCommand({ TransactItems: [{ Put: { TableName: T, Item: { pk: 't', sk: '1' } } }, { ConditionCheck: { TableName: T, Key: { pk: 'c', sk: 'c' }, ConditionExpression: 'attribute_not_exists(pk)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } }] }),
  },
  {
    name: 'transaction cancelled by two',
    command: (T) =>
      new TransactWriteCommand({ TransactItems: [
        { Update: { TableName: T, Key: { pk: 't', sk: '2' }, UpdateExpression: 'SET a = :a', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':a': 1 } } },
        { Delete: { TableName: T, Key: { pk: 'c', sk: 'c' }, ConditionExpression: 'n = :n', ExpressionAttributeValues: { ':n': 99 } } },
        { Put: { TableName: T, Item: { pk: 't', sk: '3' } } },
      ] }),
  },
  { name: 'transaction with a big item', command: (T) => new TransactWriteCommand({ TransactItems: [{ Put: { TableName: T, Item: { pk: 't', sk: '1', x: big(410000) } } }, { ConditionCheck: { TableName: T, Key: { pk: 'c', sk: 'c' }, ConditionExpression: 'attribute_not_exists(pk)' } }] }) },
  { name: 'transaction with an empty key', command: (T) => new TransactWriteCommand({ TransactItems: [{ Put: { TableName: T, Item: { pk: 't', sk: '' } } }] }) },
  { name: 'transaction of nothing', command: () => new TransactWriteCommand({ TransactItems: [] }) },
  { name: 'transaction with an update of the wrong type', command: (T) => new TransactWriteCommand({ TransactItems: [{ Update: { TableName: T, Key: { pk: 'c', sk: 'c' }, UpdateExpression: 'SET s = s + :v', ExpressionAttributeValues: { ':v': 1 } } }] }) },
  { name: 'transaction that writes', deliberate: transactionCapacity, command: tokenedWrites },
  // the very request again, its token the same: answered as the first was, nothing written twice
  { name: 'transaction retried with its token', deliberate: transactionCapacity, command: tokenedWrites },
  {
    name: 'transaction token reused for another request',
    deliberate: {
      note: "DynamoDB Local's IdempotentParameterMismatchException has no message (the SDK says UnknownError); the in-memory table gives DynamoDB's",
      leaveOut: (outcome: Outcome) => ('error' in outcome ? { error: { ...(outcome.error as object), message: undefined } } : outcome),
    },
    command: (T) => new TransactWriteCommand({ ClientRequestToken: T.slice(-36), TransactItems: [{ Put: { TableName: T, Item: { pk: 't', sk: '9' } } }] }) },
  { name: 'transactional get', command: (T) => new TransactGetCommand({ TransactItems: [{ Get: { TableName: T, Key: { pk: 't', sk: '2' } } }, { Get: { TableName: T, Key: { pk: 'q', sk: 'b' } } }, { Get: { TableName: T, Key: { pk: 'c', sk: 'c' }, ProjectionExpression: 'n, s' } }], ReturnConsumedCapacity: 'TOTAL' }) },
  { name: 'transactional get of one item twice', command: (T) => new TransactGetCommand({ TransactItems: [{ Get: { TableName: T, Key: { pk: 'a', sk: 'b' } } }, { Get: { TableName: T, Key: { pk: 'a', sk: 'b' } } }] }) },
];

/** A table with a number sort key and a GSI whose keys are binary: DynamoDB's order of numbers and bytes. */
export const numberAndBinaryTable = (TableName: string) => ({
  TableName,
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' as const },
    { AttributeName: 'n', AttributeType: 'N' as const },
    { AttributeName: 'bp', AttributeType: 'B' as const },
    { AttributeName: 'bs', AttributeType: 'B' as const },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' as const },
    { AttributeName: 'n', KeyType: 'RANGE' as const },
  ],
  BillingMode: 'PAY_PER_REQUEST' as const,
  GlobalSecondaryIndexes: [
    {
      IndexName: 'bytes',
      KeySchema: [
        { AttributeName: 'bp', KeyType: 'HASH' as const },
        { AttributeName: 'bs', KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'KEYS_ONLY' as const },
    },
  ],
});

const NUMBERS = [-1000.5, -3, -0.25, 0, 0.1, 2, 10, 10.5, 99, 1e15];
const BYTES = [[0], [1], [1, 0], [1, 255], [2], [127], [128], [255], [255, 0]];

export const numberAndBinaryCases: readonly CommandCase[] = [
  {
    name: 'numbers and bytes as keys',
    command: (T) => new BatchWriteCommand({ RequestItems: { [T]: NUMBERS.map((n, i) => ({ PutRequest: { Item: { pk: 'p', n, bp: new Uint8Array([7]), bs: new Uint8Array(BYTES[i % BYTES.length]!) } } })) } }),
  },
  query('numbers in order', { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'p' } }),
  query('numbers backwards, 3 a page', { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'p' }, ScanIndexForward: false, Limit: 3 }),
  query('numbers between', { KeyConditionExpression: 'pk = :p AND n BETWEEN :a AND :b', ExpressionAttributeValues: { ':p': 'p', ':a': -3, ':b': 10 } }),
  query('numbers below 0.1', { KeyConditionExpression: 'pk = :p AND n < :a', ExpressionAttributeValues: { ':p': 'p', ':a': 0.1 } }),
  query('numbers from a start key', { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'p' }, ExclusiveStartKey: { pk: 'p', n: 0 } }),
  query('bytes in order', { IndexName: 'bytes', KeyConditionExpression: 'bp = :b', ExpressionAttributeValues: { ':b': new Uint8Array([7]) } }),
  query('bytes above [1, 0]', { IndexName: 'bytes', KeyConditionExpression: 'bp = :b AND bs > :s', ExpressionAttributeValues: { ':b': new Uint8Array([7]), ':s': new Uint8Array([1, 0]) } }),
  query('bytes beginning with 1', { IndexName: 'bytes', KeyConditionExpression: 'bp = :b AND begins_with(bs, :s)', ExpressionAttributeValues: { ':b': new Uint8Array([7]), ':s': new Uint8Array([1]) } }),
  { name: 'get by a number key', command: (T) => new GetCommand({ TableName: T, Key: { pk: 'p', n: 10.5 } }) },
  { name: 'get by a number key written otherwise', command: (T) => new GetCommand({ TableName: T, Key: { pk: 'p', n: NumberValue.from('10.50') } }) },
  { name: 'put an empty binary index key', command: (T) => new PutCommand({ TableName: T, Item: { pk: 'p', n: 1, bp: new Uint8Array([]) } }) },
  { name: 'update an index key to empty bytes', command: (T) => new UpdateCommand({ TableName: T, Key: { pk: 'p', n: 2 }, UpdateExpression: 'SET bs = :e', ExpressionAttributeValues: { ':e': new Uint8Array([]) } }) },
  { name: 'put a 2049-byte binary index key', deliberate: keySizeWords, command: (T) => new PutCommand({ TableName: T, Item: { pk: 'p', n: 1, bp: new Uint8Array(2049) } }) },
  { name: 'get with a key of the wrong type', command: (T) => new GetCommand({ TableName: T, Key: { pk: 'p', n: '2' } }) },
];
