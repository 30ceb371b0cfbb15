// One ava worker for the connected tests of coordinated migration workers, instead of one each (see
// schema-and-cli.test.ts for how a group runs): every test is serial and runs alone, as in its own
// file; their hooks (sharedDynamoDbLocal's, after the last test) stop the worker's DynamoDB Local
// once. Besides Node, tsx, ava and the generator paid once, the MEMBER → PATRON migration
// three of them use is emitted once (emitLibraryMigration in test/support/migration-program.ts).
import '../connected/migration-coordinated.test.js';
import '../connected/migration-cap.test.js';
import '../connected/migration-status.test.js';
import '../connected/migration-takeover.test.js';
