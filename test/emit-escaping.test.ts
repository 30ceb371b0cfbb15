// Schema text in emitted code: doc text and literals are escaped in every comment and string, so
// nothing a schema declares can close a comment or a string and put code into the generated module;
// validation also refuses key literals that are not printable or hold comment/template delimiters.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import fc from 'fast-check';
import { ts } from 'ts-morph';
import { defineTable, entity, t as types } from '../dsl/index.js';
import type { TableDef } from '../dsl/ir.js';
import { commentText, quote } from '../generator/emit/context.js';
import { generateTable } from '../generator/emit/generate.js';
import { validateTable } from '../generator/load/validate-table.js';

const root = path.resolve(import.meta.dirname, '..');
const PAYLOAD = '(globalThis as any).ddbgenInjected = true;';

/** A table whose key literal and attribute name try to close the doc comments they are printed in. */
function hostile(): TableDef {
  return defineTable({
    name: 'Evil',
    entities: {
      User: entity({
        attributes: { [`id*/ ${PAYLOAD} /*`]: types.string(), name: types.string() },
        key: { pk: `U*/ ${PAYLOAD} /*#<id*/ ${PAYLOAD} /*>` as never, sk: 'PROFILE' },
      }),
    },
  });
}

test('a key literal or attribute name holding */ stays inside the generated doc comments: importing the module runs nothing', async (t) => {
  const table = hostile();
  const { files } = generateTable(table, path.join(root, 'out'));
  const module = files.get('evil/user.ts')!;
  t.true(module.includes('*\\/'), 'the comment delimiter is escaped');
  // every top-level statement of the module is one ddbgen emits: imports, types, the keys, the record conversions, the model, the operations as functions and the repository
  const source = ts.createSourceFile('user.ts', module, ts.ScriptTarget.ES2022, true);
  const functions = ['userToRecord', 'userFromRecord', ...['get', 'put', 'create', 'replace', 'update', 'delete', 'batchGet', 'batchPut', 'batchDelete'].map((m) => `user${m[0]!.toUpperCase()}${m.slice(1)}`)];
  const conversion = (s: ts.Node) => ts.isFunctionDeclaration(s) && functions.includes(s.name?.text ?? '');
  const emitted = [ts.isImportDeclaration, ts.isInterfaceDeclaration, ts.isTypeAliasDeclaration, ts.isVariableStatement, ts.isClassDeclaration, conversion];
  t.deepEqual(source.statements.filter((s) => !emitted.some((is) => is(s))).map((s) => s.getText()), []);

  const dir = path.join(root, 'out', `test-emit-escaping-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  for (const [file, text] of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const imported = (await import(pathToFileURL(path.join(dir, 'evil', 'index.ts')).href)) as Record<string, unknown>;
  t.truthy(imported.EvilTable);
  t.is((globalThis as { ddbgenInjected?: boolean }).ddbgenInjected, undefined, 'the payload never ran');
  rmSync(dir, { recursive: true, force: true });
});

test('a name the emitters print as an identifier must be one, even when validation is bypassed', (t) => {
  const table = defineTable({ name: 'App', entities: { ['User = 1; (globalThis as any).x = 1; const Y']: entity({ attributes: { id: types.string() }, key: { pk: 'U#<id>', sk: 'P' } }) } });
  t.throws(() => generateTable(table, path.join(root, 'out')), { message: /^internal: "User = 1; .*" is not an identifier; validate the table before generating it$/ });
});

test('commentText escapes comment terminators; quote escapes every character that could end or bend a string literal', (t) => {
  t.is(commentText('a */ b'), 'a *\\/ b');
  t.is(commentText('**/'), '**\\/');
  t.is(quote("a'b\\c\u0000\t\u2028"), "'a\\'b\\\\c\\u0000\\t\\u2028'");
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (text) => {
      // the printed literal is one string token that evaluates back to the text
      const literal = quote(text);
      const scanned = ts.createSourceFile('x.ts', `const x = ${literal};`, ts.ScriptTarget.ES2022, true);
      const statement = scanned.statements[0] as ts.VariableStatement;
      const init = statement.declarationList.declarations[0]!.initializer!;
      return scanned.statements.length === 1 && ts.isStringLiteral(init) && init.text === text && !/[\n\r\u2028\u2029]/.test(literal);
    }),
  );
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (text) => {
      const scanned = ts.createSourceFile('x.ts', `/** ${commentText(text)} */ const x = 1;`, ts.ScriptTarget.ES2022, true);
      return scanned.statements.length === 1 && ts.isVariableStatement(scanned.statements[0]!);
    }),
  );
});

const literals: Array<[string, string, string, number]> = [
  ['a comment terminator', 'User*/x', 'contains "*/", which closes a comment', 4],
  ['a comment opener', 'a/*b', 'contains "/*", which opens a comment', 1],
  ['a template delimiter', 'a${b}', 'contains "${", which opens a template substitution', 1],
  ['a backtick', 'a`b', 'contains "`", which delimits a template literal', 1],
  ['a control character', 'ab\u0000', 'contains U+0000, which is not a printable character', 2],
  ['a line break', 'a\nb', 'contains U+000A, which is not a printable character', 1],
  ['a line separator', 'a\u2028b', 'contains U+2028, which is not a printable character', 1],
  ['a zero-width joiner', 'a\u200db', 'contains U+200D, which is not a printable character', 1],
  ['a no-break space', 'a\u00a0b', 'contains U+00A0, which is not a printable character', 1],
];
for (const [name, literal, reason, at] of literals) {
  test(`DDB170: a key literal with ${name} is refused`, (t) => {
    const table = defineTable({
      name: 'App',
      entities: { User: entity({ attributes: { id: types.string() }, key: { pk: `${literal}#<id>` as never, sk: 'P' } }) },
    });
    const found = validateTable(table).filter((d) => d.code === 'DDB170');
    t.deepEqual(
      found.map((d) => ({ message: d.message, target: d.target, offset: d.offset })),
      [{ message: `key template ${JSON.stringify(`${literal}#<id>`)} ${reason}`, target: 'App.entities.User.key.pk', offset: at }],
    );
    t.regex(found[0]!.fix, /printable/);
  });
}

test('DDB170: printable literals in any script, spaces and ordinary punctuation are accepted', (t) => {
  const table = defineTable({
    name: 'App',
    entities: { User: entity({ attributes: { id: types.string() }, key: { pk: 'Usuário Ünïcode/ü-1*#<id>' as never, sk: 'P/1' } }) },
  });
  t.deepEqual(validateTable(table), []);
});
