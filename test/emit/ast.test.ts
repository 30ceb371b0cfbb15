// The AST helpers: given/want tables of small exact outputs.
import test from 'ava';
import { arr, arrayOf, call, construct, forAwait, Imports, literal, literalType, obj, objectType, print, prop, keyword, spread, typeRef, union, unionText, wrapText, id } from '../../generator/emit/ast.js';

const cases: Array<[string, () => string, string]> = [
  ['object type, optional and odd names', () => print(objectType([{ name: 'a', type: keyword.string() }, { name: 'b-c', type: typeRef('Date'), optional: true }])), "{ a: string; 'b-c'?: Date; }"],
  ['empty object type takes nothing', () => print(objectType([])), 'Record<string, never>'],
  ['union of literals', () => print(union(['A', "it's"].map(literalType))), "'A' | 'it\\'s'"],
  ['one-member union stands alone', () => print(union([keyword.number()])), 'number'],
  ['property access, bare and quoted', () => print(prop(prop('this.context', 'client'), 'odd-name')), "this.context.client['odd-name']"],
  ['call with type arguments', () => print(call('getItem', [id('key')], [typeRef('User')])), 'getItem<User>(key)'],
  ['object literal: shorthand, undefined left out', () => print(obj([['key', id('key')], ['skip', undefined], ['n', literal(1)]])), '{ key, n: 1 }'],
  ['plain data as a literal', () => print(literal({ a: [true, 'x'], b: undefined, c: -2 })), "{ a: [true, 'x'], c: -2 }"],
  ['object literal with a spread', () => print(obj([spread(id('options')), ['tableName', id('name')]])), '{ ...options, tableName: name }'],
  ['new with type arguments', () => print(construct('EntityTransaction', [id('writes')], [typeRef('Tx'), literalType(true)])), 'new EntityTransaction<Tx, true>(writes)'],
  ['for await over an iterator', () => forAwait('item', call('db.user.queryAll', [id('partition')]), call('console.log', [id('item')])), 'for await (const item of db.user.queryAll(partition))\n    console.log(item);'],
  ['array type', () => print(arrayOf(typeRef('CollectionMember'))), 'CollectionMember[]'],
  ['short union as a type alias: one line', () => unionText([literalType('a'), keyword.undefined()]), "'a' | undefined"],
  [
    'long union as a type alias: one member per line',
    () => unionText(['Alpha', 'Beta'].map((name) => objectType([{ name: 'type', type: literalType(name), readonly: true }, { name: 'item', type: typeRef(name), readonly: true }]))),
    "\n  | { readonly type: 'Alpha'; readonly item: Alpha; }\n  | { readonly type: 'Beta'; readonly item: Beta; }",
  ],
  ['long literal: one member per line', () => print(arr(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota'].map((s) => literal(s)))).split('\n').length.toString(), '11'],
];
for (const [name, given, want] of cases) {
  test(`ast: ${name}`, (t) => {
    t.is(given(), want);
  });
}

test('ast: doc text wraps at word boundaries and keeps an example as written', (t) => {
  t.is(wrapText('one two three four', 9), 'one two\nthree\nfour');
  t.is(wrapText('@example\nawait db.user.get({ id: "a long line that stays whole" });', 10), '@example\nawait db.user.get({ id: "a long line that stays whole" });');
});

test('ast: imports are what the code used, values and types apart, sorted', (t) => {
  const imports = new Imports();
  imports.type('./runtime/repository.js', 'Page');
  imports.value('./runtime/repository.js', 'queryPage');
  imports.type('./runtime/repository.js', 'queryPage');
  imports.type('@aws-sdk/lib-dynamodb', 'DynamoDBDocumentClient');
  t.deepEqual(imports.declarations(), [
    { moduleSpecifier: '@aws-sdk/lib-dynamodb', isTypeOnly: true, namedImports: ['DynamoDBDocumentClient'] },
    { moduleSpecifier: './runtime/repository.js', namedImports: [{ name: 'Page', isTypeOnly: true }, 'queryPage'] },
  ]);
});
