// The engine behind programs emitted by `ddbgen diff --emit-migration`: reads every item by
// parallel scan segments (each runnable alone, in its own process or on another machine), parses
// each with the old schema's key templates and builds it again with the new one's, and writes:
//
// - a rewritten key as one transaction: put the new item unless its key exists (a concurrent
//   new-style write wins) and delete the old one, so an item is never lost or doubled;
// - a backfill (index attributes only) as an update conditioned on the values it was computed from;
// - an old item whose new key already exists is only deleted, through the batch executor;
// - an edge item (node ids re-encoded, delimiter or labels changed) moves together with its other
//   half in one transaction: both new items put unless they exist, both old ones deleted only if
//   they are still there, so an edge is always whole in one form or the other.
//
// Each segment checkpoints after every page, so a restarted run resumes where it stopped; an item
// already migrated parses as new-style and is left alone, so re-running changes nothing already
// done. Writes are capped in consumed write units per second, measured with
// ReturnConsumedCapacity. Items that parse as no entity of the old schema, or cannot be built
// with the new one, are reported by key and skipped, never written.

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, ScanCommand, TransactWriteCommand, UpdateCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { batchWriteRecords, defaultSleep, mapConcurrent } from './batch.js';
import { KeyTemplate, splitKey, type KeyTemplateDef } from './codec.js';
import { edgeNodeTypes, type EdgeModel, type NodeType } from './edge.js';
import type { AttributeCodecs } from './item.js';
import { hasDiscriminator, propertyNamed, storedItem, type EntityModel, type TableContext } from './repository.js';

/**
 * What the migration reads of an old-schema entity model. The old schema's code carries its own
 * copy of the runtime (its codec), so its models are typed by shape, not by this copy's classes.
 */
export interface OldEntityModel {
  readonly name: string;
  readonly pk: { readonly attribute: string; readonly template: { parse(key: string): Record<string, unknown> } };
  readonly sk: { readonly attribute: string; readonly template: { parse(key: string): Record<string, unknown> } } | undefined;
  readonly codecs: AttributeCodecs;
  readonly keyAttributes: readonly string[];
  /** Attributes the old schema stored under other names (`storedAs`). */
  readonly storedNames?: Readonly<Record<string, string>>;
  readonly discriminator?: Readonly<Record<string, string>>;
}

/** The old runtime's `fromStored`: a stored record back to an item, by the old attribute codecs. */
export type DecodeStored = (entity: string, codecs: AttributeCodecs, stored: Readonly<Record<string, unknown>>, keyAttributes: readonly string[]) => Record<string, unknown>;

/** One entity whose stored items the migration moves: `rewrite` (primary key) or `backfill` (index attributes). */
export interface MigratedEntity {
  readonly name: string;
  readonly kind: 'rewrite' | 'backfill';
  readonly from: OldEntityModel;
  readonly to: EntityModel;
}

/**
 * What the migration reads of an old-schema edge model (typed by shape, like OldEntityModel): the
 * definitions of its node key templates, carrying the old codec version, are rebuilt here.
 */
export type OldEdgeModel = Pick<EdgeModel, 'name' | 'forward' | 'inverse' | 'inverseIndex' | 'delimiter' | 'pk' | 'sk' | 'keyAttributes'> & {
  readonly nodes: Readonly<Record<string, { readonly def: KeyTemplateDef }>>;
};

/** An edge whose stored items move to new keys: node ids re-encoded (key codec), delimiter or labels changed. */
export interface MigratedEdge {
  readonly name: string;
  readonly from: OldEdgeModel;
  readonly to: EdgeModel;
}

/** The items one edge item moves: the half the scan read first, then its other half when that is a second item. */
export interface EdgeMove {
  readonly edge: string;
  readonly halves: ReadonlyArray<{ readonly old: Readonly<Record<string, unknown>>; readonly next: Readonly<Record<string, unknown>> }>;
}

export interface MigrationPlan {
  /** Identifies this migration (its table and both schema versions): checkpoints carry it. */
  readonly id: string;
  /** The physical table name used when `--table` is not given. */
  readonly tableName: string;
  readonly entities: readonly MigratedEntity[];
  /** The old schema's other entities: their items are recognised and left alone. */
  readonly unchanged: readonly OldEntityModel[];
  /** Edges whose stored items move (both halves of each). */
  readonly edges: readonly MigratedEdge[];
  /** Sort-key prefixes of the old schema's other edges' items (`FAN_OF#`): recognised and left alone. */
  readonly edgePrefixes: readonly string[];
  /** Decodes an old item with the old schema's runtime. */
  readonly decode: DecodeStored;
  /** Default write cap in consumed WCU/s, from the capacity plan. */
  readonly maxWcu: number;
}

export interface MigrationOptions {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  /** Total parallel scan segments (DynamoDB's TotalSegments). */
  readonly segments: number;
  /** The segments this run processes (default: all of them, concurrently). */
  readonly only?: readonly number[];
  /** Folder of the per-segment checkpoint files. */
  readonly checkpoints: string;
  /** Write cap for this process, in consumed write units per second. */
  readonly maxWcu: number;
  /** Items per Scan page. Default 100. */
  readonly pageSize?: number;
  /** Writes in flight per segment. Default 8. */
  readonly concurrency?: number;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
}

export interface SegmentCounts {
  scanned: number;
  /** Items written under their new key; an edge's other half, moved with the item scanned, counts too. */
  rewritten: number;
  backfilled: number;
  /** Already in the new form (a re-run, written by new code, or an edge half its other half moved). */
  current: number;
  /** Old items whose new key was already taken by a newer write: only the old key was deleted. */
  superseded: number;
  /** Items of entities the migration does not change. */
  unchanged: number;
  skipped: number;
}

export interface SkippedItem {
  readonly key: Readonly<Record<string, unknown>>;
  readonly reason: string;
}

export interface MigrationReport {
  readonly migration: string;
  readonly segments: Readonly<Record<number, SegmentCounts>>;
  readonly skipped: readonly SkippedItem[];
  /** Write units DynamoDB reported consumed by this run. */
  readonly consumedWcu: number;
  readonly seconds: number;
}

interface Checkpoint {
  readonly migration: string;
  readonly segment: number;
  readonly segments: number;
  /** Where the next page starts; absent before the first page. */
  readonly next?: Record<string, unknown>;
  readonly done: boolean;
  readonly counts: SegmentCounts;
  /** Items skipped so far, kept so a resumed run still reports them. */
  readonly skipped: readonly SkippedItem[];
}

/** A checkpoint that belongs to another migration or another segment count: nothing is written. */
export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
}

/** Caps consumed write units per second: a bucket refilled continuously, starting empty, holding at most one second's units. */
export class CapacityMeter {
  private tokens = 0;
  private last: number;
  consumed = 0;
  readonly perSecond: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  constructor(perSecond: number, now: () => number = Date.now, sleep: (ms: number) => Promise<void> = defaultSleep) {
    this.perSecond = perSecond;
    this.now = now;
    this.sleep = sleep;
    this.last = now();
  }

  private refill(): void {
    const at = this.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((at - this.last) / 1000) * this.perSecond);
    this.last = at;
  }

  /** Waits until the bucket is not in debt. */
  async acquire(): Promise<void> {
    for (this.refill(); this.tokens <= 0; this.refill()) await this.sleep(Math.ceil((-this.tokens / this.perSecond) * 1000) + 1);
  }

  /** Charges what DynamoDB reported. */
  charge(units: number): void {
    this.consumed += units;
    this.tokens -= units;
  }
}

const emptyCounts = (): SegmentCounts => ({ scanned: 0, rewritten: 0, backfilled: 0, current: 0, superseded: 0, unchanged: 0, skipped: 0 });

function checkpointFile(dir: string, segment: number, segments: number): string {
  return path.join(dir, `segment-${segment}-of-${segments}.json`);
}

/** Reads a segment's checkpoint; a foreign one (another migration, another segment count) is an error. */
export function readCheckpoint(dir: string, migration: string, segment: number, segments: number): Checkpoint | undefined {
  if (existsSync(dir)) {
    const other = readdirSync(dir).find((f) => /^segment-\d+-of-\d+\.json$/.test(f) && !f.endsWith(`-of-${segments}.json`));
    if (other) throw new CheckpointError(`${path.join(dir, other)} was made with another --segments; resume with the same count, or use another --checkpoints folder`);
  }
  const file = checkpointFile(dir, segment, segments);
  if (!existsSync(file)) return undefined;
  const checkpoint = JSON.parse(readFileSync(file, 'utf8')) as Checkpoint;
  if (checkpoint.migration !== migration) {
    throw new CheckpointError(`${file} belongs to migration ${checkpoint.migration}, not ${migration}; use another --checkpoints folder for this migration`);
  }
  return checkpoint;
}

function writeCheckpoint(dir: string, checkpoint: Checkpoint): void {
  mkdirSync(dir, { recursive: true });
  const file = checkpointFile(dir, checkpoint.segment, checkpoint.segments);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(checkpoint, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** Whether the model's table-key templates parse the stored item's keys. */
function owns(model: OldEntityModel, stored: Readonly<Record<string, unknown>>): boolean {
  if (!hasDiscriminator(model, stored)) return false;
  try {
    if (typeof stored[model.pk.attribute] !== 'string') return false;
    model.pk.template.parse(stored[model.pk.attribute] as string);
    if (model.sk) {
      if (typeof stored[model.sk.attribute] !== 'string') return false;
      model.sk.template.parse(stored[model.sk.attribute] as string);
    }
    return true;
  } catch {
    return false;
  }
}

const tableKey = (model: OldEntityModel, record: Readonly<Record<string, unknown>>) =>
  Object.fromEntries([model.pk.attribute, ...(model.sk ? [model.sk.attribute] : [])].map((a) => [a, record[a]]));

/** A stored item's table key, by the attribute names of the plan's first entity or edge. */
function storedKey(plan: MigrationPlan, stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const edge = plan.edges[0]?.from;
  const first = plan.entities[0]?.from;
  const names = first ? [first.pk.attribute, ...(first.sk ? [first.sk.attribute] : [])] : edge ? [edge.pk, edge.sk] : [];
  return Object.fromEntries(names.map((a) => [a, stored[a]]));
}

const units = (consumed: unknown): number =>
  (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce((sum: number, c: { CapacityUnits?: number }) => sum + (c.CapacityUnits ?? 0), 0);

const isConditionFailure = (error: unknown) => {
  const e = error as { name?: string; CancellationReasons?: Array<{ Code?: string }> };
  return e.name === 'ConditionalCheckFailedException' || (e.name === 'TransactionCanceledException' && (e.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed'));
};

/** One version of an edge as the migration reads and builds its items: the model and each node type's templates. */
interface EdgeForm {
  readonly model: OldEdgeModel;
  readonly types: ReadonlyMap<string, NodeType>;
}

/** A node an edge item names: its type and the values of its key parts. */
interface NodeRef {
  readonly type: string;
  readonly values: Record<string, unknown>;
}

const forms = new WeakMap<MigratedEdge, { readonly old: EdgeForm; readonly next: EdgeForm }>();

function edgeForm(model: OldEdgeModel): EdgeForm {
  // the templates are rebuilt from their definitions, so the old schema's codec version comes along
  const nodes = Object.fromEntries(Object.entries(model.nodes).map(([type, key]) => [type, new KeyTemplate(key.def)]));
  return { model, types: edgeNodeTypes({ ...model, nodes, codecs: {}, attributes: [] }) };
}

function edgeForms(edge: MigratedEdge): { readonly old: EdgeForm; readonly next: EdgeForm } {
  let found = forms.get(edge);
  if (!found) forms.set(edge, (found = { old: edgeForm(edge.from), next: edgeForm(edge.to) }));
  return found;
}

function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * Reads a stored item as one half of an edge in `form`: which half (by its sort key's label), the
 * node its sort key names, and the nodes its partition key can be (every node type whose key
 * template reads it; the inverse-index sort key, when there is one, says which).
 */
function readEdgeItem(form: EdgeForm, stored: Readonly<Record<string, unknown>>): { half: 'forward' | 'inverse'; here: NodeRef[]; there: NodeRef } | 'foreign' | 'unreadable' {
  const { model, types } = form;
  const pk = stored[model.pk];
  const sk = stored[model.sk];
  if (typeof pk !== 'string' || typeof sk !== 'string') return 'foreign';
  const [label, type] = splitKey(sk, model.delimiter) ?? [];
  const half = label === model.forward ? 'forward' : label === model.inverse && !model.inverseIndex ? 'inverse' : undefined;
  if (!half) return 'foreign';
  const node = type === undefined ? undefined : types.get(type);
  const values = node && attempt(() => node[half]!.parse(sk));
  if (!values) return 'unreadable';
  let here = [...types].flatMap(([name, t]) => {
    const read = attempt(() => t.key.parse(pk));
    return read ? [{ type: name, values: read }] : [];
  });
  const indexSk = model.inverseIndex && stored[model.inverseIndex.sk];
  if (typeof indexSk === 'string') here = here.filter((n) => n.type === splitKey(indexSk, model.delimiter)?.[1]);
  return here.length ? { half, here, there: { type: type!, values } } : 'unreadable';
}

/** The keys of an edge's items in one form: the forward item, the inverse item (when it is a second item) and the forward item's inverse-index keys. */
function edgeKeys(form: EdgeForm, from: NodeRef, to: NodeRef): { forward: Record<string, string>; inverse?: Record<string, string>; index: Record<string, string> } {
  const { model, types } = form;
  const typeOf = (node: NodeRef) => {
    const found = types.get(node.type);
    if (!found) throw new Error(`"${node.type}" is not a node type of edge ${model.name} in this schema`);
    return found;
  };
  const key = (node: NodeRef) => typeOf(node).key.build(node.values);
  const link = (half: 'forward' | 'inverse', node: NodeRef) => typeOf(node)[half]!.build(node.values);
  const forward = { [model.pk]: key(from), [model.sk]: link('forward', to) };
  const inverse = model.inverse !== undefined && !model.inverseIndex ? { [model.pk]: key(to), [model.sk]: link('inverse', from) } : undefined;
  const index = model.inverseIndex && model.inverse !== undefined ? { [model.inverseIndex.pk]: key(to), [model.inverseIndex.sk]: link('inverse', from) } : {};
  // a symmetric edge's link from a node to itself is one item
  const one = inverse && inverse[model.pk] === forward[model.pk] && inverse[model.sk] === forward[model.sk];
  return { forward, ...(inverse && !one ? { inverse } : {}), index };
}

const sameKey = (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) => JSON.stringify(a) === JSON.stringify(b);

/** What an old edge item needs, given the nodes it joins: the halves that move, this one first. */
function edgeMove(edge: MigratedEdge, stored: Readonly<Record<string, unknown>>, half: 'forward' | 'inverse', from: NodeRef, to: NodeRef): EdgeMove | 'current' {
  const { old, next } = edgeForms(edge);
  const before = edgeKeys(old, from, to);
  const after = edgeKeys(next, from, to);
  const own = before[half];
  if (!own || !sameKey(own, { [old.model.pk]: stored[old.model.pk], [old.model.sk]: stored[old.model.sk] })) {
    throw new Error(`its key is not the one the old schema writes for this edge (${JSON.stringify(own)})`);
  }
  if (Boolean(before.inverse) !== Boolean(after.inverse)) throw new Error('it is stored as one item in one schema and as two in the other');
  // both halves carry the same attributes; the forward one also the inverse-index keys
  const attributes = Object.fromEntries(Object.entries(stored).filter(([name]) => !old.model.keyAttributes.includes(name) && !next.model.keyAttributes.includes(name)));
  const item = (h: 'forward' | 'inverse') => ({ old: before[h]!, next: { ...attributes, ...after[h]!, ...(h === 'forward' ? after.index : {}) } });
  const halves = [half, ...(before.inverse ? [half === 'forward' ? 'inverse' : 'forward'] as const : [])].map(item);
  if (sameKey(halves[0]!.old, { [next.model.pk]: halves[0]!.next[next.model.pk], [next.model.sk]: halves[0]!.next[next.model.sk] })) return 'current';
  return { edge: edge.name, halves: halves.filter((h) => !sameKey(h.old, { [next.model.pk]: h.next[next.model.pk], [next.model.sk]: h.next[next.model.sk] })) };
}

/** Classifies a stored item against a migrated edge: undefined when it is no item of that edge. */
function classifyEdge(edge: MigratedEdge, stored: Readonly<Record<string, unknown>>): { move: EdgeMove } | { leave: 'current' } | { skip: string } | undefined {
  const { old, next } = edgeForms(edge);
  const read = readEdgeItem(old, stored);
  if (typeof read === 'string') {
    const current = readEdgeItem(next, stored);
    if (typeof current !== 'string') return { leave: 'current' };
    return read === 'unreadable' || current === 'unreadable' ? { skip: `edge ${edge.name}: its keys name no node of the old schema or the new one` } : undefined;
  }
  const moves: Array<EdgeMove | 'current'> = [];
  try {
    for (const here of read.here) moves.push(edgeMove(edge, stored, read.half, read.half === 'forward' ? here : read.there, read.half === 'forward' ? read.there : here));
  } catch (error) {
    return { skip: `edge ${edge.name}: ${(error as Error).message}` };
  }
  // a partition key that several node types' templates read: only when every reading moves the same items
  if (moves.some((m) => JSON.stringify(m) !== JSON.stringify(moves[0]))) return { skip: `edge ${edge.name}: its partition key reads as a node of ${read.here.map((n) => n.type).join(' and ')}, which move it differently` };
  return moves[0] === 'current' ? { leave: 'current' } : { move: moves[0]! };
}

/** What one stored item needs: the migrated entity or edge it belongs to (old form), or why it is left alone. */
export function classify(plan: MigrationPlan, stored: Readonly<Record<string, unknown>>): { entity: MigratedEntity } | { move: EdgeMove } | { leave: 'current' | 'unchanged' } | { skip: string } {
  for (const edge of plan.edges) {
    const what = classifyEdge(edge, stored);
    if (what) return what;
  }
  for (const entity of plan.entities) if (owns(entity.from, stored)) return { entity };
  if (plan.entities.some((e) => owns(e.to, stored))) return { leave: 'current' };
  if (plan.unchanged.some((m) => owns(m, stored))) return { leave: 'unchanged' };
  const skAttribute = plan.entities[0]?.from.sk?.attribute;
  const sk = skAttribute === undefined ? undefined : stored[skAttribute];
  if (typeof sk === 'string' && plan.edgePrefixes.some((prefix) => sk.startsWith(prefix))) return { leave: 'unchanged' };
  return { skip: 'its keys match no entity of the old schema' };
}

/** The changed index attributes of a record: SET these, REMOVE those, when the stored ones differ. */
function indexChanges(entity: MigratedEntity, stored: Readonly<Record<string, unknown>>, next: Readonly<Record<string, unknown>>): { set: Record<string, unknown>; remove: string[] } {
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  const primary = new Set(Object.keys(tableKey(entity.to, next)));
  for (const name of new Set([...entity.to.keyAttributes, ...entity.from.keyAttributes])) {
    if (primary.has(name) || stored[name] === next[name]) continue;
    if (next[name] === undefined) remove.push(name);
    else set[name] = next[name];
  }
  // attributes the new schema stores under another name or in another timestamp format: rewritten
  const { from, to } = entity;
  const storedName = (model: Pick<EntityModel, 'storedNames'>, name: string) => model.storedNames?.[name] ?? name;
  for (const name of to.attributes) {
    const [old, now] = [storedName(from, name), storedName(to, name)];
    if (old === now && JSON.stringify(from.codecs[name]) === JSON.stringify(to.codecs[name])) continue;
    if (JSON.stringify(stored[now]) !== JSON.stringify(next[now])) {
      if (next[now] === undefined) remove.push(now);
      else set[now] = next[now];
    }
    if (old !== now && stored[old] !== undefined) remove.push(old);
  }
  return { set, remove };
}

async function migrateItem(ctx: TableContext, meter: CapacityMeter, decode: DecodeStored, entity: MigratedEntity, stored: Record<string, unknown>, counts: SegmentCounts, skipped: SkippedItem[]): Promise<void> {
  const oldKey = tableKey(entity.from, stored);
  let next: Record<string, unknown>;
  try {
    const item = decode(entity.name, entity.from.codecs, propertyNamed(entity.from, stored), entity.from.keyAttributes);
    next = storedItem(entity.to, item);
  } catch (error) {
    counts.skipped++;
    skipped.push({ key: oldKey, reason: `${entity.name}: ${(error as Error).message}` });
    return;
  }
  const newKey = tableKey(entity.to, next);
  await meter.acquire();
  if (JSON.stringify(newKey) !== JSON.stringify(oldKey)) {
    try {
      const result = await ctx.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: ctx.tableName, Item: next, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': entity.to.pk.attribute } } },
            { Delete: { TableName: ctx.tableName, Key: oldKey } },
          ],
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      meter.charge(units(result.ConsumedCapacity));
      counts.rewritten++;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // a newer write holds the new key: it wins, and the old item only goes away. DynamoDB reports
      // no consumed capacity for a cancelled transaction or a batch: both are charged their minimum.
      meter.charge(2);
      await batchWriteRecords(ctx, { operation: 'batchDelete', entity: entity.name }, [{ request: { DeleteRequest: { Key: oldKey } }, source: oldKey }], Object.keys(oldKey), ctx.retry);
      meter.charge(1);
      counts.superseded++;
    }
    return;
  }
  const { set, remove } = indexChanges(entity, stored, next);
  if (Object.keys(set).length === 0 && remove.length === 0) {
    counts.current++;
    return;
  }
  // conditioned on what the index keys were computed from: a concurrent write wins
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions: string[] = [];
  const inputs = new Set(entity.to.indexes.flatMap((i) => i.inputs));
  let n = 0;
  const alias = (name: string) => {
    const key = `#n${n++}`;
    names[key] = name;
    return key;
  };
  for (const name of [...inputs, ...Object.keys(set), ...remove]) {
    const a = alias(name);
    if (stored[name] === undefined) conditions.push(`attribute_not_exists(${a})`);
    else {
      values[`:c${n}`] = stored[name];
      conditions.push(`${a} = :c${n}`);
    }
  }
  const assignments = Object.entries(set).map(([name, value], i) => {
    values[`:s${i}`] = value;
    return `${alias(name)} = :s${i}`;
  });
  const removals = remove.map(alias);
  try {
    const result = await ctx.client.send(
      new UpdateCommand({
        TableName: ctx.tableName,
        Key: oldKey,
        UpdateExpression: [assignments.length ? `SET ${assignments.join(', ')}` : '', removals.length ? `REMOVE ${removals.join(', ')}` : ''].filter(Boolean).join(' '),
        ConditionExpression: [`attribute_exists(${alias(entity.to.pk.attribute)})`, ...conditions].join(' AND '),
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    meter.charge(units(result.ConsumedCapacity));
    counts.backfilled++;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    meter.charge(1); // a failed condition is charged one unit, and DynamoDB does not report it
    counts.superseded++;
  }
}

/** Transactions cancelled by a concurrent transaction on the same items (another segment moving the other half) are tried again this many times. */
const CONFLICT_ATTEMPTS = 8;

/**
 * Moves an edge item and its other half in one transaction: each new item put unless its key
 * exists, each old one deleted only if it is still there. When a condition fails: a newer write
 * holding a new key wins (the old halves are only deleted); an item already gone was moved with
 * its other half; a missing other half is reported and nothing is written.
 */
async function moveEdge(ctx: TableContext, meter: CapacityMeter, move: EdgeMove, counts: SegmentCounts, skipped: SkippedItem[]): Promise<void> {
  // the table's key attribute names are the same in both schemas (renaming them recreates the table)
  const names = { ExpressionAttributeNames: { '#pk': Object.keys(move.halves[0]!.old)[0]! } };
  const items = move.halves.flatMap((h) => [
    { Put: { TableName: ctx.tableName, Item: h.next, ConditionExpression: 'attribute_not_exists(#pk)', ...names } },
    { Delete: { TableName: ctx.tableName, Key: h.old, ConditionExpression: 'attribute_exists(#pk)', ...names } },
  ]);
  let reasons: ReadonlyArray<{ Code?: string }> = [];
  for (let attempt = 1; ; attempt++) {
    await meter.acquire();
    try {
      const result = await ctx.client.send(new TransactWriteCommand({ TransactItems: items, ReturnConsumedCapacity: 'TOTAL' }));
      meter.charge(units(result.ConsumedCapacity));
      counts.rewritten += move.halves.length;
      return;
    } catch (error) {
      reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
      // a cancelled transaction reports no consumed capacity: charged its minimum
      meter.charge(items.length);
      const conflict = reasons.some((r) => r.Code === 'TransactionConflict') && !isConditionFailure(error);
      if (conflict && attempt < CONFLICT_ATTEMPTS) {
        await defaultSleep(20 * 2 ** attempt * Math.random());
        continue;
      }
      if (!isConditionFailure(error)) throw error;
      break;
    }
  }
  const failed = reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
  const [own, other] = move.halves;
  if (other && failed.length === 1 && failed[0] === 3) {
    counts.skipped++;
    skipped.push({ key: own!.old, reason: `edge ${move.edge}: its other half ${JSON.stringify(other.old)} is not in the table (an edge is stored as two items); nothing was written` });
    return;
  }
  const remove = async (key: Readonly<Record<string, unknown>>) => {
    await meter.acquire();
    const result = await ctx.client.send(new DeleteCommand({ TableName: ctx.tableName, Key: key, ReturnValues: 'ALL_OLD', ReturnConsumedCapacity: 'TOTAL' }));
    meter.charge(units(result.ConsumedCapacity));
    return result.Attributes !== undefined;
  };
  if (!(await remove(own!.old))) {
    counts.current++; // moved with its other half meanwhile
    return;
  }
  if (other) await remove(other.old);
  counts.superseded++;
}

/** Runs one segment from its checkpoint to the end, checkpointing after every page. */
async function runSegment(
  plan: MigrationPlan,
  options: MigrationOptions,
  segment: number,
  meter: CapacityMeter,
  skipped: SkippedItem[],
  progress: (segment: number, counts: SegmentCounts, finished: boolean) => void,
): Promise<SegmentCounts> {
  const ctx: TableContext = { client: options.client, tableName: options.tableName };
  const saved = readCheckpoint(options.checkpoints, plan.id, segment, options.segments);
  const counts = saved ? { ...saved.counts } : emptyCounts();
  const own: SkippedItem[] = [...(saved?.skipped ?? [])];
  const report = () => skipped.push(...own);
  if (saved?.done) return report(), counts;
  let next = saved?.next;
  do {
    const page: ScanCommandOutput = await options.client.send(
      new ScanCommand({
        TableName: options.tableName,
        Segment: segment,
        TotalSegments: options.segments,
        Limit: options.pageSize ?? 100,
        ConsistentRead: true,
        ...(next ? { ExclusiveStartKey: next } : {}),
      }),
    );
    await mapConcurrent(page.Items ?? [], options.concurrency ?? 8, async (stored) => {
      counts.scanned++;
      const what = classify(plan, stored);
      if ('entity' in what) await migrateItem(ctx, meter, plan.decode, what.entity, stored, counts, own);
      else if ('move' in what) await moveEdge(ctx, meter, what.move, counts, own);
      else if ('leave' in what) counts[what.leave]++;
      else {
        counts.skipped++;
        own.push({ key: storedKey(plan, stored), reason: what.skip });
      }
    });
    next = page.LastEvaluatedKey;
    writeCheckpoint(options.checkpoints, { migration: plan.id, segment, segments: options.segments, ...(next ? { next } : {}), done: next === undefined, counts, skipped: own });
    progress(segment, counts, next === undefined);
  } while (next);
  report();
  return counts;
}

/** Migrates the segments of one run; resumes each from its checkpoint. */
export async function runMigration(plan: MigrationPlan, options: MigrationOptions): Promise<MigrationReport> {
  const { segments } = options;
  if (!Number.isInteger(segments) || segments < 1 || segments > 1_000_000) throw new RangeError(`--segments must be an integer from 1 to 1,000,000, got ${segments}`);
  const only = options.only ?? Array.from({ length: segments }, (_, i) => i);
  for (const s of only) if (!Number.isInteger(s) || s < 0 || s >= segments) throw new RangeError(`--segment ${s} is not in 0..${segments - 1}`);
  // every checkpoint is checked before anything is written
  for (const s of only) readCheckpoint(options.checkpoints, plan.id, s, segments);
  const started = Date.now();
  const meter = new CapacityMeter(options.maxWcu);
  const skipped: SkippedItem[] = [];
  const table = await options.client.send(new DescribeTableCommand({ TableName: options.tableName }));
  const expected = Math.max(1, Math.round((table.Table?.ItemCount ?? 0) / segments));
  let reported = 0;
  const all: Record<number, SegmentCounts> = {};
  const progress = (segment: number, counts: SegmentCounts, finished: boolean) => {
    all[segment] = counts;
    const now = Date.now();
    if (!options.log || (now - reported < 1000 && !finished)) return;
    reported = now;
    const seconds = (now - started) / 1000;
    const scanned = Object.values(all).reduce((sum, c) => sum + c.scanned, 0);
    const total = expected * only.length;
    const eta = scanned ? Math.max(0, Math.round(((total - scanned) * seconds) / scanned)) : undefined;
    options.log(
      `segment ${segment}/${segments}${finished ? ' done' : ''}: ${counts.scanned} scanned, ${counts.rewritten} rewritten, ${counts.backfilled} backfilled, ${counts.current} already done, ${counts.skipped} skipped; ` +
        `run: ${scanned} of ~${total} items, ${Math.round(meter.consumed / Math.max(seconds, 0.001))} WCU/s (cap ${options.maxWcu})${eta === undefined ? '' : `, ETA ${eta}s`}`,
    );
  };
  await mapConcurrent(only, only.length, async (segment) => {
    all[segment] = await runSegment(plan, options, segment, meter, skipped, progress);
  });
  return { migration: plan.id, segments: all, skipped, consumedWcu: meter.consumed, seconds: (Date.now() - started) / 1000 };
}

/**
 * The command line of an emitted migration program:
 * `--segments N [--segment I …] [--table NAME] [--checkpoints DIR] [--max-wcu N] [--endpoint URL] [--region R]`.
 * Progress goes to stderr, the final report (JSON) to stdout; exit 1 on a foreign checkpoint or failure.
 */
export async function migrationMain(plan: MigrationPlan, argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      segments: { type: 'string', default: '4' },
      segment: { type: 'string', multiple: true },
      table: { type: 'string' },
      checkpoints: { type: 'string' },
      'max-wcu': { type: 'string' },
      'page-size': { type: 'string' },
      endpoint: { type: 'string' },
      region: { type: 'string' },
    },
  });
  const tableName = values.table ?? plan.tableName;
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ ...(values.endpoint ? { endpoint: values.endpoint } : {}), ...(values.region ? { region: values.region } : {}) }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  try {
    const report = await runMigration(plan, {
      client,
      tableName,
      segments: Number(values.segments),
      ...(values.segment ? { only: values.segment.map(Number) } : {}),
      checkpoints: path.resolve(values.checkpoints ?? path.join('.ddbgen-checkpoints', plan.id)),
      maxWcu: values['max-wcu'] === undefined ? plan.maxWcu : Number(values['max-wcu']),
      ...(values['page-size'] ? { pageSize: Number(values['page-size']) } : {}),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    for (const s of report.skipped) process.stderr.write(`skipped ${JSON.stringify(s.key)}: ${s.reason}\n`);
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`migration ${plan.id}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    client.destroy();
  }
}
