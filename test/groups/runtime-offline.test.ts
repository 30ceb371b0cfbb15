// One ava worker for these test files of the generated code's runtime against fakes (no DynamoDB),
// instead of one each; see schema-and-cli.test.ts for how a group runs and why.
import '../offline/doc-examples.test.js';
import '../offline/edges.test.js';
import '../offline/faults.test.js';
import '../offline/gather.test.js';
import '../offline/pii-fingerprint.test.js';
import '../offline/query-input.test.js';
import '../offline/shard-identity.test.js';
import '../hostile-values.test.js';
import '../telemetry-pii.test.js';
import '../telemetry-emf.test.js';
