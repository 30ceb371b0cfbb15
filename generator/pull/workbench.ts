// Reads a NoSQL Workbench data model (the JSON file Workbench exports: ModelName, and DataModel with
// one entry per table — KeyAttributes, NonKeyAttributes, GlobalSecondaryIndexes, TableFacets and
// TableData as DynamoDB attribute values) as pull's table description and sample. A facet names the
// entity of the items it holds.

import { fromAttributeValues } from '../../templates/runtime/item.js';
import { PullError, type SampledItem } from './inferred-schema.js';
import type { KeyAttribute, PulledIndex, PulledTable, ScalarType } from './table-description.js';

interface WorkbenchKey {
  readonly AttributeName?: string;
  readonly AttributeType?: string;
}
interface WorkbenchKeys {
  readonly PartitionKey?: WorkbenchKey;
  readonly SortKey?: WorkbenchKey;
}
interface WorkbenchTable {
  readonly TableName?: string;
  readonly KeyAttributes?: WorkbenchKeys;
  readonly GlobalSecondaryIndexes?: ReadonlyArray<{ readonly IndexName?: string; readonly KeyAttributes?: WorkbenchKeys; readonly Projection?: { readonly ProjectionType?: string; readonly NonKeyAttributes?: readonly string[] } }>;
  readonly TableFacets?: ReadonlyArray<{ readonly FacetName?: string; readonly TableData?: readonly Record<string, unknown>[] }>;
  readonly TableData?: readonly Record<string, unknown>[];
  readonly BillingMode?: string;
  readonly ProvisionedCapacitySettings?: { readonly ProvisionedThroughput?: { readonly ReadCapacityUnits?: number; readonly WriteCapacityUnits?: number } };
}

const scalar = (type: string | undefined): ScalarType => (type === 'N' ? 'N' : type === 'B' ? 'B' : 'S');

/** The tables of a Workbench model file's text, or a PullError saying what is wrong with it. */
export function readWorkbench(text: string, file: string): Array<{ table: PulledTable; sample: SampledItem[] }> {
  let model: { DataModel?: readonly WorkbenchTable[]; ModelName?: string };
  try {
    model = JSON.parse(text) as typeof model;
  } catch (error) {
    throw new PullError(`${file} is not JSON: ${(error as Error).message}`, 'nothing', 'export the model from NoSQL Workbench (Data modeler → Export model) and pass that file');
  }
  if (!model || !Array.isArray(model.DataModel) || model.DataModel.length === 0) {
    throw new PullError(`${file} has no DataModel tables: it is not a NoSQL Workbench data model`, 'nothing', 'export the model from NoSQL Workbench (Data modeler → Export model) and pass that file');
  }
  return model.DataModel.map((t, i) => {
    const where = `${file}: DataModel[${i}]`;
    const pk = t.KeyAttributes?.PartitionKey;
    if (!t.TableName || !pk?.AttributeName) throw new PullError(`${where} has no TableName or partition key`, 'nothing', 'give the table a name and a partition key in Workbench, then export it again');
    const key = (k: WorkbenchKey | undefined): KeyAttribute[] => (k?.AttributeName ? [{ name: k.AttributeName, type: scalar(k.AttributeType) }] : []);
    const indexes: PulledIndex[] = (t.GlobalSecondaryIndexes ?? []).map((g: NonNullable<WorkbenchTable['GlobalSecondaryIndexes']>[number]): PulledIndex => ({
      kind: 'gsi',
      name: g.IndexName ?? 'index',
      pk: key(g.KeyAttributes?.PartitionKey),
      sk: key(g.KeyAttributes?.SortKey),
      projection: g.Projection?.ProjectionType === 'KEYS_ONLY' ? 'keys-only' : g.Projection?.ProjectionType === 'INCLUDE' ? [...(g.Projection.NonKeyAttributes ?? [])] : 'all',
    }));
    const throughput = t.ProvisionedCapacitySettings?.ProvisionedThroughput;
    const table: PulledTable = {
      name: t.TableName,
      pk: key(pk)[0]!,
      ...(t.KeyAttributes?.SortKey?.AttributeName ? { sk: key(t.KeyAttributes.SortKey)[0]! } : {}),
      indexes,
      capacity: t.BillingMode === 'PROVISIONED' && throughput?.ReadCapacityUnits ? { mode: 'provisioned', read: throughput.ReadCapacityUnits, write: throughput.WriteCapacityUnits ?? 1 } : { mode: 'on-demand' },
    };
    // facets hold the items of one entity each; data outside any facet is told apart by its keys
    const sample: SampledItem[] = [];
    const seen = new Set<string>();
    for (const facet of t.TableFacets ?? []) {
      for (const data of facet.TableData ?? []) {
        seen.add(JSON.stringify(data));
        sample.push({ item: fromAttributeValues(data), ...(facet.FacetName ? { facet: facet.FacetName } : {}) });
      }
    }
    for (const data of t.TableData ?? []) if (!seen.has(JSON.stringify(data))) sample.push({ item: fromAttributeValues(data) });
    return { table, sample };
  });
}
