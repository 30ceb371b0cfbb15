// The smallest useful schema, for the footprint benchmark: one entity under a table key whose
// sort key varies (so it has a query), no indexes, edges, shards, counters or rotation.
import { defineTable, entity, t } from 'ddbgen';

export default defineTable({
  name: 'Shop',
  entities: {
    Order: entity({
      attributes: { userId: t.string(), orderId: t.string(), placedAt: t.timestamp(), total: t.number() },
      key: { pk: 'User#<userId>', sk: 'Order#<placedAt>#<orderId>' },
    }),
  },
});
