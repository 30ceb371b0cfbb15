// Compile-only: the native-index API generated from fixtures/tenants.ts takes the sort attributes
// left to right — equality on the leading ones, one range on the last given — and nothing else.
import type { TenantsTable } from '../../out/tenants/index.js';
import { gsi } from '../../dsl/index.js';

export async function allowed(db: TenantsTable): Promise<void> {
  const at = new Date();
  const partition = { tenantId: 't', region: 'eu' } as const;
  await db.order.queryByTenant(partition);
  await db.order.queryByTenant(partition, { where: { status: 'OPEN' } });
  await db.order.queryByTenant(partition, { where: { status: { gt: 'OPEN' } } });
  await db.order.queryByTenant(partition, { where: { status: { between: ['OPEN', 'PAID'] } } });
  await db.order.queryByTenant(partition, { where: { status: { beginsWith: 'SH' } } });
  await db.order.queryByTenant(partition, { where: { status: 'OPEN', createdAt: at } });
  await db.order.queryByTenant(partition, { where: { status: 'OPEN', createdAt: { gte: at } }, order: 'desc', limit: 10 });
  await db.order.queryByTenant(partition, { where: { status: 'OPEN', createdAt: { between: [at, at] } } });
  await db.order.queryByTenant(partition, { where: { status: 'OPEN', createdAt: { beginsWith: '2026-01' } } });
  await db.order.queryByTotal({ tenantId: 't' }, { where: { total: { lt: 100 } } });
  await db.invoice.queryByTenant({ orgId: 'o', region: 'us' }, { where: { state: 'PAID', issuedAt: { lte: at } } });
  const projected = await db.order.queryByTotal({ tenantId: 't' });
  const total: number | undefined = projected.items[0]?.total;
  void total;
}

export async function forbidden(db: TenantsTable): Promise<void> {
  const at = new Date();
  const partition = { tenantId: 't', region: 'eu' } as const;
  // @ts-expect-error: every partition attribute is needed (region missing)
  await db.order.queryByTenant({ tenantId: 't' });
  // @ts-expect-error: a sort condition cannot skip status to reach createdAt
  await db.order.queryByTenant(partition, { where: { createdAt: at } });
  // @ts-expect-error: a range only on the last attribute given: status is followed by createdAt
  await db.order.queryByTenant(partition, { where: { status: { gt: 'OPEN' }, createdAt: at } });
  // @ts-expect-error: one range per condition
  await db.order.queryByTenant(partition, { where: { status: 'OPEN', createdAt: { gt: at, lt: at } } });
  // @ts-expect-error: beginsWith is text: not on a number
  await db.order.queryByTotal({ tenantId: 't' }, { where: { total: { beginsWith: '1' } } });
  // @ts-expect-error: values are typed (createdAt is a Date)
  await db.order.queryByTenant(partition, { where: { status: 'OPEN', createdAt: { gte: '2026-01-01' } } });
  // @ts-expect-error: the renamed entity queries by its own attribute names (orgId, not tenantId)
  await db.invoice.queryByTenant({ tenantId: 't', region: 'us' });
  // @ts-expect-error: GSIs have no consistent reads
  await db.order.queryByTenant(partition, { consistent: true });
  const projected = await db.order.queryByTotal({ tenantId: 't' });
  // @ts-expect-error: a keys-only native index does not hold createdAt
  void projected.items[0]?.createdAt;
}

// @ts-expect-error: a native key lists attribute names; at least one in pk
gsi({ pk: [], sk: ['a'] });
