// Emits one entity's module by running one emitter per part, each pure over the entity's scope:
// the types (item-types.ts), `<Entity>Keys` (key-builders.ts), the runtime model
// (entity-model.ts), and the operations, whose methods come by family (repository-*.ts): each an
// exported function of the table context (`orderGet(context, key)`, what a bundler can drop when
// it is not imported) and a method of `<Entity>Repository` calling it (`db.order.get(key)`).
// A new method family is one emitter `(scope) → Method[]` added to REPOSITORY_METHODS.

import { StructureKind } from '../ts-morph.js';
import type { FunctionDeclarationStructure, StatementStructures } from 'ts-morph';
import type { EntityDef } from '../../dsl/ir.js';
import { jsDoc, print } from './ast.js';
import { operationName, pascalCase, quote, type EmitContext } from './context.js';
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
import type { EmittedModule } from './context.js';

export type { EmittedModule } from './context.js';

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

/** A description as one line, for a new jsDoc to wrap again. */
const unwrapped = (doc: Method['docs']): string => {
  const first = doc?.[0];
  const text = typeof first === 'string' ? first : typeof first?.description === 'string' ? first.description : '';
  return text.replace(/\s*\n\s*/g, ' ').trim();
};

/**
 * The function form of a repository method: `orderGet(context, key)` does what `db.order.get(key)`
 * does. The family emitters write the body against `context`; the function holds it, so a bundle
 * that imports `orderGet` keeps it and what it calls, and nothing of the other operations.
 */
function operationFunction(scope: EntityScope, method: Method, context: string, pattern: string): FunctionDeclarationStructure {
  const name = operationName(scope.name, method.name);
  // with telemetry on, the call is one operation: the function runs again inside it, with its arguments and the operation's context (which has none)
  const traced = `if (context.telemetry) return context.telemetry.call(${scope.model}, ${quote(method.name)}, ${name}, arguments${pattern === method.name ? '' : `, ${quote(pattern)}`}) as never;`;
  const body = method.statements === undefined ? [] : Array.isArray(method.statements) ? method.statements : [method.statements];
  const repository = `${scope.name}Repository`;
  const hasExample = (doc: Method['docs']) => (doc ?? []).some((d) => typeof d !== 'string' && (d.tags ?? []).some((tag) => tag.tagName === 'example'));
  const docs = (doc: Method['docs']) => jsDoc(`${unwrapped(doc)} The function form of \`${repository}.${method.name}\`${hasExample(doc) ? ', whose documentation has an example' : ''}.`);
  const contextParam = { name: 'context', type: context };
  return {
    kind: StructureKind.Function,
    name,
    isExported: true,
    ...(method.isAsync ? { isAsync: true } : {}),
    ...(method.typeParameters ? { typeParameters: method.typeParameters } : {}),
    ...(method.overloads
      ? { overloads: method.overloads.map(({ kind: _kind, scope: _scope, isStatic: _static, isAbstract: _abstract, hasQuestionToken: _optional, hasOverrideKeyword: _override, ...o }) => ({ ...o, docs: docs(o.docs), parameters: [contextParam, ...(o.parameters ?? [])] })) }
      : { docs: docs(method.docs) }),
    parameters: [contextParam, ...(method.parameters ?? [])],
    returnType: method.returnType,
    statements: [traced, ...body],
  };
}

/**
 * The method itself: its signature and documentation, calling the function form with the
 * repository's context. An overloaded method passes its options on as the implementation got
 * them (`as never`): the overloads, on the method as on the function, give callers the types.
 */
function delegatingMethod(scope: EntityScope, method: Method): Method {
  const parameters = method.parameters ?? [];
  const typeArguments = method.typeParameters?.length ? `<${method.typeParameters.map((t) => (typeof t === 'string' ? t : t.name)).join(', ')}>` : '';
  const args = ['this.context', ...parameters.map((p, i) => (method.overloads?.length && i === parameters.length - 1 ? `${p.name} as never` : p.name))];
  const { isAsync: _async, ...signature } = method;
  return { ...signature, statements: `return ${operationName(scope.name, method.name)}${typeArguments}(${args.join(', ')});` };
}

/** Every operation as a function (tree-shakable), then `<Entity>Repository`, whose methods call them. */
function emitOperations(scope: EntityScope): StatementStructures[] {
  const context = print(runtimeType(scope, 'repository', 'TableContext'));
  const methods = REPOSITORY_METHODS.flatMap((family) => family(scope));
  return [
    // an iterating form (`queryAll`) reports the pattern of the method it iterates (`query`), as the table class does
    ...methods.map((m) => operationFunction(scope, m, context, m.name.endsWith('All') && methods.some((other) => other.name === m.name.slice(0, -3)) ? m.name.slice(0, -3) : m.name)),
    {
      kind: StructureKind.Class,
      name: `${scope.name}Repository`,
      isExported: true,
      docs: jsDoc(
        `Reads and writes ${scope.name} items. Every key is built and checked before a request is sent. ` +
          `Each method is also a function of the table context (\`${operationName(scope.name, methods[0]!.name)}(context, …)\` for \`${methods[0]!.name}\`), for bundles that keep only the operations they import.`,
      ),
      properties: [{ name: 'context', type: context, isReadonly: true, scope: 'private' as never }],
      ctors: [{ parameters: [{ name: 'context', type: context }], statements: 'this.context = context;' }],
      methods: methods.map((m) => delegatingMethod(scope, m)),
    },
  ];
}

export function emitEntity(entity: EntityDef, ctx: EmitContext): EmittedModule {
  const scope = entityScope(entity, ctx);
  const statements = [...emitItemTypes(scope), ...scope.native.statements, ...emitKeyBuilders(scope), ...emitRecordConversion(scope), ...emitEntityModel(scope), ...emitOperations(scope)];
  return { imports: scope.imports.declarations(), statements };
}
