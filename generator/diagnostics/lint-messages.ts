// The catalogue's hot-key lint messages (HK001–HK026, rule ids binding, DESIGN.md §5) and its
// findings on observed traffic (HK101–HK103). Part of the one catalogue messages.ts assembles.

/** The hot-key lint's messages (rule ids are binding, DESIGN.md §5). Numbers come formatted. */
/** The lint's findings on observed traffic (`ddbgen lint --observed`): in the catalogue beside the rules' codes, but no rule a schema's lint settings can name. */
export const OBSERVED_CODES: ReadonlySet<string> = new Set(['HK101', 'HK102', 'HK103']);

export const lintMessages = {
  HK001: (where: string, pk: string, load: string, fix: string) => ({
    message: `${where}: partition key "${pk}" has no placeholder, so every write goes to one key; ${load}`,
    fix,
  }),
  HK002: (where: string, pk: string, count: string, explain: string, load: string, fix: string) => ({
    message: `${where}: partition key "${pk}" takes only ${count} distinct value${count === '1' ? '' : 's'} (${explain}); ${load}`,
    fix,
  }),
  HK003: (where: string, pk: string, bucket: string, load: string, fix: string) => ({
    message: `${where}: partition key "${pk}" is a time bucket (${bucket}) without a shard: every write in a period goes to one key; ${load}`,
    fix,
  }),
  HK004: (where: string, load: string, fix: string) => ({
    message: `${where}: one item takes ${load}; a single item cannot exceed 1,000 WCU/s, even after adaptive capacity isolates it`,
    fix: `${fix}; or buffer writes through a queue or stream and apply them in batches`,
  }),
  HK005: (where: string, load: string, fix: string) => ({
    message: `${where}: one item takes ${load}; a single item cannot exceed 3,000 RCU/s`,
    fix,
  }),
  HK006: (where: string, why: string, load: string, fix: string) => ({
    message: `${where}: ${why}, so split-for-heat cannot spread its hottest collection: ${load}`,
    fix,
  }),
  HK007: (where: string, load: string, fix: string) => ({
    message: `${where}: the declared skew puts ${load}`,
    fix,
  }),
  HK008: (where: string, problem: string, fix: string) => ({
    message: `${where}: ${problem}; a throttled GSI throttles writes to the base table too`,
    fix,
  }),
  HK009: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK010: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK011: (where: string, size: string, limit: string, source: string, fix: string) => ({
    message: `${where}: items are ${size} (${source}), ${limit}`,
    fix,
  }),
  HK012: (where: string, peak: string, warm: string, doublings: number, minutes: number) => ({
    message: `${where}: declared peak ${peak} is above the ${warm} it serves at once (its warm throughput); reaching it takes ${doublings} doubling${doublings === 1 ? '' : 's'} of 30 minutes (${minutes} min) of throttling risk`,
    fix: `pre-warm it to the peak before launch (warmThroughput: { read, write } on the ${where.startsWith('GSI') ? 'gsi' : 'table capacity'}, WarmThroughput in CreateTable), or ramp traffic up over ${minutes} min`,
  }),
  HK013: (total: string) => ({
    message: `declared ${total} for the table and its GSIs is above the default quota of 40,000 per table`,
    fix: 'request a quota increase for the table before launch (Service Quotas), or spread the load over tables',
  }),
  HK014: (where: string, rate: string) => ({
    message: `${where}: ${rate} conditional (versioned) writes per second on one item will conflict; each loser retries and pays again`,
    fix: 'take the shared item out of the hot path: keep per-writer items and aggregate them, or update it with an unconditional ADD',
  }),
  HK015: (where: string, shards: number, how: string, queries: string | undefined) => ({
    message: `${where}: ${shards} shards, and ${how}: each gathered read issues ${shards} queries${queries ? ` (${queries})` : ''}`,
    fix: 'use fewer shards (N = ceil(peak WCU on one key / (1,000 × 0.8)) is enough), a calculated suffix (shard.by) so reads that know the item target one shard, or keep an aggregate item for the common read',
  }),
  HK016: (where: string, attribute: string) => ({
    message: `${where}: key template contains "${attribute}", which is marked pii; keys appear in metrics (Contributor Insights), logs and cursors`,
    fix: `key on a surrogate id, or on a keyed hash of "${attribute}", and keep the value itself in a non-key attribute`,
  }),
  HK017: (where: string, pk: string, load: string, fix: string) => ({
    message: `${where}: sharded key "${pk}" is still too hot: ${load}`,
    fix,
  }),
  HK018: (where: string, found: string, fix: string) => ({
    message: `${where}: ${found}`,
    fix,
  }),
  HK019: (where: string, reader: string, readerSk: string, other: string, otherSk: string, cost: string) => ({
    message: `${where}: queries on ${reader} (sort key "${readerSk}") also read the ${other} items of the same partition (sort key "${otherSk}" falls in their range): they are not returned, but DynamoDB reads and bills them: ${cost}`,
    fix: `start ${reader}'s sort key with a literal of its own (e.g. "${reader}#…") so its queries read only its items, or keep its queries to a range (where) that ${other}'s keys sort outside of`,
  }),
  HK020: (where: string, key: string, problem: string, load: string, index: string, template: string, count: number) => ({
    message: `${where}: native key (${key}) ${problem}; ${load}; a shard suffix cannot live in a native key`,
    fix: `keep this index synthetic so it can be sharded: ${index}: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) with the mapping { pk: '${template}', shard: { count: ${count} } } (N = ceil(peak WCU on one key / (1,000 × 0.8)), at least 2); or key the native index on a finer attribute`,
  }),
  HK021: (where: string, template: string, attributes: string, index: string, native: string) => ({
    message: `${where}: the synthetic key ${template} is a plain concatenation of whole attributes the items already store (${attributes}), so a native index could hold it with no key strings and no backfill`,
    fix: `add a native index beside it, e.g. ${index}Native: gsi(${native}), and map the entity into it by name (DynamoDB fills it from the stored attributes: no backfill); move queries to query${index.charAt(0).toUpperCase()}${index.slice(1)}Native, then remove ${index}. Keep ${index} synthetic if it will need a shard`,
  }),
  HK022: (where: string, found: string, raise: string) => ({
    message: `${where}: ${found}; requests beyond it throttle with ThrottlingException`,
    fix: `raise onDemandMax to { ${raise} } (the peak / 0.8), or remove the maximum`,
  }),
  HK023: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK024: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK025: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK026: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK101: (where: string, arithmetic: string, fix: string) => ({ message: `${where}: observed ${arithmetic}`, fix }),
  HK102: (where: string, arithmetic: string, fix: string) => ({ message: `${where}: observed ${arithmetic}`, fix }),
  HK103: (where: string, arithmetic: string, fix: string) => ({ message: `${where}: observed ${arithmetic}`, fix }),
} satisfies Record<string, (...args: never[]) => { message: string; fix: string }>;
