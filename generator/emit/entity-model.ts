// Emits the runtime model of an entity: a constant per secondary index (`articleByNameIndex`) and
// `<entity>Model`, the keys and conversions the shared runtime works from.

import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import { shardInputs } from '../model/key-segments.js';
import { arr, id, jsDoc, literal, print, type Expression } from './ast.js';
import { attributeCodec } from './attribute-type.js';
import { keysRef } from './key-builders.js';
import { hasRecordConversion, itemFunction, recordFunction } from './record-conversion.js';
import { pathNames, runtimeType, type EntityScope } from './entity-scope.js';

/** What an index of the entity reads: its key inputs and the optional ones among them (a sparse index). */
export function indexInputs(scope: EntityScope, indexName: string): { inputs: string[]; optional: string[] } {
  const path = scope.indexPaths.find((p) => p.index!.name === indexName)!;
  const shard = scope.entity.indexes[indexName]!.shard;
  const inputs = [...new Set([...(path.index!.kind === 'gsi' ? path.partition : []), ...path.sort, ...(shard ? shardInputs(scope.entity, shard) : [])])];
  return { inputs, optional: inputs.filter((a) => scope.entity.attributes[a]!.optional) };
}

function constant(name: string, type: string, initializer: Expression, description: string, exported = false): StatementStructures {
  return {
    kind: StructureKind.VariableStatement,
    ...(exported ? { isExported: true } : {}),
    declarationKind: VariableDeclarationKind.Const,
    docs: jsDoc(description),
    declarations: [{ name, type, initializer: print(initializer) }],
  };
}

export function emitEntityModel(scope: EntityScope): StatementStructures[] {
  const { entity, name, ctx } = scope;
  const { table } = ctx;
  const statements: StatementStructures[] = [];
  const indexModels: Expression[] = [];
  for (const path of scope.indexPaths) {
    const index = path.index!;
    const { inputs, optional } = indexInputs(scope, index.name);
    const constName = pathNames(scope, path).indexModel!;
    indexModels.push(id(constName));
    statements.push(
      constant(
        constName,
        print(runtimeType(scope, 'repository', 'IndexModel')),
        literal({
          name: index.name,
          kind: index.kind,
          pk: index.kind === 'gsi' ? { attribute: index.pk, template: keysRef(scope, 'indexes', index.name, 'pk') } : { attribute: table.key.pk, template: keysRef(scope, 'pk') },
          sk: path.sk && index.sk !== undefined ? { attribute: index.sk, template: keysRef(scope, 'indexes', index.name, 'sk') } : undefined,
          inputs,
          optional,
          projection: index.projection === 'all' || index.projection === 'keys-only' ? index.projection : [...index.projection],
        }),
        `How ${name} items appear in ${index.kind === 'gsi' ? 'GSI' : 'LSI'} ${index.name}.`,
      ),
    );
  }
  const codecs = Object.fromEntries(
    Object.entries(entity.attributes).flatMap(([a, def]) => {
      const codec = attributeCodec(def, a === table.ttl);
      return codec === undefined ? [] : [[a, codec]];
    }),
  );
  const pii = Object.keys(entity.attributes).filter((a) => {
    const def = entity.attributes[a]!;
    return def.kind === 'string' && def.pii === true;
  });
  statements.push(
    constant(
      scope.model,
      print(runtimeType(scope, 'repository', 'EntityModel')),
      literal({
        name,
        pk: { attribute: table.key.pk, template: keysRef(scope, 'pk') },
        sk: entity.key.sk && table.key.sk !== undefined ? { attribute: table.key.sk, template: keysRef(scope, 'sk') } : id('undefined'),
        indexes: arr(indexModels),
        codecs,
        attributes: Object.keys(entity.attributes),
        required: Object.keys(entity.attributes).filter((a) => !entity.attributes[a]!.optional),
        pii: pii.length ? pii : undefined,
        passthrough: entity.passthrough ? true : undefined,
        keyAttributes: [...ctx.keyAttributes, ...scope.native.copies],
        primaryParts: scope.primaryParts,
        version: scope.version,
        nativeIndexes: scope.native.models.length ? scope.native.models : undefined,
        toRecord: hasRecordConversion(scope) ? id(recordFunction(scope)) : undefined,
        toItem: hasRecordConversion(scope) ? id(itemFunction(scope)) : undefined,
      }),
      `How ${name} items are keyed and stored, for the runtime (used by ${name}Repository and collection queries).`,
      true,
    ),
  );
  return statements;
}
