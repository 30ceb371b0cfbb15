import { defineTable, entity, t } from 'ddbgen';

// One table, many entities: each entity's key templates decide where its items live.
// Placeholders like <id> must name attributes; numbers in keys need min and max.
export default defineTable({
  name: 'App',
  delimiter: '#',
  entities: {
    User: entity({
      attributes: {
        id: t.string(),
        email: t.string({ pii: true }),
        createdAt: t.timestamp(),
      },
      key: { pk: 'USER#<id>', sk: 'PROFILE' },
    }),
    Order: entity({
      attributes: {
        userId: t.string(),
        orderId: t.string(),
        placedAt: t.timestamp(),
        total: t.number({ min: 0, max: 1e9 }),
      },
      key: { pk: 'USER#<userId>', sk: 'ORDER#<placedAt>#<orderId>' },
    }),
  },
  patterns: {
    recentOrders: { entity: 'Order', sk: 'placedAt', op: 'gte', order: 'desc', readsPerSecond: 1 },
  },
});
