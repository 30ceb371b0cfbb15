// Connected: random valid schemas (test/support/schema-space.ts) behave through their generated API
// on DynamoDB Local. For each sampled schema the output is generated and imported, the table created
// from its own definition, and a generic scenario runs for every entity: put / get round-trips (as
// stored: truncated timestamps, epoch-second TTLs, empty required sets), the table query and every
// index query return exactly the items a reference model says (sparse indexes, projections,
// native keys, shards gathered), an update reads back, a delete is gone, batches round-trip, an
// item whose TTL has passed is hidden from every read, and every stream record decodes to what was
// written. A few schemas run in npm test (DDBGEN_SPACE_CONNECTED, DDBGEN_FUZZ_SEED to widen it).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record } from '@aws-sdk/client-dynamodb-streams';
import anyTest, { type TestFn } from 'ava';
import fc from 'fast-check';
import type { AttributeDef, EntityDef, TableDef, TemplateDef } from '../../dsl/ir.js';
import { camelCase, tableClassName, tableFolder } from '../../generator/emit/context.js';
import { generateTable } from '../../generator/emit/generate.js';
import { tableDefinitionName } from '../../generator/emit/table/table-definition.js';
import { validateTable } from '../../generator/load/validate-table.js';
import { useDynamoDbLocal, type LocalDynamo } from '../support/dynamodb-local.js';
import { schemaOf, schemaSpec } from '../support/schema-space.js';

const test = anyTest as TestFn<{ local: LocalDynamo }>;
const root = path.resolve(import.meta.dirname, '../..');
const SCHEMAS = Number(process.env['DDBGEN_SPACE_CONNECTED'] ?? 4);
const SEED = Number(process.env['DDBGEN_FUZZ_SEED'] ?? 2911);
const ITEMS = 3;
const NOW = Date.now();
const BASE = new Date(Date.UTC(2026, 2, 10, 9, 0, 0));

test.before(async (t) => {
  t.context.local = await useDynamoDbLocal();
});
test.after.always(async (t) => {
  await t.context.local?.stop();
});

/** The first SCHEMAS valid, unrotated schemas of the seeded sample (a rotated table is one table per period: checked by compilation). */
function sampled(): TableDef[] {
  const tables: TableDef[] = [];
  for (const [i, spec] of fc.sample(schemaSpec, { numRuns: 200, seed: SEED }).entries()) {
    if (tables.length === SCHEMAS) break;
    if (spec.rotation !== 'none') continue;
    const table = schemaOf(spec, `Space${i}`);
    if (validateTable(table).length === 0) tables.push(table);
  }
  return tables;
}

// ---- values, and what the table gives back ----------------------------------------------------

const UNIT_MS = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
function truncate(date: Date, unit: string | undefined): Date {
  if (unit === undefined || unit === 'millisecond') return date;
  if (unit === 'month') return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const ms = UNIT_MS[unit as keyof typeof UNIT_MS];
  return new Date(Math.floor(date.getTime() / ms) * ms);
}

/** The n-th sample value of a declared type: distinct per n where the type allows, always within its bounds. */
function valueOf(def: AttributeDef, n: number, name: string, unescaped?: string): unknown {
  switch (def.kind) {
    case 'string': {
      // keys written unescaped (keyFormat: { escape: false }) refuse a value holding the delimiter: the samples leave it out
      const text = `${name}-${n}-é#.|:_`.slice(0, def.maxBytes === undefined ? undefined : Math.max(1, def.maxBytes - 4));
      return unescaped === undefined ? text : text.replaceAll(unescaped, '');
    }
    case 'number': {
      const min = def.min ?? -1000;
      const max = def.max ?? 1e9;
      return Math.min(max, min + n + (def.integer ? 0 : 0.25));
    }
    case 'boolean':
      return n % 2 === 0;
    case 'enum':
      return def.values[n % def.values.length];
    case 'timestamp':
      return new Date(BASE.getTime() + n * 3_600_000 + 17 * 60_000 + 123);
    case 'list':
      return [valueOf(def.of, n, name, unescaped), valueOf(def.of, n + 1, name, unescaped)];
    case 'map':
      return Object.fromEntries(Object.entries(def.fields).filter(([, f]) => !f.optional || n % 2 === 0).map(([field, f]) => [field, valueOf(f, n, field, unescaped)]));
    case 'stringSet':
      return new Set([`${name}-${n}`, 'x']);
    case 'numberSet':
      return new Set([n, 7.5]);
    case 'binary':
      return new Uint8Array([n, 1, 2, 3]);
  }
}

/** What a stored timestamp format keeps of an instant: iso-seconds and epoch seconds whole seconds, a date whole days. */
const FORMAT_UNIT: Readonly<Record<string, string | undefined>> = { 'iso-seconds': 'second', 'epoch-seconds': 'second', date: 'day', 'epoch-milliseconds': undefined };

/** A value as a read returns it: timestamps truncated to their unit and stored format, the TTL attribute to whole seconds. */
function readBack(def: AttributeDef, value: unknown, ttl: boolean): unknown {
  if (value === undefined) return undefined;
  if (def.kind === 'timestamp') {
    const byUnit = truncate(value as Date, ttl ? (def.unit === undefined || def.unit === 'second' ? 'second' : def.unit) : def.unit);
    return def.format === undefined ? byUnit : truncate(byUnit, FORMAT_UNIT[def.format]);
  }
  if (def.kind === 'list') return (value as unknown[]).map((v) => readBack(def.of, v, false));
  if (def.kind === 'map') return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, readBack(def.fields[k]!, v, false)]));
  return value;
}

interface Item {
  readonly written: Record<string, unknown>;
  readonly expected: Record<string, unknown>;
}

function itemOf(table: TableDef, entity: EntityDef, n: number, expiresAt?: Date): Item {
  const written: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(entity.attributes)) {
    if (name === entity.version) continue;
    if (name === table.ttl) written[name] = expiresAt ?? new Date(NOW + 86_400_000 + n * 1000);
    else if (!def.optional || n % 2 === 0) written[name] = valueOf(def, n, name, entity.keyFormat?.escape === false ? table.delimiter : undefined);
  }
  written['id'] = `id-${n}`;
  const expected = Object.fromEntries(Object.entries(written).map(([k, v]) => [k, readBack(entity.attributes[k]!, v, k === table.ttl)]));
  if (entity.version !== undefined) expected[entity.version] = 1;
  return { written, expected };
}

// ---- the reference model ----------------------------------------------------------------------

const placeholders = (template: TemplateDef | undefined) => (template?.segments ?? []).flatMap((s) => (s.kind === 'placeholder' && s.name !== 'shard' ? [{ name: s.name, truncate: s.truncate }] : []));

/** The values a query of a key's partition takes (the attributes its template reads), and how two items compare on it. */
function partition(template: TemplateDef | undefined, item: Record<string, unknown>) {
  const parts = placeholders(template);
  const values = Object.fromEntries(parts.map((p) => [p.name, item[p.name]]));
  const same = JSON.stringify(parts.map((p) => (p.truncate ? truncate(item[p.name] as Date, p.truncate).toISOString() : item[p.name])));
  return { values, same };
}

const ids = (items: ReadonlyArray<Record<string, unknown>>) => items.map((i) => String(i['id'])).sort();

/**
 * The attributes an index's records give back for an entity (the reference for what a query without
 * `fetch` returns): all of them for an ALL projection; else the key parts a stored key holds exactly
 * (not a time bucket, no string or enum of a lower-cased key), the native index's own key
 * attributes, the included ones and the TTL attribute (which every index projects).
 */
function held(table: TableDef, entity: EntityDef, indexName: string): Set<string> | undefined {
  const index = table.indexes[indexName]!;
  if (index.projection === 'all') return undefined;
  const folded = entity.keyFormat !== undefined && entity.keyFormat.casing !== 'preserve';
  const mapping = entity.indexes[indexName];
  const templates = [entity.key.pk, entity.key.sk, index.kind === 'gsi' ? mapping?.pk : undefined, mapping?.sk];
  const out = new Set<string>();
  for (const template of templates) {
    for (const segment of template?.segments ?? []) {
      if (segment.kind !== 'placeholder' || segment.name === 'shard' || segment.truncate !== undefined) continue;
      const kind = entity.attributes[segment.name]?.kind;
      if (kind === undefined || (folded && (kind === 'string' || kind === 'enum'))) continue;
      out.add(segment.name);
    }
  }
  if (index.kind === 'native-gsi') for (const name of [...index.pk, ...index.sk]) out.add(entity.nativeIndexes?.[indexName]?.attributes[name] ?? name);
  for (const name of index.projection === 'keys-only' ? [] : index.projection) out.add(name);
  if (table.ttl !== undefined) out.add(table.ttl);
  return new Set([...out].filter((name) => name in entity.attributes));
}

// ---- the stream -------------------------------------------------------------------------------

async function readStream(local: LocalDynamo, tableName: string): Promise<_Record[]> {
  const described = await local.client.send(new DescribeTableCommand({ TableName: tableName }));
  const arn = described.Table!.LatestStreamArn!;
  const streams = new DynamoDBStreamsClient({ endpoint: local.endpoint, region: 'local', credentials: { accessKeyId: 'ddbgen', secretAccessKey: 'local' }, maxAttempts: 1 });
  try {
    const records: _Record[] = [];
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    for (const shard of StreamDescription!.Shards ?? []) {
      let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
      while (iterator) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
        records.push(...(page.Records ?? []));
        if (!page.Records?.length) break;
        iterator = page.NextShardIterator;
      }
    }
    return records;
  } finally {
    streams.destroy();
  }
}

// ---- the scenario -----------------------------------------------------------------------------

type Repository = Record<string, (...args: unknown[]) => Promise<unknown>>;
type PageOf = { items: Array<Record<string, unknown>> };

for (const table of sampled()) {
  test.serial(`${table.name}: every entity round-trips, every index returns what the reference model says, TTL hides, the stream decodes (${Object.keys(table.entities).join(', ')})`, async (t) => {
    t.timeout(240_000);
    const { local } = t.context;
    const dir = path.join(root, 'out', `.space-${SEED}-${table.name}`);
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const { files } = generateTable(table, dir, { keepCache: false });
    for (const [file, text] of files) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    const module = (await import(path.join(dir, tableFolder(table), 'index.ts'))) as Record<string, unknown>;
    const tableName = `${table.name}-${Date.now()}`;
    await local.createTable((module[tableDefinitionName(table)] as (name: string) => never)(tableName));
    const Table = module[tableClassName(table)] as new (client: unknown, options: object) => Record<string, Repository>;
    const db = new Table(local.documents, { tableName });
    t.log(`delimiter ${table.delimiter}; ${table.key.sk ? 'pk + sk' : 'pk only'}; indexes: ${Object.values(table.indexes).map((i) => `${i.name} (${i.kind}, ${typeof i.projection === 'string' ? i.projection : 'include'})`).join(', ') || 'none'}; ttl: ${table.ttl ?? 'none'}; stream: ${table.stream ?? 'none'}; ` +
      Object.values(table.entities).map((e) => `${e.name}${e.key.shard ? (e.key.shard.random ? ' random-shard' : ' shard') : ''}${e.version ? ' versioned' : ''}${e.passthrough ? ' passthrough' : ''}${e.discriminator ? ' discriminated' : ''}`).join(', ') +
      (table.keyFormat ? `; keyFormat escape ${table.keyFormat.escape}, integers ${table.keyFormat.integers}, casing ${table.keyFormat.casing}` : '') +
      `; stored forms: ${Object.values(table.entities).flatMap((e) => Object.entries(e.attributes).flatMap(([name, a]) => [...(a.storedAs ? [`${e.name}.${name} as ${a.storedAs}`] : []), ...(a.kind === 'timestamp' && a.format ? [`${e.name}.${name} ${a.format}`] : [])])).join(', ') || 'none'}`);

    for (const entity of Object.values(table.entities)) {
      const repo = db[camelCase(entity.name)]!;
      const random = entity.key.shard?.random === true;
      const items = Array.from({ length: ITEMS }, (_, n) => itemOf(table, entity, n));
      const live = new Map(items.map((i) => [String(i.written['id']), i]));
      const at = `${entity.name}`;
      // batchPut writes whole items (no condition): a versioned entity's put creates version 1 instead
      if (entity.version === undefined) await repo['batchPut']!(items.slice(1).map((i) => i.written));
      else for (const item of items.slice(1)) await repo['put']!(item.written);
      await repo['put']!(items[0]!.written);
      const expired = table.ttl !== undefined && table.ttl in entity.attributes ? itemOf(table, entity, 9, new Date(NOW - 3_600_000)) : undefined;
      if (expired) await repo['put']!(expired.written);

      if (!random) {
        for (const item of items) t.deepEqual(await repo['get']!(item.written), item.expected, `${at}: get returns the item as stored`);
        if (expired) t.is(await repo['get']!(expired.written), undefined, `${at}: get hides an item whose TTL has passed`);
        const got = (await repo['batchGet']!(items.map((i) => i.written))) as unknown[];
        t.deepEqual(got, items.map((i) => i.expected), `${at}: batchGet returns each item in order`);
      }

      // the table query and each index query: exactly the items of the queried partition
      const check = async (label: string, method: string, template: TemplateDef | undefined, member: (i: Record<string, unknown>) => boolean = () => true, holds?: Set<string>, native = false) => {
        for (const item of items) {
          const { values, same } = partition(template, item.written);
          const want = [...live.values()].filter((i) => member(i.written) && partition(template, i.written).same === same);
          if (typeof repo[method] !== 'function') return t.fail(`${at}: no ${method} (it has ${Object.getOwnPropertyNames(Object.getPrototypeOf(repo)).join(', ')})`);
          const page = (await repo[method]!(values, { limit: 100 })) as PageOf;
          if (holds === undefined) {
            t.deepEqual(page.items.map((i) => ids([i])[0]).sort(), ids(want.map((i) => i.expected)), `${at}: ${label} of ${JSON.stringify(values)}`);
            t.deepEqual([...page.items].sort((a, b) => String(a['id']).localeCompare(String(b['id']))), [...want.map((i) => i.expected)].sort((a, b) => String(a['id']).localeCompare(String(b['id']))), `${at}: ${label} returns whole items as stored`);
            continue;
          }
          // a projection: each record holds exactly what the index gives back of one of the wanted items, and fetch reads the whole ones
          const views = want.map((i) => Object.fromEntries(Object.entries(i.expected).filter(([name]) => holds.has(name))));
          const sortKey = (v: Record<string, unknown>) => JSON.stringify(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)));
          t.deepEqual(page.items.map(sortKey).sort(), views.map(sortKey).sort(), `${at}: ${label} of ${JSON.stringify(values)} returns what the projection holds (${[...holds].join(', ') || 'no attribute'})`);
          if (native) continue; // a native index query returns what it projects; there is no fetch
          const fetched = (await repo[method]!(values, { limit: 100, fetch: true })) as PageOf;
          t.deepEqual(ids(fetched.items), ids(want.map((i) => i.expected)), `${at}: ${label} with fetch of ${JSON.stringify(values)}`);
        }
      };
      // a table query exists where a partition holds a collection (a sort key with placeholders)
      const collection = typeof repo['query'] === 'function';
      if (collection) await check('query', 'query', entity.key.pk);
      for (const [name, mapping] of Object.entries(entity.indexes)) {
        const index = table.indexes[name]!;
        const suffix = name.charAt(0).toUpperCase() + name.slice(1);
        // a sparse index holds only the items that have every optional attribute its keys read
        const optional = [...placeholders(mapping.pk), ...placeholders(mapping.sk)].filter((p) => entity.attributes[p.name]?.optional).map((p) => p.name);
        await check(`query${suffix}`, `query${suffix}`, index.kind === 'lsi' ? entity.key.pk : mapping.pk, (i) => optional.every((o) => i[o] !== undefined), held(table, entity, name));
      }
      for (const name of Object.keys(entity.nativeIndexes ?? {})) {
        const index = table.indexes[name]!;
        if (index.kind !== 'native-gsi') continue;
        const template: TemplateDef = { kind: 'template', source: index.pk.join(), segments: index.pk.map((p) => ({ kind: 'placeholder' as const, name: p, source: `<${p}>` })) };
        await check(`query${name.charAt(0).toUpperCase()}${name.slice(1)}`, `query${name.charAt(0).toUpperCase()}${name.slice(1)}`, template, () => true, held(table, entity, name), true);
      }

      if (!random) {
        // update a plain attribute no key reads, and read it back
        const keyed = new Set([...placeholders(entity.key.pk), ...placeholders(entity.key.sk), ...Object.values(entity.indexes).flatMap((m) => [...placeholders(m.pk), ...placeholders(m.sk)])].map((p) => p.name));
        const plain = Object.entries(entity.attributes).find(([name, def]) => !keyed.has(name) && name !== entity.version && name !== table.ttl && !(entity.nativeIndexes && Object.values(table.indexes).some((i) => i.kind === 'native-gsi' && [...i.pk, ...i.sk].includes(name))) && ['string', 'number', 'enum', 'boolean'].includes(def.kind));
        const target = items[1]!;
        const versioned = entity.version === undefined ? {} : { expectedVersion: 1 };
        if (plain) {
          const [name, def] = plain;
          const next = valueOf(def, 2, name) === target.written[name] ? valueOf(def, 3, name) : valueOf(def, 2, name);
          await repo['update']!(target.written, { set: { [name]: next } }, versioned);
          const read = (await repo['get']!(target.written)) as Record<string, unknown>;
          t.deepEqual(read[name], next, `${at}: update of ${name} reads back`);
          if (entity.version !== undefined) t.is(read[entity.version], 2, `${at}: the version went up`);
          const updated = { ...target.expected, [name]: next, ...(entity.version === undefined ? {} : { [entity.version]: 2 }) };
          live.set(String(target.written['id']), { written: { ...target.written, [name]: next }, expected: updated });
        }
        // delete one: gone from get and from every query
        const gone = items[2]!;
        await repo['delete']!(gone.written, entity.version === undefined ? {} : { expectedVersion: 1 });
        t.is(await repo['get']!(gone.written), undefined, `${at}: a deleted item is gone`);
        live.delete(String(gone.written['id']));
        if (collection) await check('query after a delete', 'query', entity.key.pk);
        live.delete(String(items[0]!.written['id']));
        await repo['batchDelete']!([items[0]!.written]);
        t.deepEqual(await repo['batchGet']!([items[0]!.written]), [undefined], `${at}: batchDelete removed it`);
      }
    }

    if (table.stream) {
      const records = await readStream(local, tableName);
      const decode = module[`decode${tableClassName(table).replace(/Table$/, '')}StreamRecord`] as (record: _Record) => { entity: string | undefined; event: string; newItem?: Record<string, unknown> };
      t.true(records.length > 0, 'the stream holds the writes');
      for (const record of records) {
        const event = decode(record); // throws StreamRecordError for a record it cannot decode
        t.truthy(event.entity, `every record is one of the table's entities (${record.dynamodb?.SequenceNumber})`);
      }
    }
  });
}
