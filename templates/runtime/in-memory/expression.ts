// DynamoDB's expression language for the in-memory table (table.ts): expressions parsed
// (expression-parser.ts: key conditions, condition and filter expressions, update expressions,
// projections) are resolved against the request's aliases here and evaluated against an item, and
// projected (updates are applied in expression-updates.ts), with DynamoDB's semantics and messages: comparisons of different types are
// false (`<>` true), a missing attribute fails every test but `<>` and attribute_not_exists,
// functions and operators refuse operands of the wrong type, update operands are read from the item
// as it was, `ADD` and `DELETE` work on numbers and sets, overlapping paths are refused.

import {
  addDecimal,
  compareScalars,
  copyValue,
  equalValues,
  formatDecimal,
  givenText,
  negateDecimal,
  parseDecimal,
  typeOf,
  validation,
  type AttributeMap,
  type AttributeValue,
  type ValueType,
} from './value.js';
import type { Comparator, Condition, ConditionOf, ExpressionKind, Operand, Path, PathPart } from './expression-parser.js';

/** The aliases a request defines, and which of them its expressions used. */
export class Aliases {
  readonly names: Readonly<Record<string, string>>;
  readonly values: Readonly<Record<string, AttributeValue>>;
  readonly usedNames = new Set<string>();
  readonly usedValues = new Set<string>();
  constructor(names: Readonly<Record<string, string>> | undefined, values: Readonly<Record<string, AttributeValue>> | undefined) {
    this.names = names ?? {};
    this.values = values ?? {};
  }

  /** Throws DynamoDB's error for an alias defined but not used by any expression of the request. */
  checkAllUsed(): void {
    const unusedValues = Object.keys(this.values).filter((alias) => !this.usedValues.has(alias));
    if (unusedValues.length) throw validation(`Value provided in ExpressionAttributeValues unused in expressions: keys: {${unusedValues.join(', ')}}`);
    const unusedNames = Object.keys(this.names).filter((alias) => !this.usedNames.has(alias));
    if (unusedNames.length) throw validation(`Value provided in ExpressionAttributeNames unused in expressions: keys: {${unusedNames.join(', ')}}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Resolving aliases.

/** A path with its aliases replaced by the names they stand for. */
export function resolvePath(path: Path, aliases: Aliases, kind: ExpressionKind): string[] | PathPart[] {
  return path.parts.map((part) => {
    if (typeof part === 'number' || !part.startsWith('#')) return part;
    const name = aliases.names[part];
    if (name === undefined) throw validation(`Invalid ${kind}: An expression attribute name used in the document path is not defined; attribute name: ${part}`);
    aliases.usedNames.add(part);
    return name;
  });
}

function resolveValue(alias: string, aliases: Aliases, kind: ExpressionKind): AttributeValue {
  const value = aliases.values[alias];
  if (value === undefined) throw validation(`Invalid ${kind}: An expression attribute value used in expression is not defined; attribute value: ${alias}`);
  aliases.usedValues.add(alias);
  return value;
}

/** An operand with its aliases resolved. */
export type Resolved =
  | { readonly kind: 'path'; readonly parts: readonly PathPart[] }
  | { readonly kind: 'value'; readonly value: AttributeValue }
  | { readonly kind: 'size'; readonly path: Resolved }
  | { readonly kind: 'if_not_exists'; readonly parts: readonly PathPart[]; readonly fallback: Resolved }
  | { readonly kind: 'list_append'; readonly first: Resolved; readonly second: Resolved }
  | { readonly kind: 'arithmetic'; readonly op: '+' | '-'; readonly left: Resolved; readonly right: Resolved };

export type ResolvedCondition = ConditionOf<Resolved>;

export const TYPE_NAMES: Record<ValueType, string> = { S: 'STRING', N: 'NUMBER', B: 'BINARY', BOOL: 'BOOLEAN', NULL: 'NULL', SS: 'SS', NS: 'NS', BS: 'BS', L: 'LIST', M: 'MAP' };

export function resolveOperand(operand: Operand, aliases: Aliases, kind: ExpressionKind): Resolved {
  switch (operand.kind) {
    case 'path':
      return { kind: 'path', parts: resolvePath(operand, aliases, kind) };
    case 'value':
      return { kind: 'value', value: resolveValue(operand.alias, aliases, kind) };
    case 'size':
      return { kind: 'size', path: resolveOperand(operand.path, aliases, kind) };
    case 'if_not_exists':
      return { kind: 'if_not_exists', parts: resolvePath(operand.path, aliases, kind), fallback: resolveOperand(operand.fallback, aliases, kind) };
    case 'list_append': {
      const first = resolveOperand(operand.first, aliases, kind);
      const second = resolveOperand(operand.second, aliases, kind);
      for (const side of [first, second]) if (side.kind === 'value' && typeOf(side.value) !== 'L') throw operandType(kind, 'list_append', typeOf(side.value));
      return { kind: 'list_append', first, second };
    }
    case 'arithmetic': {
      const left = resolveOperand(operand.left, aliases, kind);
      const right = resolveOperand(operand.right, aliases, kind);
      for (const side of [left, right]) if (side.kind === 'value' && typeOf(side.value) !== 'N') throw operandType(kind, operand.op, typeOf(side.value));
      return { kind: 'arithmetic', op: operand.op, left, right };
    }
  }
}

const operandType = (kind: ExpressionKind, fn: string, type: ValueType) => validation(`Invalid ${kind}: Incorrect operand type for operator or function; operator or function: ${fn}, operand type: ${type}`);

const ATTRIBUTE_TYPES = ['S', 'SS', 'N', 'NS', 'B', 'BS', 'BOOL', 'NULL', 'L', 'M'];

/** A condition with its aliases resolved, and the checks DynamoDB makes before reading the item (operand types of values, BETWEEN bounds). */
export function resolveCondition(condition: Condition, aliases: Aliases, kind: ExpressionKind): ResolvedCondition {
  const operand = (o: Operand) => resolveOperand(o, aliases, kind);
  switch (condition.kind) {
    case 'and':
    case 'or':
      return { kind: condition.kind, left: resolveCondition(condition.left, aliases, kind), right: resolveCondition(condition.right, aliases, kind) };
    case 'not':
      return { kind: 'not', inner: resolveCondition(condition.inner, aliases, kind) };
    case 'compare': {
      const left = operand(condition.left);
      const right = operand(condition.right);
      if (condition.op !== '=' && condition.op !== '<>') {
        for (const side of [left, right]) {
          if (side.kind === 'value' && !['S', 'N', 'B'].includes(typeOf(side.value))) throw operandType(kind, condition.op, typeOf(side.value));
        }
      }
      return { kind: 'compare', op: condition.op, left, right };
    }
    case 'between': {
      const [target, low, high] = [operand(condition.operand), operand(condition.low), operand(condition.high)];
      for (const side of [target, low, high]) {
        if (side.kind === 'value' && !['S', 'N', 'B'].includes(typeOf(side.value))) throw operandType(kind, 'BETWEEN', typeOf(side.value));
      }
      if (low.kind === 'value' && high.kind === 'value') {
        const lowType = typeOf(low.value);
        if (lowType !== typeOf(high.value)) {
          throw validation(`Invalid ${kind}: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: ${describeValue(low.value)}, upper bound operand: AttributeValue: ${describeValue(high.value)}`);
        }
        if (compareScalars(low.value, high.value) > 0) {
          throw validation(`Invalid ${kind}: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: ${describeValue(low.value)}, upper bound operand: AttributeValue: ${describeValue(high.value)}`);
        }
      }
      return { kind: 'between', operand: target, low, high };
    }
    case 'in':
      return { kind: 'in', operand: operand(condition.operand), list: condition.list.map(operand) };
    case 'function': {
      const args = condition.args.map(operand);
      const second = args[1];
      if (condition.name === 'begins_with') {
        for (const side of args) if (side.kind === 'value' && !['S', 'B'].includes(typeOf(side.value))) throw operandType(kind, 'begins_with', typeOf(side.value));
      }
      if (condition.name === 'attribute_type' && second) {
        if (second.kind !== 'value' || typeOf(second.value) !== 'S') throw operandType(kind, 'attribute_type', second.kind === 'value' ? typeOf(second.value) : 'S');
        const type = (second.value as { S: string }).S;
        if (!ATTRIBUTE_TYPES.includes(type)) throw validation(`Invalid ${kind}: Invalid attribute type name found; type: ${type}, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}`);
      }
      return { kind: 'function', name: condition.name, args };
    }
  }
}

/** A value as DynamoDB's messages print it: `{N:9}`, `{S:abc}`. */
export function describeValue(value: AttributeValue): string {
  const type = typeOf(value);
  const inner = givenText(value) ?? (value as Record<string, unknown>)[type];
  return `{${type}:${typeof inner === 'string' || typeof inner === 'boolean' ? String(inner) : JSON.stringify(inner)}}`;
}

// ---------------------------------------------------------------------------------------------
// Evaluation.

/** The value at a path of an item, or undefined. */
export function valueAt(item: Readonly<AttributeMap>, parts: readonly PathPart[]): AttributeValue | undefined {
  let current: AttributeValue | undefined = item[parts[0] as string];
  for (let i = 1; i < parts.length && current !== undefined; i++) {
    const part = parts[i]!;
    if (typeof part === 'number') current = (current as { L?: AttributeValue[] }).L?.[part];
    else {
      const map = (current as { M?: AttributeMap }).M;
      current = map && Object.prototype.hasOwnProperty.call(map, part) ? map[part] : undefined;
    }
  }
  return current;
}

function sizeOf(value: AttributeValue): number | undefined {
  const v = value as Record<string, unknown>;
  if (typeof v.S === 'string') return [...(v.S as string)].length;
  if (v.B !== undefined) return (v.B as Uint8Array).length;
  for (const key of ['SS', 'NS', 'BS', 'L'] as const) if (v[key] !== undefined) return (v[key] as unknown[]).length;
  if (v.M !== undefined) return Object.keys(v.M as object).length;
  return undefined;
}

/** An operand's value against an item (undefined: absent). */
export function evaluateOperand(operand: Resolved, item: Readonly<AttributeMap>): AttributeValue | undefined {
  switch (operand.kind) {
    case 'path':
      return valueAt(item, operand.parts);
    case 'value':
      return operand.value;
    case 'size': {
      const value = evaluateOperand(operand.path, item);
      const size = value === undefined ? undefined : sizeOf(value);
      return size === undefined ? undefined : { N: String(size) };
    }
    case 'if_not_exists':
      return valueAt(item, operand.parts) ?? evaluateOperand(operand.fallback, item);
    case 'list_append': {
      const first = existing(operand.first, item);
      const second = existing(operand.second, item);
      if (typeOf(first) !== 'L' || typeOf(second) !== 'L') throw validation('An operand in the update expression has an incorrect data type');
      return { L: [...(first as { L: AttributeValue[] }).L, ...(second as { L: AttributeValue[] }).L].map(copyValue) };
    }
    case 'arithmetic': {
      const left = existing(operand.left, item);
      const right = existing(operand.right, item);
      if (typeOf(left) !== 'N' || typeOf(right) !== 'N') throw validation('An operand in the update expression has an incorrect data type');
      const b = parseDecimal((right as { N: string }).N);
      return { N: formatDecimal(addDecimal(parseDecimal((left as { N: string }).N), operand.op === '+' ? b : negateDecimal(b))) };
    }
  }
}

function existing(operand: Resolved, item: Readonly<AttributeMap>): AttributeValue {
  const value = evaluateOperand(operand, item);
  if (value === undefined) throw validation('The provided expression refers to an attribute that does not exist in the item');
  return value;
}

const isScalar = (type: ValueType) => type === 'S' || type === 'N' || type === 'B';

function compare(op: Comparator, a: AttributeValue | undefined, b: AttributeValue | undefined): boolean {
  if (a === undefined || b === undefined) return op === '<>';
  if (op === '=') return equalValues(a, b);
  if (op === '<>') return !equalValues(a, b);
  const type = typeOf(a);
  if (type !== typeOf(b) || !isScalar(type)) return false;
  const c = compareScalars(a, b);
  return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
}

function beginsWith(value: AttributeValue | undefined, prefix: AttributeValue | undefined): boolean {
  if (value === undefined || prefix === undefined) return false;
  const v = value as Record<string, unknown>;
  const p = prefix as Record<string, unknown>;
  if (typeof v.S === 'string' && typeof p.S === 'string') return (v.S as string).startsWith(p.S as string);
  if (v.B instanceof Uint8Array && p.B instanceof Uint8Array) {
    const bytes = v.B as Uint8Array;
    const start = p.B as Uint8Array;
    return start.length <= bytes.length && start.every((byte, i) => bytes[i] === byte);
  }
  return false;
}

function contains(value: AttributeValue | undefined, operand: AttributeValue | undefined): boolean {
  if (value === undefined || operand === undefined) return false;
  const v = value as Record<string, unknown>;
  const o = operand as Record<string, unknown>;
  if (typeof v.S === 'string') return typeof o.S === 'string' && (v.S as string).includes(o.S as string);
  if (v.SS !== undefined) return typeof o.S === 'string' && (v.SS as string[]).includes(o.S as string);
  if (v.NS !== undefined) return typeof o.N === 'string' && (v.NS as string[]).some((n) => equalValues({ N: n }, operand));
  if (v.BS !== undefined) return o.B !== undefined && (v.BS as Uint8Array[]).some((b) => equalValues({ B: b }, operand));
  if (v.L !== undefined) return (v.L as AttributeValue[]).some((element) => equalValues(element, operand));
  if (v.B !== undefined && o.B !== undefined) {
    const hay = v.B as Uint8Array;
    const needle = o.B as Uint8Array;
    for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((byte, j) => hay[i + j] === byte)) return true;
  }
  return false;
}

/** Whether a condition holds for an item (an absent item is an empty one). */
export function evaluateCondition(condition: ResolvedCondition, item: Readonly<AttributeMap>): boolean {
  switch (condition.kind) {
    case 'and':
      return evaluateCondition(condition.left, item) && evaluateCondition(condition.right, item);
    case 'or':
      return evaluateCondition(condition.left, item) || evaluateCondition(condition.right, item);
    case 'not':
      return !evaluateCondition(condition.inner, item);
    case 'compare':
      return compare(condition.op, evaluateOperand(condition.left, item), evaluateOperand(condition.right, item));
    case 'between': {
      const value = evaluateOperand(condition.operand, item);
      return compare('>=', value, evaluateOperand(condition.low, item)) && compare('<=', value, evaluateOperand(condition.high, item));
    }
    case 'in': {
      const value = evaluateOperand(condition.operand, item);
      return value !== undefined && condition.list.some((candidate) => compare('=', value, evaluateOperand(candidate, item)));
    }
    case 'function': {
      const [first, second] = condition.args;
      switch (condition.name) {
        case 'attribute_exists':
          return evaluateOperand(first!, item) !== undefined;
        case 'attribute_not_exists':
          return evaluateOperand(first!, item) === undefined;
        case 'attribute_type': {
          const value = evaluateOperand(first!, item);
          return value !== undefined && typeOf(value) === (evaluateOperand(second!, item) as { S: string }).S;
        }
        case 'begins_with':
          return beginsWith(evaluateOperand(first!, item), evaluateOperand(second!, item));
        default:
          return contains(evaluateOperand(first!, item), evaluateOperand(second!, item));
      }
    }
  }
}

const printPath = (parts: readonly PathPart[]) => `[${parts.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join(', ')}]`;

// ---------------------------------------------------------------------------------------------
// Projections.

/** Throws DynamoDB's error when two paths of one expression overlap (one is the other or inside it). */
export function checkOverlap(kind: ExpressionKind, paths: readonly (readonly PathPart[])[]): void {
  for (let i = 0; i < paths.length; i++) {
    for (let j = 0; j < i; j++) {
      const [a, b] = [paths[j]!, paths[i]!];
      const n = Math.min(a.length, b.length);
      if (a.slice(0, n).every((part, k) => part === b[k])) {
        throw validation(`Invalid ${kind}: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: ${printPath(a)}, path two: ${printPath(b)}`);
      }
    }
  }
}

interface Selection {
  whole: boolean;
  readonly children: Map<PathPart, Selection>;
}

function pick(source: AttributeValue, selection: Selection): AttributeValue {
  if (selection.whole) return copyValue(source);
  const map = (source as { M?: AttributeMap }).M;
  if (map) {
    const out: AttributeMap = {};
    for (const [name, child] of selection.children) out[name as string] = pick(map[name as string]!, child);
    return { M: out };
  }
  const list = (source as { L: AttributeValue[] }).L;
  return { L: [...selection.children.keys()].sort((a, b) => (a as number) - (b as number)).map((index) => pick(list[index as number]!, selection.children.get(index)!)) };
}

/** The parts of an item a projection names, nested as in the item; list elements kept in index order. */
export function project(item: Readonly<AttributeMap>, paths: readonly (readonly PathPart[])[]): AttributeMap {
  const root: Selection = { whole: false, children: new Map() };
  for (const parts of paths) {
    if (valueAt(item, parts) === undefined) continue;
    let node = root;
    for (const part of parts) {
      let child = node.children.get(part);
      if (!child) node.children.set(part, (child = { whole: false, children: new Map() }));
      node = child;
    }
    node.whole = true;
  }
  return (pick({ M: item as AttributeMap }, root) as { M: AttributeMap }).M;
}
