// The `@example` of a repository method: a call with sample values and the request it sends. The
// request is computed by the runtime's own request builders (planPut, planUpdate, queryInput, …)
// on the entity's live model, so an example shows what the method really sends and cannot drift
// from it; test/offline/doc-examples.test.ts sends every example of the fixtures to check.

import type { AttributeDef } from '../../dsl/ir.js';
import { DdbgenError } from '../../templates/runtime/errors.js';
import { entityQuery, keyAttributesOf, patternCondition, primaryKey, queryInput, storedItem, type EntityModel, type QueryRequest } from '../../templates/runtime/repository.js';
import { nativeQueryInput } from '../../templates/runtime/native-index.js';
import { planDelete, planIncrement, planPut, planUpdate, writeInput, type UpdateReturnValues, type WritePlan } from '../../templates/runtime/write.js';
import type { AccessPath, ResolvedPattern } from '../model/access-paths.js';
import { arr, awaitExpr, binary, call, construct, literal, obj, path, print, prop, str, type DocTag, type Expression } from './ast.js';
import { camelCase } from './context.js';
import { liveEntityModel } from './entity-model.js';
import type { EntityScope } from './entity-scope.js';
import { formatModule, LINE_WIDTH } from './format.js';

/** A value for an example: what the runtime is given, and how the call spells it. */
interface Sample {
  readonly value: unknown;
  readonly code: Expression;
}

const SAMPLE_INSTANT = new Date(Date.UTC(2024, 0, 15, 9, 30));

/** A sample value of an attribute: its name for a string, the first enum value, the smallest number, a fixed instant. */
function sample(name: string, def: AttributeDef): Sample {
  switch (def.kind) {
    case 'enum':
      return { value: def.values[0], code: str(def.values[0]!) };
    case 'number': {
      const value = Math.max(def.min ?? 1, Math.min(def.max ?? 1, 1));
      return { value, code: literal(value) };
    }
    case 'boolean':
      return { value: true, code: literal(true) };
    case 'timestamp':
      return { value: SAMPLE_INSTANT, code: construct('Date', [str(SAMPLE_INSTANT.toISOString())]) };
    case 'stringSet':
      return { value: new Set([`${name}-1`]), code: construct('Set', [arr([str(`${name}-1`)])]) };
    case 'numberSet':
      return { value: new Set([1]), code: construct('Set', [arr([literal(1)])]) };
    case 'list':
      return { value: [], code: arr([]) };
    case 'map': {
      const fields = Object.entries(def.fields).filter(([, field]) => !field.optional);
      return samples(Object.fromEntries(fields), fields.map(([field]) => field));
    }
    case 'binary':
      return { value: new Uint8Array([1]), code: construct('Uint8Array', [arr([literal(1)])]) };
    default:
      return { value: `${name}-1`, code: str(`${name}-1`) };
  }
}

/** Samples of the named attributes, as one object. */
function samples(attributes: Readonly<Record<string, AttributeDef>>, names: readonly string[]): Sample {
  const each = names.map((name) => [name, sample(name, attributes[name]!)] as const);
  return { value: Object.fromEntries(each.map(([name, s]) => [name, s.value])), code: obj(each.map(([name, s]) => [name, s.code])) };
}

/** Runs of one character this long or longer are spelled `'c'.repeat(n)` (the upper bound of a prefix range repeats its greatest character). */
const RUN = 8;

/** A string as source, long runs of one character as `.repeat`: `'Article.' + '\u{10ffff}'.repeat(255)`. */
function stringLiteral(text: string): Expression {
  const parts: Expression[] = [];
  const pattern = new RegExp(`(.)\\1{${RUN - 1},}`, 'gsu');
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) parts.push(str(text.slice(at, match.index)));
    parts.push(call(prop(str(match[1]!), 'repeat'), [literal([...match[0]].length)]));
    at = match.index + match[0].length;
  }
  if (at < text.length || parts.length === 0) parts.push(str(text.slice(at)));
  return parts.reduce((left, right) => binary(left, '+', right));
}

/** A request value as source: sets and bytes as their constructors, long runs in strings repeated, the rest as literals. */
function requestLiteral(value: unknown): Expression {
  if (typeof value === 'string') return stringLiteral(value);
  if (value instanceof Set) return construct('Set', [arr([...value].map(requestLiteral))]);
  if (value instanceof Uint8Array) return construct('Uint8Array', [arr([...value].map((b) => literal(b)))]);
  if (Array.isArray(value)) return arr(value.map(requestLiteral));
  if (value !== null && typeof value === 'object') return obj(Object.entries(value).map(([k, v]) => [k, v === undefined ? undefined : requestLiteral(v)] as const));
  return literal(value);
}

/** Source laid out for a doc comment (its indent and ` * ` taken off the width). */
const layout = (code: string) => formatModule('example.ts', code, LINE_WIDTH - 6).trimEnd();

/** The tag: the call, then `// sends <Command>:` and the command's input, commented. */
function exampleTag(scope: EntityScope, method: string, args: readonly Expression[], command: string, input: object): DocTag {
  const callText = print(awaitExpr(call(path(`db.${camelCase(scope.name)}.${method}`), args)));
  const request = layout(`(${print(requestLiteral(input))});`).replace(/^\(|\);$/g, '');
  return { name: 'example', text: `\n${layout(`${callText};`)}\n// sends ${command}:\n${request.split('\n').map((line) => `// ${line}`).join('\n')}` };
}

/**
 * The examples of one entity's methods, computed on its live model (built once, on first use). An
 * entity whose shard is drawn at random per write has none for writes: their keys are not
 * reproducible.
 */
export class EntityExamples {
  readonly #scope: EntityScope;
  #model: EntityModel | undefined;

  constructor(scope: EntityScope) {
    this.#scope = scope;
  }

  get #live(): EntityModel {
    return (this.#model ??= liveEntityModel(this.#scope));
  }

  get #table(): string {
    return this.#scope.ctx.table.name;
  }

  #of(names: readonly string[]): Sample {
    return samples(this.#scope.entity.attributes, names);
  }

  /** The key of the sample item. */
  #key(): Sample {
    return this.#of(this.#scope.primaryParts);
  }

  /** `options` of a versioned write: the version as read. */
  #versioned(): Sample | undefined {
    return this.#scope.version === undefined ? undefined : { value: { expectedVersion: 1 }, code: obj([['expectedVersion', literal(1)]]) };
  }

  #write(method: string, args: Sample[], command: string, plan: () => WritePlan, returnValues?: UpdateReturnValues): DocTag | undefined {
    return this.#tag(method, args, command, () => writeInput(this.#table, plan(), returnValues));
  }

  /**
   * The tag of a call with `args`, its request computed by `request` (undefined: no example). A
   * call the runtime refuses with the sample values leaves the method without an example.
   */
  #tag(method: string, args: Sample[], command: string, request: () => object | undefined): DocTag | undefined {
    try {
      const input = request();
      return input && exampleTag(this.#scope, method, args.map((a) => a.code), command, input);
    } catch (error) {
      if (error instanceof DdbgenError) return undefined;
      throw error;
    }
  }

  get(): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    return this.#tag('get', [key], 'GetCommand', () => ({ TableName: this.#table, Key: primaryKey(this.#live, key.value as Record<string, unknown>) }));
  }

  /** The sample item of a write: its required attributes; the version only where the method takes the item as stored (batchPut). */
  #item(withVersion = false): Sample {
    const { entity, version } = this.#scope;
    return this.#of(Object.keys(entity.attributes).filter((a) => !entity.attributes[a]!.optional && (withVersion || a !== version)));
  }

  put(mode: 'put' | 'create' | 'replace'): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const item = this.#item();
    return this.#write(mode, [item], 'PutCommand', () => planPut(this.#live, item.value, mode).plan);
  }

  /** An update that sets one attribute: the first that feeds no index key, if there is one. */
  update(): DocTag | undefined {
    const { mutable, indexInputs, entity } = this.#scope;
    const settable = mutable.filter((a) => !this.#live.nativeIndexes?.some((index) => [...index.partition, ...index.sort].some(([, source]) => source === a)));
    const attribute = settable.find((a) => !indexInputs.has(a) && !entity.attributes[a]!.optional) ?? settable.find((a) => !indexInputs.has(a));
    if (attribute === undefined) return undefined;
    const key = this.#key();
    const value = sample(attribute, entity.attributes[attribute]!);
    const changes: Sample = { value: { set: { [attribute]: value.value } }, code: obj([['set', obj([[attribute, value.code]])]]) };
    const options = this.#versioned();
    const plan = () => planUpdate(this.#live, key.value as Record<string, unknown>, changes.value as never, options?.value ?? {});
    return this.#write('update', [key, changes, ...(options ? [options] : [])], 'UpdateCommand', plan, 'ALL_NEW');
  }

  delete(): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    const options = this.#versioned();
    return this.#write('delete', [key, ...(options ? [options] : [])], 'DeleteCommand', () => planDelete(this.#live, key.value as Record<string, unknown>, options?.value ?? {}), 'ALL_OLD');
  }

  batchGet(): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    return this.#tag('batchGet', [{ value: [key.value], code: arr([key.code]) }], 'BatchGetCommand', () => ({ RequestItems: { [this.#table]: { Keys: [primaryKey(this.#live, key.value as Record<string, unknown>)] } } }));
  }

  /** A sequence's run (`get<Position>Range`): positions 0 and 1, read in one batch. */
  range(method: string, position: string): DocTag | undefined {
    const rest = this.#of(this.#scope.primaryParts.filter((a) => a !== position));
    const keys = () => [0, 1].map((at) => primaryKey(this.#live, { ...(rest.value as Record<string, unknown>), [position]: at }));
    const bounds = [0, 1].map((at) => ({ value: at, code: literal(at) }));
    return this.#tag(method, [rest, ...bounds], 'BatchGetCommand', () => ({ RequestItems: { [this.#table]: { Keys: keys() } } }));
  }

  batchPut(): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const item = this.#item(true);
    return this.#tag('batchPut', [{ value: [item.value], code: arr([item.code]) }], 'BatchWriteCommand', () => ({ RequestItems: { [this.#table]: [{ PutRequest: { Item: storedItem(this.#live, item.value as Record<string, unknown>) } }] } }));
  }

  batchDelete(): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    return this.#tag('batchDelete', [{ value: [key.value], code: arr([key.code]) }], 'BatchWriteCommand', () => ({ RequestItems: { [this.#table]: [{ DeleteRequest: { Key: primaryKey(this.#live, key.value as Record<string, unknown>) } }] } }));
  }

  /** A query's example; none for a sharded partition key, which gathers one query per shard. */
  #query(method: string, args: Sample[], request: () => QueryRequest): DocTag | undefined {
    return this.#tag(method, args, 'QueryCommand', () => {
      const built = request();
      return built.pk.template.shards === undefined ? queryInput({ tableName: this.#table } as never, built) : undefined;
    });
  }

  /** A query of the table or an index: one partition, narrowed by `eq` on the first sort-key part. */
  query(access: AccessPath, method: string): DocTag | undefined {
    const partition = this.#of(access.partition);
    const first = access.sort[0];
    const where = first === undefined ? undefined : this.#of([first]);
    const options: Sample | undefined = where && { value: { where: { eq: where.value } }, code: obj([['where', obj([['eq', where.code]])]]) };
    const request = () => entityQuery(this.#live, method, access.index?.name, partition.value as Record<string, unknown>, (options?.value ?? {}) as never);
    return this.#query(method, [partition, ...(options ? [options] : [])], request);
  }

  /** A declared pattern's query: its partition, the sort-key parts it fixes, and its operand (both ends of a `between` alike). */
  pattern({ pattern, path: access, op, before }: ResolvedPattern): DocTag | undefined {
    const { entity } = this.#scope;
    const fixed = [...access.partition, ...before.filter((b) => !access.partition.includes(b))].map((a) => [a, sample(a, entity.attributes[a]!)] as const);
    const sk = pattern.sk;
    if (sk !== undefined) {
      const one = op === 'beginsWith' ? sample(sk, { kind: 'string' } as AttributeDef) : sample(sk, entity.attributes[sk]!);
      fixed.push([sk, op === 'between' ? { value: [one.value, one.value], code: arr([one.code, one.code]) } : one]);
    }
    const params = Object.fromEntries(fixed.map(([a, s]) => [a, s.value]));
    const args: Sample = { value: params, code: obj(fixed.map(([a, s]) => [a, s.code])) };
    const request = (): QueryRequest => {
      const model = this.#live;
      const index = access.index && model.indexes.find((i) => i.name === access.index!.name);
      const keySpace = index ?? model;
      return {
        scope: `${model.name}.${pattern.name}`,
        ...(index ? { indexName: index.name } : {}),
        pk: keySpace.pk,
        partition: params,
        ...(keySpace.sk && access.sk ? { sk: { attribute: keySpace.sk.attribute, condition: patternCondition(keySpace.sk.template, sk === undefined ? params : { ...params, [sk]: undefined }, sk, op, sk === undefined ? undefined : params[sk]) } } : {}),
        params,
        keyAttributes: keyAttributesOf(model, index),
        order: pattern.order ?? 'asc',
        consistent: false,
        ...(index ? {} : { owner: model }),
      };
    };
    return this.#query(pattern.name, [args], request);
  }

  /** A native index's query: its partition attributes, and `where` fixing the first sort attribute. */
  nativeQuery(indexName: string, method: string): DocTag | undefined {
    const index = this.#scope.native.models.find((m) => m.name === indexName)!;
    const partition = this.#of(index.partition.map(([, source]) => source!));
    const first = index.sort[0]?.[1];
    const where = first === undefined ? undefined : this.#of([first]);
    const options: Sample | undefined = where && { value: { where: where.value }, code: obj([['where', where.code]]) };
    const input = () => nativeQueryInput({ tableName: this.#table } as never, this.#live, `${this.#scope.name}.${method}`, indexName, partition.value as Record<string, unknown>, (options?.value ?? {}) as never);
    return this.#tag(method, [partition, ...(options ? [options] : [])], 'QueryCommand', input);
  }

  /** `increment`: one of each counter. */
  increment(counters: readonly string[]): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    const deltas: Sample = { value: Object.fromEntries(counters.map((c) => [c, 1])), code: obj(counters.map((c) => [c, literal(1)])) };
    const plan = () => planIncrement(this.#live, key.value as Record<string, unknown>, deltas.value as Record<string, number>, counters);
    return this.#write('increment', [key, deltas], 'UpdateCommand', plan, 'ALL_NEW');
  }

  /** `mark<Index>` (sets `attributes`: the sparse index's optional inputs and its other non-key inputs) or `clear<Index>` (removes `attributes`, the optional inputs). */
  sparse(method: string, attributes: readonly string[], mark: boolean): DocTag | undefined {
    if (!this.#scope.addressable) return undefined;
    const key = this.#key();
    const values = this.#of(attributes);
    const changes = mark ? { set: values.value } : { remove: attributes };
    const options = this.#versioned();
    const plan = () => planUpdate(this.#live, key.value as Record<string, unknown>, changes as never, options?.value ?? {});
    return this.#write(method, [key, ...(mark ? [values] : []), ...(options ? [options] : [])], 'UpdateCommand', plan, 'ALL_NEW');
  }
}

const byScope = new WeakMap<EntityScope, EntityExamples>();

/** The examples of an entity's methods: one live model per entity, whichever emitter asks first. */
export function examplesOf(scope: EntityScope): EntityExamples {
  let examples = byScope.get(scope);
  if (!examples) byScope.set(scope, (examples = new EntityExamples(scope)));
  return examples;
}
