// Emits what an entity gets for each native multi-attribute GSI it maps into: the partition and
// sort-condition types, the item type of a projection, `query<Index>` / `query<Index>All`, and the
// runtime model of the mapping. Pure: (entity, ctx) → structures; entity.ts adds them to its module.

import { StructureKind } from '../../ts-morph.js';
import type { StructureKind as Kind, MethodDeclarationStructure, OptionalKind, StatementStructures } from 'ts-morph';
import type { EntityDef, NativeGsiDef, Projection } from '../../../dsl/ir.js';
import { indexProjection } from '../../model/access-paths.js';
import { nativeParts, renamedCopies } from '../../model/native-keys.js';
import { exactKeyParts } from '../../model/key-segments.js';
import { projectsDiscriminator } from '../../../templates/runtime/item.js';
import { attributeType } from '../attribute-type.js';
import { operationName, pascalCase, propertyKey, quote, type EmitContext } from '../context.js';

export interface NativeIndexOutput {
  /** Type aliases, after the entity's other path types. */
  readonly statements: StatementStructures[];
  /** Repository methods. */
  readonly methods: OptionalKind<MethodDeclarationStructure>[];
  /** `NativeIndexModel` literals for the entity model's `nativeIndexes`. */
  readonly models: ReadonlyArray<{ name: string; partition: string[][]; sort: string[][] }>;
  /** Index attributes written as copies of differently named attributes: stripped on read. */
  readonly copies: readonly string[];
  /** Some mapped index has a sort key: the module uses `NativeRange`. */
  readonly usesRange: boolean;
}

const doc = (description: string) => [{ kind: StructureKind.JSDoc as Kind.JSDoc, description }];

/** `{ a: A; b: B }`, every member required. */
function required(entity: EntityDef, names: readonly string[]): string {
  return names.length ? `{ ${names.map((n) => `${propertyKey(n)}: ${attributeType(entity.attributes[n]!)}`).join('; ')} }` : 'Record<string, never>';
}

/**
 * The sort condition, one member per left-to-right prefix: equality (a plain value) on every
 * attribute before the last given, a value or a `NativeRange` on the last, and the rest absent.
 */
function whereType(entity: EntityDef, sort: readonly string[], ttl: string | undefined): string {
  return sort
    .map((last, i) => {
      const type = (n: string) => attributeType(entity.attributes[n]!);
      // the TTL attribute is stored as epoch seconds: a number, which beginsWith cannot prefix
      const range = last === ttl ? `NativeRange<${type(last)}, false>` : `NativeRange<${type(last)}>`;
      const members = [
        ...sort.slice(0, i).map((n) => `${propertyKey(n)}: ${type(n)}`),
        `${propertyKey(last)}: ${type(last)} | ${range}`,
        ...sort.slice(i + 1).map((n) => `${propertyKey(n)}?: never`),
      ];
      return `{ ${members.join('; ')} }`;
    })
    .join(' | ');
}

/** What a projection holds of the entity: the table key's exact parts, the index key's attributes and the included ones. */
function projected(entity: EntityDef, index: NativeGsiDef, projection: Projection, keyParts: readonly string[]): string[] | undefined {
  if (projection === 'all') return undefined;
  const names = new Set([...exactKeyParts(entity, [entity.key.pk, entity.key.sk]), ...keyParts, ...(projection === 'keys-only' ? [] : projection)]);
  return Object.keys(entity.attributes).filter((n) => names.has(n));
}

export function emitNativeIndexes(entity: EntityDef, ctx: EmitContext): NativeIndexOutput {
  const out = { statements: [] as StatementStructures[], methods: [] as OptionalKind<MethodDeclarationStructure>[], models: [] as Array<{ name: string; withoutDiscriminator?: true; partition: string[][]; sort: string[][] }>, copies: [] as string[] };
  const modelName = `${entity.name.charAt(0).toLowerCase()}${entity.name.slice(1)}Model`;
  for (const mapping of Object.values(entity.nativeIndexes ?? {})) {
    const index = ctx.table.indexes[mapping.index];
    if (index?.kind !== 'native-gsi') continue;
    const suffix = pascalCase(index.name);
    const base = `${entity.name}${suffix}`;
    const partition = nativeParts(index, mapping, 'pk');
    const sort = nativeParts(index, mapping, 'sk');
    const projection = indexProjection(ctx.table, index);
    const holds = projected(entity, index, projection, [...partition, ...sort]);
    const itemType = holds ? `${base}Item` : entity.name;
    const keyText = `${index.pk.map((k, i) => (k === partition[i] ? k : `${k} from ${partition[i]}`)).join(', ')}${index.sk.length ? ` / ${index.sk.map((k, i) => (k === sort[i] ? k : `${k} from ${sort[i]}`)).join(', ')}` : ''}`;
    out.statements.push({ kind: StructureKind.TypeAlias, name: `${base}Partition`, isExported: true, docs: doc(`The partition-key attributes of ${entity.name} in native index ${index.name} (${partition.join(', ')}): each one is matched by equality.`), type: required(entity, partition) });
    if (sort.length) {
      out.statements.push({
        kind: StructureKind.TypeAlias,
        name: `${base}Where`,
        isExported: true,
        docs: doc(`A sort condition on native index ${index.name}: ${sort.join(', ')} left to right, each a value (equality) up to the last one given, which may instead be a range (\`{ gte: v }\`, \`{ between: [a, b] }\`, \`{ beginsWith: 'x' }\` on text).`),
        type: whereType(entity, sort, ctx.table.ttl),
      });
    }
    if (holds) {
      out.statements.push({ kind: StructureKind.TypeAlias, name: itemType, isExported: true, docs: doc(`${entity.name} as native index ${index.name} projects it (${projection === 'keys-only' ? 'keys only' : `keys and ${(projection as readonly string[]).join(', ')}`}).`), type: `Pick<${entity.name}, ${holds.map(quote).join(' | ')}>` });
    }
    const optionsType = `IndexQueryOptions<${sort.length ? `${base}Where` : 'never'}>`;
    const method = `query${suffix}`;
    out.methods.push(
      {
        name: method,
        docs: doc(
          `Lists ${entity.name} items of one partition of native index ${index.name} (${keyText}) in sort order` +
            (sort.length ? ', optionally narrowed by `where` on the sort attributes left to right' : '') +
            '. Eventually consistent. Pass `cursor` from the previous page to continue.',
        ),
        parameters: [{ name: 'partition', type: `${base}Partition` }, { name: 'options', type: optionsType, initializer: '{}' }],
        returnType: `Promise<Page<${itemType}>>`,
        statements: `return queryNativePage<${itemType}>(context, ${modelName}, ${quote(method)}, ${quote(index.indexName ?? index.name)}, partition, options);`,
      },
      {
        name: `${method}All`,
        docs: doc(`Every item \`${method}\` would return, page after page (from \`options.cursor\` if given), as an async iterator.`),
        parameters: [{ name: 'partition', type: `${base}Partition` }, { name: 'options', type: optionsType, initializer: '{}' }],
        returnType: `ItemIterator<${itemType}>`,
        statements: `return allItems((page) => ${operationName(entity.name, method)}(context, partition, page), options) as ItemIterator<${itemType}>;`,
      },
    );
    const withoutDiscriminator = !projectsDiscriminator(entity, projection);
    out.models.push({ name: index.name, ...(withoutDiscriminator ? { withoutDiscriminator: true as const } : {}), partition: index.pk.map((k, i) => [k, partition[i]!]), sort: index.sk.map((k, i) => [k, sort[i]!]) });
    out.copies.push(...Object.keys(renamedCopies(mapping)).filter((k) => !out.copies.includes(k)));
  }
  return { ...out, usesRange: out.statements.some((s) => s.kind === StructureKind.TypeAlias && s.name.endsWith('Where')) };
}
