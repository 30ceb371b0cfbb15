// Validation: every problem of a schema is found at once, with a stable code, a path, an exact
// message and a fix.
import test from 'ava';
import { defineTable, edge, entity, gsi, lsi, t } from '../dsl/index.js';
import type { TableDef } from '../dsl/ir.js';
import { validateTable } from '../generator/load/validate-table.js';

const user = entity({ attributes: { id: t.string() }, key: { pk: 'User#<id>', sk: 'PROFILE' } });
const table = (extra: Partial<Parameters<typeof defineTable>[0]>): TableDef =>
  defineTable({ name: 'App', entities: { User: user }, ...extra } as Parameters<typeof defineTable>[0]);
const brief = (def: TableDef) => validateTable(def).map((d) => `${d.code} ${d.target}: ${d.message}`);

test('a valid table has no problems', (t) => {
  t.deepEqual(brief(table({})), []);
});

const cases: Array<[string, TableDef, string[]]> = [
  ['bad table name and delimiter', table({ name: 'my table', delimiter: '##' }), [
    'DDB010 my table.name: table name "my table" is not a valid identifier',
    'DDB011 my table.delimiter: delimiter "##" is not one ASCII punctuation character (other than \\ < > `)',
  ]],
  ['unknown placeholder, via an untyped template', table({ entities: { User: entity({ attributes: { id: t.string() }, key: { pk: 'User#<idd>' as 'User#<id>', sk: 'X' } }) } }), [
    'DDB030 App.entities.User.key.pk: placeholder <idd> names no attribute of this entity',
  ]],
  ['malformed segments', table({ entities: { User: entity({ attributes: { id: t.string() }, key: { pk: 'User#<id>##', sk: 'a<id>' as 'X' } }) } }), [
    'DDB031 App.entities.User.key.pk: key segment "User#<id>##" has an empty segment at character 11 (two delimiters in a row, or one at an end)',
    'DDB031 App.entities.User.key.pk: key segment "User#<id>##" has an empty segment at character 12 (two delimiters in a row, or one at an end)',
    'DDB031 App.entities.User.key.sk: key segment "a<id>" mixes text and a placeholder, or has an unmatched < or >',
  ]],
  ['unkeyable types, truncation, numbers without range, optional key parts', table({
    entities: {
      User: entity({
        attributes: { id: t.string(), tags: t.list(t.string()), n: t.number(), m: t.number({ min: 5, max: 1 }), nick: t.string().optional(), big: t.number({ min: 0, max: 2 ** 60, integer: true }) },
        key: { pk: 'User#<id:day>#<tags>', sk: '<n>#<m>#<nick>#<big>' },
      }),
    },
  }), [
    'DDB032 App.entities.User.key.pk: <id> truncates a string attribute; only timestamps truncate, to minute, hour, day or month',
    'DDB033 App.entities.User.key.pk: "tags" is a list attribute, which cannot be part of a key',
    'DDB034 App.entities.User.key.sk: number "n" is in a key, but it has no min and max',
    'DDB034 App.entities.User.key.sk: number "m" is in a key, but its min 5 is above its max 1',
    'DDB035 App.entities.User.key.sk: optional attribute "nick" is part of the primary key',
    'DDB034 App.entities.User.key.sk: number "big" is in a key, but its range 0..1152921504606847000 is wider than 2^53 - 1',
  ]],
  ['sort key required by the table, and an attribute named like a key', table({ entities: { User: entity({ attributes: { id: t.string(), sk: t.string() }, key: { pk: 'User#<id>' } }) } }), [
    'DDB022 App.entities.User.attributes.sk: User declares attribute "sk", which is the table\'s key attribute "sk"',
    'DDB036 App.entities.User.key: User has no sort-key template, but the table has a sort key "sk"',
  ]],
  ['index mappings', table({
    indexes: { gsi1: gsi({ pk: 'g1pk', sk: 'g1sk' }), lsi1: lsi({ sk: 'l1sk' }), dup: gsi({ pk: 'sk' }), x: gsi({ pk: 'xpk' }) },
    entities: {
      User: entity({
        attributes: { id: t.string() },
        key: { pk: 'User#<id>', sk: 'P' },
        indexes: { gsi1: { pk: 'G#<id>' }, lsi1: { pk: 'L#<id>', sk: 'S' }, nope: { pk: 'N' } },
      }),
    },
  }), [
    'DDB013 App.indexes.dup: attribute name "sk" is used twice as a key attribute (table sk, dup pk)',
    'DDB023 App.indexes.x: index name "x" is not 3 to 255 letters, digits or _ starting with a letter',
    'DDB051 App.entities.User.indexes.gsi1: User\'s mapping for GSI "gsi1" has no sk template, but the index has a sort key',
    'DDB051 App.entities.User.indexes.lsi1.pk: LSI "lsi1" shares the table\'s partition key; User\'s mapping cannot give a pk',
    'DDB050 App.entities.User.indexes.nope: index "nope" is not declared on the table',
  ]],
  ['two entities that build the same key', table({
    entities: {
      User: user,
      Profile: entity({ attributes: { userId: t.string(), section: t.string() }, key: { pk: 'User#<userId>', sk: '<section>' } }),
    },
  }), [
    'DDB040 App.entities.Profile.key: User and Profile can build the same key (User (User#<id> | PROFILE) vs Profile (User#<userId> | <section>)): one would overwrite the other',
  ]],
  ['an entity inside another one\'s query range is fine: its queries skip the other\'s items, told apart by sort key', table({
    entities: {
      Order: entity({ attributes: { u: t.string(), o: t.string() }, key: { pk: 'U#<u>', sk: 'ORDER#<o>' } }),
      Line: entity({ attributes: { u: t.string(), o: t.string(), n: t.number({ min: 0, max: 99, integer: true }) }, key: { pk: 'U#<u>', sk: 'ORDER#<o>#<n>' } }),
    },
  }), []],
  ['an entity whose sort key starts with a value reads the whole partition, skipping the other\'s items', table({
    entities: {
      Event: entity({ attributes: { u: t.string(), at: t.timestamp() }, key: { pk: 'U#<u>', sk: '<at>' } }),
      Note: entity({ attributes: { u: t.string() }, key: { pk: 'U#<u>', sk: 'NOTE' } }),
    },
  }), []],
  ['keys that cannot collide are fine: other literal, number widths, enum values', table({
    entities: {
      A: entity({ attributes: { id: t.string() }, key: { pk: 'X#<id>', sk: 'A' } }),
      B: entity({ attributes: { n: t.number({ min: 0, max: 99, integer: true }) }, key: { pk: 'X#<n>', sk: 'B' } }),
      C: entity({ attributes: { n: t.number({ min: 0, max: 999, integer: true }), k: t.enum(['p', 'q']) }, key: { pk: 'Y#<n>', sk: '<k>' } }),
      D: entity({ attributes: { n: t.number({ min: 0, max: 99, integer: true }) }, key: { pk: 'Y#<n>', sk: 'r' } }),
    },
  }), []],
  ['a version attribute must be an integer outside every key', table({
    entities: {
      User: entity({ attributes: { id: t.string(), rev: t.number() }, key: { pk: 'User#<id>', sk: 'P' }, version: 'rev' }),
      Doc: entity({ attributes: { id: t.string(), v: t.number({ min: 0, max: 9, integer: true }) }, key: { pk: 'Doc#<id>', sk: '<v>' }, version: 'v' }),
    },
  }), [
    'DDB060 App.entities.User.version: version attribute "rev" is a non-integer number',
    'DDB060 App.entities.Doc.version: version attribute "v" is part of a key template; a version changes on every write, so the item would move',
  ]],
  ['a pattern naming an unknown entity', table({
    patterns: { p: { entity: 'Nope' as 'User' } },
  }), [
    'DDB070 App.patterns.p.entity: pattern "p" names entity "Nope", which is not declared',
  ]],
  ['stored formats of a table another writer keyed: glued text, empty segments and plain integers without a range are fine', table({
    keyFormat: { escape: false, integers: 'plain', casing: 'lower' },
    entities: {
      Account: entity({ attributes: { id: t.string(), n: t.number({ integer: true }) }, key: { pk: 'account#<id>', sk: 'account#' }, discriminator: { _type: 'Account' } }),
      User: entity({ attributes: { id: t.string(), born: t.timestamp({ format: 'epoch-seconds' }).storedAs('b') }, key: { pk: '$app#user_<id>', sk: '$user_1#n_<born>' } }),
    },
  }), []],
  ['stored names, discriminators and formats that cannot be used; glued text needs a keyFormat', table({
    indexes: { byOrg: gsi({ pk: ['org'] }) },
    entities: {
      User: entity({
        attributes: {
          id: t.string(),
          a: t.string().storedAs('pk'),
          b: t.string().storedAs('shared'),
          c: t.string().storedAs('shared'),
          d: t.string().storedAs('_et'),
          org: t.string().storedAs('organisation'),
          rev: t.number({ integer: true }).storedAs('v'),
          at: t.timestamp({ format: 'unix' as 'iso' }),
          score: t.number({ keyFormat: 'plain' }),
          fleetNo: t.number({ integer: true, keyFormat: 'short' as 'plain' }),
          prefs: t.map({ theme: t.string().storedAs('th') }),
        },
        key: { pk: 'user_<id>', sk: 'P' },
        indexes: { byOrg: {} },
        version: 'rev',
        discriminator: { _et: 'User', id: 'x', empty: '' },
      }),
    },
  }), [
    'DDB031 App.entities.User.key.pk: key segment "user_<id>" mixes text and a placeholder, or has an unmatched < or >',
    'DDB081 App.entities.User.attributes.at: at has format "unix", which is not a stored timestamp format',
    "DDB081 App.entities.User.attributes.score: score has keyFormat \"plain\", which only an integer's key parts take (it is a number without integer: true)",
    'DDB081 App.entities.User.attributes.fleetNo: fleetNo has keyFormat "short"',
    "DDB270 App.entities.User.attributes.prefs.fields.theme: User.prefs.theme is stored as \"th\", which renames a map field; storedAs renames only an entity's own attributes",
    'DDB270 App.entities.User.attributes.a: User.a is stored as "pk", which is a key attribute of the table, which holds a generated key',
    'DDB270 App.entities.User.attributes.b: User.b is stored as "shared", which is also where c is stored',
    'DDB270 App.entities.User.attributes.c: User.c is stored as "shared", which is also where b is stored',
    'DDB270 App.entities.User.attributes.d: User.d is stored as "_et", which is a discriminator attribute of the entity',
    'DDB270 App.entities.User.attributes.org: User.org is stored as "organisation", which renames an attribute a native GSI is keyed by, and the index reads the stored name',
    'DDB270 App.entities.User.attributes.rev: User.rev is stored as "v", which renames the version attribute, which optimistic locking reads by its own name',
    "DDB271 App.entities.User.discriminator._et: User's discriminator attribute \"_et\" is also a declared attribute (the discriminator is written by ddbgen, never given in an item)",
    "DDB271 App.entities.User.discriminator.id: User's discriminator attribute \"id\" is also a declared attribute (the discriminator is written by ddbgen, never given in an item)",
    "DDB271 App.entities.User.discriminator.empty: User's discriminator attribute \"empty\" has the value \"\", not a non-empty string",
  ]],
  ['patterns that cannot be generated', table({
    indexes: { byName: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) },
    entities: {
      User: user,
      Post: entity({
        attributes: { userId: t.string(), at: t.timestamp(), n: t.number({ min: 0, max: 9, integer: true }), title: t.string() },
        key: { pk: 'User#<userId>', sk: 'Post#<at>#<n>' },
      }),
    },
    patterns: {
      get: { entity: 'Post' },
      byIndex: { entity: 'Post', index: 'byName' },
      noSk: { entity: 'Post', op: 'gte' },
      wrongSk: { entity: 'Post', sk: 'title' },
      prefixOfNumber: { entity: 'Post', sk: 'n', op: 'beginsWith' },
      'bad-name': { entity: 'Post' },
    },
  }), [
    'DDB071 App.patterns.get: pattern "get" would take the name of a generated PostRepository method',
    'DDB071 App.patterns.byIndex.index: pattern "byIndex" uses index "byName", which Post does not map into',
    'DDB072 App.patterns.noSk.op: pattern "noSk" has op "gte" but no sk attribute to apply it to',
    'DDB072 App.patterns.wrongSk.sk: pattern "wrongSk" compares "title", which is not part of Post\'s sort key on the table',
    'DDB073 App.patterns.prefixOfNumber.op: pattern "prefixOfNumber" uses beginsWith on "n", a number: only strings are stored as readable text in keys',
    'DDB020 App.patterns.bad-name: pattern name "bad-name" is not a valid identifier',
  ]],
  ['attribute names that reach the object prototype: declared, as a literal __proto__ key, in a map, on an edge; placeholders do not find Object members', table({
    entities: {
      User: entity({
        attributes: { id: t.string(), constructor: t.string(), __proto__: t.string(), prefs: t.list(t.map({ prototype: t.boolean() })) } as unknown as { id: ReturnType<typeof t.string> },
        key: { pk: 'User#<id>#<toString>' as 'User#<id>', sk: 'P' },
      }),
    },
    edges: { Fan: edge({ types: ['User'], forward: 'FAN_OF', attributes: { constructor: t.string() } }) },
  }), [
    'DDB160 App.entities.User.attributes.__proto__: User declares attribute "__proto__", a name that reaches into JavaScript\'s object prototype',
    'DDB160 App.entities.User.attributes.constructor: User declares attribute "constructor", a name that reaches into JavaScript\'s object prototype',
    'DDB160 App.entities.User.attributes.prefs.fields.prototype: User declares attribute "prototype", a name that reaches into JavaScript\'s object prototype',
    'DDB030 App.entities.User.key.pk: placeholder <toString> names no attribute of this entity',
    'DDB160 App.edges.Fan.attributes.constructor: edge Fan declares attribute "constructor", a name that reaches into JavaScript\'s object prototype',
  ]],
];

for (const [name, def, want] of cases) {
  test(`validate: ${name}`, (t) => {
    t.deepEqual(brief(def), want);
  });
}

const keyed = (pk: string) => entity({ attributes: { id: t.string() }, key: { pk: pk as 'E#<id>', sk: 'P' } });
const named = (name: string, extra: Partial<Parameters<typeof defineTable>[0]>): TableDef =>
  defineTable({ name, entities: { Item: keyed('E#<id>') }, ...extra } as Parameters<typeof defineTable>[0]);
const withFix = (def: TableDef) => validateTable(def).map((d) => `${d.code} ${d.target}: ${d.message} | ${d.fix}`);

const limits: Array<[string, TableDef, string[]]> = [
  ['names that would not compile: a reserved word, a global, names differing only in case', named('Names', { entities: { class: keyed('C#<id>'), Promise: keyed('P#<id>'), user: keyed('U#<id>'), User: keyed('V#<id>') } }), [
    'DDB102 Names.entities.User: entity "User" and entity "user" both produce "user.ts" in the generated code, so one would replace the other | rename one of them: names that differ only in case (or in _ and -) share files and members, and a name that is another plus a suffix (Order, OrderKey) shares generated type names',
    'DDB100 Names.entities.class: entity "class" is a reserved word of JavaScript or TypeScript, so the generated code would not compile | rename it, e.g. "ClassItem"',
    'DDB101 Names.entities.Promise: entity "Promise" would declare "Promise" in the generated code, which is a JavaScript global the generated code uses | rename it so that it does not produce "Promise", e.g. "PromiseRecord"',
  ]],
  ['names taken by the runtime or the table class', named('Runtime', { entities: { Transaction: keyed('T#<id>'), KeyTemplate: keyed('K#<id>') } }), [
    'DDB102 Runtime.entities.Transaction: entity "Transaction" and table "Runtime" both produce "transaction" in the generated code, so one would replace the other | rename one of them: names that differ only in case (or in _ and -) share files and members, and a name that is another plus a suffix (Order, OrderKey) shares generated type names',
    'DDB101 Runtime.entities.Transaction: entity "Transaction" would declare "Transaction" in the generated code, which is the name of a ddbgen runtime helper the generated code imports | rename it so that it does not produce "Transaction", e.g. "TransactionRecord"',
    'DDB101 Runtime.entities.KeyTemplate: entity "KeyTemplate" would declare "KeyTemplate" in the generated code, which is the name of a ddbgen runtime helper the generated code imports | rename it so that it does not produce "KeyTemplate", e.g. "KeyTemplateRecord"',
  ]],
  ['a name that is another plus a generated suffix, an edge named like an entity', named('Shop', { entities: { Order: keyed('O#<id>'), OrderKey: keyed('K#<id>'), Fan: keyed('F#<id>') }, edges: { fan: edge({ types: ['Fan'], forward: 'LIKES' }) } }), [
    'DDB102 Shop.edges.fan: edge "fan" and entity "Fan" both produce "fan" in the generated code, so one would replace the other | rename one of them: names that differ only in case (or in _ and -) share files and members, and a name that is another plus a suffix (Order, OrderKey) shares generated type names',
    'DDB102 Shop.entities.OrderKey: entity "OrderKey" and entity "Order" both produce "OrderKey" in the generated code, so one would replace the other | rename one of them: names that differ only in case (or in _ and -) share files and members, and a name that is another plus a suffix (Order, OrderKey) shares generated type names',
  ]],
  ['a pattern whose function form is a name the entity module declares already (orderModel)', named('Clash', {
    entities: { Order: entity({ attributes: { userId: t.string(), orderId: t.string() }, key: { pk: 'U#<userId>', sk: 'O#<orderId>' } }) },
    patterns: { model: { entity: 'Order', sk: 'orderId', op: 'gte' } },
  }), [
    'DDB102 Clash.entities.Order: entity "Order" and another of its generated declarations both produce "orderModel" in the generated code, so one would replace the other | rename one of them: names that differ only in case (or in _ and -) share files and members, and a name that is another plus a suffix (Order, OrderKey) shares generated type names',
  ]],
  // planPut, planUpdate, planDelete are runtime helpers (write.ts) the entity's module does not import: its function forms may take those names
  ['an entity whose function forms share names with runtime helpers its module does not import (Plan: planPut)', named('Plans', { entities: { Plan: keyed('P#<id>') } }), []],
  // Charge (migration/capacity-bucket.ts, the migration's throttle), Path and Operand (in-memory/expression-parser.ts) are exported by runtime modules no generated module imports
  ['entities named like exports of runtime modules generated code never imports (Charge, Path, Operand)', named('Payments', { entities: { Charge: keyed('C#<id>'), Path: keyed('P#<id>'), Operand: keyed('O#<id>') } }), []],
  // InMemoryEngine is declared by in-memory/engine.ts and re-exported by in-memory/table.ts, which generated code imports
  ['an entity named like a runtime re-export generated code imports (InMemoryEngine)', named('Engines', { entities: { InMemoryEngine: keyed('E#<id>') } }), [
    'DDB101 Engines.entities.InMemoryEngine: entity "InMemoryEngine" would declare "InMemoryEngine" in the generated code, which is the name of a ddbgen runtime helper the generated code imports | rename it so that it does not produce "InMemoryEngine", e.g. "InMemoryEngineRecord"',
  ]],
  ['more than 5 LSIs', named('Many', { indexes: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`lsi${i}`, lsi({ sk: `l${i}sk` })])) }), [
    'DDB104 Many.indexes.lsi5: the table declares 6 local secondary indexes; DynamoDB allows at most 5 per table (a fixed limit, "Local secondary indexes" in the DynamoDB quotas) | keep at most 5 LSIs: turn the others into GSIs, or serve those queries from a sort-key prefix of the table',
  ]],
  ['more than 20 GSIs without a raised quota', named('Many', { indexes: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`gsi${i}`, gsi({ pk: `g${i}pk` })])) }), [
    'DDB105 Many.indexes.gsi20: the table declares 21 global secondary indexes; DynamoDB allows 20 per table by default (the "Global secondary indexes per table" quota) | remove or merge indexes (overload one GSI with several entities\' keys), or request a higher quota from AWS Service Quotas and declare it with gsiQuota: <n> on the table',
  ]],
  ['21 GSIs under a declared quota of 25', named('Many', { gsiQuota: 25, indexes: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`gsi${i}`, gsi({ pk: `g${i}pk` })])) }), []],
  ['26 GSIs above a declared quota of 25; a quota that is not a raised one', named('Many', { gsiQuota: 25, indexes: Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`gsi${i}`, gsi({ pk: `g${i}pk` })])) }), [
    'DDB105 Many.indexes.gsi25: the table declares 26 global secondary indexes; DynamoDB allows 25 per table (the declared gsiQuota) | remove or merge indexes, or raise gsiQuota after AWS Service Quotas has raised the quota',
  ]],
  ['gsiQuota that is not a raised quota', named('Many', { gsiQuota: 10.5 }), [
    'DDB107 Many.gsiQuota: gsiQuota is 10.5; it declares a raised quota, so it is a whole number above 20 | gsiQuota is the "Global secondary indexes per table" quota AWS raised for your account: a whole number above 20 (leave it out for the default 20)',
  ]],
  ['literal key text alone above the key byte limits', named('Long', { entities: { Item: entity({ attributes: { id: t.string() }, key: { pk: `${'é'.repeat(1000)}#${'p'.repeat(50)}#<id>` as 'E#<id>', sk: 'x'.repeat(1100) as 'x' } }) } }), [
    'DDB106 Long.entities.Item.key.pk: the literal text of this partition key template alone is 2052 bytes (UTF-8), above DynamoDB\'s 2048-byte limit for a partition key: every key built from it would be rejected | shorten the literal segments to well under 2048 bytes, leaving room for the values',
    'DDB106 Long.entities.Item.key.sk: the literal text of this sort key template alone is 1100 bytes (UTF-8), above DynamoDB\'s 1024-byte limit for a sort key: every key built from it would be rejected | shorten the literal segments to well under 1024 bytes, leaving room for the values',
  ]],
  ['a string where a traffic number belongs', named('Traffic', { entities: { Item: entity({ attributes: { id: t.string() }, key: { pk: 'E#<id>', sk: 'P' }, traffic: { writesPerSecond: '100' as unknown as number } }) } }), [
    'DDB080 Traffic.entities.Item.traffic.writesPerSecond: traffic writesPerSecond is "100", a string where a number belongs | traffic numbers are finite and not negative; hotKeyShare is a fraction from 0 to 1; leave a number out when unknown',
  ]],
  ['a rotation period ddbgen does not know', named('Rot', { rotation: 'fortnight' as 'day' }), [
    "DDB108 Rot.rotation: rotation \"fortnight\" is not a period ddbgen rotates tables by | use rotation: 'day' or 'week' or 'month' or 'year', or leave it out for one table",
  ]],
  ['key collisions are checked on every entity, even when another has an error', named('Coll', { entities: { A: keyed('X#<id>'), B: keyed('X#<id>'), C: keyed('C#<idd>') } }), [
    'DDB030 Coll.entities.C.key.pk: placeholder <idd> names no attribute of this entity | use one of "id", or declare "idd" in attributes',
    'DDB040 Coll.entities.B.key: A and B can build the same key (A (X#<id> | P) vs B (X#<id> | P)): one would overwrite the other | give one of them a literal segment of its own, e.g. a sort key starting "B#"',
  ]],
];

for (const [name, def, want] of limits) {
  test(`validate: ${name}`, (t) => {
    t.deepEqual(withFix(def), want);
  });
}

test('DynamoDB name rules: tables of 3 to 255 characters, also with a rotation suffix; index names', (t) => {
  const long = 'A'.repeat(250);
  t.deepEqual(withFix(named('T', {})), [
    'DDB109 T.name: table name "T" is 1 character long; DynamoDB table names are 3 to 255 characters (a-z, A-Z, 0-9, _, - and .; AWS: "Supported data types and naming rules in Amazon DynamoDB"), so CreateTable would reject it | use a name of at least 3 characters (letters, digits and _, starting with a letter, as ddbgen names the output after it), e.g. "TTable"',
  ]);
  t.deepEqual(withFix(named('B'.repeat(256), {})).map((d) => d.slice(0, 40)), ['DDB109 ' + 'B'.repeat(33)]);
  t.deepEqual(withFix(named(long, {})), [], '250 characters fit without rotation');
  t.deepEqual(withFix(named(long, { rotation: 'year' })), [], 'year: 250 + 5 = 255 fits');
  t.deepEqual(withFix(named(long, { rotation: 'day' })), [
    `DDB110 ${long}.rotation: with rotation 'day', the table's physical names are its name plus "_2024-05-06" (one table per period), 261 characters, above DynamoDB's 255 for a table name (AWS: "Supported data types and naming rules in Amazon DynamoDB"): those tables could not be created | shorten the table name to at most 244 characters, so the longest rotated name fits 255`,
  ]);
  t.deepEqual(withFix(named('A'.repeat(247), { rotation: 'week' })).map((d) => d.split(' | ')[1]), ['shorten the table name to at most 246 characters, so the longest rotated name fits 255']);
  t.deepEqual(withFix(named('A'.repeat(247), { rotation: 'month' })), [], '247 + 8 = 255 fits');
  const indexes = validateTable(named('Names', { indexes: { by: gsi({ pk: 'g1pk' }), [`by${'x'.repeat(254)}`]: gsi({ pk: 'g2pk' }), 'by-name': gsi({ pk: 'g3pk' }), byName: gsi({ pk: 'g4pk' }) } }));
  t.deepEqual(indexes.map((d) => `${d.code} ${d.path.join('.')}`), ['DDB023 indexes.by', `DDB023 indexes.by${'x'.repeat(254)}`, 'DDB023 indexes.by-name'], '2 and 256 characters, and a dash (DynamoDB allows it, a method name does not)');
  t.is(indexes[0]!.message, 'index name "by" is not 3 to 255 letters, digits or _ starting with a letter');
});

test('one schema with many different problems: every check runs on every entity, each says what, where and the fix', (a) => {
  const id = () => t.string();
  const def = defineTable({
    name: 'Ab',
    rotation: 'fortnight' as 'day',
    indexes: { x: gsi({ pk: 'gsi1pk' }) },
    entities: {
      class: entity({ attributes: { id: id() }, key: { pk: 'Class#<id>', sk: 'C' } }),
      User: entity({ attributes: { id: id(), n: t.number() }, key: { pk: 'User#<id>', sk: 'N#<n>' } }),
      Profile: entity({ attributes: { userId: id(), section: id() }, key: { pk: 'User#<userId>', sk: '<section>' } }),
      Settings: entity({ attributes: { userId: id() }, key: { pk: 'User#<userId>', sk: 'SETTINGS' }, traffic: { writesPerSecond: '5' as unknown as number } }),
      Note: entity({ attributes: { userId: id() }, key: { pk: 'User#<userId>', sk: 'x'.repeat(1025) as 'x' }, indexes: { byNote: { pk: 'N#<userId>' } } }),
    },
  } as Parameters<typeof defineTable>[0]);
  a.deepEqual(withFix(def), [
    'DDB109 Ab.name: table name "Ab" is 2 characters long; DynamoDB table names are 3 to 255 characters (a-z, A-Z, 0-9, _, - and .; AWS: "Supported data types and naming rules in Amazon DynamoDB"), so CreateTable would reject it | use a name of at least 3 characters (letters, digits and _, starting with a letter, as ddbgen names the output after it), e.g. "AbTable"',
    "DDB108 Ab.rotation: rotation \"fortnight\" is not a period ddbgen rotates tables by | use rotation: 'day' or 'week' or 'month' or 'year', or leave it out for one table",
    'DDB100 Ab.entities.class: entity "class" is a reserved word of JavaScript or TypeScript, so the generated code would not compile | rename it, e.g. "ClassItem"',
    'DDB023 Ab.indexes.x: index name "x" is not 3 to 255 letters, digits or _ starting with a letter | DynamoDB index names are 3 to 255 characters of a-z, A-Z, 0-9, _, - and . (AWS: "Supported data types and naming rules in Amazon DynamoDB"), and ddbgen names methods after the index (byName → queryByName), so use 3 to 255 letters, digits or _ starting with a letter: e.g. "byName"',
    'DDB034 Ab.entities.User.key.sk: number "n" is in a key, but it has no min and max | declare its range, e.g. t.number({ min: 0, max: 1e12, integer: true }): keys encode numbers fixed-width so they sort',
    'DDB106 Ab.entities.Note.key.sk: the literal text of this sort key template alone is 1025 bytes (UTF-8), above DynamoDB\'s 1024-byte limit for a sort key: every key built from it would be rejected | shorten the literal segments to well under 1024 bytes, leaving room for the values',
    'DDB050 Ab.entities.Note.indexes.byNote: index "byNote" is not declared on the table | use one of "x", or declare it in the table\'s indexes',
    'DDB080 Ab.entities.Settings.traffic.writesPerSecond: traffic writesPerSecond is "5", a string where a number belongs | traffic numbers are finite and not negative; hotKeyShare is a fraction from 0 to 1; leave a number out when unknown',
    'DDB040 Ab.entities.Settings.key: Profile and Settings can build the same key (Profile (User#<userId> | <section>) vs Settings (User#<userId> | SETTINGS)): one would overwrite the other | give one of them a literal segment of its own, e.g. a sort key starting "Settings#"',
  ]);
});

test('an entity without a key (IR not made by entity()) is DDB103, and the other checks still run', (t) => {
  const valid = named('NoKey', { entities: { Item: keyed('E#<id>'), Other: keyed('E#<id>') } });
  const { key: _key, ...keyless } = valid.entities['Item']!;
  const def = { ...valid, entities: { ...valid.entities, Item: keyless } } as unknown as TableDef;
  t.deepEqual(withFix(def), ["DDB103 NoKey.entities.Item.key: an entity has no key | give it key: { pk: '…', sk: '…' }, e.g. key: { pk: 'User#<id>', sk: 'PROFILE' }"]);
});

test('edges: their items must not collide with entities, and their names and labels are checked', (a) => {
  const actor = entity({ attributes: { id: t.number({ integer: true, min: 1, max: 1e9 }) }, key: { pk: 'Actor#<id>', sk: 'PROFILE' } });
  const clash = table({
    entities: {
      User: user,
      Actor: actor,
      Note: entity({ attributes: { userId: t.string(), at: t.string() }, key: { pk: 'User#<userId>', sk: 'FAN_OF#<at>' } }),
    },
    edges: { Fan: edge({ types: ['User', 'Actor'], forward: 'FAN_OF', inverse: 'FANNED_BY' }), 'bad name': edge({ types: ['x#y'] as never[], forward: 'A#B' }) },
  });
  a.deepEqual(brief(clash), [
    'DDB020 App.edges.bad name: edge name "bad name" is not a valid identifier',
    'DDB075 App.edges.bad name.types: node type "x#y" of edge bad name is not letters, digits, _ or - starting with a letter',
    'DDB140 App.edges.bad name.types: node type "x#y" of edge bad name is not an entity of this table',
    'DDB075 App.edges.bad name.forward: forward label "A#B" of edge bad name is not letters, digits, _ or - starting with a letter (and no "#")',
    "DDB041 App.edges.Fan: queries on Note would also read edge Fan (FAN_OF) items: edge Fan (FAN_OF)'s sort key can begin with \"FAN_OF#\"",
    "DDB041 App.entities.Note.key.sk: queries on edge Fan (FAN_OF) would also read Note items: Note's sort key can begin with \"FAN_OF#\"",
  ], 'key collisions are checked even when other declarations failed');
  const overlap = table({
    entities: { User: user, Actor: actor, Note: entity({ attributes: { userId: t.string(), at: t.string() }, key: { pk: 'User#<userId>', sk: 'FAN_OF#<at>' } }) },
    edges: { Fan: edge({ types: ['User', 'Actor'], forward: 'FAN_OF', inverse: 'FANNED_BY' }) },
  });
  a.deepEqual(brief(overlap), [
    "DDB041 App.edges.Fan: queries on Note would also read edge Fan (FAN_OF) items: edge Fan (FAN_OF)'s sort key can begin with \"FAN_OF#\"",
    "DDB041 App.entities.Note.key.sk: queries on edge Fan (FAN_OF) would also read Note items: Note's sort key can begin with \"FAN_OF#\"",
  ]);
});

test('edges connect entities whose partition key is one node, distinct per type, with valid traffic', (a) => {
  const id = () => t.number({ integer: true, min: 1, max: 1e9 });
  const nodes = table({
    entities: {
      User: entity({ attributes: { id: id() }, key: { pk: 'User#<id>', sk: 'PROFILE' } }),
      Post: entity({ attributes: { userId: id(), postId: t.string() }, key: { pk: 'User#<userId>', sk: 'Post#<postId>' } }),
      Settings: entity({ attributes: { userId: id() }, key: { pk: 'User#<userId>', sk: 'SETTINGS' } }),
      Global: entity({ attributes: { name: t.string() }, key: { pk: 'GLOBAL', sk: '<name>' } }),
      Vote: entity({ attributes: { id: t.string() }, key: { pk: 'Vote#<id>#<shard>', sk: 'V', shard: { count: 4, random: true } } }),
      Day: entity({ attributes: { at: t.timestamp({ unit: 'day' }) }, key: { pk: 'Day#<at:day>', sk: 'D' } }),
    },
    edges: {
      Likes: edge({
        types: ['User', 'Post', 'Global', 'Vote', 'Day', 'Movie' as 'User', 'Settings'],
        forward: 'LIKES',
        inverse: 'LIKED_BY',
        traffic: { writesPerSecond: -1, readsPerSecond: '9' as never, hotKeyShare: 1.5 },
      }),
    },
  });
  a.deepEqual(brief(nodes), [
    'DDB080 App.edges.Likes.traffic.writesPerSecond: traffic writesPerSecond is -1',
    'DDB080 App.edges.Likes.traffic.readsPerSecond: traffic readsPerSecond is "9", a string where a number belongs',
    'DDB080 App.edges.Likes.traffic.hotKeyShare: traffic hotKeyShare is 1.5, above 1',
    'DDB141 App.edges.Likes.types: entity Post\'s partition key "User#<userId>" cannot be a node key of edge Likes: its sort key "Post#<postId>" has placeholders, so the partition holds many Post items, not one node',
    'DDB141 App.edges.Likes.types: entity Global\'s partition key "GLOBAL" cannot be a node key of edge Likes: it has no placeholder, so every node would share one partition',
    'DDB141 App.edges.Likes.types: entity Vote\'s partition key "Vote#<id>#<shard>" cannot be a node key of edge Likes: it is write-sharded, so one node would be spread over several partitions',
    'DDB141 App.edges.Likes.types: entity Day\'s partition key "Day#<at:day>" cannot be a node key of edge Likes: "<at:day>" truncates a timestamp, so an id would not come back exactly',
    'DDB140 App.edges.Likes.types: node type "Movie" of edge Likes is not an entity of this table',
    'DDB142 App.edges.Likes.types: node types User and Settings of edge Likes can have the same node key (User "User#<id>" vs Settings "User#<userId>"), so their edges would mix',
  ]);
  const [notEntity] = validateTable(nodes).filter((d) => d.code === 'DDB140');
  a.is(notEntity!.fix, 'declare entity Movie, keyed by its own id (e.g. key: { pk: \'Movie#<id>\', sk: \'PROFILE\' }), or connect declared entities: "User", "Post", "Settings", "Global", "Vote", "Day"');
  const [collide] = validateTable(nodes).filter((d) => d.code === 'DDB142');
  a.is(collide!.fix, "give Settings a partition key of its own, e.g. pk 'Settings#<id>', or connect only one of them");
});

test('every diagnostic carries a fix and a path inside the table', (t) => {
  for (const [, def] of cases) {
    for (const d of validateTable(def)) {
      t.true(d.fix.length > 10, d.code);
      t.is(d.severity, 'error');
      t.is(d.target, [def.name, ...d.path].join('.'));
    }
  }
});

test('fixes say what to do', (t) => {
  const [unknown] = validateTable(cases[1]![1]);
  t.is(unknown!.fix, 'use one of "id", or declare "idd" in attributes');
  t.is(unknown!.offset, 5, 'points at the placeholder inside the template');
});
