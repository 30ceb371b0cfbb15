// Emits an entity's item ↔ record conversions as straight-line functions: `<entity>ToRecord` (the
// item checked, each attribute converted in place, its table and index keys built by direct calls
// on `<Entity>Keys`) and `<entity>FromRecord` (each declared attribute read back by name). The model
// names them (`toRecord`, `toItem`), so every write and read of the entity goes through them. A
// passthrough entity keeps the runtime's generic conversion: its attributes are not known here.

import { StructureKind } from '../../ts-morph.js';
import type { StatementStructures } from 'ts-morph';
import type { AttributeDef } from '../../../dsl/ir.js';
import { as, assignsIf, binary, call, constant, construct, element, id, jsDoc, keyword, nonNull, num, obj, parenthesized, print, prop, returns, statement, str, throwsIf, typeRef, union, type Expression } from '../ast.js';
import { attributeCodec, attributeTypeNode } from '../attribute-type.js';
import { indexInputs } from './entity-scope.js';
import { an, pathNames, runtimeValue, type EntityScope } from './entity-scope.js';
import { keysRef } from './key-builders.js';
import { RESERVED_WORDS } from '../../validate/name-rules.js';
import { javascriptGlobals, runtimeExports } from '../output-globals.js';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `articleToRecord` and `articleFromRecord`: verbs no runtime helper and no other generated name ends with. */
export const recordFunction = (scope: EntityScope) => `${scope.model.replace(/Model$/, '')}ToRecord`;
export const itemFunction = (scope: EntityScope) => `${scope.model.replace(/Model$/, '')}FromRecord`;

/** Whether the entity gets generated conversions. */
export const hasRecordConversion = (scope: EntityScope) => scope.entity.passthrough !== true;

const undefinedId = () => id('undefined');

/** How one attribute is converted: as-is, a full-precision timestamp, or through its codec. */
function conversion(scope: EntityScope, name: string, def: AttributeDef) {
  const codec = attributeCodec(def, name === scope.ctx.table.ttl);
  const codecRef = () => element(prop(id(scope.model), 'codecs'), name);
  return {
    toRecord(value: Expression): Expression {
      if (codec === undefined) return value;
      if (codec === 'timestamp') return call(runtimeValue(scope, 'item', 'storedDate'), [str(scope.name), str(name), value]);
      return call(runtimeValue(scope, 'item', 'toStoredValue'), [str(scope.name), str(name), nonNull(codecRef()), value]);
    },
    toItem(value: Expression): Expression {
      if (codec === undefined || codec === 'set') return value;
      if (codec === 'timestamp') return call(runtimeValue(scope, 'item', 'itemDate'), [value]);
      return call(runtimeValue(scope, 'item', 'fromStoredValue'), [str(scope.name), str(name), nonNull(codecRef()), value]);
    },
    /** A set: an empty one is stored as no attribute (DynamoDB has no empty set), and a required one reads back empty. */
    isSet: codec === 'set',
  };
}

/** The name the table holds an attribute under: its `storedAs`, else its own. */
export const storedName = (def: AttributeDef, attribute: string) => def.storedAs ?? attribute;

/** `Record<string, unknown>`: a stored record as lib-dynamodb reads and writes it. */
const recordType = () => typeRef('Record', keyword.string(), keyword.unknown());

/** A local name for a key attribute's value: the attribute's own name when it is a plain identifier no other local uses. */
const keyLocal = (attribute: string, i: number) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(attribute) && !['item', 'record'].includes(attribute) && !RESERVED_WORDS.has(attribute) && !javascriptGlobals().has(attribute) && !runtimeExports().has(attribute) ? attribute : `key${i}`);

function emitRecord(scope: EntityScope): StatementStructures {
  const { entity, ctx, name, model } = scope;
  const { table } = ctx;
  const item = id('item');
  const record = id('record');
  const body: string[] = [statement(call(runtimeValue(scope, 'itemMapping', 'checkWritten'), [id(model), item]))];
  const keys: Array<readonly [string, Expression]> = [];
  const sparse: string[] = [];
  /** Attributes the always-built keys read: a missing one is a KeyValueError from its key. */
  const keyInputs = new Set(scope.primaryParts);
  for (const path of scope.indexPaths) {
    const index = path.index!;
    if (index.kind === 'native-gsi') continue; // keyed by the item's own attributes
    const built: Array<readonly [string, Expression]> = [
      ...(index.kind === 'gsi' ? [[index.pk, call(prop(keysRef(scope, 'indexes', index.name, 'pk'), 'build'), [item])] as const] : []),
      ...(path.sk && index.sk !== undefined ? [[index.sk, call(prop(keysRef(scope, 'indexes', index.name, 'sk'), 'build'), [item])] as const] : []),
    ];
    const { inputs, optional } = indexInputs(scope, index.name);
    if (optional.length === 0) {
      keys.push(...built);
      for (const input of inputs) keyInputs.add(input);
    } else {
      const member = call(runtimeValue(scope, 'itemMapping', 'indexMembership'), [id(model), id(pathNames(scope, path).indexModel!), item]);
      sparse.push(assignsIf(member, built.map(([attribute, value]) => [element(record, attribute), value] as const)));
    }
  }
  keys.push([table.key.pk, call(prop(keysRef(scope, 'pk'), 'build'), [item])]);
  if (entity.key.sk && table.key.sk !== undefined) keys.push([table.key.sk, call(prop(keysRef(scope, 'sk'), 'build'), [item])]);
  // keys first, as the generic conversion builds them: a missing key part is a KeyValueError
  const locals = keys.map(([attribute], i) => keyLocal(attribute, i));
  keys.forEach(([, value], i) => body.push(constant(locals[i]!, value)));
  // then the required attributes no key reads
  for (const [attribute, def] of Object.entries(entity.attributes)) {
    if (!def.optional && !keyInputs.has(attribute)) body.push(throwsIf(binary(prop(item, attribute), '===', undefinedId()), call(runtimeValue(scope, 'itemMapping', 'missingAttribute'), [id(model), str(attribute)])));
  }
  const fields: Array<readonly [string, Expression]> = [];
  const later: string[] = [];
  for (const [attribute, def] of Object.entries(entity.attributes)) {
    const { toRecord, isSet } = conversion(scope, attribute, def);
    const value = prop(item, attribute);
    const nonEmpty = binary(prop(value, 'size'), '>', num(0));
    const stored = storedName(def, attribute);
    if (isSet) later.push(assignsIf(def.optional ? binary(binary(value, '!==', undefinedId()), '&&', nonEmpty) : nonEmpty, [[element(record, stored), value]]));
    else if (!def.optional) fields.push([stored, toRecord(value)]);
    else later.push(assignsIf(binary(value, '!==', undefinedId()), [[element(record, stored), toRecord(value)]]));
  }
  keys.forEach(([attribute], i) => fields.push([attribute, id(locals[i]!)]));
  for (const [attribute, value] of Object.entries(entity.discriminator ?? {})) fields.push([attribute, str(value)]);
  body.push(constant('record', obj(fields), recordType()), ...later, ...sparse);
  if (scope.native.models.length) body.push(statement(call('Object.assign', [record, call(runtimeValue(scope, 'itemMapping', 'nativeIndexAttributes'), [id(model), record])])));
  body.push(returns(call(runtimeValue(scope, 'itemMapping', 'checkedSize'), [id(model), record])));
  return {
    kind: StructureKind.Function,
    name: recordFunction(scope),
    docs: jsDoc(`The stored record of ${an(name)}: attributes converted as the table holds them, with its table and index keys. Throws ValidationError, KeyValueError or ItemTooLargeError before any request.`),
    parameters: [{ name: 'item', type: name }],
    returnType: print(recordType()),
    statements: body,
  };
}

function emitItem(scope: EntityScope): StatementStructures {
  const { entity, name } = scope;
  const record = id('record');
  const fields: Array<readonly [string, Expression]> = [];
  const later: string[] = [];
  for (const [attribute, def] of Object.entries(entity.attributes)) {
    const { toItem, isSet } = conversion(scope, attribute, def);
    const stored = element(record, storedName(def, attribute));
    const type = attributeTypeNode(def);
    if (isSet && !def.optional) fields.push([attribute, binary(parenthesized(as(stored, union([type, keyword.undefined()]))), '??', construct('Set', [], [def.kind === 'numberSet' ? keyword.number() : keyword.string()]))]);
    else if (!def.optional) fields.push([attribute, as(toItem(stored), type)]);
    else later.push(assignsIf(binary(stored, '!==', undefinedId()), [[prop(id('item'), attribute), as(toItem(stored), type)]]));
  }
  return {
    kind: StructureKind.Function,
    name: itemFunction(scope),
    docs: jsDoc(`${capitalized(an(name))} from its stored record: each declared attribute read back; key attributes and others' attributes are left out.`),
    parameters: [{ name: 'record', type: print(typeRef('Readonly', recordType())) }],
    returnType: name,
    statements: [constant('item', obj(fields), typeRef(name)), ...later, returns(id('item'))],
  };
}

export function emitRecordConversion(scope: EntityScope): StatementStructures[] {
  return hasRecordConversion(scope) ? [emitRecord(scope), emitItem(scope)] : [];
}
