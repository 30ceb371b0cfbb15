// Validation: every problem of a schema is found at once, with a stable code, a path, an exact
// message and a fix.
import test from 'ava';
import { defineTable, edge, entity, gsi, lsi, t } from '../dsl/index.js';
import type { TableDef } from '../dsl/ir.js';
import { validateTable } from '../generator/validate/validate-table.js';

const user = entity({ attributes: { id: t.string() }, key: { pk: 'User#<id>', sk: 'PROFILE' } });
const table = (extra: Partial<Parameters<typeof defineTable>[0]>): TableDef =>
  defineTable({ name: 'T', entities: { User: user }, ...extra } as Parameters<typeof defineTable>[0]);
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
    'DDB030 T.entities.User.key.pk: placeholder <idd> names no attribute of this entity',
  ]],
  ['malformed segments', table({ entities: { User: entity({ attributes: { id: t.string() }, key: { pk: 'User#<id>##', sk: 'a<id>' as 'X' } }) } }), [
    'DDB031 T.entities.User.key.pk: key segment "User#<id>##" has an empty segment at character 11 (two delimiters in a row, or one at an end)',
    'DDB031 T.entities.User.key.pk: key segment "User#<id>##" has an empty segment at character 12 (two delimiters in a row, or one at an end)',
    'DDB031 T.entities.User.key.sk: key segment "a<id>" mixes text and a placeholder, or has an unmatched < or >',
  ]],
  ['unkeyable types, truncation, numbers without range, optional key parts', table({
    entities: {
      User: entity({
        attributes: { id: t.string(), tags: t.list(t.string()), n: t.number(), m: t.number({ min: 5, max: 1 }), nick: t.string().optional(), big: t.number({ min: 0, max: 2 ** 60, integer: true }) },
        key: { pk: 'User#<id:day>#<tags>', sk: '<n>#<m>#<nick>#<big>' },
      }),
    },
  }), [
    'DDB032 T.entities.User.key.pk: <id> truncates a string attribute; only timestamps truncate, to minute, hour, day or month',
    'DDB033 T.entities.User.key.pk: "tags" is a list attribute, which cannot be part of a key',
    'DDB034 T.entities.User.key.sk: number "n" is in a key, but it has no min and max',
    'DDB034 T.entities.User.key.sk: number "m" is in a key, but its min 5 is above its max 1',
    'DDB035 T.entities.User.key.sk: optional attribute "nick" is part of the primary key',
    'DDB034 T.entities.User.key.sk: number "big" is in a key, but its range 0..1152921504606847000 is wider than 2^53 - 1',
  ]],
  ['sort key required by the table, and an attribute named like a key', table({ entities: { User: entity({ attributes: { id: t.string(), sk: t.string() }, key: { pk: 'User#<id>' } }) } }), [
    'DDB022 T.entities.User.attributes.sk: User declares attribute "sk", which is the table\'s key attribute "sk"',
    'DDB036 T.entities.User.key: User has no sort-key template, but the table has a sort key "sk"',
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
    'DDB013 T.indexes.dup: attribute name "sk" is used twice as a key attribute (table sk, dup pk)',
    'DDB023 T.indexes.x: index name "x" is not 3 to 255 letters, digits or _ starting with a letter',
    'DDB051 T.entities.User.indexes.gsi1: User\'s mapping for GSI "gsi1" has no sk template, but the index has a sort key',
    'DDB051 T.entities.User.indexes.lsi1.pk: LSI "lsi1" shares the table\'s partition key; User\'s mapping cannot give a pk',
    'DDB050 T.entities.User.indexes.nope: index "nope" is not declared on the table',
  ]],
  ['two entities that build the same key', table({
    entities: {
      User: user,
      Profile: entity({ attributes: { userId: t.string(), section: t.string() }, key: { pk: 'User#<userId>', sk: '<section>' } }),
    },
  }), [
    'DDB040 T.entities.Profile.key: User and Profile can build the same key (User (User#<id> | PROFILE) vs Profile (User#<userId> | <section>)): one would overwrite the other',
  ]],
  ['an entity inside another one\'s query range', table({
    entities: {
      Order: entity({ attributes: { u: t.string(), o: t.string() }, key: { pk: 'U#<u>', sk: 'ORDER#<o>' } }),
      Line: entity({ attributes: { u: t.string(), o: t.string(), n: t.number({ min: 0, max: 99, integer: true }) }, key: { pk: 'U#<u>', sk: 'ORDER#<o>#<n>' } }),
    },
  }), [
    'DDB041 T.entities.Line.key.sk: queries on Order would also read Line items: Line\'s sort key can begin with "ORDER#"',
    'DDB041 T.entities.Order.key.sk: queries on Line would also read Order items: Order\'s sort key can begin with "ORDER#"',
  ]],
  ['an entity whose sort key starts with a value reads the whole partition', table({
    entities: {
      Event: entity({ attributes: { u: t.string(), at: t.timestamp() }, key: { pk: 'U#<u>', sk: '<at>' } }),
      Note: entity({ attributes: { u: t.string() }, key: { pk: 'U#<u>', sk: 'NOTE' } }),
    },
  }), [
    'DDB041 T.entities.Note.key.sk: queries on Event would also read Note items: Event\'s sort key starts with a value, so its queries read the whole partition',
  ]],
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
    'DDB060 T.entities.User.version: version attribute "rev" is a non-integer number',
    'DDB060 T.entities.Doc.version: version attribute "v" is part of a key template; a version changes on every write, so the item would move',
  ]],
  ['a pattern naming an unknown entity', table({
    patterns: { p: { entity: 'Nope' as 'User' } },
  }), [
    'DDB070 T.patterns.p.entity: pattern "p" names entity "Nope", which is not declared',
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
    'DDB071 T.patterns.get: pattern "get" would take the name of a generated PostRepository method',
    'DDB071 T.patterns.byIndex.index: pattern "byIndex" uses index "byName", which Post does not map into',
    'DDB072 T.patterns.noSk.op: pattern "noSk" has op "gte" but no sk attribute to apply it to',
    'DDB072 T.patterns.wrongSk.sk: pattern "wrongSk" compares "title", which is not part of Post\'s sort key on the table',
    'DDB073 T.patterns.prefixOfNumber.op: pattern "prefixOfNumber" uses beginsWith on "n", a number: only strings are stored as readable text in keys',
    'DDB020 T.patterns.bad-name: pattern name "bad-name" is not a valid identifier',
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
    'DDB160 T.entities.User.attributes.__proto__: User declares attribute "__proto__", a name that reaches into JavaScript\'s object prototype',
    'DDB160 T.entities.User.attributes.constructor: User declares attribute "constructor", a name that reaches into JavaScript\'s object prototype',
    'DDB160 T.entities.User.attributes.prefs.fields.prototype: User declares attribute "prototype", a name that reaches into JavaScript\'s object prototype',
    'DDB030 T.entities.User.key.pk: placeholder <toString> names no attribute of this entity',
    'DDB160 T.edges.Fan.attributes.constructor: edge Fan declares attribute "constructor", a name that reaches into JavaScript\'s object prototype',
  ]],
];

for (const [name, def, want] of cases) {
  test(`validate: ${name}`, (t) => {
    t.deepEqual(brief(def), want);
  });
}

test('edges: their items must not collide with entities, and their names and labels are checked', (a) => {
  const clash = table({
    entities: {
      User: user,
      Note: entity({ attributes: { userId: t.string(), at: t.string() }, key: { pk: 'User#<userId>', sk: 'FAN_OF#<at>' } }),
    },
    edges: { Fan: edge({ types: ['User', 'Actor'], forward: 'FAN_OF', inverse: 'FANNED_BY' }), 'bad name': edge({ types: ['x#y'], forward: 'A#B' }) },
  });
  a.deepEqual(brief(clash), [
    'DDB020 T.edges.bad name: edge name "bad name" is not a valid identifier',
    'DDB075 T.edges.bad name.types: node type "x#y" of edge bad name is not letters, digits, _ or - starting with a letter',
    'DDB075 T.edges.bad name.forward: forward label "A#B" of edge bad name is not letters, digits, _ or - starting with a letter (and no "#")',
  ]);
  const overlap = table({
    entities: { User: user, Note: entity({ attributes: { userId: t.string(), at: t.string() }, key: { pk: 'User#<userId>', sk: 'FAN_OF#<at>' } }) },
    edges: { Fan: edge({ types: ['User', 'Actor'], forward: 'FAN_OF', inverse: 'FANNED_BY' }) },
  });
  a.deepEqual(brief(overlap), [
    "DDB041 T.edges.Fan: queries on Note would also read edge Fan (FAN_OF) items: edge Fan (FAN_OF)'s sort key can begin with \"FAN_OF#\"",
    "DDB041 T.entities.Note.key.sk: queries on edge Fan (FAN_OF) would also read Note items: Note's sort key can begin with \"FAN_OF#\"",
  ]);
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
