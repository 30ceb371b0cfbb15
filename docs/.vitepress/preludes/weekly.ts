// Hidden before the blocks that say prelude=weekly: the table over the docs test's client.
import { WeeklyTable } from './out/weekly/index.js';
import { documentClient } from './docs-client.js';

const db = new WeeklyTable(documentClient);
