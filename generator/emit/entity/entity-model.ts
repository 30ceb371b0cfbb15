// Emits the runtime model of an entity: a constant per secondary index (`articleByNameIndex`) and
// `<entity>Model`, the keys and conversions the shared runtime works from.

import { StructureKind, VariableDeclarationKind } from '../../ts-morph.js';
import type { StatementStructures } from 'ts-morph';
import type { AccessPath } from '../../model/access-paths.js';
import { KeyTemplate } from '../../../templates/runtime/codec.js';
import { genericConversions } from '../../../templates/runtime/item-mapping.js';
import type { EntityModel } from '../../../templates/runtime/repository.js';
import { arr, arrow, call, id, jsDoc, literal, print, type Expression } from '../ast.js';
import { attributeCodec, runtimeAttributeType } from '../attribute-type.js';
import { entityTemplates, keysRef } from './key-builders.js';
import { hasRecordConversion, itemFunction, recordFunction } from './record-conversion.js';
import { indexInputs, pathNames, runtimeType, runtimeValue, type EntityScope } from './entity-scope.js';

export { indexInputs } from './entity-scope.js';

function constant(name: string, type: string, initializer: Expression, description: string, exported = false): StatementStructures {
  return {
    kind: StructureKind.VariableStatement,
    ...(exported ? { isExported: true } : {}),
    declarationKind: VariableDeclarationKind.Const,
    docs: jsDoc(description),
    declarations: [{ name, type, initializer: print(initializer) }],
  };
}

/** Where a key template lives, as `<Entity>Keys` names it: `('pk')`, `('indexes', 'byName', 'sk')`. */
type TemplateAt<T> = (...path: string[]) => T;

/** An index model, its templates given by `template`: printed as references, or live KeyTemplates. */
function indexDescription<T>(scope: EntityScope, path: AccessPath, template: TemplateAt<T>) {
  const index = path.index!;
  const { table } = scope.ctx;
  const { inputs, optional } = indexInputs(scope, index.name);
  return {
    name: index.name,
    ...(index.indexName === undefined ? {} : { indexName: index.indexName }),
    kind: index.kind,
    pk: index.kind === 'gsi' ? { attribute: index.pk, template: template('indexes', index.name, 'pk') } : { attribute: table.key.pk, template: template('pk') },
    sk: path.sk && index.sk !== undefined ? { attribute: index.sk, template: template('indexes', index.name, 'sk') } : undefined,
    inputs,
    optional,
    projection: path.projection === 'all' || path.projection === 'keys-only' ? path.projection : [...path.projection],
  };
}

/**
 * The entity model, one description for both of its forms: the literal the entity module prints
 * and the live object examples are computed with. `template` gives the key templates, `indexes`
 * the index models, `conversions` the generated record conversions (absent when live).
 */
function modelDescription<T, I, C>(scope: EntityScope, template: TemplateAt<T>, indexes: I[], conversions?: { check: C; toRecord: C; toItem: C }) {
  const { entity, name, ctx } = scope;
  const { table } = ctx;
  const codecs = Object.fromEntries(
    Object.entries(entity.attributes).flatMap(([a, def]) => {
      const codec = attributeCodec(def, a === table.ttl);
      return codec === undefined ? [] : [[a, codec]];
    }),
  );
  const renamed = Object.entries(entity.attributes).flatMap(([a, def]) => (def.storedAs === undefined ? [] : [[a, def.storedAs] as const]));
  const pii = Object.keys(entity.attributes).filter((a) => {
    const def = entity.attributes[a]!;
    return def.kind === 'string' && def.pii === true;
  });
  return {
    name,
    pk: { attribute: table.key.pk, template: template('pk') },
    sk: entity.key.sk && table.key.sk !== undefined ? { attribute: table.key.sk, template: template('sk') } : undefined,
    indexes,
    codecs,
    types: Object.fromEntries(Object.entries(entity.attributes).map(([a, def]) => [a, runtimeAttributeType(def)])),
    attributes: Object.keys(entity.attributes),
    required: Object.keys(entity.attributes).filter((a) => !entity.attributes[a]!.optional),
    pii: pii.length ? pii : undefined,
    passthrough: entity.passthrough ? true : undefined,
    keyAttributes: [...ctx.keyAttributes, ...scope.native.copies, ...Object.keys(entity.discriminator ?? {})],
    primaryParts: scope.primaryParts,
    version: scope.version,
    storedNames: renamed.length ? Object.fromEntries(renamed) : undefined,
    discriminator: entity.discriminator ? { ...entity.discriminator } : undefined,
    nativeIndexes: scope.native.models.length ? scope.native.models : undefined,
    check: conversions?.check,
    toRecord: conversions?.toRecord,
    toItem: conversions?.toItem,
  };
}

/** The entity's runtime model as a live object, its key templates built by the runtime's KeyTemplate (the record conversions left to the generic ones). */
export function liveEntityModel(scope: EntityScope): EntityModel {
  const templates = entityTemplates(scope);
  const template = (...path: string[]): KeyTemplate => {
    const def = path[0] === 'indexes' ? templates.indexes.find((i) => i.name === path[1])![path[2] as 'pk' | 'sk'] : templates[path[0] as 'pk' | 'sk'];
    return new KeyTemplate(def!);
  };
  return { ...modelDescription(scope, template, scope.indexPaths.map((path) => indexDescription(scope, path, template))), ...genericConversions } as EntityModel;
}

/** The attribute kinds `checkScalar` checks. */
const SCALAR_KINDS: ReadonlySet<string> = new Set(['string', 'number', 'boolean', 'timestamp', 'enum']);

export function emitEntityModel(scope: EntityScope): StatementStructures[] {
  const { name } = scope;
  const statements: StatementStructures[] = [];
  const indexModels: Expression[] = [];
  const template = (...path: string[]) => keysRef(scope, ...path);
  for (const path of scope.indexPaths) {
    const index = path.index!;
    const constName = pathNames(scope, path).indexModel!;
    indexModels.push(id(constName));
    statements.push(
      constant(constName, print(runtimeType(scope, 'repository', 'IndexModel')), literal(indexDescription(scope, path, template)), `How ${name} items appear in ${index.kind === 'gsi' ? 'GSI' : 'LSI'} ${index.name}.`),
    );
  }
  // the generated conversions, or (a passthrough entity) the runtime's generic ones, named here so
  // that a bundle keeps the generic conversion only for a model that uses it
  const conversions = hasRecordConversion(scope)
    ? { toRecord: id(recordFunction(scope)), toItem: id(itemFunction(scope)) }
    : {
        toRecord: arrow(['item'], call(runtimeValue(scope, 'itemMapping', 'genericRecord'), [id(scope.model), id('item')])),
        toItem: arrow(['record'], call(runtimeValue(scope, 'itemMapping', 'genericItem'), [id(scope.model), id('record')])),
      };
  // the checks of the kinds the entity writes outside its key: strings, numbers, booleans, timestamps
  // and enums by checkScalar alone, so that a bundle keeps no list, map or set checks it cannot reach
  const scalar = Object.entries(scope.entity.attributes).every(([a, def]) => scope.primaryParts.includes(a) || SCALAR_KINDS.has(runtimeAttributeType(def).kind));
  const check = id(runtimeValue(scope, 'item', scalar ? 'checkScalar' : 'checkValue'));
  const model = modelDescription(scope, template, indexModels, { check, ...conversions });
  statements.push(
    constant(
      scope.model,
      print(runtimeType(scope, 'repository', 'EntityModel')),
      // the fingerprints of errors only where there is pii to print: other entities bring no hash into a bundle
      literal({ ...model, sk: model.sk ?? id('undefined'), indexes: arr(model.indexes), ...(model.pii ? { fingerprint: id(runtimeValue(scope, 'piiFingerprint', 'piiFingerprint')) } : {}) }),
      `How ${name} items are keyed and stored, for the runtime (used by ${name}Repository and collection queries).`,
      true,
    ),
  );
  return statements;
}
