// Emits the repository methods that address items by key or write whole items: get, put, create,
// replace, update, delete, their batch forms, a run of a sequence (getRange) and every shard of a
// constant-sort-key partition (getAll).

import type { MethodDeclarationStructure, OptionalKind } from 'ts-morph';
import { arr, as, call, constant, id, jsDoc, keyword, objWithSpreads, print, pure, returns, statement, str, typeRef, union, type DocTag, type Expression, type TypeNode } from '../ast.js';
import { pascalCase } from '../context.js';
import { an, attributesType, pathNames, runtimeType, runtimeValue, type EntityScope } from '../entity/entity-scope.js';
import { examplesOf } from '../examples/doc-examples.js';
import { updateType } from '../entity/item-types.js';

/**
 * An operation of the repository: its name and documentation, and either a shape (made by a runtime
 * factory and typed by a shape shared by every entity) or a signature and body of its own.
 */
export type Method = OptionalKind<MethodDeclarationStructure> & { readonly shape?: Shape };

/**
 * An operation the runtime makes (`getOperation(orderModel)`), typed by a shape the runtime declares
 * twice: `<name>Function` (the function form, the context first) and `<name>Method` (the member).
 */
export interface Shape {
  readonly module: 'repository' | 'write';
  /** `Get` for `GetFunction` / `GetMethod`. */
  readonly name: string;
  readonly typeArgs: readonly TypeNode[];
  /** The factory's call: `getOperation(orderModel)`. */
  readonly make: Expression;
}

/** A shape of `module` and the call of its factory, `pure` so a bundle drops the operation it does not use. */
export function shape(scope: EntityScope, module: Shape['module'], name: string, typeArgs: readonly TypeNode[], factory: string, args: readonly Expression[]): Shape {
  return { module, name, typeArgs, make: pure(call(runtimeValue(scope, module, factory), [id(scope.model), ...args])) };
}

/** The shape's type: the function form's or the member's. */
export const shapeType = (scope: EntityScope, made: Shape, form: 'Function' | 'Method'): TypeNode => runtimeType(scope, made.module, `${made.name}${form}`, ...made.typeArgs);

/** A method parameter: `name: Type`, `name?: Type` or `name: Type = initializer`. */
export function param(name: string, type: TypeNode, options: { optional?: boolean; initializer?: string } = {}) {
  return { name, type: print(type), ...(options.optional ? { hasQuestionToken: true } : {}), ...(options.initializer ? { initializer: options.initializer } : {}) };
}

/**
 * `return helper(context, model, ...args) as Result;`: the runtime returns `unknown` where the
 * result is an entity's item, and the operation asserts its declared type once (no type argument
 * for the user's type checker to instantiate per entity). The body of the operation's function form
 * (`orderGet(context, …)`), which the repository's method calls with its context.
 */
export function delegate(scope: EntityScope, module: 'read' | 'write' | 'gather' | 'rotation', helper: string, args: readonly Expression[], result?: TypeNode): string {
  const sent = call(runtimeValue(scope, module, helper), [id('context'), id(scope.model), ...args]);
  return returns(result ? as(sent, result) : sent);
}

const throws = (text: string): DocTag => ({ name: 'throws', text });
/** The `@example` tag, when the method has one. */
export const example = (tag: DocTag | undefined): DocTag[] => (tag ? [tag] : []);
const BATCH_ERROR = 'BatchError (UnprocessedItemsError when retries make no progress) if it stops early';
const KEY_ERROR = 'KeyValueError before any request if a key part is missing or invalid';

export function emitCrud(scope: EntityScope): Method[] {
  const { name, version, addressable, entity } = scope;
  const examples = examplesOf(scope);
  const item = typeRef(name);
  const key = typeRef(`${name}Key`);
  const versionNote = version === undefined ? '' : ` Versioned by \`${version}\`: the write is conditioned on it and increments it.`;
  const condition = typeRef(scope.conditionType);
  // a versioned entity's update and delete take its expected version: their shapes require the options
  const versioned = version === undefined ? '' : 'Versioned';
  const writeThrows = [throws('ValidationError if a value does not fit its declared type, ItemTooLargeError above 400 KB'), throws(KEY_ERROR)];
  const putMethod = (method: 'create' | 'replace', description: string, extra: DocTag[]): Method => ({
    name: method,
    docs: jsDoc(description, [...example(examples.put(method)), ...extra, ...writeThrows]),
    shape: shape(scope, 'write', 'Put', [item, typeRef(scope.inputType), condition], 'putOperation', [str(method)]),
  });
  const methods: Method[] = [];
  if (addressable) {
    methods.push({
      name: 'get',
      docs: jsDoc(`Reads one ${name} by its key; undefined when there is none.`, [...example(examples.get()), throws(KEY_ERROR)]),
      shape: shape(scope, 'repository', 'Get', [item, key], 'getOperation', []),
    });
  }
  // a put without a version sends the request alone, so a bundle that puts keeps no condition code: a put on a condition is putIf
  methods.push({
    name: 'put',
    docs: jsDoc(
      addressable
        ? `Writes ${an(name)}, replacing any item with the same key.${versionNote}${version === undefined ? ` To write only where a condition holds: \`putIf\`.` : ''}`
        : `Writes ${an(name)} under a shard drawn at random (${entity.key.shard!.count} shards of ${entity.key.pk.source}): it is read back by gathering every shard, never by key.`,
      [...example(examples.put('put')), ...(version === undefined ? [] : [throws('VersionConflictError if another write came first')]), ...writeThrows],
    ),
    shape:
      version === undefined
        ? shape(scope, 'write', 'PlainPut', [item, typeRef(scope.inputType)], 'plainPutOperation', [])
        : shape(scope, 'write', 'VersionedPut', [item, typeRef(scope.inputType)], 'putOperation', [str('put')]),
  });
  if (addressable) {
    methods.push({
      name: 'putIf',
      docs: jsDoc(`Writes ${an(name)} only where \`condition\` holds on the item with the same key (where there is none, on no attributes).${versionNote}`, [
        ...example(examples.putIf()),
        throws('ConditionFailedError if `condition` does not hold'),
        ...(version === undefined ? [] : [throws('VersionConflictError if another write came first')]),
        ...writeThrows,
      ]),
      shape: shape(scope, 'write', 'PutIf', [item, typeRef(scope.inputType), condition], 'putIfOperation', []),
    });
    methods.push(
      putMethod('create', `Writes a new ${name}.`, [throws(`ItemExistsError if ${an(name)} with the same key exists`)]),
      putMethod('replace', `Overwrites an existing ${name}.${versionNote}`, [throws(`ItemNotFoundError if there is none`), ...(version === undefined ? [] : [throws('VersionConflictError if another write came first')])]),
    );
    if (updateType(scope)) {
      methods.push({
        name: 'update',
        docs: jsDoc(
          `Changes an existing ${name} and returns it.` +
            `${scope.indexPaths.length ? ' Index keys fed by changed attributes are rebuilt in the same request.' : ''}${versionNote}` +
            ' `returnValues` picks what comes back: the item after (default) or before, the changed attributes, or nothing.',
          [
            ...example(examples.update()),
            throws('ItemNotFoundError if there is none'),
            throws('ConditionFailedError if `options.condition` does not hold'),
            ...(version === undefined ? [] : [throws('VersionConflictError if `expectedVersion` is not the stored version')]),
            throws('ValidationError if a change does not fit its declared type or needs other index-key parts'),
          ],
        ),
        shape: shape(scope, 'write', `${versioned}Update`, [item, key, typeRef(`${name}Update`), condition], 'updateOperation', []),
      });
    }
    methods.push({
      name: 'delete',
      docs: jsDoc(`Deletes ${an(name)}; returns the deleted item, or undefined if there was none (nothing with \`returnValues: 'NONE'\`).${versionNote}`, [
        ...example(examples.delete()),
        throws('ConditionFailedError if `options.condition` does not hold'),
        ...(version === undefined ? [] : [throws('VersionConflictError if `expectedVersion` is not the stored version')]),
        throws(KEY_ERROR),
      ]),
      shape: shape(scope, 'write', `${versioned}Delete`, [item, key, condition], 'deleteOperation', []),
    });
    methods.push({
      name: 'batchGet',
      docs: jsDoc(`Reads many ${name} items by key (100 per request, unprocessed keys retried); results follow the order of \`keys\`, undefined where there is none.`, [
        ...example(examples.batchGet()),
        throws(`${BATCH_ERROR}: its \`items\` are the ${name} items read and \`unprocessed\` the ${name}Key values not read`),
      ]),
      shape: shape(scope, 'repository', 'BatchGet', [item, key], 'batchGetOperation', []),
    });
  }
  methods.push({
    name: 'batchPut',
    docs: jsDoc(`Writes many ${name} items (25 per request, unprocessed items retried).${version === undefined ? '' : ' Batch writes take no conditions: versions are written as given.'}`, [
      ...example(examples.batchPut()),
      throws(`${BATCH_ERROR}: its \`written\` and \`unprocessed\` are the ${name} items written and not written`),
      throws('ValidationError or ItemTooLargeError before anything is sent if an item is invalid'),
    ]),
    shape: shape(scope, 'repository', 'BatchPut', [item], 'batchPutOperation', []),
  });
  if (addressable) {
    methods.push({
      name: 'batchDelete',
      docs: jsDoc(`Deletes many ${name} items by key (25 per request, unprocessed items retried).`, [
        ...example(examples.batchDelete()),
        throws(`${BATCH_ERROR}: its \`written\` and \`unprocessed\` are the ${name}Key values deleted and not deleted`),
      ]),
      shape: shape(scope, 'repository', 'BatchDelete', [key], 'batchDeleteOperation', []),
    });
  }
  methods.push(...sequenceRange(scope), ...gatherAll(scope));
  return methods;
}

/** A sequence (seed 000): items at non-negative integer positions leading the sort key, read as a run in one batched call. */
function sequenceRange(scope: EntityScope): Method[] {
  const { entity, name } = scope;
  const leading = entity.key.sk?.segments.find((seg) => seg.kind === 'placeholder');
  const def = leading?.kind === 'placeholder' ? entity.attributes[leading.name] : undefined;
  if (!scope.addressable || leading?.kind !== 'placeholder' || def?.kind !== 'number' || !def.integer || (def.min ?? -1) < 0) return [];
  const position = leading.name;
  const rest = scope.primaryParts.filter((a) => a !== position);
  const key = typeRef(`${name}Key`);
  return [
    {
      name: `get${pascalCase(position)}Range`,
      docs: jsDoc(`Reads the ${name} items at ${position} \`from\` to \`to\` (inclusive) in one batched call (100 keys per request); results follow ${position} order, undefined where there is none.`, [
        ...example(examplesOf(scope).range(`get${pascalCase(position)}Range`, position)),
        throws(`${BATCH_ERROR}`),
      ]),
      parameters: [param('key', attributesType(scope, rest, 'required')), param('from', keyword.number()), param('to', keyword.number()), param('options', runtimeType(scope, 'read', 'ReadOptions'), { optional: true })],
      returnType: print(typeRef('Promise', typeRef('Array', union([typeRef(name), keyword.undefined()])))),
      statements: [
        constant('keys', arr([]), typeRef('Array', key)),
        `for (let at = from; at <= to; at++) ${statement(call('keys.push', [objWithSpreads([['...', id('key')], [position, id('at')]])]))}`,
        delegate(scope, 'read', 'batchGetItems', [id('keys'), id('options')], typeRef('Promise', typeRef('Array', union([typeRef(name), keyword.undefined()])))),
      ],
    },
  ];
}

/** A sharded partition with a constant sort key holds one item per shard: read by gathering every shard's key. */
export const gathersConstant = (scope: EntityScope) => scope.entity.key.shard !== undefined && scope.primary.sort.length === 0;

function gatherAll(scope: EntityScope): Method[] {
  if (!gathersConstant(scope)) return [];
  const { entity, name } = scope;
  return [
    {
      name: 'getAll',
      docs: jsDoc(`Every shard's ${name} of one partition (${entity.key.shard!.count} keys of ${entity.key.pk.source}), read in one batched call; shards never written are absent.`, [...example(examplesOf(scope).gatherKeys('getAll')), throws(BATCH_ERROR)]),
      parameters: [param('partition', typeRef(pathNames(scope, scope.primary).partitionType)), param('options', runtimeType(scope, 'read', 'ReadOptions'), { optional: true })],
      returnType: print(typeRef('Promise', typeRef('Array', typeRef(name)))),
      statements: delegate(scope, 'gather', 'getAllItems', [id('partition'), id('options')], typeRef('Promise', typeRef('Array', typeRef(name)))),
    },
  ];
}
