// Emits an entity's types: the item, its key, each access path's partition / sort-key / projection
// types, the versioned input, the update changes and each pattern's parameters.

import { StructureKind } from '../../ts-morph.js';
import type { StatementStructures } from 'ts-morph';
import { projectedAttributes, type AccessPath } from '../../model/access-paths.js';
import { intersection, jsDoc, keyword, literalType, objectType, print, readonlyArray, readonlyTuple, typeRef, union, type TypeNode } from '../ast.js';
import { attributeTypeNode } from '../attribute-type.js';
import { pascalCase, propertyKey } from '../context.js';
import { an, attributesType, pathNames, runtimeType, type EntityScope } from './entity-scope.js';

function alias(name: string, description: string, type: TypeNode): StatementStructures {
  return { kind: StructureKind.TypeAlias, name, isExported: true, docs: jsDoc(description), type: print(type) };
}

/** `{ a: A } | { a: A; b: B }`: the left-to-right prefixes of a sort key's parts. */
function prefixUnion(scope: EntityScope, names: readonly string[]): TypeNode {
  return union(names.map((_, i) => attributesType(scope, names.slice(0, i + 1), 'required')));
}

/** The left-to-right prefixes that end on a string part (what `beginsWith` takes); none when no part is a string. */
function textPrefixes(scope: EntityScope, names: readonly string[]): TypeNode[] {
  return names.flatMap((name, i) => (scope.entity.attributes[name]?.kind === 'string' ? [attributesType(scope, names.slice(0, i + 1), 'required')] : []));
}

function pathTypes(scope: EntityScope, path: AccessPath): StatementStructures[] {
  const { name } = scope;
  const names = pathNames(scope, path);
  const where = path.index ? `index ${path.index.name}` : 'the table';
  const out = [alias(names.partitionType, `The partition-key parts of ${name} in ${where}.`, attributesType(scope, path.partition, 'required'))];
  if (path.sort.length) {
    out.push(
      alias(names.sortKeyType, `All sort-key parts of ${name} in ${where}.`, attributesType(scope, path.sort, 'required')),
      alias(names.sortPrefixType, `A left-to-right prefix of ${name}'s sort-key parts in ${where}, for conditions; \`eq\` matches these parts whole.`, prefixUnion(scope, path.sort)),
    );
    const text = textPrefixes(scope, path.sort);
    if (text.length) {
      out.push(
        alias(
          names.sortTextPrefixType,
          `A prefix of ${name}'s sort-key parts in ${where} ending on a string part, for \`beginsWith\`: that last part matches as text (\`{ name: 'z' }\` matches "zoo").`,
          union(text),
        ),
      );
    }
    out.push(
      alias(
        names.sortConditionType,
        `A sort-key condition on ${name} in ${where}: exactly one operator on a left-to-right prefix of the sort-key parts ` +
          `(\`SortCondition<${names.sortPrefixType}${text.length ? `, ${names.sortTextPrefixType}` : ''}>\`, spelled out).`,
        sortCondition(scope, typeRef(names.sortPrefixType), text.length ? typeRef(names.sortTextPrefixType) : undefined),
      ),
    );
  }
  if (path.projection !== 'all') {
    const projected = projectedAttributes(scope.ctx.table, scope.entity, path);
    const what = path.projection === 'keys-only' ? 'keys only' : `keys and ${path.projection.join(', ')}`;
    out.push(
      alias(
        names.itemType,
        `${name} as index ${path.index!.name} projects it (${what}). Pass \`fetch: true\` to read full items.`,
        attributesType(scope, projected),
      ),
    );
  }
  return out;
}

const SORT_OPERATORS = ['eq', 'beginsWith', 'between', 'gt', 'gte', 'lt', 'lte'] as const;

/**
 * The runtime's `SortCondition<Prefix, TextPrefix>` without its type parameters: one member per
 * operator, `OnlyGte & { readonly gte: … }` (the other operators absent); no `beginsWith` member
 * when no sort-key part is a string. `OnlyGte` and the others are plain interfaces of the
 * runtime, so nothing here is instantiated.
 */
function sortCondition(scope: EntityScope, prefix: TypeNode, textPrefix: TypeNode | undefined): TypeNode {
  const operand = (op: (typeof SORT_OPERATORS)[number]) => (op === 'beginsWith' ? textPrefix! : op === 'between' ? readonlyTuple([prefix, prefix]) : prefix);
  return union(
    SORT_OPERATORS.filter((op) => op !== 'beginsWith' || textPrefix !== undefined).map((op) =>
      intersection([runtimeType(scope, 'keyCondition', `Only${pascalCase(op)}`), objectType([{ name: op, readonly: true, type: operand(op) }])]),
    ),
  );
}

/** The `update` changes: set, remove, add, delete, append, prepend, setIfNotExists, each only where an attribute takes it. */
export function updateType(scope: EntityScope): TypeNode | undefined {
  const { entity, mutable } = scope;
  // an attribute a key is built from, or copied into a native index under another name, changes only with set (the key or copy is rebuilt with it)
  const copied = new Set(scope.native.models.flatMap((m) => [...m.partition, ...m.sort].filter(([attribute, source]) => attribute !== source).map(([, source]) => source!)));
  const free = mutable.filter((a) => !scope.indexInputs.has(a) && !copied.has(a));
  const removable = mutable.filter((a) => entity.attributes[a]!.optional);
  const kinds = (...k: string[]) => free.filter((a) => k.includes(entity.attributes[a]!.kind));
  const members: Array<[string, readonly string[], 'set' | 'names']> = [
    ['set', mutable, 'set'],
    ['remove', removable, 'names'],
    ['add', kinds('number', 'stringSet', 'numberSet'), 'set'],
    ['delete', kinds('stringSet', 'numberSet'), 'set'],
    ['append', kinds('list'), 'set'],
    ['prepend', kinds('list'), 'set'],
    ['setIfNotExists', free, 'set'],
  ];
  const used = members.filter(([, names]) => names.length);
  if (!used.length) return undefined;
  return objectType(
    used.map(([member, names, form]) => ({
      name: member,
      optional: true,
      type: form === 'names' ? typeRef('ReadonlyArray', union(names.map(literalType))) : attributesType(scope, names, 'optional'),
    })),
  );
}

/**
 * `<Entity>Condition`: `Condition<Entity>` spelled out member by member, so the type checker reads
 * a declared interface where it would otherwise map over the item for every signature using it.
 */
function conditionInterface(scope: EntityScope): StatementStructures {
  const { entity, name, conditionType } = scope;
  const self = typeRef(conditionType);
  return {
    kind: StructureKind.Interface,
    name: conditionType,
    isExported: true,
    docs: jsDoc(`A write condition on ${name}'s attributes (what \`Condition<${name}>\` means): comparisons, combined with \`$and\`, \`$or\` and \`$not\`.`),
    properties: [
      ...Object.entries(entity.attributes).map(([attribute, def]) => ({
        name: propertyKey(attribute),
        type: print(runtimeType(scope, 'condition', 'Comparison', attributeTypeNode(def))),
        hasQuestionToken: true,
        isReadonly: true,
      })),
      { name: '$and', type: print(readonlyArray(self)), hasQuestionToken: true, isReadonly: true },
      { name: '$or', type: print(readonlyArray(self)), hasQuestionToken: true, isReadonly: true },
      { name: '$not', type: print(self), hasQuestionToken: true, isReadonly: true },
    ],
  };
}

export function emitItemTypes(scope: EntityScope): StatementStructures[] {
  const { entity, name, version } = scope;
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.Interface,
      name,
      isExported: true,
      docs: jsDoc(`An item of entity ${name}.`),
      properties: Object.entries(entity.attributes).map(([attribute, def]) => ({ name: propertyKey(attribute), type: print(attributeTypeNode(def)), hasQuestionToken: def.optional })),
    },
    conditionInterface(scope),
    alias(`${name}Key`, `The attributes that identify one ${name}: its primary-key parts.`, attributesType(scope, scope.primaryParts, 'required')),
    ...pathTypes(scope, scope.primary),
    ...scope.indexPaths.flatMap((path) => pathTypes(scope, path)),
  ];
  if (version !== undefined) {
    statements.push(
      alias(
        scope.inputType,
        `${an(name)} to write: without \`${version}\` it is created (version 1); with it, it replaces that version (VersionConflictError if another write came first).`,
        intersection([typeRef('Omit', typeRef(name), literalType(version)), objectType([{ name: version, type: keyword.number(), optional: true }])]),
      ),
    );
  }
  const update = updateType(scope);
  if (update) {
    statements.push(
      alias(
        `${name}Update`,
        `Changes accepted by \`${name}Repository.update\`. Primary-key parts (${scope.primaryParts.join(', ')}) cannot change` +
          (scope.indexInputs.size ? `; changing an index-key part (${[...scope.indexInputs].join(', ')}) needs the other parts of that index key in \`set\` too.` : '.'),
        update,
      ),
    );
  }
  for (const { pattern, path, op, before } of scope.patterns) {
    // an attribute the partition key also holds (`<at:hour>` / `<at>`) is one parameter: the operand, whose value finds the partition
    const params = [...path.partition, ...before.filter((b) => !path.partition.includes(b))].filter((a) => a !== pattern.sk).map((a) => ({ name: a, type: attributeTypeNode(entity.attributes[a]!) }));
    if (pattern.sk !== undefined) {
      const type = attributeTypeNode(entity.attributes[pattern.sk]!);
      params.push({ name: pattern.sk, type: op === 'between' ? readonlyTuple([type, attributeTypeNode(entity.attributes[pattern.sk]!)]) : op === 'beginsWith' ? keyword.string() : type });
    }
    statements.push(alias(patternParamsType(scope, pattern.name), `Parameters of pattern ${pattern.name}${pattern.sk ? `: ${pattern.sk} ${op}` : ''}.`, objectType(params)));
  }
  return statements;
}

export const patternParamsType = (scope: EntityScope, pattern: string) => `${scope.name}${pascalCase(pattern)}Params`;
