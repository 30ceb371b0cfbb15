// Hidden before the blocks that say prelude=seeds-local: the Seeds table, created on the docs test's
// DynamoDB Local.
import { SeedsTable, seedsTableDefinition } from './out/seeds/index.js';
import { createTable, documentClient } from './docs-client.js';

await createTable(seedsTableDefinition());
const db = new SeedsTable(documentClient);
