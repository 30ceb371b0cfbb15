// Emits one key codec per key template (table and each index: `articlePk`, `articleByNameSk`),
// which the entity's model and record conversion build keys with, and `<Entity>Keys`: the same keys
// as KeyTemplates (which parse too), plus `key` (the table key of an item) and `parse` (its parts
// back from a table key).

import { StructureKind, VariableDeclarationKind } from '../../ts-morph.js';
import type { StatementStructures } from 'ts-morph';
import type { EntityDef, ShardDef, TemplateDef } from '../../../dsl/ir.js';
import { keyShape, type KeyTemplateDef, type SegmentDef } from '../../../templates/runtime/codec.js';
import { identityTemplates, keySegments, storedKeyFormat } from '../../model/key-segments.js';
import { arr, arrow, as, binary, call, id, regex, jsDoc, keyword, literal, obj, objectMethod, objectType, objWithSpreads, print, prop, pure, ret, typeRef, type Expression, type ObjectEntry } from '../ast.js';
import type { EmitContext } from '../context.js';
import { an, runtimeType, runtimeValue, type EntityScope } from './entity-scope.js';
import { camelCase, pascalCase } from '../context.js';

const PK_BYTES = 2048;
const SK_BYTES = 1024;

function templateDef(entity: EntityDef, template: TemplateDef, target: string, maxBytes: number, ctx: EmitContext, shard?: ShardDef, identity?: readonly TemplateDef[]): KeyTemplateDef {
  const segments = keySegments(entity, template, shard, identity);
  if (!segments) throw new Error(`internal: ${target} was not validated`);
  return { entity: entity.name, target, delimiter: ctx.table.delimiter, maxBytes, segments, ...(ctx.keyCodec === undefined ? {} : { codecVersion: ctx.keyCodec }), ...storedKeyFormat(entity) };
}


/**
 * The constant holding a key's codec: `articlePk` for `('pk')`, `articleByNameSk` for
 * `('indexes', 'byName', 'sk')`.
 */
export const codecName = (scope: EntityScope, ...path: string[]): string =>
  camelCase(scope.name) + (path[0] === 'indexes' ? pascalCase(path[1]!) + pascalCase(path[2]!) : pascalCase(path[0]!));

/**
 * Where the runtime's operations find a key's codec (`articlePk`, `articleByNameSk`): a constant of
 * its own, so a bundle keeps `<Entity>Keys` (and the runtime's KeyTemplate) only when it reads them.
 */
export const keysRef = (scope: EntityScope, ...path: string[]): Expression => id(codecName(scope, ...path));

/** The table's key attribute types: `{ pk: string; sk: string }`. */
function physicalKeyType(scope: EntityScope) {
  const { table } = scope.ctx;
  return objectType([{ name: table.key.pk, type: keyword.string() }, ...(scope.entity.key.sk && table.key.sk !== undefined ? [{ name: table.key.sk, type: keyword.string() }] : [])]);
}

/** The codec definitions of an entity's key templates: the table key's and each index's. */
export interface EntityTemplates {
  readonly pk: KeyTemplateDef;
  readonly sk?: KeyTemplateDef;
  readonly indexes: ReadonlyArray<{ readonly name: string; readonly pk?: KeyTemplateDef; readonly sk?: KeyTemplateDef }>;
}

export function entityTemplates(scope: EntityScope): EntityTemplates {
  const { entity, name, ctx } = scope;
  return {
    pk: templateDef(entity, entity.key.pk, `${name}.key.pk`, PK_BYTES, ctx, entity.key.shard),
    ...(entity.key.sk ? { sk: templateDef(entity, entity.key.sk, `${name}.key.sk`, SK_BYTES, ctx) } : {}),
    indexes: scope.indexPaths.map((path) => {
      const index = path.index!;
      const mapping = entity.indexes[index.name]!;
      const target = `${name}.indexes.${index.name}`;
      return {
        name: index.name,
        ...(index.kind === 'gsi' ? { pk: templateDef(entity, mapping.pk!, `${target}.pk`, PK_BYTES, ctx, mapping.shard, identityTemplates(entity, mapping)) } : {}),
        ...(path.sk ? { sk: templateDef(entity, path.sk, `${target}.sk`, SK_BYTES, ctx) } : {}),
      };
    }),
  };
}

/**
 * `segment.string('id')`: a segment as a call of the runtime's constructor, whose declared result
 * the user's type checker reuses (an object literal would be a fresh type to compare per segment).
 */
function segmentCall(segment: SegmentDef, constructors: string): Expression {
  const make = (kind: string, ...args: unknown[]) => pure(call(prop(constructors, kind), args.map(literal)));
  if (segment.kind !== 'literal' && segment.kind !== 'shard' && (segment.prefix !== undefined || segment.suffix !== undefined)) {
    const { prefix, suffix, ...value } = segment;
    return pure(call(prop(constructors, 'affixed'), [segmentCall(value as SegmentDef, constructors), literal(prefix ?? ''), ...(suffix === undefined ? [] : [literal(suffix)])]));
  }
  switch (segment.kind) {
    case 'literal':
      return make('literal', segment.text);
    case 'string':
    case 'boolean':
      return make(segment.kind, segment.attr);
    case 'enum':
      return make('enum', segment.attr, segment.values);
    case 'integer':
      return make(segment.plain ? 'plainInteger' : 'integer', segment.attr, segment.min, segment.max);
    case 'float':
      return make(segment.kind, segment.attr, segment.min, segment.max);
    case 'timestamp':
      if (segment.bucket) return make('bucket', segment.attr, segment.unit);
      return segment.format === undefined ? make('timestamp', segment.attr, segment.unit) : make('timestamp', segment.attr, segment.unit, segment.format);
    case 'shard': {
      const { count, start, by, random } = segment;
      return make('shard', { count, start, by: arr(by.map((s) => segmentCall(s, constructors))), random });
    }
  }
}

/** The runtime function that writes one value segment's text, per kind. */
const PART: Record<Exclude<SegmentDef['kind'], 'literal'>, string> = {
  string: 'stringPart',
  enum: 'stringPart',
  integer: 'integerPart',
  float: 'floatPart',
  timestamp: 'timestampPart',
  boolean: 'booleanPart',
  shard: 'shardPart',
};

/** A template as its source spells it, for the builder's doc: `User#<userId>`. */
const templateSource = (def: KeyTemplateDef): string =>
  def.segments.map((s) => (s.kind === 'literal' ? s.text : s.kind === 'shard' ? '<shard>' : `${s.prefix ?? ''}<${s.attr}${s.kind === 'timestamp' && s.bucket ? `:${s.unit}` : ''}>${s.suffix ?? ''}`)).join(def.delimiter);

/**
 * A key as one expression: its literal text (delimiters included) as string literals, each value
 * segment as the call of its kind's runtime function (`stringPart(def, 1, item)`), joined by `+`.
 */
function builtKey(scope: EntityScope, def: KeyTemplateDef, defRef: Expression): Expression {
  const pieces: Expression[] = [];
  let text = '';
  def.segments.forEach((segment, at) => {
    if (at > 0) text += def.delimiter;
    if (segment.kind === 'literal') {
      text += segment.text;
      return;
    }
    if (text) pieces.push(literal(text));
    text = '';
    pieces.push(call(runtimeValue(scope, 'codec', PART[segment.kind]), [defRef, literal(at), id('item')]));
  });
  if (text || !pieces.length) pieces.push(literal(text));
  return pieces.reduce((left, right) => binary(left, '+', right));
}

/**
 * Whether a key has the template's shape, as an expression of `key`: `keyShape`'s pattern written
 * out (`/^User#…$/.test(key)`), or, for templates with numbers or shards, `keyMatchesBySegments`.
 */
function keyMatcher(scope: EntityScope, def: KeyTemplateDef, defRef: Expression): Expression {
  const shape = keyShape(def);
  if (shape === undefined) return call(runtimeValue(scope, 'codec', 'keyMatchesBySegments'), [defRef, id('key')]);
  return call(prop(regex(shape), 'test'), [id('key')]);
}

export function emitKeyBuilders(scope: EntityScope): StatementStructures[] {
  const { entity, name, ctx } = scope;
  const { table } = ctx;
  const defs = entityTemplates(scope);
  const statements: StatementStructures[] = [];
  const codecType = print(runtimeType(scope, 'codec', 'KeyCodec'));
  // one constant per key: its definition, and its keys built part by part
  const codec = (def: KeyTemplateDef | undefined, ...path: string[]) => {
    if (def === undefined) return;
    const constName = codecName(scope, ...path);
    const constructors = runtimeValue(scope, 'codec', 'segment');
    const initializer = obj([
      ['def', literal({ ...def, segments: arr(def.segments.map((s) => segmentCall(s, constructors))) })],
      ['build', arrow(['item'], call(runtimeValue(scope, 'codec', 'checkKeyLength'), [prop(constName, 'def'), builtKey(scope, def, prop(constName, 'def'))]))],
      ['matches', arrow(['key'], keyMatcher(scope, def, prop(constName, 'def')))],
      ['parts', arr(def.segments.map((s) => (s.kind === 'literal' ? id('undefined') : id(runtimeValue(scope, 'codec', PART[s.kind])))))],
    ]);
    statements.push({
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      docs: jsDoc(`Builds ${def.target} keys, ${templateSource(def)}, for ${name}'s operations and records: each part checked and written by the codec's function for its kind, then the key's length checked. \`matches\` tells its keys from others' (what parsing accepts), by one pattern where the parts allow; \`parts\` names the same functions per segment, for the partial keys of queries.`),
      declarations: [{ name: constName, type: codecType, initializer: print(initializer) }],
    });
  };
  codec(defs.pk, 'pk');
  codec(defs.sk, 'sk');
  for (const index of defs.indexes) {
    codec(index.pk, 'indexes', index.name, 'pk');
    codec(index.sk, 'indexes', index.name, 'sk');
  }
  // `<Entity>Keys`: each codec as a KeyTemplate, which parses too; pure, so a bundle that never reads it drops it
  // typed where it is made (`as KeyTemplate`), so an app compiled with isolatedDeclarations can declare it
  const template = (def: KeyTemplateDef | undefined, ...path: string[]) =>
    def === undefined ? undefined : as(pure(call(runtimeValue(scope, 'codec', 'keyTemplate'), [keysRef(scope, ...path)])), runtimeType(scope, 'codec', 'KeyTemplate'));
  const entries: ObjectEntry[] = [
    ['pk', template(defs.pk, 'pk')],
    ['sk', template(defs.sk, 'sk')],
  ];
  if (defs.indexes.length) entries.push(['indexes', obj(defs.indexes.map((index): ObjectEntry => [index.name, obj([['pk', template(index.pk, 'indexes', index.name, 'pk')], ['sk', template(index.sk, 'indexes', index.name, 'sk')]])]))]);
  const hasSk = entity.key.sk !== undefined && table.key.sk !== undefined;
  const keyType = physicalKeyType(scope);
  const part = (template: 'pk' | 'sk', method: 'build' | 'parse', arg: Expression) => call(prop(prop(id(`${name}Keys`), template), method), [arg]);
  if (scope.addressable) {
    entries.push(
      objectMethod(
        'key',
        [{ name: 'values', type: typeRef(`${name}Key`) }],
        keyType,
        [ret(obj([[table.key.pk, part('pk', 'build', id('values'))], ...(hasSk ? [[table.key.sk!, part('sk', 'build', id('values'))] as const] : [])]))],
        `The table key of ${an(name)}. Throws KeyValueError before any request if a part is missing or invalid.`,
      ),
    );
  }
  entries.push(
    objectMethod(
      'parse',
      [{ name: 'key', type: keyType }],
      typeRef(`${name}Key`),
      [ret(as(objWithSpreads([['...', part('pk', 'parse', prop('key', table.key.pk))], ...(hasSk ? [['...', part('sk', 'parse', prop('key', table.key.sk!))] as const] : [])]), typeRef(`${name}Key`)))],
      `The parts of ${an(name)} table key; throws KeyParseError if the key is not ${an(name)}'s.`,
    ),
  );
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: jsDoc(`Builds and parses ${name} keys: ${entity.key.pk.source}${entity.key.sk ? ` / ${entity.key.sk.source}` : ''}.`),
    declarations: [{ name: `${name}Keys`, initializer: print(obj(entries)) }],
  });
  return statements;
}
