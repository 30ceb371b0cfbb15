// The summary every bench reports of its rounds: the median, with the lowest and highest.

export type Stats = { median: number; min: number; max: number };

/** The median (the upper of the two middle values of an even count), min and max of `values`. */
export const stats = (values: readonly number[]): Stats => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted[sorted.length - 1]! };
};

/** The median of `values`, as `stats` takes it. */
export const median = (values: readonly number[]): number => stats(values).median;
