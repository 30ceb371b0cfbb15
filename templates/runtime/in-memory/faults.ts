// The faults the in-memory engine injects, drawn from a seeded generator so a failing test
// reproduces: the generator, and which requests of a batch a fault leaves unprocessed.

import type { Fault } from './options.js';
import type { AttributeMap } from './value.js';

/** Mulberry32: small, seeded, good enough to pick faults reproducibly. */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The requests a fault leaves unprocessed: a seeded draw of `share` of them, at least one. */
export function unprocessed<T extends { key: AttributeMap }>(draws: { random(): number }, fault: Fault | undefined, all: readonly T[]): Set<AttributeMap> {
  if (fault?.kind !== 'unprocessed' || all.length === 0) return new Set();
  const count = Math.min(all.length, Math.max(1, Math.round(all.length * (fault.share ?? 0.5))));
  const order = all.map((entry) => ({ entry, draw: draws.random() })).sort((a, b) => a.draw - b.draw);
  return new Set(order.slice(0, count).map(({ entry }) => entry.key));
}
