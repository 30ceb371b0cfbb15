// Writes an inferred schema as a DSL module: the table as described, each entity with its key
// templates, index mappings and attributes, and on every inference a comment saying how much of the
// sample it covers. The header carries a hash of the text below it, so a later pull can tell a file
// it wrote from one the user edited.

import { createHash } from 'node:crypto';
import { typeSource } from './infer-attributes.js';
import type { InferredEntity, InferredSchema, InferredTemplate } from './inferred-schema.js';

/** Where a pulled module's own hash is written (the first line that starts so). */
export const HASH_MARK = '// ddbgen pull: sha256 ';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A string literal in single quotes, every character that is not printable ASCII escaped. */
export function quote(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&').replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}

const key = (name: string) => (IDENTIFIER.test(name) ? name : quote(name));
/**
 * The declared name of an index: its DynamoDB name when ddbgen can name methods after it, else a
 * camelCase one (`gsi1pk-gsi1sk-index` → `gsi1pkGsi1skIndex`), the DynamoDB name kept as indexName.
 */
export function indexKey(name: string): string {
  if (/^[A-Za-z][A-Za-z0-9_]{2,254}$/.test(name)) return name;
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const camel = words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  return /^[A-Za-z]/.test(camel) && camel.length >= 3 ? camel : `index${camel.charAt(0).toUpperCase()}${camel.slice(1)}`;
}
const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;
const share = (n: number, of: number) => (n === of ? `${count(n)} of ${count(of)}` : `${count(n)} of ${count(of)} (${((100 * n) / of).toFixed(1)}%)`);
const fits = (t: InferredTemplate) => `fits ${share(t.fits, t.of)} items`;
/** Text safe inside a line comment. */
const comment = (text: string) => text.replace(/[\r\n]+/g, ' ').replace(/[^\x20-\x7e]/g, '?');

function entitySource(schema: InferredSchema, entity: InferredEntity): string[] {
  const lines: string[] = [];
  const told = entity.discriminator
    ? `, told apart by ${Object.entries(entity.discriminator).map(([a, v]) => `${a} = "${comment(v)}"`).join(', ')}`
    : entity.facet !== undefined
      ? `, from NoSQL Workbench facet "${comment(entity.facet)}"`
      : ', told apart by the shape of their keys';
  lines.push(`    // ${entity.name}: ${share(entity.items, schema.sampled)} sampled items${told}`);
  for (const warning of entity.warnings) lines.push(`    // warning ${warning.code}: ${comment(warning.message)}`);
  for (const note of entity.notes) lines.push(`    // note: ${comment(note)}`);
  if (entity.outliers.length) lines.push(`    // ${plural(entity.outliers.length, 'item differs', 'items differ')} from the others (a value of another type, not in an index): listed in the pull report`);
  lines.push(`    ${entity.name}: entity({`, '      attributes: {');
  for (const a of entity.attributes) {
    const source = `${typeSource(a.type, '        ')}${a.storedAs !== undefined ? `.storedAs(${quote(a.storedAs)})` : ''}${a.optional ? '.optional()' : ''}`;
    lines.push(`        ${key(a.property)}: ${source}, // in ${share(a.seen, entity.items)} items${a.odd ? `; ${plural(a.odd, 'holds', 'hold')} another type (outliers, in the pull report)` : ''}`);
  }
  lines.push('      },');
  const { pk, sk } = entity.key;
  lines.push(`      // pk ${fits(pk)}${sk ? `; sk ${fits(sk)}` : ''}`);
  lines.push(`      key: { pk: ${quote(pk.source)}${sk ? `, sk: ${quote(sk.source)}` : ''} },`);
  if (entity.indexes.length) {
    lines.push('      indexes: {');
    for (const m of entity.indexes) {
      if (m.native) lines.push(`        ${indexKey(m.index)}: {}, // keyed by the items' own attributes`);
      else {
        const coverage = m.pk ?? m.sk!;
        lines.push(`        ${indexKey(m.index)}: { ${[m.pk ? `pk: ${quote(m.pk.source)}` : '', m.sk ? `sk: ${quote(m.sk.source)}` : ''].filter(Boolean).join(', ')} }, // ${fits(coverage)}`);
      }
    }
    lines.push('      },');
  }
  if (entity.discriminator) lines.push(`      discriminator: { ${Object.entries(entity.discriminator).map(([a, v]) => `${key(a)}: ${quote(v)}`).join(', ')} },`);
  if (entity.undescribed.length) {
    for (const u of entity.undescribed) lines.push(`      // ${comment(u.name)} (in ${share(u.seen, entity.items)} items) is kept as stored: ${comment(u.reason)}`);
    lines.push('      passthrough: true,');
  }
  lines.push('    }),');
  return lines;
}

/** The schema module's text, its hash line included. */
export function renderSchema(schema: InferredSchema, source: string): string {
  const { table } = schema;
  const body: string[] = [];
  const uses = new Set(['defineTable', 'entity', 't', ...(table.indexes.some((i) => i.kind === 'gsi') ? ['gsi'] : []), ...(table.indexes.some((i) => i.kind === 'lsi' && !schema.leftOut.includes(i.name)) ? ['lsi'] : [])]);
  body.push(`import { ${[...uses].sort().join(', ')} } from 'ddbgen';`, '', 'export default defineTable({');
  body.push(`  name: ${quote(schema.name)},${schema.name === table.name ? '' : ` // the physical table is ${quote(table.name)}: new ${schema.name}Table(client, { tableName: ${quote(table.name)} })`}`);
  body.push(`  key: { pk: ${quote(table.pk.name)}${table.sk ? `, sk: ${quote(table.sk.name)}` : ''} },`);
  body.push(`  delimiter: ${quote(schema.delimiter)},`);
  if (schema.keyFormat) {
    const f = schema.keyFormat;
    body.push(`  // keys as the items store them (ddbgen lint names each guarantee this gives up)`);
    body.push(`  keyFormat: { escape: ${f.escape}, integers: ${quote(f.integers)}, casing: ${quote(f.casing)} },`);
  }
  body.push(`  capacity: ${table.capacity.mode === 'on-demand' ? "{ mode: 'on-demand' }" : `{ mode: 'provisioned', read: ${table.capacity.read}, write: ${table.capacity.write} }`},`);
  const indexes = table.indexes.filter((i) => !schema.leftOut.includes(i.name));
  if (indexes.length) {
    body.push('  indexes: {');
    for (const index of indexes) {
      const declared = indexKey(index.name);
      const physical = declared === index.name ? '' : `, indexName: ${quote(index.name)}`;
      const projection = Array.isArray(index.projection) ? `[${index.projection.map(quote).join(', ')}]` : quote(index.projection as string);
      const capacity = index.capacity ? `, capacity: { read: ${index.capacity.read}, write: ${index.capacity.write} }` : '';
      if (schema.native.includes(index.name)) {
        body.push(`    ${declared}: gsi({ pk: [${index.pk.map((a) => quote(a.name)).join(', ')}]${index.sk.length ? `, sk: [${index.sk.map((a) => quote(a.name)).join(', ')}]` : ''}, projection: ${projection}${capacity}${physical} }),`);
      } else if (index.kind === 'gsi') {
        body.push(`    ${declared}: gsi({ pk: ${quote(index.pk[0]!.name)}${index.sk[0] ? `, sk: ${quote(index.sk[0].name)}` : ''}, projection: ${projection}${capacity}${physical} }),`);
      } else body.push(`    ${declared}: lsi({ sk: ${quote(index.sk[0]!.name)}, projection: ${projection}${physical} }),`);
    }
    body.push('  },');
  }
  if (table.ttl) body.push(`  ttl: ${quote(table.ttl)},`);
  if (table.stream) body.push(`  stream: ${quote(table.stream)},`);
  if (table.pointInTimeRecovery) body.push(`  pointInTimeRecovery: { days: ${table.pointInTimeRecovery.days ?? 35} },`);
  if (table.deletionProtection) body.push('  deletionProtection: true,');
  if (table.tags) body.push(`  tags: { ${Object.entries(table.tags).map(([k, v]) => `${key(k)}: ${quote(v)}`).join(', ')} },`);
  body.push('  entities: {');
  for (const entity of schema.entities) body.push(...entitySource(schema, entity));
  body.push('  },', '});', '');
  const text = body.join('\n');
  const covered = schema.entities.reduce((n, e) => n + e.items, 0);
  const outliers = schema.entities.reduce((n, e) => n + e.outliers.length, 0);
  const header = [
    `// Pulled by ddbgen pull from ${comment(source)}: ${plural(schema.sampled, 'item', 'items')} sampled${table.itemCount !== undefined ? ` of about ${count(table.itemCount)}` : ''}.`,
    `// ${plural(schema.entities.length, 'entity', 'entities')} ${schema.entities.length === 1 ? 'covers' : 'cover'} ${share(covered, schema.sampled)} of them${schema.unmatched.length ? `; ${plural(schema.unmatched.length, 'item fits', 'items fit')} none` : ''}${outliers ? `; ${plural(outliers, 'item differs', 'items differ')} from the rest of its entity` : ''}${schema.unmatched.length || outliers ? ' (listed in the pull report)' : ''}.`,
    '// Every inference says how much of the sample it covers: review it, then run ddbgen generate.',
    ...schema.warnings.filter((w) => !schema.entities.some((e) => e.warnings.includes(w))).map((w) => `// warning ${w.code}: ${comment(w.message)}`),
    ...schema.notes.map((n) => `// note: ${comment(n)}`),
    `${HASH_MARK}${hashOf(text)} (a later pull replaces this file only while the text below is unchanged)`,
  ];
  return `${header.join('\n')}\n${text}`;
}

export const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** Whether `text` is a pulled module exactly as pull wrote it: the hash in its header is that of the text below. */
export function isUnedited(text: string): boolean {
  const at = text.indexOf(HASH_MARK);
  if (at === -1) return false;
  const end = text.indexOf('\n', at);
  const hash = text.slice(at + HASH_MARK.length, at + HASH_MARK.length + 32);
  return end !== -1 && hashOf(text.slice(end + 1)) === hash;
}
