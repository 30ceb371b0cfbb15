// What a migration program hands the engine (its plan.ts, emitted by `ddbgen diff --emit-migration`):
// the entities and edges whose stored items move, with their old and new models, and how old items
// are decoded. The old schema's code carries its own copy of the runtime, so its models are typed
// here by shape, not by this copy's classes.

import type { KeyTemplateDef } from '../codec.js';
import type { DeclaredType } from '../declared-type.js';
import type { EdgeModel } from '../edge.js';
import type { AttributeCodecs } from '../item.js';
import type { EntityModel } from '../repository.js';

/** An old-schema key template: its definition (with its codec version), rebuilt by the migration (item-rebuild.ts) to parse stored keys. */
export interface OldKeyTemplate {
  readonly def: KeyTemplateDef;
}

/**
 * What the migration reads of an old-schema entity model. The old schema's code carries its own
 * copy of the runtime (its codec), so its models are typed by shape, not by this copy's classes.
 */
export interface OldEntityModel {
  readonly name: string;
  readonly pk: { readonly attribute: string; readonly template: OldKeyTemplate };
  readonly sk: { readonly attribute: string; readonly template: OldKeyTemplate } | undefined;
  readonly codecs: AttributeCodecs;
  readonly keyAttributes: readonly string[];
  /** Attributes the old schema stored under other names (`storedAs`). */
  readonly storedNames?: Readonly<Record<string, string>>;
  readonly discriminator?: Readonly<Record<string, string>>;
}

/** The old runtime's `fromStored`: a stored record back to an item, by the old attribute codecs. */
export type DecodeStored = (entity: string, codecs: AttributeCodecs, stored: Readonly<Record<string, unknown>>, keyAttributes: readonly string[]) => Record<string, unknown>;

/** One entity whose stored items the migration moves: `rewrite` (primary key) or `backfill` (index attributes). */
export interface MigratedEntity {
  readonly name: string;
  readonly kind: 'rewrite' | 'backfill';
  readonly from: OldEntityModel;
  readonly to: EntityModel;
  /** The new schema's attribute declarations: a stored value that does not fit is reported, never written. */
  readonly declared: Readonly<Record<string, DeclaredType>>;
}

/**
 * What the migration reads of an old-schema edge model (typed by shape, like OldEntityModel): the
 * definitions of its node key templates, carrying the old codec version, are rebuilt by the
 * migration (edge-classification.ts).
 */
export type OldEdgeModel = Pick<EdgeModel, 'name' | 'forward' | 'inverse' | 'inverseIndex' | 'delimiter' | 'pk' | 'sk' | 'keyAttributes' | 'codecs'> & {
  readonly nodes: Readonly<Record<string, { readonly def: KeyTemplateDef }>>;
};

/** An edge whose stored items move to new keys: node ids re-encoded (key codec), delimiter or labels changed. */
export interface MigratedEdge {
  readonly name: string;
  readonly from: OldEdgeModel;
  readonly to: EdgeModel;
  /** The new schema's declarations of the edge's attributes. */
  readonly declared: Readonly<Record<string, DeclaredType>>;
}

export interface MigrationPlan {
  /** Identifies this migration (its table and both schema versions): checkpoints carry it. */
  readonly id: string;
  /** The physical table name used when `--table` is not given. */
  readonly tableName: string;
  readonly entities: readonly MigratedEntity[];
  /** The old schema's other entities: their items are recognised and left alone. */
  readonly unchanged: readonly OldEntityModel[];
  /** Edges whose stored items move (both halves of each). */
  readonly edges: readonly MigratedEdge[];
  /** Sort-key prefixes of the old schema's other edges' items (`FAN_OF#`): recognised and left alone. */
  readonly edgePrefixes: readonly string[];
  /** Decodes an old item with the old schema's runtime. */
  readonly decode: DecodeStored;
  /** Default write cap in consumed WCU/s, from the capacity plan. */
  readonly maxWcu: number;
}
