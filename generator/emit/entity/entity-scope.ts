// What every emitter of an entity's module reads: the entity's access paths, key parts, patterns
// and the names of its generated symbols, computed once; and the module's imports, collected as
// the emitters use them.

import type { EntityDef } from '../../../dsl/ir.js';
import { indexAccess, resolvePattern, tableAccess, type AccessPath, type ResolvedPattern } from '../../model/access-paths.js';
import { shardInputs } from '../../model/key-segments.js';
import { Imports, objectType, typeRef, type Member, type TypeNode } from '../ast.js';
import { attributeTypeNode } from '../attribute-type.js';
import { camelCase, entityNames, pascalCase, type EmitContext } from '../context.js';
import { emitNativeIndexes, type NativeIndexOutput } from './native-index.js';

export const RUNTIME = {
  codec: './runtime/codec.js',
  condition: './runtime/condition.js',
  gather: './runtime/gather.js',
  item: './runtime/item.js',
  itemMapping: './runtime/item-mapping.js',
  keyCondition: './runtime/key-condition.js',
  nativeIndex: './runtime/native-index.js',
  piiFingerprint: './runtime/pii-fingerprint.js',
  read: './runtime/read.js',
  repository: './runtime/repository.js',
  rotation: './runtime/rotation.js',
  write: './runtime/write.js',
} as const;

/** The names of one access path's generated types and method. */
export interface PathNames {
  /** Suffix for types and methods: '' for the table, 'ByName' for index byName. */
  readonly suffix: string;
  readonly method: string;
  readonly partitionType: string;
  readonly sortKeyType: string;
  readonly sortPrefixType: string;
  readonly sortTextPrefixType: string;
  /** `SortCondition<SortPrefix, SortTextPrefix>` spelled out, what `where` takes. */
  readonly sortConditionType: string;
  /** The item type its results have. */
  readonly itemType: string;
  /** The index's model constant (`articleByNameIndex`); undefined for the table. */
  readonly indexModel?: string;
}

export interface EntityScope {
  readonly entity: EntityDef;
  readonly ctx: EmitContext;
  readonly imports: Imports;
  readonly name: string;
  /** `articleModel`. */
  readonly model: string;
  readonly primary: AccessPath;
  readonly indexPaths: readonly AccessPath[];
  /** Attributes the primary key reads (partition, sort, shard inputs), in order. */
  readonly primaryParts: readonly string[];
  /** Attributes secondary index keys read. */
  readonly indexInputs: ReadonlySet<string>;
  readonly patterns: readonly ResolvedPattern[];
  /** False when the shard suffix is random: no item can be addressed by its key. */
  readonly addressable: boolean;
  readonly version: string | undefined;
  /** `<Entity>Condition`: the entity's write condition, spelled out. */
  readonly conditionType: string;
  /** What writes take: the item, or `<Entity>Input` when versioned. */
  readonly inputType: string;
  /** Attributes an update may change: neither key parts nor the version. */
  readonly mutable: readonly string[];
  /** What the entity's native multi-attribute GSI mappings add: types, methods, models. */
  readonly native: NativeIndexOutput;
}

export function entityScope(entity: EntityDef, ctx: EmitContext): EntityScope {
  const { table } = ctx;
  const primary = tableAccess(entity);
  const primaryParts = [...new Set([...primary.partition, ...primary.sort, ...(entity.key.shard ? shardInputs(entity, entity.key.shard) : [])])];
  const indexPaths = Object.keys(entity.indexes).map((index) => indexAccess(table, entity, index)!);
  const version = entity.version;
  const names = entityNames(entity);
  return {
    entity,
    ctx,
    imports: new Imports(),
    name: entity.name,
    model: names.model,
    primary,
    indexPaths,
    primaryParts,
    indexInputs: new Set(indexPaths.flatMap((p) => [...(p.index?.kind === 'gsi' ? p.partition : []), ...p.sort])),
    patterns: Object.values(table.patterns)
      .filter((p) => p.entity === entity.name)
      .map((p) => resolvePattern(table, p) as ResolvedPattern),
    addressable: entity.key.shard?.random !== true,
    version,
    inputType: version === undefined ? names.item : names.input,
    conditionType: names.condition,
    mutable: Object.keys(entity.attributes).filter((a) => !primaryParts.includes(a) && a !== version),
    native: emitNativeIndexes(entity, ctx),
  };
}

export function pathNames(scope: EntityScope, path: AccessPath): PathNames {
  const suffix = path.index ? pascalCase(path.index.name) : '';
  const base = `${scope.name}${suffix}`;
  return {
    suffix,
    method: `query${suffix}`,
    partitionType: `${base}Partition`,
    sortKeyType: `${base}SortKey`,
    sortPrefixType: `${base}SortPrefix`,
    sortTextPrefixType: `${base}SortTextPrefix`,
    sortConditionType: `${base}SortCondition`,
    itemType: path.projection === 'all' ? scope.name : `${base}Item`,
    ...(path.index ? { indexModel: `${camelCase(scope.name)}${suffix}Index` } : {}),
  };
}

/** `{ a: string; b?: Date }` for the named attributes of the entity: optional as declared, or all optional / all required. */
export function attributesType(scope: EntityScope, names: readonly string[], mode: 'declared' | 'optional' | 'required' = 'declared'): TypeNode {
  return objectType(names.map((name): Member => {
    const def = scope.entity.attributes[name]!;
    return { name, type: attributeTypeNode(def), optional: mode === 'optional' || (mode === 'declared' && def.optional) };
  }));
}

/** A runtime type, imported as a type. */
export const runtimeType = (scope: EntityScope, module: keyof typeof RUNTIME, name: string, ...args: TypeNode[]): TypeNode =>
  typeRef(scope.imports.type(RUNTIME[module], name), ...args);

/** A runtime function or class, imported as a value; returns its name. */
export const runtimeValue = (scope: EntityScope, module: keyof typeof RUNTIME, name: string): string => scope.imports.value(RUNTIME[module], name);

/** `a User`, `an Article`. */
export function an(name: string): string {
  // by sound: a User, a Unit, a Euro, a One-off; an Update, an Umbrella, an Order
  const vowelSound = /^[aeiou]/i.test(name) && !/^(u[b-df-hj-np-tv-z][aeiouy]|uni|eu|one)/i.test(name);
  return `${vowelSound ? 'an' : 'a'} ${name}`;
}

/** What an index of the entity reads: its key inputs and the optional ones among them (a sparse index). */
export function indexInputs(scope: EntityScope, indexName: string): { inputs: string[]; optional: string[] } {
  const path = scope.indexPaths.find((p) => p.index!.name === indexName)!;
  const shard = scope.entity.indexes[indexName]!.shard;
  const inputs = [...new Set([...(path.index!.kind === 'gsi' ? path.partition : []), ...path.sort, ...(shard ? shardInputs(scope.entity, shard) : [])])];
  return { inputs, optional: inputs.filter((a) => scope.entity.attributes[a]!.optional) };
}
