// The writes of the in-memory engine: PutItem, UpdateItem and DeleteItem with their conditions and
// ReturnValues, BatchWriteItem, and TransactWriteItems (every condition against the items as they
// are, then every write or none; cancellation reasons; idempotency tokens), with the write
// capacity they consume. A write is applied through the engine (engine-context.ts), which keeps
// the stream.

import { capacity, chargeWrite, consumed, readUnits, type Capacity } from './capacity.js';
import type { EngineContext } from './engine-context.js';
import { evaluateCondition, type ResolvedCondition } from './expression.js';
import { parseUpdate } from './expression-parser.js';
import { applyUpdate, resolveUpdate, updatedValues, type ResolvedAction } from './expression-updates.js';
import { unprocessed } from './faults.js';
import type { Fault } from './options.js';
import { ConditionFailure, TOKEN_MS, TRANSACTION_BYTES, aliasesOf, checkItem, checkKey, checkReturnValues, conflict, expressions, marshallMap, unmarshallMap, type RequestInput } from './request.js';
import type { Change, Table } from './stored-table.js';
import { RequestError, copyMap, itemBytes, validation, type AttributeMap } from './value.js';

/** A planned write of one item: checked, its condition resolved, its outcome computable. */
function planWrite(ctx: EngineContext, kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck', input: RequestInput): PlannedWrite {
  const table = ctx.table(input.TableName);
  const hasExpression = input.ConditionExpression !== undefined || input.UpdateExpression !== undefined;
  const aliases = aliasesOf(input, hasExpression);
  let item: AttributeMap | undefined;
  let key: AttributeMap;
  if (kind === 'Put') {
    item = marshallMap(input.Item ?? {});
    checkItem(table, item);
    key = table.keyOf(item);
  } else key = checkKey(table, marshallMap(input.Key ?? {}));
  const actions = kind === 'Update' ? (input.UpdateExpression === undefined ? undefined : resolveUpdate(parseUpdate(input.UpdateExpression), aliases, table.keyNames)) : undefined;
  if (kind === 'Update' && !actions) throw validation('UpdateExpression is missing: the in-memory table answers expressions, not AttributeUpdates');
  if (kind === 'ConditionCheck' && input.ConditionExpression === undefined) throw validation('The ConditionExpression of a ConditionCheck is missing');
  const { condition } = expressions(input, ['ConditionExpression'], aliases);
  aliases.checkAllUsed();
  return {
    kind,
    table,
    key,
    input,
    ...(condition ? { condition } : {}),
    /** The item after the write, given the item before (undefined: absent after). */
    next: (old: AttributeMap | undefined): AttributeMap | undefined => {
      if (kind === 'Put') return copyMap(item!);
      if (kind === 'Delete') return undefined;
      if (kind === 'ConditionCheck') return old;
      const updated = applyUpdate(actions!, old ?? copyMap(key));
      checkItem(table, updated, true);
      return updated;
    },
    actions: actions ?? [],
  };
}

function checkCondition(plan: PlannedWrite, old: AttributeMap | undefined): void {
  if (plan.condition && !evaluateCondition(plan.condition, old ?? {})) throw new ConditionFailure(old);
}

export function singleWrite(ctx: EngineContext, operation: 'PutItem' | 'UpdateItem' | 'DeleteItem', input: RequestInput): unknown {
  const kind = operation === 'PutItem' ? 'Put' : operation === 'UpdateItem' ? 'Update' : 'Delete';
  const plan = planWrite(ctx, kind, input);
  const returnValues = checkReturnValues(input.ReturnValues, kind === 'Update' ? ['NONE', 'ALL_OLD', 'UPDATED_OLD', 'ALL_NEW', 'UPDATED_NEW'] : ['NONE', 'ALL_OLD']);
  if (ctx.held(plan.table, plan.key)) throw conflict();
  const old = plan.table.get(plan.key);
  try {
    checkCondition(plan, old);
  } catch (error) {
    if (!(error instanceof ConditionFailure)) throw error;
    throw new RequestError('ConditionalCheckFailedException', error.message, input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && old ? { Item: copyMap(old) } : {});
  }
  const item = plan.next(old);
  const used = capacity();
  if (input.ReturnConsumedCapacity === 'TOTAL' || input.ReturnConsumedCapacity === 'INDEXES') chargeWrite(plan.table, { old, item }, used);
  if (old || item) ctx.apply(plan.table, { old, item });
  const out: Record<string, unknown> = {};
  const attributes = returned(returnValues, old, item, plan.actions);
  if (attributes) out.Attributes = unmarshallMap(attributes);
  const cc = consumed(plan.table, used, input.ReturnConsumedCapacity);
  if (cc) out.ConsumedCapacity = cc;
  return out;
}

export function batchWrite(ctx: EngineContext, input: RequestInput, fault: Fault | undefined): unknown {
  const requested = Object.entries((input.RequestItems ?? {}) as Record<string, Array<{ PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: { Key: Record<string, unknown> } }>>);
  const total = requested.reduce((sum, [, list]) => sum + list.length, 0);
  if (total > 25) throw validation('Too many items requested for the BatchWriteItem call');
  const writes = requested.flatMap(([name, list]) => {
    const table = ctx.table(name);
    if (list.length === 0) throw validation(`The batch write request list for a table cannot be null or empty: ${name}`);
    const ids = new Set<string>();
    return list.map((request) => {
      let item: AttributeMap | undefined;
      let key: AttributeMap;
      if (request.PutRequest) {
        item = marshallMap(request.PutRequest.Item);
        checkItem(table, item);
        key = table.keyOf(item);
      } else key = checkKey(table, marshallMap(request.DeleteRequest?.Key ?? {}));
      const id = table.idOf(key);
      if (ids.has(id)) throw validation('Provided list of item keys contains duplicates');
      ids.add(id);
      return { name, table, request, key, item };
    });
  });
  const skipped = unprocessed(ctx, fault, writes);
  const UnprocessedItems: Record<string, unknown[]> = {};
  const usedBy = new Map<Table, Capacity>();
  for (const write of writes) {
    if (skipped.has(write.key)) {
      (UnprocessedItems[write.name] ??= []).push(write.request);
      continue;
    }
    const old = write.table.get(write.key);
    const change = { old, item: write.item ? copyMap(write.item) : undefined };
    const used = usedBy.get(write.table) ?? capacity();
    usedBy.set(write.table, used);
    chargeWrite(write.table, change, used);
    if (old || change.item) ctx.apply(write.table, change);
  }
  const capacities = [...usedBy].map(([table, used]) => consumed(table, used, input.ReturnConsumedCapacity)).filter((c) => c !== undefined);
  return { UnprocessedItems, ...(capacities.length ? { ConsumedCapacity: capacities } : {}) };
}

export function transactWrite(ctx: EngineContext, input: RequestInput, fault: Fault | undefined): unknown {
  const items = input.TransactItems ?? [];
  if (items.length === 0) throw validation("Value [] at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1");
  if (items.length > 100) throw validation('Member must have length less than or equal to 100');
  const seen = new Set<string>();
  let bytes = 0;
  const plans = items.map((entry) => {
    const [kind, request] = Object.entries(entry).find(([, value]) => value !== undefined) ?? [];
    if (kind !== 'Put' && kind !== 'Update' && kind !== 'Delete' && kind !== 'ConditionCheck') throw validation('A transaction item holds one of Put, Update, Delete or ConditionCheck');
    const plan = planWrite(ctx, kind, request!);
    const id = `${plan.table.name}\u0000${plan.table.idOf(plan.key)}`;
    if (seen.has(id)) throw validation('Transaction request cannot include multiple operations on one item');
    seen.add(id);
    bytes += kind === 'Put' ? itemBytes(marshallMap(request!.Item ?? {})) : itemBytes(plan.key);
    return plan;
  });
  if (bytes > TRANSACTION_BYTES) throw validation(`Transaction payload size cannot exceed 4MB. Payload Size: ${bytes}`);
  const token = input.ClientRequestToken;
  const fingerprint = token === undefined ? '' : JSON.stringify(items, (_, v: unknown) => (v instanceof Set ? [...v] : typeof v === 'bigint' ? String(v) : v));
  if (token !== undefined) {
    const previous = ctx.tokens.get(token);
    if (previous && ctx.now() - previous.at < TOKEN_MS) {
      if (previous.input !== fingerprint) throw new RequestError('IdempotentParameterMismatchException', 'The request uses the same client token as a previous, but non-identical request.');
      // done already: nothing is written again, and the capacity is that of reading the items
      const usedBy = new Map<Table, Capacity>();
      for (const plan of plans) {
        const used = usedBy.get(plan.table) ?? capacity();
        usedBy.set(plan.table, used);
        const item = plan.table.get(plan.key);
        used.read += 2 * readUnits(item ? itemBytes(item) : 0, true);
      }
      const capacities = [...usedBy].map(([table, used]) => consumed(table, used, input.ReturnConsumedCapacity)).filter((c) => c !== undefined);
      return capacities.length ? { ConsumedCapacity: capacities } : {};
    }
  }
  // every condition against the items as they are, then every write, or none
  const reasons: Array<{ Code: string; Message?: string; Item?: AttributeMap }> = [];
  const changes: Array<{ plan: PlannedWrite; change: Change }> = [];
  for (const plan of plans) {
    const old = plan.table.get(plan.key);
    if (ctx.held(plan.table, plan.key)) {
      reasons.push({ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' });
      continue;
    }
    try {
      checkCondition(plan, old);
      const item = plan.next(old);
      changes.push({ plan, change: { old, item } });
      reasons.push({ Code: 'None' });
    } catch (error) {
      if (error instanceof ConditionFailure) {
        // DynamoDB Local ends the message of a failed ConditionCheck with a full stop
        const asked = plan.input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD';
        reasons.push({ Code: 'ConditionalCheckFailed', Message: `The conditional request failed${plan.kind === 'ConditionCheck' ? '.' : ''}`, ...(asked && old ? { Item: copyMap(old) } : {}) });
      } else throw error; // an update that cannot apply (an operand of the wrong type) fails the whole request, as DynamoDB Local answers it
    }
  }
  if (fault?.kind === 'conflict' && reasons[0]?.Code === 'None') reasons[0] = { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' };
  if (reasons.some((r) => r.Code !== 'None')) {
    const codes = reasons.map((r) => r.Code).join(', ');
    const message = `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes}]`;
    throw new RequestError('TransactionCanceledException', message, { CancellationReasons: reasons });
  }
  const usedBy = new Map<Table, Capacity>();
  for (const { plan, change } of changes) {
    const used = usedBy.get(plan.table) ?? capacity();
    usedBy.set(plan.table, used);
    if (plan.kind === 'ConditionCheck') {
      used.read += 2 * readUnits(change.old ? itemBytes(change.old) : 0, true);
      continue;
    }
    chargeWrite(plan.table, change, used, 2);
    if (change.old || change.item) ctx.apply(plan.table, change);
  }
  if (token !== undefined) ctx.tokens.set(token, { input: fingerprint, at: ctx.now() });
  const capacities = [...usedBy].map(([table, used]) => consumed(table, used, input.ReturnConsumedCapacity)).filter((c) => c !== undefined);
  return capacities.length ? { ConsumedCapacity: capacities } : {};
}

interface PlannedWrite {
  readonly kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  readonly table: Table;
  readonly key: AttributeMap;
  readonly input: RequestInput;
  readonly condition?: ResolvedCondition;
  next(old: AttributeMap | undefined): AttributeMap | undefined;
  readonly actions: readonly ResolvedAction[];
}

/** What a write returns for its ReturnValues. */
function returned(returnValues: string, old: AttributeMap | undefined, item: AttributeMap | undefined, actions: readonly ResolvedAction[]): AttributeMap | undefined {
  switch (returnValues) {
    case 'ALL_OLD':
      return old ? copyMap(old) : undefined;
    case 'ALL_NEW':
      return item ? copyMap(item) : undefined;
    case 'UPDATED_OLD':
      return updatedValues(actions, old);
    case 'UPDATED_NEW':
      return updatedValues(actions, item);
    default:
      return undefined;
  }
}

