// Emits edges.ts: for each declared edge, its node and attribute types and the runtime model that
// EdgeRepository works from. The table class exposes one EdgeRepository per edge.

import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import type { EdgeDef, TableDef } from '../../dsl/ir.js';
import { attributeCodec, attributeType } from './attribute-type.js';
import { camelCase, printLiteral, propertyKey, quote, type EmitContext } from './context.js';
import type { EmittedModule } from './entity.js';

export const edgeTypeNames = (edge: EdgeDef) => ({ type: `${edge.name}NodeType`, node: `${edge.name}Node`, attributes: `${edge.name}Attributes`, model: `${camelCase(edge.name)}EdgeModel` });

export function emitEdges(table: TableDef, ctx: EmitContext): EmittedModule {
  const statements: StatementStructures[] = [];
  for (const edge of Object.values(table.edges)) {
    const names = edgeTypeNames(edge);
    const d = table.delimiter;
    statements.push(
      { kind: StructureKind.TypeAlias, name: names.type, isExported: true, docs: [{ kind: StructureKind.JSDoc, description: `The node types edge ${edge.name} connects.` }], type: edge.types.map(quote).join(' | ') },
      { kind: StructureKind.TypeAlias, name: names.node, isExported: true, docs: [{ kind: StructureKind.JSDoc, description: `One end of edge ${edge.name}: stored as \`<type>${d}<id>\`.` }], type: `Node<${names.type}>` },
      {
        kind: StructureKind.TypeAlias,
        name: names.attributes,
        isExported: true,
        docs: [{ kind: StructureKind.JSDoc, description: `Attributes stored on both items of edge ${edge.name}.` }],
        type: Object.keys(edge.attributes).length
          ? `{ ${Object.entries(edge.attributes).map(([n, a]) => `${propertyKey(n)}${a.optional ? '?' : ''}: ${attributeType(a)}`).join('; ')} }`
          : 'Record<string, never>',
      },
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: [
          {
            kind: StructureKind.JSDoc,
            description:
              `Edge ${edge.name}: pk \`<from type>${d}<from id>\` sk \`${edge.forward}${d}<to type>${d}<to id>\`` +
              (edge.inverse && edge.inverseIndex
                ? `; the inverse is kept in GSI ${edge.inverseIndex} (pk \`<to type>${d}<to id>\` sk \`${edge.inverse}${d}<from type>${d}<from id>\`): one write, eventually consistent incoming reads.`
                : edge.inverse
                  ? `, mirrored by pk \`<to type>${d}<to id>\` sk \`${edge.inverse}${d}<from type>${d}<from id>\`, written together in one transaction.`
                  : ' (no inverse items).'),
          },
        ],
        declarations: [
          {
            name: names.model,
            type: 'EdgeModel',
            initializer: printLiteral({
              name: edge.name,
              types: [...edge.types],
              forward: edge.forward,
              ...(edge.inverse === undefined ? {} : { inverse: edge.inverse }),
              ...(edge.inverseIndex === undefined
                ? {}
                : { inverseIndex: { name: edge.inverseIndex, pk: (table.indexes[edge.inverseIndex] as { pk: string }).pk, sk: table.indexes[edge.inverseIndex]!.sk! } }),
              delimiter: d,
              pk: table.key.pk,
              sk: table.key.sk!,
              codecs: Object.fromEntries(Object.entries(edge.attributes).flatMap(([n, a]) => {
                const codec = attributeCodec(a);
                return codec === undefined ? [] : [[n, codec]];
              })),
              attributes: Object.keys(edge.attributes),
              keyAttributes: [...ctx.keyAttributes],
            }),
          },
        ],
      },
    );
  }
  return { imports: [{ moduleSpecifier: './runtime/edge.js', isTypeOnly: true, namedImports: ['EdgeModel', 'Node'] }], statements };
}
