// Hidden before the blocks that say prelude=weekly-local: the Weekly table, created on the docs test's
// DynamoDB Local.
import { WeeklyTable, weeklyTableDefinition } from './out/weekly/index.js';
import { createTable, documentClient } from './docs-client.js';

await createTable(weeklyTableDefinition());
const db = new WeeklyTable(documentClient);
