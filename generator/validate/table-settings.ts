// Validates the table's settings: the time-to-live attribute (a timestamp wherever it is declared),
// point-in-time recovery, deletion protection, warm throughput, on-demand maxima and tags, against
// DynamoDB's own limits.

import type { TableDef, Throughput } from '../../dsl/ir.js';
import type { Report } from './report.js';

/** DynamoDB's tag limits (TaggingRestrictions): 50 tags, keys 1–128 and values 0–256 characters of this set. */
const MAX_TAGS = 50;
const TAG_KEY_CHARACTERS = 128;
const TAG_VALUE_CHARACTERS = 256;
const TAG_TEXT = /^[\p{L}\p{Z}\p{N}+\-=._:/]*$/u;
const RECOVERY_DAYS = { min: 1, max: 35 };

export function validateTableSettings(table: TableDef, keyAttributes: ReadonlySet<string>, report: Report): void {
  validateTtl(table, keyAttributes, report);
  const pitr = table.pointInTimeRecovery;
  if (pitr !== undefined) {
    const days: unknown = pitr.days;
    if (!(typeof days === 'number' && Number.isInteger(days) && days >= RECOVERY_DAYS.min && days <= RECOVERY_DAYS.max)) {
      report('DDB252', ['pointInTimeRecovery', 'days'], [typeof days === 'number' ? `${days}, outside ${RECOVERY_DAYS.min}–${RECOVERY_DAYS.max}` : JSON.stringify(days)]);
    }
  }
  const protection: unknown = table.deletionProtection;
  if (protection !== undefined && typeof protection !== 'boolean') report('DDB258', ['deletionProtection'], ['deletionProtection', JSON.stringify(protection), 'true or false']);
  const positive = (path: readonly string[], value: unknown) => {
    if (value === undefined) return;
    if (!(typeof value === 'number' && Number.isInteger(value) && value > 0)) report('DDB253', path, [path.join('.'), typeof value === 'number' ? String(value) : JSON.stringify(value)]);
  };
  const warm = (path: readonly string[], value: Throughput | undefined) => {
    if (value === undefined) return;
    positive([...path, 'read'], value.read);
    positive([...path, 'write'], value.write);
  };
  warm(['capacity', 'warmThroughput'], table.capacity.warmThroughput);
  for (const index of Object.values(table.indexes)) if (index.kind === 'gsi') warm(['indexes', index.name, 'warmThroughput'], index.warmThroughput);
  validateOnDemandMax(table, positive, report);
  validateTags(table.tags, report);
}

function validateTtl(table: TableDef, keyAttributes: ReadonlySet<string>, report: Report): void {
  const ttl: unknown = table.ttl;
  if (ttl === undefined) return;
  const owners = [
    ...Object.values(table.entities).map((e) => ({ name: e.name, what: e.name, path: ['entities', e.name, 'attributes'], attributes: e.attributes })),
    ...Object.values(table.edges).map((e) => ({ name: e.name, what: `edge ${e.name}`, path: ['edges', e.name, 'attributes'], attributes: e.attributes })),
  ];
  const timestamps = [...new Set(owners.flatMap((o) => Object.entries(o.attributes).filter(([, a]) => a.kind === 'timestamp').map(([name]) => name)))];
  if (typeof ttl !== 'string' || ttl === '') return report('DDB258', ['ttl'], ['ttl', JSON.stringify(ttl), 'the name of a timestamp attribute']);
  if (keyAttributes.has(ttl)) return report('DDB250', ['ttl'], [`ttl names "${ttl}", a key attribute of the table: it holds key text that ddbgen builds, not an expiry`, timestamps]);
  const declaring = owners.filter((o) => Object.hasOwn(o.attributes, ttl));
  if (!declaring.length) return report('DDB250', ['ttl'], [`ttl names "${ttl}", which no entity or edge declares, so no item would ever expire`, timestamps]);
  for (const owner of declaring) {
    const attribute = owner.attributes[ttl]!;
    if (attribute.kind !== 'timestamp') report('DDB251', [...owner.path, ttl], [owner.what, ttl, attribute.kind]);
  }
}

function validateOnDemandMax(table: TableDef, positive: (path: readonly string[], value: unknown) => void, report: Report): void {
  const max = table.onDemandMax;
  if (max === undefined) return;
  if (typeof max !== 'object' || max === null) return report('DDB258', ['onDemandMax'], ['onDemandMax', JSON.stringify(max), '{ readRequestUnits, writeRequestUnits }']);
  if (table.capacity.mode === 'provisioned') return report('DDB254', ['onDemandMax'], ['onDemandMax is declared, but the table is provisioned: its provisioned capacity is its maximum']);
  const fields = ['readRequestUnits', 'writeRequestUnits'];
  for (const field of Object.keys(max)) {
    if (!fields.includes(field)) report('DDB254', ['onDemandMax', field], [`onDemandMax has "${field}", which is not readRequestUnits or writeRequestUnits`]);
  }
  if (max.readRequestUnits === undefined && max.writeRequestUnits === undefined) report('DDB254', ['onDemandMax'], ['onDemandMax gives neither readRequestUnits nor writeRequestUnits']);
  positive(['onDemandMax', 'readRequestUnits'], max.readRequestUnits);
  positive(['onDemandMax', 'writeRequestUnits'], max.writeRequestUnits);
}

function validateTags(tags: unknown, report: Report): void {
  if (tags === undefined) return;
  if (typeof tags !== 'object' || tags === null || Array.isArray(tags)) return report('DDB258', ['tags'], ['tags', JSON.stringify(tags), "a record of strings, e.g. { team: 'search' }"]);
  const entries = Object.entries(tags);
  if (entries.length > MAX_TAGS) report('DDB257', ['tags'], [entries.length]);
  const characters = (text: string) => [...text].length;
  for (const [key, value] of entries) {
    const at = ['tags', key];
    if (key === '') report('DDB255', at, [key, 'is empty']);
    else if (characters(key) > TAG_KEY_CHARACTERS) report('DDB255', at, [key, `is ${characters(key)} characters long, above ${TAG_KEY_CHARACTERS}`]);
    else if (/^aws:/i.test(key)) report('DDB255', at, [key, 'starts with "aws:", a prefix reserved for tags AWS assigns']);
    else if (!TAG_TEXT.test(key)) report('DDB255', at, [key, `contains ${JSON.stringify(key.match(/[^\p{L}\p{Z}\p{N}+\-=._:/]/u)![0])}, which DynamoDB does not accept in tags`]);
    if (typeof value !== 'string') report('DDB256', at, [key, `is ${JSON.stringify(value)}, not a string`]);
    else if (characters(value) > TAG_VALUE_CHARACTERS) report('DDB256', at, [key, `is ${characters(value)} characters long, above ${TAG_VALUE_CHARACTERS}`]);
    else if (!TAG_TEXT.test(value)) report('DDB256', at, [key, `contains ${JSON.stringify(value.match(/[^\p{L}\p{Z}\p{N}+\-=._:/]/u)![0])}, which DynamoDB does not accept in tags`]);
  }
}
