// The reads of the in-memory engine: GetItem, Query and Scan (pages of at most Limit items
// evaluated and 1 MB read, the filter after both, key conditions over the partition's order,
// parallel scan segments), BatchGetItem and TransactGetItems, with the read capacity they consume.

import { checkFilterKeys, checkProjected, keyTest, projectedNames, topNames } from './read-checks.js';
import { capacity, consumed, readUnits, type Capacity } from './capacity.js';
import type { EngineContext } from './engine-context.js';
import { evaluateCondition, project, resolveCondition, type ResolvedCondition } from './expression.js';
import { parseCondition, type PathPart } from './expression-parser.js';
import { unprocessed } from './faults.js';
import { compareOrder, hashOf, lowerBound, type Entry, type IndexShape, type KeySpace } from './key-space.js';
import type { Fault } from './options.js';
import { BATCH_GET_BYTES, PAGE_BYTES, aliasesOf, checkKey, expressions, marshallMap, unmarshallMap, type RequestInput } from './request.js';
import type { Table } from './stored-table.js';
import { compareScalars, itemBytes, typeOf, validation, type AttributeMap, type AttributeValue } from './value.js';

export function getItem(ctx: EngineContext, input: RequestInput): unknown {
  const table = ctx.table(input.TableName);
  const aliases = aliasesOf(input, input.ProjectionExpression !== undefined);
  const { projection } = expressions(input, ['ProjectionExpression'], aliases);
  aliases.checkAllUsed();
  const key = checkKey(table, marshallMap(input.Key ?? {}));
  const item = table.get(key);
  const used = capacity();
  used.read = readUnits(item ? itemBytes(item) : 0, input.ConsistentRead === true);
  const out: Record<string, unknown> = {};
  if (item) out.Item = unmarshallMap(projection ? project(item, projection) : item);
  const cc = consumed(table, used, input.ReturnConsumedCapacity);
  if (cc) out.ConsumedCapacity = cc;
  return out;
}

/** The key space a Query or Scan reads, and the attributes its items are returned with. */
function keySpaceOf(table: Table, input: RequestInput): { space: KeySpace; index: IndexShape | undefined } {
  if (input.IndexName === undefined) return { space: table.data, index: undefined };
  const index = table.indexes.find((i) => i.name === input.IndexName);
  if (!index) throw validation(`The table does not have the specified index: ${input.IndexName}`);
  if (index.kind === 'gsi' && input.ConsistentRead) throw validation('Consistent reads are not supported on global secondary indexes');
  if (input.Select === 'ALL_ATTRIBUTES' && index.projection !== 'ALL' && index.kind === 'gsi') {
    throw validation(`One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index ${index.name} because its projection type is not ALL`);
  }
  return { space: table.spaces.get(index.name)!, index };
}

/** The position after which a page starts, checked as DynamoDB checks an ExclusiveStartKey. */
function startKey(table: Table, index: IndexShape | undefined, given: Record<string, unknown> | undefined): AttributeMap | undefined {
  if (given === undefined) return undefined;
  const start = marshallMap(given);
  const names = [...new Set([...table.keyNames, ...(index ? [...index.key.hash, ...index.key.range] : [])])];
  if (Object.keys(start).length !== names.length || names.some((name) => start[name] === undefined)) throw validation("Exclusive Start Key must have same size as table's key schema");
  for (const name of names) if (typeOf(start[name]!) !== table.types.get(name)) throw validation('The provided starting key is invalid: The provided key element does not match the schema');
  return start;
}

export function query(ctx: EngineContext, input: RequestInput): unknown {
  const table = ctx.table(input.TableName);
  const aliases = aliasesOf(input, true);
  if (input.KeyConditionExpression === undefined) throw validation('Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.');
  const { space, index } = keySpaceOf(table, input);
  const keyCondition = resolveCondition(parseCondition('KeyConditionExpression', input.KeyConditionExpression), aliases, 'KeyConditionExpression');
  const { filter, projection } = expressions(input, ['FilterExpression', 'ProjectionExpression'], aliases);
  aliases.checkAllUsed();
  if (input.Limit !== undefined && input.Limit < 1) throw validation('Limit must be greater than or equal to 1');
  if (filter) checkFilterKeys(filter, space.key);
  if (index && filter) checkProjected(table, index, 'filter', topNames(filter));
  if (index && projection) checkProjected(table, index, 'projection', projection.map((parts) => parts[0] as string));
  const { partition, test, bounds } = keyTest(keyCondition, space.key);
  const start = startKey(table, index, input.ExclusiveStartKey);
  if (start && test && !test(start)) throw validation('The provided starting key does not match the range key predicate');
  const entries = space.partitions.get(partition)?.entries ?? [];
  const forward = input.ScanIndexForward !== false;
  const startOrder = start ? [...space.key.range.map((name) => start[name]!), ...(space === table.data ? [] : table.keyNames.map((name) => start[name]!))] : undefined;
  let from: number;
  if (forward) {
    from = startOrder ? lowerBound(entries, startOrder) : 0;
    if (startOrder && from < entries.length && compareOrder(entries[from]!.order, startOrder) === 0) from++;
  } else {
    from = (startOrder ? lowerBound(entries, startOrder) : entries.length) - 1;
  }
  // the entries a key condition selects are contiguous in the partition's order
  const candidates = function* () {
    let matched = false;
    for (let i = from; forward ? i < entries.length : i >= 0; i += forward ? 1 : -1) {
      const entry = entries[i]!;
      if (!test || test(entry.item)) {
        matched = true;
        yield entry;
      } else if (matched) return;
    }
  };
  // a page that ends on the inclusive bound the query reads towards has nothing after it: no LastEvaluatedKey (as DynamoDB Local answers)
  const end = forward ? bounds.high : bounds.low;
  const atEnd = end && bounds.attribute ? (entry: Entry) => compareScalars(entry.item[bounds.attribute!]!, end) === 0 : undefined;
  return page(table, index, input, candidates(), filter, projection, atEnd);
}

export function scan(ctx: EngineContext, input: RequestInput): unknown {
  const table = ctx.table(input.TableName);
  const aliases = aliasesOf(input, input.FilterExpression !== undefined || input.ProjectionExpression !== undefined);
  const { space, index } = keySpaceOf(table, input);
  const { filter, projection } = expressions(input, ['FilterExpression', 'ProjectionExpression'], aliases);
  aliases.checkAllUsed();
  if (index && projection) checkProjected(table, index, 'projection', projection.map((parts) => parts[0] as string));
  if (input.Limit !== undefined && input.Limit < 1) throw validation('Limit must be greater than or equal to 1');
  const segments = input.TotalSegments;
  if (input.Segment !== undefined && segments === undefined) throw validation('If segment is specified, total segment must also be specified');
  if (segments !== undefined && input.Segment === undefined) throw validation('If total segment is specified, segment must also be specified');
  if (segments !== undefined && (segments < 1 || segments > 1_000_000)) throw validation(`1 validation error detected: Value '${segments}' at 'totalSegments' failed to satisfy constraint: Member must have value ${segments < 1 ? 'greater than or equal to 1' : 'less than or equal to 1000000'}`);
  if (segments !== undefined && (input.Segment! < 0 || input.Segment! >= segments)) {
    throw validation(`1 validation error detected: Value '${input.Segment}' at 'segment' failed to satisfy constraint: Member must have value ${input.Segment! < 0 ? 'greater than or equal to 0' : `less than or equal to ${segments - 1}`}`);
  }
  const start = startKey(table, index, input.ExclusiveStartKey);
  const partitions = space.scanPartitions();
  const inSegment = (id: string) => segments === undefined || Math.floor((space.partitions.get(id)!.hash * segments) / 4294967296) === input.Segment;
  let first = 0;
  let startOrder: AttributeValue[] | undefined;
  if (start) {
    const id = space.partitionOf(start);
    const hash = hashOf(id);
    first = partitions.findIndex((p) => {
      const h = space.partitions.get(p)!.hash;
      return h > hash || (h === hash && p >= id);
    });
    if (first === -1) first = partitions.length;
    else if (partitions[first] === id) startOrder = [...space.key.range.map((name) => start[name]!), ...(space === table.data ? [] : table.keyNames.map((name) => start[name]!))];
  }
  const candidates = function* () {
    for (let p = first; p < partitions.length; p++) {
      const id = partitions[p]!;
      if (!inSegment(id)) continue;
      const entries = space.partitions.get(id)!.entries;
      let i = 0;
      if (p === first && startOrder) {
        i = lowerBound(entries, startOrder);
        if (i < entries.length && compareOrder(entries[i]!.order, startOrder) === 0) i++;
      }
      for (; i < entries.length; i++) yield entries[i]!;
    }
  };
  return page(table, index, input, candidates(), filter, projection);
}

/** One page of a Query or Scan: Limit items evaluated (before the filter), at most 1 MB read. */
function page(
  table: Table,
  index: IndexShape | undefined,
  input: RequestInput,
  candidates: Iterable<Entry>,
  filter: ResolvedCondition | undefined,
  projection: PathPart[][] | undefined,
  atEnd?: (entry: Entry) => boolean,
): unknown {
  const items: Array<Record<string, unknown>> = [];
  let scanned = 0;
  let bytes = 0;
  let last: Entry | undefined;
  let more = false;
  const count = input.Select === 'COUNT';
  let counted = 0;
  // a local index reads what it does not project from the table (a global one cannot): the 1 MB
  // and the read units count what was read, the index entry or the table's item (DynamoDB Local
  // counts the table's item either way)
  // (a scan's filter on what the index does not project reads the table's item too, as DynamoDB Local does)
  const unprojected = (names: readonly string[]) => names.some((name) => !projectedNames(table, index!).has(name));
  const fetches =
    index?.kind === 'lsi' &&
    index.projection !== 'ALL' &&
    (input.Select === 'ALL_ATTRIBUTES' || unprojected((projection ?? []).map((parts) => parts[0] as string)) || (filter !== undefined && unprojected(topNames(filter))));
  for (const entry of candidates) {
    if ((input.Limit !== undefined && scanned >= input.Limit) || bytes >= PAGE_BYTES) {
      more = true;
      break;
    }
    scanned++;
    last = entry;
    const whole = fetches ? (table.get(table.keyOf(entry.item)) ?? entry.item) : entry.item;
    bytes += whole === entry.item ? entry.size : itemBytes(whole);
    if (filter && !evaluateCondition(filter, whole)) continue;
    counted++;
    if (count) continue;
    const item = projection ? project(whole, projection) : input.Select === 'ALL_ATTRIBUTES' ? whole : entry.item;
    items.push(unmarshallMap(item));
  }
  if (!more && input.Limit !== undefined && scanned >= input.Limit && last) more = !atEnd?.(last);
  const used = capacity();
  const units = scanned === 0 ? 0 : readUnits(bytes, input.ConsistentRead === true);
  if (index) used.indexes.set(index.name, units);
  else used.read = units;
  const out: Record<string, unknown> = count ? { Count: counted, ScannedCount: scanned } : { Items: items, Count: counted, ScannedCount: scanned };
  if (more && last) {
    const key: AttributeMap = table.keyOf(last.item);
    if (index) for (const name of [...index.key.hash, ...index.key.range]) key[name] = last.item[name]!;
    out.LastEvaluatedKey = unmarshallMap(key);
  }
  const cc = consumed(table, used, input.ReturnConsumedCapacity);
  if (cc) out.ConsumedCapacity = cc;
  return out;
}

export function batchGet(ctx: EngineContext, input: RequestInput, fault: Fault | undefined): unknown {
  const requested = Object.entries((input.RequestItems ?? {}) as Record<string, { Keys?: Array<Record<string, unknown>>; ConsistentRead?: boolean; ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> }>);
  const total = requested.reduce((sum, [, r]) => sum + (r.Keys?.length ?? 0), 0);
  if (total > 100) throw validation('Too many items requested for the BatchGetItem call');
  const plans = requested.map(([name, request]) => {
    const table = ctx.table(name);
    const aliases = aliasesOf(request, request.ProjectionExpression !== undefined);
    const { projection } = expressions(request, ['ProjectionExpression'], aliases);
    aliases.checkAllUsed();
    const keys = (request.Keys ?? []).map((key) => checkKey(table, marshallMap(key)));
    const ids = new Set<string>();
    for (const key of keys) {
      const id = table.idOf(key);
      if (ids.has(id)) throw validation('Provided list of item keys contains duplicates');
      ids.add(id);
    }
    return { name, table, request, keys, projection };
  });
  const skipped = unprocessed(ctx, fault, plans.flatMap((plan) => plan.keys.map((key) => ({ plan, key }))));
  const Responses: Record<string, Array<Record<string, unknown>>> = {};
  const UnprocessedKeys: Record<string, { Keys: Array<Record<string, unknown>>; ConsistentRead?: boolean }> = {};
  const capacities: Array<Record<string, unknown>> = [];
  let responseBytes = 0;
  for (const plan of plans) {
    const used = capacity();
    const found: Array<Record<string, unknown>> = [];
    for (const key of plan.keys) {
      const item = skipped.has(key) ? undefined : plan.table.get(key);
      // a response holds at most 16 MB of items (whole items, whatever the projection); the keys past it come back unprocessed
      if (item && (responseBytes += itemBytes(item)) > BATCH_GET_BYTES) skipped.add(key);
      if (skipped.has(key)) {
        (UnprocessedKeys[plan.name] ??= { Keys: [], ...(plan.request.ConsistentRead ? { ConsistentRead: true } : {}) }).Keys.push(unmarshallMap(key));
        continue;
      }
      if (!item) continue;
      used.read += readUnits(itemBytes(item), plan.request.ConsistentRead === true);
      found.push(unmarshallMap(plan.projection ? project(item, plan.projection) : item));
    }
    Responses[plan.name] = found;
    const cc = consumed(plan.table, used, input.ReturnConsumedCapacity);
    if (cc) capacities.push(cc);
  }
  return { Responses, UnprocessedKeys, ...(capacities.length ? { ConsumedCapacity: capacities } : {}) };
}

export function transactGet(ctx: EngineContext, input: RequestInput): unknown {
  const items = input.TransactItems ?? [];
  if (items.length === 0) throw validation("Value [] at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1");
  if (items.length > 100) throw validation('Member must have length less than or equal to 100');
  const seen = new Set<string>();
  const reads = items.map((entry) => {
    const get = entry.Get;
    if (!get) throw validation('TransactGetItems takes Get actions only');
    const table = ctx.table(get.TableName);
    const aliases = aliasesOf(get, get.ProjectionExpression !== undefined);
    const { projection } = expressions(get, ['ProjectionExpression'], aliases);
    aliases.checkAllUsed();
    const key = checkKey(table, marshallMap(get.Key ?? {}));
    const id = `${table.name}\u0000${table.idOf(key)}`;
    if (seen.has(id)) throw validation('Transaction request cannot include multiple operations on one item');
    seen.add(id);
    return { table, key, projection };
  });
  const usedBy = new Map<Table, Capacity>();
  const Responses = reads.map(({ table, key, projection }) => {
    const item = table.get(key);
    const used = usedBy.get(table) ?? capacity();
    usedBy.set(table, used);
    used.read += 2 * readUnits(item ? itemBytes(item) : 0, true);
    return item ? { Item: unmarshallMap(projection ? project(item, projection) : item) } : {};
  });
  const capacities = [...usedBy].map(([table, used]) => consumed(table, used, input.ReturnConsumedCapacity)).filter((c) => c !== undefined);
  return { Responses, ...(capacities.length ? { ConsumedCapacity: capacities } : {}) };
}
