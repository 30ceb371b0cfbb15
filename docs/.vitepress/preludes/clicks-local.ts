// Hidden before the blocks that say prelude=clicks-local: the Clicks table, created on the docs test's
// DynamoDB Local.
import { ClicksTable, clicksTableDefinition } from './out/clicks/index.js';
import { createTable, documentClient } from './docs-client.js';

await createTable(clicksTableDefinition());
const db = new ClicksTable(documentClient);
