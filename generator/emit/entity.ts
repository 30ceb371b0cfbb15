// Emits one entity's module: the item type, key and condition types, `<Entity>Keys` (build and
// parse), the runtime model constant and `<Entity>Repository` with a method per access path (table,
// each index, each declared pattern) and sparse-index helpers. Pure: (entity, ctx) → structures.

import {
  StructureKind,
  VariableDeclarationKind,
  type ImportDeclarationStructure,
  type MethodDeclarationStructure,
  type OptionalKind,
  type StatementStructures,
} from 'ts-morph';
import type { EntityDef, ShardDef, TemplateDef } from '../../dsl/ir.js';
import type { KeyTemplateDef } from '../../templates/runtime/codec.js';
import { indexAccess, projectedAttributes, resolvePattern, tableAccess, type AccessPath, type ResolvedPattern } from '../model/access-paths.js';
import { identityTemplates, keySegments, shardInputs } from '../model/key-segments.js';
import { attributeCodec, attributeType } from './attribute-type.js';
import { camelCase, commentText, pascalCase, printLiteral, propertyKey, quote, raw, type EmitContext } from './context.js';
import { emitNativeIndexes } from './native-index.js';

export interface EmittedModule {
  readonly imports: OptionalKind<ImportDeclarationStructure>[];
  readonly statements: StatementStructures[];
}

const WRITE_TYPES = ['Returned', 'UpdateReturnValues', 'WriteOptions', 'VersionedWriteOptions'];
/** Methods that address one item by its key: not offered when the shard suffix is random. */
const BY_KEY = ['get', 'create', 'replace', 'update', 'delete', 'batchGet', 'batchDelete'];
const PK_BYTES = 2048;
const SK_BYTES = 1024;

/** `a User`, `an Article`. */
function an(name: string): string {
  return `${/^[AEIOU]/i.test(name) ? 'an' : 'a'} ${name}`;
}

function doc(text: string) {
  return [{ kind: StructureKind.JSDoc as const, description: text }];
}

/** Property access in generated code: `.name` or `['odd-name']`. */
function member(name: string): string {
  return propertyKey(name) === name ? `.${name}` : `[${quote(name)}]`;
}

function templateDef(entity: EntityDef, template: TemplateDef, target: string, maxBytes: number, ctx: EmitContext, shard?: ShardDef, identity?: readonly TemplateDef[]): KeyTemplateDef {
  const segments = keySegments(entity, template, shard, identity);
  if (!segments) throw new Error(`internal: ${target} was not validated`);
  return { entity: entity.name, target, delimiter: ctx.table.delimiter, maxBytes, segments, ...(ctx.keyCodec === undefined ? {} : { codecVersion: ctx.keyCodec }) };
}

/** `{ a: string; b?: Date }` members for the named attributes of an entity. */
function members(entity: EntityDef, names: readonly string[], mode: 'declared' | 'optional' | 'required' = 'declared'): string {
  const parts = names.map((name) => {
    const def = entity.attributes[name]!;
    const optional = mode === 'optional' || (mode === 'declared' && def.optional);
    return `${propertyKey(name)}${optional ? '?' : ''}: ${attributeType(def)}`;
  });
  return parts.length ? `{ ${parts.join('; ')} }` : 'Record<string, never>';
}

/** `{ a: A } | { a: A; b: B }`: the left-to-right prefixes of a sort key's parts. */
function prefixUnion(entity: EntityDef, names: readonly string[]): string {
  return names.map((_, i) => members(entity, names.slice(0, i + 1), 'required')).join(' | ');
}

/** The left-to-right prefixes that end on a string part (what `beginsWith` takes), or undefined when there are none. */
function textPrefixUnion(entity: EntityDef, names: readonly string[]): string | undefined {
  const prefixes = names.flatMap((name, i) => (entity.attributes[name]?.kind === 'string' ? [members(entity, names.slice(0, i + 1), 'required')] : []));
  return prefixes.length ? prefixes.join(' | ') : undefined;
}

interface PathNames {
  /** Suffix for types and methods: '' for the table, 'ByName' for index byName. */
  readonly suffix: string;
  readonly method: string;
  readonly partitionType: string;
  readonly sortKeyType: string;
  readonly sortPrefixType: string;
  readonly sortTextPrefixType: string;
  /** The item type its results have. */
  readonly itemType: string;
}

function pathNames(entity: EntityDef, path: AccessPath): PathNames {
  const suffix = path.index ? pascalCase(path.index.name) : '';
  const base = `${entity.name}${suffix}`;
  return {
    suffix,
    method: `query${suffix}`,
    partitionType: `${base}Partition`,
    sortKeyType: `${base}SortKey`,
    sortPrefixType: `${base}SortPrefix`,
    sortTextPrefixType: `${base}SortTextPrefix`,
    itemType: path.projection === 'all' ? entity.name : `${base}Item`,
  };
}

function pathTypes(entity: EntityDef, path: AccessPath, names: PathNames, ctx: EmitContext): StatementStructures[] {
  const where = path.index ? `index ${path.index.name}` : 'the table';
  const out: StatementStructures[] = [
    { kind: StructureKind.TypeAlias, name: names.partitionType, isExported: true, docs: doc(`The partition-key parts of ${entity.name} in ${where}.`), type: members(entity, path.partition, 'required') },
  ];
  if (path.sort.length) {
    out.push(
      { kind: StructureKind.TypeAlias, name: names.sortKeyType, isExported: true, docs: doc(`All sort-key parts of ${entity.name} in ${where}.`), type: members(entity, path.sort, 'required') },
      { kind: StructureKind.TypeAlias, name: names.sortPrefixType, isExported: true, docs: doc(`A left-to-right prefix of ${entity.name}'s sort-key parts in ${where}, for conditions; \`eq\` matches these parts whole.`), type: prefixUnion(entity, path.sort) },
    );
    const text = textPrefixUnion(entity, path.sort);
    if (text) {
      out.push({ kind: StructureKind.TypeAlias, name: names.sortTextPrefixType, isExported: true, docs: doc(`A prefix of ${entity.name}'s sort-key parts in ${where} ending on a string part, for \`beginsWith\`: that last part matches as text (\`{ name: 'z' }\` matches "zoo").`), type: text });
    }
  }
  if (path.projection !== 'all') {
    const projected = projectedAttributes(ctx.table, entity, path);
    const what = path.projection === 'keys-only' ? 'keys only' : `keys and ${path.projection.join(', ')}`;
    out.push({
      kind: StructureKind.TypeAlias,
      name: names.itemType,
      isExported: true,
      docs: doc(`${entity.name} as index ${path.index!.name} projects it (${what}). Pass \`fetch: true\` to read full items.`),
      type: `Pick<${entity.name}, ${projected.map(quote).join(' | ') || 'never'}>`,
    });
  }
  return out;
}

export function emitEntity(entity: EntityDef, ctx: EmitContext): EmittedModule {
  const { table } = ctx;
  const name = entity.name;
  const modelName = `${camelCase(name)}Model`;
  const attributeNames = Object.keys(entity.attributes);
  const primary = tableAccess(entity);
  const primaryParts = [...new Set([...primary.partition, ...primary.sort, ...(entity.key.shard ? shardInputs(entity, entity.key.shard) : [])])];
  const indexPaths = Object.keys(entity.indexes).map((index) => indexAccess(table, entity, index)!);
  const indexInputs = new Set(indexPaths.flatMap((p) => [...(p.index?.kind === 'gsi' ? p.partition : []), ...p.sort]));
  const patterns = Object.values(table.patterns)
    .filter((p) => p.entity === name)
    .map((p) => resolvePattern(table, p) as ResolvedPattern);
  const physical = `{ ${propertyKey(table.key.pk)}: string${table.key.sk === undefined ? '' : `; ${propertyKey(table.key.sk)}: string`} }`;
  const statements: StatementStructures[] = [];
  // A random shard suffix is drawn per write: such items have no key to get, update or delete by.
  const addressable = entity.key.shard?.random !== true;
  const runtime = new Set<string>(['batchPutItems', ...(addressable ? ['getItem', 'batchGetItems', 'batchDeleteItems'] : [])]);
  const runtimeTypes = new Set<string>(['EntityModel', 'ReadOptions', 'TableContext']);
  let usesSortCondition = false;

  statements.push({
    kind: StructureKind.Interface,
    name,
    isExported: true,
    docs: doc(`An item of entity ${name}.`),
    properties: attributeNames.map((a) => ({ name: propertyKey(a), type: attributeType(entity.attributes[a]!), hasQuestionToken: entity.attributes[a]!.optional })),
  });
  statements.push({
    kind: StructureKind.TypeAlias,
    name: `${name}Key`,
    isExported: true,
    docs: doc(`The attributes that identify one ${name}: its primary-key parts.`),
    type: members(entity, primaryParts, 'required'),
  });
  const primaryNames = pathNames(entity, primary);
  statements.push(...pathTypes(entity, primary, primaryNames, ctx));
  for (const path of indexPaths) statements.push(...pathTypes(entity, path, pathNames(entity, path), ctx));
  const native = emitNativeIndexes(entity, ctx);
  statements.push(...native.statements);

  const version = entity.version;
  const inputType = version === undefined ? name : `${name}Input`;
  if (version !== undefined) {
    statements.push({
      kind: StructureKind.TypeAlias,
      name: inputType,
      isExported: true,
      docs: doc(`${an(name)} to write: without \`${version}\` it is created (version 1); with it, it replaces that version (VersionConflictError if another write came first).`),
      type: `Omit<${name}, ${quote(version)}> & { ${propertyKey(version)}?: number }`,
    });
  }
  const mutable = attributeNames.filter((a) => !primaryParts.includes(a) && a !== version);
  const free = mutable.filter((a) => !indexInputs.has(a));
  const removable = mutable.filter((a) => entity.attributes[a]!.optional);
  const kinds = (...k: string[]) => free.filter((a) => k.includes(entity.attributes[a]!.kind));
  const update: string[] = [];
  if (mutable.length) update.push(`set?: ${members(entity, mutable, 'optional')}`);
  if (removable.length) update.push(`remove?: ReadonlyArray<${removable.map(quote).join(' | ')}>`);
  if (kinds('number', 'stringSet', 'numberSet').length) update.push(`add?: ${members(entity, kinds('number', 'stringSet', 'numberSet'), 'optional')}`);
  if (kinds('stringSet', 'numberSet').length) update.push(`delete?: ${members(entity, kinds('stringSet', 'numberSet'), 'optional')}`);
  if (kinds('list').length) update.push(`append?: ${members(entity, kinds('list'), 'optional')}`, `prepend?: ${members(entity, kinds('list'), 'optional')}`);
  if (free.length) update.push(`setIfNotExists?: ${members(entity, free, 'optional')}`);
  statements.push({
    kind: StructureKind.TypeAlias,
    name: `${name}Update`,
    isExported: true,
    docs: doc(
      `Changes accepted by \`${name}Repository.update\`. Primary-key parts (${primaryParts.join(', ')}) cannot change` +
        (indexInputs.size ? `; changing an index-key part (${[...indexInputs].join(', ')}) needs the other parts of that index key in \`set\` too.` : '.'),
    ),
    type: update.length ? `{ ${update.join('; ')} }` : 'Record<string, never>',
  });

  for (const resolved of patterns) {
    const { pattern, path, op, before } = resolved;
    const params = [...path.partition, ...before.filter((b) => !path.partition.includes(b))].map((a) => `${propertyKey(a)}: ${attributeType(entity.attributes[a]!)}`);
    if (pattern.sk !== undefined) {
      const type = attributeType(entity.attributes[pattern.sk]!);
      params.push(`${propertyKey(pattern.sk)}: ${op === 'between' ? `readonly [${type}, ${type}]` : op === 'beginsWith' ? 'string' : type}`);
    }
    statements.push({
      kind: StructureKind.TypeAlias,
      name: `${name}${pascalCase(pattern.name)}Params`,
      isExported: true,
      docs: doc(`Parameters of pattern ${pattern.name}${pattern.sk ? `: ${pattern.sk} ${op}` : ''}.`),
      type: params.length ? `{ ${params.join('; ')} }` : 'Record<string, never>',
    });
  }

  // Keys: one KeyTemplate per template.
  const pkDef = templateDef(entity, entity.key.pk, `${name}.key.pk`, PK_BYTES, ctx, entity.key.shard);
  const skDef = entity.key.sk ? templateDef(entity, entity.key.sk, `${name}.key.sk`, SK_BYTES, ctx) : undefined;
  const keysObject = [`pk: new KeyTemplate(${printLiteral(pkDef, '  ')})`, ...(skDef ? [`sk: new KeyTemplate(${printLiteral(skDef, '  ')})`] : [])];
  if (indexPaths.length) {
    const inner = indexPaths.map((path) => {
      const mapping = entity.indexes[path.index!.name]!;
      const target = `${name}.indexes.${path.index!.name}`;
      const parts = [
        ...(path.index!.kind === 'gsi' ? [`pk: new KeyTemplate(${printLiteral(templateDef(entity, mapping.pk!, `${target}.pk`, PK_BYTES, ctx, mapping.shard, identityTemplates(entity, mapping)), '      ')})`] : []),
        ...(path.sk ? [`sk: new KeyTemplate(${printLiteral(templateDef(entity, path.sk, `${target}.sk`, SK_BYTES, ctx), '      ')})`] : []),
      ];
      return `${propertyKey(path.index!.name)}: {\n      ${parts.join(',\n      ')},\n    }`;
    });
    keysObject.push(`indexes: {\n    ${inner.join(',\n    ')},\n  }`);
  }
  const keyBody = [`${propertyKey(table.key.pk)}: ${name}Keys.pk.build(values)`, ...(skDef && table.key.sk !== undefined ? [`${propertyKey(table.key.sk)}: ${name}Keys.sk.build(values)`] : [])];
  const parseBody = `{ ...${name}Keys.pk.parse(key${member(table.key.pk)})${skDef && table.key.sk !== undefined ? `, ...${name}Keys.sk.parse(key${member(table.key.sk)})` : ''} } as ${name}Key`;
  if (addressable) {
    keysObject.push(`/** ${commentText(`The table key of ${an(name)}.`)} Throws KeyValueError before any request if a part is missing or invalid. */\n  key(values: ${name}Key): ${physical} {\n    return { ${keyBody.join(', ')} };\n  }`);
  }
  keysObject.push(`/** ${commentText(`The parts of ${an(name)} table key; throws KeyParseError if the key is not ${an(name)}'s.`)} */\n  parse(key: ${physical}): ${name}Key {\n    return ${parseBody};\n  }`);
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: doc(`Builds and parses ${name} keys: ${entity.key.pk.source}${entity.key.sk ? ` / ${entity.key.sk.source}` : ''}.`),
    declarations: [{ name: `${name}Keys`, initializer: `{\n  ${keysObject.join(',\n  ')},\n}` }],
  });

  // The runtime model.
  const piiNames = attributeNames.filter((a) => { const def = entity.attributes[a]!; return def.kind === 'string' && def.pii === true; });
  const codecs = Object.fromEntries(
    attributeNames.flatMap((a) => {
      const codec = attributeCodec(entity.attributes[a]!, a === table.ttl);
      return codec === undefined ? [] : [[a, codec]];
    }),
  );
  const modelIndexes = indexPaths.map((path) => {
    const index = path.index!;
    const keysRef = `${name}Keys.indexes${member(index.name)}`;
    const mappingShard = entity.indexes[index.name]!.shard;
    const inputs = [...new Set([...(index.kind === 'gsi' ? path.partition : []), ...path.sort, ...(mappingShard ? shardInputs(entity, mappingShard) : [])])];
    return {
      name: index.name,
      kind: index.kind,
      pk: index.kind === 'gsi' ? { attribute: index.pk, template: raw(`${keysRef}.pk`) } : { attribute: table.key.pk, template: raw(`${name}Keys.pk`) },
      ...(path.sk && index.sk !== undefined ? { sk: { attribute: index.sk, template: raw(`${keysRef}.sk`) } } : {}),
      inputs,
      optional: inputs.filter((a) => entity.attributes[a]!.optional),
      projection: index.projection === 'all' || index.projection === 'keys-only' ? index.projection : [...index.projection],
    };
  });
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    docs: doc(`How ${name} items are keyed and stored, for the runtime (used by ${name}Repository and collection queries).`),
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: modelName,
        type: 'EntityModel',
        initializer: printLiteral({
          name,
          pk: { attribute: table.key.pk, template: raw(`${name}Keys.pk`) },
          sk: skDef && table.key.sk !== undefined ? { attribute: table.key.sk, template: raw(`${name}Keys.sk`) } : raw('undefined'),
          indexes: modelIndexes,
          codecs,
          attributes: attributeNames,
          required: attributeNames.filter((a) => !entity.attributes[a]!.optional),
          ...(piiNames.length ? { pii: piiNames } : {}),
          ...(entity.passthrough ? { passthrough: true } : {}),
          keyAttributes: [...ctx.keyAttributes, ...native.copies],
          primaryParts,
          ...(version === undefined ? {} : { version }),
          ...(native.models.length ? { nativeIndexes: native.models } : {}),
        }),
      },
    ],
  });

  // The repository.
  const writeOptions = `WriteOptions<${name}>`;
  const changeOptions = version === undefined ? { name: 'options', type: writeOptions, hasQuestionToken: true } : { name: 'options', type: `VersionedWriteOptions<${name}>` };
  runtimeTypes.add(version === undefined ? 'WriteOptions' : 'VersionedWriteOptions');
  runtimeTypes.add('WriteOptions').add('Returned').add('UpdateReturnValues');
  const asItem = version === undefined ? 'item' : `item as ${name}`;
  const versionNote = version === undefined ? '' : ` Versioned by \`${version}\`: the write is conditioned on it and increments it.`;
  const methods: OptionalKind<MethodDeclarationStructure>[] = [
    {
      name: 'get',
      docs: doc(`Reads one ${name} by its key; undefined when there is none.`),
      parameters: [{ name: 'key', type: `${name}Key` }, { name: 'options', type: 'ReadOptions', hasQuestionToken: true }],
      returnType: `Promise<${name} | undefined>`,
      statements: `return getItem<${name}>(this.context, ${modelName}, key, options);`,
    },
    {
      name: 'put',
      docs: doc(
        addressable
          ? `Writes ${an(name)}, replacing any item with the same key.${versionNote}`
          : `Writes ${an(name)} under a shard drawn at random (${entity.key.shard!.count} shards of ${entity.key.pk.source}): it is read back by gathering every shard, never by key.`,
      ),
      parameters: [{ name: 'item', type: inputType }, { name: 'options', type: writeOptions, hasQuestionToken: true }],
      returnType: `Promise<${name}>`,
      statements: `return putItem(this.context, ${modelName}, ${asItem}, 'put', options);`,
    },
    {
      name: 'create',
      docs: doc(`Writes a new ${name}; throws ItemExistsError if one with the same key exists.`),
      parameters: [{ name: 'item', type: inputType }, { name: 'options', type: writeOptions, hasQuestionToken: true }],
      returnType: `Promise<${name}>`,
      statements: `return putItem(this.context, ${modelName}, ${asItem}, 'create', options);`,
    },
    {
      name: 'replace',
      docs: doc(`Overwrites an existing ${name}; throws ItemNotFoundError if there is none.${versionNote}`),
      parameters: [{ name: 'item', type: inputType }, { name: 'options', type: writeOptions, hasQuestionToken: true }],
      returnType: `Promise<${name}>`,
      statements: `return putItem(this.context, ${modelName}, ${asItem}, 'replace', options);`,
    },
    {
      name: 'update',
      docs: doc(
        `Changes an existing ${name} and returns it; throws ItemNotFoundError if there is none, ConditionFailedError if \`options.condition\` does not hold.` +
          `${indexPaths.length ? ' Index keys fed by changed attributes are rebuilt in the same request.' : ''}${versionNote}` +
          ' `returnValues` picks what comes back: the item after (default) or before, the changed attributes, or nothing.',
      ),
      typeParameters: [{ name: 'R', constraint: 'UpdateReturnValues', default: "'ALL_NEW'" }],
      parameters: [
        { name: 'key', type: `${name}Key` },
        { name: 'changes', type: `${name}Update` },
        { ...changeOptions, type: `${changeOptions.type} & { readonly returnValues?: R }` },
      ],
      returnType: `Promise<Returned<${name}, R>>`,
      statements: `return updateItem<Returned<${name}, R>>(this.context, ${modelName}, key, changes, options);`,
    },
    {
      name: 'delete',
      docs: doc(`Deletes ${an(name)}; returns the deleted item, or undefined if there was none (nothing with \`returnValues: 'NONE'\`).${versionNote}`),
      parameters: [{ name: 'key', type: `${name}Key` }, { ...changeOptions, type: `${changeOptions.type} & { readonly returnValues?: 'ALL_OLD' | 'NONE' }` }],
      returnType: `Promise<${name} | undefined>`,
      statements: `return deleteItem<${name}>(this.context, ${modelName}, key, options);`,
    },
    {
      name: 'batchGet',
      docs: doc(`Reads many ${name} items by key (100 per request, unprocessed keys retried); results follow the order of \`keys\`. If it stops early, throws BatchError (UnprocessedItemsError when retries make no progress) whose \`items\` are the ${name} items read and \`unprocessed\` the ${name}Key values not read.`),
      parameters: [{ name: 'keys', type: `readonly ${name}Key[]` }, { name: 'options', type: 'ReadOptions', hasQuestionToken: true }],
      returnType: `Promise<Array<${name} | undefined>>`,
      statements: `return batchGetItems<${name}, ${name}Key>(this.context, ${modelName}, keys, options);`,
    },
    {
      name: 'batchPut',
      docs: doc(`Writes many ${name} items (25 per request, unprocessed items retried). If it stops early, throws BatchError (UnprocessedItemsError when retries make no progress) whose \`written\` and \`unprocessed\` are the ${name} items written and not written.${version === undefined ? '' : ' Batch writes take no conditions: versions are written as given.'}`),
      parameters: [{ name: 'items', type: `readonly ${name}[]` }],
      returnType: 'Promise<void>',
      statements: `return batchPutItems(this.context, ${modelName}, items);`,
    },
    {
      name: 'batchDelete',
      docs: doc(`Deletes many ${name} items by key (25 per request, unprocessed items retried). If it stops early, throws BatchError (UnprocessedItemsError when retries make no progress) whose \`written\` and \`unprocessed\` are the ${name}Key values deleted and not deleted.`),
      parameters: [{ name: 'keys', type: `readonly ${name}Key[]` }],
      returnType: 'Promise<void>',
      statements: `return batchDeleteItems(this.context, ${modelName}, keys);`,
    },
  ];

  // A sharded partition with a constant sort key holds one item per shard: it is read by gathering.
  const gathersConstant = entity.key.shard !== undefined && primary.sort.length === 0;
  const queryPaths = [primary, ...indexPaths].filter((p) => p.sort.length > 0 || p.index !== undefined || (p === primary && gathersConstant));
  for (const path of queryPaths) {
    const names = pathNames(entity, path);
    const gsi = path.index?.kind === 'gsi';
    const projected = path.projection !== 'all';
    const condition = path.sort.length ? `SortCondition<${names.sortPrefixType}${textPrefixUnion(entity, path.sort) ? `, ${names.sortTextPrefixType}` : ''}>` : 'never';
    if (path.sort.length) usesSortCondition = true;
    const optionsType = `${gsi ? 'IndexQueryOptions' : 'QueryOptions'}<${condition}>`;
    runtimeTypes.add(gsi ? 'IndexQueryOptions' : 'QueryOptions').add('Page');
    runtime.add('entityQuery').add('queryPage').add('allItems');
    const indexArg = path.index ? quote(path.index.name) : 'undefined';
    const request = `entityQuery(${modelName}, ${quote(names.method)}, ${indexArg}, partition, options)`;
    const where = path.index ? `index ${path.index.name} (${path.pk.source}${path.sk ? ` / ${path.sk.source}` : ''})` : `the table (${path.pk.source}${path.sk ? ` / ${path.sk.source}` : ''})`;
    if (!projected) {
      runtime.add('mapItem');
      methods.push({
        name: names.method,
        docs: doc(
          `Lists ${name} items of one partition of ${where} in sort-key order` +
            (path.sort.length ? ', optionally narrowed by `where` on a left-to-right prefix of the sort-key parts (`eq` matches whole parts, `beginsWith` text at the start of a string part)' : '') +
            '. Pass `cursor` from the previous page to continue.',
        ),
        parameters: [{ name: 'partition', type: names.partitionType }, { name: 'options', type: optionsType, initializer: '{}' }],
        returnType: `Promise<Page<${name}>>`,
        statements: `return queryPage(this.context, ${request}, options, mapItem<${name}>(${modelName}));`,
        isAsync: true,
      });
    } else {
      runtime.add('projectRecord').add('fetchItems');
      const fetchOptions = `${optionsType} & { fetch?: boolean }`;
      methods.push({
        name: names.method,
        docs: doc(`Lists ${name} items of one partition of ${where} as the index projects them; with \`fetch: true\`, reads the full items by key (batched).`),
        overloads: [
          { parameters: [{ name: 'partition', type: names.partitionType }, { name: 'options', type: `${optionsType} & { fetch: true }` }], returnType: `Promise<Page<${name}>>` },
          { parameters: [{ name: 'partition', type: names.partitionType }, { name: 'options', type: `${optionsType} & { fetch?: false }`, hasQuestionToken: true }], returnType: `Promise<Page<${names.itemType}>>` },
        ],
        parameters: [{ name: 'partition', type: names.partitionType }, { name: 'options', type: fetchOptions, initializer: '{}' }],
        returnType: `Promise<Page<${name}> | Page<${names.itemType}>>`,
        statements: [
          `const request = ${request};`,
          `if (!options.fetch) return queryPage(this.context, request, options, (stored) => projectRecord<${names.itemType}>(${modelName}, ${modelName}.indexes[${modelIndexes.findIndex((m) => m.name === path.index!.name)}]!, stored));`,
          `return fetchItems<${name}>(this.context, ${modelName}, await queryPage(this.context, request, options, (stored) => stored), options);`,
        ],
        isAsync: true,
      });
    }
    const bucket = path.pk.segments.find((seg) => seg.kind === 'placeholder' && seg.truncate !== undefined && entity.attributes[seg.name]?.kind === 'timestamp');
    const firstSort = path.sk?.segments.find((seg) => seg.kind === 'placeholder');
    if (bucket?.kind === 'placeholder' && firstSort?.kind === 'placeholder' && firstSort.name === bucket.name && firstSort.truncate === undefined) {
      runtime.add('queryTimeRange').add(projected ? 'projectRecord' : 'mapItem');
      const rest = path.partition.filter((a) => a !== bucket.name);
      const map = projected
        ? `(stored) => projectRecord<${names.itemType}>(${modelName}, ${modelName}.indexes[${modelIndexes.findIndex((m) => m.name === path.index!.name)}]!, stored)`
        : `mapItem<${name}>(${modelName})`;
      methods.push({
        name: `${names.method}Between`,
        docs: doc(
          `${name} items with ${bucket.name} from \`range.from\` to \`range.to\` (inclusive), across every ${bucket.truncate} bucket of ${path.pk.source}` +
            `${path.pk.segments.some((seg) => seg.kind === 'placeholder' && seg.name === 'shard') ? ' and every shard' : ''}, merged in order under one cursor.`,
        ),
        parameters: [
          { name: 'partition', type: members(entity, rest, 'required') },
          { name: 'range', type: '{ readonly from: Date; readonly to: Date }' },
          { name: 'options', type: `${gsi ? 'IndexQueryOptions' : 'QueryOptions'}<never>`, initializer: '{}' },
        ],
        returnType: `Promise<Page<${names.itemType}>>`,
        statements: `return queryTimeRange(this.context, ${modelName}, ${quote(`${names.method}Between`)}, ${indexArg}, { attribute: ${quote(bucket.name)}, unit: ${quote(bucket.truncate!)} }, partition, range, options, ${map});`,
        isAsync: true,
      });
    }
    const leading = path.sk?.segments.find((seg) => seg.kind === 'placeholder');
    if (table.rotation && !path.index && leading?.kind === 'placeholder' && leading.truncate === undefined && entity.attributes[leading.name]?.kind === 'timestamp' && !path.partition.includes(leading.name)) {
      runtime.add('queryRotated').add('mapItem');
      methods.push({
        name: `${names.method}AcrossTables`,
        docs: doc(
          `${name} items of one partition with ${leading.name} from \`range.from\` to \`range.to\` (inclusive), read from every ${table.rotation}'s table the range touches` +
            ' (one per period, from the base name), merged in order under one cursor.',
        ),
        parameters: [
          { name: 'partition', type: names.partitionType },
          { name: 'range', type: '{ readonly from: Date; readonly to: Date }' },
          { name: 'options', type: 'QueryOptions<never>', initializer: '{}' },
        ],
        returnType: `Promise<Page<${name}>>`,
        statements: `return queryRotated(this.context, ${modelName}, ${quote(`${names.method}AcrossTables`)}, ${quote(leading.name)}, partition, range, options, mapItem<${name}>(${modelName}));`,
        isAsync: true,
      });
    }
    methods.push({
      name: `${names.method}All`,
      docs: doc(`Every item \`${names.method}\` would return, page after page (from \`options.cursor\` if given), as an async iterator.`),
      parameters: [{ name: 'partition', type: names.partitionType }, { name: 'options', type: optionsType, initializer: '{}' }],
      returnType: `AsyncGenerator<${names.itemType}, void, undefined>`,
      statements: `return allItems((cursor) => this.${names.method}(partition, { ...options, ...(cursor === undefined ? {} : { cursor }) }), options.cursor);`,
    });
  }

  for (const resolved of patterns) {
    const { pattern, path, op, before } = resolved;
    const names = pathNames(entity, path);
    const gsi = path.index?.kind === 'gsi';
    const paramsType = `${name}${pascalCase(pattern.name)}Params`;
    const optionsType = gsi ? 'PageOptions' : 'PageOptions & ReadOptions';
    runtimeTypes.add('PageOptions').add('Page');
    runtime.add('queryPage').add('allItems').add('patternCondition').add('keyAttributesOf');
    const modelPath = path.index ? `${modelName}.indexes[${modelIndexes.findIndex((m) => m.name === path.index!.name)}]!` : modelName;
    const sortTemplate = path.index ? `${modelPath}.sk` : `${modelName}.sk`;
    const condition =
      path.sk === undefined
        ? ''
        : `sk: { attribute: ${sortTemplate}!.attribute, condition: patternCondition(${sortTemplate}!.template, ${pattern.sk === undefined ? 'params' : `{ ...params, ${propertyKey(pattern.sk)}: undefined }`}, ${pattern.sk === undefined ? 'undefined' : quote(pattern.sk)}, ${quote(op)}, ${pattern.sk === undefined ? 'undefined' : `params${member(pattern.sk)}`}) }, `;
    const request =
      `{ scope: ${quote(`${name}.${pattern.name}`)}, ${path.index ? `indexName: ${quote(path.index.name)}, ` : ''}pk: ${modelPath}.pk, partition: params, ${condition}` +
      `params, keyAttributes: keyAttributesOf(${modelName}, ${path.index ? modelPath : 'undefined'}), order: ${quote(pattern.order ?? 'asc')}, consistent: ${gsi ? 'false' : 'options.consistent === true'}${path.index ? '' : `, owner: ${modelName}`} }`;
    const map = path.projection === 'all' ? `mapItem<${name}>(${modelName})` : `(stored) => projectRecord<${names.itemType}>(${modelName}, ${modelPath}, stored)`;
    runtime.add(path.projection === 'all' ? 'mapItem' : 'projectRecord');
    const describe = [pattern.sk ? `${pattern.sk} ${op}` : 'the whole partition', path.index ? `on index ${path.index.name}` : 'on the table', pattern.order === 'desc' ? 'newest (greatest) first' : 'in sort-key order'].join(', ');
    methods.push({
      name: pattern.name,
      docs: doc(`Pattern ${pattern.name}: ${name} items, ${describe}.${before.length ? ` Fixes ${before.join(', ')} first.` : ''}`),
      parameters: [{ name: 'params', type: paramsType }, { name: 'options', type: optionsType, initializer: '{}' }],
      returnType: `Promise<Page<${names.itemType}>>`,
      statements: `return queryPage(this.context, ${request}, options, ${map});`,
      isAsync: true,
    });
    methods.push({
      name: `${pattern.name}All`,
      docs: doc(`Every item of pattern ${pattern.name}, page after page (from \`options.cursor\` if given), as an async iterator.`),
      parameters: [{ name: 'params', type: paramsType }, { name: 'options', type: optionsType, initializer: '{}' }],
      returnType: `AsyncGenerator<${names.itemType}, void, undefined>`,
      statements: `return allItems((cursor) => this.${pattern.name}(params, { ...options, ...(cursor === undefined ? {} : { cursor }) }), options.cursor);`,
    });
  }

  const counters = attributeNames.filter((a) => !primaryParts.includes(a) && entity.attributes[a]!.kind === 'number');
  const countable =
    version === undefined &&
    counters.length > 0 &&
    attributeNames.every((a) => primaryParts.includes(a) || entity.attributes[a]!.kind === 'number' || entity.attributes[a]!.optional) &&
    modelIndexes.every((m) => m.inputs.every((a) => primaryParts.includes(a)));
  if (countable) {
    methods.push({
      name: 'increment',
      docs: doc(
        `Adds to ${counters.join(', ')} atomically (ADD), creating the ${name} if it is absent with the other counters at 0. ` +
          'Not idempotent: an ambiguous failure throws AmbiguousWriteError instead of retrying.' +
          (addressable ? '' : ' Each call adds to one shard drawn at random; `sum` reads the total.'),
      ),
      parameters: [{ name: 'key', type: `${name}Key` }, { name: 'deltas', type: members(entity, counters, 'optional') }],
      returnType: `Promise<${name}>`,
      statements: `return incrementItem<${name}>(this.context, ${modelName}, key, deltas as Record<string, number>, ${printLiteral(counters)});`,
    });
  }
  // A sequence (seed 000): items at non-negative integer positions leading the sort key, read as a run in one batched call.
  const leadingSort = entity.key.sk?.segments.find((seg) => seg.kind === 'placeholder');
  const positionDef = leadingSort?.kind === 'placeholder' ? entity.attributes[leadingSort.name] : undefined;
  const position = positionDef?.kind === 'number' && positionDef.integer && (positionDef.min ?? -1) >= 0 ? leadingSort : undefined;
  if (addressable && position?.kind === 'placeholder') {
    const rest = primaryParts.filter((a) => a !== position.name);
    methods.push({
      name: `get${pascalCase(position.name)}Range`,
      docs: doc(`Reads the ${name} items at ${position.name} \`from\` to \`to\` (inclusive) in one batched call (100 keys per request); results follow ${position.name} order, undefined where there is none.`),
      parameters: [{ name: 'key', type: members(entity, rest, 'required') }, { name: 'from', type: 'number' }, { name: 'to', type: 'number' }, { name: 'options', type: 'ReadOptions', hasQuestionToken: true }],
      returnType: `Promise<Array<${name} | undefined>>`,
      statements: [
        `const keys: ${name}Key[] = [];`,
        `for (let at = from; at <= to; at++) keys.push({ ...key, ${propertyKey(position.name)}: at });`,
        `return batchGetItems<${name}, ${name}Key>(this.context, ${modelName}, keys, options);`,
      ],
    });
  }
  if (gathersConstant) {
    runtime.add('getAllItems');
    methods.push({
      name: 'getAll',
      docs: doc(`Every shard's ${name} of one partition (${entity.key.shard!.count} keys of ${entity.key.pk.source}), read in one batched call; shards never written are absent.`),
      parameters: [{ name: 'partition', type: primaryNames.partitionType }, { name: 'options', type: 'ReadOptions', hasQuestionToken: true }],
      returnType: `Promise<${name}[]>`,
      statements: `return getAllItems<${name}>(this.context, ${modelName}, partition, options);`,
    });
    if (countable) {
      runtime.add('sumItems');
      methods.push({
        name: 'sum',
        docs: doc(`${counters.join(', ')} summed over every shard of one partition (one batched read of ${entity.key.shard!.count} keys); 0 where nothing was written.`),
        parameters: [{ name: 'partition', type: primaryNames.partitionType }, { name: 'options', type: 'ReadOptions', hasQuestionToken: true }],
        returnType: `Promise<{ ${counters.map((c) => `${propertyKey(c)}: number`).join('; ')} }>`,
        statements: `return sumItems(this.context, ${modelName}, partition, ${printLiteral(counters)}, options);`,
      });
    }
  }

  for (const model of modelIndexes.filter((m) => addressable && m.optional.length > 0)) {
    const suffix = pascalCase(model.name);
    methods.push(
      {
        name: `mark${suffix}`,
        docs: doc(`Puts ${an(name)} into sparse index ${model.name} by setting ${model.optional.join(', ')} (its index key is written in the same request).`),
        parameters: [{ name: 'key', type: `${name}Key` }, { name: 'values', type: members(entity, model.optional, 'required') }, ...(version === undefined ? [] : [changeOptions])],
        returnType: `Promise<${name}>`,
        statements: `return updateItem<${name}>(this.context, ${modelName}, key, { set: values }${version === undefined ? '' : ', options'});`,
      },
      {
        name: `clear${suffix}`,
        docs: doc(`Takes ${an(name)} out of sparse index ${model.name}: removes ${model.optional.join(', ')} and its index key attributes.`),
        parameters: [{ name: 'key', type: `${name}Key` }, ...(version === undefined ? [] : [changeOptions])],
        returnType: `Promise<${name}>`,
        statements: `return updateItem<${name}>(this.context, ${modelName}, key, { remove: ${printLiteral(model.optional)} }${version === undefined ? '' : ', options'});`,
      },
    );
  }

  if (native.methods.length) {
    methods.push(...native.methods);
    runtime.add('allItems');
    runtimeTypes.add('IndexQueryOptions').add('Page');
  }
  statements.push({
    kind: StructureKind.Class,
    name: `${name}Repository`,
    isExported: true,
    docs: doc(`Reads and writes ${name} items. Every key is built and checked before a request is sent.`),
    properties: [{ name: 'context', type: 'TableContext', isReadonly: true, scope: 'private' as never }],
    ctors: [{ parameters: [{ name: 'context', type: 'TableContext' }], statements: 'this.context = context;' }],
    methods: addressable ? methods : methods.filter((m) => !BY_KEY.includes(m.name)),
  });

  return {
    imports: [
      { moduleSpecifier: './runtime/codec.js', namedImports: ['KeyTemplate'] },
      ...(usesSortCondition ? [{ moduleSpecifier: './runtime/key-condition.js', isTypeOnly: true, namedImports: ['SortCondition'] }] : []),
      ...(native.methods.length ? [{ moduleSpecifier: './runtime/native-index.js', namedImports: ['queryNativePage', ...(native.usesRange ? [{ name: 'NativeRange', isTypeOnly: true }] : [])] }] : []),
      {
        moduleSpecifier: './runtime/repository.js',
        namedImports: [...[...runtime].sort(), ...[...runtimeTypes].filter((n) => !WRITE_TYPES.includes(n)).sort().map((n) => ({ name: n, isTypeOnly: true }))],
      },
      {
        moduleSpecifier: './runtime/write.js',
        namedImports: [...(addressable ? ['deleteItem'] : []), ...(countable ? ['incrementItem'] : []), 'putItem', ...(addressable ? ['updateItem'] : []), ...[...runtimeTypes].filter((n) => WRITE_TYPES.includes(n)).sort().map((n) => ({ name: n, isTypeOnly: true }))],
      },
    ],
    statements,
  };
}
