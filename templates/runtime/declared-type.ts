// The declared type of an attribute, as plain data (the schema's `t.*` declarations), and a check
// of an item-form value against it. Generated repositories rely on TypeScript for their inputs;
// a migration reads what other writers stored, so it checks every value before it writes it again.

import { utf8Bytes } from './hmac.js';

/** An attribute's declaration: its kind, whether it may be absent, and the kind's bounds. */
export type DeclaredType =
  | { readonly kind: 'string'; readonly optional?: boolean; readonly maxBytes?: number }
  | { readonly kind: 'number'; readonly optional?: boolean; readonly min?: number; readonly max?: number; readonly integer?: boolean }
  | { readonly kind: 'boolean' | 'timestamp' | 'stringSet' | 'numberSet' | 'binary'; readonly optional?: boolean }
  | { readonly kind: 'enum'; readonly optional?: boolean; readonly values: readonly string[] }
  | { readonly kind: 'list'; readonly optional?: boolean; readonly of: DeclaredType; readonly maxItems?: number }
  | { readonly kind: 'map'; readonly optional?: boolean; readonly fields: Readonly<Record<string, DeclaredType>> };

const shown = (value: unknown): string => {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid date' : value.toISOString();
  if (value instanceof Set) return `a set of ${value.size}`;
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object' && value !== null) return 'a map';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};

/** What is wrong with `value` (item form: Date, Set, Uint8Array) at `path` under `type`, or undefined when it fits. */
export function typeProblem(type: DeclaredType, value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return type.optional ? undefined : `${path} is missing (declared ${type.kind}, required)`;
  const not = (what: string) => `${path} is ${shown(value)}, not ${what}`;
  switch (type.kind) {
    case 'string':
      if (typeof value !== 'string') return not('a string');
      if (type.maxBytes !== undefined && utf8Bytes(value).length > type.maxBytes) return `${path} is longer than its ${type.maxBytes} bytes`;
      return undefined;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return not('a number');
      if (type.integer && !Number.isInteger(value)) return not('an integer');
      if ((type.min !== undefined && value < type.min) || (type.max !== undefined && value > type.max)) return not(`in ${type.min ?? '-∞'}..${type.max ?? '∞'}`);
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : not('a boolean');
    case 'enum':
      return typeof value === 'string' && type.values.includes(value) ? undefined : not(`one of ${type.values.join(', ')}`);
    case 'timestamp':
      return value instanceof Date && !Number.isNaN(value.getTime()) ? undefined : not('a timestamp');
    case 'stringSet':
      return value instanceof Set && [...value].every((v) => typeof v === 'string') ? undefined : not('a string set');
    case 'numberSet':
      return value instanceof Set && [...value].every((v) => typeof v === 'number') ? undefined : not('a number set');
    case 'binary':
      return value instanceof Uint8Array ? undefined : not('binary');
    case 'list': {
      if (!Array.isArray(value)) return not('a list');
      if (type.maxItems !== undefined && value.length > type.maxItems) return `${path} has ${value.length} items, more than its ${type.maxItems}`;
      for (let i = 0; i < value.length; i++) {
        const problem = typeProblem(type.of, value[i], `${path}[${i}]`);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'map': {
      if (typeof value !== 'object' || Array.isArray(value) || value instanceof Set || value instanceof Uint8Array || value instanceof Date) return not('a map');
      for (const [field, declared] of Object.entries(type.fields)) {
        const problem = typeProblem(declared, (value as Record<string, unknown>)[field], `${path}.${field}`);
        if (problem) return problem;
      }
      return undefined;
    }
  }
}

/** The first problem among an item's declared attributes, or undefined when every one fits. */
export function itemTypeProblem(types: Readonly<Record<string, DeclaredType>>, item: Readonly<Record<string, unknown>>): string | undefined {
  for (const [name, type] of Object.entries(types)) {
    const problem = typeProblem(type, item[name], name);
    if (problem) return problem;
  }
  return undefined;
}
