// "Did you mean": the candidate nearest a mistyped word, for the command line's usage errors and
// the editor's quick fix that renames a placeholder to the closest attribute.

/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment), for "did you mean". */
export function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate closest to `word` when it is close enough to be a slip (a third of its length or less, at least 1). */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const ranked = candidates.map((c) => ({ c, d: distance(word.toLowerCase(), c.toLowerCase()) })).sort((x, y) => x.d - y.d);
  const best = ranked[0];
  return best && best.d <= Math.max(1, Math.floor(word.length / 3)) ? best.c : undefined;
}
