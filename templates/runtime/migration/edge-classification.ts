// Edge items as the migration reads them: which half of which edge a stored item is, the nodes it
// joins, and the halves that move to the new schema's keys (an EdgeMove), or why it is left alone
// or skipped. The writes that move them are in edge-moves.ts.

import { KeyTemplate, splitKey } from '../codec.js';
import { itemTypeProblem } from '../declared-type.js';
import { edgeNodeTypes, type NodeType } from '../edge.js';
import type { DecodeStored, MigratedEdge, OldEdgeModel } from './plan.js';

/** The items one edge item moves: the half the scan read first, then its other half when that is a second item. */
export interface EdgeMove {
  readonly edge: string;
  readonly halves: ReadonlyArray<{ readonly old: Readonly<Record<string, unknown>>; readonly next: Readonly<Record<string, unknown>> }>;
  /**
   * The half read is the inverse one and both halves move: the forward half's scan moves them and
   * counts them, so each edge has one mover (and one count, also when a segment is taken over
   * mid-page); this half is only checked to have its forward half.
   */
  readonly follows?: true;
}

/** One version of an edge as the migration reads and builds its items: the model and each node type's templates. */
interface EdgeForm {
  readonly model: OldEdgeModel;
  readonly types: ReadonlyMap<string, NodeType>;
}

/** A node an edge item names: its type and the values of its key parts. */
interface NodeRef {
  readonly type: string;
  readonly values: Record<string, unknown>;
}

const forms = new WeakMap<MigratedEdge, { readonly old: EdgeForm; readonly next: EdgeForm }>();

function edgeForm(model: OldEdgeModel): EdgeForm {
  // the templates are rebuilt from their definitions, so the old schema's codec version comes along
  const nodes = Object.fromEntries(Object.entries(model.nodes).map(([type, key]) => [type, new KeyTemplate(key.def)]));
  return { model, types: edgeNodeTypes({ ...model, nodes, codecs: {}, attributes: [] }) };
}

function edgeForms(edge: MigratedEdge): { readonly old: EdgeForm; readonly next: EdgeForm } {
  let found = forms.get(edge);
  if (!found) forms.set(edge, (found = { old: edgeForm(edge.from), next: edgeForm(edge.to) }));
  return found;
}

function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * Reads a stored item as one half of an edge in `form`: which half (by its sort key's label), the
 * node its sort key names, and the nodes its partition key can be (every node type whose key
 * template reads it; the inverse-index sort key, when there is one, says which).
 */
function readEdgeItem(form: EdgeForm, stored: Readonly<Record<string, unknown>>): { half: 'forward' | 'inverse'; here: NodeRef[]; there: NodeRef } | 'foreign' | 'unreadable' {
  const { model, types } = form;
  const pk = stored[model.pk];
  const sk = stored[model.sk];
  if (typeof pk !== 'string' || typeof sk !== 'string') return 'foreign';
  const [label, type] = splitKey(sk, model.delimiter) ?? [];
  const half = label === model.forward ? 'forward' : label === model.inverse && !model.inverseIndex ? 'inverse' : undefined;
  if (!half) return 'foreign';
  const node = type === undefined ? undefined : types.get(type);
  const values = node && attempt(() => node[half]!.parse(sk));
  if (!values) return 'unreadable';
  let here = [...types].flatMap(([name, t]) => {
    const read = attempt(() => t.key.parse(pk));
    return read ? [{ type: name, values: read }] : [];
  });
  const indexSk = model.inverseIndex && stored[model.inverseIndex.sk];
  if (typeof indexSk === 'string') here = here.filter((n) => n.type === splitKey(indexSk, model.delimiter)?.[1]);
  return here.length ? { half, here, there: { type: type!, values } } : 'unreadable';
}

/** The keys of an edge's items in one form: the forward item, the inverse item (when it is a second item) and the forward item's inverse-index keys. */
function edgeKeys(form: EdgeForm, from: NodeRef, to: NodeRef): { forward: Record<string, string>; inverse?: Record<string, string>; index: Record<string, string> } {
  const { model, types } = form;
  const typeOf = (node: NodeRef) => {
    const found = types.get(node.type);
    if (!found) throw new Error(`"${node.type}" is not a node type of edge ${model.name} in this schema`);
    return found;
  };
  const key = (node: NodeRef) => typeOf(node).key.build(node.values);
  const link = (half: 'forward' | 'inverse', node: NodeRef) => typeOf(node)[half]!.build(node.values);
  const forward = { [model.pk]: key(from), [model.sk]: link('forward', to) };
  const inverse = model.inverse !== undefined && !model.inverseIndex ? { [model.pk]: key(to), [model.sk]: link('inverse', from) } : undefined;
  const index = model.inverseIndex && model.inverse !== undefined ? { [model.inverseIndex.pk]: key(to), [model.inverseIndex.sk]: link('inverse', from) } : {};
  // a symmetric edge's link from a node to itself is one item
  const one = inverse && inverse[model.pk] === forward[model.pk] && inverse[model.sk] === forward[model.sk];
  return { forward, ...(inverse && !one ? { inverse } : {}), index };
}

const sameKey = (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) => JSON.stringify(a) === JSON.stringify(b);

/** What an old edge item needs, given the nodes it joins: the halves that move, this one first. */
function edgeMove(edge: MigratedEdge, stored: Readonly<Record<string, unknown>>, half: 'forward' | 'inverse', from: NodeRef, to: NodeRef): EdgeMove | 'current' {
  const { old, next } = edgeForms(edge);
  const before = edgeKeys(old, from, to);
  const after = edgeKeys(next, from, to);
  const own = before[half];
  if (!own || !sameKey(own, { [old.model.pk]: stored[old.model.pk], [old.model.sk]: stored[old.model.sk] })) {
    throw new Error(`its key is not the one the old schema writes for this edge (${JSON.stringify(own)})`);
  }
  if (Boolean(before.inverse) !== Boolean(after.inverse)) throw new Error('it is stored as one item in one schema and as two in the other');
  // both halves carry the same attributes; the forward one also the inverse-index keys
  const attributes = Object.fromEntries(Object.entries(stored).filter(([name]) => !old.model.keyAttributes.includes(name) && !next.model.keyAttributes.includes(name)));
  const item = (h: 'forward' | 'inverse') => ({ old: before[h]!, next: { ...attributes, ...after[h]!, ...(h === 'forward' ? after.index : {}) } });
  const halves = [half, ...(before.inverse ? [half === 'forward' ? 'inverse' : 'forward'] as const : [])].map(item);
  if (sameKey(halves[0]!.old, { [next.model.pk]: halves[0]!.next[next.model.pk], [next.model.sk]: halves[0]!.next[next.model.sk] })) return 'current';
  const moving = halves.filter((h) => !sameKey(h.old, { [next.model.pk]: h.next[next.model.pk], [next.model.sk]: h.next[next.model.sk] }));
  return { edge: edge.name, halves: moving, ...(half === 'inverse' && moving.length === 2 ? { follows: true as const } : {}) };
}

/** Classifies a stored item against a migrated edge: undefined when it is no item of that edge. */
export function classifyEdge(edge: MigratedEdge, decode: DecodeStored, stored: Readonly<Record<string, unknown>>): { move: EdgeMove } | { leave: 'current' } | { skip: string } | undefined {
  const { old, next } = edgeForms(edge);
  const read = readEdgeItem(old, stored);
  if (typeof read === 'string') {
    const current = readEdgeItem(next, stored);
    if (typeof current !== 'string') return { leave: 'current' };
    return read === 'unreadable' || current === 'unreadable' ? { skip: `edge ${edge.name}: its keys name no node of the old schema or the new one` } : undefined;
  }
  const moves: Array<EdgeMove | 'current'> = [];
  try {
    for (const here of read.here) moves.push(edgeMove(edge, stored, read.half, read.half === 'forward' ? here : read.there, read.half === 'forward' ? read.there : here));
  } catch (error) {
    return { skip: `edge ${edge.name}: ${(error as Error).message}` };
  }
  // a partition key that several node types' templates read: only when every reading moves the same items
  if (moves.some((m) => JSON.stringify(m) !== JSON.stringify(moves[0]))) return { skip: `edge ${edge.name}: its partition key reads as a node of ${read.here.map((n) => n.type).join(' and ')}, which move it differently` };
  if (moves[0] === 'current') return { leave: 'current' };
  let problem: string | undefined;
  try {
    problem = itemTypeProblem(edge.declared, decode(edge.name, edge.from.codecs, stored, edge.from.keyAttributes));
  } catch (error) {
    problem = (error as Error).message;
  }
  return problem ? { skip: `edge ${edge.name}: ${problem}` } : { move: moves[0]! };
}
