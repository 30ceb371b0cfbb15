// Attribute types: `t.string()`, `t.number({ min, max })`, … Each factory returns a small immutable
// builder whose `def` is the attribute's IR; `.optional()` returns a new builder.

import type { AttributeDef, TimestampFormat, TimestampUnit } from './ir.js';

/** An attribute declaration. `T` is its TypeScript type in generated items. */
export interface Attribute<T = unknown, Optional extends boolean = boolean> {
  readonly def: AttributeDef;
  /** Phantom: the value type, for inference only. */
  readonly __type?: T;
  readonly __optional?: Optional;
  /** The attribute may be absent. An index mapping that uses it becomes sparse. */
  optional(): Attribute<T, true>;
  /**
   * The table holds the attribute under another name (`t.string().storedAs('bday')`): items and
   * conditions use the property's name, the table the stored one. For tables another writer filled.
   */
  storedAs(name: string): Attribute<T, Optional>;
}

function builder<T, O extends boolean>(def: AttributeDef): Attribute<T, O> {
  const frozen = Object.freeze(def);
  return Object.freeze({
    def: frozen,
    optional: () => builder<T, true>({ ...frozen, optional: true }),
    storedAs: (name: string) => builder<T, O>({ ...frozen, storedAs: name }),
  }) as unknown as Attribute<T, O>;
}

function attribute<T>(def: AttributeDef): Attribute<T, false> {
  return builder<T, false>({ ...def, optional: false });
}

/**
 * The IR of a record of attribute builders. A literal `__proto__: t.string()` key sets the object's
 * prototype instead of adding a property; it is kept as an attribute named `__proto__`, so
 * validation can refuse it by name (DDB160) rather than lose it silently.
 */
export function attributeDefs(attributes: Readonly<Record<string, Attribute>>): Readonly<Record<string, AttributeDef>> {
  const entries: Array<[string, AttributeDef]> = Object.entries(attributes).map(([name, a]) => [name, a.def]);
  const proto = Object.getPrototypeOf(attributes) as Partial<Attribute> | null;
  if (proto !== null && proto !== Object.prototype && typeof proto === 'object' && proto.def !== undefined) entries.unshift(['__proto__', proto.def]);
  return Object.freeze(Object.fromEntries(entries));
}

function defined<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Attribute type factories.
 *
 * @example
 * attributes: { id: t.string(), views: t.number({ min: 0, max: 1e12, integer: true }), at: t.timestamp() }
 * // emits: interface X { id: string; views: number; at: Date }
 */
export const t = {
  /** A string. `cardinality`: how many distinct values it takes (for the hot-key lint); `pii`: personal data. */
  string: (options: { cardinality?: number; pii?: boolean; maxBytes?: number } = {}) =>
    attribute<string>({ kind: 'string', optional: false, ...defined(options) }),
  /**
   * A number. Used in a key, it needs `min` and `max`: keys encode it fixed-width and order-preserving.
   * `keyFormat` (integers, a table another writer keyed): how its key parts are written where it
   * differs from the table's `keyFormat.integers`: `'plain'` digits (`fleetno_7`, no range needed,
   * sorts as text) or `'padded'` to the width of `max` (`tripno_00005`).
   */
  number: (options: { min?: number; max?: number; integer?: boolean; keyFormat?: 'padded' | 'plain' } = {}) =>
    attribute<number>({ kind: 'number', optional: false, ...defined(options) }),
  boolean: () => attribute<boolean>({ kind: 'boolean', optional: false }),
  /** One of a fixed set of strings. Emits a string-literal union. */
  enum: <const V extends readonly [string, ...string[]]>(values: V) =>
    attribute<V[number]>({ kind: 'enum', optional: false, values: Object.freeze([...values]) }),
  /**
   * An instant: `Date` in items, fixed-width UTC ISO-8601 text in the table and in keys. With
   * `unit`, every write truncates it to the start of its second, minute, hour, day or month (UTC),
   * so a rollup keyed by a bucket stores the bucket's start, and reads return it truncated. With
   * `format`, it is stored (in the table and in keys) as another writer stored it: `iso-seconds`
   * (`2024-01-05T10:00:00Z`), `date` (`2024-01-05`), `epoch-seconds` or `epoch-milliseconds`
   * (numbers; in keys, their digits); writes truncate to the format's precision.
   */
  timestamp: (options: { unit?: TimestampUnit; format?: TimestampFormat } = {}) =>
    attribute<Date>({ kind: 'timestamp', optional: false, ...defined({ ...options, format: options.format === 'iso' ? undefined : options.format }) }),
  /** A list. `maxItems`: the most elements it holds, so the lint can check the item against 400 KB. */
  list: <T>(of: Attribute<T>, options: { maxItems?: number } = {}) => attribute<T[]>({ kind: 'list', optional: false, of: of.def, ...defined(options) }),
  map: <const F extends Record<string, Attribute>>(fields: F) =>
    attribute<{ [K in keyof F]: F[K] extends Attribute<infer T> ? T : never }>({
      kind: 'map',
      optional: false,
      fields: attributeDefs(fields),
    }),
  stringSet: () => attribute<Set<string>>({ kind: 'stringSet', optional: false }),
  numberSet: () => attribute<Set<number>>({ kind: 'numberSet', optional: false }),
  binary: () => attribute<Uint8Array>({ kind: 'binary', optional: false }),
};
