// Validates a table's IR and returns every problem at once. Paths are relative to the table's
// declaration; the loader turns them into file:line:column. The names the output declares are
// judged by the function given (validate-table.ts gives the full check; the loader gives the
// screen of name-rules.ts, and the full check only when the screen cannot decide), so validating
// needs neither the emitters nor the compiler. The checks by area are modules of their own:
// check-keys.ts, check-edges.ts (with key collisions), check-patterns.ts, check-traffic.ts,
// declared-names.ts, and native-indexes.ts, stored-formats.ts, table-settings.ts.

import type { TableDef } from '../../dsl/ir.js';
import type { PendingDiagnostic } from '../diagnostics/diagnostic.js';
import { messages } from '../diagnostics/messages.js';
import type { NameProblem } from './name-rules.js';
import { DYNAMODB_NAME, type Report } from './report.js';
import { validateNativeIndexes } from './native-indexes.js';
import { validateStoredFormats } from './stored-formats.js';
import { validateTableSettings } from './table-settings.js';
import { validateTraffic } from './check-traffic.js';
import { IDENTIFIER, attributeOf, validateAttributeNames } from './declared-names.js';
import { validatePatterns } from './check-patterns.js';
import { keyTemplatesOf, physicalKeyAttributes, validateKeyAttributes, validateShard, validateTemplate, validateUnits } from './check-keys.js';
import { validateCollisions, validateEdges } from './check-edges.js';

export { unprintableText } from './check-keys.js';
export { DYNAMODB_NAME, type Report } from './report.js';

const ROTATIONS: readonly string[] = ['day', 'week', 'month', 'year'];
/** DynamoDB's fixed LSI limit and default GSI quota per table. */
const MAX_LSIS = 5;
const DEFAULT_GSI_QUOTA = 20;
/** What rotation appends to a table's name at most: `_YYYY-MM-DD`, `_YYYY-Www`, `_YYYY-MM`, `_YYYY`. */
const ROTATION_EXAMPLE: Readonly<Record<string, string>> = { day: '_2024-05-06', week: '_2024-W19', month: '_2024-05', year: '_2024' };
const STREAM_VIEW_TYPES: readonly string[] = ['new-and-old-images', 'new-image', 'old-image', 'keys-only'];

export function checkTable(table: TableDef, nameProblems: (table: TableDef) => readonly NameProblem[]): PendingDiagnostic[] {
  const found: PendingDiagnostic[] = [];
  const report: Report = (code, path, args, offset, severity = 'error') => {
    const { message, fix } = (messages[code] as (...a: typeof args) => { message: string; fix: string })(...args);
    found.push({ code, severity, message, fix, target: [table.name, ...path].join('.'), path, ...(offset === undefined ? {} : { offset }) });
  };

  if (!IDENTIFIER.test(table.name)) report('DDB010', ['name'], [table.name]);
  validateTableName(table, report);
  const d = table.delimiter;
  if (!/^[!-/:-@[-`{-~]$/.test(d) || ['\\', '<', '>', '`'].includes(d)) {
    report('DDB011', ['delimiter'], [d]);
    return found; // every template was split by it: their problems would only be echoes
  }
  validateKeyAttributes(table, report);
  if (table.rotation !== undefined && !ROTATIONS.includes(table.rotation)) report('DDB108', ['rotation'], [`rotation ${JSON.stringify(table.rotation)} is not a period ddbgen rotates tables by`, ROTATIONS]);
  if (table.stream !== undefined && !STREAM_VIEW_TYPES.includes(table.stream)) report('DDB260', ['stream'], [table.stream, STREAM_VIEW_TYPES]);
  validateIndexCounts(table, report);
  validateNames(nameProblems(table), report);
  for (const index of Object.values(table.indexes)) {
    if (!/^[A-Za-z][A-Za-z0-9_]{2,254}$/.test(index.name)) report('DDB023', ['indexes', index.name], [index.name]);
  }

  const keyAttributeNames = physicalKeyAttributes(table);
  for (const entity of Object.values(table.entities)) {
    const at = ['entities', entity.name];
    if (!IDENTIFIER.test(entity.name)) report('DDB020', at, [entity.name, 'entity']);
    for (const name of Object.keys(entity.attributes)) {
      if (keyAttributeNames.has(name)) report('DDB022', [...at, 'attributes', name], [entity.name, name, name]);
    }
    if (!entity.key) {
      report('DDB103', [...at, 'key'], []);
      continue;
    }
    validateAttributeNames(entity.name, entity.attributes, [...at, 'attributes'], report);
    validateTemplate(table, entity, entity.key.pk, [...at, 'key', 'pk'], true, entity.key.shard !== undefined, report);
    if (entity.key.sk) validateTemplate(table, entity, entity.key.sk, [...at, 'key', 'sk'], true, false, report);
    if (table.key.sk !== undefined && !entity.key.sk) report('DDB036', [...at, 'key'], [`${entity.name} has no sort-key template, but the table has a sort key "${table.key.sk}"`]);
    if (table.key.sk === undefined && entity.key.sk) report('DDB036', [...at, 'key', 'sk'], [`${entity.name} has a sort-key template, but the table has no sort key`]);
    validateShard(entity, entity.key.pk, entity.key.shard, [...at, 'key'], report);
    validateUnits(entity, at, report);
    for (const mapping of Object.values(entity.indexes)) {
      const mat = [...at, 'indexes', mapping.index];
      const index = table.indexes[mapping.index];
      if (!index) {
        report('DDB050', mat, [mapping.index, Object.keys(table.indexes)]);
        continue;
      }
      if (index.kind === 'gsi' && !mapping.pk) report('DDB051', mat, [`${entity.name}'s mapping for GSI "${index.name}" has no pk template`]);
      if (index.kind === 'gsi' && index.sk !== undefined && !mapping.sk) report('DDB051', mat, [`${entity.name}'s mapping for GSI "${index.name}" has no sk template, but the index has a sort key`]);
      if (index.kind === 'gsi' && index.sk === undefined && mapping.sk) report('DDB051', [...mat, 'sk'], [`GSI "${index.name}" has no sort key, but ${entity.name}'s mapping gives one`]);
      if (index.kind === 'lsi' && mapping.pk) report('DDB051', [...mat, 'pk'], [`LSI "${index.name}" shares the table's partition key; ${entity.name}'s mapping cannot give a pk`]);
      if (index.kind === 'lsi' && !mapping.sk) report('DDB051', mat, [`${entity.name}'s mapping for LSI "${index.name}" has no sk template`]);
      if (mapping.pk) validateTemplate(table, entity, mapping.pk, [...mat, 'pk'], false, mapping.shard !== undefined, report);
      if (mapping.sk) validateTemplate(table, entity, mapping.sk, [...mat, 'sk'], false, false, report);
      if (mapping.pk) validateShard(entity, mapping.pk, mapping.shard, mat, report, mapping);
    }
    if (entity.version !== undefined) {
      const attribute = attributeOf(entity, entity.version);
      if (!attribute) report('DDB060', [...at, 'version'], [entity.version, 'is not an attribute of this entity']);
      else if (attribute.kind !== 'number' || !attribute.integer) report('DDB060', [...at, 'version'], [entity.version, `is a ${attribute.kind === 'number' ? 'non-integer number' : attribute.kind}`]);
      else if (keyTemplatesOf(entity).some((tpl) => tpl.segments.some((seg) => seg.kind === 'placeholder' && seg.name === entity.version))) {
        report('DDB060', [...at, 'version'], [entity.version, 'is part of a key template; a version changes on every write, so the item would move']);
      }
    }
  }

  validatePatterns(table, report);
  validateNativeIndexes(table, report);
  validateTraffic(table, report);
  validateEdges(table, report);
  validateTableSettings(table, keyAttributeNames, report);
  validateStoredFormats(table, keyAttributeNames, report);
  // key collisions between every entity whose primary key is sound, whatever else failed
  const unsound = new Set(found.filter((d) => d.severity !== 'info' && ((d.path[0] === 'entities' && d.path[2] === 'key') || d.path[0] === 'edges')).map((d) => `${d.path[0]}.${d.path[1]}`));
  validateCollisions(table, (owner) => !unsound.has(`${owner.path[0]}.${owner.path[1]}`), report);
  return found;
}

/** The table's physical names against DynamoDB's 3..255: the name itself, and every rotated name. */
function validateTableName(table: TableDef, report: Report): void {
  const { min, max } = DYNAMODB_NAME;
  if (table.name.length < min || table.name.length > max) report('DDB109', ['name'], [table.name, table.name.length]);
  const suffix = table.rotation === undefined ? undefined : ROTATION_EXAMPLE[table.rotation];
  if (suffix === undefined || table.name.length > max) return;
  const longest = table.name + suffix;
  if (longest.length > max) report('DDB110', ['rotation'], [table.rotation!, suffix, longest.length, max - suffix.length]);
}

function validateIndexCounts(table: TableDef, report: Report): void {
  const indexes = Object.values(table.indexes);
  const lsis = indexes.filter((i) => i.kind === 'lsi');
  const gsis = indexes.filter((i) => i.kind !== 'lsi');
  if (lsis.length > MAX_LSIS) report('DDB104', ['indexes', lsis[MAX_LSIS]!.name], [lsis.length]);
  const quota = table.gsiQuota;
  if (quota !== undefined && (typeof quota !== 'number' || !Number.isInteger(quota) || quota <= DEFAULT_GSI_QUOTA)) {
    report('DDB107', ['gsiQuota'], [`gsiQuota is ${JSON.stringify(quota)}; it declares a raised quota, so it is a whole number above ${DEFAULT_GSI_QUOTA}`]);
  }
  const allowed = typeof quota === 'number' && Number.isInteger(quota) && quota > DEFAULT_GSI_QUOTA ? quota : DEFAULT_GSI_QUOTA;
  if (gsis.length > allowed) report('DDB105', ['indexes', gsis[allowed]!.name], [gsis.length, allowed]);
}

function validateNames(problems: readonly NameProblem[], report: Report): void {
  for (const problem of problems) {
    if (problem.kind === 'reserved') report('DDB100', problem.owner.path, [problem.owner.what, problem.name]);
    else if (problem.kind === 'clash') report('DDB102', problem.owner.path, [problem.owner.what, problem.other!.what, problem.name]);
    else report('DDB101', problem.owner.path, [problem.owner.what, problem.name, problem.kind]);
  }
}
