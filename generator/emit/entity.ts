// Emits one entity's module by running one emitter per part, each pure over the entity's scope:
// the types (item-types.ts), `<Entity>Keys` (key-builders.ts), the runtime model
// (entity-model.ts) and `<Entity>Repository`, whose methods come by family (repository-*.ts).
// A new method family is one emitter `(scope) → Method[]` added to REPOSITORY_METHODS.

import { StructureKind } from '../ts-morph.js';
import type { ImportDeclarationStructure, OptionalKind, StatementStructures } from 'ts-morph';
import type { EntityDef } from '../../dsl/ir.js';
import { jsDoc, print } from './ast.js';
import { pascalCase, type EmitContext } from './context.js';
import { examplesOf } from './doc-examples.js';
import { emitEntityModel } from './entity-model.js';
import { entityScope, RUNTIME, runtimeType, type EntityScope } from './entity-scope.js';
import { emitItemTypes } from './item-types.js';
import { emitKeyBuilders } from './key-builders.js';
import { emitRecordConversion } from './record-conversion.js';
import { emitCounters } from './repository-counter.js';
import { emitCrud, type Method } from './repository-crud.js';
import { emitIndexQueries } from './repository-index-query.js';
import { emitPatterns } from './repository-pattern.js';
import { emitSparseIndexes } from './repository-sparse-index.js';

export interface EmittedModule {
  readonly imports: OptionalKind<ImportDeclarationStructure>[];
  readonly statements: StatementStructures[];
}

/** The queries of the entity's native multi-attribute GSIs (native-index.ts), importing the runtime they call. */
function emitNativeIndexQueries(scope: EntityScope): Method[] {
  const { methods, usesRange } = scope.native;
  if (!methods.length) return [];
  scope.imports.value(RUNTIME.nativeIndex, 'queryNativePage');
  if (usesRange) scope.imports.type(RUNTIME.nativeIndex, 'NativeRange');
  scope.imports.value(RUNTIME.repository, 'allItems');
  scope.imports.type(RUNTIME.repository, 'ItemIterator');
  scope.imports.type(RUNTIME.repository, 'IndexQueryOptions');
  scope.imports.type(RUNTIME.repository, 'Page');
  const examples = examplesOf(scope);
  return scope.native.models.flatMap((index) => {
    const method = `query${pascalCase(index.name)}`;
    const tags = new Map([
      [method, examples.nativeQuery(index.name, method)],
      [`${method}All`, examples.iterated(method)],
    ]);
    return methods
      .filter((m) => tags.has(m.name))
      .map((m) => {
        const tag = tags.get(m.name);
        return tag ? { ...m, docs: m.docs!.map((d) => ({ ...(d as object), tags: [{ tagName: tag.name, text: tag.text }] })) } : m;
      });
  });
}

/** The repository's method families, in the order they appear in the class. */
export const REPOSITORY_METHODS: ReadonlyArray<(scope: EntityScope) => Method[]> = [emitCrud, emitIndexQueries, emitPatterns, emitCounters, emitSparseIndexes, emitNativeIndexQueries];

function emitRepository(scope: EntityScope): StatementStructures {
  const context = print(runtimeType(scope, 'repository', 'TableContext'));
  return {
    kind: StructureKind.Class,
    name: `${scope.name}Repository`,
    isExported: true,
    docs: jsDoc(`Reads and writes ${scope.name} items. Every key is built and checked before a request is sent.`),
    properties: [{ name: 'context', type: context, isReadonly: true, scope: 'private' as never }],
    ctors: [{ parameters: [{ name: 'context', type: context }], statements: 'this.context = context;' }],
    methods: REPOSITORY_METHODS.flatMap((family) => family(scope)),
  };
}

export function emitEntity(entity: EntityDef, ctx: EmitContext): EmittedModule {
  const scope = entityScope(entity, ctx);
  const statements = [...emitItemTypes(scope), ...scope.native.statements, ...emitKeyBuilders(scope), ...emitRecordConversion(scope), ...emitEntityModel(scope), emitRepository(scope)];
  return { imports: scope.imports.declarations(), statements };
}
