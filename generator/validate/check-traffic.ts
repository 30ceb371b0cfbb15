// The checks of a schema's declared traffic (rates, item sizes, hot-key shares, consistent and
// transactional reads) and of its lint settings (rules the catalogue knows, at a known severity).
// Part of validating a table (check-table.ts).

import type { AttributeDef, TableDef, Throughput, TrafficDef } from '../../dsl/ir.js';
import { lintMessages, OBSERVED_CODES } from '../diagnostics/messages.js';
import { type Report } from './report.js';

/** The rules a schema's lint settings may name: the catalogue's lint codes, less the findings on observed traffic. */
const RULE_CODES = Object.keys(lintMessages).filter((code) => !OBSERVED_CODES.has(code));

const SEVERITIES = ['off', 'info', 'warn', 'error'];

export function validateTraffic(table: TableDef, report: Report): void {
  const number = (path: readonly string[], field: string, value: number | undefined, max = Infinity) => {
    if (value === undefined) return;
    if (typeof value !== 'number') report('DDB080', path, [field, `${JSON.stringify(value)}, a ${typeof value} where a number belongs`]);
    else if (!Number.isFinite(value) || value < 0) report('DDB080', path, [field, String(value)]);
    else if (value > max) report('DDB080', path, [field, `${value}, above ${max}`]);
  };
  for (const entity of Object.values(table.entities)) {
    const traffic = entity.traffic;
    const at = ['entities', entity.name, 'traffic'];
    if (traffic) {
      for (const field of ['items', 'itemBytes', 'itemsPerKey', 'writesPerSecond', 'readsPerSecond'] as const) number([...at, field], field, traffic[field]);
      // every GSI the entity maps into is a key space of its own: synthetic and native alike
      const gsis = [...Object.keys(entity.indexes), ...Object.keys(entity.nativeIndexes ?? {})].filter((name) => table.indexes[name]?.kind === 'gsi' || table.indexes[name]?.kind === 'native-gsi');
      validateShares(traffic.hotKeyShare, at, entity.name, ['table', ...gsis], number, report);
      validateSwitches(traffic, at, report);
      if (traffic.items !== undefined && traffic.itemsPerKey !== undefined && traffic.itemsPerKey > traffic.items) {
        report('DDB080', [...at, 'itemsPerKey'], ['itemsPerKey', `${traffic.itemsPerKey}, more than items (${traffic.items})`]);
      }
    }
    for (const [name, attribute] of Object.entries(entity.attributes)) validateMaxItems(name, attribute, ['entities', entity.name, 'attributes', name], report);
    validateLintConfig(entity.lint, ['entities', entity.name, 'lint'], report);
  }
  for (const edge of Object.values(table.edges)) {
    if (!edge.traffic) continue;
    const at = ['edges', edge.name, 'traffic'];
    for (const field of ['writesPerSecond', 'readsPerSecond'] as const) number([...at, field], field, edge.traffic[field]);
    validateShares(edge.traffic.hotKeyShare, at, `edge ${edge.name}`, ['forward', 'inverse'], number, report);
    validateSwitches(edge.traffic, at, report);
  }
  for (const pattern of Object.values(table.patterns)) {
    number(['patterns', pattern.name, 'readsPerSecond'], 'readsPerSecond', pattern.readsPerSecond);
    number(['patterns', pattern.name, 'writesPerSecond'], 'writesPerSecond', pattern.writesPerSecond);
    validateSwitches(pattern, ['patterns', pattern.name], report);
    const index = pattern.index === undefined ? undefined : table.indexes[pattern.index];
    if (pattern.consistent === true && index?.kind === 'gsi') report('DDB192', ['patterns', pattern.name, 'consistent'], [pattern.name, index.name]);
  }
  const throughput = (path: readonly string[], value: Throughput | undefined) => {
    if (value === undefined) return;
    number([...path, 'read'], `${path.join('.')}.read`, value.read);
    number([...path, 'write'], `${path.join('.')}.write`, value.write);
  };
  if (table.capacity.mode === 'provisioned') {
    number(['capacity', 'read'], 'capacity.read', table.capacity.read);
    number(['capacity', 'write'], 'capacity.write', table.capacity.write);
  }
  for (const index of Object.values(table.indexes)) {
    if (index.kind === 'lsi') continue;
    if (index.capacity !== undefined && table.capacity.mode !== 'provisioned') report('DDB194', ['indexes', index.name, 'capacity'], [index.name]);
    throughput(['indexes', index.name, 'capacity'], index.capacity);
  }
  validateLintConfig(table.lint, ['lint'], report);
}

type NumberCheck = (path: readonly string[], field: string, value: number | undefined, max?: number) => void;

/** hotKeyShare: a fraction, or a record of fractions naming the owner's key spaces. */
function validateShares(share: TrafficDef['hotKeyShare'], at: readonly string[], owner: string, spaces: readonly string[], number: NumberCheck, report: Report): void {
  if (share === undefined) return;
  if (typeof share !== 'object' || share === null) return number([...at, 'hotKeyShare'], 'hotKeyShare', share as number, 1);
  for (const [space, value] of Object.entries(share)) {
    if (!spaces.includes(space)) report('DDB190', [...at, 'hotKeyShare', space], [owner, space, spaces]);
    else number([...at, 'hotKeyShare', space], `hotKeyShare.${space}`, value, 1);
  }
}

/** consistent and transactional are true or false. */
function validateSwitches(owner: { readonly consistent?: boolean; readonly transactional?: boolean }, at: readonly string[], report: Report): void {
  for (const field of ['consistent', 'transactional'] as const) {
    const value: unknown = owner[field];
    if (value !== undefined && typeof value !== 'boolean') report('DDB191', [...at, field], [field, JSON.stringify(value)]);
  }
}

/** A list's maxItems (also inside lists and maps) is a positive integer. */
function validateMaxItems(name: string, attribute: AttributeDef, path: readonly string[], report: Report): void {
  if (attribute.kind === 'list') {
    const max: unknown = attribute.maxItems;
    if (max !== undefined && !(typeof max === 'number' && Number.isInteger(max) && max > 0)) report('DDB193', [...path, 'maxItems'], [name, JSON.stringify(max)]);
    validateMaxItems(name, attribute.of, path, report);
  } else if (attribute.kind === 'map') {
    for (const [field, def] of Object.entries(attribute.fields)) validateMaxItems(`${name}.${field}`, def, path, report);
  }
}

function validateLintConfig(config: Readonly<Record<string, string>> | undefined, path: readonly string[], report: Report): void {
  for (const [rule, severity] of Object.entries(config ?? {})) {
    if (!RULE_CODES.includes(rule)) report('DDB081', [...path, rule], [`lint names rule "${rule}", which does not exist`, RULE_CODES]);
    else if (!SEVERITIES.includes(severity)) report('DDB081', [...path, rule], [`lint severity "${severity}" for ${rule} is not a severity`, SEVERITIES]);
  }
}
