// Table settings: ttl, point-in-time recovery, deletion protection, warm throughput, on-demand
// maxima and tags are validated against DynamoDB's limits, each problem with its place and a fix.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { defineTable, edge, entity, gsi, t } from '../dsl/index.js';
import type { TableDef } from '../dsl/ir.js';
import { main } from '../generator/cli/cli.js';
import { validateTable } from '../generator/load/validate-table.js';

const session = entity({
  attributes: { id: t.string(), expiresAt: t.timestamp().optional(), createdAt: t.timestamp() },
  key: { pk: 'Session#<id>', sk: 'SESSION' },
});
type Declaration = Parameters<typeof defineTable>[0];
const table = (extra: Partial<Declaration>): TableDef => defineTable({ name: 'Tab', entities: { Session: session }, ...extra } as Declaration);
const brief = (def: TableDef) => validateTable(def).map((d) => `${d.code} ${d.target}: ${d.message} | fix: ${d.fix}`);
const tags = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`t${i}`, 'x']));

test('valid settings have no problems', (t) => {
  t.deepEqual(
    brief(table({
      ttl: 'expiresAt',
      pointInTimeRecovery: { days: 7 },
      deletionProtection: true,
      capacity: { mode: 'on-demand', warmThroughput: { read: 20000, write: 8000 } },
      onDemandMax: { readRequestUnits: 40000, writeRequestUnits: 10000 },
      tags: { team: 'search', 'cost-center': 'cc/42 + ops', 'Ünïcode': 'värde' },
    })),
    [],
  );
  t.deepEqual(brief(table({ tags: tags(50), pointInTimeRecovery: {} })), [], 'exactly 50 tags; days default to 35');
  t.is(table({ pointInTimeRecovery: {} }).pointInTimeRecovery?.days, 35);
});

const cases: Array<[string, TableDef, string[]]> = [
  ['ttl naming no attribute', table({ ttl: 'expiresAtt' }), [
    'DDB250 Tab.ttl: ttl names "expiresAtt", which no entity or edge declares, so no item would ever expire | fix: name the timestamp attribute that holds each item\'s expiry, e.g. ttl: \'expiresAt\' (the entities\' timestamps: "expiresAt", "createdAt")',
  ]],
  ['ttl naming a key attribute', table({ ttl: 'pk' }), [
    'DDB250 Tab.ttl: ttl names "pk", a key attribute of the table: it holds key text that ddbgen builds, not an expiry | fix: name the timestamp attribute that holds each item\'s expiry, e.g. ttl: \'expiresAt\' (the entities\' timestamps: "expiresAt", "createdAt")',
  ]],
  ['ttl on a table without timestamps', defineTable({ name: 'Tab', ttl: 'expiresAt', entities: { User: entity({ attributes: { id: t.string() }, key: { pk: 'U#<id>', sk: 'U' } }) } }), [
    'DDB250 Tab.ttl: ttl names "expiresAt", which no entity or edge declares, so no item would ever expire | fix: declare the expiry on the entities that expire, e.g. expiresAt: t.timestamp(), and name it: ttl: \'expiresAt\'',
  ]],
  ['ttl on a non-timestamp, on an entity and on an edge', table({
    ttl: 'expiresAt',
    entities: {
      Session: session,
      Token: entity({ attributes: { id: t.string(), expiresAt: t.number() }, key: { pk: 'Token#<id>', sk: 'TOKEN' } }),
    },
    edges: { Link: edge({ types: ['Session'], forward: 'LINKS', attributes: { expiresAt: t.string() } }) },
  }), [
    'DDB251 Tab.entities.Token.attributes.expiresAt: ttl attribute "expiresAt" is a number attribute of Token; DynamoDB\'s time to live reads an expiry instant | fix: declare it as expiresAt: t.timestamp() on Token (stored as epoch seconds, read back as a Date), or rename Token\'s attribute if it means something else',
    'DDB251 Tab.edges.Link.attributes.expiresAt: ttl attribute "expiresAt" is a string attribute of edge Link; DynamoDB\'s time to live reads an expiry instant | fix: declare it as expiresAt: t.timestamp() on edge Link (stored as epoch seconds, read back as a Date), or rename edge Link\'s attribute if it means something else',
  ]],
  ['ttl that is not a name', table({ ttl: 7 as unknown as string }), [
    'DDB258 Tab.ttl: ttl is 7, not the name of a timestamp attribute | fix: write ttl: the name of a timestamp attribute, or leave it out',
  ]],
  ['point-in-time recovery outside 1–35 days', table({ pointInTimeRecovery: { days: 36 } }), [
    'DDB252 Tab.pointInTimeRecovery.days: pointInTimeRecovery.days is 36, outside 1–35 | fix: give the recovery period as a whole number of days from 1 to 35 (RecoveryPeriodInDays; 35 when left out)',
  ]],
  ['point-in-time recovery of 0 days, and a fraction', table({ pointInTimeRecovery: { days: 0.5 } }), [
    'DDB252 Tab.pointInTimeRecovery.days: pointInTimeRecovery.days is 0.5, outside 1–35 | fix: give the recovery period as a whole number of days from 1 to 35 (RecoveryPeriodInDays; 35 when left out)',
  ]],
  ['deletion protection that is not a boolean', table({ deletionProtection: 'yes' as unknown as boolean }), [
    'DDB258 Tab.deletionProtection: deletionProtection is "yes", not true or false | fix: write deletionProtection: true, or leave it out',
  ]],
  ['zero and negative throughput', table({
    capacity: { mode: 'on-demand', warmThroughput: { read: 0, write: 4000 } },
    indexes: { byDay: gsi({ pk: 'gsi1pk', warmThroughput: { read: 12000, write: -4 } }) },
    onDemandMax: { readRequestUnits: 0, writeRequestUnits: 2.5 },
  }), [
    'DDB253 Tab.capacity.warmThroughput.read: capacity.warmThroughput.read is 0 | fix: give a whole number of units per second above 0, or leave the setting out',
    'DDB253 Tab.indexes.byDay.warmThroughput.write: indexes.byDay.warmThroughput.write is -4 | fix: give a whole number of units per second above 0, or leave the setting out',
    'DDB253 Tab.onDemandMax.readRequestUnits: onDemandMax.readRequestUnits is 0 | fix: give a whole number of units per second above 0, or leave the setting out',
    'DDB253 Tab.onDemandMax.writeRequestUnits: onDemandMax.writeRequestUnits is 2.5 | fix: give a whole number of units per second above 0, or leave the setting out',
  ]],
  ['on-demand maximum on a provisioned table', table({ capacity: { mode: 'provisioned', read: 10, write: 10 }, onDemandMax: { readRequestUnits: 100 } }), [
    "DDB254 Tab.onDemandMax: onDemandMax is declared, but the table is provisioned: its provisioned capacity is its maximum | fix: onDemandMax caps an on-demand table: give capacity: { mode: 'on-demand' } and at least one of onDemandMax: { readRequestUnits, writeRequestUnits }, or remove onDemandMax",
  ]],
  ['an empty on-demand maximum, and a misspelled field', table({ onDemandMax: { read: 100 } as never }), [
    "DDB254 Tab.onDemandMax.read: onDemandMax has \"read\", which is not readRequestUnits or writeRequestUnits | fix: onDemandMax caps an on-demand table: give capacity: { mode: 'on-demand' } and at least one of onDemandMax: { readRequestUnits, writeRequestUnits }, or remove onDemandMax",
    "DDB254 Tab.onDemandMax: onDemandMax gives neither readRequestUnits nor writeRequestUnits | fix: onDemandMax caps an on-demand table: give capacity: { mode: 'on-demand' } and at least one of onDemandMax: { readRequestUnits, writeRequestUnits }, or remove onDemandMax",
  ]],
  ['tag keys over 128 characters, reserved, empty or with a refused character', table({ tags: { ['k'.repeat(129)]: 'v', 'AWS:owner': 'me', '': 'x', 'team@corp': 'a' } }), [
    `DDB255 Tab.tags.${'k'.repeat(129)}: tag key "${'k'.repeat(129)}" is 129 characters long, above 128 | fix: a tag key is 1 to 128 characters of letters, digits, white space and + - = . _ : /, not starting with "aws:" (reserved for AWS), e.g. "team" or "cost-center"`,
    'DDB255 Tab.tags.AWS:owner: tag key "AWS:owner" starts with "aws:", a prefix reserved for tags AWS assigns | fix: a tag key is 1 to 128 characters of letters, digits, white space and + - = . _ : /, not starting with "aws:" (reserved for AWS), e.g. "team" or "cost-center"',
    'DDB255 Tab.tags.: tag key "" is empty | fix: a tag key is 1 to 128 characters of letters, digits, white space and + - = . _ : /, not starting with "aws:" (reserved for AWS), e.g. "team" or "cost-center"',
    'DDB255 Tab.tags.team@corp: tag key "team@corp" contains "@", which DynamoDB does not accept in tags | fix: a tag key is 1 to 128 characters of letters, digits, white space and + - = . _ : /, not starting with "aws:" (reserved for AWS), e.g. "team" or "cost-center"',
  ]],
  ['tag values over 256 characters, not strings, or with a refused character', table({ tags: { long: 'v'.repeat(257), n: 5 as unknown as string, mail: 'a@b' } }), [
    'DDB256 Tab.tags.long: tag "long" has a value that is 257 characters long, above 256 | fix: a tag value is a string of at most 256 letters, digits, white space and + - = . _ : /',
    'DDB256 Tab.tags.n: tag "n" has a value that is 5, not a string | fix: a tag value is a string of at most 256 letters, digits, white space and + - = . _ : /',
    'DDB256 Tab.tags.mail: tag "mail" has a value that contains "@", which DynamoDB does not accept in tags | fix: a tag value is a string of at most 256 letters, digits, white space and + - = . _ : /',
  ]],
  ['more than 50 tags', table({ tags: tags(52) }), [
    'DDB257 Tab.tags: tags declares 52 tags; a DynamoDB table holds at most 50 | fix: remove 2 tags, or combine related ones into one value (e.g. "owner": "team-a/alice")',
  ]],
];

for (const [name, def, want] of cases) {
  test(`settings: ${name}`, (t) => {
    t.deepEqual(brief(def), want);
  });
}

test('setting problems point at the schema file: file:line:column', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ddbgen-settings-'));
  writeFileSync(
    path.join(dir, 'schema.ts'),
    [
      "import { defineTable, entity, t } from 'ddbgen';",
      'export default defineTable({',
      "  name: 'Tab',",
      "  ttl: 'expiresAt',",
      '  pointInTimeRecovery: { days: 90 },',
      "  capacity: { mode: 'on-demand' },",
      '  onDemandMax: { readRequestUnits: -1 },',
      "  tags: { 'aws:team': 'x', owner: 'y'.repeat(300) },",
      '  entities: {',
      "    Session: entity({ attributes: { id: t.string(), expiresAt: t.string() }, key: { pk: 'S#<id>', sk: 'S' } }),",
      '  },',
      '});',
      '',
    ].join('\n'),
  );
  let stderr = '';
  const code = await main(['lint', 'schema.ts'], { cwd: dir, stdout: () => {}, stderr: (s) => (stderr += s) });
  t.is(code, 1);
  t.deepEqual(stderr.split('\n').filter((l) => l.startsWith('schema.ts')), [
    'schema.ts:10:53 - error DDB251: ttl attribute "expiresAt" is a string attribute of Session; DynamoDB\'s time to live reads an expiry instant',
    'schema.ts:5:26 - error DDB252: pointInTimeRecovery.days is 90, outside 1–35',
    'schema.ts:7:18 - error DDB253: onDemandMax.readRequestUnits is -1',
    'schema.ts:8:23 - error DDB255: tag key "aws:team" starts with "aws:", a prefix reserved for tags AWS assigns',
    'schema.ts:8:28 - error DDB256: tag "owner" has a value that is 300 characters long, above 256',
  ]);
  t.regex(stderr, /fix: declare it as expiresAt: t\.timestamp\(\) on Session/);
});
