// Hidden before the blocks that say prelude=clicks: the table over the docs test's client.
import { ClicksTable } from './out/clicks/index.js';
import { documentClient } from './docs-client.js';

const db = new ClicksTable(documentClient);
