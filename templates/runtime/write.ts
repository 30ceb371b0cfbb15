// Single-item writes, planned once and either sent alone or as one item of a transaction. A plan
// carries the request, its key, its size, and how a failed condition maps to a typed error (the
// item as it was comes back with ReturnValuesOnConditionCheckFailure and is used to tell the cases
// apart; the error carries it only when the write asked, `returnValuesOnConditionFailure: 'old'`,
// and the SDK cause is kept without it). Optimistic locking: an
// entity with a version attribute conditions every write on the version it expects and increments
// it. A counter `add` or list `append` without a version guard is not idempotent, so it is sent
// with SDK retries of ambiguous failures (timeouts, 5xx) turned off: AmbiguousWriteError instead.

import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { andAll, renderCondition, type Condition } from './condition.js';
import {
  AmbiguousWriteError,
  ConditionFailedError,
  DdbgenError,
  ItemExistsError,
  ItemNotFoundError,
  ValidationError,
  VersionConflictError,
  isConditionalCheckFailed,
} from './errors.js';
import { ExpressionAliases, changedAttributes, checkExpression, updateExpression, type UpdateChanges } from './expression.js';
import { itemSize } from './item-size.js';
import { checkAttributeNames, checkValue, describeItem, emptySets, fromAttributeValues, kindOf, toStored, type AttributeType } from './item.js';
import type { EntityModel, TableContext } from './table-context.js';
import { genericItem, indexKeyChanges, isCopied, itemOf, primaryKey, storedItem } from './item-mapping.js';
import { operation } from './repository.js';

export type Operation = 'put' | 'update' | 'delete' | 'check';

/** A planned write: what to send, and what its failure means. */
export interface WritePlan {
  readonly operation: Operation;
  readonly entity: string;
  readonly key: Record<string, string>;
  /** How errors name the item: `User { id: "u1" }`, pii key parts fingerprinted. */
  readonly described: string;
  /** The request body without TableName (Put, Update, Delete or ConditionCheck shape). */
  readonly input: Record<string, unknown>;
  /** Bytes this item adds to a transaction's 4 MB (computed when a transaction asks). */
  readonly size: number;
  /** True for a counter/append update without a version guard: never retried blindly. */
  readonly ambiguous: boolean;
  /** The typed error for a failed condition, given the item as it was (undefined if there was none) and the SDK's error. */
  conditionFailed(old: Record<string, unknown> | undefined, cause: unknown): DdbgenError;
}

/** What a conditional write may ask for when its condition fails. */
export interface ConditionFailureOptions {
  /**
   * `'old'`: when the condition fails, the error carries the item as it was (`error.old`, not
   * enumerable). Off by default, so errors hold no stored data.
   */
  readonly returnValuesOnConditionFailure?: 'old' | 'none';
}

/**
 * Options of a write. `C` is the condition's type: generated methods name their entity's own
 * condition interface (`WriteOptions<Article, ArticleCondition>`, the same members as
 * `Condition<Article>`), so the type checker reads it as declared instead of mapping over the item.
 */
export interface WriteOptions<Item, C = Condition<Item>> extends ConditionFailureOptions {
  /** Extra condition that must hold for the write to happen. */
  readonly condition?: C;
}

/**
 * Write options as the runtime reads them: any condition object, so passing an entity's typed
 * options on costs the caller's type checker nothing (the caller's signature has checked them).
 */
export interface WriteRequestOptions {
  readonly condition?: object;
  readonly returnValuesOnConditionFailure?: 'old' | 'none';
  readonly expectedVersion?: number;
}

/** The details of a failed condition's error: how it names the item, the SDK cause and, if asked, the item as it was. */
function failureOf(model: EntityModel, described: string, options: WriteRequestOptions, old: Record<string, unknown> | undefined, cause: unknown) {
  const asked = options.returnValuesOnConditionFailure === 'old' && old !== undefined;
  return { described, cause, ...(asked ? { old: itemOf<Record<string, unknown>>(model, isWireRecord(old) ? fromAttributeValues(old) : old) } : {}) };
}

/** True for a record in DynamoDB's wire form: every value a one-key `{ S | N | … }` object. */
function isWireRecord(record: Record<string, unknown>): boolean {
  return Object.values(record).every((v) => typeof v === 'object' && v !== null && Object.keys(v).length === 1 && /^(S|N|B|BOOL|NULL|M|L|SS|NS|BS)$/.test(Object.keys(v)[0]!));
}

export interface VersionedWriteOptions<Item, C = Condition<Item>> extends WriteOptions<Item, C> {
  /** The version the item must be at (as read); the write increments it. */
  readonly expectedVersion: number;
}

/** Reads a number from a record returned with a failed condition (plain, or DynamoDB's `{ N }`). */
function numberIn(record: Record<string, unknown> | undefined, attribute: string): number | undefined {
  const value = record?.[attribute];
  if (typeof value === 'number') return value;
  if (typeof value === 'object' && value !== null && typeof (value as { N?: unknown }).N === 'string') return Number((value as { N: string }).N);
  return undefined;
}

function conditionOf(model: EntityModel, aliases: ExpressionAliases, parts: string[], condition: Condition<Record<string, unknown>> | undefined): string | undefined {
  const check = (attribute: string) => checkAttributeNames(model, [attribute], 'compared');
  const all = [...parts.map((text) => ({ text, kind: 'atom' as const })), ...(condition ? [renderCondition(model.name, model.codecs, condition, aliases, check)] : [])];
  return all.length ? checkExpression(model.name, 'condition', andAll(all).text) : undefined;
}

/**
 * Plans a put. `create` fails if the key exists, `replace` if it does not; a versioned entity's put
 * is a create when the item has no version and a compare-and-swap on it otherwise. Returns the
 * item as written (with its new version).
 */
export function planPut<T>(model: EntityModel, item: T, mode: 'put' | 'create' | 'replace', options: WriteRequestOptions = {}, piiSecret?: string): { plan: WritePlan; item: T } {
  const version = model.version;
  const given = version === undefined ? undefined : ((item as Record<string, unknown>)[version] as number | undefined);
  if (version !== undefined && given !== undefined && !Number.isInteger(given)) throw new ValidationError(model.name, version, `the version must be an integer, got ${String(given)}`);
  const expected = mode === 'create' ? undefined : given;
  const written = version === undefined ? item : ({ ...item, [version]: (expected ?? 0) + 1 } as T);
  const record = storedItem(model, written as Record<string, unknown>);
  const key: Record<string, string> = { [model.pk.attribute]: record[model.pk.attribute] as string };
  if (model.sk) key[model.sk.attribute] = record[model.sk.attribute] as string;
  const isNew = mode === 'create' || (version !== undefined && expected === undefined && mode === 'put');
  const conditional = isNew || mode === 'replace' || expected !== undefined || options.condition !== undefined;
  const aliases = conditional ? new ExpressionAliases(model.storedNames) : undefined;
  let condition: string | undefined;
  if (aliases) {
    const parts: string[] = [];
    if (isNew) parts.push(`attribute_not_exists(${aliases.name(model.pk.attribute)})`);
    else if (mode === 'replace') parts.push(`attribute_exists(${aliases.name(model.pk.attribute)})`);
    if (version !== undefined && expected !== undefined && !isNew) parts.push(`${aliases.name(version)} = ${aliases.value(expected)}`);
    condition = conditionOf(model, aliases, parts, options.condition as Condition<Record<string, unknown>> | undefined);
  }
  const describe = () => describeItem(model, written as Record<string, unknown>, piiSecret);
  return {
    item: written,
    plan: {
      operation: 'put',
      entity: model.name,
      key,
      get described() {
        return describe();
      },
      input: condition && aliases ? { Item: record, ConditionExpression: condition, ...aliases.attributes() } : { Item: record },
      get size() {
        return itemSize(record);
      },
      ambiguous: false,
      conditionFailed(old, cause) {
        const failure = failureOf(model, describe(), options, old, cause);
        if (isNew && old !== undefined) return version !== undefined && mode === 'put' ? new VersionConflictError(model.name, key, undefined, failure) : new ItemExistsError(model.name, key, failure);
        if (!isNew && (mode === 'replace' || expected !== undefined) && old === undefined) return new ItemNotFoundError(model.name, key, failure);
        if (version !== undefined && expected !== undefined && numberIn(old, version) !== expected) return new VersionConflictError(model.name, key, expected, failure);
        return new ConditionFailedError(model.name, key, "the write's condition did not hold", failure);
      },
    },
  };
}

/** The changes a generated `update` accepts (values in item form; converted before sending). */
export type UpdateInput = UpdateChanges;

/** The version a write of a versioned entity expects; a ValidationError when the caller gave none. */
function expectedVersion(model: EntityModel, options: WriteRequestOptions): number | undefined {
  if (model.version !== undefined && options.expectedVersion === undefined) throw new ValidationError(model.name, model.version, 'this entity is versioned: pass { expectedVersion } (the version you read)');
  return options.expectedVersion;
}

/** What each update clause takes: `set` and `setIfNotExists` any value of the type, `add` numbers and sets, `delete` sets, `append`/`prepend` lists. */
const CLAUSES: ReadonlyArray<readonly [keyof UpdateInput, (type: AttributeType) => boolean, string]> = [
  ['set', () => true, ''],
  ['setIfNotExists', () => true, ''],
  ['add', (type) => type.kind === 'number' || type.kind === 'stringSet' || type.kind === 'numberSet', 'a number or set attribute'],
  ['delete', (type) => type.kind === 'stringSet' || type.kind === 'numberSet', 'a set attribute'],
  ['append', (type) => type.kind === 'list', 'a list attribute'],
  ['prepend', (type) => type.kind === 'list', 'a list attribute'],
];

/**
 * Throws ValidationError unless every value an update gives is what its attribute declares: the
 * attribute's type for `set`/`setIfNotExists`, a finite number or a set of its elements for `add`,
 * a set for `delete`, a list of its elements for `append`/`prepend`. Null is no value (`remove`
 * clears an optional attribute).
 */
function checkChanges(model: EntityModel, changes: UpdateInput): void {
  const types = model.types;
  if (types === undefined) return;
  for (const [clause, takes, what] of CLAUSES) {
    const values = changes[clause] as Readonly<Record<string, unknown>> | undefined;
    if (values === undefined) continue;
    for (const name of Object.keys(values)) {
      const type = Object.prototype.hasOwnProperty.call(types, name) ? types[name]! : undefined;
      const value = values[name];
      if (type === undefined || (value === undefined && (clause === 'set' || clause === 'setIfNotExists'))) continue;
      if (!takes(type)) throw new ValidationError(model.name, name, `${clause} takes ${what}; ${name} is a ${type.kind} attribute`, 'VALUE_TYPE');
      if (clause === 'append' || clause === 'prepend') {
        if (!Array.isArray(value)) throw new ValidationError(model.name, name, `${clause} takes a list of elements, not ${kindOf(value)}`, 'VALUE_TYPE');
        value.forEach((element, i) => checkValue(model.name, `${name}[${i}]`, (type as Extract<AttributeType, { kind: 'list' }>).of, element));
      } else if (clause === 'add' && type.kind === 'number') {
        if (typeof value !== 'number' || !Number.isFinite(value)) throw new ValidationError(model.name, name, `add takes a finite number, not ${kindOf(value)}`, 'VALUE_TYPE');
      } else {
        checkValue(model.name, name, type, value);
        if ((clause === 'add' || clause === 'delete') && (value as Set<unknown>).size === 0) throw new ValidationError(model.name, name, `${clause} takes at least one element (DynamoDB stores no empty set)`, 'VALUE_TYPE');
      }
    }
  }
}

/** Plans an update of an existing item (ItemNotFoundError if there is none). */
export function planUpdate(model: EntityModel, key: Readonly<Record<string, unknown>>, changes: UpdateInput, options: WriteRequestOptions = {}, piiSecret?: string): WritePlan {
  const tableKey = primaryKey(model, key);
  const named = (record: object | undefined) => Object.keys(record ?? {});
  for (const attribute of changedAttributes(changes)) {
    if (model.keyAttributes.includes(attribute)) throw new ValidationError(model.name, attribute, 'is a key attribute of the table and cannot be updated');
    if (model.primaryParts.includes(attribute)) throw new ValidationError(model.name, attribute, 'is part of the primary key; changing it needs a new key: delete the item and put it again');
    if (attribute === model.version) throw new ValidationError(model.name, attribute, 'is the version attribute: ddbgen increments it on every write');
  }
  checkAttributeNames(model, changedAttributes(changes), 'changed');
  for (const attribute of changes.remove ?? []) {
    if (model.required.includes(attribute)) throw new ValidationError(model.name, attribute, 'is required, so update cannot remove it; set a new value instead', 'ATTRIBUTE_REQUIRED');
  }
  for (const attribute of [...named(changes.add), ...named(changes.delete), ...named(changes.append), ...named(changes.prepend), ...named(changes.setIfNotExists)]) {
    if (model.indexes.some((index) => index.inputs.includes(attribute)) || isCopied(model, attribute)) throw new ValidationError(model.name, attribute, 'feeds an index key: change it with set, so the key is rebuilt');
  }
  checkChanges(model, changes);
  const version = model.version;
  const expected = expectedVersion(model, options);
  const cleared = changes.set ? emptySets(model.codecs, changes.set) : [];
  const remove = [...(changes.remove ?? []), ...cleared];
  const derived = indexKeyChanges(model, key, changes.set ?? {}, remove);
  const stored: UpdateChanges = {
    set: {
      ...(changes.set ? toStored(model.name, model.codecs, changes.set) : {}),
      ...derived.set,
      ...(version !== undefined ? { [version]: expected! + 1 } : {}),
    },
    remove: [...remove, ...derived.remove],
    ...(changes.add ? { add: changes.add } : {}),
    ...(changes.delete ? { delete: changes.delete } : {}),
    ...(changes.append ? { append: toStored(model.name, model.codecs, changes.append) as Record<string, unknown[]> } : {}),
    ...(changes.prepend ? { prepend: toStored(model.name, model.codecs, changes.prepend) as Record<string, unknown[]> } : {}),
    ...(changes.setIfNotExists ? { setIfNotExists: toStored(model.name, model.codecs, changes.setIfNotExists) } : {}),
  };
  const aliases = new ExpressionAliases(model.storedNames);
  const expression = checkExpression(model.name, 'update', updateExpression(model.name, stored, aliases));
  const parts = [`attribute_exists(${aliases.name(model.pk.attribute)})`];
  if (version !== undefined) parts.push(`${aliases.name(version)} = ${aliases.value(expected)}`);
  const condition = conditionOf(model, aliases, parts, options.condition as Condition<Record<string, unknown>> | undefined);
  const ambiguous = version === undefined && (changes.add !== undefined || changes.append !== undefined || changes.prepend !== undefined);
  const describe = () => describeItem(model, key, piiSecret);
  return {
    operation: 'update',
    entity: model.name,
    key: tableKey,
    get described() {
      return describe();
    },
    input: { Key: tableKey, UpdateExpression: expression, ConditionExpression: condition, ...aliases.attributes() },
    size: itemSize(tableKey) + itemSize(stored.set ?? {}),
    ambiguous,
    conditionFailed(old, cause) {
      const failure = failureOf(model, describe(), options, old, cause);
      if (old === undefined) return new ItemNotFoundError(model.name, tableKey, failure);
      if (version !== undefined && numberIn(old, version) !== expected) return new VersionConflictError(model.name, tableKey, expected, failure);
      return new ConditionFailedError(model.name, tableKey, "the update's condition did not hold", failure);
    },
  };
}

/** Plans a delete; with a version or condition, it happens only if they hold. */
export function planDelete(model: EntityModel, key: Readonly<Record<string, unknown>>, options: WriteRequestOptions = {}, piiSecret?: string): WritePlan {
  const tableKey = primaryKey(model, key);
  const version = model.version;
  const expected = expectedVersion(model, options);
  const aliases = new ExpressionAliases(model.storedNames);
  const parts = version !== undefined ? [`${aliases.name(version)} = ${aliases.value(expected)}`] : [];
  const condition = conditionOf(model, aliases, parts, options.condition as Condition<Record<string, unknown>> | undefined);
  const describe = () => describeItem(model, key, piiSecret);
  return {
    operation: 'delete',
    entity: model.name,
    key: tableKey,
    get described() {
      return describe();
    },
    input: { Key: tableKey, ...(condition ? { ConditionExpression: condition, ...aliases.attributes() } : {}) },
    size: itemSize(tableKey),
    ambiguous: false,
    conditionFailed(old, cause) {
      const failure = failureOf(model, describe(), options, old, cause);
      if (old === undefined && version !== undefined) return new ItemNotFoundError(model.name, tableKey, failure);
      if (version !== undefined && numberIn(old, version) !== expected) return new VersionConflictError(model.name, tableKey, expected, failure);
      return new ConditionFailedError(model.name, tableKey, "the delete's condition did not hold", failure);
    },
  };
}

/** Plans a condition check (transactions only): the transaction fails unless `condition` holds. */
export function planCheck(model: EntityModel, key: Readonly<Record<string, unknown>>, condition: Condition<unknown>, piiSecret?: string): WritePlan {
  const tableKey = primaryKey(model, key);
  const aliases = new ExpressionAliases(model.storedNames);
  const expression = conditionOf(model, aliases, [], condition as Condition<Record<string, unknown>>)!;
  const describe = () => describeItem(model, key, piiSecret);
  return {
    operation: 'check',
    entity: model.name,
    key: tableKey,
    get described() {
      return describe();
    },
    input: { Key: tableKey, ConditionExpression: expression, ...aliases.attributes() },
    size: itemSize(tableKey),
    ambiguous: false,
    conditionFailed: (_old, cause) => new ConditionFailedError(model.name, tableKey, 'the checked condition did not hold', { described: describe(), cause }),
  };
}

const THROTTLE = /Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded/;

/**
 * Middleware placed inside the SDK's retry loop: an ambiguous failure (timeout, network, 5xx) of a
 * non-idempotent write becomes a non-retryable AmbiguousWriteError. Throttles and 4xx pass through
 * (a throttled request was not applied, so retrying it is safe).
 */
function noAmbiguousRetries(plan: WritePlan) {
  return (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
    try {
      return await next(args);
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
      const name = (error as { name?: string })?.name ?? '';
      if (THROTTLE.test(name) || (status !== undefined && status >= 400 && status < 500)) throw error;
      throw new AmbiguousWriteError(plan.entity, plan.key, error, plan.described);
    }
  };
}

/** The input one planned write is sent with: its request on the table, the item back if its condition fails, and what `returnValues` asks. */
export function writeInput(tableName: string, plan: WritePlan, returnValues: UpdateReturnValues = 'NONE'): Record<string, unknown> {
  return { TableName: tableName, ...plan.input, ...(plan.input['ConditionExpression'] ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}), ...(returnValues !== 'NONE' ? { ReturnValues: returnValues } : {}) };
}

/** Sends one planned write and maps a failed condition to its typed error. */
export async function sendWrite(ctx: TableContext, plan: WritePlan, returnValues: UpdateReturnValues = 'NONE'): Promise<Record<string, unknown> | undefined> {
  const input = writeInput(ctx.tableName, plan, returnValues);
  const command =
    plan.operation === 'put' ? new PutCommand(input as never) : plan.operation === 'update' ? new UpdateCommand(input as never) : new DeleteCommand(input as never);
  if (plan.ambiguous) {
    (command.middlewareStack as { add(middleware: unknown, options: object): void }).add(noAmbiguousRetries(plan), { step: 'finalizeRequest', priority: 'low' });
  }
  try {
    const result = (await ctx.client.send(command as never)) as { Attributes?: Record<string, unknown> };
    return result.Attributes;
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw plan.conditionFailed((error as { Item?: Record<string, unknown> }).Item, error);
    throw error;
  }
}

/** The item form of a record returned by a write. */
export function writtenItem<T>(model: EntityModel, record: Record<string, unknown> | undefined, partial = false): T | undefined {
  return record ? (partial ? genericItem<T>(model, record, true) : itemOf<T>(model, record)) : undefined;
}

/** Writes an item (see planPut for the modes) and returns it as written. */
export async function putItem(ctx: TableContext, model: EntityModel, item: object, mode: 'put' | 'create' | 'replace', options?: WriteRequestOptions): Promise<unknown> {
  const { plan, item: written } = planPut(model, item, mode, options, ctx.piiSecret);
  await sendWrite(ctx, plan);
  return written;
}

/** What an update returns: the whole item after (ALL_NEW, the default) or before, only the changed attributes, or nothing. */
export type UpdateReturnValues = 'ALL_NEW' | 'ALL_OLD' | 'UPDATED_NEW' | 'UPDATED_OLD' | 'NONE';

/**
 * What an update returns for each `returnValues`. A generated `update<R>` returns
 * `Promise<UpdateResults<Article>[R]>`: an indexed access the type checker resolves by reading one
 * member, where a conditional type would be instantiated and compared branch by branch.
 */
export interface UpdateResults<Item> {
  readonly ALL_NEW: Item;
  readonly ALL_OLD: Item | undefined;
  readonly UPDATED_NEW: Partial<Item>;
  readonly UPDATED_OLD: Partial<Item>;
  readonly NONE: undefined;
}

/** The result type for a ReturnValues choice. */
export type Returned<Item, R extends UpdateReturnValues> = UpdateResults<Item>[R];

/** Updates an existing item and returns it as `returnValues` asks (the item as it is now by default). */
export async function updateItem(
  ctx: TableContext,
  model: EntityModel,
  key: Readonly<Record<string, unknown>>,
  changes: UpdateInput,
  options?: WriteRequestOptions & { readonly returnValues?: UpdateReturnValues },
): Promise<unknown> {
  const returnValues = options?.returnValues ?? 'ALL_NEW';
  return writtenItem(model, await sendWrite(ctx, planUpdate(model, key, changes, options, ctx.piiSecret), returnValues), returnValues.startsWith('UPDATED_'));
}

/** Deletes an item; returns what was deleted (or undefined if there was nothing), or nothing with returnValues 'NONE'. */
export async function deleteItem(
  ctx: TableContext,
  model: EntityModel,
  key: Readonly<Record<string, unknown>>,
  options?: WriteRequestOptions & { readonly returnValues?: 'ALL_OLD' | 'NONE' },
): Promise<unknown> {
  return writtenItem(model, await sendWrite(ctx, planDelete(model, key, options, ctx.piiSecret), options?.returnValues ?? 'ALL_OLD'));
}

/**
 * Atomic counters: ADD each delta (creating the item if it is absent) and start every other counter
 * at 0 where it is missing, so a created item is complete; key attributes come from the key. An
 * increment is not idempotent: it is never retried after an ambiguous failure.
 */
export async function incrementItem(ctx: TableContext, model: EntityModel, key: Readonly<Record<string, unknown>>, deltas: Readonly<Record<string, number>>, counters: readonly string[]): Promise<unknown> {
  return writtenItem(model, await sendWrite(ctx, planIncrement(model, key, deltas, counters, ctx.piiSecret), 'ALL_NEW'));
}

/** Plans an increment (see incrementItem). */
export function planIncrement(model: EntityModel, key: Readonly<Record<string, unknown>>, deltas: Readonly<Record<string, number>>, counters: readonly string[], piiSecret?: string): WritePlan {
  const tableKey = primaryKey(model, key);
  const add: Record<string, number> = {};
  for (const [name, delta] of Object.entries(deltas)) {
    if (delta === undefined) continue;
    if (!counters.includes(name)) throw new ValidationError(model.name, name, `is not a counter of ${model.name}; counters are ${counters.join(', ')}`);
    if (typeof delta !== 'number' || !Number.isFinite(delta)) throw new ValidationError(model.name, name, `the increment must be a finite number, got ${String(delta)}`);
    add[name] = delta;
  }
  if (!Object.keys(add).length) throw new ValidationError(model.name, '(increment)', 'nothing to increment');
  const aliases = new ExpressionAliases(model.storedNames);
  const setIfNotExists: Record<string, unknown> = { ...toStored(model.name, model.codecs, key), ...indexKeysOf(model, key), ...model.discriminator };
  for (const name of counters) if (!(name in add)) setIfNotExists[name] = 0;
  const expression = checkExpression(model.name, 'update', updateExpression(model.name, { setIfNotExists, add }, aliases));
  const describe = () => describeItem(model, key, piiSecret);
  return {
    operation: 'update',
    entity: model.name,
    key: tableKey,
    get described() {
      return describe();
    },
    input: { Key: tableKey, UpdateExpression: expression, ...aliases.attributes() },
    size: itemSize(tableKey),
    ambiguous: true,
    conditionFailed: (_old, cause) => new ConditionFailedError(model.name, tableKey, 'unexpected condition failure', { described: describe(), cause }),
  };
}

function indexKeysOf(model: EntityModel, key: Readonly<Record<string, unknown>>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const index of model.indexes) {
    if (index.kind === 'gsi') keys[index.pk.attribute] = index.pk.template.build(key);
    if (index.sk) keys[index.sk.attribute] = index.sk.template.build(key);
  }
  return keys;
}

// ---- Operations (repository.ts's, for writes) ------------------------------------------------------

/** `orderPut(context, item, options?)` (and `create`, `replace`): writes the item `I` (`T` or, versioned, its input) and returns it as written. */
export type PutFunction<T, I, C> = (context: TableContext, item: I, options?: WriteOptions<T, C>) => Promise<T>;
/** `db.order.create(item, options?)` (and `replace`). */
export type PutMethod<T, I, C> = (item: I, options?: WriteOptions<T, C>) => Promise<T>;
/** `orderPut(context, item)` of an entity without a version: the item written whatever is there, no condition to fail. */
export type PlainPutFunction<T, I> = (context: TableContext, item: I) => Promise<T>;
/** `db.order.put(item)` of an entity without a version. */
export type PlainPutMethod<T, I> = (item: I) => Promise<T>;
/** `orderPut(context, item, options?)` of a versioned entity: a create without a version, else a write on the version given. */
export type VersionedPutFunction<T, I> = (context: TableContext, item: I, options?: ConditionFailureOptions) => Promise<T>;
/** `db.order.put(item, options?)` of a versioned entity. */
export type VersionedPutMethod<T, I> = (item: I, options?: ConditionFailureOptions) => Promise<T>;
/** `orderPutIf(context, item, condition, options?)`: a put that happens only where `condition` holds (on the item there, if any). */
export type PutIfFunction<T, I, C> = (context: TableContext, item: I, condition: C, options?: ConditionFailureOptions) => Promise<T>;
/** `db.order.putIf(item, condition, options?)`. */
export type PutIfMethod<T, I, C> = (item: I, condition: C, options?: ConditionFailureOptions) => Promise<T>;

/** `orderUpdate(context, key, changes, options?)`: `returnValues` picks what comes back (the item after by default). */
export type UpdateFunction<T, K, U, C> = <R extends UpdateReturnValues = 'ALL_NEW'>(
  context: TableContext,
  key: K,
  changes: U,
  options?: WriteOptions<T, C> & { readonly returnValues?: R },
) => Promise<UpdateResults<T>[R]>;
/** `db.order.update(key, changes, options?)`. */
export type UpdateMethod<T, K, U, C> = <R extends UpdateReturnValues = 'ALL_NEW'>(key: K, changes: U, options?: WriteOptions<T, C> & { readonly returnValues?: R }) => Promise<UpdateResults<T>[R]>;
/** The update of a versioned entity: `options.expectedVersion` is required. */
export type VersionedUpdateFunction<T, K, U, C> = <R extends UpdateReturnValues = 'ALL_NEW'>(
  context: TableContext,
  key: K,
  changes: U,
  options: VersionedWriteOptions<T, C> & { readonly returnValues?: R },
) => Promise<UpdateResults<T>[R]>;
/** `db.order.update(key, changes, options)` of a versioned entity. */
export type VersionedUpdateMethod<T, K, U, C> = <R extends UpdateReturnValues = 'ALL_NEW'>(key: K, changes: U, options: VersionedWriteOptions<T, C> & { readonly returnValues?: R }) => Promise<UpdateResults<T>[R]>;

/** What a delete's options add: the deleted item comes back (`'ALL_OLD'`, the default) or nothing. */
export interface DeleteReturnValues {
  readonly returnValues?: 'ALL_OLD' | 'NONE';
}
/** `orderDelete(context, key, options?)`: the deleted item, or undefined. */
export type DeleteFunction<T, K, C> = (context: TableContext, key: K, options?: WriteOptions<T, C> & DeleteReturnValues) => Promise<T | undefined>;
/** `db.order.delete(key, options?)`. */
export type DeleteMethod<T, K, C> = (key: K, options?: WriteOptions<T, C> & DeleteReturnValues) => Promise<T | undefined>;
/** The delete of a versioned entity: `options.expectedVersion` is required. */
export type VersionedDeleteFunction<T, K, C> = (context: TableContext, key: K, options: VersionedWriteOptions<T, C> & DeleteReturnValues) => Promise<T | undefined>;
/** `db.order.delete(key, options)` of a versioned entity. */
export type VersionedDeleteMethod<T, K, C> = (key: K, options: VersionedWriteOptions<T, C> & DeleteReturnValues) => Promise<T | undefined>;

/** A put in one of its modes (see planPut), as the operation named after the mode: `create`, `replace`, and `put` of a versioned entity. */
export function putOperation<T, I, C>(model: EntityModel, mode: 'put' | 'create' | 'replace'): PutFunction<T, I, C> {
  return operation(model, mode, (context: TableContext, item: I, options?: WriteOptions<T, C>) => putItem(context, model, item as object, mode, options as WriteRequestOptions | undefined) as Promise<T>);
}

/**
 * `put` of an entity without a version: the request alone, as an expert writes it, so an app that
 * puts carries none of the condition code (a put on a condition is `putIf`). Options given from
 * untyped code are refused, never dropped: a condition passed here would otherwise not hold the write back.
 */
export function plainPutOperation<T, I>(model: EntityModel): PlainPutFunction<T, I> {
  return operation(model, 'put', async (context: TableContext, item: I, ...options: unknown[]) => {
    if (options[0] !== undefined) throw new ValidationError(model.name, '(options)', 'put takes no options: a put on a condition is putIf(item, condition, options)', 'OPTIONS_UNKNOWN');
    await context.client.send(new PutCommand({ TableName: context.tableName, Item: storedItem(model, item as Record<string, unknown>) }));
    return item as unknown as T;
  });
}

/** `putIf`: a put (see planPut) that happens only where the condition holds; ConditionFailedError otherwise. */
export function putIfOperation<T, I, C>(model: EntityModel): PutIfFunction<T, I, C> {
  return operation(model, 'putIf', (context: TableContext, item: I, condition: C, options?: ConditionFailureOptions) => {
    if (condition === undefined || condition === null) throw new ValidationError(model.name, '(condition)', 'putIf needs a condition; a put without one is put(item)', 'VALUE_INVALID');
    return putItem(context, model, item as object, 'put', { ...options, condition: condition as object }) as Promise<T>;
  });
}

export function updateOperation<F>(model: EntityModel): F {
  return operation(model, 'update', (context: TableContext, key: Readonly<Record<string, unknown>>, changes: UpdateInput, options?: WriteRequestOptions & { readonly returnValues?: UpdateReturnValues }) =>
    updateItem(context, model, key, changes, options),
  ) as unknown as F;
}

export function deleteOperation<F>(model: EntityModel): F {
  return operation(model, 'delete', (context: TableContext, key: Readonly<Record<string, unknown>>, options?: WriteRequestOptions & DeleteReturnValues) => deleteItem(context, model, key, options)) as unknown as F;
}
