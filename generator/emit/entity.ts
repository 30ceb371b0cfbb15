// Emits one entity's module: the item type, key types, `<Entity>Keys` (build and parse), the
// runtime model constant and `<Entity>Repository`. Pure: (entity, ctx) → ts-morph structures.

import {
  StructureKind,
  VariableDeclarationKind,
  type ImportDeclarationStructure,
  type OptionalKind,
  type StatementStructures,
} from 'ts-morph';
import type { EntityDef, TemplateDef } from '../../dsl/ir.js';
import type { KeyTemplateDef } from '../../templates/runtime/codec.js';
import { keySegments, templateAttributes } from '../model/key-segments.js';
import { attributeCodec, attributeType } from './attribute-type.js';
import { camelCase, keyParts, printLiteral, propertyKey, quote, type EmitContext } from './context.js';

export interface EmittedModule {
  readonly imports: OptionalKind<ImportDeclarationStructure>[];
  readonly statements: StatementStructures[];
}

const PK_BYTES = 2048;
const SK_BYTES = 1024;

function templateDef(entity: EntityDef, template: TemplateDef, target: string, maxBytes: number, ctx: EmitContext): KeyTemplateDef {
  const segments = keySegments(entity, template);
  if (!segments) throw new Error(`internal: ${target} was not validated`);
  return { entity: entity.name, target, delimiter: ctx.table.delimiter, maxBytes, segments };
}

/** `{ a: string; b?: Date }` members for the named attributes of an entity. */
function members(entity: EntityDef, names: readonly string[], forceOptional = false): string {
  const parts = names.map((name) => {
    const def = entity.attributes[name]!;
    return `${propertyKey(name)}${forceOptional || def.optional ? '?' : ''}: ${attributeType(def)}`;
  });
  return parts.length ? `{ ${parts.join('; ')} }` : 'Record<string, never>';
}

/** `{ a: A } | { a: A; b: B }`: the left-to-right prefixes of a sort key's parts. */
function prefixUnion(entity: EntityDef, names: readonly string[]): string {
  return names.map((_, i) => members(entity, names.slice(0, i + 1))).join(' | ');
}

/** `a User`, `an Article`. */
function an(name: string): string {
  return `${/^[AEIOU]/i.test(name) ? 'an' : 'a'} ${name}`;
}

function doc(text: string) {
  return [{ kind: StructureKind.JSDoc as const, description: text }];
}

export function emitEntity(entity: EntityDef, ctx: EmitContext): EmittedModule {
  const { table } = ctx;
  const name = entity.name;
  const attributeNames = Object.keys(entity.attributes);
  const pkAttributes = templateAttributes(entity.key.pk);
  const skAttributes = entity.key.sk ? templateAttributes(entity.key.sk) : [];
  const keyAttributes = [...new Set([...pkAttributes, ...skAttributes])];
  const queryable = skAttributes.length > 0;
  const locked = new Set(keyParts(entity));
  const mutable = attributeNames.filter((a) => !locked.has(a));
  const removable = mutable.filter((a) => entity.attributes[a]!.optional);
  const addable = mutable.filter((a) => ['number', 'stringSet', 'numberSet'].includes(entity.attributes[a]!.kind));
  const appendable = mutable.filter((a) => entity.attributes[a]!.kind === 'list');
  const physical = `{ ${propertyKey(table.key.pk)}: string${table.key.sk === undefined ? '' : `; ${propertyKey(table.key.sk)}: string`} }`;

  const statements: StatementStructures[] = [];

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
    type: members(entity, keyAttributes),
  });
  statements.push({
    kind: StructureKind.TypeAlias,
    name: `${name}Partition`,
    isExported: true,
    docs: doc(`The parts of ${name}'s partition key.`),
    type: members(entity, pkAttributes),
  });
  if (queryable) {
    statements.push({
      kind: StructureKind.TypeAlias,
      name: `${name}SortKey`,
      isExported: true,
      docs: doc(`All of ${name}'s sort-key parts.`),
      type: members(entity, skAttributes),
    });
    statements.push({
      kind: StructureKind.TypeAlias,
      name: `${name}SortPrefix`,
      isExported: true,
      docs: doc(`A left-to-right prefix of ${name}'s sort-key parts, for query conditions.`),
      type: prefixUnion(entity, skAttributes),
    });
  }
  const update: string[] = [];
  if (mutable.length) update.push(`set?: ${members(entity, mutable, true)}`);
  if (removable.length) update.push(`remove?: ReadonlyArray<${removable.map(quote).join(' | ')}>`);
  if (addable.length) update.push(`add?: ${members(entity, addable, true)}`);
  if (appendable.length) update.push(`append?: ${members(entity, appendable, true)}`);
  statements.push({
    kind: StructureKind.TypeAlias,
    name: `${name}Update`,
    isExported: true,
    docs: doc(`Changes accepted by \`${name}Repository.update\`. Key parts (${[...locked].join(', ') || 'none'}) cannot change.`),
    type: update.length ? `{ ${update.join('; ')} }` : 'Record<string, never>',
  });

  const pkDef = templateDef(entity, entity.key.pk, `${name}.key.pk`, PK_BYTES, ctx);
  const skDef = entity.key.sk ? templateDef(entity, entity.key.sk, `${name}.key.sk`, SK_BYTES, ctx) : undefined;
  const indexEntries = Object.values(entity.indexes).map((mapping) => {
    const index = table.indexes[mapping.index]!;
    const target = `${name}.indexes.${mapping.index}`;
    return {
      mapping,
      index,
      pk: mapping.pk && index.kind === 'gsi' ? templateDef(entity, mapping.pk, `${target}.pk`, PK_BYTES, ctx) : undefined,
      sk: mapping.sk && index.sk !== undefined ? templateDef(entity, mapping.sk, `${target}.sk`, SK_BYTES, ctx) : undefined,
    };
  });
  const keysObject = [
    `pk: new KeyTemplate(${printLiteral(pkDef, '  ')})`,
    ...(skDef ? [`sk: new KeyTemplate(${printLiteral(skDef, '  ')})`] : []),
  ];
  if (indexEntries.length) {
    const inner = indexEntries.map(({ mapping, pk, sk }) => {
      const parts = [...(pk ? [`pk: new KeyTemplate(${printLiteral(pk, '      ')})`] : []), ...(sk ? [`sk: new KeyTemplate(${printLiteral(sk, '      ')})`] : [])];
      return `${propertyKey(mapping.index)}: {\n      ${parts.join(',\n      ')},\n    }`;
    });
    keysObject.push(`indexes: {\n    ${inner.join(',\n    ')},\n  }`);
  }
  const keyBody = [
    `${propertyKey(table.key.pk)}: ${name}Keys.pk.build(values)`,
    ...(skDef && table.key.sk !== undefined ? [`${propertyKey(table.key.sk)}: ${name}Keys.sk.build(values)`] : []),
  ];
  const parseBody = `{ ...${name}Keys.pk.parse(key.${table.key.pk === propertyKey(table.key.pk) ? table.key.pk : `[${quote(table.key.pk)}]`})${
    skDef && table.key.sk !== undefined ? `, ...${name}Keys.sk.parse(key${table.key.sk === propertyKey(table.key.sk) ? `.${table.key.sk}` : `[${quote(table.key.sk)}]`})` : ''
  } } as ${name}Key`;
  keysObject.push(`/** The table key of ${an(name)}. Throws KeyValueError before any request if a part is missing or invalid. */\n  key(values: ${name}Key): ${physical} {\n    return { ${keyBody.join(', ')} };\n  }`);
  keysObject.push(`/** The parts of ${an(name)} table key; throws KeyParseError if the key is not ${an(name)}'s. */\n  parse(key: ${physical}): ${name}Key {\n    return ${parseBody};\n  }`);
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: doc(`Builds and parses ${name} keys: ${entity.key.pk.source}${entity.key.sk ? ` / ${entity.key.sk.source}` : ''}.`),
    declarations: [{ name: `${name}Keys`, initializer: `{\n  ${keysObject.join(',\n  ')},\n}` }],
  });

  const codecs = Object.fromEntries(attributeNames.flatMap((a) => {
    const codec = attributeCodec(entity.attributes[a]!);
    return codec === undefined ? [] : [[a, codec]];
  }));
  const modelIndexes = indexEntries.map(({ mapping, index, pk, sk }) => {
    const optional = [...new Set([...(mapping.pk ? templateAttributes(mapping.pk) : []), ...(mapping.sk ? templateAttributes(mapping.sk) : [])])].filter(
      (a) => entity.attributes[a]!.optional,
    );
    const parts = [`name: ${quote(mapping.index)}`];
    if (pk && index.kind === 'gsi') parts.push(`pk: { attribute: ${quote(index.pk)}, template: ${name}Keys.indexes.${propertyKey(mapping.index) === mapping.index ? mapping.index : `[${quote(mapping.index)}]`}.pk }`);
    if (sk && index.sk !== undefined) parts.push(`sk: { attribute: ${quote(index.sk)}, template: ${name}Keys.indexes${propertyKey(mapping.index) === mapping.index ? `.${mapping.index}` : `[${quote(mapping.index)}]`}.sk }`);
    parts.push(`optional: ${printLiteral(optional)}`);
    return `{ ${parts.join(', ')} }`;
  });
  const model = [
    `name: ${quote(name)}`,
    `pk: { attribute: ${quote(table.key.pk)}, template: ${name}Keys.pk }`,
    `sk: ${skDef && table.key.sk !== undefined ? `{ attribute: ${quote(table.key.sk)}, template: ${name}Keys.sk }` : 'undefined'}`,
    `indexes: [${modelIndexes.length ? `\n    ${modelIndexes.join(',\n    ')},\n  ` : ''}]`,
    `codecs: ${printLiteral(codecs, '  ')}`,
    `keyAttributes: ${printLiteral(ctx.keyAttributes, '  ')}`,
    `keyParts: ${printLiteral([...locked], '  ')}`,
  ];
  const modelName = `${camelCase(name)}Model`;
  statements.push({
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: modelName, type: 'EntityModel', initializer: `{\n  ${model.join(',\n  ')},\n}` }],
  });

  const methods = [
    {
      name: 'get',
      docs: doc(`Reads one ${name} by its key; undefined when there is none.`),
      parameters: [{ name: 'key', type: `${name}Key` }, { name: 'options', type: 'ReadOptions', hasQuestionToken: true }],
      returnType: `Promise<${name} | undefined>`,
      statements: `return getItem<${name}>(this.context, ${modelName}, key, options);`,
    },
    {
      name: 'put',
      docs: doc(`Writes ${an(name)}, replacing any item with the same key.`),
      parameters: [{ name: 'item', type: name }],
      returnType: `Promise<${name}>`,
      statements: `return putItem(this.context, ${modelName}, item, 'put');`,
    },
    {
      name: 'create',
      docs: doc(`Writes a new ${name}; throws ItemExistsError if one with the same key exists.`),
      parameters: [{ name: 'item', type: name }],
      returnType: `Promise<${name}>`,
      statements: `return putItem(this.context, ${modelName}, item, 'create');`,
    },
    {
      name: 'update',
      docs: doc(`Changes an existing ${name} and returns it; throws ItemNotFoundError if there is none.`),
      parameters: [{ name: 'key', type: `${name}Key` }, { name: 'changes', type: `${name}Update` }],
      returnType: `Promise<${name}>`,
      statements: `return updateItem<${name}>(this.context, ${modelName}, key, changes);`,
    },
    {
      name: 'delete',
      docs: doc(`Deletes ${an(name)}; returns the deleted item, or undefined if there was none.`),
      parameters: [{ name: 'key', type: `${name}Key` }],
      returnType: `Promise<${name} | undefined>`,
      statements: `return deleteItem<${name}>(this.context, ${modelName}, key);`,
    },
  ];
  if (queryable) {
    methods.push({
      name: 'query',
      docs: doc(
        `Lists the ${name} items of one partition in sort-key order (${entity.key.sk!.source}), optionally ` +
          'narrowed by a condition on a left-to-right prefix of the sort-key parts. Pass `cursor` from the previous page to continue.',
      ),
      parameters: [
        { name: 'partition', type: `${name}Partition` },
        { name: 'options', type: `QueryOptions<SortCondition<${name}SortKey, ${name}SortPrefix>>`, hasQuestionToken: true },
      ],
      returnType: `Promise<Page<${name}>>`,
      statements: `return queryItems<${name}>(this.context, ${modelName}, partition, options);`,
    });
  }
  statements.push({
    kind: StructureKind.Class,
    name: `${name}Repository`,
    isExported: true,
    docs: doc(`Reads and writes ${name} items. Every key is built and checked before a request is sent.`),
    ctors: [{ parameters: [{ name: 'context', type: 'TableContext', isReadonly: true, scope: 'private' as never }] }],
    methods,
  });

  const repositoryImports = ['deleteItem', 'getItem', 'putItem', ...(queryable ? ['queryItems'] : []), 'updateItem'];
  const repositoryTypes = ['EntityModel', ...(queryable ? ['Page', 'QueryOptions'] : []), 'ReadOptions', 'TableContext'];
  return {
    imports: [
      { moduleSpecifier: './runtime/codec.js', namedImports: ['KeyTemplate'] },
      ...(queryable ? [{ moduleSpecifier: './runtime/key-condition.js', isTypeOnly: true, namedImports: ['SortCondition'] }] : []),
      { moduleSpecifier: './runtime/repository.js', namedImports: [...repositoryImports, ...repositoryTypes.map((n) => ({ name: n, isTypeOnly: true }))] },
    ],
    statements,
  };
}
