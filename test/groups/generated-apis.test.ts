// One ava worker for these test files of the generated APIs over a fresh table per test (the
// in-memory table, or the run's DynamoDB Local: test/support/social-tests.ts), instead of one each;
// see schema-and-cli.test.ts for how a group runs and why. Each file keeps its own tables (its own
// in-memory table, or its tables on DynamoDB Local), made by its tests rather than by hooks.
import '../connected/batches.test.js';
import '../connected/edges.test.js';
import '../connected/fans.test.js';
import '../connected/indexes.test.js';
import '../connected/native-indexes.test.js';
import '../connected/repository.test.js';
import '../connected/seams.test.js';
import '../connected/security.test.js';
import '../connected/stored-formats.test.js';
import '../connected/streams.test.js';
import '../connected/ttl.test.js';
import '../connected/writes.test.js';
