// Emits one entity's module by running one emitter per part, each pure over the entity's scope:
// the types (item-types.ts), `<Entity>Keys` (key-builders.ts), the runtime model
// (entity-model.ts), and the operations, which come by family (repository-*.ts). Each operation is
// declared once, as an exported function of the table context (`orderGet(context, key)`, what a
// bundler drops when it is not imported): made by the runtime's factory and typed by a shape the
// runtime declares (`GetFunction<Order, OrderKey>`) where the operation has one, else written out.
// `<Entity>Repository` is an interface of the same operations as members (`db.order.get(key)`),
// documented with their examples, and the class the runtime makes of the functions.
// A new method family is one emitter `(scope) → Method[]` added to REPOSITORY_METHODS.

import { StructureKind, VariableDeclarationKind } from '../../ts-morph.js';
import type { FunctionDeclarationStructure, InterfaceDeclarationStructure, StatementStructures } from 'ts-morph';
import type { EntityDef } from '../../../dsl/ir.js';
import { call, docTagStructure, id, jsDoc, obj, print, pure, str, typeRef } from '../ast.js';
import { operationName, pascalCase, quote, type EmitContext } from '../context.js';
import { examplesOf } from '../examples/doc-examples.js';
import { emitEntityModel } from './entity-model.js';
import { entityScope, RUNTIME, runtimeType, runtimeValue, type EntityScope } from './entity-scope.js';
import { emitItemTypes } from './item-types.js';
import { emitKeyBuilders } from './key-builders.js';
import { emitRecordConversion } from './record-conversion.js';
import { emitCounters } from '../operations/repository-counter.js';
import { emitCrud, shapeType, type Method, type Shape } from '../operations/repository-crud.js';
import { emitIndexQueries } from '../operations/repository-index-query.js';
import { emitPatterns } from '../operations/repository-pattern.js';
import { emitSparseIndexes } from '../operations/repository-sparse-index.js';
import type { EmittedModule } from '../context.js';

export type { EmittedModule } from '../context.js';

/** The queries of the entity's native multi-attribute GSIs (native-index.ts), importing the runtime they call. */
function emitNativeIndexQueries(scope: EntityScope): Method[] {
  const { methods, usesRange } = scope.native;
  if (!methods.length) return [];
  scope.imports.value(RUNTIME.nativeIndex, 'queryNativePage');
  if (usesRange) scope.imports.type(RUNTIME.nativeIndex, 'NativeRange');
  scope.imports.value(RUNTIME.read, 'allItems');
  scope.imports.type(RUNTIME.read, 'ItemIterator');
  scope.imports.type(RUNTIME.read, 'IndexQueryOptions');
  scope.imports.type(RUNTIME.read, 'Page');
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
        return tag ? { ...m, docs: m.docs!.map((d) => ({ ...(d as object), tags: [docTagStructure(tag)] })) } : m;
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

/** A function form's documentation: the member's description, pointing at the member for its example. */
function functionDocs(scope: EntityScope, method: Method): Method['docs'] {
  const hasExample = (method.docs ?? []).some((d) => typeof d !== 'string' && (d.tags ?? []).some((tag) => tag.tagName === 'example'));
  return jsDoc(`${unwrapped(method.docs)} The function form of \`${scope.name}Repository.${method.name}\`${hasExample ? ', whose documentation has an example' : ''}.`);
}

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
  const docs = (doc: Method['docs']) => functionDocs(scope, { ...method, docs: doc });
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
 * An operation the runtime makes, declared once: `export const orderGet: GetFunction<Order, OrderKey> =
 * getOperation(orderModel);`, whose function begins as every function form does (telemetry, then the
 * request).
 */
function operationConstant(scope: EntityScope, method: Method, made: Shape, docs: Method['docs']): StatementStructures {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    ...(docs ? { docs } : {}),
    declarations: [{ name: operationName(scope.name, method.name), type: print(shapeType(scope, made, 'Function')), initializer: print(made.make) }],
  };
}

/** The repository's member: the shape's method type, or a signature of its own (one per overload); the documentation with its example. */
function member(scope: EntityScope, method: Method): Pick<InterfaceDeclarationStructure, 'properties' | 'methods'> {
  if (method.shape) return { properties: [{ name: method.name, ...(method.docs ? { docs: method.docs } : {}), type: print(shapeType(scope, method.shape, 'Method')) }] };
  const signature = (s: { docs?: Method['docs']; typeParameters?: Method['typeParameters']; parameters?: Method['parameters']; returnType?: Method['returnType'] }) => ({
    name: method.name,
    ...(s.docs ? { docs: s.docs } : {}),
    ...(s.typeParameters ? { typeParameters: s.typeParameters } : {}),
    parameters: (s.parameters ?? []).map(({ initializer: _default, ...p }) => (_default === undefined ? p : { ...p, hasQuestionToken: true })),
    ...(s.returnType ? { returnType: s.returnType } : {}),
  });
  return { methods: method.overloads?.length ? method.overloads.map((o) => signature(o)) : [signature(method)] };
}

/**
 * Every operation as a function of the table context (tree-shakable), then `<Entity>Repository`: an
 * interface of its members, documented, and the class the runtime makes of the same functions.
 */
function emitOperations(scope: EntityScope): { statements: StatementStructures[]; names: string[] } {
  // a function: importing TableContext only where an operation is written out (the shapes name it in the runtime)
  const context = () => print(runtimeType(scope, 'repository', 'TableContext'));
  const methods = REPOSITORY_METHODS.flatMap((family) => family(scope));
  const repository = `${scope.name}Repository`;
  const members = methods.map((m) => member(scope, m));
  const statements: StatementStructures[] = [
    // an iterating form (`queryAll`) reports the pattern of the method it iterates (`query`), as the table class does
    ...methods.map((m) => (m.shape ? operationConstant(scope, m, m.shape, functionDocs(scope, m)) : operationFunction(scope, m, context(), m.name.endsWith('All') && methods.some((other) => other.name === m.name.slice(0, -3)) ? m.name.slice(0, -3) : m.name))),
    {
      kind: StructureKind.Interface,
      name: repository,
      isExported: true,
      docs: jsDoc(
        `Reads and writes ${scope.name} items. Every key is built and checked before a request is sent. ` +
          `Each member is also a function of the table context (\`${operationName(scope.name, methods[0]!.name)}(context, ...)\` for \`${methods[0]!.name}\`), for bundles that keep only the operations they import.`,
      ),
      properties: members.flatMap((m) => m.properties ?? []),
      methods: members.flatMap((m) => m.methods ?? []),
    },
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: jsDoc(`\`new ${repository}(context)\`: the members call the function forms with its context.`),
      declarations: [
        {
          name: repository,
          type: print(runtimeType(scope, 'repository', 'RepositoryClass', typeRef(repository))),
          initializer: print(pure(call(runtimeValue(scope, 'repository', 'repositoryClass'), [str(repository), obj(methods.map((m) => [m.name, id(operationName(scope.name, m.name))]))]))),
        },
      ],
    },
  ];
  return { statements, names: methods.map((m) => operationName(scope.name, m.name)) };
}

export function emitEntity(entity: EntityDef, ctx: EmitContext): EmittedModule {
  const scope = entityScope(entity, ctx);
  const { statements: operations, names } = emitOperations(scope);
  const statements = [...emitItemTypes(scope), ...scope.native.statements, ...emitKeyBuilders(scope), ...emitRecordConversion(scope), ...emitEntityModel(scope), ...operations];
  return { imports: scope.imports.declarations(), statements, operations: names };
}
