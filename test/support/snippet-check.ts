// The compiler's complaints about a generated snippet (a CDK stack, a CloudFormation helper) that
// imports packages the tests do not install: every diagnostic except "cannot find module" (2307),
// so an unused import (noUnusedLocals, noUnusedParameters) or a type error still shows. One
// in-memory project for the whole file, so the default library is parsed once, not per snippet.
import { Project } from 'ts-morph';

let project: Project | undefined;
let count = 0;

/** `code: message` of each diagnostic of `text`, strict with unused names reported; module resolution failures left out. */
export function snippetProblems(text: string): string[] {
  project ??= new Project({ useInMemoryFileSystem: true, compilerOptions: { noUnusedLocals: true, noUnusedParameters: true, strict: true } });
  const file = project.createSourceFile(`snippet-${count++}.ts`, text);
  try {
    return file.getPreEmitDiagnostics().filter((d) => d.getCode() !== 2307).map((d) => `${d.getCode()}: ${String(d.getMessageText())}`);
  } finally {
    project.removeSourceFile(file);
  }
}
