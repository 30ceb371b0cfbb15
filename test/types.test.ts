// Type tests: the DSL and the generated API reject misuse at compile time, with readable messages.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { Project, ts } from 'ts-morph';
import { NO_CHECK } from '../generator/emit/context.js';

const root = path.resolve(import.meta.dirname, '..');
const project = new Project({ tsConfigFilePath: path.join(root, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });

function errors(file: string, text?: string): string[] {
  const source = text === undefined ? project.addSourceFileAtPath(file) : project.createSourceFile(file, text, { overwrite: true });
  return source.getPreEmitDiagnostics().map((d) => `${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.getMessageText() as string, '\n')}`);
}

test('every @ts-expect-error in the type tests sees its error, and nothing else fails', (t) => {
  t.deepEqual(errors(path.join(root, 'test/types/dsl.test-d.ts')), []);
  t.deepEqual(errors(path.join(root, 'test/types/generated-api.test-d.ts')), []);
  t.deepEqual(errors(path.join(root, 'test/types/native-indexes.test-d.ts')), []);
  t.deepEqual(errors(path.join(root, 'test/types/seams.test-d.ts')), []);
});

test('an unknown placeholder is a compile error that names it', (t) => {
  const found = errors(
    path.join(root, 'test/types/probe.ts'),
    `import { entity, t } from 'ddbgen';\nexport const e = entity({ attributes: { id: t.string() }, key: { pk: 'User#<idd>' } });\n`,
  );
  t.deepEqual(found, [`2: Type '"User#<idd>"' is not assignable to type '"unknown placeholder <idd>: not an attribute of this entity"'.`]);
});

test('an unknown truncation is a compile error that lists the units', (t) => {
  const found = errors(
    path.join(root, 'test/types/probe.ts'),
    `import { entity, t } from 'ddbgen';\nexport const e = entity({ attributes: { at: t.timestamp() }, key: { pk: 'D#<at:week>' } });\n`,
  );
  t.deepEqual(found, [`2: Type '"D#<at:week>"' is not assignable to type '"unknown truncation :week: use minute, hour, day or month"'.`]);
});

test('a stream handler map must handle or ignore every entity, edge and unknown, and names no other', (t) => {
  t.deepEqual(errors(path.join(root, 'test/types/streams.test-d.ts')), []);
  const probe = (handlers: string) =>
    project
      .createSourceFile(path.join(root, 'test/types/probe.ts'), `import { handleFansStream } from '../../out/fans/index.js';\nhandleFansStream({ ${handlers} });\n`, { overwrite: true })
      .getPreEmitDiagnostics()
      .map((d) => `${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n')}`);
  const missing = probe("User: 'ignore', Actor: 'ignore', Fan: 'ignore', unknown: 'ignore'");
  t.is(missing.length, 1);
  t.regex(missing[0]!, /^2: Argument of type .* is not assignable to parameter of type 'FansStreamHandlers'\.\n  Property 'Series' is missing in type /);
  t.deepEqual(probe("User: 'ignore', Actor: 'ignore', Series: 'ignore', Fan: 'ignore', unknown: 'ignore', Movie: 'ignore'"), [
    `2: Object literal may only specify known properties, and 'Movie' does not exist in type 'FansStreamHandlers'.`,
  ]);
});

test("a generated module's bodies are left to ddbgen's own check (NO_CHECK); the app's compiler still checks the calls", (t) => {
  const user = readFileSync(path.join(root, 'out/social/user.ts'), 'utf8');
  t.true(user.split('\n').slice(0, 4).includes(NO_CHECK), 'in the header, before any statement');
  t.false(readFileSync(path.join(root, 'out/social/runtime/codec.d.ts'), 'utf8').includes('@ts-nocheck'), 'declarations are not TypeScript modules to check');
  const planted = `${user}\nconst planted: number = 'one';\n`;
  t.deepEqual(errors(path.join(root, 'out/social/user-probe.ts'), planted), [], 'a body error is not reported again in the app');
  t.deepEqual(errors(path.join(root, 'out/social/user-probe.ts'), planted.replace(`${NO_CHECK}\n`, '')), [`${planted.split('\n').length - 2}: Type 'string' is not assignable to type 'number'.`], 'without the directive it would be');
  const call = `import { SocialTable } from '../../out/social/index.js';\ndeclare const db: SocialTable;\nawait db.user.get({ id: 1 });\n`;
  t.deepEqual(errors(path.join(root, 'test/types/probe.ts'), call), [`3: Type 'number' is not assignable to type 'string'.`], 'a wrong call is an error at the call');
});

test('generated modules declare what they export (an app compiled with isolatedDeclarations builds them)', (t) => {
  const folders = ['social', 'clicks', 'fans', 'sessions', 'tenants', 'seams', 'saas', 'stored-formats'];
  const isolated = new Project({ tsConfigFilePath: path.join(root, 'tsconfig.json'), skipAddingFilesFromTsConfig: true, compilerOptions: { isolatedDeclarations: true, declaration: true } });
  for (const folder of folders) isolated.addSourceFilesAtPaths(path.join(root, 'out', folder, '*.ts'));
  t.true(isolated.getSourceFiles().length > 60);
  const found = isolated.getPreEmitDiagnostics().map((d) => `${path.relative(root, d.getSourceFile()?.getFilePath() ?? '')}:${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.getMessageText() as string, '\n')}`);
  t.deepEqual(found, []);
});
