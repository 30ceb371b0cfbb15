// One ava worker for the unit tests of the in-memory DynamoDB and the migration engine
// (templates/runtime/in-memory/, templates/runtime/migration/) and the testing guide's example app on
// the in-memory table, instead of one each; see schema-and-cli.test.ts for how a group runs and why.
// None of them has a hook or a snapshot; the migration CLI's serial tests still run one at a time,
// before the others, as does the in-memory table's transaction held by a one-second latency fault.
import '../../templates/runtime/in-memory/expression.test.js';
import '../../templates/runtime/in-memory/table.test.js';
import '../../templates/runtime/in-memory/value.test.js';
import '../../templates/runtime/migration/capacity-bucket.test.js';
import '../../templates/runtime/migration/cli.test.js';
import '../../templates/runtime/migration/engine.test.js';
import '../../templates/runtime/migration/run-status.test.js';
import '../../examples/testing-your-app.test.js';
import '../in-memory/guide-example.test.js';
