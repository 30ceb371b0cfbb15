// The compiler pass over a table's generated files, held in memory: type-check them (a diagnostic
// is a ddbgen bug) and, for `emit: 'js'`, compile them to .js + .d.ts. It runs as a TypeScript
// builder program, so given the build state of the previous run it re-checks and re-emits only the
// files a change can affect (changed files, and files whose imports changed shape), like `tsc
// --incremental`. A run whose result no later run reads (no cache kept) checks them as a plain
// program, without the build state's bookkeeping.

import path from 'node:path';
import { getLibFiles } from '../../ts-morph.js';
import type { ts as TS } from 'ts-morph';
import { ts } from '../../ts-morph.js';

export const baseCompilerOptions: TS.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts'],
  types: [],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noUnusedLocals: true,
  noImplicitOverride: true,
  skipLibCheck: true,
  noEmit: true,
};

export interface CompileInput {
  /** Absolute path → text of every generated TypeScript file. */
  readonly files: ReadonlyMap<string, string>;
  readonly options: TS.CompilerOptions;
  /** The build state the previous run left (tsbuildinfo text), if any. */
  readonly buildInfo?: string;
  /** Make the build state for a next run (default true); false checks the files as a plain program. */
  readonly incremental?: boolean;
  /** Called after each generated file is checked, with how many are (1, 2, …). */
  readonly checking?: (file: number) => void;
}

export interface CompileResult {
  /** Error diagnostics, `file:line message`, with paths relative to `relativeTo`. */
  readonly errors: string[];
  /** Absolute path → text of each .js / .d.ts the compiler wrote in this run (affected files only). */
  readonly emitted: Map<string, string>;
  /** The build state to hand to the next run (undefined when not incremental). */
  readonly buildInfo: string | undefined;
  /** Generated files whose semantic diagnostics were computed in this run (not taken from the build state). */
  readonly checked: number;
}

const LIB_FOLDER = '/ddbgen-typescript-lib';
let libTexts: Map<string, string> | undefined;
const libText = (file: string) => (libTexts ??= new Map(getLibFiles().map((f) => [path.join(LIB_FOLDER, f.fileName), f.text]))).get(file);

const BUILD_INFO = '/ddbgen-build/state.tsbuildinfo';

/**
 * Parsed files of earlier runs in this process (watch mode), by path and parse options: an
 * unchanged file is not parsed again, as in tsc --watch.
 */
const parsed = new Map<string, TS.SourceFile & { version?: string }>();

/** Type-checks (and with `noEmit: false`, compiles) the files; see the header. */
export function compileGenerated(input: CompileInput, relativeTo: string): CompileResult {
  const incremental = input.incremental ?? true;
  const options: TS.CompilerOptions = incremental ? { ...input.options, incremental: true, tsBuildInfoFile: BUILD_INFO } : input.options;
  const optionsKey = JSON.stringify(options);
  const host = incremental ? ts.createIncrementalCompilerHost(options) : ts.createCompilerHost(options);
  // as tsc parses: doc comments of TypeScript files only where they change a type error
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const hash = host.createHash ?? ts.sys.createHash ?? ((text: string) => String(text.length));
  const read = (file: string) => (file === BUILD_INFO ? input.buildInfo : (input.files.get(file) ?? libText(file)));
  const emitted = new Map<string, string>();
  let buildInfo = input.buildInfo;
  const fallbackRead = host.readFile.bind(host);
  const fallbackExists = host.fileExists.bind(host);
  host.getDefaultLibLocation = () => LIB_FOLDER;
  host.getDefaultLibFileName = (o) => path.join(LIB_FOLDER, ts.getDefaultLibFileName(o));
  const folders = new Set<string>();
  for (const file of input.files.keys()) for (let dir = path.dirname(file); !folders.has(dir) && path.dirname(dir) !== dir; dir = path.dirname(dir)) folders.add(dir);
  const fallbackDirectoryExists = host.directoryExists?.bind(host);
  const fallbackRealpath = host.realpath?.bind(host);
  host.directoryExists = (dir) => folders.has(dir) || dir === LIB_FOLDER || (fallbackDirectoryExists?.(dir) ?? false);
  host.realpath = (file) => (input.files.has(file) || folders.has(file) ? file : (fallbackRealpath?.(file) ?? file));
  // A folder of generated files holds only them: what an earlier output left there on disk (an older
  // runtime's .ts beside the new .d.ts, say) must not shadow them.
  const generatedFolders = new Set([...input.files.keys()].map((file) => path.dirname(file)));
  const onDisk = (file: string) => !generatedFolders.has(path.dirname(file));
  host.readFile = (file) => read(file) ?? (onDisk(file) ? fallbackRead(file) : undefined);
  host.fileExists = (file) => read(file) !== undefined || (onDisk(file) && fallbackExists(file));
  host.getSourceFile = (file, language) => {
    const text = host.readFile(file);
    if (text === undefined) return undefined;
    const version = hash(text);
    const key = `${file}\0${optionsKey}\0${JSON.stringify(language)}`;
    const known = parsed.get(key);
    if (known?.version === version) return known;
    const source: TS.SourceFile & { version?: string } = ts.createSourceFile(file, text, language);
    source.version = version;
    parsed.set(key, source);
    return source;
  };
  host.writeFile = (file, text) => {
    if (file === BUILD_INFO) buildInfo = text;
    else emitted.set(file, text);
  };

  let checked = 0;
  const counted = () => {
    checked++;
    input.checking?.(checked);
  };
  const errors = new Set<string>();
  const collect = (diagnostics: readonly TS.Diagnostic[]) => {
    for (const d of diagnostics) {
      if (d.category !== ts.DiagnosticCategory.Error) continue;
      const where = d.file ? `${path.relative(relativeTo, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
      errors.add(`${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    }
  };
  /** Compiles what the program holds (nothing with noEmit) once it has no errors. */
  const emit = (program: TS.Program | TS.BuilderProgram) => {
    if (errors.size) return;
    const result = program.emit();
    collect(result.diagnostics);
    if (result.emitSkipped && !input.options.noEmit) errors.add('the compiler emitted nothing');
  };

  if (incremental) {
    const builder = ts.createEmitAndSemanticDiagnosticsBuilderProgram([...input.files.keys()], options, host, input.buildInfo === undefined ? undefined : ts.readBuilderProgram(options, host));
    for (let next; (next = builder.getSemanticDiagnosticsOfNextAffectedFile()); ) if ('fileName' in next.affected && input.files.has(next.affected.fileName)) counted();
    // the affected files' diagnostics just computed, and the others' from the build state
    collect([...builder.getOptionsDiagnostics(), ...builder.getGlobalDiagnostics(), ...builder.getSyntacticDiagnostics(), ...builder.getSemanticDiagnostics()]);
    emit(builder);
    return { errors: [...errors], emitted, buildInfo, checked };
  }

  const program = ts.createProgram([...input.files.keys()], options, host);
  collect([...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]);
  for (const file of input.files.keys()) {
    const source = program.getSourceFile(file);
    collect([...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]);
    counted();
  }
  emit(program);
  return { errors: [...errors], emitted, buildInfo: undefined, checked };
}
