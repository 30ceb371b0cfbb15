// Random operation sequences for the differential suite: requests on the Social table's definition
// (three GSIs with ALL, INCLUDE and KEYS_ONLY projections, a KEYS_ONLY LSI) over a small key space,
// so that writes collide, conditions fail, updates meet missing or mistyped attributes, queries
// page through partitions and indexes with limits, filters and both orders, transactions cancel and
// batches overlap. Index sort keys end with the item's table key: items with equal index keys come
// back in an order DynamoDB leaves open.
import fc from 'fast-check';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

export type Send = (command: object) => Promise<unknown>;

const PKS = ['p0', 'p1', 'p2'];
const SKS = ['a', 'a#1', 'b', 'B', 'é', '😀'];
const key = fc.record({ pk: fc.constantFrom(...PKS), sk: fc.constantFrom(...SKS) });
type Key = { pk: string; sk: string };
const number = fc.constantFrom(-2.5, 0, 0.1, 1, 3, 12);
const text = fc.constantFrom('x', 'y', 'xy', 'é', '');

/** An item of the key, with attributes drawn for the table and its indexes (index sort keys end with the table key). */
const item = (k: Key) =>
  fc
    .record(
      {
        n: number,
        s: text,
        tags: fc.uniqueArray(fc.constantFrom('t1', 't2', 't3'), { minLength: 1, maxLength: 3 }).map((a) => new Set(a)),
        l: fc.array(fc.oneof(number, text), { maxLength: 3 }),
        g: fc.constantFrom('G0', 'G1'),
        f: fc.constantFrom('F0', 'F1'),
        k: fc.constantFrom('K0', 'K1'),
        v: fc.constantFrom('0', '1', '2'),
        name: text,
        views: number,
      },
      { requiredKeys: ['n'] },
    )
    .map(({ g, f, k: keys, v, ...rest }) => ({
      ...k,
      ...rest,
      ...(g ? { gsi1pk: g, gsi1sk: `${v ?? '0'}.${k.pk}.${k.sk}` } : {}),
      ...(f ? { gsi2pk: f, gsi2sk: `${v ?? '1'}.${k.pk}.${k.sk}` } : {}),
      ...(keys ? { gsi3pk: keys, gsi3sk: `${k.pk}.${k.sk}` } : {}),
      ...(v ? { lsi1sk: `${v}.${k.sk}` } : {}),
    }));

/** A condition on an item, as a ConditionExpression and the aliases it needs. */
const condition = fc.oneof(
  fc.constant({ ConditionExpression: 'attribute_not_exists(pk)' }),
  fc.constant({ ConditionExpression: 'attribute_exists(#s)', ExpressionAttributeNames: { '#s': 's' } }),
  number.map((n) => ({ ConditionExpression: '#n < :c', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':c': n } })),
  text.map((s) => ({ ConditionExpression: 'begins_with(#s, :c) OR size(#l) > :z', ExpressionAttributeNames: { '#s': 's', '#l': 'l' }, ExpressionAttributeValues: { ':c': s, ':z': 1 } })),
  fc.constant({ ConditionExpression: 'contains(#t, :c) AND NOT #n BETWEEN :lo AND :hi', ExpressionAttributeNames: { '#t': 'tags', '#n': 'n' }, ExpressionAttributeValues: { ':c': 't1', ':lo': 0, ':hi': 2 } }),
);

/** One clause of an update expression over attribute #a (and, for arithmetic, #n). */
const updateAction = fc.oneof(
  text.map((s) => ({ clause: 'SET', text: '#s = :s', names: { '#s': 's' }, values: { ':s': s } })),
  number.map((d) => ({ clause: 'SET', text: '#n = #n + :d', names: { '#n': 'n' }, values: { ':d': d } })),
  number.map((d) => ({ clause: 'SET', text: '#v = if_not_exists(#v, :z) - :w', names: { '#v': 'views' }, values: { ':z': 0, ':w': d } })),
  fc.constantFrom('x', 'y').map((e) => ({ clause: 'SET', text: '#l = list_append(if_not_exists(#l, :e), :i)', names: { '#l': 'l' }, values: { ':e': [], ':i': [e] } })),
  fc.constant({ clause: 'SET', text: '#l[1] = :x', names: { '#l': 'l' }, values: { ':x': 'set' } }),
  fc.constantFrom('G0', 'G1').map((g) => ({ clause: 'SET', text: '#gp = :g, #gs = #s', names: { '#gp': 'gsi1pk', '#gs': 'gsi1sk', '#s': 's' }, values: { ':g': g } })),
  fc.constant({ clause: 'REMOVE', text: '#s, #gp', names: { '#s': 's', '#gp': 'gsi1pk' }, values: {} }),
  fc.constant({ clause: 'REMOVE', text: '#l[0]', names: { '#l': 'l' }, values: {} }),
  number.map((d) => ({ clause: 'ADD', text: '#n :d', names: { '#n': 'n' }, values: { ':d': d } })),
  fc.constantFrom('t1', 't4').map((t) => ({ clause: 'ADD', text: '#t :t', names: { '#t': 'tags' }, values: { ':t': new Set([t]) } })),
  fc.constantFrom('t1', 't2').map((t) => ({ clause: 'DELETE', text: '#t :t', names: { '#t': 'tags' }, values: { ':t': new Set([t]) } })),
);

/** Update actions on distinct attributes, joined clause by clause. */
const update = fc.uniqueArray(updateAction, { minLength: 1, maxLength: 3, selector: (a) => Object.values(a.names).sort().join() }).filter((actions) => {
  const touched = actions.flatMap((a) => Object.values(a.names));
  return new Set(touched).size === touched.length || actions.length === 1;
}).map((actions) => {
  const clauses = new Map<string, string[]>();
  for (const a of actions) clauses.set(a.clause, [...(clauses.get(a.clause) ?? []), a.text]);
  return {
    UpdateExpression: [...clauses].map(([clause, parts]) => `${clause} ${parts.join(', ')}`).join(' '),
    ExpressionAttributeNames: Object.assign({}, ...actions.map((a) => a.names)) as Record<string, string>,
    ExpressionAttributeValues: Object.assign({}, ...actions.map((a) => a.values)) as Record<string, unknown>,
  };
});

/** Merges a condition's aliases into a request's. */
function withCondition(input: Record<string, unknown>, extra: { ConditionExpression: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> } | null) {
  if (!extra) return input;
  const names = { ...(input.ExpressionAttributeNames as object), ...extra.ExpressionAttributeNames };
  const values = { ...(input.ExpressionAttributeValues as object), ...extra.ExpressionAttributeValues };
  return { ...input, ConditionExpression: extra.ConditionExpression, ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}), ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}) };
}

const sortCondition = fc.oneof(
  fc.constant(undefined),
  fc.tuple(fc.constantFrom('=', '<', '<=', '>', '>='), fc.constantFrom(...SKS, 'a#')).map(([op, v]) => ({ text: `#k ${op} :k`, values: { ':k': v } })),
  fc.constantFrom('a', 'B', 'a#').map((v) => ({ text: 'begins_with(#k, :k)', values: { ':k': v } })),
  fc.tuple(fc.constantFrom(...SKS), fc.constantFrom(...SKS)).map(([a, b]) => ({ text: '#k BETWEEN :lo AND :hi', values: a <= b ? { ':lo': a, ':hi': b } : { ':lo': b, ':hi': a } })),
);

/** Every page of a query, following LastEvaluatedKey. */
async function allPages(send: Send, input: Record<string, unknown>) {
  const pages: unknown[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = (await send(new QueryCommand({ ...input, ...(start ? { ExclusiveStartKey: start } : {}) } as never))) as { LastEvaluatedKey?: Record<string, unknown> };
    pages.push(page);
    start = page.LastEvaluatedKey;
  } while (start && pages.length < 20);
  return pages;
}

export interface Operation {
  readonly label: string;
  readonly run: (send: Send, table: string) => Promise<unknown>;
}

const put = fc.tuple(key.chain(item), fc.option(condition, { freq: 2 }), fc.constantFrom('NONE', 'ALL_OLD')).map(([it, cond, ReturnValues]): Operation => ({
  label: `put ${it.pk}/${it.sk}${cond ? ` if ${cond.ConditionExpression}` : ''}`,
  run: (send, T) => send(new PutCommand(withCondition({ TableName: T, Item: it, ReturnValues, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }, cond) as never)),
}));

const updateOp = fc.tuple(key, update, fc.option(condition, { freq: 3 }), fc.constantFrom('NONE', 'ALL_NEW', 'ALL_OLD', 'UPDATED_NEW', 'UPDATED_OLD')).map(([k, u, cond, ReturnValues]): Operation => ({
  label: `update ${k.pk}/${k.sk} ${u.UpdateExpression}${cond ? ` if ${cond.ConditionExpression}` : ''}`,
  run: (send, T) => send(new UpdateCommand(withCondition({ TableName: T, Key: k, ...u, ...(Object.keys(u.ExpressionAttributeValues).length ? {} : { ExpressionAttributeValues: undefined }), ReturnValues, ReturnConsumedCapacity: 'INDEXES' }, cond) as never)),
}));

const deleteOp = fc.tuple(key, fc.option(condition, { freq: 2 })).map(([k, cond]): Operation => ({
  label: `delete ${k.pk}/${k.sk}${cond ? ` if ${cond.ConditionExpression}` : ''}`,
  run: (send, T) => send(new DeleteCommand(withCondition({ TableName: T, Key: k, ReturnValues: 'ALL_OLD', ReturnConsumedCapacity: 'TOTAL' }, cond) as never)),
}));

const getOp = fc.tuple(key, fc.boolean(), fc.boolean()).map(([k, ConsistentRead, projected]): Operation => ({
  label: `get ${k.pk}/${k.sk}`,
  run: (send, T) => send(new GetCommand({ TableName: T, Key: k, ConsistentRead, ReturnConsumedCapacity: 'TOTAL', ...(projected ? { ProjectionExpression: '#n, tags, l[0], nope', ExpressionAttributeNames: { '#n': 'n' } } : {}) })),
}));

const queryOp = fc
  .tuple(fc.constantFrom(...PKS), sortCondition, fc.option(fc.integer({ min: 1, max: 4 })), fc.boolean(), fc.boolean())
  .map(([pk, sk, limit, forward, filtered]): Operation => ({
    label: `query ${pk}${sk ? ` ${sk.text} ${JSON.stringify(sk.values)}` : ''}${limit ? ` limit ${limit}` : ''}${forward ? '' : ' desc'}${filtered ? ' filtered' : ''}`,
    run: (send, T) =>
      allPages(send, {
        TableName: T,
        KeyConditionExpression: `#p = :p${sk ? ` AND ${sk.text}` : ''}`,
        ExpressionAttributeNames: { '#p': 'pk', ...(sk ? { '#k': 'sk' } : {}), ...(filtered ? { '#n': 'n' } : {}) },
        ExpressionAttributeValues: { ':p': pk, ...sk?.values, ...(filtered ? { ':f': 1 } : {}) },
        ...(filtered ? { FilterExpression: '#n >= :f' } : {}),
        ...(limit ? { Limit: limit } : {}),
        ScanIndexForward: forward,
        ReturnConsumedCapacity: 'TOTAL',
      }),
  }));

const INDEXES = [
  { name: 'byName', pk: 'gsi1pk', sk: 'gsi1sk', values: ['G0', 'G1'] },
  { name: 'featured', pk: 'gsi2pk', sk: 'gsi2sk', values: ['F0', 'F1'] },
  { name: 'followers', pk: 'gsi3pk', sk: 'gsi3sk', values: ['K0', 'K1'] },
  { name: 'byTitle', pk: 'pk', sk: 'lsi1sk', values: PKS },
];
const indexQueryOp = fc
  .tuple(fc.constantFrom(...INDEXES), fc.nat(), fc.option(fc.constantFrom('0', '1', '1.p1', '2')), fc.option(fc.integer({ min: 1, max: 3 })), fc.boolean())
  .map(([index, at, from, limit, forward]): Operation => {
    const partition = index.values[at % index.values.length]!;
    return {
      label: `query ${index.name} ${partition}${from ? ` from ${from}` : ''}${limit ? ` limit ${limit}` : ''}${forward ? '' : ' desc'}`,
      run: (send, T) =>
        allPages(send, {
          TableName: T,
          IndexName: index.name,
          KeyConditionExpression: `#p = :p${from ? ' AND #k >= :k' : ''}`,
          ExpressionAttributeNames: { '#p': index.pk, ...(from ? { '#k': index.sk } : {}) },
          ExpressionAttributeValues: { ':p': partition, ...(from ? { ':k': from } : {}) },
          ...(limit ? { Limit: limit } : {}),
          ScanIndexForward: forward,
          ReturnConsumedCapacity: 'INDEXES',
        }),
    };
  });

const transactionOp = fc
  .uniqueArray(fc.tuple(key, fc.nat(3)), { minLength: 1, maxLength: 4, selector: ([k]) => `${k.pk}/${k.sk}` })
  .chain((entries) => fc.tuple(fc.constant(entries), fc.tuple(...entries.map(([k, kind]) => (kind === 0 ? item(k) : kind === 1 ? update : fc.constant(null)))), fc.array(fc.option(condition, { freq: 2 }), { minLength: entries.length, maxLength: entries.length })))
  .map(([entries, bodies, conditions]): Operation => ({
    label: `transaction ${entries.map(([k, kind]) => `${['Put', 'Update', 'Delete', 'ConditionCheck'][kind]} ${k.pk}/${k.sk}`).join(', ')}`,
    run: (send, T) =>
      send(
        new TransactWriteCommand({
          TransactItems: entries.map(([k, kind], i) => {
            const cond = conditions[i] ?? null;
            const failure = { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' };
            if (kind === 0) return { Put: withCondition({ TableName: T, Item: bodies[i], ...failure }, cond) };
            if (kind === 1) {
              const u = bodies[i] as { UpdateExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, unknown> };
              return { Update: withCondition({ TableName: T, Key: k, ...u, ...(Object.keys(u.ExpressionAttributeValues).length ? {} : { ExpressionAttributeValues: undefined }), ...failure }, cond) };
            }
            if (kind === 2) return { Delete: withCondition({ TableName: T, Key: k, ...failure }, cond) };
            return { ConditionCheck: withCondition({ TableName: T, Key: k, ...failure }, cond ?? { ConditionExpression: 'attribute_exists(pk)' }) };
          }),
        } as never),
      ),
  }));

const batchWriteOp = fc.uniqueArray(fc.tuple(key, fc.boolean()), { minLength: 1, maxLength: 6, selector: ([k]) => `${k.pk}/${k.sk}` }).chain((entries) =>
  fc.tuple(...entries.map(([k, isPut]) => (isPut ? item(k).map((it) => ({ PutRequest: { Item: it } })) : fc.constant({ DeleteRequest: { Key: k } })))).map((requests): Operation => ({
    label: `batch write ${JSON.stringify(requests, (_, v) => (v instanceof Set ? [...v] : v))}`,
    // without capacity: DynamoDB Local charges 2 units for deleting a missing item in a batch (command-cases.ts)
    run: (send, T) => send(new BatchWriteCommand({ RequestItems: { [T]: requests } } as never)),
  })),
);

const batchGetOp = fc.uniqueArray(key, { minLength: 1, maxLength: 5, selector: (k) => `${k.pk}/${k.sk}` }).map((keys): Operation => ({
  label: `batch get ${keys.length}`,
  run: async (send, T) => {
    const result = (await send(new BatchGetCommand({ RequestItems: { [T]: { Keys: keys, ConsistentRead: true } } }))) as { Responses?: Record<string, Array<Record<string, unknown>>> };
    // the order of the items in a response is not defined
    for (const items of Object.values(result.Responses ?? {})) items.sort((a, b) => (`${a.pk}/${a.sk}` < `${b.pk}/${b.sk}` ? -1 : 1));
    return result;
  },
}));

/** A whole scan (of the table or an index, in segments or not, filtered or not), page by page: its items sorted, as DynamoDB leaves a scan's order open. */
const scanOp = fc
  .tuple(fc.option(fc.constantFrom('byName', 'followers', 'byTitle')), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 }), fc.boolean())
  // a filter on what a KEYS_ONLY GSI does not project: a deliberate difference (command-cases.ts)
  .map(([index, limit, segments, filtered]) => [index, limit, segments, filtered && index !== 'followers'] as const)
  .map(([index, limit, segments, filtered]): Operation => ({
    label: `scan${index ? ` ${index}` : ''} limit ${limit} in ${segments} segment(s)${filtered ? ' filtered' : ''}`,
    run: async (send, T) => {
      const items: Array<Record<string, unknown>> = [];
      let scanned = 0;
      for (let segment = 0; segment < segments; segment++) {
        let start: Record<string, unknown> | undefined;
        do {
          const page = (await send(
            new ScanCommand({
              TableName: T,
              ...(index ? { IndexName: index } : {}),
              Limit: limit,
              ...(segments > 1 ? { Segment: segment, TotalSegments: segments } : {}),
              ...(filtered ? { FilterExpression: 'attribute_exists(#t)', ExpressionAttributeNames: { '#t': 'tags' } } : {}),
              ...(start ? { ExclusiveStartKey: start } : {}),
            }),
          )) as { Items?: Array<Record<string, unknown>>; ScannedCount?: number; LastEvaluatedKey?: Record<string, unknown> };
          items.push(...(page.Items ?? []));
          scanned += page.ScannedCount ?? 0;
          start = page.LastEvaluatedKey;
        } while (start);
      }
      return { items: items.sort((a, b) => (`${a.pk}/${a.sk}` < `${b.pk}/${b.sk}` ? -1 : 1)), scanned };
    },
  }));

/** A sequence of operations, writes weighted over reads. */
export const operations = (maxLength: number) =>
  fc.array(
    fc.oneof(
      { arbitrary: put, weight: 4 },
      { arbitrary: updateOp, weight: 4 },
      { arbitrary: deleteOp, weight: 1 },
      { arbitrary: getOp, weight: 1 },
      { arbitrary: queryOp, weight: 2 },
      { arbitrary: indexQueryOp, weight: 2 },
      { arbitrary: transactionOp, weight: 2 },
      { arbitrary: batchWriteOp, weight: 1 },
      { arbitrary: batchGetOp, weight: 1 },
      { arbitrary: scanOp, weight: 1 },
    ),
    { minLength: 1, maxLength, size: 'medium' },
  );
