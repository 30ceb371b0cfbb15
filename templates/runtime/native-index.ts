// Queries on native multi-attribute GSIs: an index keyed by up to 4 + 4 of the items' own
// attributes, with no synthetic key string (copied into an output only when its schema has one;
// the copies a renamed mapping writes are the repository's). A query takes equality on every
// partition attribute and a sort condition on a left-to-right prefix of the sort attributes:
// equality on all but the last given, which may be a range — what DynamoDB's KeyConditionExpression allows.

import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { decodeCursor, encodeCursor, isKey, type CursorScope, type PositionCheck } from './cursor.js';
import { ValidationError } from './errors.js';
import { ExpressionAliases } from './expression.js';
import { unexpired } from './expiry.js';
import { checkValue, fromStored, hasDiscriminator, kindOf, propertyNamed, toStored } from './item.js';
import { parseExactKey, parseKey } from './codec.js';
import type { IndexQueryOptions, Page } from './read.js';
import type { EntityModel, NativeIndexModel, TableContext } from './repository.js';

/**
 * A range on the last sort attribute a condition gives: exactly one operator. `beginsWith` is a
 * text prefix of what the table stores: a string, or a timestamp's ISO-8601 text (`'2026-01'` is
 * January 2026); `Text` is false for a timestamp stored as a number (the table's TTL attribute,
 * epoch seconds), which has no text to prefix.
 */
export type NativeRange<T, Text extends boolean = T extends string | Date ? true : false> =
  | { readonly gt: T; readonly gte?: never; readonly lt?: never; readonly lte?: never; readonly between?: never; readonly beginsWith?: never }
  | { readonly gt?: never; readonly gte: T; readonly lt?: never; readonly lte?: never; readonly between?: never; readonly beginsWith?: never }
  | { readonly gt?: never; readonly gte?: never; readonly lt: T; readonly lte?: never; readonly between?: never; readonly beginsWith?: never }
  | { readonly gt?: never; readonly gte?: never; readonly lt?: never; readonly lte: T; readonly between?: never; readonly beginsWith?: never }
  | { readonly gt?: never; readonly gte?: never; readonly lt?: never; readonly lte?: never; readonly between: readonly [T, T]; readonly beginsWith?: never }
  | (Text extends true ? { readonly gt?: never; readonly gte?: never; readonly lt?: never; readonly lte?: never; readonly between?: never; readonly beginsWith: string } : never);

const RANGE_OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const OPERATORS = [...Object.keys(RANGE_OPERATORS), 'between', 'beginsWith'];

/** A plain object whose one key is a range operator (a Date or Uint8Array value is not). */
function isRange(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function indexOf(model: EntityModel, name: string): NativeIndexModel {
  const index = model.nativeIndexes?.find((i) => i.name === name);
  if (!index) throw new ValidationError(model.name, name, 'is not a native index of this entity');
  return index;
}

/** The Query input of a native-index query, without sending it; `start` is a decoded cursor position. */
export function nativeQueryInput(ctx: TableContext, model: EntityModel, scope: string, indexName: string, partition: Readonly<Record<string, unknown>>, options: IndexQueryOptions<object>, start?: Readonly<Record<string, unknown>>): QueryCommandInput {
  const index = indexOf(model, indexName);
  const aliases = new ExpressionAliases();
  // every value is checked against its attribute's declared type before it is sent (untyped input included)
  const value = (source: string, v: unknown) => {
    const type = model.types?.[source];
    if (type !== undefined) checkValue(model.name, source, type, v);
    return aliases.value(toStored(model.name, model.codecs, { [source]: v })[source]);
  };
  const conditions = index.partition.map(([attribute, source]) => {
    const v = partition[source];
    if (v === undefined || v === null || v === '') throw new ValidationError(model.name, source, `is part of the partition key of index "${indexName}": every partition attribute needs a value`);
    return `${aliases.name(attribute)} = ${value(source, v)}`;
  });
  const where = (options.where ?? {}) as Readonly<Record<string, unknown>>;
  const given = index.sort.filter(([, source]) => where[source] !== undefined);
  const known = new Set(index.sort.map(([, source]) => source));
  for (const name of Object.keys(where)) {
    if (!known.has(name)) throw new ValidationError(model.name, name, `is not a sort attribute of index "${indexName}" (${index.sort.map(([, s]) => s).join(', ')})`);
  }
  index.sort.forEach(([, source], position) => {
    if (where[source] === undefined && position < given.length) throw new ValidationError(model.name, source, `the sort condition of index "${indexName}" skips it: give the sort attributes left to right (${index.sort.map(([, s]) => s).join(', ')})`);
  });
  given.forEach(([attribute, source], position) => {
    const v = where[source];
    const name = aliases.name(attribute);
    if (!isRange(v)) return conditions.push(`${name} = ${value(source, v)}`);
    const ops = Object.keys(v);
    if (position !== given.length - 1) throw new ValidationError(model.name, source, `a range is allowed only on the last sort attribute given; ${source} is followed by ${given[position + 1]![1]}, so it takes one value`);
    if (ops.length !== 1 || !OPERATORS.includes(ops[0]!)) throw new ValidationError(model.name, source, `a range is one of ${OPERATORS.join(', ')}, got ${ops.join(', ') || 'nothing'}`);
    const op = ops[0]!;
    if (op === 'between') {
      if (!Array.isArray(v.between) || v.between.length !== 2) throw new ValidationError(model.name, source, `between takes [low, high], not ${kindOf(v.between)}`);
      const [low, high] = v.between as unknown[];
      return conditions.push(`${name} BETWEEN ${value(source, low)} AND ${value(source, high)}`);
    }
    if (op === 'beginsWith') {
      const kind = model.types?.[source]?.kind;
      const codec = model.codecs[source];
      if (kind === 'number' || kind === 'binary' || (typeof codec === 'object' && 'epochSeconds' in codec)) throw new ValidationError(model.name, source, `beginsWith matches text, and ${source} is stored as a ${kind === 'binary' ? 'binary value' : 'number'}: use gt, gte, lt, lte or between`);
      if (typeof v.beginsWith !== 'string' || v.beginsWith === '') throw new ValidationError(model.name, source, 'beginsWith takes the non-empty text the stored value starts with');
      return conditions.push(`begins_with(${name}, ${aliases.value(v.beginsWith)})`);
    }
    return conditions.push(`${name} ${RANGE_OPERATORS[op as keyof typeof RANGE_OPERATORS]} ${value(source, v[op])}`);
  });
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) throw new ValidationError(scope, '(limit)', `limit must be a positive integer, got ${options.limit}`);
  return {
    TableName: ctx.tableName,
    IndexName: indexName,
    KeyConditionExpression: conditions.join(' AND '),
    ...aliases.attributes(),
    ...(options.order === 'desc' ? { ScanIndexForward: false } : {}),
    ...(options.limit !== undefined ? { Limit: options.limit } : {}),
    ...(start !== undefined ? { ExclusiveStartKey: start } : {}),
  };
}

/**
 * Checks a cursor position against a native-index query: exactly the key attributes of the table
 * and the index, the index's partition attributes holding the queried values. A cursor that passes
 * resumes the same query in its own partition.
 */
function nativePositionCheck(model: EntityModel, index: NativeIndexModel, partition: Readonly<Record<string, unknown>>): PositionCheck {
  const wanted = [...new Set([model.pk.attribute, ...(model.sk ? [model.sk.attribute] : []), ...[...index.partition, ...index.sort].map(([attribute]) => attribute)])].sort();
  return (position) => {
    if (!isKey(position)) return 'its position is not a key';
    const names = Object.keys(position).sort();
    if (names.length !== wanted.length || names.some((n, i) => n !== wanted[i])) return `its position does not hold exactly this query's key attributes (${wanted.join(', ')})`;
    for (const [attribute, source] of index.partition) {
      if (position[attribute] !== toStored(model.name, model.codecs, { [source]: partition[source] })[source]) return 'its position is in another partition than this query reads';
    }
    return undefined;
  };
}

/** Whether a stored record is the entity's: its discriminator, where the index projects it, and its table key parse as the entity's (other entities may share the index). */
function owns(model: EntityModel, stored: Readonly<Record<string, unknown>>, projected: boolean): boolean {
  if (!hasDiscriminator(model, stored, projected)) return false;
  try {
    for (const { attribute, template } of [model.pk, ...(model.sk ? [model.sk] : [])]) {
      const key = stored[attribute];
      if (typeof key !== 'string') return false;
      parseKey(template, key);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * A stored record as the entity's item, or the part of it an index projects: the attributes it
 * holds, renamed copies read back under the entity's names, and the table key's exact parts.
 */
export function nativeRecord<T>(model: EntityModel, indexName: string, stored: Readonly<Record<string, unknown>>): T {
  const index = indexOf(model, indexName);
  const renamed = [...index.partition, ...index.sort].filter(([attribute, source]) => attribute !== source && !(source in stored) && attribute in stored);
  // attributes the table holds under other names read back under their own (storedAs)
  const out = fromStored<Record<string, unknown>>(model.name, model.codecs, propertyNamed(model, { ...stored, ...Object.fromEntries(renamed.map(([attribute, source]) => [source, stored[attribute]])) }), model.keyAttributes, model.passthrough ? undefined : model.attributes);
  for (const { attribute, template } of [model.pk, ...(model.sk ? [model.sk] : [])]) {
    const key = stored[attribute];
    if (typeof key !== 'string') continue;
    for (const [name, value] of Object.entries(parseExactKey(template, key))) if (!(name in out)) out[name] = value;
  }
  return out as T;
}

/** One page of a native-index query: items of other entities in the index are skipped; `cursor` continues. */
export async function queryNativePage<T>(ctx: TableContext, model: EntityModel, method: string, indexName: string, partition: Readonly<Record<string, unknown>>, options: IndexQueryOptions<object>): Promise<Page<T>> {
  const query = `${model.name}.${method}`;
  const scope: CursorScope = { table: ctx.tableName, index: indexName, query, params: { partition, where: options.where, order: options.order ?? 'asc' } };
  const start = options.cursor === undefined ? undefined : await decodeCursor(options.cursor, scope, ctx.cursor, nativePositionCheck(model, indexOf(model, indexName), partition));
  const result = await ctx.client.send(new QueryCommand(nativeQueryInput(ctx, model, query, indexName, partition, options, start)));
  // items another entity owns are skipped, and so are items whose TTL has passed (unless includeExpired), as every read does
  const keep = unexpired(ctx, options);
  const projected = indexOf(model, indexName).withoutDiscriminator !== true;
  const items = (result.Items ?? []).filter((stored) => owns(model, stored, projected) && keep(stored)).map((stored) => nativeRecord<T>(model, indexName, stored));
  return result.LastEvaluatedKey ? { items, cursor: await encodeCursor(scope, result.LastEvaluatedKey, ctx.cursor) } : { items };
}
