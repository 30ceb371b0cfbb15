// Names and counts as `ddbgen pull` writes them: entity names in PascalCase, property names for
// stored attribute names (safe identifiers, never an inherited member), numbers and shares of the
// sample in its reasons and warnings.

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const RESERVED = new Set(['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty']);

/** `USER`, `account-name`, `$employee_1` → `User`, `AccountName`, `Employee`. */
export function pascalCase(text: string): string {
  const words = text.replace(/_\d+$/, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => (w === w.toUpperCase() || w === w.toLowerCase() ? w.charAt(0).toUpperCase() + w.slice(1).toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  return /^[A-Za-z]/.test(name) ? name : `E${name}`;
}

/** A property name for a stored attribute name: itself when it is an identifier, else a camelCase one. */
export function propertyName(stored: string): string {
  if (IDENTIFIER.test(stored) && !RESERVED.has(stored)) return stored;
  const pascal = pascalCase(stored);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1) + (RESERVED.has(stored) ? 'Value' : '');
}

export const count = (n: number) => n.toLocaleString('en-US');

