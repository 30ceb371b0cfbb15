// Compile-only: key templates are checked against the entity's attributes when the schema compiles.
// Each @ts-expect-error must see an error, or `tsc` fails ("Unused '@ts-expect-error' directive").
import { defineTable, entity, gsi, t } from 'ddbgen';

export const ok = defineTable({
  name: 'Types',
  indexes: { byDay: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) },
  entities: {
    Event: entity({
      attributes: { id: t.string(), at: t.timestamp(), kind: t.enum(['a', 'b']), n: t.number({ min: 0, max: 9, integer: true }) },
      key: { pk: 'Event#<id>', sk: 'At#<at:minute>#<n>' },
      indexes: { byDay: { pk: 'Day#<at:day>#<kind>', sk: '<at>' } },
    }),
  },
});

export const badPartitionKey = entity({
  attributes: { id: t.string() },
  // @ts-expect-error: <idd> names no attribute
  key: { pk: 'User#<idd>' },
});

export const badSortKey = entity({
  attributes: { id: t.string(), at: t.timestamp() },
  // @ts-expect-error: <when> names no attribute
  key: { pk: 'User#<id>', sk: 'At#<when>' },
});

export const badTruncation = entity({
  attributes: { id: t.string(), at: t.timestamp() },
  // @ts-expect-error: week is not a truncation unit
  key: { pk: 'User#<id>', sk: 'At#<at:week>' },
});

export const badIndexMapping = entity({
  attributes: { id: t.string(), name: t.string() },
  key: { pk: 'User#<id>' },
  // @ts-expect-error: <nam> names no attribute
  indexes: { byName: { pk: 'Name#<nam>' } },
});

export const badVersion = entity({
  attributes: { id: t.string() },
  key: { pk: 'User#<id>' },
  // @ts-expect-error: version must name an attribute
  version: 'rev',
});

export const badShardBy = entity({
  attributes: { id: t.string() },
  // @ts-expect-error: shard.by must name an attribute
  key: { pk: 'User#<id>#<shard>', shard: { count: 4, by: 'nope' } },
});

// @ts-expect-error: an enum needs at least one value
export const emptyEnum = t.enum([]);

// Declared load: a share per key space, consistent and transactional switches, bounded lists, GSI capacity and warm throughput.
export const declaredLoad = defineTable({
  name: 'Load',
  capacity: { mode: 'provisioned', read: 100, write: 100, warmThroughput: { read: 12000, write: 4000 } },
  indexes: { byKind: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', capacity: { read: 50, write: 100 }, warmThroughput: { read: 12000, write: 4000 } }) },
  entities: {
    Event: entity({
      attributes: { id: t.string(), kind: t.enum(['a', 'b']), tags: t.list(t.string({ maxBytes: 20 }), { maxItems: 10 }) },
      key: { pk: 'Event#<id>', sk: 'E' },
      indexes: { byKind: { pk: 'Kind#<kind>', sk: '<id>' } },
      traffic: { writesPerSecond: 10, hotKeyShare: { table: 0.01, byKind: 0.5 }, consistent: true, transactional: true },
    }),
  },
  patterns: { byKind: { entity: 'Event', index: 'byKind', readsPerSecond: 5, transactional: false } },
});

export const badShare = entity({
  attributes: { id: t.string() },
  key: { pk: 'E#<id>' },
  // @ts-expect-error: hotKeyShare is a number or a record of numbers
  traffic: { hotKeyShare: 'high' },
});

// @ts-expect-error: maxItems is a number
export const badMaxItems = t.list(t.string(), { maxItems: 'many' });
