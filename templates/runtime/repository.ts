// The operations behind every generated repository. Generated classes are thin typed wrappers over
// these functions and an `EntityModel` constant, so the behaviour lives here, tested once.

import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { KeyTemplate } from './codec.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { ItemExistsError, ItemNotFoundError, ValueError, isConditionalCheckFailed } from './errors.js';
import { ExpressionAliases, updateExpression, type UpdateChanges } from './expression.js';
import { emptySets, fromStored, toStored, type AttributeCodecs } from './item.js';
import { planSortCondition, renderSortCondition } from './key-condition.js';

/** Where generated repositories send their commands. */
export interface TableContext {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
}

export interface KeyAttributeModel {
  /** Physical attribute name, e.g. `pk` or `gsi1pk`. */
  readonly attribute: string;
  readonly template: KeyTemplate;
}

/** How an entity's items appear in one secondary index. */
export interface IndexModel {
  readonly name: string;
  /** Absent for an LSI, which shares the table's partition key. */
  readonly pk?: KeyAttributeModel;
  readonly sk?: KeyAttributeModel;
  /** Optional attributes the mapping reads: the item is in the index only when all are present. */
  readonly optional: readonly string[];
}

/** An entity's keys and conversions, emitted as a constant per entity. */
export interface EntityModel {
  readonly name: string;
  readonly pk: KeyAttributeModel;
  readonly sk: KeyAttributeModel | undefined;
  readonly indexes: readonly IndexModel[];
  readonly codecs: AttributeCodecs;
  /** Every key attribute of the table and its indexes: added on write, stripped on read. */
  readonly keyAttributes: readonly string[];
  /** Attributes read by any key template: `update` cannot change them (the keys would drift). */
  readonly keyParts: readonly string[];
}

/** The table key of an item, from the attributes its key templates name. */
export function primaryKey(model: EntityModel, values: Readonly<Record<string, unknown>>): Record<string, string> {
  const key: Record<string, string> = { [model.pk.attribute]: model.pk.template.build(values) };
  if (model.sk) key[model.sk.attribute] = model.sk.template.build(values);
  return key;
}

/**
 * The index keys of an item. A mapping that reads optional attributes is sparse: its keys are
 * written when all of them are present and left out when none is; some but not all is an error.
 */
export function indexKeys(model: EntityModel, item: Readonly<Record<string, unknown>>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const index of model.indexes) {
    const missing = index.optional.filter((name) => item[name] === undefined || item[name] === null);
    if (missing.length === index.optional.length && missing.length > 0) continue;
    if (missing.length > 0) {
      const present = index.optional.filter((name) => !missing.includes(name));
      throw new ValueError(model.name, missing[0]!, `index "${index.name}" needs ${index.optional.join(', ')} together: ${present.join(', ')} given without ${missing.join(', ')}`);
    }
    if (index.pk) keys[index.pk.attribute] = index.pk.template.build(item);
    if (index.sk) keys[index.sk.attribute] = index.sk.template.build(item);
  }
  return keys;
}

/** The full stored record of an item: its converted attributes plus its table and index keys. */
export function storedItem(model: EntityModel, item: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const keys = { ...indexKeys(model, item), ...primaryKey(model, item) };
  for (const name of Object.keys(item)) {
    if (model.keyAttributes.includes(name)) throw new ValueError(model.name, name, 'is a key attribute of the table; ddbgen writes it from the key templates');
  }
  return { ...toStored(model.name, model.codecs, item), ...keys };
}

export interface ReadOptions {
  /** Strongly consistent read (twice the read units). */
  readonly consistent?: boolean;
}

export async function getItem<T>(ctx: TableContext, model: EntityModel, key: Readonly<Record<string, unknown>>, options: ReadOptions = {}): Promise<T | undefined> {
  const result = await ctx.client.send(
    new GetCommand({ TableName: ctx.tableName, Key: primaryKey(model, key), ...(options.consistent ? { ConsistentRead: true } : {}) }),
  );
  return result.Item ? fromStored<T>(model.name, model.codecs, result.Item, model.keyAttributes) : undefined;
}

/** Writes an item. With `create`, fails with `ItemExistsError` if an item with its key exists. */
export async function putItem<T>(ctx: TableContext, model: EntityModel, item: T, mode: 'put' | 'create'): Promise<T> {
  const record = storedItem(model, item as Record<string, unknown>);
  const aliases = new ExpressionAliases();
  const condition = mode === 'create' ? `attribute_not_exists(${aliases.name(model.pk.attribute)})` : undefined;
  try {
    await ctx.client.send(
      new PutCommand({ TableName: ctx.tableName, Item: record, ...(condition ? { ConditionExpression: condition, ...aliases.attributes() } : {}) }),
    );
  } catch (error) {
    if (mode === 'create' && isConditionalCheckFailed(error)) throw new ItemExistsError(model.name, primaryKey(model, record), error);
    throw error;
  }
  return item;
}

export interface UpdateInput {
  readonly set?: Readonly<Record<string, unknown>>;
  readonly remove?: readonly string[];
  readonly add?: Readonly<Record<string, unknown>>;
  readonly append?: Readonly<Record<string, readonly unknown[]>>;
}

/** Updates an existing item and returns it; `ItemNotFoundError` if there is none. */
export async function updateItem<T>(ctx: TableContext, model: EntityModel, key: Readonly<Record<string, unknown>>, changes: UpdateInput): Promise<T> {
  const tableKey = primaryKey(model, key);
  for (const attribute of [...Object.keys(changes.set ?? {}), ...(changes.remove ?? []), ...Object.keys(changes.add ?? {}), ...Object.keys(changes.append ?? {})]) {
    if (model.keyAttributes.includes(attribute)) throw new ValueError(model.name, attribute, 'is a key attribute of the table and cannot be updated');
    if (model.keyParts.includes(attribute)) throw new ValueError(model.name, attribute, 'is part of a key; changing it needs a new key: delete the item and put it again');
  }
  const aliases = new ExpressionAliases();
  const cleared = changes.set ? emptySets(model.codecs, changes.set) : [];
  const remove = [...(changes.remove ?? []), ...cleared];
  const stored: UpdateChanges = {
    ...(changes.set ? { set: toStored(model.name, model.codecs, changes.set) } : {}),
    ...(remove.length ? { remove } : {}),
    ...(changes.add ? { add: changes.add } : {}),
    ...(changes.append
      ? { append: toStored(model.name, model.codecs, changes.append) as Record<string, unknown[]> }
      : {}),
  };
  const expression = updateExpression(model.name, stored, aliases);
  const condition = `attribute_exists(${aliases.name(model.pk.attribute)})`;
  try {
    const result = await ctx.client.send(
      new UpdateCommand({
        TableName: ctx.tableName,
        Key: tableKey,
        UpdateExpression: expression,
        ConditionExpression: condition,
        ReturnValues: 'ALL_NEW',
        ...aliases.attributes(),
      }),
    );
    return fromStored<T>(model.name, model.codecs, result.Attributes ?? {}, model.keyAttributes);
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new ItemNotFoundError(model.name, tableKey, error);
    throw error;
  }
}

/** Deletes an item; returns what was deleted, or undefined if there was nothing. */
export async function deleteItem<T>(ctx: TableContext, model: EntityModel, key: Readonly<Record<string, unknown>>): Promise<T | undefined> {
  const result = await ctx.client.send(new DeleteCommand({ TableName: ctx.tableName, Key: primaryKey(model, key), ReturnValues: 'ALL_OLD' }));
  return result.Attributes ? fromStored<T>(model.name, model.codecs, result.Attributes, model.keyAttributes) : undefined;
}

export interface QueryOptions<Condition> {
  /** A condition on a left-to-right prefix of the sort key's parts. */
  readonly where?: Condition;
  /** `asc` (default) or `desc`, in DynamoDB's sort-key order. */
  readonly order?: 'asc' | 'desc';
  /** Items to evaluate per page (DynamoDB's Limit). */
  readonly limit?: number;
  /** The `cursor` of the previous page. */
  readonly cursor?: string;
  readonly consistent?: boolean;
}

export interface Page<T> {
  readonly items: T[];
  /** Present when there may be more items: pass it back as `cursor`. */
  readonly cursor?: string;
}

/** The Query input for a partition and an optional sort-key condition, without sending it. */
export function queryInput(ctx: TableContext, model: EntityModel, partition: Readonly<Record<string, unknown>>, options: QueryOptions<object>) {
  const aliases = new ExpressionAliases();
  let keyCondition = `${aliases.name(model.pk.attribute)} = ${aliases.value(model.pk.template.build(partition))}`;
  if (model.sk) {
    const sortCondition = renderSortCondition(model.sk.attribute, planSortCondition(model.sk.template, options.where), aliases);
    if (sortCondition) keyCondition += ` AND ${sortCondition}`;
  }
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
    throw new ValueError(model.name, '(limit)', `limit must be a positive integer, got ${options.limit}`);
  }
  const scope = `${model.name}.query`;
  const params = { partition, where: options.where, order: options.order ?? 'asc' };
  return {
    TableName: ctx.tableName,
    KeyConditionExpression: keyCondition,
    ...aliases.attributes(),
    ...(options.order === 'desc' ? { ScanIndexForward: false } : {}),
    ...(options.limit !== undefined ? { Limit: options.limit } : {}),
    ...(options.consistent ? { ConsistentRead: true } : {}),
    ...(options.cursor !== undefined ? { ExclusiveStartKey: decodeCursor(options.cursor, scope, params) } : {}),
    scope,
    params,
  };
}

/** Runs one page of a Query. */
export async function queryItems<T>(ctx: TableContext, model: EntityModel, partition: Readonly<Record<string, unknown>>, options: QueryOptions<object> = {}): Promise<Page<T>> {
  const { scope, params, ...input } = queryInput(ctx, model, partition, options);
  const result = await ctx.client.send(new QueryCommand(input));
  const items = (result.Items ?? []).map((stored) => fromStored<T>(model.name, model.codecs, stored, model.keyAttributes));
  return result.LastEvaluatedKey ? { items, cursor: encodeCursor(scope, params, result.LastEvaluatedKey) } : { items };
}
