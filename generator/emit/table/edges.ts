// Emits edges.ts: for each declared edge, its node and attribute types and the runtime model that
// EdgeRepository works from — each node type's key is its entity's own partition-key template
// (`UserKeys.pk`, imported from the entity's module). The table class exposes one EdgeRepository per edge.

import { StructureKind, VariableDeclarationKind } from '../../ts-morph.js';
import type { StatementStructures } from 'ts-morph';
import type { EdgeDef, EntityDef, TableDef } from '../../../dsl/ir.js';
import { templateAttributes } from '../../model/key-segments.js';
import { attributeCodec, attributeTypeNode, runtimeAttributeType } from '../attribute-type.js';
import { camelCase, entityModuleSpecifier, type EmitContext } from '../context.js';
import type { EmittedModule } from '../context.js';
import { getter, id, jsDoc, literal, literalType, obj, objectType, print, prop, union, type TypeNode } from '../ast.js';

export const edgeTypeNames = (edge: EdgeDef) => ({ type: `${edge.name}NodeType`, node: `${edge.name}Node`, attributes: `${edge.name}Attributes`, model: `${camelCase(edge.name)}EdgeModel` });

/** A node's id type: its entity's one partition-key part, or an object of the parts. */
function idType(entity: EntityDef): TypeNode {
  const parts = templateAttributes(entity.key.pk);
  if (parts.length === 1) return attributeTypeNode(entity.attributes[parts[0]!]!);
  return objectType(parts.map((name) => ({ name, type: attributeTypeNode(entity.attributes[name]!), readonly: true })));
}

export function emitEdges(table: TableDef, ctx: EmitContext): EmittedModule {
  const statements: StatementStructures[] = [];
  const used = new Set<string>();
  for (const edge of Object.values(table.edges)) {
    const names = edgeTypeNames(edge);
    const d = table.delimiter;
    const entities = edge.types.map((type) => table.entities[type]!);
    for (const type of edge.types) used.add(type);
    statements.push(
      { kind: StructureKind.TypeAlias, name: names.type, isExported: true, docs: jsDoc(`The entities edge ${edge.name} connects.`), type: print(union(edge.types.map(literalType))) },
      {
        kind: StructureKind.TypeAlias,
        name: names.node,
        isExported: true,
        docs: jsDoc(`One end of edge ${edge.name}: an entity and its id, whose key is that entity's partition (${entities.map((e) => `\`${e.key.pk.source}\``).join(', ')}).`),
        type: print(union(entities.map((entity) => objectType([{ name: 'type', type: literalType(entity.name), readonly: true }, { name: 'id', type: idType(entity), readonly: true }])))),
      },
      {
        kind: StructureKind.TypeAlias,
        name: names.attributes,
        isExported: true,
        docs: jsDoc(`Attributes stored on both items of edge ${edge.name}.`),
        type: print(objectType(Object.entries(edge.attributes).map(([name, a]) => ({ name, type: attributeTypeNode(a), optional: a.optional })))),
      },
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: jsDoc(`Edge ${edge.name}: pk the from-entity's partition key, sk \`${edge.forward}${d}<to type>${d}<to id>\`` +
              (edge.inverse && edge.inverseIndex
                ? `; the inverse is kept in GSI ${edge.inverseIndex} (pk the to-entity's partition key, sk \`${edge.inverse}${d}<from type>${d}<from id>\`): one write, eventually consistent incoming reads.`
                : edge.inverse
                  ? `, mirrored by pk the to-entity's partition key, sk \`${edge.inverse}${d}<from type>${d}<from id>\`, written together in one transaction.`
                  : ' (no inverse items).')),
        declarations: [
          {
            name: names.model,
            type: 'EdgeModel',
            initializer: print(literal({
              name: edge.name,
              // getters: a bundle that never reads the edge keeps no KeyTemplate for its nodes
              nodes: obj(edge.types.map((type) => getter(type, prop(id(`${type}Keys`), 'pk')))),
              forward: edge.forward,
              ...(edge.inverse === undefined ? {} : { inverse: edge.inverse }),
              ...(edge.inverseIndex === undefined
                ? {}
                : { inverseIndex: { name: table.indexes[edge.inverseIndex]!.indexName ?? edge.inverseIndex, pk: (table.indexes[edge.inverseIndex] as { pk: string }).pk, sk: table.indexes[edge.inverseIndex]!.sk! } }),
              delimiter: d,
              pk: table.key.pk,
              sk: table.key.sk!,
              codecs: Object.fromEntries(Object.entries(edge.attributes).flatMap(([n, a]) => {
                const codec = attributeCodec(a, n === table.ttl);
                return codec === undefined ? [] : [[n, codec]];
              })),
              attributes: Object.keys(edge.attributes),
              ...(Object.keys(edge.attributes).length ? { types: Object.fromEntries(Object.entries(edge.attributes).map(([n, a]) => [n, runtimeAttributeType(a)])) } : {}),
              ...(Object.values(edge.attributes).some((a) => !a.optional) ? { required: Object.keys(edge.attributes).filter((n) => !edge.attributes[n]!.optional) } : {}),
              keyAttributes: [...ctx.keyAttributes],
            })),
          },
        ],
      },
    );
  }
  return {
    imports: [
      { moduleSpecifier: './runtime/edge.js', isTypeOnly: true, namedImports: ['EdgeModel'] },
      ...[...used].map((type) => ({ moduleSpecifier: entityModuleSpecifier(table.entities[type]!), namedImports: [`${type}Keys`] })),
    ],
    statements,
  };
}
