// The key templates of an entity with what they hold, for the rules about stored key formats
// (HK024–HK026): which templates, where they are in the schema, and their value placeholders.
import type { AttributeDef, EntityDef, TableDef, TemplateDef } from '../../dsl/ir.js';
import { segmentOffset } from '../model/load-model.js';

export type Placeholder = Extract<TemplateDef['segments'][number], { kind: 'placeholder' }>;

export interface StoredKeyTemplate {
  readonly path: readonly string[];
  /** `Employee key.pk`, `Employee workplaces.sk`: how messages name it. */
  readonly where: string;
  readonly template: TemplateDef;
  readonly sort: boolean;
  /** The value placeholders and their attributes (not `<shard>`). */
  readonly values: ReadonlyArray<{ readonly segment: Placeholder; readonly attribute: AttributeDef }>;
  /** The offset of a segment in the template, for the finding's column. */
  offset(segment: Placeholder): number | undefined;
}

/** Every key template an entity declares (table key and index mappings), with its schema path; absent ones as undefined. */
export function entityKeyTemplates(entity: EntityDef): Array<[readonly string[], TemplateDef | undefined]> {
  return [
    [['entities', entity.name, 'key', 'pk'], entity.key.pk],
    [['entities', entity.name, 'key', 'sk'], entity.key.sk],
    ...Object.values(entity.indexes).flatMap((m): Array<[readonly string[], TemplateDef | undefined]> => [
      [['entities', entity.name, 'indexes', m.index, 'pk'], m.pk],
      [['entities', entity.name, 'indexes', m.index, 'sk'], m.sk],
    ]),
  ];
}

/** Every key template of an entity, with its value placeholders: each rule checks the stored format it is about (the table's keyFormat, an attribute's). */
export function storedKeyTemplates(table: TableDef, entity: EntityDef): StoredKeyTemplate[] {
  return entityKeyTemplates(entity).flatMap(([path, template]) => {
    if (!template) return [];
    const values = template.segments.flatMap((segment) => {
      if (segment.kind !== 'placeholder' || segment.name === 'shard') return [];
      const attribute = Object.prototype.hasOwnProperty.call(entity.attributes, segment.name) ? entity.attributes[segment.name] : undefined;
      return attribute ? [{ segment, attribute }] : [];
    });
    return [{ path, where: `${entity.name} ${path.slice(2).join('.')}`, template, sort: path[path.length - 1] === 'sk', values, offset: (segment: Placeholder) => segmentOffset(template, table.delimiter, (s) => s === segment) }];
  });
}
