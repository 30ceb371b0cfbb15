// One ava worker for these test files of validation, the observed-traffic lint, diff and its
// migrations' emitted code, instead of one each; see schema-and-cli.test.ts for how a group runs and why.
import '../validate.test.js';
import '../validate-table-settings.test.js';
import '../lint-observed.test.js';
import '../diff.test.js';
import '../migration-emit.test.js';
import '../stream.test.js';
import '../types.test.js';
