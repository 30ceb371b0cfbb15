// Hidden before the blocks that say prelude=sessions-local: the Sessions table, created on the docs
// test's DynamoDB Local.
import { SessionsTable, sessionsTableDefinition } from './out/sessions/index.js';
import { createTable, documentClient } from './docs-client.js';

await createTable(sessionsTableDefinition());
const db = new SessionsTable(documentClient);
