// What `ddbgen pull` reads of a table besides its items: keys, indexes, capacity and settings, from
// DescribeTable, DescribeTimeToLive, DescribeContinuousBackups and ListTagsOfResource (or from a
// NoSQL Workbench model). Plain data, so inference and rendering never touch the SDK.

import type { Projection, StreamViewType } from '../../dsl/ir.js';

export type ScalarType = 'S' | 'N' | 'B';

export interface KeyAttribute {
  readonly name: string;
  readonly type: ScalarType;
}

export interface PulledIndex {
  readonly kind: 'gsi' | 'lsi';
  readonly name: string;
  /** Partition-key attributes, in key order (a GSI may have up to 4; an LSI has the table's). */
  readonly pk: readonly KeyAttribute[];
  readonly sk: readonly KeyAttribute[];
  readonly projection: Projection;
  readonly capacity?: { readonly read: number; readonly write: number };
}

export interface PulledTable {
  /** The physical table name. */
  readonly name: string;
  readonly pk: KeyAttribute;
  readonly sk?: KeyAttribute;
  readonly indexes: readonly PulledIndex[];
  readonly capacity: { readonly mode: 'on-demand' } | { readonly mode: 'provisioned'; readonly read: number; readonly write: number };
  readonly ttl?: string;
  readonly stream?: StreamViewType;
  /** Point-in-time recovery is on (its window in days, when DynamoDB reports one). */
  readonly pointInTimeRecovery?: { readonly days?: number };
  readonly deletionProtection?: boolean;
  readonly tags?: Readonly<Record<string, string>>;
  /** DynamoDB's approximate item count (updated about every six hours). */
  readonly itemCount?: number;
}

const STREAM_VIEWS: Record<string, StreamViewType> = { NEW_AND_OLD_IMAGES: 'new-and-old-images', NEW_IMAGE: 'new-image', OLD_IMAGE: 'old-image', KEYS_ONLY: 'keys-only' };

interface DescribedKey {
  readonly AttributeName?: string;
  readonly KeyType?: string;
}
interface DescribedIndex {
  readonly IndexName?: string;
  readonly KeySchema?: readonly DescribedKey[];
  readonly Projection?: { readonly ProjectionType?: string; readonly NonKeyAttributes?: readonly string[] };
  readonly ProvisionedThroughput?: { readonly ReadCapacityUnits?: number; readonly WriteCapacityUnits?: number };
}

/** The subset of DescribeTable's `Table` that pull reads. */
export interface DescribedTable {
  readonly TableName?: string;
  readonly KeySchema?: readonly DescribedKey[];
  readonly AttributeDefinitions?: ReadonlyArray<{ readonly AttributeName?: string; readonly AttributeType?: string }>;
  readonly GlobalSecondaryIndexes?: readonly DescribedIndex[];
  readonly LocalSecondaryIndexes?: readonly DescribedIndex[];
  readonly BillingModeSummary?: { readonly BillingMode?: string };
  readonly ProvisionedThroughput?: { readonly ReadCapacityUnits?: number; readonly WriteCapacityUnits?: number };
  readonly StreamSpecification?: { readonly StreamEnabled?: boolean; readonly StreamViewType?: string };
  readonly DeletionProtectionEnabled?: boolean;
  readonly ItemCount?: number;
}

function projection(p: DescribedIndex['Projection']): Projection {
  if (p?.ProjectionType === 'KEYS_ONLY') return 'keys-only';
  if (p?.ProjectionType === 'INCLUDE') return [...(p.NonKeyAttributes ?? [])];
  return 'all';
}

/** A table's description in pull's terms, from DescribeTable's output and the settings read beside it. */
export function describedTable(
  table: DescribedTable,
  settings: { readonly ttl?: string; readonly pointInTimeRecovery?: { readonly days?: number }; readonly tags?: Readonly<Record<string, string>> } = {},
): PulledTable {
  const types = new Map((table.AttributeDefinitions ?? []).map((d) => [d.AttributeName!, (d.AttributeType ?? 'S') as ScalarType]));
  const keys = (schema: readonly DescribedKey[] | undefined, type: 'HASH' | 'RANGE'): KeyAttribute[] =>
    (schema ?? []).filter((k) => k.KeyType === type).map((k) => ({ name: k.AttributeName!, type: types.get(k.AttributeName!) ?? 'S' }));
  const [pk] = keys(table.KeySchema, 'HASH');
  if (!pk) throw new Error(`table ${table.TableName} has no partition key in its description`);
  const [sk] = keys(table.KeySchema, 'RANGE');
  const throughput = (t: DescribedIndex['ProvisionedThroughput']) => (t && (t.ReadCapacityUnits ?? 0) > 0 ? { read: t.ReadCapacityUnits!, write: t.WriteCapacityUnits ?? 0 } : undefined);
  const provisioned = table.BillingModeSummary?.BillingMode !== 'PAY_PER_REQUEST' && throughput(table.ProvisionedThroughput);
  const index = (kind: 'gsi' | 'lsi') => (i: DescribedIndex): PulledIndex => {
    const capacity = kind === 'gsi' && provisioned ? throughput(i.ProvisionedThroughput) : undefined;
    return { kind, name: i.IndexName!, pk: keys(i.KeySchema, 'HASH'), sk: keys(i.KeySchema, 'RANGE'), projection: projection(i.Projection), ...(capacity ? { capacity } : {}) };
  };
  const view = table.StreamSpecification?.StreamEnabled ? STREAM_VIEWS[table.StreamSpecification.StreamViewType ?? ''] : undefined;
  return {
    name: table.TableName!,
    pk,
    ...(sk ? { sk } : {}),
    indexes: [...(table.GlobalSecondaryIndexes ?? []).map(index('gsi')), ...(table.LocalSecondaryIndexes ?? []).map(index('lsi'))],
    capacity: provisioned ? { mode: 'provisioned', ...provisioned } : { mode: 'on-demand' },
    ...(settings.ttl ? { ttl: settings.ttl } : {}),
    ...(view ? { stream: view } : {}),
    ...(settings.pointInTimeRecovery ? { pointInTimeRecovery: settings.pointInTimeRecovery } : {}),
    ...(table.DeletionProtectionEnabled ? { deletionProtection: true } : {}),
    ...(settings.tags && Object.keys(settings.tags).length ? { tags: settings.tags } : {}),
    ...(table.ItemCount !== undefined ? { itemCount: table.ItemCount } : {}),
  };
}
