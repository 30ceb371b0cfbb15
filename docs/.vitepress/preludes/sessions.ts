// Hidden before the blocks that say prelude=sessions: the table over the docs test's client.
import { SessionsTable } from './out/sessions/index.js';
import { documentClient } from './docs-client.js';

const db = new SessionsTable(documentClient);
