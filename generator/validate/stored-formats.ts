// Validates the stored formats a table declares for items another writer keyed and filled: the
// key format's values, timestamp formats, stored attribute names (`storedAs`) and discriminators.

import type { AttributeDef, EntityDef, TableDef } from '../../dsl/ir.js';
import { DYNAMODB_NAME, type Report } from './report.js';

const TIMESTAMP_FORMATS: readonly string[] = ['iso', 'iso-seconds', 'date', 'epoch-seconds', 'epoch-milliseconds'];
const KEY_FORMAT_OPTIONS = { integers: ['padded', 'plain'], casing: ['preserve', 'lower', 'upper'] } as const;
/** Names that reach into JavaScript's object machinery (refused by the runtime as attribute names). */
const FORBIDDEN = ['__proto__', 'constructor', 'prototype'];

/** Reports timestamp formats that are not one ddbgen reads, at any depth of an attribute. */
function validateFormats(attributes: Readonly<Record<string, AttributeDef>>, path: readonly string[], report: Report): void {
  for (const [name, def] of Object.entries(attributes)) {
    const format = (def as { format?: unknown }).format;
    if (format !== undefined && (def.kind !== 'timestamp' || !TIMESTAMP_FORMATS.includes(format as string))) {
      report('DDB081', [...path, name], [`${name} has format ${JSON.stringify(format)}, which is not a stored timestamp format${def.kind === 'timestamp' ? '' : ` (it is a ${def.kind})`}`, TIMESTAMP_FORMATS]);
    }
    const keyFormat = (def as { keyFormat?: unknown }).keyFormat;
    if (keyFormat !== undefined && (def.kind !== 'number' || !def.integer || !(KEY_FORMAT_OPTIONS.integers as readonly unknown[]).includes(keyFormat))) {
      const what = def.kind !== 'number' ? `a ${def.kind}` : !def.integer ? 'a number without integer: true' : undefined;
      report('DDB081', [...path, name], [`${name} has keyFormat ${JSON.stringify(keyFormat)}${what ? `, which only an integer's key parts take (it is ${what})` : ''}`, what ? ['t.number({ integer: true, keyFormat: \'plain\' })', 'no keyFormat'] : KEY_FORMAT_OPTIONS.integers]);
    }
    let inner: AttributeDef = def;
    while (inner.kind === 'list') inner = inner.of;
    if (inner !== def && inner.storedAs !== undefined) report('DDB270', [...path, name], [path[1] ?? '', `${name}[]`, inner.storedAs, 'renames a list element, which has no name of its own']);
    if (inner.kind === 'map') {
      for (const [field, fieldDef] of Object.entries(inner.fields)) {
        if (fieldDef.storedAs !== undefined) report('DDB270', [...path, name, 'fields', field], [path[1] ?? '', `${name}.${field}`, fieldDef.storedAs, 'renames a map field; storedAs renames only an entity\'s own attributes']);
      }
      validateFormats(inner.fields, [...path, name, 'fields'], report);
    }
  }
}

/** The attributes a native GSI key reads: they are stored under their own names, since the index is keyed by them. */
function nativeInputs(entity: EntityDef): Set<string> {
  return new Set(Object.values(entity.nativeIndexes ?? {}).flatMap((m) => Object.values(m.attributes)));
}

function validateStoredNames(table: TableDef, entity: EntityDef, keyAttributes: ReadonlySet<string>, report: Report): void {
  const at = ['entities', entity.name, 'attributes'];
  const stored = new Map<string, string>();
  for (const [name, def] of Object.entries(entity.attributes)) stored.set(name, def.storedAs ?? name);
  const discriminator = Object.keys(entity.discriminator ?? {});
  const native = nativeInputs(entity);
  for (const [name, def] of Object.entries(entity.attributes)) {
    const as = def.storedAs;
    if (as === undefined) continue;
    const problem =
      typeof as !== 'string' || as === '' ? 'is not a non-empty string'
      : FORBIDDEN.includes(as) ? 'reaches into the object prototype'
      : keyAttributes.has(as) ? `is a key attribute of the table, which holds a generated key`
      : discriminator.includes(as) ? 'is a discriminator attribute of the entity'
      : [...stored].some(([other, otherStored]) => other !== name && otherStored === as) ? `is also where ${[...stored].find(([other, otherStored]) => other !== name && otherStored === as)![0]} is stored`
      : name === entity.version ? 'renames the version attribute, which optimistic locking reads by its own name'
      : name === table.ttl ? `renames the ttl attribute: DynamoDB's time to live reads "${table.ttl}" itself`
      : native.has(name) ? 'renames an attribute a native GSI is keyed by, and the index reads the stored name'
      : undefined;
    if (problem) report('DDB270', [...at, name], [entity.name, name, String(as), problem]);
  }
}

function validateDiscriminator(entity: EntityDef, keyAttributes: ReadonlySet<string>, report: Report): void {
  const discriminator = entity.discriminator;
  if (discriminator === undefined) return;
  const at = ['entities', entity.name, 'discriminator'];
  if (typeof discriminator !== 'object' || discriminator === null || Object.keys(discriminator).length === 0) {
    report('DDB271', at, [entity.name, '(discriminator)', 'names no attribute']);
    return;
  }
  const storedNames = new Set(Object.entries(entity.attributes).map(([name, def]) => def.storedAs ?? name));
  for (const [name, value] of Object.entries(discriminator)) {
    const problem =
      typeof value !== 'string' || value === '' ? `has the value ${JSON.stringify(value)}, not a non-empty string`
      : FORBIDDEN.includes(name) ? 'reaches into the object prototype'
      : keyAttributes.has(name) ? 'is a key attribute of the table'
      : Object.prototype.hasOwnProperty.call(entity.attributes, name) || storedNames.has(name) ? 'is also a declared attribute (the discriminator is written by ddbgen, never given in an item)'
      : undefined;
    if (problem) report('DDB271', [...at, name], [entity.name, name, problem]);
  }
}

/** Every stored-format declaration of a table: the key format's values, timestamp formats, stored names and discriminators. */
export function validateStoredFormats(table: TableDef, keyAttributes: ReadonlySet<string>, report: Report): void {
  const format = table.keyFormat;
  if (format !== undefined) {
    if (typeof format.escape !== 'boolean') report('DDB081', ['keyFormat', 'escape'], [`keyFormat.escape is ${JSON.stringify(format.escape)}, not true or false`, ['true', 'false']]);
    for (const field of ['integers', 'casing'] as const) {
      const options: readonly string[] = KEY_FORMAT_OPTIONS[field];
      if (!options.includes(format[field])) report('DDB081', ['keyFormat', field], [`keyFormat.${field} is ${JSON.stringify(format[field])}`, options]);
    }
  }
  // an index another tool named: its IndexName in DynamoDB, unique across the table
  const physical = new Map<string, string>();
  for (const index of Object.values(table.indexes)) {
    const name = index.indexName ?? index.name;
    if (index.indexName !== undefined && (typeof index.indexName !== 'string' || index.indexName.length < DYNAMODB_NAME.min || index.indexName.length > DYNAMODB_NAME.max || !DYNAMODB_NAME.characters.test(index.indexName))) {
      report('DDB081', ['indexes', index.name, 'indexName'], [`index ${index.name} has indexName ${JSON.stringify(index.indexName)}, which is not a DynamoDB index name`, ['3 to 255 characters of a-z, A-Z, 0-9, _, - and .']]);
    } else if (physical.has(name)) report('DDB081', ['indexes', index.name, 'indexName'], [`indexes ${physical.get(name)} and ${index.name} are both named "${name}" in DynamoDB`, ['an indexName of its own for each index']]);
    physical.set(name, index.name);
  }
  for (const entity of Object.values(table.entities)) {
    validateFormats(entity.attributes, ['entities', entity.name, 'attributes'], report);
    validateStoredNames(table, entity, keyAttributes, report);
    validateDiscriminator(entity, keyAttributes, report);
  }
  for (const edge of Object.values(table.edges)) validateFormats(edge.attributes, ['edges', edge.name, 'attributes'], report);
}
