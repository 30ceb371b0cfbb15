// What the in-memory engine checks of a Query's or Scan's expressions against the key space it
// reads (an index projects some attributes only; a filter may not name a key attribute), and the
// key condition turned into a partition and a test of its items.

import { evaluateCondition, type Resolved, type ResolvedCondition } from './expression.js';
import type { PathPart } from './expression-parser.js';
import { valueId, type IndexShape, type KeySchema } from './key-space.js';
import type { Table } from './stored-table.js';
import { validation, type AttributeMap, type AttributeValue } from './value.js';

/** The top-level attribute names a condition reads, in order of appearance. */
export function topNames(condition: ResolvedCondition): string[] {
  const names: string[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const n = node as { kind?: string; parts?: PathPart[] };
    if ((n.kind === 'path' || n.kind === 'if_not_exists') && n.parts && !names.includes(n.parts[0] as string)) names.push(n.parts[0] as string);
    for (const value of Object.values(node)) if (typeof value === 'object') Array.isArray(value) ? value.forEach(visit) : visit(value);
  };
  visit(condition);
  return names;
}

/**
 * What a query's filter or a read's projection names must be in the index (a local index reads a
 * projection's other attributes from the table), as DynamoDB Local checks it.
 */
/** The attributes an index that does not project ALL holds: the table's keys, its own, and what it includes. */
export function projectedNames(table: Table, index: IndexShape): Set<string> {
  return new Set([...table.keyNames, ...index.key.hash, ...index.key.range, ...(index.projection === 'INCLUDE' ? index.include : [])]);
}

export function checkProjected(table: Table, index: IndexShape, use: 'filter' | 'projection', names: readonly string[]): void {
  if (index.projection === 'ALL' || (use === 'projection' && index.kind === 'lsi')) return;
  const projected = projectedNames(table, index);
  const missing = [...new Set(names)].filter((name) => !projected.has(name));
  if (missing.length === 0) return;
  throw validation(
    use === 'filter'
      ? `One or more parameter values were invalid: Secondary index ${index.name} does not project one or more filter attributes: [${missing.join(', ')}]`
      : `One or more parameter values were invalid: Global secondary index ${index.name} does not project [${missing.join(', ')}]`,
  );
}

/** A filter may not name the key attributes of the key space queried. */
export function checkFilterKeys(filter: ResolvedCondition, key: KeySchema): void {
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const n = node as { kind?: string; parts?: PathPart[] };
    if (n.kind === 'path' && n.parts && n.parts.length === 1 && [...key.hash, ...key.range].includes(n.parts[0] as string)) {
      throw validation(`Filter Expression can only contain non-primary key attributes: Primary key attribute: ${n.parts[0] as string}`);
    }
    for (const value of Object.values(node)) if (typeof value === 'object') Array.isArray(value) ? value.forEach(visit) : visit(value);
  };
  visit(filter);
}

/**
 * A key condition split into the partition it reads and a test of the sort key: equality on
 * every partition-key attribute, then conditions on sort-key attributes (equality on a leading
 * run, at most one range after it).
 */
export function keyTest(
  condition: ResolvedCondition,
  key: KeySchema,
): { partition: string; test: ((item: Readonly<AttributeMap>) => boolean) | undefined; bounds: { attribute?: string; low?: AttributeValue | undefined; high?: AttributeValue | undefined } } {
  const atoms: ResolvedCondition[] = [];
  const flatten = (c: ResolvedCondition) => {
    if (c.kind === 'and') {
      flatten(c.left);
      flatten(c.right);
    } else if (c.kind === 'compare' || c.kind === 'between' || (c.kind === 'function' && c.name === 'begins_with')) atoms.push(c);
    else throw validation('Invalid operator used in KeyConditionExpression: ' + (c.kind === 'function' ? c.name : c.kind.toUpperCase()));
  };
  flatten(condition);
  const attributeOf = (c: ResolvedCondition): string => {
    const target = c.kind === 'compare' ? c.left : c.kind === 'between' ? c.operand : c.kind === 'function' ? c.args[0] : undefined;
    if (!target || target.kind !== 'path' || target.parts.length !== 1) throw validation('Query key condition not supported');
    return target.parts[0] as string;
  };
  const byName = new Map<string, ResolvedCondition>();
  const equality = (atom: ResolvedCondition | undefined): atom is Extract<ResolvedCondition, { kind: 'compare' }> => atom?.kind === 'compare' && atom.op === '=' && atom.right.kind === 'value';
  // DynamoDB names the key element a condition misses: the first partition-key attribute without an
  // equality, else (a condition on a non-key attribute) the sort key's first. (DynamoDB Local names none.)
  const missed = () => validation(`Query condition missed key schema element: ${key.hash.find((name) => !equality(byName.get(name))) ?? key.range[0] ?? key.hash[0]}`);
  let nonKey = false;
  for (const atom of atoms) {
    const name = attributeOf(atom);
    if (![...key.hash, ...key.range].includes(name)) nonKey = true;
    else if (byName.has(name)) throw validation(`KeyConditionExpressions must only contain one condition per key`);
    else byName.set(name, atom);
  }
  if (nonKey) throw missed();
  let partition = '';
  for (const name of key.hash) {
    const atom = byName.get(name);
    if (!equality(atom)) throw missed();
    partition += valueId((atom.right as Extract<Resolved, { kind: 'value' }>).value) + '\u0000';
  }
  const sortTests = key.range.filter((name) => byName.has(name)).map((name) => byName.get(name)!);
  if (sortTests.length === 0) return { partition, test: undefined, bounds: {} };
  // the inclusive bounds of a range on the last sort-key attribute named
  const last = sortTests[sortTests.length - 1]!;
  const attribute = attributeOf(last);
  const value = (operand: Resolved) => (operand.kind === 'value' ? operand.value : undefined);
  const bounds =
    last.kind === 'between'
      ? { attribute, low: value(last.low), high: value(last.high) }
      : last.kind === 'compare' && last.op === '>='
        ? { attribute, low: value(last.right) }
        : last.kind === 'compare' && last.op === '<='
          ? { attribute, high: value(last.right) }
          : {};
  return { partition, test: (item) => sortTests.every((test) => evaluateCondition(test, item)), bounds };
}
