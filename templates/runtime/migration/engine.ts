// The engine behind programs emitted by `ddbgen diff --emit-migration`: reads every item by
// parallel scan segments, parses each with the old schema's key templates and builds it again with
// the new one's, and writes:
//
// - a rewritten key as one transaction: put the new item unless its key exists (a concurrent
//   new-style write wins) and delete the old one, so an item is never lost or doubled; an item is
//   moved only from its stored key (its attributes must build that key, and fit the declared types);
// - an old item whose new key a newer write holds is deleted in a transaction that checks the new
//   one is there: nothing is deleted unless its replacement is written;
// - a random-shard counter is merged into its new key by ADDing its numbers, in one transaction
//   with the delete of the old item conditioned on the counts added (each count exactly once);
// - a backfill (index attributes only) as an update conditioned on the values it was computed from;
// - an edge item (node ids or keys re-encoded, delimiter or labels changed) moves together with its
//   other half in one transaction, so an edge is always whole in one form or the other.
//
// A segment saves each page's planned writes before sending them and its counts and next start
// after (SegmentStore: files here, a lease table in lease.ts), so a restarted run
// resumes where it stopped and counts the writes of a page it left mid-way; an item already
// migrated parses as new-style and is left alone. Writes go through the cap (capacity-bucket.ts).
// Items that cannot be moved as stored are reported by key with the reason and left in place.

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, ScanCommand, TransactWriteCommand, UpdateCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { batchGetRecords, defaultSleep, keyId, mapConcurrent } from '../batch.js';
import { CapacityBucket, recordUnits, writeUnits } from './capacity-bucket.js';
import { KeyTemplate, SHARD, keyAttributes, keyShard, keyTemplate, splitKey, type KeyTemplateDef } from '../codec.js';
import { itemTypeProblem, type DeclaredType } from '../declared-type.js';
import { edgeNodeTypes, type EdgeModel, type NodeType } from '../edge.js';
import { ExpressionAliases } from '../expression.js';
import { itemSize } from '../item-size.js';
import type { AttributeCodecs } from '../item.js';
import { hasDiscriminator, propertyNamed, storedItem, type EntityModel, type TableContext } from '../repository.js';

/** An old-schema key template: its definition (with its codec version), rebuilt here to parse stored keys. */
export interface OldKeyTemplate {
  readonly def: KeyTemplateDef;
}

/**
 * What the migration reads of an old-schema entity model. The old schema's code carries its own
 * copy of the runtime (its codec), so its models are typed by shape, not by this copy's classes.
 */
export interface OldEntityModel {
  readonly name: string;
  readonly pk: { readonly attribute: string; readonly template: OldKeyTemplate };
  readonly sk: { readonly attribute: string; readonly template: OldKeyTemplate } | undefined;
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
  /** The new schema's attribute declarations: a stored value that does not fit is reported, never written. */
  readonly declared: Readonly<Record<string, DeclaredType>>;
}

/**
 * What the migration reads of an old-schema edge model (typed by shape, like OldEntityModel): the
 * definitions of its node key templates, carrying the old codec version, are rebuilt here.
 */
export type OldEdgeModel = Pick<EdgeModel, 'name' | 'forward' | 'inverse' | 'inverseIndex' | 'delimiter' | 'pk' | 'sk' | 'keyAttributes' | 'codecs'> & {
  readonly nodes: Readonly<Record<string, { readonly def: KeyTemplateDef }>>;
};

/** An edge whose stored items move to new keys: node ids re-encoded (key codec), delimiter or labels changed. */
export interface MigratedEdge {
  readonly name: string;
  readonly from: OldEdgeModel;
  readonly to: EdgeModel;
  /** The new schema's declarations of the edge's attributes. */
  readonly declared: Readonly<Record<string, DeclaredType>>;
}

/** The items one edge item moves: the half the scan read first, then its other half when that is a second item. */
export interface EdgeMove {
  readonly edge: string;
  readonly halves: ReadonlyArray<{ readonly old: Readonly<Record<string, unknown>>; readonly next: Readonly<Record<string, unknown>> }>;
  /**
   * The half read is the inverse one and both halves move: the forward half's scan moves them and
   * counts them, so each edge has one mover (and one count, also when a segment is taken over
   * mid-page); this half is only checked to have its forward half.
   */
  readonly follows?: true;
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

/** How one process runs segments: its client and table, the scan page, the writes in flight. */
export interface SegmentOptions {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  /** Total parallel scan segments (DynamoDB's TotalSegments). */
  readonly segments: number;
  /** Items per Scan page. Default 100. */
  readonly pageSize?: number;
  /** Writes in flight per segment. Default 8. */
  readonly concurrency?: number;
}

export interface MigrationOptions extends SegmentOptions {
  /** The segments this run processes (default: all of them, concurrently). */
  readonly only?: readonly number[];
  /** Folder of the per-segment checkpoint files. */
  readonly checkpoints: string;
  /** Write cap for this process, in consumed write units per second. */
  readonly maxWcu: number;
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
  /** The most write units DynamoDB reported consumed in any 10 seconds of the run (the cap holds it to 10 × --max-wcu). */
  readonly busiest10s: number;
  readonly seconds: number;
}

/**
 * One planned write of a page, saved before the page's writes are sent: a run stopped mid-page
 * leaves them in its checkpoint, and the run that resumes counts the ones already made (their old
 * item is gone, or needs nothing any more) instead of finding them "already done".
 */
export interface PendingWrite {
  /** The scanned item's table key. */
  readonly key: Readonly<Record<string, unknown>>;
  readonly kind: 'rewritten' | 'backfilled';
  /** Items the write counts for (an edge's two halves). */
  readonly items: number;
}

/** A segment's progress, as a checkpoint holds it. */
export interface SegmentState {
  /** Where the next page starts; absent before the first page. */
  readonly next?: Record<string, unknown>;
  readonly done: boolean;
  readonly counts: SegmentCounts;
  /** The writes of the page after `next` while they are under way. */
  readonly pending?: readonly PendingWrite[];
}

/** Where a segment's checkpoints live: local files, or a lease table every worker shares. */
export interface SegmentStore {
  load(segment: number): Promise<SegmentState | undefined>;
  /** Saves progress and the items newly skipped since the last save; throws when the segment is no longer this process's to save. */
  save(segment: number, state: SegmentState, skipped: readonly SkippedItem[]): Promise<void>;
}

interface Checkpoint extends SegmentState {
  readonly migration: string;
  readonly segment: number;
  readonly segments: number;
  /** Items skipped so far, kept so a resumed run still reports them. */
  readonly skipped: readonly SkippedItem[];
}

/** A checkpoint that belongs to another migration or another segment count: nothing is written. */
export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
}

export const emptyCounts = (): SegmentCounts => ({ scanned: 0, rewritten: 0, backfilled: 0, current: 0, superseded: 0, unchanged: 0, skipped: 0 });

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

/** Checkpoints as files in one folder, one per segment, each replaced whole (write, then rename). */
export class FileCheckpoints implements SegmentStore {
  private readonly skipped = new Map<number, SkippedItem[]>();
  private readonly dir: string;
  private readonly migration: string;
  private readonly segments: number;
  constructor(dir: string, migration: string, segments: number) {
    this.dir = dir;
    this.migration = migration;
    this.segments = segments;
  }

  async load(segment: number): Promise<SegmentState | undefined> {
    const checkpoint = readCheckpoint(this.dir, this.migration, segment, this.segments);
    this.skipped.set(segment, [...(checkpoint?.skipped ?? [])]);
    return checkpoint;
  }

  async save(segment: number, state: SegmentState, skipped: readonly SkippedItem[]): Promise<void> {
    const all = this.skippedOf(segment);
    all.push(...skipped);
    mkdirSync(this.dir, { recursive: true });
    const file = checkpointFile(this.dir, segment, this.segments);
    const checkpoint: Checkpoint = { migration: this.migration, segment, segments: this.segments, ...state, skipped: all };
    writeFileSync(`${file}.tmp`, `${JSON.stringify(checkpoint, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  }

  /** Every item skipped in the segment, by this run and the runs before it. */
  skippedOf(segment: number): SkippedItem[] {
    let list = this.skipped.get(segment);
    if (!list) this.skipped.set(segment, (list = []));
    return list;
  }
}

/** Whether the model's table-key templates parse the stored item's keys. */
function owns(model: OldEntityModel, stored: Readonly<Record<string, unknown>>): boolean {
  if (!hasDiscriminator(model, stored)) return false;
  try {
    if (typeof stored[model.pk.attribute] !== 'string') return false;
    const keys = keysOf(model);
    keys.pk.parse(stored[model.pk.attribute] as string);
    if (model.sk) {
      if (typeof stored[model.sk.attribute] !== 'string') return false;
      keys.sk!.parse(stored[model.sk.attribute] as string);
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

/** Where a segment's writes go: the table, the cap, and the check that the segment is still this process's to write. */
interface WriteContext extends TableContext {
  readonly bucket: CapacityBucket;
  /** Awaited just before each write is sent (after the cap let it go): throws when the segment is no longer this process's. */
  readonly fence?: (() => Promise<void>) | undefined;
}

/**
 * Sends one write under the cap: charged before it goes by its estimate (`recordUnits`), corrected
 * by the consumed capacity DynamoDB reports (none for a cancelled transaction or a failed
 * condition: the estimate stands).
 */
async function capped<T extends { ConsumedCapacity?: unknown }>(ctx: WriteContext, estimate: number, command: { input: unknown }): Promise<T> {
  const charge = await ctx.bucket.take(estimate);
  try {
    await ctx.fence?.();
  } catch (error) {
    ctx.bucket.settle(charge, 0); // not sent
    throw error;
  }
  try {
    const result = (await ctx.client.send(command as never)) as unknown as T;
    ctx.bucket.settle(charge, result.ConsumedCapacity === undefined ? undefined : units(result.ConsumedCapacity));
    return result;
  } catch (error) {
    ctx.bucket.settle(charge, undefined);
    throw error;
  }
}

/**
 * Deletes old items whose replacements a newer write already holds, in one transaction that checks
 * every replacement is there: nothing is deleted unless its replacement is in the table. False when
 * a replacement was gone (deleted meanwhile): nothing was deleted.
 */
async function retire(ctx: WriteContext, pk: string, pairs: ReadonlyArray<{ readonly old: Readonly<Record<string, unknown>>; readonly replacement: Readonly<Record<string, unknown>> }>, oldSizes: readonly number[]): Promise<boolean> {
  const names = { ExpressionAttributeNames: { '#pk': pk } };
  try {
    await capped(ctx, writeUnits([...pairs.map((p) => itemSize(p.replacement)), ...oldSizes], true), new TransactWriteCommand({
      TransactItems: pairs.flatMap((p) => [
        { ConditionCheck: { TableName: ctx.tableName, Key: p.replacement, ConditionExpression: 'attribute_exists(#pk)', ...names } },
        { Delete: { TableName: ctx.tableName, Key: p.old } },
      ]),
      ReturnConsumedCapacity: 'TOTAL',
    }));
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}

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
  const moving = halves.filter((h) => !sameKey(h.old, { [next.model.pk]: h.next[next.model.pk], [next.model.sk]: h.next[next.model.sk] }));
  return { edge: edge.name, halves: moving, ...(half === 'inverse' && moving.length === 2 ? { follows: true as const } : {}) };
}

/** Classifies a stored item against a migrated edge: undefined when it is no item of that edge. */
function classifyEdge(edge: MigratedEdge, decode: DecodeStored, stored: Readonly<Record<string, unknown>>): { move: EdgeMove } | { leave: 'current' } | { skip: string } | undefined {
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
  if (moves[0] === 'current') return { leave: 'current' };
  let problem: string | undefined;
  try {
    problem = itemTypeProblem(edge.declared, decode(edge.name, edge.from.codecs, stored, edge.from.keyAttributes));
  } catch (error) {
    problem = (error as Error).message;
  }
  return problem ? { skip: `edge ${edge.name}: ${problem}` } : { move: moves[0]! };
}

/** What one stored item needs: the migrated entity or edge it belongs to (old form), or why it is left alone. */
export function classify(plan: MigrationPlan, stored: Readonly<Record<string, unknown>>): { entity: MigratedEntity } | { move: EdgeMove } | { leave: 'current' | 'unchanged' } | { skip: string } {
  for (const edge of plan.edges) {
    const what = classifyEdge(edge, plan.decode, stored);
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

/** What happened to one scanned item: the count it adds to (an edge's moved halves count each), or why it was skipped. */
export type Outcome = { readonly kind: Exclude<keyof SegmentCounts, 'scanned' | 'skipped'>; readonly items?: number } | { readonly kind: 'skipped'; readonly skipped: SkippedItem };

/** An old entity's table-key templates, rebuilt by this runtime from their definitions (the old codec version comes along, and a shard can be given). */
interface OldKeys {
  readonly pk: KeyTemplate;
  readonly sk: KeyTemplate | undefined;
}

const oldKeys = new WeakMap<OldEntityModel, OldKeys>();

function keysOf(model: OldEntityModel): OldKeys {
  let found = oldKeys.get(model);
  if (!found) oldKeys.set(model, (found = { pk: new KeyTemplate(model.pk.template.def), sk: model.sk && new KeyTemplate(model.sk.template.def) }));
  return found;
}

/**
 * The shard a moved item takes under `next` (undefined when that key has no `<shard>`): a random
 * suffix keeps its position when the count is the same (only the encoding changed), and folds onto
 * the new count when it changed (old shard s of n → s mod m), so a re-run picks the same key.
 */
export function movedShard(old: { readonly shards: number | undefined; readonly shardStart: number } | undefined, shard: number | undefined, next: { readonly shards: number | undefined; readonly shardStart: number }): number | undefined {
  if (next.shards === undefined) return undefined;
  const position = old?.shards === undefined || shard === undefined ? 0 : shard - old.shardStart;
  return next.shardStart + (position % next.shards);
}

/** Why an item cannot be moved as it is stored, or its item form and the shard its key holds. */
function readStored(entity: MigratedEntity, decode: DecodeStored, stored: Readonly<Record<string, unknown>>): { item: Record<string, unknown>; shard: number | undefined } | { skip: string } {
  const keys = keysOf(entity.from);
  let item: Record<string, unknown>;
  let shard: number | undefined;
  try {
    item = decode(entity.name, entity.from.codecs, propertyNamed(entity.from, stored), entity.from.keyAttributes);
    shard = keys.pk.shardIn(stored[entity.from.pk.attribute] as string);
  } catch (error) {
    return { skip: `${entity.name}: ${(error as Error).message}` };
  }
  const problem = itemTypeProblem(entity.declared, item);
  if (problem) return { skip: `${entity.name}: ${problem}` };
  // the item moves from its stored key: attributes that build another key are someone else's write, not this item
  for (const [attribute, template] of [[entity.from.pk.attribute, keys.pk], ...(entity.from.sk ? [[entity.from.sk.attribute, keys.sk!] as const] : [])] as const) {
    let built: string;
    try {
      built = template.build({ ...item, [SHARD]: shard });
    } catch (error) {
      return { skip: `${entity.name}: its attributes do not build its stored ${attribute} (${(error as Error).message})` };
    }
    if (built !== stored[attribute]) return { skip: `${entity.name}: its stored ${attribute} ${JSON.stringify(stored[attribute])} disagrees with its attributes, which build ${JSON.stringify(built)}` };
  }
  return { item, shard };
}

/** The new stored record of an item: built by the new schema, a random shard kept (or folded) rather than drawn again. */
function nextRecord(entity: MigratedEntity, item: Record<string, unknown>, shard: number | undefined): Record<string, unknown> {
  const next = storedItem(entity.to, item);
  const keys = keysOf(entity.from);
  for (const [part, old] of [[entity.to.pk, keys.pk], [entity.to.sk, keys.sk]] as const) {
    if (part && keyShard(part.template)?.random) next[part.attribute] = part.template.build({ ...item, [SHARD]: movedShard(old, shard, keyTemplate(part.template)) });
  }
  return next;
}

/** Whether an entity's items are summed counters spread over random shards: one item per shard of a partition (its sort key is constant). */
const isShardedCounter = (model: EntityModel) => keyShard(model.pk.template)?.random === true && (model.sk === undefined || keyAttributes(model.sk.template).length === 0);

async function migrateItem(ctx: WriteContext, decode: DecodeStored, entity: MigratedEntity, stored: Record<string, unknown>): Promise<Outcome> {
  const oldKey = tableKey(entity.from, stored);
  const read = readStored(entity, decode, stored);
  let next: Record<string, unknown>;
  try {
    if ('skip' in read) throw new Error(read.skip);
    next = nextRecord(entity, read.item, read.shard);
  } catch (error) {
    const reason = (error as Error).message;
    return { kind: 'skipped', skipped: { key: oldKey, reason: reason.startsWith(`${entity.name}: `) ? reason : `${entity.name}: ${reason}` } };
  }
  const newKey = tableKey(entity.to, next);
  if (JSON.stringify(newKey) !== JSON.stringify(oldKey)) {
    if (isShardedCounter(entity.to)) return mergeCounter(ctx, decode, entity, stored, next);
    const pk = { '#pk': entity.to.pk.attribute };
    for (let attempt = 1; ; attempt++) {
      try {
        await capped(ctx, recordUnits([next, stored], true), new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: ctx.tableName, Item: next, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: pk } },
            { Delete: { TableName: ctx.tableName, Key: oldKey } },
          ],
          ReturnConsumedCapacity: 'TOTAL',
        }));
        return { kind: 'rewritten' };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      if (keyShard(entity.to.pk.template)?.random) {
        // two old items of a random-shard entity land on one new key: neither is dropped
        return { kind: 'skipped', skipped: { key: oldKey, reason: `${entity.name}: its new key ${JSON.stringify(newKey)} already holds another item (random shards folded together); left in place` } };
      }
      // a newer write holds the new key: it wins, and the old item goes away in a transaction that checks it is there
      if (await retire(ctx, entity.to.pk.attribute, [{ old: oldKey, replacement: newKey }], [itemSize(stored)])) {
        return { kind: 'superseded' };
      }
      if (attempt >= SUPERSEDE_ATTEMPTS) {
        return { kind: 'skipped', skipped: { key: oldKey, reason: `${entity.name}: its new key ${JSON.stringify(newKey)} was written and deleted again while it moved (${attempt} attempts); left in place` } };
      }
    }
  }
  const { set, remove } = indexChanges(entity, stored, next);
  if (Object.keys(set).length === 0 && remove.length === 0) {
    return { kind: 'current' };
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
    await capped(ctx, writeUnits([Math.max(itemSize(stored), itemSize(next))]),
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
    return { kind: 'backfilled' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { kind: 'superseded' }; // a concurrent write changed the item: it wins
  }
}

/** A counter item changed by another writer while it was being merged is read and merged again this many times. */
const MERGE_ATTEMPTS = 5;

/**
 * Merges a random-shard counter item into its new key in one transaction: the new item gets each
 * counter ADDed (created when absent, its other attributes set where missing) and the old item is
 * deleted on condition that it still holds the counts that were added. So a count is added exactly
 * once: a re-run finds the old item gone and adds nothing, and an old item another writer changed
 * meanwhile is read and merged again.
 */
async function mergeCounter(ctx: WriteContext, decode: DecodeStored, entity: MigratedEntity, stored: Record<string, unknown>, next: Record<string, unknown>, attempt = 1): Promise<Outcome> {
  const oldKey = tableKey(entity.from, stored);
  const newKey = tableKey(entity.to, next);
  const update = new ExpressionAliases();
  const add: string[] = [];
  const set: string[] = [];
  for (const [name, value] of Object.entries(next)) {
    if (name in newKey) continue;
    if (typeof value === 'number' && !entity.to.keyAttributes.includes(name) && !entity.to.primaryParts.includes(name)) add.push(`${update.name(name)} ${update.value(value)}`);
    else set.push(`${update.name(name)} = if_not_exists(${update.name(name)}, ${update.value(value)})`);
  }
  // the old item as read: its counters unchanged (a count added meanwhile is merged on the next attempt)
  const held = new ExpressionAliases();
  const condition = [`attribute_exists(${held.name(Object.keys(oldKey)[0]!)})`];
  for (const [name, value] of Object.entries(stored)) if (typeof value === 'number' && !(name in oldKey)) condition.push(`${held.name(name)} = ${held.value(value)}`);
  try {
    await capped(ctx, recordUnits([next, stored], true),
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: ctx.tableName, Key: newKey, UpdateExpression: [set.length ? `SET ${set.join(', ')}` : '', add.length ? `ADD ${add.join(', ')}` : ''].filter(Boolean).join(' '), ...update.attributes() } },
          { Delete: { TableName: ctx.tableName, Key: oldKey, ConditionExpression: condition.join(' AND '), ...held.attributes() } },
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    return { kind: 'rewritten' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const now = await ctx.client.send(new GetCommand({ TableName: ctx.tableName, Key: oldKey, ConsistentRead: true }));
    if (now.Item === undefined) return { kind: 'current' }; // merged meanwhile (an earlier run, or another worker)
    if (attempt >= MERGE_ATTEMPTS) return { kind: 'skipped', skipped: { key: oldKey, reason: `${entity.name}: its counters kept changing while it was merged (${attempt} attempts); left in place` } };
    const read = readStored(entity, decode, now.Item);
    if ('skip' in read) return { kind: 'skipped', skipped: { key: oldKey, reason: read.skip } };
    return mergeCounter(ctx, decode, entity, now.Item, nextRecord(entity, read.item, read.shard), attempt + 1);
  }
}

/** An item whose replacement is written and deleted again by other writers while it moves is tried this many times, then reported. */
const SUPERSEDE_ATTEMPTS = 3;

/** Transactions cancelled by a concurrent transaction on the same items (another segment moving the other half) are tried again this many times. */
const CONFLICT_ATTEMPTS = 8;

/**
 * An inverse half whose forward half moves it (`EdgeMove.follows`): already done as far as this
 * scan goes (counted as current) while its forward half is in the table or once both have moved;
 * reported when its forward half is missing, and left in place.
 */
async function followEdge(ctx: WriteContext, move: EdgeMove): Promise<Outcome> {
  const [own, forward] = move.halves;
  const there = async (key: Readonly<Record<string, unknown>>) => (await ctx.client.send(new GetCommand({ TableName: ctx.tableName, Key: key, ConsistentRead: true }))).Item !== undefined;
  // the two halves move in one transaction: the forward half gone while this one is there means it is missing
  if ((await there(forward!.old)) || !(await there(own!.old))) return { kind: 'current' };
  return { kind: 'skipped', skipped: { key: own!.old, reason: `edge ${move.edge}: its other half ${JSON.stringify(forward!.old)} is not in the table (an edge is stored as two items); nothing was written` } };
}

/**
 * Moves an edge item and its other half in one transaction: each new item put unless its key
 * exists, each old one deleted only if it is still there. When a condition fails: a newer write
 * holding a new key wins (the old halves are only deleted); an item already gone was moved with
 * its other half; a missing other half is reported and nothing is written.
 */
async function moveEdge(ctx: WriteContext, move: EdgeMove, stored: Readonly<Record<string, unknown>>): Promise<Outcome> {
  // the table's key attribute names are the same in both schemas (renaming them recreates the table)
  const pk = Object.keys(move.halves[0]!.old)[0]!;
  const names = { ExpressionAttributeNames: { '#pk': pk } };
  const items = move.halves.flatMap((h) => [
    { Put: { TableName: ctx.tableName, Item: h.next, ConditionExpression: 'attribute_not_exists(#pk)', ...names } },
    { Delete: { TableName: ctx.tableName, Key: h.old, ConditionExpression: 'attribute_exists(#pk)', ...names } },
  ]);
  // both halves carry the same attributes: the one read stands for the other's size
  const oldSizes = move.halves.map(() => itemSize(stored));
  const estimate = writeUnits([...move.halves.map((h) => itemSize(h.next)), ...oldSizes], true);
  for (let attempt = 1; ; attempt++) {
    let reasons: ReadonlyArray<{ Code?: string }> = [];
    try {
      await capped(ctx, estimate, new TransactWriteCommand({ TransactItems: items, ReturnConsumedCapacity: 'TOTAL' }));
      return { kind: 'rewritten', items: move.halves.length };
    } catch (error) {
      reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
      const conflict = reasons.some((r) => r.Code === 'TransactionConflict') && !isConditionFailure(error);
      if (conflict && attempt < CONFLICT_ATTEMPTS) {
        await defaultSleep(20 * 2 ** attempt * Math.random());
        continue;
      }
      if (!isConditionFailure(error)) throw error;
    }
    const failed = reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
    const [own, other] = move.halves;
    if (failed.includes(1)) {
      return { kind: 'current' }; // moved with its other half meanwhile
    }
    if (other && failed.length === 1 && failed[0] === 3) {
      return { kind: 'skipped', skipped: { key: own!.old, reason: `edge ${move.edge}: its other half ${JSON.stringify(other.old)} is not in the table (an edge is stored as two items); nothing was written` } };
    }
    // the new code added the edge meanwhile: it wins, and the old halves go away once its halves are checked
    const key = (record: Readonly<Record<string, unknown>>) => Object.fromEntries(Object.keys(own!.old).map((a) => [a, record[a]]));
    if (await retire(ctx, pk, move.halves.map((h) => ({ old: h.old, replacement: key(h.next) })), oldSizes)) {
      return { kind: 'superseded' };
    }
    if (attempt >= SUPERSEDE_ATTEMPTS) {
      return { kind: 'skipped', skipped: { key: own!.old, reason: `edge ${move.edge}: its new halves were written and removed again while it moved (${attempt} attempts); left in place` } };
    }
  }
}

/** The items of a page that are still in the table, by table key (a consistent BatchGetItem). */
async function stillThere(ctx: TableContext, keys: ReadonlyArray<Readonly<Record<string, unknown>>>): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const names = Object.keys(keys[0]!);
  const found = await batchGetRecords(ctx, { operation: 'batchGet', entity: 'migration' }, keys.map((key) => ({ key: key as Record<string, string>, source: key })), names, (stored) => stored, { consistent: true });
  return new Set(found.keys());
}

/**
 * A write planned for a scanned item: what it counts for, or nothing when the item needs none. An
 * entity's item is planned as migrateItem will write it (a new key is a rewrite, changed index
 * attributes a backfill, neither no write: a random-shard counter whose shard keeps its key), so a
 * run that resumes the page never counts as made a write that was never planned.
 */
function planned(decode: DecodeStored, what: ReturnType<typeof classify>, stored: Readonly<Record<string, unknown>>): Pick<PendingWrite, 'kind' | 'items'> | undefined {
  if ('entity' in what) {
    const { entity } = what;
    const read = readStored(entity, decode, stored);
    if ('skip' in read) return undefined;
    let next: Record<string, unknown>;
    try {
      next = nextRecord(entity, read.item, read.shard);
    } catch {
      return undefined;
    }
    if (JSON.stringify(tableKey(entity.to, next)) !== JSON.stringify(tableKey(entity.from, stored))) return { kind: 'rewritten', items: 1 };
    const { set, remove } = indexChanges(entity, stored, next);
    return Object.keys(set).length || remove.length ? { kind: 'backfilled', items: 1 } : undefined;
  }
  if ('move' in what) return what.move.follows ? undefined : { kind: 'rewritten', items: what.move.halves.length };
  return undefined;
}

export interface SegmentRun {
  readonly plan: MigrationPlan;
  readonly options: SegmentOptions;
  readonly store: SegmentStore;
  readonly bucket: CapacityBucket;
  /** After each page: the segment's counts (all its runs') and whether it is finished. */
  readonly progress?: (segment: number, counts: SegmentCounts, finished: boolean) => void;
  /** As each item is scanned and handled (live progress between a page's checkpoints). */
  readonly scannedItem?: () => void;
  /** Checked before each page: true stops the segment there (its checkpoint stays where it is). */
  readonly stopped?: () => boolean;
  /** Awaited before each write: throws when the segment may no longer be written by this process. */
  readonly fence?: () => Promise<void>;
}

/**
 * Runs one segment from its checkpoint to the end (or until `stopped`). Each page is saved twice:
 * its planned writes before they are sent, its counts and the next page's start after. A run that
 * resumes a page left mid-way counts the writes already made from the planned list.
 */
export async function runSegment(run: SegmentRun, segment: number): Promise<SegmentCounts> {
  const { plan, options, store, bucket } = run;
  const ctx: WriteContext = { client: options.client, tableName: options.tableName, bucket, fence: run.fence };
  const saved = await store.load(segment);
  const counts: SegmentCounts = saved ? { ...saved.counts } : emptyCounts();
  if (saved?.done) return counts;
  let next = saved?.next;
  const id = (key: Readonly<Record<string, unknown>>) => keyId(key as Record<string, string>, Object.keys(key));
  // writes a stopped run planned: those whose item is gone were made; the others are still to come
  const carried = new Map<string, PendingWrite>();
  if (saved?.pending?.length) {
    const present = await stillThere(ctx, saved.pending.map((p) => p.key));
    for (const write of saved.pending) {
      if (present.has(id(write.key))) carried.set(id(write.key), write);
      else {
        counts.scanned++;
        counts[write.kind] += write.items;
      }
    }
  }
  do {
    if (run.stopped?.()) return counts;
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
    const items = (page.Items ?? []).map((stored) => ({ stored, what: classify(plan, stored), key: storedKey(plan, stored) }));
    const pending = items.flatMap(({ stored, what, key }) => {
      const write = planned(plan.decode, what, stored);
      return write ? [{ key, ...write }] : [];
    });
    if (pending.length) await store.save(segment, { ...(next ? { next } : {}), done: false, counts, pending }, []);
    const skipped: SkippedItem[] = [];
    await mapConcurrent(items, options.concurrency ?? 8, async ({ stored, what, key }) => {
      let outcome: Outcome;
      if ('entity' in what) outcome = await migrateItem(ctx, plan.decode, what.entity, stored);
      else if ('move' in what) outcome = what.move.follows ? await followEdge(ctx, what.move) : await moveEdge(ctx, what.move, stored);
      else if ('leave' in what) outcome = { kind: what.leave };
      else outcome = { kind: 'skipped', skipped: { key, reason: what.skip } };
      counts.scanned++;
      run.scannedItem?.();
      const earlier = carried.get(id(key));
      if (earlier && outcome.kind === 'current') counts[earlier.kind] += earlier.items; // made by the stopped run
      else if (outcome.kind === 'skipped') {
        counts.skipped++;
        skipped.push(outcome.skipped);
      } else counts[outcome.kind] += outcome.items ?? 1;
    });
    next = page.LastEvaluatedKey;
    await store.save(segment, { ...(next ? { next } : {}), done: next === undefined, counts }, skipped);
    run.progress?.(segment, counts, next === undefined);
  } while (next);
  return counts;
}

/** Migrates the segments of one run in this process; resumes each from its checkpoint file. */
export async function runMigration(plan: MigrationPlan, options: MigrationOptions): Promise<MigrationReport> {
  const { segments } = options;
  if (!Number.isInteger(segments) || segments < 1 || segments > 1_000_000) throw new RangeError(`--segments must be an integer from 1 to 1,000,000, got ${segments}`);
  const only = options.only ?? Array.from({ length: segments }, (_, i) => i);
  for (const s of only) if (!Number.isInteger(s) || s < 0 || s >= segments) throw new RangeError(`--segment ${s} is not in 0..${segments - 1}`);
  // every checkpoint is checked before anything is written
  for (const s of only) readCheckpoint(options.checkpoints, plan.id, s, segments);
  const store = new FileCheckpoints(options.checkpoints, plan.id, segments);
  const started = Date.now();
  const bucket = new CapacityBucket(options.maxWcu);
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
        `run: ${scanned} of ~${total} items, ${Math.round(bucket.consumed / Math.max(seconds, 0.001))} WCU/s (cap ${options.maxWcu})${eta === undefined ? '' : `, ETA ${eta}s`}`,
    );
  };
  await mapConcurrent(only, only.length, async (segment) => {
    all[segment] = await runSegment({ plan, options, store, bucket, progress }, segment);
  });
  const skipped = only.flatMap((segment) => store.skippedOf(segment));
  return { migration: plan.id, segments: all, skipped, consumedWcu: bucket.consumed, busiest10s: bucket.busiestWindow, seconds: (Date.now() - started) / 1000 };
}
