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

export const shardByList = entity({
  attributes: { id: t.string(), at: t.timestamp({ unit: 'minute' }) },
  key: { pk: 'User#<id>#<shard>', sk: '<at>', shard: { count: 4, by: ['id', 'at'], start: 1 } },
});

export const randomShard = entity({
  attributes: { id: t.string(), n: t.number({ integer: true }) },
  key: { pk: 'Total#<id>#<shard>', sk: 'TOTAL', shard: { count: 20, random: true } },
});

export const randomShardWithBy = entity({
  attributes: { id: t.string() },
  // @ts-expect-error: a random suffix takes no by
  key: { pk: 'Total#<id>#<shard>', sk: 'TOTAL', shard: { count: 20, random: true, by: 'id' } },
});

// @ts-expect-error: only the units second, minute, hour, day and month
export const badUnit = t.timestamp({ unit: 'week' });

// @ts-expect-error: a unit belongs on a timestamp
export const unitOnString = t.string({ unit: 'day' });

// @ts-expect-error: an enum needs at least one value
export const emptyEnum = t.enum([]);
