// What `ddbgen pull` infers from a table's description and a sample of its items: the schema's
// entities with their key templates, attributes and index mappings, the items no entity fits, and
// the errors that stop it.

import { type PullWarning } from '../diagnostics/messages.js';
import { type InferredType } from './infer-attributes.js';
import { type Casing } from './infer-keys.js';
import type { PulledTable } from './table-description.js';

export type Item = Readonly<Record<string, unknown>>;

/** A sampled item, with the group a NoSQL Workbench facet put it in. */
export interface SampledItem {
  readonly item: Item;
  readonly facet?: string;
}

export interface InferredTemplate {
  readonly source: string;
  /** Sampled items whose key this template builds exactly. */
  readonly fits: number;
  readonly of: number;
}

export interface InferredAttribute {
  readonly property: string;
  readonly storedAs?: string;
  readonly type: InferredType;
  readonly optional: boolean;
  readonly seen: number;
  /** Items whose value is of another type than the majority's (listed as the entity's outliers). */
  readonly odd?: number;
}

export interface InferredEntity {
  readonly name: string;
  readonly items: number;
  readonly discriminator?: Readonly<Record<string, string>>;
  readonly facet?: string;
  readonly key: { readonly pk: InferredTemplate; readonly sk?: InferredTemplate };
  readonly indexes: ReadonlyArray<{ readonly index: string; readonly pk?: InferredTemplate; readonly sk?: InferredTemplate; readonly native?: true }>;
  readonly attributes: readonly InferredAttribute[];
  /** Attributes no DSL type describes: kept as they are by `passthrough: true`. */
  readonly undescribed: ReadonlyArray<{ readonly name: string; readonly reason: string; readonly seen: number }>;
  readonly notes: readonly string[];
  /** What the schema leaves out that the table has (an index): shown as warnings in the summary. */
  readonly warnings: readonly PullWarning[];
  /** The entity's items that differ from the others (a value of another type, missing from an index), by key and reason. */
  readonly outliers: readonly UnmatchedItem[];
  /** The keys of the entity's items, to list them should the entity be dropped. */
  readonly itemKeys: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

export interface UnmatchedItem {
  readonly key: Readonly<Record<string, unknown>>;
  readonly reason: string;
}

export interface InferredSchema {
  readonly table: PulledTable;
  /** The logical name: the output folder and the class. */
  readonly name: string;
  readonly delimiter: string;
  readonly keyFormat?: { readonly escape: boolean; readonly integers: 'padded' | 'plain'; readonly casing: Casing };
  /** Index names mapped natively (keyed by the items' own attributes). */
  readonly native: readonly string[];
  readonly entities: readonly InferredEntity[];
  readonly unmatched: readonly UnmatchedItem[];
  readonly sampled: number;
  /** Discriminator attributes entities were told apart by. */
  readonly discriminator: readonly string[];
  readonly notes: readonly string[];
  /** What the schema leaves out that the table has, or entities dropped: the summary shows them first. */
  readonly warnings: readonly PullWarning[];
  /** Indexes of the table the schema does not declare (an LSI keyed by the items' own attribute). */
  readonly leftOut: readonly string[];
}

/** A problem that stops inference: what was found so far, and what to do. */
export class PullError extends Error {
  readonly inferred: string;
  readonly fix: string;
  /** Its code in the catalogue (generator/diagnostics/messages.ts): DDB300 the table or model cannot be read, DDB301 nothing to infer from, DDB302 no entity fits, DDB303 the schema does not validate. */
  readonly code: PullCode;
  constructor(message: string, inferred: string, fix: string, code: PullCode = 'DDB300') {
    super(message);
    this.inferred = inferred;
    this.fix = fix;
    this.code = code;
  }
}

export type PullCode = 'DDB300' | 'DDB301' | 'DDB302' | 'DDB303';
