// DynamoDB's update expressions in the in-memory table: SET, REMOVE, ADD and DELETE actions
// resolved against the key attributes they may not touch, applied to an item (document paths,
// list positions, number and set arithmetic), and the values UPDATED_OLD / UPDATED_NEW return.

import { addDecimal, copyMap, copyValue, equalValues, formatDecimal, parseDecimal, sortedSet, typeOf, validation, type AttributeMap, type AttributeValue } from './value.js';
import type { PathPart, UpdateAction } from './expression-parser.js';
import { Aliases, type Resolved, TYPE_NAMES, checkOverlap, evaluateOperand, resolveOperand, resolvePath, valueAt } from './expression.js';

// ---------------------------------------------------------------------------------------------
// Updates.

/** A resolved update action. */
export interface ResolvedAction {
  readonly clause: UpdateAction['clause'];
  readonly parts: readonly PathPart[];
  readonly value?: Resolved;
}

/** Resolves an update expression and makes DynamoDB's checks that need no item: operand types, key attributes, overlapping paths. */
export function resolveUpdate(actions: readonly UpdateAction[], aliases: Aliases, keyAttributes: readonly string[]): ResolvedAction[] {
  const resolved = actions.map((action): ResolvedAction => {
    const parts = resolvePath(action.path, aliases, 'UpdateExpression');
    const value = action.value === undefined ? undefined : resolveOperand(action.value, aliases, 'UpdateExpression');
    if ((action.clause === 'ADD' || action.clause === 'DELETE') && value?.kind === 'value') {
      const type = typeOf(value.value);
      const allowed = action.clause === 'ADD' ? ['N', 'SS', 'NS', 'BS'] : ['SS', 'NS', 'BS'];
      if (!allowed.includes(type)) throw validation(`Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ${action.clause}, operand type: ${TYPE_NAMES[type]}, typeSet: ALLOWED_FOR_${action.clause}_OPERAND`);
    }
    return value === undefined ? { clause: action.clause, parts } : { clause: action.clause, parts, value };
  });
  for (const action of resolved) {
    const top = action.parts[0] as string;
    if (keyAttributes.includes(top)) throw validation(`One or more parameter values were invalid: Cannot update attribute ${top}. This attribute is part of the key`);
  }
  checkOverlap('UpdateExpression', resolved.map((action) => action.parts));
  return resolved;
}

const invalidPath = () => validation('The document path provided in the update expression is invalid for update');

/** Sets the value at a path (creating nothing but the last step); a list index past the end appends. */
function setAt(item: AttributeMap, parts: readonly PathPart[], value: AttributeValue): void {
  if (parts.length === 1) {
    item[parts[0] as string] = value;
    return;
  }
  const parent = valueAt(item, parts.slice(0, -1));
  const last = parts[parts.length - 1]!;
  if (typeof last === 'number') {
    const list = (parent as { L?: AttributeValue[] } | undefined)?.L;
    if (!list) throw invalidPath();
    if (last < list.length) list[last] = value;
    else list.push(value);
  } else {
    const map = (parent as { M?: AttributeMap } | undefined)?.M;
    if (!map) throw invalidPath();
    map[last] = value;
  }
}

function removeAt(item: AttributeMap, parts: readonly PathPart[]): void {
  if (parts.length === 1) {
    delete item[parts[0] as string];
    return;
  }
  // the element may be missing, its list or map may not
  const parent = valueAt(item, parts.slice(0, -1));
  const last = parts[parts.length - 1]!;
  if (typeof last === 'number') {
    const list = (parent as { L?: AttributeValue[] } | undefined)?.L;
    if (!list) throw invalidPath();
    if (last < list.length) list.splice(last, 1);
  } else {
    const map = (parent as { M?: AttributeMap } | undefined)?.M;
    if (!map) throw invalidPath();
    delete map[last];
  }
}

const incorrectType = () => validation('An operand in the update expression has an incorrect data type');

function setUnion(current: AttributeValue, added: AttributeValue, remove: boolean): AttributeValue | undefined {
  const type = typeOf(current);
  if (type !== typeOf(added)) throw incorrectType();
  const key = type as 'SS' | 'NS' | 'BS';
  const have = [...((current as unknown as Record<string, unknown[]>)[key] ?? [])];
  const given = (added as unknown as Record<string, unknown[]>)[key] ?? [];
  const same = (x: unknown, y: unknown) => equalValues({ [key.slice(0, 1)]: x } as AttributeValue, { [key.slice(0, 1)]: y } as AttributeValue);
  if (remove) {
    const left = have.filter((x) => !given.some((y) => same(x, y)));
    return left.length ? ({ [key]: left } as unknown as AttributeValue) : undefined;
  }
  for (const y of given) if (!have.some((x) => same(x, y))) have.push(y);
  return sortedSet({ [key]: have } as unknown as AttributeValue);
}

/**
 * Applies an update to a copy of `old` (an absent item starts from its key) and returns the new
 * item. Every operand is read from the item as it was before the update.
 */
export function applyUpdate(actions: readonly ResolvedAction[], old: Readonly<AttributeMap>): AttributeMap {
  const item = copyMap(old);
  // as DynamoDB Local orders its checks: computed operands (arithmetic, functions) first, then
  // every path (its list or map must be there), then the plain operands as each action applies
  const computed = (value: Resolved | undefined) => value !== undefined && value.kind !== 'path' && value.kind !== 'value';
  const values = actions.map((action) => (computed(action.value) ? evaluateOperand(action.value!, old) : undefined));
  for (const action of actions) {
    if (action.parts.length < 2) continue;
    const parent = valueAt(old, action.parts.slice(0, -1));
    const last = action.parts[action.parts.length - 1];
    if (!(typeof last === 'number' ? (parent as { L?: unknown } | undefined)?.L : (parent as { M?: unknown } | undefined)?.M)) throw invalidPath();
  }
  actions.forEach((action, i) => {
    if (action.value !== undefined && !computed(action.value)) values[i] = evaluateOperand(action.value, old);
  });
  // list elements are removed from the highest index down, so earlier removals do not shift later ones
  const removals = actions.map((action, i) => ({ action, i })).filter(({ action }) => action.clause === 'REMOVE');
  removals.sort((a, b) => {
    const x = a.action.parts[a.action.parts.length - 1];
    const y = b.action.parts[b.action.parts.length - 1];
    return typeof x === 'number' && typeof y === 'number' ? y - x : 0;
  });
  actions.forEach((action, i) => {
    const value = values[i];
    switch (action.clause) {
      case 'SET':
        if (value === undefined) throw validation('The provided expression refers to an attribute that does not exist in the item');
        setAt(item, action.parts, copyValue(value));
        break;
      case 'ADD': {
        const current = valueAt(item, action.parts);
        if (current === undefined) setAt(item, action.parts, copyValue(value!));
        else if (typeOf(value!) === 'N') {
          if (typeOf(current) !== 'N') throw incorrectType();
          setAt(item, action.parts, { N: formatDecimal(addDecimal(parseDecimal((current as { N: string }).N), parseDecimal((value as { N: string }).N))) });
        } else setAt(item, action.parts, setUnion(current, value!, false)!);
        break;
      }
      case 'DELETE': {
        const current = valueAt(item, action.parts);
        if (current === undefined) break;
        if (!['SS', 'NS', 'BS'].includes(typeOf(current))) throw incorrectType();
        const left = setUnion(current, value!, true);
        if (left === undefined) removeAt(item, action.parts);
        else setAt(item, action.parts, left);
        break;
      }
      default:
        break;
    }
  });
  for (const { action } of removals) removeAt(item, action.parts);
  return item;
}

/**
 * What UPDATED_OLD / UPDATED_NEW return, as DynamoDB Local returns it: the whole top-level
 * attribute of each path the update names, when that path holds a value in `item` (the item
 * before the update, or after it).
 */
export function updatedValues(actions: readonly ResolvedAction[], item: Readonly<AttributeMap> | undefined): AttributeMap | undefined {
  if (!item) return undefined;
  const out: AttributeMap = {};
  for (const { parts } of actions) {
    const top = parts[0] as string;
    if (valueAt(item, parts) !== undefined) out[top] = copyValue(item[top]!);
  }
  return Object.keys(out).length ? out : undefined;
}
