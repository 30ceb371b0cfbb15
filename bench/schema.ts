// The benchmark model, as a ddbgen schema: users, their articles with a GSI on the name, a
// fan/follow edge, and write-sharded events for the gather benchmark.
import { defineTable, edge, entity, gsi, t } from 'ddbgen';

export default defineTable({
  name: 'Bench',
  indexes: { byName: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) },
  entities: {
    User: entity({ attributes: { id: t.string(), email: t.string(), name: t.string() }, key: { pk: 'USER#<id>', sk: 'PROFILE' } }),
    Article: entity({
      attributes: { userId: t.string(), articleId: t.string(), name: t.string(), updatedAt: t.timestamp(), views: t.number() },
      key: { pk: 'USER#<userId>', sk: 'ARTICLE#<articleId>' },
      indexes: { byName: { pk: 'NAME#<name>', sk: '<updatedAt>' } },
    }),
    Event: entity({
      attributes: { stream: t.string(), at: t.timestamp(), id: t.string() },
      key: { pk: 'STREAM#<stream>#<shard>', sk: '<at>#<id>', shard: { count: 16, by: 'id' } },
    }),
  },
  edges: { Fan: edge({ types: ['User'], forward: 'FOLLOWS', inverse: 'FOLLOWED_BY' }) },
});
