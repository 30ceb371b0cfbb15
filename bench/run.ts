// `npm run bench [-- --quick | --smoke]`: ddbgen's generated repositories against a hand-written
// lib-dynamodb baseline and the peers (ElectroDB, DynamoDB-Toolbox v2), and the generated in-memory
// table against DynamoDB Local, measured side by side in one run, and written to BENCHMARKS.md.
// Ratios are taken round by round (same round, same machine state) and their median reported,
// because these machines are noisy.
// Each section is a module of bench/sections/, run here in the order BENCHMARKS.md lists them in;
// what they share (the run's options, measuring, the report) is in run-options.ts, measure.ts and report.ts.

import { spawnSync } from 'node:child_process';
import { benchColdStart } from './cold-start.js';
import { benchLocalServer } from './local-server.js';
import { borrowedLocal, releaseBorrowedLocal } from './measure.js';
import { goals, section, writeReport } from './report.js';
import { quick, size, smoke, want } from './run-options.js';
import { clientOverhead } from './sections/client-overhead.js';
import { endToEnd } from './sections/end-to-end.js';
import { footprintAndImport } from './sections/footprint.js';
import { gatherOverShards } from './sections/gather.js';
import { inMemoryTable } from './sections/in-memory.js';
import { throughRealSdk } from './sections/real-sdk.js';
import { testSuite } from './sections/test-suite.js';
import { typeCheckAndGeneration } from './sections/type-check-and-generation.js';

if (want(1)) await clientOverhead();
if (want(2)) await throughRealSdk();
if (want(5)) await endToEnd();
if (want(7)) await gatherOverShards();
if (want(8)) await inMemoryTable();

// ---------------------------------------------------------------- 11. ddbgen local against DynamoDB Local
if (want(11)) {
  // --smoke: on the smoke's one DynamoDB Local (borrowedLocal) rather than one started with the JVM's default settings
  const given = smoke ? await borrowedLocal() : undefined;
  const { title, text } = await benchLocalServer({
    requests: size(300, 2000),
    rounds: size(2, 3),
    starts: smoke ? 0 : size(2, 5),
    items: smoke ? 500 : quick ? 20_000 : 1_000_000,
    freshForMemory: !smoke,
    ...(given ? { dynamoDbLocal: { endpoint: given.endpoint, pid: given.pid } } : {}),
  });
  section(title, text);
}

// ---------------------------------------------------------------- 13. cold start of a Lambda-style handler
if (want(13)) {
  // --smoke: one process per variant after the correctness gate (no number means anything). A full
  // run also counts the instructions of 3 processes per variant under valgrind, where it is
  // installed: the rounds' wall times spread by tens of milliseconds on a shared machine, the
  // instructions do not
  const counted = smoke || quick || spawnSync('valgrind', ['--version']).error ? 0 : 3;
  const { title, text, added, addedInstructions, load } = await benchColdStart(smoke ? 1 : quick ? 6 : 20, counted);
  section(title, text);
  const ms = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(1));
  const range = (s: { median: number; min: number; max: number }) => `${ms(s.median)} ms (${ms(s.min)} – ${ms(s.max)})`;
  const percent = (share: number) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(2)} %`;
  const wallMet = added.bundled.median <= 5 && added.external.median <= 5;
  // the better goal, where the instructions were counted: ddbgen's added share of the hand-written process's
  const countedMet = addedInstructions && addedInstructions.bundled <= 0.015 && addedInstructions.external <= 0.015;
  goals.push({
    measure: "cold start of the README's app as a Lambda handler (esbuild, ESM, minified), a fresh Node process to the first answer from a local endpoint: ddbgen's added time over the handler written by hand",
    measured:
      `SDK bundled ${range(added.bundled)}, SDK external ${range(added.external)}: median (min – max) of the rounds' differences, ${smoke ? 1 : quick ? 6 : 20} processes each; load average ${load}` +
      (addedInstructions ? `; instructions executed: ${percent(addedInstructions.bundled)} / ${percent(addedInstructions.external)} of the hand-written process's (SDK bundled / external)` : ''),
    goal: addedInstructions ? '≤ 5 ms (median of 20 fresh processes); better: added instructions ≤ 1.5 %' : '≤ 5 ms (median of 20 fresh processes)',
    met: countedMet ?? wallMet,
    note:
      'section 13: the difference is taken within each round; where the load average is above the cores, a process waits seconds for a core and the rounds spread over seconds. ' +
      (addedInstructions
        ? `The wall goal is ${wallMet ? 'met' : 'missed'} in this run, and 20 processes cannot tell 5 ms from 10 on a shared machine (single rounds spread over ±60–140 ms on 2026-11-29); the verdict is the better goal's, ddbgen's added instructions ≤ 1.5 % of the hand-written handler's process (about 5 ms of a 330 ms cold start), counted by valgrind, which the load does not move`
        : 'the goal is decided on an idle machine (`npx tsx bench/cold-start.ts --instructions 2` also counts the instructions each process executes, which the load does not move, and decides the better goal: added instructions ≤ 1.5 %)'),
  });
}

if (want(3) || want(4)) await typeCheckAndGeneration();
if (want(6)) await footprintAndImport();
if (want(9) && !quick) await testSuite();

await releaseBorrowedLocal();
process.stdout.write(writeReport());
