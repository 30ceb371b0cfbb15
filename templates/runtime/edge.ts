// Adjacency-list edges between declared entities: each relationship is two items, written and
// removed together in one transaction — under the source entity's own partition key (`User.<id>`,
// built by `UserKeys.pk`) sk `FAN_OF.<toType>.<toId>`, and under the target's sk
// `FANNED_BY.<fromType>.<fromId>`, ids encoded by the same codec as the entities' keys (so integer
// ids sort as numbers). "Which actors is this user a fan of" is one Query with begins_with
// `FAN_OF.Actor.` on the user's partition — the partition that also holds the user's profile; the
// reverse question is one Query on the other side. Type filters are key prefixes, never filters.

import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { KeyTemplate, escapeSegment, splitKey } from './codec.js';
import { ConditionFailedError, KeyParseError, TransactionError, ValidationError } from './errors.js';
import { ExpressionAliases } from './expression.js';
import { unexpired, type ExpiryOptions } from './expiry.js';
import { itemSize } from './item-size.js';
import { checkAttributeNames, checkValues, fromStored, toStored, withRequiredSets, type AttributeCodecs, type AttributeTypes } from './item.js';
import type { Page, PageOptions, QueryRequest } from './read.js';
import type { TableContext } from './repository.js';
import { queryPage } from './read.js';
import { Transaction, type CommitOptions } from './transaction.js';
import { sendWrite, type WritePlan } from './write.js';

/** An edge's declaration, emitted as a constant per edge. */
export interface EdgeModel {
  readonly name: string;
  /** Each node type's own partition-key template (`UserKeys.pk`): a node's key is its entity's partition. */
  readonly nodes: Readonly<Record<string, KeyTemplate>>;
  readonly forward: string;
  /** Absent for an edge without inverse items (incoming links cannot be read then). */
  readonly inverse?: string;
  /** When set, the inverse lives in this GSI (keys on the forward item) instead of a second item. */
  readonly inverseIndex?: { readonly name: string; readonly pk: string; readonly sk: string };
  readonly delimiter: string;
  readonly pk: string;
  readonly sk: string;
  readonly codecs: AttributeCodecs;
  /** Declared attribute names: others are refused on write and dropped on read. */
  readonly attributes: readonly string[];
  /** Each declared attribute's type and bounds: the values `add` writes are checked against them before any request. */
  readonly types?: AttributeTypes;
  /** Declared attributes that are not optional: `add` needs them. */
  readonly required?: readonly string[];
  /** Every key attribute of the table, stripped from attributes on read. */
  readonly keyAttributes: readonly string[];
}

/**
 * One end of an edge: an entity name and the id its partition key holds, typed as the entity
 * declares it (`{ type: 'User', id: 1 }`; an object of the parts when the key has several).
 */
export interface EdgeNode {
  readonly type: string;
  readonly id: unknown;
}

/** The options of `add`: a transaction's options, and whether an existing edge is an error. */
export type AddOptions = CommitOptions & { readonly failIfExists?: boolean };

/** `add`'s arguments after the two nodes: the edge's attributes, required when any attribute is. */
export type AddArguments<Attributes> = {} extends Attributes ? [attributes?: Attributes, options?: AddOptions] : [attributes: Attributes, options?: AddOptions];

/** One relationship for `addMany`: its attributes are required when any attribute is. */
export type EdgePair<N, Attributes> = { readonly from: N; readonly to: N } & ({} extends Attributes ? { readonly attributes?: Attributes } : { readonly attributes: Attributes });

export interface LinkOptions<Type extends string> extends PageOptions {
  /** Only links to (or from) nodes of this type: a key prefix, not a filter. */
  readonly type?: Type;
  readonly order?: 'asc' | 'desc';
  readonly consistent?: boolean;
}

export interface ManyResult<N> {
  /** Pairs written (or removed) now. */
  readonly done: number;
  /** Pairs that were already there (add) — re-adding is not an error. */
  readonly unchanged: number;
  /** Pairs that could not be written, each with its typed error. */
  readonly failed: ReadonlyArray<{ readonly from: N; readonly to: N; readonly error: unknown }>;
}

/** A node type's keys: its entity's partition key, and the sort keys that name it on the other side. */
export interface NodeType {
  readonly key: KeyTemplate;
  /** `FAN_OF.<type>.<id parts>` */
  readonly forward: KeyTemplate;
  /** `FANNED_BY.<type>.<id parts>` */
  readonly inverse: KeyTemplate | undefined;
}

/** Each node type of an edge with its key templates, in declaration order. */
export function edgeNodeTypes(model: EdgeModel): Map<string, NodeType> {
  const types = new Map<string, NodeType>();
  for (const [type, key] of Object.entries(model.nodes)) {
    const id = key.def.segments.filter((segment) => segment.kind !== 'literal');
    // the ids are written by the node key's codec version (a migration's copy of an old schema reads v1)
    const version = key.def.codecVersion === undefined ? {} : { codecVersion: key.def.codecVersion };
    const sk = (label: string, target: string) =>
      new KeyTemplate({ entity: model.name, target, delimiter: model.delimiter, maxBytes: 1024, segments: [{ kind: 'literal', text: label }, { kind: 'literal', text: type }, ...id], ...version });
    types.set(type, { key, forward: sk(model.forward, `${model.name}.forward`), inverse: model.inverse === undefined ? undefined : sk(model.inverse, `${model.name}.inverse`) });
  }
  return types;
}

/** A node's id from its key values: the one partition-key part, or the object of them. */
export function nodeId(type: NodeType, values: Readonly<Record<string, unknown>>): unknown {
  const parts = type.key.attributes;
  return parts.length === 1 ? values[parts[0]!] : values;
}

/** An edge item's attributes as declared, read back: a required set stored as nothing (it was empty) is an empty set. */
export function edgeAttributes<A>(model: EdgeModel, stored: Readonly<Record<string, unknown>>): A {
  return withRequiredSets(fromStored<Record<string, unknown>>(model.name, model.codecs, stored, model.keyAttributes, model.attributes), model.types, model.required) as A;
}

export class EdgeRepository<N extends EdgeNode, Attributes extends object> {
  private readonly types: Map<string, NodeType>;
  private readonly context: TableContext;
  private readonly model: EdgeModel;

  constructor(context: TableContext, model: EdgeModel) {
    this.context = context;
    this.model = model;
    this.types = edgeNodeTypes(model);
  }

  private typeOf(type: string): NodeType {
    const found = this.types.get(type);
    if (!found) throw new ValidationError(this.model.name, 'type', `"${type}" is not a node type of this edge (${[...this.types.keys()].join(', ')})`);
    return found;
  }

  /** The key values a node's id stands for: the one partition-key part, or the object of them. */
  private values(node: EdgeNode): Record<string, unknown> {
    const parts = this.typeOf(node.type).key.attributes;
    return parts.length === 1 ? { [parts[0]!]: node.id } : { ...(node.id as Record<string, unknown>) };
  }

  /** The node's partition: its entity's own partition key. */
  private nodeKey(node: EdgeNode): string {
    return this.typeOf(node.type).key.build(this.values(node));
  }

  /** The sort key naming `node` under the `side` label. */
  private linkKey(side: 'forward' | 'inverse', node: EdgeNode): string {
    return this.typeOf(node.type)[side]!.build(this.values(node));
  }

  /** The node a stored sort key names (its type is the segment after the label). */
  private nodeOf(side: 'forward' | 'inverse', sk: string): N {
    const type = splitKey(sk, this.model.delimiter)?.[1] ?? '';
    const found = this.types.get(type);
    if (!found) throw new KeyParseError(`${this.model.name}.${side}`, sk, `"${type}" is not a node type of this edge (${[...this.types.keys()].join(', ')})`);
    return { type, id: nodeId(found, found[side]!.parse(sk)) } as unknown as N;
  }

  private forwardKey(from: N, to: N): Record<string, string> {
    return { [this.model.pk]: this.nodeKey(from), [this.model.sk]: this.linkKey('forward', to) };
  }

  private inverseKey(from: N, to: N): Record<string, string> | undefined {
    return this.model.inverse !== undefined && !this.model.inverseIndex ? { [this.model.pk]: this.nodeKey(to), [this.model.sk]: this.linkKey('inverse', from) } : undefined;
  }

  /** The index keys the forward item carries when the inverse lives in a GSI. */
  private inverseIndexKeys(from: N, to: N): Record<string, string> {
    const index = this.model.inverseIndex;
    return index && this.model.inverse !== undefined ? { [index.pk]: this.nodeKey(to), [index.sk]: this.linkKey('inverse', from) } : {};
  }

  /** Both halves are one item when the edge is symmetric (forward = inverse) and a node points to itself. */
  private sameItem(from: N, to: N): boolean {
    return this.model.inverse === this.model.forward && this.nodeKey(from) === this.nodeKey(to);
  }

  private putPlan(key: Record<string, string>, half: 'forward' | 'inverse', attributes: Record<string, unknown>, failIfExists: boolean): WritePlan {
    const aliases = new ExpressionAliases();
    const record = { ...attributes, ...key };
    const condition = `attribute_not_exists(${aliases.name(this.model.pk)})`;
    const described = this.described(key, half);
    return {
      operation: 'put',
      entity: `${this.model.name} (${half})`,
      key,
      described,
      input: { Item: record, ConditionExpression: condition, ...aliases.attributes() },
      size: itemSize(record),
      ambiguous: false,
      conditionFailed: (_old, cause) => new ConditionFailedError(`${this.model.name} (${half})`, key, `already exists${failIfExists ? '' : ' without its other half'}`, { code: 'EDGE_EXISTS', described, cause }),
    };
  }

  /** How errors name one half: by the edge and its key attribute names, never the node ids (they may be personal). */
  private described(key: Record<string, string>, half: 'forward' | 'inverse'): string {
    return `${this.model.name} ${half} item (${Object.keys(key).join(', ')})`;
  }

  private deletePlan(key: Record<string, string>, half: 'forward' | 'inverse'): WritePlan {
    const described = this.described(key, half);
    return {
      operation: 'delete',
      entity: `${this.model.name} (${half})`,
      key,
      described,
      input: { Key: key },
      size: itemSize(key),
      ambiguous: false,
      conditionFailed: (_old, cause) => new ConditionFailedError(`${this.model.name} (${half})`, key, 'unexpected condition failure', { described, cause }),
    };
  }

  private stored(attributes: Attributes | undefined): Record<string, unknown> {
    const given = (attributes ?? {}) as Record<string, unknown>;
    checkAttributeNames(this.model, Object.keys(given));
    if (this.model.types) checkValues(this.model.name, this.model.types, given);
    for (const name of this.model.required ?? []) {
      if (!Object.prototype.hasOwnProperty.call(given, name) || given[name] === undefined) throw new ValidationError(this.model.name, name, `is required; give ${this.model.name}.${name} a value`, 'ATTRIBUTE_REQUIRED');
    }
    return toStored(this.model.name, this.model.codecs, given);
  }

  /**
   * Adds the relationship: both items in one transaction, each conditioned on not existing. Adding
   * an edge that is already there is a no-op (`{ created: false }`) unless `failIfExists`.
   */
  async add(from: N, to: N, ...args: AddArguments<Attributes>): Promise<{ created: boolean }> {
    const [attributes, options = {}] = args as [Attributes | undefined, AddOptions | undefined];
    const plans = this.addPlans(from, to, this.stored(attributes), options.failIfExists === true);
    if (plans.length === 1) {
      // One item (inverse in a GSI, or a symmetric self-edge): a conditional put, no transaction needed.
      try {
        await sendWrite(this.context, plans[0]!);
        return { created: true };
      } catch (error) {
        if (error instanceof ConditionFailedError && !options.failIfExists) return { created: false };
        throw error;
      }
    }
    const tx = new Transaction(this.context);
    for (const plan of plans) tx.add(plan);
    try {
      await tx.commit(options);
      return { created: true };
    } catch (error) {
      if (error instanceof TransactionError && !options.failIfExists && error.failures.length === plans.length && error.failures.every((f) => f.reason === 'ConditionalCheckFailed')) {
        return { created: false };
      }
      throw error;
    }
  }

  private addPlans(from: N, to: N, attributes: Record<string, unknown>, failIfExists: boolean): WritePlan[] {
    const forward = this.putPlan(this.forwardKey(from, to), 'forward', { ...attributes, ...this.inverseIndexKeys(from, to) }, failIfExists);
    const inverse = this.inverseKey(from, to);
    return inverse && !this.sameItem(from, to) ? [forward, this.putPlan(inverse, 'inverse', attributes, failIfExists)] : [forward];
  }

  private removePlans(from: N, to: N): WritePlan[] {
    const inverse = this.inverseKey(from, to);
    const forward = this.deletePlan(this.forwardKey(from, to), 'forward');
    return inverse && !this.sameItem(from, to) ? [forward, this.deletePlan(inverse, 'inverse')] : [forward];
  }

  /** Removes the relationship: both items in one transaction (removing a missing edge is a no-op). */
  async remove(from: N, to: N, options: CommitOptions = {}): Promise<void> {
    const plans = this.removePlans(from, to);
    if (plans.length === 1) {
      await sendWrite(this.context, plans[0]!);
      return;
    }
    const tx = new Transaction(this.context);
    for (const plan of plans) tx.add(plan);
    await tx.commit(options);
  }

  /** The edge's attributes, or undefined when there is no such edge. */
  async get(from: N, to: N, options: { consistent?: boolean } & ExpiryOptions = {}): Promise<Attributes | undefined> {
    const result = await this.context.client.send(new GetCommand({ TableName: this.context.tableName, Key: this.forwardKey(from, to), ...(options.consistent ? { ConsistentRead: true } : {}) }));
    return result.Item && unexpired(this.context, options)(result.Item) ? edgeAttributes<Attributes>(this.model, result.Item) : undefined;
  }

  async exists(from: N, to: N, options: { consistent?: boolean } & ExpiryOptions = {}): Promise<boolean> {
    return (await this.get(from, to, options)) !== undefined;
  }

  private links(side: 'outgoing' | 'incoming', node: N, options: LinkOptions<N['type']>): QueryRequest {
    const label = side === 'outgoing' ? this.model.forward : this.model.inverse;
    if (label === undefined) throw new ValidationError(this.model.name, 'incoming', 'this edge stores no inverse items: declare inverse to read incoming links');
    const d = this.model.delimiter;
    const prefix = options.type === undefined ? escapeSegment(label, d) + d : this.typeOf(options.type)[side === 'outgoing' ? 'forward' : 'inverse']!.leadingText();
    const order = options.order ?? 'asc';
    const index = side === 'incoming' ? this.model.inverseIndex : undefined;
    if (index && options.consistent) throw new ValidationError(this.model.name, 'incoming', `incoming links are read from GSI ${index.name}, which has no consistent reads`);
    return {
      scope: `${this.model.name}.${side}`,
      ...(index ? { indexName: index.name } : {}),
      pk: { attribute: index ? index.pk : this.model.pk, template: this.typeOf(node.type).key },
      partition: this.values(node),
      sk: { attribute: index ? index.sk : this.model.sk, condition: { op: 'begins_with', value: prefix } },
      params: { node, type: options.type, order },
      keyAttributes: [this.model.pk, this.model.sk, ...(index ? [index.pk, index.sk] : [])],
      order,
      consistent: options.consistent === true,
    };
  }

  private link(side: 'forward' | 'inverse', attribute = this.model.sk) {
    return (stored: Record<string, unknown>) => ({
      ...this.nodeOf(side, stored[attribute] as string),
      ...edgeAttributes<Attributes>(this.model, stored),
    });
  }

  /** The nodes `from` points to (optionally of one type), with the edge's attributes. */
  async outgoing(from: N, options: LinkOptions<N['type']> = {}): Promise<Page<N & Attributes>> {
    return queryPage(this.context, this.links('outgoing', from, options), options, this.link('forward')) as Promise<Page<N & Attributes>>;
  }

  /** The nodes that point to `to` (optionally of one type), with the edge's attributes. */
  async incoming(to: N, options: LinkOptions<N['type']> = {}): Promise<Page<N & Attributes>> {
    return queryPage(this.context, this.links('incoming', to, options), options, this.link('inverse', this.model.inverseIndex?.sk)) as Promise<Page<N & Attributes>>;
  }

  /** How many links a node has on one side (a COUNT query: reads the keys, returns no items). */
  async count(side: 'outgoing' | 'incoming', node: N, options: { type?: N['type'] } = {}): Promise<number> {
    let total = 0;
    let start: Record<string, unknown> | undefined;
    const request = this.links(side, node, options);
    const aliases = new ExpressionAliases();
    const condition = `${aliases.name(request.pk.attribute)} = ${aliases.value(this.nodeKey(node))} AND begins_with(${aliases.name(request.sk!.attribute)}, ${aliases.value((request.sk!.condition as { value: string }).value)})`;
    do {
      const result = await this.context.client.send(
        new QueryCommand({
          TableName: this.context.tableName,
          ...(request.indexName ? { IndexName: request.indexName } : {}),
          KeyConditionExpression: condition,
          ...aliases.attributes(),
          Select: 'COUNT',
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      total += result.Count ?? 0;
      start = result.LastEvaluatedKey;
    } while (start);
    return total;
  }

  /**
   * Adds many edges in transactions of up to 100 items; a transaction that fails is retried pair by
   * pair, so the result says exactly which pairs failed and why.
   */
  async addMany(pairs: ReadonlyArray<EdgePair<N, Attributes>>): Promise<ManyResult<N>> {
    const attributesOf = (pair: EdgePair<N, Attributes>) => (pair as { attributes?: Attributes }).attributes;
    return this.many(
      pairs,
      (p) => this.addPlans(p.from, p.to, this.stored(attributesOf(p)), false),
      async (p) => (await this.add(p.from, p.to, ...([attributesOf(p)] as AddArguments<Attributes>))).created,
    );
  }

  /** Removes many edges in transactions of up to 100 items. */
  async removeMany(pairs: ReadonlyArray<{ from: N; to: N }>): Promise<ManyResult<N>> {
    return this.many(pairs, (p) => this.removePlans(p.from, p.to), async (p) => (await this.remove(p.from, p.to), true));
  }

  private async many<P extends { from: N; to: N }>(pairs: readonly P[], plans: (pair: P) => WritePlan[], one: (pair: P) => Promise<boolean>): Promise<ManyResult<N>> {
    let done = 0;
    let unchanged = 0;
    const failed: Array<{ from: N; to: N; error: unknown }> = [];
    const chunks: P[][] = [];
    let current: P[] = [];
    let items = 0;
    const keys = new Set<string>();
    for (const pair of pairs) {
      const planned = plans(pair);
      const ids = planned.map((p) => JSON.stringify(p.key));
      if (items + planned.length > 100 || ids.some((id) => keys.has(id))) {
        chunks.push(current);
        current = [];
        items = 0;
        keys.clear();
      }
      current.push(pair);
      items += planned.length;
      for (const id of ids) keys.add(id);
    }
    if (current.length) chunks.push(current);
    for (const chunk of chunks) {
      const tx = new Transaction(this.context);
      for (const pair of chunk) for (const plan of plans(pair)) tx.add(plan);
      try {
        await tx.commit();
        done += chunk.length;
        continue;
      } catch (error) {
        if (!(error instanceof TransactionError)) throw error;
      }
      for (const pair of chunk) {
        try {
          if (await one(pair)) done++;
          else unchanged++;
        } catch (error) {
          failed.push({ from: pair.from, to: pair.to, error });
        }
      }
    }
    return { done, unchanged, failed };
  }
}
