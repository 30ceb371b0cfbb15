// One ava worker for these test files instead of one each: the files stay where they are (and
// `npx ava test/plan.test.ts` still runs one alone), ava.config.js leaves every file imported from
// test/groups/ out of its own list, and their tests run here side by side (none of them has a hook
// or a snapshot, and their titles differ). Each worker pays Node, tsx and ava, and loads and warms up
// the generator for itself: at load ~25 these ten took 88 CPU-seconds as ten workers, 57 as one.
import '../plan.test.js';
import '../iam.test.js';
import '../iam-scope.test.js';
import '../validate-shard.test.js';
import '../validate-native-index.test.js';
import '../table-settings-export.test.js';
import '../generated-names.test.js';
import '../origin.test.js';
import '../project-root.test.js';
import '../schema-transpile.test.js';
import '../terminal.test.js';
import '../editor/template-answers.test.js';
