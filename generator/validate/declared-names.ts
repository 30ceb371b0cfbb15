// What the checks of a table share about declared names: the rule a name (table, entity, pattern,
// edge) follows, attribute names that would read as an inherited member of plain objects, and an
// attribute lookup that never reaches Object.prototype.

import type { AttributeDef, EntityDef } from '../../dsl/ir.js';
import type { Report } from './report.js';

export const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The attribute `name` of an entity, looked up without reaching Object.prototype. */
export const attributeOf = (entity: EntityDef, name: string): AttributeDef | undefined => (Object.prototype.hasOwnProperty.call(entity.attributes, name) ? entity.attributes[name] : undefined);

/**
 * `__proto__`, `constructor`, `prototype`, and every member plain objects inherit (`toString`,
 * `valueOf`, `hasOwnProperty`, …): an object without such an own property still answers to the
 * name, so an absent attribute would read as a function.
 */
const PROTOTYPE_NAMES = [
  '__proto__', 'constructor', 'prototype', 'toString', 'toLocaleString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable',
  '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
];

/** Reports every attribute (and map field, at any depth) named after a prototype property. */
export function validateAttributeNames(owner: string, attributes: Readonly<Record<string, AttributeDef>>, path: readonly string[], report: Report): void {
  for (const [name, def] of Object.entries(attributes)) {
    if (PROTOTYPE_NAMES.includes(name)) report('DDB160', [...path, name], [owner, name]);
    let inner: AttributeDef = def;
    while (inner.kind === 'list') inner = inner.of;
    if (inner.kind === 'map') validateAttributeNames(owner, inner.fields, [...path, name, 'fields'], report);
  }
}
