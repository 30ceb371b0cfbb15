// The checks of a table's edges (labels, node types whose keys an edge can hold) and of key
// collisions between everything that owns keys in the table: entities and each half of an edge.
// Part of validating a table (check-table.ts).

import type { EdgeDef, EntityDef, TableDef } from '../../dsl/ir.js';
import type { SegmentDef } from '../../templates/runtime/codec.js';
import { keySegments } from '../model/key-segments.js';
import { type Report } from './report.js';
import { collectionText, leadingLiterals, sortKeyCanOverlap, templatesCanCollide } from './key-collisions.js';
import { IDENTIFIER } from './declared-names.js';
import { physicalKeyAttributes } from './check-keys.js';
import { validateAttributeNames } from './declared-names.js';

/**
 * Why an entity's partition key cannot be a node key (undefined when it can): a node key must be
 * one partition per node, identify one item of the entity, and give its id back exactly.
 */
function nodeKeyProblem(entity: EntityDef): string | undefined {
  const placeholders = entity.key.pk.segments.filter((s) => s.kind === 'placeholder');
  if (!placeholders.length) return 'it has no placeholder, so every node would share one partition';
  if (entity.key.shard || placeholders.some((s) => s.name === 'shard')) return 'it is write-sharded, so one node would be spread over several partitions';
  if (entity.keyFormat !== undefined) return 'its keys are written in a stored key format (keyFormat), and edges write node ids with ddbgen\'s codec';
  const truncated = placeholders.find((s) => s.truncate !== undefined);
  if (truncated) return `"${truncated.source}" truncates a timestamp, so an id would not come back exactly`;
  if (entity.key.sk?.segments.some((s) => s.kind === 'placeholder')) {
    return `its sort key "${entity.key.sk.source}" has placeholders, so the partition holds many ${entity.name} items, not one node`;
  }
  return undefined;
}

/** Something that owns keys in the table: an entity, or one half of an edge. */
interface KeyOwner {
  readonly name: string;
  readonly path: readonly string[];
  readonly describe: string;
  readonly pk: readonly SegmentDef[];
  readonly sk: readonly SegmentDef[] | undefined;
  readonly edge?: true;
}

/**
 * An edge's item shapes: for each label, each node type's partition key with sk
 * `<label>.<other type>.<other id parts>`. (Validated node types only: collisions are checked last.)
 */
export function edgeOwners(table: TableDef, edge: EdgeDef): KeyOwner[] {
  const d = table.delimiter;
  const labels = [edge.forward, ...(edge.inverse === undefined || edge.inverseIndex !== undefined ? [] : [edge.inverse])];
  // A node type that is not a sound entity is reported on its own (DDB140, DDB141); its edge has no item shape to compare.
  const nodes = edge.types.map((type) => {
    const entity = Object.hasOwn(table.entities, type) ? table.entities[type] : undefined;
    return { type, pk: entity?.key ? keySegments(entity, entity.key.pk) : undefined };
  });
  if (!nodes.every((node): node is { type: string; pk: NonNullable<typeof node.pk> } => node.pk !== undefined)) return [];
  return [...new Set(labels)].flatMap((label) =>
    nodes.flatMap((from) =>
      nodes.map((to) => ({
        name: `edge ${edge.name} (${label})`,
        path: ['edges', edge.name],
        describe: `edge ${edge.name} (${table.entities[from.type]!.key.pk.source} | ${label}${d}${to.type}${d}<id>)`,
        pk: from.pk,
        // The type is a segment of any node type: `outgoing` without a type filter reads all of `<label>.`.
        sk: [{ kind: 'literal' as const, text: label }, { kind: 'enum' as const, attr: 'type', values: edge.types }, ...to.pk.filter((s) => s.kind !== 'literal')],
        edge: true as const,
      })),
    ),
  );
}

export function validateCollisions(table: TableDef, sound: (owner: { path: readonly string[] }) => boolean, report: Report): void {
  const owners: KeyOwner[] = [
    ...Object.values(table.entities).filter((entity) => entity.key !== undefined && sound({ path: ['entities', entity.name] })).flatMap((entity) => {
      const pk = keySegments(entity, entity.key.pk, entity.key.shard);
      const sk = entity.key.sk ? keySegments(entity, entity.key.sk) : undefined;
      return pk && (sk || !entity.key.sk) ? [{ entity, pk, sk }] : [];
    }).map(({ entity, pk, sk }) => ({
      name: entity.name,
      path: ['entities', entity.name],
      describe: `${entity.name} (${entity.key.pk.source}${entity.key.sk ? ` | ${entity.key.sk.source}` : ''})`,
      pk,
      sk,
    })),
    ...Object.values(table.edges).flatMap((edge) => edgeOwners(table, edge)).filter(sound),
  ];
  // An edge has one owner per pair of node types, which may find the same problem: report it once.
  const reported = new Set<string>();
  const once: Report = (code, path, args) => {
    const id = JSON.stringify([code, path, args]);
    if (!reported.has(id)) report(code, path, args);
    reported.add(id);
  };
  for (let i = 0; i < owners.length; i++) {
    for (let j = 0; j < owners.length; j++) {
      if (i === j) continue;
      const a = owners[i]!;
      const b = owners[j]!;
      // One edge's item shapes differ by the node type written in the sort key: they never collide.
      if (a.path[0] === 'edges' && a.path.join('.') === b.path.join('.')) continue;
      if (!templatesCanCollide(a.pk, b.pk)) continue;
      if (a.sk && b.sk ? templatesCanCollide(a.sk, b.sk) : !a.sk && !b.sk) {
        if (i < j) once('DDB040', [...b.path, ...(b.path[0] === 'entities' ? ['key'] : [])], [a.name, b.name, `${a.describe} vs ${b.describe}`, table.delimiter]);
      } else if (a.sk && b.sk && (a.edge || b.edge) && sortKeyCanOverlap(a.sk, b.sk)) {
        // Entities that share a partition are told apart by their sort keys (queries skip the
        // other's items, as collections do); edge reads do not, so an overlap with an edge is an error.
        once('DDB041', [...b.path, ...(b.path[0] === 'entities' ? ['key', 'sk'] : [])], [a.name, b.name, collectionText(leadingLiterals(a.sk), table.delimiter)]);
      }
    }
  }
}

const LABEL = /^[A-Za-z][A-Za-z0-9_-]*$/;

export function validateEdges(table: TableDef, report: Report): void {
  const keyNames = physicalKeyAttributes(table);
  for (const edge of Object.values(table.edges)) {
    const at = ['edges', edge.name];
    if (!IDENTIFIER.test(edge.name)) report('DDB020', at, [edge.name, 'edge']);
    if (table.key.sk === undefined) report('DDB075', at, [`edge ${edge.name} needs a table with a sort key: its items are <type>${table.delimiter}<id> / <label>${table.delimiter}<type>${table.delimiter}<id>`]);
    if (edge.types.length === 0) report('DDB075', [...at, 'types'], [`edge ${edge.name} lists no node types`]);
    for (const type of edge.types) {
      if (!LABEL.test(type) || type.includes(table.delimiter)) report('DDB075', [...at, 'types'], [`node type "${type}" of edge ${edge.name} is not letters, digits, _ or - starting with a letter`]);
      const entity = table.entities[type];
      if (!entity) report('DDB140', [...at, 'types'], [edge.name, type, Object.keys(table.entities), table.delimiter]);
      else {
        const reason = nodeKeyProblem(entity);
        if (reason) report('DDB141', [...at, 'types'], [edge.name, type, entity.key.pk.source, reason, table.delimiter]);
      }
    }
    const nodes = edge.types.flatMap((type) => {
      const entity = table.entities[type];
      const pk = entity && !nodeKeyProblem(entity) ? keySegments(entity, entity.key.pk) : undefined;
      return entity && pk ? [{ entity, pk }] : [];
    });
    nodes.forEach((a, i) =>
      nodes.slice(i + 1).forEach((b) => {
        if (templatesCanCollide(a.pk, b.pk)) {
          report('DDB142', [...at, 'types'], [edge.name, a.entity.name, b.entity.name, `${a.entity.name} "${a.entity.key.pk.source}" vs ${b.entity.name} "${b.entity.key.pk.source}"`, table.delimiter]);
        }
      }),
    );
    for (const [field, label] of [['forward', edge.forward], ['inverse', edge.inverse]] as const) {
      if (label !== undefined && (!LABEL.test(label) || label.includes(table.delimiter))) report('DDB075', [...at, field], [`${field} label "${label}" of edge ${edge.name} is not letters, digits, _ or - starting with a letter (and no "${table.delimiter}")`]);
    }
    if (edge.inverseIndex !== undefined) {
      const index = table.indexes[edge.inverseIndex];
      if (!index || index.kind !== 'gsi' || index.sk === undefined) report('DDB075', [...at, 'inverseIndex'], [`inverseIndex "${edge.inverseIndex}" of edge ${edge.name} is not a GSI with a sort key of this table`]);
      if (edge.inverse === undefined) report('DDB075', [...at, 'inverseIndex'], [`edge ${edge.name} has an inverseIndex but no inverse label to key it by`]);
    }
    validateAttributeNames(`edge ${edge.name}`, edge.attributes, [...at, 'attributes'], report);
    for (const name of Object.keys(edge.attributes)) {
      if (name === 'type' || name === 'id' || keyNames.has(name)) report('DDB075', [...at, 'attributes', name], [`edge attribute "${name}" would clash with the ${name === 'type' || name === 'id' ? 'node fields type and id of a link' : 'table key attribute'}`]);
    }
  }
}
