// One ava worker for these test files of `ddbgen pull`'s inference, the emitted types' checks and the
// generated in-memory table factories, instead of one each; see schema-and-cli.test.ts for how a group
// runs and why. type-check's one serial test still runs alone, before the others.
import '../pull.test.js';
import '../type-check.test.js';
import '../in-memory/generated.test.js';
