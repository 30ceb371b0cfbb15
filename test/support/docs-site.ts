// The code blocks of the documentation site (docs/**/*.md but the generated reference: the API
// pages and the per-code pages), read with their place and their fence's words, and written out as
// TypeScript modules under out/.docs-examples/ so that one program type-checks them all and the
// test can import them. A fence says what else a block is:
//
//   ```ts                        type-checked as a module of its own
//   ```ts prelude=social         after docs/.vitepress/preludes/social.ts (hidden on the page: the
//                                imports and the `db` the block uses)
//   ```ts run                    also run against DynamoDB Local; the ```text block right after it
//                                is what it must print
//   a `// sends QueryCommand:` comment (the layout of the generated `@example`s): the calls above
//   it are run over a recording client and must send exactly that request
//   ```console                   `$ npx ddbgen …` lines, each followed by what it prints: run from
//                                the repository's root, they must print exactly that
//
// A user's import of `./out/<table>/index.js` reads the output generated from the fixtures (and
// `./out/app/` the one `ddbgen init`'s schema generates); `./docs-client.js` (preludes only) is
// test/support/docs-client.ts, which hands the block the client the test chose.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');
export const docsDir = path.join(root, 'docs');
/** Where the blocks are written as modules (git-ignored, like all of out/). */
export const examplesDir = path.join(root, 'out/.docs-examples');
/** The endpoint the guide's programs name; a run points it at the test's DynamoDB Local. */
export const LOCAL_ENDPOINT = 'http://localhost:8000';

/** Pages generated from declarations and the catalogue: their snippets are fragments of doc comments, checked where they are written. */
const GENERATED = /^(api|codes|rules)\//;

export interface Block {
  /** The page, relative to docs/. */
  readonly page: string;
  /** The line of the block's first code line in the page (1-based). */
  readonly line: number;
  readonly lang: string;
  readonly words: readonly string[];
  readonly code: string;
  /** The fence's indent (a block in a list item), taken off `code`. */
  readonly indent: string;
}

export interface TsBlock extends Block {
  readonly prelude: string | undefined;
  readonly run: boolean;
  /** The ```text block right after a `run` block: what it prints, and its first line in the page. */
  readonly output: string | undefined;
  readonly outputLine: number | undefined;
  /** The module written for the type check (and for a recorded run). */
  readonly file: string;
  /** How many lines the prelude adds before the block's first line in `file`. */
  readonly offset: number;
}

/** Every Markdown page of the site that is written by hand, relative to docs/, and the README (`../README.md`), whose examples are held to the same rules. */
export function pages(): string[] {
  const site = (readdirSync(docsDir, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.md') && !f.startsWith('.') && !GENERATED.test(f))
    .sort();
  return ['../README.md', ...site];
}

/** A page's place as a message names it: docs/guide/lint.md:12, README.md:40. */
export const placeOf = (page: string, line: number) => `${path.relative(root, path.join(docsDir, page))}:${line}`;

/** The fenced blocks of one page. */
export function blocksOf(page: string): Block[] {
  const lines = readFileSync(path.join(docsDir, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open;
    const end = lines.findIndex((line, j) => j > i && line.trimEnd() === `${indent}${fence}`);
    if (end < 0) throw new Error(`${placeOf(page, i + 1)}: a code block that is never closed`);
    const code = lines.slice(i + 1, end).map((line) => line.slice(indent!.length)).join('\n');
    blocks.push({ page, line: i + 2, lang: lang!, words: rest!.split(/\s+/).filter(Boolean), code, indent: indent! });
    i = end;
  }
  return blocks;
}

const isTs = (block: Block) => block.lang === 'ts' || block.lang === 'typescript';

/** A user's import path as the example modules reach it from out/.docs-examples/. */
function resolveImports(code: string): string {
  return code
    .replace(/(['"])\.\/out\//g, '$1../')
    .replace(/(['"])\.\/docs-client\.js\1/g, '$1../../test/support/docs-client.js$1');
}

const preludes = new Map<string, string>();
function prelude(name: string, where: string): string {
  let text = preludes.get(name);
  if (text === undefined) {
    try {
      text = readFileSync(path.join(docsDir, '.vitepress/preludes', `${name}.ts`), 'utf8');
    } catch {
      throw new Error(`${where}: no prelude docs/.vitepress/preludes/${name}.ts`);
    }
    preludes.set(name, text);
  }
  return text;
}

/** The module text of a block: its prelude, then the block, as a module (so top-level await and names stay its own). */
export function moduleText(block: Block, preludeName: string | undefined, endpoint?: string): { text: string; offset: number } {
  const head = preludeName === undefined ? '' : prelude(preludeName, placeOf(block.page, block.line));
  const code = endpoint === undefined ? block.code : block.code.replaceAll(LOCAL_ENDPOINT, endpoint);
  return { text: resolveImports(`${head}${code}\nexport {};\n`), offset: head.split('\n').length - 1 };
}

/** Every TypeScript block of the site, written out under out/.docs-examples/ (the folder is rewritten). */
export function writeExamples(): TsBlock[] {
  rmSync(examplesDir, { recursive: true, force: true });
  mkdirSync(examplesDir, { recursive: true });
  const result: TsBlock[] = [];
  for (const page of pages()) {
    const blocks = blocksOf(page);
    blocks.forEach((block, i) => {
      if (!isTs(block)) return;
      const where = placeOf(page, block.line);
      const unknown = block.words.filter((w) => w !== 'run' && !w.startsWith('prelude=') && !/^\{[\d,-]+\}$/.test(w) && !w.startsWith('['));
      if (unknown.length) throw new Error(`${where}: unknown fence words ${unknown.join(' ')} (known: prelude=NAME, run)`);
      const preludeName = block.words.find((w) => w.startsWith('prelude='))?.slice('prelude='.length);
      const run = block.words.includes('run');
      const next = blocks[i + 1];
      if (run && next?.lang !== 'text') throw new Error(`${where}: a run block is followed by a \`\`\`text block of what it prints`);
      const { text, offset } = moduleText(block, preludeName);
      const file = path.join(examplesDir, `${page.replace(/^\.\.\//, '').replace(/\.md$/, '').replaceAll('/', '-')}-${block.line}.ts`);
      writeFileSync(file, text);
      result.push({ ...block, prelude: preludeName, run, output: run ? next!.code : undefined, outputLine: run ? next!.line : undefined, file, offset });
    });
  }
  return result;
}

export interface ConsoleCommand {
  readonly page: string;
  readonly line: number;
  /** The arguments after `npx ddbgen`. */
  readonly args: readonly string[];
  /** What it prints (stdout and stderr as a terminal shows them). */
  readonly output: string;
}

/** The `$ npx ddbgen …` commands of every ```console block, with what each prints. */
export function consoleCommands(): ConsoleCommand[] {
  const commands: ConsoleCommand[] = [];
  for (const page of pages()) {
    for (const block of blocksOf(page).filter((b) => b.lang === 'console')) {
      const lines = block.code.split('\n');
      lines.forEach((line, i) => {
        if (!line.startsWith('$ ')) return;
        const where = placeOf(page, block.line + i);
        const words = line.slice(2).trim().split(/\s+/);
        if (words[0] !== 'npx' || words[1] !== 'ddbgen') throw new Error(`${where}: a console block runs npx ddbgen commands only`);
        const end = lines.findIndex((l, j) => j > i && l.startsWith('$ '));
        commands.push({ page, line: block.line + i, args: words.slice(2), output: lines.slice(i + 1, end < 0 ? undefined : end).join('\n') });
      });
    }
  }
  return commands;
}

/** Replaces lines `from`..`to` (1-based, inclusive) of pages, each page's edits applied bottom-up. */
export function editPages(edits: ReadonlyArray<{ page: string; from: number; to: number; text: string; indent: string }>): void {
  for (const page of new Set(edits.map((e) => e.page))) {
    const file = path.join(docsDir, page);
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const edit of edits.filter((e) => e.page === page).sort((a, b) => b.from - a.from)) {
      lines.splice(edit.from - 1, edit.to - edit.from + 1, ...edit.text.split('\n').map((line) => (line ? edit.indent + line : line)));
    }
    writeFileSync(file, lines.join('\n'));
  }
}
