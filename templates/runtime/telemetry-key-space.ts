// The key space a telemetry operation reports: the key TEMPLATES of the table key or index an
// entity's request uses, or of an edge's side, as the schema writes them. Templates name
// attributes, never their values.

import type { KeyCodec } from './codec.js';
import type { EntityModel } from './repository.js';

/**
 * The parts of an edge's model (edge.ts, `EdgeModel`) telemetry reads, written out here so that
 * an output without edges does not get the edge module for a type.
 */
export interface EdgeModel {
  readonly name: string;
  readonly nodes: Readonly<Record<string, unknown>>;
  readonly forward: string;
  readonly inverse?: string;
  readonly inverseIndex?: { readonly name: string; readonly pk: string; readonly sk: string };
  readonly delimiter: string;
}

type TemplateSegment = KeyCodec['def']['segments'][number];

/** A key template's text, as the schema writes it: `User.<id>`, `Candidate.<candidateId>.<shard>`, `<at:hour>`. */
export function templateText(codec: KeyCodec): string {
  const { delimiter, segments } = codec.def;
  return segments.map((s: TemplateSegment) => {
    const segment = s as { kind: string; text?: string; attr?: string; unit?: string; bucket?: boolean; prefix?: string; suffix?: string };
    if (segment.kind === 'literal') return segment.text ?? '';
    if (segment.kind === 'shard') return '<shard>';
    return `${segment.prefix ?? ''}<${segment.attr}${segment.bucket ? `:${segment.unit}` : ''}>${segment.suffix ?? ''}`;
  }).join(delimiter);
}

/** The key space of an entity's request: the table key's templates, or those of the index it names. */
export function entityKeySpace(model: EntityModel, indexName?: string): string {
  if (indexName !== undefined) {
    const index = model.indexes.find((i) => (i.indexName ?? i.name) === indexName);
    if (index) return index.kind === 'gsi' ? `${templateText(index.pk.template)}${index.sk ? ` / ${templateText(index.sk.template)}` : ''}` : `${templateText(model.pk.template)}${index.sk ? ` / ${templateText(index.sk.template)}` : ''}`;
    const native = model.nativeIndexes?.find((i) => i.name === indexName);
    if (native) return `[${native.partition.map(([attribute]) => attribute).join(', ')}]${native.sort.length ? ` / [${native.sort.map(([attribute]) => attribute).join(', ')}]` : ''}`;
    return indexName;
  }
  return `${templateText(model.pk.template)}${model.sk ? ` / ${templateText(model.sk.template)}` : ''}`;
}

/** The key space of an edge's side: `<node> / FAN_OF.<toType>.<toId>`. */
export function edgeKeySpace(model: EdgeModel, side: 'forward' | 'inverse'): string {
  const d = model.delimiter;
  if (side === 'inverse' && model.inverseIndex) return `${model.inverseIndex.pk} / ${model.inverseIndex.sk}`;
  const label = side === 'forward' ? model.forward : (model.inverse ?? model.forward);
  return `<node> / ${label}${d}<${side === 'forward' ? 'toType' : 'fromType'}>${d}<${side === 'forward' ? 'toId' : 'fromId'}>`;
}
